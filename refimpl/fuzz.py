"""``refimpl fuzz``: differential fuzzing of a build against the reference, with shrunk reproducers.

A game is a list of choices that Hypothesis draws. Each choice picks an action by its kind first (so a
rare kind such as "complete deployment" is as likely as a common one), legal ones from the reference's
list and sometimes an illegal one made by bending a legal one; chance outcomes are actions like any
other, so the fuzzer chooses the dice. The reference plays the choices, the same actions go to the
build in one batch, and every answer is compared: the whole state view (each player's view too in
games with hidden information), the rejection codes, and the legal-action lists where the build offers
them. The first divergence is shrunk by Hypothesis to a short game and written as an ordinary trace
that ``refimpl verify --traces`` replays to the same mismatch.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from hypothesis import HealthCheck, Phase, find, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample

from .compare import MISSING, Difference, first_difference
from .driver import BuildBroke, Op, Rejected
from .games import GAMES, JSON, RuleViolation
from .protocol import DEFAULT_TIMEOUT, ProtocolDriver
from .trace import dump_trace

Choice = tuple[int, int, int]  # (7: try an illegal action, else a legal one; kind; instance)


@dataclass
class Step:
    action: JSON
    views: dict[str | None, JSON] | None  # the reference's views after it (by observer), or None if rejected
    code: str | None = None  # the reference's rejection code
    legal: list[JSON] | None = None  # the reference's legal actions after it


@dataclass
class Mismatch:
    step: int  # 1-based; 0 is the start
    difference: Difference
    steps: list[Step]


@dataclass
class FuzzReport:
    game: str
    ruleset: str
    examples: int
    build: str = ""
    mismatch: Mismatch | None = None
    trace_path: str | None = None
    nondeterministic: Mismatch | None = None
    stats: dict[str, int] = field(default_factory=dict)


def _kind(action: JSON) -> str:
    return str(action.get("type")) + ("+attack" if action.get("attack") else "")


def _bend(action: JSON, vocabulary: list[JSON], n: int) -> JSON:
    """An action near a legal one that the rules may refuse: a number off by some, a field turned into a
    list of two, a key dropped, or a legal action of another moment."""
    keys = [k for k in action if k != "type"]
    how = n % 4
    if how == 3 or not keys:
        return vocabulary[n % len(vocabulary)]
    key = keys[n % len(keys)]
    value = action[key]
    bent = dict(action)
    if how == 0 and isinstance(value, int) and not isinstance(value, bool):
        bent[key] = value + 1 + n % 7
    elif how == 1 and isinstance(value, dict) and value:
        inner = sorted(value)[n % len(value)]
        bent[key] = {**value, inner: [value[inner], value[inner]]}
    elif how == 1:
        bent[key] = [value, value]
    else:
        del bent[key]
    return bent


class ReferenceCrashed(Exception):
    """The reference raised something other than a rule violation: a bug of the kit, not of the build."""


class Fuzzer:
    def __init__(self, game: str, ruleset: str, max_steps: int) -> None:
        self.engine = GAMES[game]
        self.game, self.ruleset, self.max_steps = game, ruleset, max_steps
        info = self.engine.info
        self.observers: list[str | None] = [None] + (list(info.players) if info.hidden_information else [])

    def views(self, state: Any) -> dict[str | None, JSON]:
        return {o: self.engine.view(state, o) for o in self.observers}

    def play(self, choices: list[Choice]) -> tuple[dict[str | None, JSON], list[Step]]:
        """The reference's game for these choices."""
        e = self.engine
        state = e.new_state(self.ruleset)
        start = self.views(state)
        vocabulary: list[JSON] = []
        steps: list[Step] = []
        for legal_or_not, kind_n, n in choices[: self.max_steps]:
            legal = [e.action_json(a) for a in e.legal_actions(state)]
            options = legal + [e.action_json(a) for a in e.extra_actions(state)]
            if not options:
                break
            vocabulary.extend(options[:3])
            kinds = sorted({_kind(a) for a in options})
            chosen_kind = kinds[kind_n % len(kinds)]
            same = [a for a in options if _kind(a) == chosen_kind]
            action = same[n % len(same)]
            if legal_or_not == 7:  # one choice in eight tries something the rules may refuse
                action = _bend(action, vocabulary, n)
            try:
                state = e.apply(state, e.parse_action(action))
                steps.append(Step(action, self.views(state), legal=[e.action_json(a) for a in e.legal_actions(state)]))
            except RuleViolation as exc:
                steps.append(Step(action, None, exc.code))
            except Exception as exc:  # noqa: BLE001 - reported, with the action, as a kit bug
                raise ReferenceCrashed(f"the reference failed on {json.dumps(action)} after "
                                       f"{[s.action for s in steps]}: {exc!r}") from exc
        return start, steps

    def ops(self, steps: list[Step], legal: bool) -> list[Op]:
        ops: list[Op] = [("start", self.game, self.ruleset, None, {})]
        ops += [("view", o) for o in self.observers[1:]]
        for step in steps:
            ops.append(("apply", step.action))
            ops += [("view", o) for o in self.observers[1:]]
            if step.views is None:
                ops.append(("view", None))
            elif legal:
                ops.append(("legal",))
        return ops

    def compare(self, start: dict[str | None, JSON], steps: list[Step], outcomes: Iterator[Any],
                legal: bool) -> Mismatch | None:
        """The first difference between the reference's game and the build's answers."""
        def same_view(expected: JSON, actual: Any, where: str) -> Difference | None:
            """Whole views: a value that differs, a key missing, or a key the reference does not have."""
            if isinstance(actual, Rejected):
                return Difference(f"{where}rejected", None, actual.code)
            diff = first_difference(expected, actual)
            if diff is None:
                extra = first_difference(actual, expected)
                diff = None if extra is None else Difference(extra.path, MISSING, extra.expected)
            return None if diff is None else Difference(where + diff.path, diff.expected, diff.actual)

        diff = same_view(start[None], next(outcomes), "")
        for o in self.observers[1:]:
            diff = diff or same_view(start[o], next(outcomes), f"view[{o}].")
        if diff:
            return Mismatch(0, diff, [])
        before = start[None]
        for i, step in enumerate(steps, 1):
            answer = next(outcomes)
            if step.views is None:
                if not isinstance(answer, Rejected):
                    diff = Difference("rejected", step.code, None)
                elif answer.code != step.code:
                    diff = Difference("rejected", step.code, answer.code)
            else:
                diff = same_view(step.views[None], answer, "")
            for o in self.observers[1:]:
                seen = next(outcomes)
                if diff is None and step.views is not None:
                    diff = same_view(step.views[o], seen, f"view[{o}].")
            if step.views is None:
                after = next(outcomes)
                if diff is None:
                    moved = first_difference(before, after)
                    if moved is not None:
                        diff = Difference(f"unchanged-after-rejection.{moved.path}", moved.expected, moved.actual)
            elif legal:
                theirs = next(outcomes)
                if diff is None and isinstance(theirs, list):
                    ours_set = {json.dumps(a, sort_keys=True) for a in step.legal or []}
                    theirs_set = {json.dumps(a, sort_keys=True) for a in theirs}
                    if ours_set != theirs_set:
                        missing, extra = sorted(ours_set - theirs_set), sorted(theirs_set - ours_set)
                        diff = Difference("legal", f"also {missing[:3]}" if missing else "no more",
                                          f"also {extra[:3]}" if extra else "fewer")
            if diff is not None:
                return Mismatch(i, diff, steps[:i])
            if step.views is not None:
                before = step.views[None]
        return None


def choices_strategy(max_steps: int) -> st.SearchStrategy[list[Choice]]:
    """A game's choices. The length is drawn first and uniformly, so long games are as common as short
    ones, and shrinking it shortens the game; every number shrinks toward a plain legal first option."""
    choice = st.tuples(st.integers(0, 7), st.integers(0, 255), st.integers(0, 1 << 16))
    return st.integers(0, max_steps).flatmap(lambda n: st.lists(choice, min_size=n, max_size=n))


def fuzz(command: str, game: str, ruleset: str | None = None, examples: int = 200, seed: int = 0,
         out: str = "fuzz-out", max_steps: int | None = None, timeout: float = DEFAULT_TIMEOUT,
         twice: bool = False, shrink_budget: int = 400) -> FuzzReport:
    """Fuzz the build started by ``command`` (games of up to ``max_steps`` actions; default: the game's
    typical length). Raises BuildBroke when it breaks, DriverError when it does not declare the game."""
    engine = GAMES[game]
    max_steps = max_steps or engine.info.typical_length
    ruleset = ruleset or engine.info.default_ruleset
    fuzzer = Fuzzer(game, ruleset, max_steps)
    report = FuzzReport(game, ruleset, examples, stats={"games": 0, "actions": 0})
    driver = ProtocolDriver(command, timeout)
    report.build = f"{driver.name} {driver.version}".strip()
    legal = "legal" in driver.capabilities
    if not driver.supports(game, ruleset):
        driver.close()
        from .driver import DriverError
        raise DriverError("unsupported", f"{report.build} does not declare {game} {ruleset}")

    def answers(steps: list[Step]) -> list[Any]:
        return list(driver.batch(fuzzer.ops(steps, legal)))

    failures = 0
    seen: dict[tuple[Choice, ...], bool] = {}  # the same choices always get the same answer

    def diverges(choices: list[Choice]) -> bool:
        key = tuple(choices)
        if key not in seen:
            seen[key] = play_and_compare(choices)
        return seen[key]

    def play_and_compare(choices: list[Choice]) -> bool:
        nonlocal failures
        if failures and report.stats["games"] >= failures + shrink_budget:
            return False  # enough shrinking: keep the smallest divergence found so far (same for a seed)
        start, steps = fuzzer.play(choices)
        report.stats["games"] += 1
        report.stats["actions"] += len(steps)
        first = answers(steps)
        if fuzzer.compare(start, steps, iter(first), legal) is not None:
            failures = failures or report.stats["games"]
            return True
        if twice:
            again = answers(steps)
            if report.nondeterministic is None:
                for i, (a, b) in enumerate(zip(first, again)):
                    diff = first_difference(b, a) if not isinstance(a, Rejected) else None
                    if a != b:
                        report.nondeterministic = Mismatch(i, diff or Difference("answer", a, b), steps)
                        break
        return False

    config = settings(max_examples=examples, database=None, deadline=None, derandomize=False,
                      suppress_health_check=list(HealthCheck), phases=[Phase.generate, Phase.shrink],
                      report_multiple_bugs=False)
    try:
        found = find(choices_strategy(max_steps), diverges, settings=config, random=random.Random(seed))
    except NoSuchExample:
        found = None
    except BuildBroke:
        driver.process.close()
        raise
    if found is not None:
        start, steps = fuzzer.play(found)
        mismatch = fuzzer.compare(start, steps, iter(answers(steps)), legal)
        if mismatch is not None:
            report.mismatch = mismatch
            report.trace_path = write_trace(fuzzer, mismatch, Path(out), seed)
    driver.close()
    return report


def write_trace(fuzzer: Fuzzer, mismatch: Mismatch, out: Path, seed: int) -> str:
    """The shrunk game as an ordinary trace: every step with the reference's full view or its code."""
    steps = []
    for step in mismatch.steps:
        entry: dict[str, Any] = {"action": step.action}
        if step.views is None:
            entry["reject"] = step.code
        else:
            entry["expect"] = step.views[None]
            if len(step.views) > 1:
                entry["views"] = {o: v for o, v in step.views.items() if o is not None}
            if mismatch.difference.path == "legal" and step is mismatch.steps[-1]:
                entry["legal"] = step.legal
        steps.append(entry)
    if not steps:
        steps = [{"restart": True, "expect": fuzzer.views(fuzzer.engine.new_state(fuzzer.ruleset))[None]}]
    doc = {"version": 1, "game": fuzzer.game, "ruleset": fuzzer.ruleset,
           "title": f"fuzz reproducer: {mismatch.difference}",
           "description": f"Found by refimpl fuzz --seed {seed} and shrunk by Hypothesis; expectations are "
                          "the reference's full views.",
           "rules": [], "source": "refimpl fuzz (no seed passage)", "steps": steps}
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{fuzzer.game}-{fuzzer.ruleset}-seed{seed}.yaml"
    path.write_text(dump_trace(doc), encoding="utf-8")
    return str(path)
