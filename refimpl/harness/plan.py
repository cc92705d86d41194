"""A trace's plan: the requests that replay it and check it, one at a time, each with the oracle's answer (the
step's own request, then the views and legal lists the step asks about, or the oracle's whole answers)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from ..games import GAMES
from .driver import Driver, Outcome, Refused, Rejected
from .requests import Apply, Legal, Op, Restart, Start, State, Stats, Written, asks_records
from .trace import Step, Trace


@dataclass(frozen=True)
class Probe:
    """One request of a trace's plan: what it asks and what it is for."""

    op: Op
    kind: str  # step (the step's own request, or the game's start) | view | legal | unchanged | records
    step: Step | None  # the step it belongs to; None: the start of the game
    observer: str | None = None


def step_op(trace: Trace, step: Step) -> Op:
    """The request that replays ``step`` of ``trace``."""
    if step.is_restart:
        return Restart()
    if step.kind == "request":
        return Written(dict(step.start or {}))
    if step.start is not None:
        s = step.start
        return Start(trace.game, s.get("ruleset"), s.get("seed"), s.get("setup", {}))
    return Apply(step.action)


def moves(probe: Probe) -> bool:
    """Whether a step's request may change the game (so its answer is the full view to compare a later
    rejection with): every request but ``state``, ``legal`` and ``stats``."""
    return probe.kind == "step" and probe.op.name not in ("state", "legal", "stats")


def answer_prefix(probe: Probe) -> str:
    """Where a probe's answer sits in a failure's field path: ``view[OBSERVER].``, ``legal.`` (the referee's)
    or ``legal[OBSERVER].``, ``stats.`` for the records; "" for a step's own answer."""
    if probe.kind == "view":
        return f"view[{probe.observer}]."
    if probe.kind == "legal":
        return f"legal[{probe.observer}]." if probe.observer else "legal."
    return "stats." if asks_records(probe.op) else ""


def keeps_records(driver: Any, game: str) -> bool:
    """Whether a trace of ``game`` has records to ask ``driver`` about: the game keeps statistics (rule
    LD-STAT-1) and the build declares the capability ``stats``."""
    return game in GAMES and bool(GAMES[game].info.statistics) and "stats" in getattr(driver, "capabilities", ())


def grown(now: Outcome, base: Outcome | None) -> Outcome:
    """What the records in the answer ``now`` to ``stats`` grew by since ``base`` (the answer after the
    trace's start): game by game, count by count, a count ``base`` lacks counting from 0. Anything that is not
    a record of whole numbers (a refusal, a count of the wrong type) is left as it is, so it shows as it came.

    A build's records count every game of its session (specs/protocol.md, ``stats``), and a trace or a fuzz
    case runs on a session that others used before it: only the growth is the trace's own (rule LD-STAT-1)."""
    if not isinstance(now, dict) or not isinstance(base, dict):
        return now
    out: dict[str, Any] = {}
    for game, record in now.items():
        before = base.get(game)
        if not isinstance(before, dict):
            before = {}
        if not isinstance(record, dict):
            out[game] = record
            continue
        out[game] = {k: v - before.get(k, 0) if type(v) is int and type(before.get(k, 0)) is int else v
                     for k, v in record.items()}
    return out


class Records:
    """The records each side had after a trace's start (its ``records`` probe), so that its ``stats`` answers
    are judged by their growth (``grown``): ``seen`` keeps a ``records`` probe's answers, ``since`` turns a
    ``stats`` answer into its growth."""

    def __init__(self) -> None:
        self.base: dict[str, Outcome] = {}

    def seen(self, probe: Probe, **answers: Outcome | None) -> bool:
        """Keep the answers to a ``records`` probe (by side); True when ``probe`` is one."""
        if probe.kind != "records":
            return False
        self.base.update({side: answer for side, answer in answers.items() if answer is not None})
        return True

    def since(self, probe: Probe, side: str, answer: Outcome) -> Outcome:
        """``answer`` as the growth since the trace's start when ``probe`` asks for the records."""
        if probe.kind != "step" or not asks_records(probe.op):
            return answer
        return grown(answer, self.base.get(side))

    @classmethod
    def judged(cls, probes: list[Probe], answers: list[Outcome]) -> list[Outcome]:
        """One side's answers to a plan as they are judged: the ``records`` probes' left out, each ``stats``
        answer as its growth (what two runs of one plan on one session must agree on)."""
        records, out = cls(), []
        for probe, answer in zip(probes, answers):
            if not records.seen(probe, build=answer):
                out.append(records.since(probe, "build", answer))
        return out


def is_refusal(outcome: Outcome) -> bool:
    return isinstance(outcome, (Rejected, Refused))


def plan_iter(trace: Trace, lists_legal: bool, oracle: Driver | None = None,
              legal_at: Callable[[Step | None], bool] | None = None,
              rewrite: Callable[[Op], Op] | None = None,
              records: bool = False) -> Iterator[tuple[Probe, Outcome | None]]:
    """The requests that replay ``trace`` and check it, one at a time, each with the oracle's answer to it
    (None without an oracle): a trace of any length is planned as it is replayed.

    Without an oracle: each step's request, the views and legal list the step asks about, and a state
    request after an expected refusal (nothing may change). With one: after every accepted request,
    every player's view (games with hidden information) and the legal lists (the referee's and, with
    hidden information, each player's) when the build lists legal actions; ``legal_at`` (the fuzzer's)
    limits the oracle's legal lists to the steps it names (None: the start). ``rewrite`` turns each
    request into the one actually sent (the explicit form of chance, for an explicit-chance build), so the
    oracle answers it and a report shows it. ``records`` (``keeps_records``): after the start, a ``stats``
    request whose answer is the base its ``stats`` steps are judged from (``Records``); without it, a ``stats``
    step is not sent (the build keeps no records). Raises TraceError for a step of a long trace that is bad.
    """
    info = GAMES[trace.game].info if trace.game in GAMES else None
    players = list(info.players) if oracle is not None and info is not None and info.hidden_information else []

    def ask(probe: Probe) -> tuple[Probe, Outcome | None]:
        if rewrite is not None:
            probe = replace(probe, op=rewrite(probe.op))
        if oracle is None:
            return probe, None
        return probe, next(iter(oracle.batch([probe.op])))

    def looks(step: Step | None, refused: bool) -> Iterator[tuple[Probe, Outcome | None]]:
        named = list(step.views or {}) if step is not None else []
        for observer in named + ([p for p in players if p not in named] if not refused else []):
            yield ask(Probe(State(observer), "view", step, observer))
        wants_legal = step is not None and step.legal is not None
        oracle_wants = oracle is not None and (legal_at is None or legal_at(step))
        if lists_legal and not refused and (wants_legal or oracle_wants):
            yield ask(Probe(Legal(), "legal", step))
            for player in players:
                yield ask(Probe(Legal(player), "legal", step, player))
        if refused:
            yield ask(Probe(State(), "unchanged", step))

    first = ask(Probe(Start(trace.game, trace.ruleset, trace.seed, dict(trace.setup)), "step", None))
    yield first
    yield from looks(None, first[1] is not None and is_refusal(first[1]))
    if records:
        yield ask(Probe(Stats(), "records", None))
    for step in trace.steps:
        op = step_op(trace, step)
        if not records and asks_records(op):
            continue
        probe, answer = ask(Probe(op, "step", step))
        yield probe, answer
        refused = step.reject is not None or step.error is not None or (answer is not None and is_refusal(answer))
        if step.kind == "request" and not refused:
            continue  # a request that is not a move: its own answer is all there is to check
        yield from looks(step, refused)


def plan(trace: Trace, lists_legal: bool, oracle: Driver | None = None,
         legal_at: Callable[[Step | None], bool] | None = None,
         rewrite: Callable[[Op], Op] | None = None, records: bool = False) -> tuple[list[Probe], list[Outcome]]:
    """``plan_iter`` as two lists: the probes, and the oracle's answers (empty without an oracle)."""
    probes: list[Probe] = []
    answers: list[Outcome] = []
    for probe, answer in plan_iter(trace, lists_legal, oracle, legal_at, rewrite, records):
        probes.append(probe)
        if oracle is not None:
            assert answer is not None  # with an oracle, every probe has its answer (ask)
            answers.append(answer)
    return probes, answers
