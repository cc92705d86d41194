"""Run a case against a build and the reference, find the first answer that differs, and say it in words a
builder acts on: the request, every differing field side by side, the rules that own them."""

from __future__ import annotations

import json
from collections import Counter, deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ...games import GAMES, JSON
from ...harness.chance import ExplicitChance, is_explicit
from ...harness.compare import MISSING, Difference, field_differences, whole_difference
from ...harness.driver import BuildBroke, Driver, Outcome, ReferenceDriver, Refused, Rejected
from ...harness.plan import Probe, Records, answer_prefix, keeps_records, moves, plan_iter
from ...harness.protocol import ProtocolDriver
from ...harness.replay import _show_outcome, outcome_difference
from ...harness.requests import Op, asks_records
from .cases import Case, CaseDraw, CaseShape
from .draw import Draw


@dataclass(frozen=True)
class Divergence:
    """The first answer of the build that differs from the reference's."""

    step: int  # the case's step (0: the start)
    probe: Probe
    expected: Outcome
    actual: Outcome
    difference: Difference
    before: JSON  # the reference's full view before the step (None at the start)

    @property
    def request(self) -> str:
        """The request in words: ``start``, ``apply {"type": "move", ...}``, ``legal for gaias``..."""
        step, probe = self.probe.step, self.probe
        if probe.kind == "view":
            said = f"state for {probe.observer}"
        elif probe.kind == "legal":
            said = "legal" + (f" for {probe.observer}" if probe.observer else "")
        elif probe.kind == "unchanged":
            said = "state (after a rejection)"
        elif probe.kind == "records":
            said = "stats"
        else:
            return "start" if step is None else _request_words(step.kind, step.action, step.start)
        if step is None:
            return f"{said}, after the start"
        return f"{said}, after {_request_words(step.kind, step.action, step.start)}"


    @property
    def headline(self) -> str:
        """The divergence in one line: the field path, expected and actual (legal lists by what differs)."""
        expected, actual = self.expected, self.actual
        if isinstance(expected, list) and isinstance(actual, list):
            ours = Counter(json.dumps(a, sort_keys=True) for a in expected)
            theirs = Counter(json.dumps(a, sort_keys=True) for a in actual)
            missing, extra = ours - theirs, theirs - ours
            parts = [f"{sum(missing.values())} missing"] if missing else []
            parts += [f"{sum(extra.values())} extra"] if extra else []
            twice = [k for k, n in theirs.items() if n > 1]
            if twice:
                parts.append(f"{len(twice)} listed more than once")
            return (f"{self.difference.path}: {', '.join(parts) or 'the same actions'} (the reference lists "
                    f"{len(expected)}, the build {len(actual)})")
        from ...reports.text import list_change

        change = list_change(self.difference.expected, self.difference.actual)
        if change is not None:
            return f"{self.difference.path}: {change}"
        return str(self.difference)


def _request_words(kind: str, action: JSON, fields: Any) -> str:
    if kind == "action":
        return "apply " + json.dumps(action, separators=(", ", ": "))
    if kind == "restart":
        return "restart"
    return f"{kind} " + json.dumps(fields, separators=(", ", ": "))


@dataclass
class Judged:
    case: Case
    probes: list[Probe]
    answers: list[Outcome]  # the reference's
    outcomes: list[Outcome]  # the build's
    divergence: Divergence | None


def judge(case: Case, build: Driver, lists_legal: bool, full: bool = False, any_order: bool = True) -> Judged:
    """Send the case to the build and compare every answer with the reference's. ``full``: the legal lists
    after every step, as ``verify`` checks a trace (else only where the case asks). ``any_order``: a legal
    list of the reference's actions in the build's own order may stand as the reference's list in the
    outcomes (``ProtocolDriver.batch``); not where the outcomes are compared with a second run's (``--twice``).
    Raises BuildBroke, with ``step`` set to the case's step whose answers were due when the build broke."""
    reference: Driver = ReferenceDriver()
    if is_explicit(build):  # the reference answers the explicit requests such a build is sent
        reference = ExplicitChance(reference)
    return _judged(case, plan_iter(case.trace(), lists_legal, reference, None if full else case.legal_at,
                                   records=keeps_records(build, case.game)), build, any_order)


class Upcoming:
    """The next case of a search, drawn and answered by the reference ahead of its turn, a request at a time,
    while the kit waits for the build's answers to the case before it (``step``, the build process's idle
    work): so neither waits for the other between cases. What it draws does not depend on how far ahead it
    got: the case has its own seeded draw and its own mirror."""

    def __init__(self, seed: int, game: str, ruleset: str, shape: CaseShape) -> None:
        self.seed = seed
        self._case = (game, ruleset, shape)
        self._for: tuple[bool, bool] | None = None  # (lists_legal, records) of the build it is planned for
        self.begin_again()

    @property
    def ruleset(self) -> str:
        return self._case[1]

    def begin_again(self) -> Upcoming:
        """Nothing drawn yet: a fresh draw from the seed."""
        self.d = Draw(seed=self.seed)
        self.drawn: CaseDraw | None = None
        self._plan: Iterator[tuple[Probe, Outcome | None]] | None = None
        self._made: deque[tuple[Probe, Outcome | None]] = deque()
        self._error: Exception | None = None
        self._done = False
        return self

    def planned_for(self, build: Driver) -> Upcoming:
        """Plan the case for ``build`` (the requests a build without ``legal`` or ``stats`` is not sent are
        left out); begun again from its seed if it was planned for a build that differs."""
        wanted = ("legal" in getattr(build, "capabilities", ()), keeps_records(build, self._case[0]))
        if self._for != wanted:
            if self._for is not None:
                self.begin_again()
            self._for = wanted
        return self

    def step(self) -> bool:
        """Draw and answer one more request of the case (first: its start); False when it is all drawn. An error
        is kept for the case's turn, where it is raised."""
        if self._done or self._for is None:
            return False
        try:
            if self._plan is None:
                game, ruleset, shape = self._case
                self.drawn = CaseDraw(self.d, game, ruleset, shape)
                self._plan = plan_iter(self.drawn.trace(), self._for[0], self.drawn.mirror, self.drawn.legal_at,
                                       records=self._for[1])
            else:
                self._made.append(next(self._plan))
        except StopIteration:
            self._done = True
        except Exception as exc:  # noqa: BLE001 - raised again at the case's turn, as it would have been then
            self._error, self._done = exc, True
        return True

    def case_draw(self) -> CaseDraw:
        """The case being drawn (begun now, if waiting never came to it). Raises what drawing its start raised."""
        if self.drawn is None:
            self.step()
        if self.drawn is None:
            assert self._error is not None, "plan the case for a build first (planned_for)"
            raise self._error
        return self.drawn

    def plan(self) -> Iterator[tuple[Probe, Outcome | None]]:
        """The case's plan with the reference's answers: what was made ahead, then the rest as it is asked for."""
        self.case_draw()
        while self._made:
            yield self._made.popleft()
        if self._error is not None:
            raise self._error
        if not self._done:
            assert self._plan is not None
            yield from self._plan


def judge_drawn(drawn: CaseDraw, build: Driver, lists_legal: bool,
                planned: Iterator[tuple[Probe, Outcome | None]] | None = None, any_order: bool = True) -> Judged:
    """Draw the case and judge it in one pass, as ``judge`` judges a drawn case: the draw's mirror is the
    reference that answers the plan, so it works each answer out once, and the requests go to the build as
    the plan makes them, so the build answers while the kit draws. Raises BuildBroke as ``judge`` does (the
    case is drawn whole all the same: ``drawn.case()``)."""
    if is_explicit(build):
        # Such a build is sent the explicit form of each request and the reference answers that form, while
        # the mirror plays the requests as written: the case is drawn first, then judged.
        return judge(drawn.case(), build, lists_legal, any_order=any_order)
    if planned is None:
        planned = plan_iter(drawn.trace(), lists_legal, drawn.mirror, drawn.legal_at,
                            records=keeps_records(build, drawn.mirror.game))
    return _judged(drawn, planned, build, any_order)


def _judged(source: Case | CaseDraw, plan: Iterator[tuple[Probe, Outcome | None]], build: Driver,
            any_order: bool = True) -> Judged:
    """The plan (``plan_iter`` with the reference as its oracle), request by request as it is made, sent to
    the build; then the first divergence."""
    probes: list[Probe] = []
    answers: list[Outcome] = []
    stopped: list[BaseException] = []

    def planned() -> Iterator[Op]:
        try:
            for probe, answer in plan:
                probes.append(probe)
                assert answer is not None  # the reference answers every probe (plan_iter with an oracle)
                answers.append(answer)
                yield probe.op
        except GeneratorExit:
            raise
        except BaseException as exc:  # noqa: B036 - the draw stopped (Hypothesis ends the case, Ctrl-C...):
            stopped.append(exc)  # the build answers what it was sent first, so it stays in step

    ops = planned()
    outcomes: list[Outcome] = []
    try:
        # a build over the protocol has its answers read knowing the reference's (most come written as them)
        for outcome in (build.batch(ops, expect=answers, any_order=any_order) if isinstance(build, ProtocolDriver)
                        else build.batch(ops)):
            outcomes.append(outcome)
    except BuildBroke as exc:
        for _ in ops:  # the rest of the plan: a drawn case is drawn whole all the same
            pass
        if stopped:
            build.close()  # out of step, on requests that make no case: it is started afresh
            raise stopped[0] from None
        probe = probes[len(outcomes)] if len(outcomes) < len(probes) else probes[-1]
        # ignore: the step rides on the exception to its catcher
        exc.step = 0 if probe.step is None else probe.step.number  # type: ignore[attr-defined]
        raise
    if stopped:
        raise stopped[0]
    case = source if isinstance(source, Case) else source.case()
    return Judged(case, probes, answers, outcomes, first_divergence(probes, answers, outcomes))


def first_divergence(probes: list[Probe], answers: list[Outcome], outcomes: list[Outcome]) -> Divergence | None:
    """The first probe whose answer differs, judged as ``replay`` judges a trace against its oracle."""
    build_view: Any = None  # the build's latest accepted full view: a rejection must leave it as it is
    reference_view: Any = None
    before: Any = None
    records = Records()
    for probe, expected, actual in zip(probes, answers, outcomes):
        if records.seen(probe, reference=expected, build=actual):
            if isinstance(actual, (Rejected, Refused)):  # it declared stats
                return Divergence(0, probe, expected, actual, Difference("stats", "the records",
                                                                         _show_outcome(actual)), before)
            continue
        expected, actual = records.since(probe, "reference", expected), records.since(probe, "build", actual)
        if probe.kind == "step":
            before = reference_view
        if probe.kind == "unchanged":
            if isinstance(actual, (Rejected, Refused)):
                diff: Difference | None = Difference("unchanged-after-rejection", "the state", _show_outcome(actual))
            else:
                moved = whole_difference(build_view, actual)
                diff = None if moved is None else Difference(f"unchanged-after-rejection.{moved.path}",
                                                             moved.expected, moved.actual)
        else:
            diff = outcome_difference(expected, actual, answer_prefix(probe))
        if diff is not None:
            if probe.kind == "unchanged":
                expected = build_view
            return Divergence(0 if probe.step is None else probe.step.number, probe, expected, actual, diff, before)
        if probe.kind == "step" and moves(probe):
            if isinstance(actual, dict):
                build_view = actual
            if isinstance(expected, dict):
                reference_view = expected
    return None


def _short(value: Any, width: int = 40) -> str:
    text = "<missing>" if value is MISSING else json.dumps(_show_outcome(value), separators=(",", ":"))
    return text if len(text) <= width else text[: width - 3] + "..."


ROWS = 12  # differing fields shown; the rest are counted


def explain(div: Divergence, game: str) -> list[str]:
    """The divergence for a builder: the request, every differing field (expected, actual, the rules that
    own it), and what the move did in the game's words where the game can say it."""
    info, engine = GAMES[game].info, GAMES[game]
    lines = [f"request: {div.request}"]
    expected, actual = div.expected, div.actual
    if isinstance(expected, dict) and isinstance(actual, dict):
        stats = div.probe.kind == "step" and asks_records(div.probe.op)
        prefix = {"view": f"view[{div.probe.observer}].", "unchanged": "unchanged-after-rejection."}.get(
            div.probe.kind, "stats." if stats else "")
        fields = field_differences(expected, actual)
        rows: list[tuple[str, ...]] = []
        named = set()
        for d in fields[:ROWS]:
            rules = info.rules_of(prefix + d.path if stats else d.path)
            rows.append((prefix + d.path, _short(d.expected), _short(d.actual),
                         "" if rules in named else " ".join(rules)))
            named.add(rules)
        lines += _table(("field", "expected (reference)", "actual (build)", "rules"), rows)
        if len(fields) > ROWS:
            lines.append(f"  ... and {len(fields) - ROWS} more fields differ")
        if isinstance(div.before, dict) and div.probe.kind == "step" and not stats:
            said, told = engine.describe(div.before, expected), engine.describe(div.before, actual)
            if said is not None and told is not None and said != told:
                lines += [f"the reference: {said}", f"the build:     {told}"]
        return lines
    key = "legal" if isinstance(expected, list) else "rejected" if isinstance(expected, Rejected) or \
        isinstance(actual, Rejected) else "error" if isinstance(expected, Refused) or isinstance(actual, Refused) \
        else div.difference.path
    if isinstance(expected, list) and isinstance(actual, list):
        ours = {json.dumps(a, sort_keys=True) for a in expected}
        theirs = {json.dumps(a, sort_keys=True) for a in actual}
        missing, extra = sorted(ours - theirs), sorted(theirs - ours)
        lines.append(f"the reference lists {len(ours)} actions, the build {len(theirs)}")
        lines += [f"  missing: {a}" for a in missing[:5]] + ([f"  ... {len(missing) - 5} more missing"]
                                                            if len(missing) > 5 else [])
        lines += [f"  extra:   {a}" for a in extra[:5]] + ([f"  ... {len(extra) - 5} more extra"]
                                                          if len(extra) > 5 else [])
    else:
        lines.append(f"expected {_short(expected, 200)}, got {_short(actual, 200)}")
    rules = info.rules_of(key)
    if rules:
        lines.append(f"rules: {' '.join(rules)}")
    return lines


def _table(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> list[str]:
    rows = [header] + rows
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    return ["  " + "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
