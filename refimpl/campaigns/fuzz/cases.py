"""A fuzz case: a start and the requests that follow it, drawn against the reference as it goes.

A case is what a trace is without its expectations: the start (ruleset, seed, set-up) and a list of
requests (actions, restarts, new starts, protocol requests). It turns into an in-memory trace, so the
same planner and judge that replay hand-written traces run it, and a reproducer is just that trace with
the reference's answers written in.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Generator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ...games import GAMES, JSON, Game, RuleViolation
from ...harness.driver import Outcome, ReferenceDriver
from ...harness.requests import Apply, Legal, Op, Restart, Start, Written, changes_game
from ...harness.trace import Step, Steps, Trace
from .draw import Draw
from .inputs import bend_action, bend_start, odd_action, odd_request, scalars
from .kinds import Options, action_kind, met, options, pick_action, type_name, type_names
from .positions import drawer, hints


@dataclass(frozen=True)
class CaseStep:
    """One step of a case: ``kind`` action | restart | start | request; ``body`` the action, the start's
    fields or the request; ``legal``: the legal lists are checked after it."""

    kind: str
    body: JSON = None
    legal: bool = False

    def op(self, game: str) -> Op:
        if self.kind == "action":
            return Apply(self.body)
        if self.kind == "restart":
            return Restart()
        if self.kind == "start":
            return Start(game, self.body.get("ruleset"), self.body.get("seed"), self.body.get("setup", {}))
        return Written(self.body)


@dataclass(frozen=True)
class Case:
    game: str
    ruleset: str
    seed: JSON
    setup: JSON
    steps: tuple[CaseStep, ...] = ()
    legal_at_start: bool = True
    origin: str = "plain"  # how the start was drawn: plain | played | drawn

    def size(self) -> tuple[int, int]:
        """What shrinking makes smaller: the steps, then the length of everything sent."""
        return len(self.steps), len(json.dumps(self.json(), sort_keys=True))

    def trace(self, path: str = "<fuzz case>") -> Trace:
        """The case as a trace without expectations (the oracle supplies them)."""
        return self._trace(Steps.of(_step(i, r) for i, r in enumerate(self.steps, 1)), path)

    def _trace(self, steps: Steps, path: str = "<fuzz case>") -> Trace:
        return Trace(path=path, game=self.game, ruleset=self.ruleset, seed=self.seed, setup=self.setup,
                     title="fuzz case", rules=(), source="refimpl fuzz", steps=steps)

    def legal_at(self, step: Step | None) -> bool:
        """Whether the oracle's legal lists are compared after ``step`` (None: the start)."""
        return self.legal_at_start if step is None else self.steps[step.number - 1].legal

    def ops(self) -> list[Op]:
        return [Start(self.game, self.ruleset, self.seed, self.setup)] + [r.op(self.game) for r in self.steps]

    def with_steps(self, steps: Sequence[CaseStep], **changes: Any) -> Case:
        return replace(self, steps=tuple(steps), **changes)

    def json(self) -> dict[str, JSON]:
        return {"game": self.game, "ruleset": self.ruleset, "seed": self.seed, "setup": self.setup,
                "steps": [[r.kind, r.body, r.legal] for r in self.steps], "legal_at_start": self.legal_at_start,
                "origin": self.origin}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Case:
        return cls(data["game"], data["ruleset"], data["seed"], data["setup"],
                   tuple(CaseStep(k, b, legal) for k, b, legal in data["steps"]), data["legal_at_start"],
                   data.get("origin", "plain"))


def setup_lists(setup: dict[str, Any]) -> Iterator[tuple[str, ...]]:
    """The key paths of the lists in a set-up: at the top level, and one level down in a mapping (Black Fog's
    ``map.apple``); what shrinking thins and the reproducer prunes."""
    for key, value in setup.items():
        if isinstance(value, list):
            yield (key,)
        elif isinstance(value, dict):
            for inner, item in value.items():
                if isinstance(item, list):
                    yield key, inner


def setup_at(setup: Any, path: tuple[str, ...]) -> Any:
    """The part of a set-up at a key path of ``setup_lists``."""
    for key in path:
        setup = setup[key]
    return setup


def _step(number: int, r: CaseStep) -> Step:
    """A request of a case as a step of its trace (without expectations)."""
    return Step(number=number, line=0, action=r.body if r.kind == "action" else None, kind=r.kind,
                start=r.body if r.kind in ("start", "request") else None)


class Mirror(ReferenceDriver):
    """The reference playing the case as it is drawn (``refimpl serve``'s own session, as the judge's
    reference has it), so each step is chosen from the position the requests so far have made.

    It can be the judge's oracle as well (``CaseDraw.trace``): the plan then sends it every request, the
    case's steps among them as they are drawn, and the reference works each answer out once. What it works
    out for the position it is in (the legal actions and their kinds) is kept while it stays there: for the
    legal list the plan asks about there, and for the next step drawn from there (after a refused one too)."""

    def __init__(self, case: Case, start: bool = True) -> None:
        super().__init__()
        self.game = case.game
        # (engine, state, the referee's legal actions, those as JSON) while the mirror stays at one position
        self._legal: tuple[Any, Any, list[Any], list[JSON]] | None = None
        self._options: tuple[Any, Any, Options] | None = None
        self._shown: tuple[Any, JSON] | None = None  # (state, the referee's view of it the latest answer showed)
        self._met = met(case.game)  # the kinds of the long lists' actions met in this game (Options)
        if start:
            self.send(Start(case.game, case.ruleset, case.seed, case.setup))

    def send(self, op: Op) -> dict[str, JSON]:
        return self.session.handle(op.body())

    @property
    def engine(self) -> Game[Any, Any]:
        return self.session.game or GAMES[self.game]

    @property
    def state(self) -> Any:
        return self.session.state

    def _here(self, engine: Game[Any, Any], state: Any) -> tuple[Any, Any, list[Any], list[JSON]]:
        here = self._legal
        if here is None or here[0] is not engine or here[1] is not state:
            actions = engine.legal_actions(state)
            here = self._legal = (engine, state, actions, engine.actions_json(actions))
        return here

    def referee_view(self) -> JSON:
        """The referee's view of the mirror's position: the one its latest answer showed, while it is there."""
        shown = self._shown
        if shown is not None and shown[0] is self.state:
            return shown[1]
        return self.engine.view(self.state)

    def legal_json(self, engine: Game[Any, Any], state: Any) -> list[JSON]:
        """The legal actions of ``state`` as JSON (what the session answers ``legal`` with), worked out once
        while the mirror stays at that state (states are values that never change)."""
        return self._here(engine, state)[3]

    def observer_json(self, engine: Game[Any, Any], state: Any, observer: str) -> list[JSON]:
        """``observer``'s legal actions of ``state`` as JSON, picked out of the referee's list the mirror has
        worked out there (``Game.observer_legal``). Raises RuleViolation as ``legal_actions`` does."""
        here = self._here(engine, state)
        return engine.actions_json(engine.observer_legal(state, observer, here[2]))

    def options(self) -> Options:
        """What can be done at the mirror's position (see ``options``)."""
        engine, state = self.engine, self.state
        here = self._options
        if here is not None and here[0] is engine and here[1] is state:
            return here[2]
        found = Options(*options(engine, state, None if state is None else self.legal_json(engine, state)),
                        met=self._met)
        self._options = (engine, state, found)
        return found

    def batch(self, ops: Iterable[Op]) -> Generator[Outcome, None, None]:
        """As the reference answers ``ops``; a legal list of the position the mirror is in is picked out of
        the referee's list it has worked out there, the list the session would answer with."""
        for op in ops:
            engine, state = self.session.game, self.session.state
            if isinstance(op, Legal) and engine is not None and self.transcript is None:
                observer = op.observer
                try:
                    actions = self.legal_json(engine, state) if observer is None \
                        else self.observer_json(engine, state, observer)
                except RuleViolation:
                    pass  # the session refuses it, in its own words
                else:
                    yield actions  # (the outcome of a legal request: the list, which the engine made well formed)
                    continue
            for answer in super().batch((op,)):
                if changes_game(op) and type(answer) is dict:
                    self._shown = (self.session.state, answer)
                yield answer




def draw_start(d: Draw, game: str, ruleset: str, depth: int) -> tuple[JSON, JSON, str]:
    """(seed, set-up, origin) of a case: the plain start, a position reached by up to ``depth`` random legal
    actions and given as a set-up (``played``), or a set-up drawn by the game's drawer (``drawn``)."""
    engine = GAMES[game]
    kind = d.weighted([(None, 2), ("small", 4), ("large", 1), ("edge", 1)])
    make = {None: None, "small": lambda: d.below(1000), "large": lambda: d.below(1 << 53),
            "edge": lambda: d.pick((0, (1 << 53) - 1))}[kind]
    seed = make() if callable(make) else make
    draw_setup = drawer(game)
    how = d.weighted([("plain", 4), ("played", 2), ("drawn", 3)])
    if how == "played" and type(engine).setup_of is not Game.setup_of:
        state = engine.new_state(ruleset, seed)
        for _ in range(d.below(depth + 1)):
            # A type, then an action of it, from the engine's own actions: neither written as JSON nor sorted
            # by kind, since only the position they reach is kept (Conquest King's deployments cost a case
            # a tenth of its time the other way).
            actions = engine.legal_actions(state)
            if not actions:
                break
            names = type_names(actions, lambda a: type(a).__name__)  # (action values: named by their class)
            chosen = d.pick(sorted(set(names)))
            try:
                state = engine.apply(state, d.pick([a for a, n in zip(actions, names) if n == chosen]))
            except RuleViolation:
                break  # a listed action the rules still refuse (none known; a wrong list must not stop a start)
        setup = engine.setup_of(state)
        if setup is not None:
            return seed, setup, "played"
    if how == "drawn" and draw_setup is not None:
        setup = draw_setup(d, engine, ruleset)
        edge = hints(game).edge
        if edge is not None and d.one_in(4):  # a seed whose stream is about to meet its rare edge
            seed, setup = edge(d, engine, setup) or (seed, setup)
        return seed, setup, "drawn"
    return seed, {}, "plain"


STATS = {"op": "stats"}


class Vocabulary:
    """The actions a case has met so far (at most 64, the oldest 32 dropped past that), which bent actions take
    values from, and how many of each kind it holds (kept as they come, not worked out again each step)."""

    def __init__(self) -> None:
        self.items: list[JSON] = []
        self.kinds: Counter[str] = Counter()

    def learn(self, actions: list[JSON]) -> None:
        for a in actions:
            self.items.append(a)
            self.kinds[action_kind(a)] += 1
        if len(self.items) > 64:
            for a in self.items[:32]:
                kind = action_kind(a)
                self.kinds[kind] -= 1
                if not self.kinds[kind]:
                    del self.kinds[kind]
            del self.items[:32]


def draw_step(d: Draw, mirror: Mirror, vocabulary: Vocabulary, last: bool, previous: CaseStep | None = None
              ) -> CaseStep:
    """The next request of a case, from the position the mirror is in: mostly a legal action (or one the
    legal list leaves out), sometimes an action with faults, a malformed one, a restart, a new start
    (valid or not) or a protocol request of another kind. In a game that keeps records (LD-STAT-1), the
    records (``stats``) now and then, and half the time right after a restart or a start has left a game
    (abandoned or over) and once a game is over."""
    engine, state = mirror.engine, mirror.state
    records = bool(GAMES[mirror.game].info.statistics)
    if records and previous is not None and previous.kind in ("restart", "start") and d.one_in(2):
        return CaseStep("request", dict(STATS))
    here = mirror.options()
    legal, every = here.legal, here.every
    # the first action of each type whose kind is not yet in the vocabulary: each gets bent (and so does the first of
    # each kind of the type a step picks, below)
    vocabulary.learn(every[:2] + [a for a in here.firsts() if action_kind(a) not in vocabulary.kinds])
    check = last or d.below(1 + len(legal) // 64) == 0  # long lists are fetched on some steps only
    focus = hints(mirror.game).step
    if focus is not None and state is not None:  # the game's own aim, now and then: where its rules are busy
        action = focus(d, engine, state, legal)
        if action is not None:
            return CaseStep("action", action, check)
    if state is not None and not every:  # the game is over (or nothing can be done): mostly begin again
        what = d.weighted([("restart", 4), ("start", 4), ("bend", 1), ("odd", 1), ("ask", 1)]
                          + [("records", 4)] * records)
    else:
        what = d.weighted([("play", 48), ("bend", 8), ("odd", 2), ("restart", 1), ("start", 3), ("ask", 2)]
                          + [("records", 1)] * records)
    if what == "records":
        return CaseStep("request", dict(STATS))
    if what in ("play", "bend", "odd"):
        action = pick_action(d, here) if every else pick_action(d, vocabulary.items or [{"type": "?"}])
        if every:
            vocabulary.learn([same[0] for kind, same in here.kinds(type_name(action)).items()
                              if kind not in vocabulary.kinds])
        if what == "bend":
            near = scalars(mirror.referee_view()) if state is not None else []
            action = bend_action(d, action, vocabulary.items, near)
        elif what == "odd":
            action = odd_action(d, action)
        return CaseStep("action", action, check)
    if what == "restart":
        return CaseStep("restart", None, check)
    if what == "start":
        ruleset = d.pick(GAMES[mirror.game].info.rulesets)
        seed, setup, _how = draw_start(d, mirror.game, ruleset, depth=20)
        fields = {"ruleset": ruleset, "seed": seed, "setup": setup}
        return CaseStep("start", bend_start(d, ruleset, seed, setup) if d.one_in(2) else fields, check)
    info = GAMES[mirror.game].info
    return CaseStep("request", odd_request(d, mirror.game, info.players), check)


@dataclass
class CaseShape:
    """Bounds of the cases a campaign draws."""

    max_steps: int
    depth: int  # how far a ``played`` start may be from the opening
    rulesets: tuple[str, ...] = field(default_factory=tuple)


class CaseDraw:
    """A case being drawn: its start at once, then up to ``shape.max_steps`` requests (half the cases at most
    20), each from the position the requests before it have made.

    Either the draw plays its requests on the mirror itself (``case``: the whole case at once), or it hands
    them to the judge's plan one at a time as the plan asks for them (``trace``), with the mirror as the
    plan's oracle: the plan sends the mirror each request, then asks what it asks after it, before the next
    one is drawn. The same choices give the same case either way: the plan's other requests leave the game
    as it is, and a start the game refuses (a drawn set-up) leaves it as it was."""

    def __init__(self, d: Draw, game: str, ruleset: str, shape: CaseShape) -> None:
        self.d = d
        seed, setup, origin = draw_start(d, game, ruleset, shape.depth)
        self.requests: list[CaseStep] = []
        try:
            if setup:  # (a plain start, with a seed draw_start draws, is one every game takes)
                GAMES[game].new_state(ruleset, seed, setup)
        except RuleViolation:  # a drawn set-up the game refuses: the build must refuse it too, then play on
            self.requests.append(CaseStep("start", {"ruleset": ruleset, "seed": seed, "setup": setup}))
            setup, origin = {}, "plain"
        limit = shape.max_steps if d.one_in(2) else min(shape.max_steps, 20)
        self.n = d.below(limit + 1)
        self.before = len(self.requests)  # requests before the drawn ones
        self.start = Case(game, ruleset, seed, setup, (), True, origin)
        self.mirror = Mirror(self.start, start=False)
        self._vocabulary = Vocabulary()
        self._by: str | None = None  # who plays the requests on the mirror: "itself" or "plan"
        self._case: Case | None = None

    @property
    def complete(self) -> bool:
        return len(self.requests) == self.before + self.n

    def _next(self) -> CaseStep:
        i = len(self.requests) - self.before
        previous = self.requests[-1] if len(self.requests) > self.before else None
        step = draw_step(self.d, self.mirror, self._vocabulary, last=i == self.n - 1, previous=previous)
        self.requests.append(step)
        return step

    def case(self) -> Case:
        """The whole case: drawn to its end here, unless the plan draws it (then once the plan is done)."""
        if self._case is not None:
            return self._case
        if self._by is None:
            self._by = "itself"
            c = self.start
            self.mirror.send(Start(c.game, c.ruleset, c.seed, c.setup))
            while not self.complete:
                self.mirror.send(self._next().op(c.game))
        if not self.complete:
            raise RuntimeError("the case is still being drawn")
        self._case = self.start.with_steps(self.requests)
        return self._case

    def sent(self) -> Case:
        """The case as far as it is drawn (all of it, once complete)."""
        return self.case() if self.complete else self.start.with_steps(self.requests)

    def trace(self) -> Trace:
        """The case as a trace whose steps are drawn as they are taken, in order, for a plan that has the
        mirror as its oracle (and so plays each one on it before taking the next)."""
        if self._by is not None:
            raise RuntimeError("the case is already being drawn")
        self._by = "plan"

        def make(i: int) -> Step:
            if i > len(self.requests):
                raise IndexError(f"step {i + 1} of a case drawn in order")
            return _step(i + 1, self.requests[i] if i < len(self.requests) else self._next())

        return self.start._trace(Steps(self.before + self.n, make, False))

    def legal_at(self, step: Step | None) -> bool:
        """``Case.legal_at`` for the steps drawn so far."""
        return self.start.legal_at_start if step is None else self.requests[step.number - 1].legal


def draw_case(d: Draw, game: str, ruleset: str, shape: CaseShape) -> Case:
    """A whole case: a start, then up to ``shape.max_steps`` requests (half the cases at most 20)."""
    return CaseDraw(d, game, ruleset, shape).case()


def replay_mirror(case: Case, upto: int) -> Mirror:
    """The reference after the case's start and its first ``upto`` steps."""
    mirror = Mirror(case)
    for step in case.steps[:upto]:
        mirror.send(step.op(case.game))
    return mirror
