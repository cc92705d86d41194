"""A fuzz case: a start and the requests that follow it, drawn against the reference as it goes.

A case is what a trace is without its expectations: the start (ruleset, seed, set-up) and a list of
requests (actions, restarts, new starts, protocol requests). It turns into an in-memory trace, so the
same planner and judge that replay hand-written traces run it, and a reproducer is just that trace with
the reference's answers written in.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any, Mapping, Sequence

from ..driver import Op, request
from ..games import GAMES, JSON, Game, RuleViolation
from ..serve import Session
from ..trace import Step, Steps, Trace
from .draw import Draw
from .inputs import bend_action, bend_start, odd_action, odd_request, scalars
from .positions import drawer


@dataclass(frozen=True)
class Request:
    """One step of a case: ``kind`` action | restart | start | request; ``body`` the action, the start's
    fields or the request; ``legal``: the legal lists are checked after it."""

    kind: str
    body: JSON = None
    legal: bool = False

    def op(self, game: str) -> Op:
        if self.kind == "action":
            return ("apply", self.body)
        if self.kind == "restart":
            return ("restart",)
        if self.kind == "start":
            return ("start", game, self.body.get("ruleset"), self.body.get("seed"), self.body.get("setup", {}))
        return ("request", self.body)


@dataclass(frozen=True)
class Case:
    game: str
    ruleset: str
    seed: JSON
    setup: JSON
    steps: tuple[Request, ...] = ()
    legal_at_start: bool = True
    origin: str = "plain"  # how the start was drawn: plain | played | drawn

    def size(self) -> tuple[int, int]:
        """What shrinking makes smaller: the steps, then the length of everything sent."""
        return len(self.steps), len(json.dumps(self.json(), sort_keys=True))

    def trace(self, path: str = "<fuzz case>") -> Trace:
        """The case as a trace without expectations (the oracle supplies them)."""
        steps = []
        for i, r in enumerate(self.steps, 1):
            start = r.body if r.kind in ("start", "request") else None
            steps.append(Step(number=i, line=0, action=r.body if r.kind == "action" else None, kind=r.kind,
                              start=start))
        return Trace(path=path, game=self.game, ruleset=self.ruleset, seed=self.seed, setup=self.setup,
                     title="fuzz case", rules=(), source="refimpl fuzz", steps=Steps.of(steps))

    def legal_at(self, step: Step | None) -> bool:
        """Whether the oracle's legal lists are compared after ``step`` (None: the start)."""
        return self.legal_at_start if step is None else self.steps[step.number - 1].legal

    def ops(self) -> list[Op]:
        return [("start", self.game, self.ruleset, self.seed, self.setup)] + [r.op(self.game) for r in self.steps]

    def with_steps(self, steps: Sequence[Request], **changes: Any) -> "Case":
        return replace(self, steps=tuple(steps), **changes)

    def json(self) -> dict[str, JSON]:
        return {"game": self.game, "ruleset": self.ruleset, "seed": self.seed, "setup": self.setup,
                "steps": [[r.kind, r.body, r.legal] for r in self.steps], "legal_at_start": self.legal_at_start,
                "origin": self.origin}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Case":
        return cls(data["game"], data["ruleset"], data["seed"], data["setup"],
                   tuple(Request(k, b, legal) for k, b, legal in data["steps"]), data["legal_at_start"],
                   data.get("origin", "plain"))


class Mirror:
    """The reference playing the case as it is drawn (``refimpl serve``'s own session), so each step is
    chosen from the position the requests so far have made."""

    def __init__(self, case: Case) -> None:
        self.game = case.game
        self.session = Session(GAMES, "mirror")
        self.send(("start", case.game, case.ruleset, case.seed, case.setup))

    def send(self, op: Op) -> dict[str, JSON]:
        return self.session.handle(request(op))

    @property
    def engine(self) -> Game[Any, Any]:
        return self.session.game or GAMES[self.game]

    @property
    def state(self) -> Any:
        return self.session.state


def _kind(action: JSON) -> str:
    """An action's kind for choosing: its type and its true flags (``move+attack``, ``deploy+ambush``)."""
    if type(action) is not dict:
        return "?"
    flags = [k for k, v in action.items() if v is True]
    kind = str(action.get("type"))
    return kind if not flags else "+".join([kind] + sorted(flags))


def pick_action(d: Draw, options: Sequence[JSON]) -> JSON:
    """A type first, then a kind of that type (its true flags: an attack, an ambush), then an action of that
    kind: a rare kind (complete deployment, reveal an ambush, attack) is as likely as a common one."""
    by_type: dict[str, list[JSON]] = {}
    for a in options:
        by_type.setdefault(str(a.get("type")) if type(a) is dict else "?", []).append(a)
    same_type = by_type[d.pick(sorted(by_type))]
    by_kind: dict[str, list[JSON]] = {}
    for a in same_type:
        by_kind.setdefault(_kind(a), []).append(a)
    return d.pick(by_kind[d.pick(sorted(by_kind))])


def options(engine: Game[Any, Any], state: Any) -> tuple[list[JSON], list[JSON]]:
    """The legal actions now, and the legal ones together with those ``legal`` leaves out (a CPU's choice,
    a seeded throw, time passing)."""
    if state is None:
        return [], []
    legal = [engine.action_json(a) for a in engine.legal_actions(state)]
    return legal, legal + [engine.action_json(a) for a in engine.extra_actions(state)]


def draw_start(d: Draw, game: str, ruleset: str, depth: int) -> tuple[JSON, JSON, str]:
    """(seed, set-up, origin) of a case: the plain start, a position reached by up to ``depth`` random legal
    actions and given as a set-up (``played``), or a set-up drawn by the game's drawer (``drawn``)."""
    engine = GAMES[game]
    seed = d.weighted([(None, 2), ("small", 4), ("large", 1), ("edge", 1)])
    seed = {None: None, "small": lambda: d.below(1000), "large": lambda: d.below(1 << 53),
            "edge": lambda: d.pick((0, (1 << 53) - 1))}[seed]
    seed = seed() if callable(seed) else seed
    draw_setup = drawer(game)
    how = d.weighted([("plain", 4), ("played", 2), ("drawn", 3)])
    if how == "played" and type(engine).setup_of is not Game.setup_of:
        state = engine.new_state(ruleset, seed)
        for _ in range(d.below(depth + 1)):
            legal = [engine.action_json(a) for a in engine.legal_actions(state)]
            if not legal:
                break
            try:
                state = engine.apply(state, engine.parse_action(pick_action(d, legal)))
            except RuleViolation:
                break  # a listed action the rules still refuse (none known; a wrong list must not stop a start)
        setup = engine.setup_of(state)
        if setup is not None:
            return seed, setup, "played"
    if how == "drawn" and draw_setup is not None:
        return seed, draw_setup(d, engine, ruleset), "drawn"
    return seed, {}, "plain"


def draw_step(d: Draw, mirror: Mirror, vocabulary: list[JSON], last: bool) -> Request:
    """The next request of a case, from the position the mirror is in: mostly a legal action (or one the
    legal list leaves out), sometimes an action with faults, a malformed one, a restart, a new start
    (valid or not) or a protocol request of another kind."""
    engine, state = mirror.engine, mirror.state
    legal, every = options(engine, state)
    known = {_kind(a) for a in vocabulary}
    firsts: dict[str, JSON] = {}  # the first action of each kind not yet in the vocabulary: each gets bent
    for a in every:
        kind = _kind(a)
        if kind not in known and kind not in firsts:
            firsts[kind] = a
    vocabulary.extend(every[:2] + list(firsts.values()))
    if len(vocabulary) > 64:
        del vocabulary[:32]
    check = last or d.below(1 + len(legal) // 64) == 0  # long lists are fetched on some steps only
    if state is not None and not every:  # the game is over (or nothing can be done): mostly begin again
        what = d.weighted([("restart", 4), ("start", 4), ("bend", 1), ("odd", 1), ("ask", 1)])
    else:
        what = d.weighted([("play", 48), ("bend", 8), ("odd", 2), ("restart", 1), ("start", 3), ("ask", 2)])
    if what in ("play", "bend", "odd"):
        pool = every or vocabulary or [{"type": "?"}]
        action = pick_action(d, pool)
        if what == "bend":
            near = scalars(engine.view(state)) if state is not None else []
            action = bend_action(d, action, vocabulary, near)
        elif what == "odd":
            action = odd_action(d, action)
        return Request("action", action, check)
    if what == "restart":
        return Request("restart", None, check)
    if what == "start":
        ruleset = d.pick(GAMES[mirror.game].info.rulesets)
        seed, setup, _how = draw_start(d, mirror.game, ruleset, depth=20)
        fields = {"ruleset": ruleset, "seed": seed, "setup": setup}
        return Request("start", bend_start(d, ruleset, seed, setup) if d.one_in(2) else fields, check)
    info = GAMES[mirror.game].info
    return Request("request", odd_request(d, mirror.game, info.players), check)


@dataclass
class CaseShape:
    """Bounds of the cases a campaign draws."""

    max_steps: int
    depth: int  # how far a ``played`` start may be from the opening
    rulesets: tuple[str, ...] = field(default_factory=tuple)


def draw_case(d: Draw, game: str, ruleset: str, shape: CaseShape) -> Case:
    """A whole case: a start, then up to ``shape.max_steps`` requests (half the cases at most 20)."""
    seed, setup, origin = draw_start(d, game, ruleset, shape.depth)
    steps = []
    try:
        GAMES[game].new_state(ruleset, seed, setup)
    except RuleViolation:  # a drawn set-up the game refuses: the build must refuse it too, then play on
        steps.append(Request("start", {"ruleset": ruleset, "seed": seed, "setup": setup}))
        setup, origin = {}, "plain"
    limit = shape.max_steps if d.one_in(2) else min(shape.max_steps, 20)
    n = d.below(limit + 1)
    case = Case(game, ruleset, seed, setup, (), True, origin)
    mirror = Mirror(case)
    vocabulary: list[JSON] = []
    for i in range(n):
        step = draw_step(d, mirror, vocabulary, last=i == n - 1)
        steps.append(step)
        mirror.send(step.op(game))
    return case.with_steps(steps)


def replay_mirror(case: Case, upto: int) -> Mirror:
    """The reference after the case's start and its first ``upto`` steps."""
    mirror = Mirror(case)
    for step in case.steps[:upto]:
        mirror.send(step.op(case.game))
    return mirror
