"""Replay traces through a driver and record, step by step, what was expected and what happened.

Each trace stops at its first mismatch. The runner knows nothing of engines: it only talks to drivers.
A trace's own expectations (a partial view, a rejection code, a refused start, views by observer, legal
actions) are checked first. With an *oracle* (a second driver, normally the reference in this process)
every step is also judged whole: the build must answer each request exactly as the oracle does (the
full state view, each player's view in games with hidden information, the rejection code, the
legal-action lists as sets, each player's list too), so a trace checks everything a build shows at
every position it passes, not only the fields its author wrote down.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import closing
from dataclasses import dataclass, replace
from typing import Any

from ..games import GAMES, JSON
from ..status import Status
from .chance import Rewriter, explicit_trace, is_explicit
from .compare import (
    Difference,
    action_key,
    differences,
    every_whole_difference,
    first_difference,
    project,
    same_actions,
    whole_difference,
)
from .driver import BuildBroke, Driver, DriverError, Outcome, Refused, Rejected, refusal_words
from .plan import Probe, Records, answer_prefix, is_refusal, keeps_records, moves, plan_iter, step_op
from .requests import Op, asks_records
from .trace import Step, Trace


@dataclass(frozen=True)
class FailureDetail:
    """What a report shows of the step where a trace failed: the request sent, every differing field,
    and the views to draw (worked out only for the failing step)."""

    request: dict[str, Any]  # the step's request as the protocol has it (without its id)
    asked: dict[str, Any] | None  # the request whose answer differed, when it is not the step's own
    differences: tuple[tuple[Difference, bool], ...]  # every differing field, and whether by the reference
    before: Any  # the build's (accepted) state view before the step
    expected_view: Any  # the reference's answer to the differing request (else the trace's partial view)
    actual_view: Any  # the build's answer to it
    observer: str | None = None  # whose view differed (games with hidden information)


@dataclass(frozen=True)
class StepResult:
    number: int  # 0 is the start of the game
    line: int | None
    step: Step | None  # None for the start of the game
    expected: Any
    answer: Any  # what the build answered: its full view, or {"rejected": code}
    difference: Difference | None = None
    by_reference: bool = False  # the difference is from the oracle's answer, not the trace's own words
    failure: FailureDetail | None = None  # everything a report shows of a failing step

    @property
    def ok(self) -> bool:
        return self.difference is None

    @property
    def action(self) -> str:
        return "start" if self.step is None else self.step.label()

    @property
    def actual(self) -> Any:
        """The part of the answer the expectation speaks about (worked out only when reported)."""
        return project(self.expected, self.answer)

    def describe(self) -> str:
        """The difference, saying where the expected value comes from."""
        if self.difference is None:
            return ""
        return f"{self.difference} (the reference's answer)" if self.by_reference else str(self.difference)


@dataclass(frozen=True)
class TraceResult:
    trace: Trace
    status: Status  # conforms | mismatch | not-run
    steps: tuple[StepResult, ...] = ()  # of a long trace, the first LEDGER_HEAD and the last LEDGER_TAIL
    reason: str = ""  # why a trace was not run
    requests: int = 0  # how many requests replaying it sent (a transcript's share of the build's stream)
    omitted: int = 0  # steps judged but left out of ``steps`` (between its first and last ones)

    @property
    def judged(self) -> int:
        """How many of the trace's steps were judged (``steps`` and the omitted ones)."""
        return len(self.steps) + self.omitted

    @property
    def failure(self) -> StepResult | None:
        return next((s for s in self.steps if not s.ok), None)


# --- judging ---------------------------------------------------------------------------------------

def _legal_difference(expected: list[JSON], listed: Any, path: str = "legal") -> Difference | None:
    """Legal actions compared as multisets: in any order, but an action listed twice is one too many. The
    difference names what is missing and what is extra (a duplicate is extra, and named again under
    ``twice``: the listing rule's fault, not a rule of play's)."""
    if not isinstance(listed, list):
        return Difference(path, "a list of actions", _show_outcome(listed))
    if same_actions(expected, listed):
        return None
    ours, theirs = Counter(map(action_key, expected)), Counter(map(action_key, listed))  # the difference in words
    extra = theirs - ours
    said: dict[str, Any] = {"extra": sorted(extra.elements())}
    twice = sorted(k for k in extra if ours[k] > 0)  # legal actions listed more than once
    if twice:
        said["twice"] = twice
    return Difference(path, {"missing": sorted((ours - theirs).elements())}, said)


def _show_outcome(outcome: Any) -> Any:
    if isinstance(outcome, Rejected):
        return {"rejected": outcome.code}
    if isinstance(outcome, Refused):
        return {"error": outcome.code}
    return outcome


def outcome_difference(expected: Outcome, actual: Outcome, prefix: str = "") -> Difference | None:
    """The first way ``actual`` differs from ``expected`` as a whole answer: a view compared whole (a key
    missing or extra is a difference), a rejection or refusal by its code, a legal list as a set."""
    if isinstance(expected, Rejected) or isinstance(actual, Rejected):
        e = expected.code if isinstance(expected, Rejected) else None
        a = actual.code if isinstance(actual, Rejected) else _show_outcome(actual)
        return None if e == a else Difference(prefix + "rejected", e, a)
    if isinstance(expected, Refused) or isinstance(actual, Refused):
        e = expected.code if isinstance(expected, Refused) else None
        a = actual.code if isinstance(actual, Refused) else _show_outcome(actual)
        return None if e == a else Difference(prefix + "error", e, a)
    if isinstance(expected, list):
        return _legal_difference(expected, actual, prefix.rstrip(".") or "legal")
    diff = whole_difference(expected, actual)
    return None if diff is None else Difference(prefix + diff.path, diff.expected, diff.actual)


def _own_difference(probe: Probe, outcome: Outcome, before: Any, trace: Trace) -> tuple[Any, Difference | None]:
    """(what the trace expects, the first difference) for one probe, by the trace's own words."""
    step = probe.step
    if probe.kind == "unchanged":
        if isinstance(outcome, (Rejected, Refused)):
            return before, Difference("unchanged-after-rejection", "the state", _show_outcome(outcome))
        diff = whole_difference(before, outcome)
        return before, None if diff is None else Difference(f"unchanged-after-rejection.{diff.path}",
                                                            diff.expected, diff.actual)
    if probe.kind == "view":
        # ignore: a view probe always names its observer (plan_iter's looks); only legal's may be None
        expected = (step.views or {}).get(probe.observer) if step is not None else None  # type: ignore[arg-type]
        if expected is None:
            return None, None
        diff = first_difference(expected, outcome) if not is_refusal(outcome) else \
            Difference("state", expected, _show_outcome(outcome))
        return expected, None if diff is None else Difference(f"view[{probe.observer}].{diff.path}",
                                                              diff.expected, diff.actual)
    if probe.kind == "legal":
        if step is None or step.legal is None or probe.observer is not None:
            return None, None
        return step.legal, _legal_difference(step.legal, outcome)
    # the step's own request (or the start of the game)
    if step is None:
        expected = trace.start
        if isinstance(outcome, (Rejected, Refused)):
            return expected, Difference("start", expected or "a state", _show_outcome(outcome))
        return expected, None if expected is None else first_difference(expected, outcome)
    if step.reject is not None:
        actual = outcome.code if isinstance(outcome, Rejected) else refusal_words(outcome)
        return {"rejected": step.reject}, None if actual == step.reject else Difference("rejected", step.reject, actual)
    if step.error is not None:
        actual = outcome.code if isinstance(outcome, Refused) else refusal_words(outcome)
        return {"error": step.error}, None if actual == step.error else Difference("error", step.error, actual)
    expected = step.expect or {}
    if isinstance(outcome, list):
        return None, None  # a request's list of legal actions: the oracle judges it
    if isinstance(outcome, Rejected):
        return expected, Difference("rejected", None, f"{outcome.code}: {outcome.message}")
    if isinstance(outcome, Refused):
        return expected, Difference("error", None, f"{outcome.code}: {outcome.message}")
    diff = first_difference(expected, outcome)
    if diff is not None and asks_records(probe.op):  # the records' growth since the trace's start (Records)
        diff = Difference(f"stats.{diff.path}", diff.expected, diff.actual)
    return expected, diff


MAX_DIFFERENCES = 100  # a report lists at most this many differing fields of one answer


def _detail(probe: Probe, step_request: dict[str, Any], outcome: Outcome, expected: Any, reference: Any,
            before: Any, first: Difference, by_reference: bool) -> FailureDetail:
    """Every differing field of a failing answer: ``first`` (the one that failed the step), then the other
    fields the trace names, then the other fields of the reference's whole answer."""
    found: list[tuple[Difference, bool]] = [(first, by_reference)]
    seen = {first.path}

    def add(diffs: Iterator[Difference] | list[Difference], prefix: str, by_ref: bool) -> None:
        for d in diffs:
            path = prefix + d.path if d.path != "<view>" else prefix.rstrip(".") or d.path
            if path not in seen and len(found) < MAX_DIFFERENCES:
                seen.add(path)
                found.append((Difference(path, d.expected, d.actual), by_ref))

    answer = _show_outcome(outcome)
    prefix = f"view[{probe.observer}]." if probe.kind == "view" else \
        "stats." if probe.kind == "step" and asks_records(probe.op) else ""
    if probe.kind == "unchanged" and isinstance(before, dict) and isinstance(outcome, dict):
        add(every_whole_difference(before, outcome), "unchanged-after-rejection.", False)
    elif probe.kind in ("step", "view") and isinstance(expected, dict) and isinstance(outcome, dict):
        add(differences(expected, outcome), prefix, False)
    if isinstance(reference, dict) and isinstance(outcome, dict) and probe.kind != "unchanged":
        add(every_whole_difference(reference, outcome), prefix, True)
    shown = _show_outcome(reference) if reference is not None else expected
    return FailureDetail(step_request, None if probe.kind == "step" else probe.op.body(), tuple(found),
                         before, shown, answer, probe.observer)


LEDGER_HEAD = LEDGER_TAIL = 500  # a trace's result keeps its first and last steps; those between are counted


class _Kept:
    """A trace's step results as a report shows them: the first LEDGER_HEAD and the last LEDGER_TAIL (each
    with the build's whole answer), and how many were judged between them."""

    def __init__(self) -> None:
        self.head: list[StepResult] = []
        self.tail: deque[StepResult] = deque(maxlen=LEDGER_TAIL)
        self.omitted = 0

    def add(self, result: StepResult) -> None:
        if len(self.head) < LEDGER_HEAD:
            self.head.append(result)
            return
        if len(self.tail) == LEDGER_TAIL:
            self.omitted += 1
        self.tail.append(result)

    def all(self) -> list[StepResult]:
        return self.head + list(self.tail)


Planned = tuple[Probe, "Outcome | None"]
Judged = tuple[Probe, "Outcome | None", Outcome]  # a probe, the oracle's answer (or None), the build's answer


def _finish(kept: _Kept, result: StepResult | None) -> bool:
    """Record a step's result in ``kept`` (a failure with the line of the field that differs); True when it
    failed (the trace stops)."""
    if result is None:
        return False
    if result.difference is not None:  # not ok
        step = result.step
        path = result.difference.path  # a stats step's expectation is written without the stats. of its paths
        if step is not None and step.kind == "request" and (step.start or {}).get("op") == "stats":
            path = path.removeprefix("stats.")
        line = step.line_of(path) if step is not None and not result.by_reference else \
            (step.line if step is not None else None)
        kept.add(replace(result, line=line))
        return True
    kept.add(result)
    return False


def _check(trace: Trace, answered: Iterator[Judged], oracle: bool, stop: Callable[[], None] = lambda: None,
           ) -> TraceResult:
    """Judge one trace: ``answered`` gives each of its probes with the oracle's answer and the build's, in
    order, up to its last (or, after ``stop()``, up to the last one already sent: those are read, not
    judged). A failing step calls ``stop()``: the rest of the trace need not be sent."""
    kept = _Kept()
    taken = 0
    where = "the start"
    before: Any = None  # the build's latest accepted full view
    current: StepResult | None = None
    step_request: dict[str, Any] = {}
    failed = False
    probe: Probe | None = None
    records = Records()

    def finish(result: StepResult | None) -> bool:
        return _finish(kept, result)

    try:
        for probe, reference, outcome in answered:
            taken += 1
            if failed:
                continue  # sent ahead before the trace failed: read, not judged
            if records.seen(probe, reference=reference, build=outcome):
                if is_refusal(outcome) and (current is None or current.ok):  # it declared stats
                    refused = Difference("stats", "the records", _show_outcome(outcome))
                    shown = _detail(probe, step_request, outcome, None, reference, before, refused, False)
                    current = StepResult(0, None, None, None, _show_outcome(outcome), refused, False, shown) \
                        if current is None else replace(current, difference=refused, failure=shown)
                continue
            outcome = records.since(probe, "build", outcome)
            if reference is not None:
                reference = records.since(probe, "reference", reference)
            if probe.kind == "step":
                if finish(current):
                    failed = True
                    current = None
                    stop()
                    continue
                step_request = probe.op.body()
                step = probe.step
                where = "the start" if step is None else f"step {step.number} (line {step.line})"
            if trace.judged_by:  # its written expectations are set aside: the reference's answers judge it
                expected, diff = None, None
            else:
                expected, diff = _own_difference(probe, outcome, before, trace)
            by_reference = False
            if diff is None and oracle and (probe.kind != "unchanged" or trace.judged_by):
                assert reference is not None  # the oracle answered every probe
                diff = outcome_difference(reference, outcome, answer_prefix(probe))
                by_reference = diff is not None
            detail = None
            if diff is not None:
                detail = _detail(probe, step_request, outcome, expected, reference if oracle else None,
                                 before, diff, by_reference)
            if probe.kind == "step":
                step = probe.step
                if step is not None or trace.start is not None or oracle:
                    current = StepResult(0 if step is None else step.number, None if step is None else step.line,
                                         step, expected, _show_outcome(outcome), diff, by_reference, detail)
                if isinstance(outcome, dict) and moves(probe):
                    before = outcome
            elif diff is not None and current is not None and current.ok:
                current = replace(current, difference=diff, by_reference=by_reference, failure=detail)
        if current is not None and finish(current):
            failed = True
    except BuildBroke as exc:
        due = getattr(exc, "probe", None)  # the probe whose answer the build did not give
        if due is not None and due.kind == "step":
            where = "the start" if due.step is None else f"step {due.step.number} (line {due.step.line})"
        probe = due or probe
        exc.where = f"{trace.path} {where}"
        exc.request = probe.op.body() if probe is not None else None
        raise
    results = kept.all()
    if results and results[0].number == 0 and trace.start is None and results[0].ok:
        results = results[1:]  # the start is shown only when something was expected of it
    return TraceResult(trace, Status.MISMATCH if failed else Status.CONFORMS, tuple(results), requests=taken,
                       omitted=kept.omitted)


def _not_run(trace: Trace, driver: Driver) -> TraceResult | None:
    """Why ``trace`` is not run against ``driver``, or None: a game or ruleset it does not declare, or ``stats``
    steps in a game that keeps records when it does not declare the capability ``stats`` (such a trace would
    pass without its statistics checked, crediting LD-STAT-1; the scenarios skip alike)."""
    if not driver.supports(trace.game, trace.ruleset):
        return TraceResult(trace, Status.NOT_RUN, reason=f"{driver.name} does not declare {trace.game} {trace.ruleset}")
    if trace.game in GAMES and GAMES[trace.game].info.statistics and not keeps_records(driver, trace.game) \
            and any(asks_records(step_op(trace, step)) for step in trace.steps):
        return TraceResult(trace, Status.NOT_RUN,
                           reason=f"{driver.name} does not keep statistics (capability stats), which its stats "
                                  "steps ask")
    return None


def replay(trace: Trace, driver: Driver, ruleset: str | None = None, oracle: Driver | None = None) -> TraceResult:
    """Run ``trace`` (optionally under another ruleset) through ``driver`` until its first mismatch,
    judging every answer against ``oracle`` too when one is given.

    Raises DriverError when the driver cannot start the game, and BuildBroke (with ``where`` naming
    the trace and step) when the build crashes, hangs or breaks the protocol.
    """
    return next(replay_all([trace], driver, ruleset, oracle))


def replay_all(traces: Iterable[Trace], driver: Driver, ruleset: str | None = None,
               oracle: Driver | None = None) -> Generator[TraceResult, None, None]:
    """Replay many traces with requests sent ahead of the answers (one batch, pipelined), yielding a result
    per trace. Each trace is planned as it is sent, so a trace of any length is replayed in bounded memory.

    Once a trace mismatches, the rest of it is not sent; what was sent ahead is read, not judged. A build
    with its own random source (explicit-chance) is judged on the explicit requests it is sent: the oracle
    answers those too, and the traces leave the stream counters and stream rules to them (refimpl/harness/chance.py).
    Raises what ``replay`` raises, and TraceError for a bad step of a long trace; results already yielded
    stand.
    """
    traces = [t if ruleset is None or ruleset == t.ruleset else replace(t, ruleset=ruleset) for t in traces]
    rewrite = None
    if is_explicit(driver):
        traces = [explicit_trace(t) for t in traces]
        rewrite = Rewriter().rewrite  # in the order the requests are sent
    lists_legal = getattr(driver, "lists_legal", False)
    runnable = [i for i, t in enumerate(traces) if _not_run(t, driver) is None]
    sent: deque[tuple[int, Planned | None]] = deque()  # (trace index, probe; None: the trace's end), in order
    stopped: set[int] = set()

    def ops() -> Iterator[Op]:
        """Every runnable trace's requests, planned as the batch takes them; each probe goes into ``sent``
        before its request is handed over, a trace's end marker with its last probe (one probe looked ahead)."""
        for i in runnable:
            items = plan_iter(traces[i], lists_legal, oracle, rewrite=rewrite,
                              records=keeps_records(driver, traces[i].game))
            item = next(items, None)
            while item is not None and i not in stopped:
                following = next(items, None)
                sent.append((i, item))
                if following is None:
                    sent.append((i, None))
                yield item[0].op
                item = following

    def answered(i: int, outcomes: Iterator[Outcome]) -> Iterator[Judged]:
        """Trace ``i``'s probes with the build's answers, up to its end marker, or (once it stopped) up to
        the last of its probes sent."""
        while True:
            if sent and sent[0][0] == i and sent[0][1] is None:
                sent.popleft()
                return
            if (sent and sent[0][0] != i) or (not sent and i in stopped):
                return
            try:
                outcome = next(outcomes)  # the answer to the oldest probe sent (the batch sends more meanwhile)
            except BuildBroke as exc:
                due = sent[0][1] if sent and sent[0][0] == i else None
                # ignore: the probe rides on the exception to its catcher
                exc.probe = due[0] if due is not None else None  # type: ignore[attr-defined]
                raise
            _, item = sent.popleft()
            assert item is not None
            yield item[0], item[1], outcome

    with closing(driver.batch(ops())) as outcomes:
        for i, trace in enumerate(traces):
            skipped = _not_run(trace, driver)
            if skipped is not None:
                yield skipped
                continue
            # ignore: mypy cannot type a lambda's default
            yield _check(trace, answered(i, outcomes), oracle is not None, lambda i=i: stopped.add(i))  # type: ignore[misc]


__all__ = ["replay", "replay_all", "outcome_difference", "TraceResult", "StepResult", "FailureDetail", "DriverError"]
