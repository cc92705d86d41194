"""Every answer of a build judged against the reference's answer to the same request, as it is read: the oracle a
scenario runs under in ``verify`` (issue 41), so that a scenario checks everything the build shows at every
position it passes, not only the fields its ``Then`` steps name, and a ``When`` action the build refuses fails the
scenario at that step (the reference takes it) instead of passing unnoticed.

``Oracled`` wraps the build's driver. For each request: the reference answers it first (the explicit form of chance
for an explicit-chance build, as the build is sent it), then the build; their answers are compared whole (a view
key by key, a rejection or refusal by its code, a legal list as a multiset). At the end of a scenario step that
changed the game (``step_done``, which the scenario runner calls), every player's view (games with hidden
information) and the legal lists (the referee's and, with hidden information, each player's, when the build
lists legal actions) are asked of both and compared too, as a trace's plan does after each of its steps.
``stats`` answers are compared as their growth since the scenario's first start (the build's session has played
other scenarios before, and that start ends the game they left); one before it is left to the scenario's own
steps. The first difference raises ``ByReference``.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Generator, Iterable
from typing import Any

from ..games import GAMES
from ..rulebook.reach import Reach
from .chance import ExplicitChance, is_explicit
from .compare import Difference
from .driver import CallsByBatch, Driver, Outcome, ReferenceDriver, Refused, Rejected
from .plan import Probe, answer_prefix, grown
from .requests import Legal, Op, State, Stats, asks_records, changes_game


class ByReference(AssertionError):
    """The build's answer differs from the reference's answer to the same request. ``reached``: the rules that
    ran in the request, each with how ordinary it is (harness/credit.py), None when unknown."""

    def __init__(self, difference: Difference, sent: dict[str, Any], asked: dict[str, Any] | None,
                 reached: dict[str, float] | None = None) -> None:
        self.difference, self.sent, self.asked, self.reached = difference, sent, asked, reached
        self.path, self.expected, self.actual = difference.path, difference.expected, difference.actual
        what = f" (asked after it: {_words(asked)})" if asked is not None else ""
        super().__init__(f"{difference} (the reference's answer to {_words(sent)}{what})")


def _words(body: dict[str, Any]) -> str:
    """A request in a line: its JSON, cut at 160 characters."""
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":"), default=repr)
    return text if len(text) <= 160 else text[:159] + "…"


class Oracled(CallsByBatch):
    """``inner`` (the build's driver) with every answer judged against ``reference`` (default: the reference in
    this process, under whatever profiles are in force). Raises ByReference at the first difference. The single
    calls (start, apply, view...) are CallsByBatch's, over ``batch``."""

    def __init__(self, inner: Driver, reference: Driver | None = None) -> None:
        self.inner = inner
        reference = reference or ReferenceDriver()
        self.reference: Driver = ExplicitChance(reference) if is_explicit(inner) else reference
        self.name, self.lists_legal = inner.name, inner.lists_legal
        self.game: str | None = None
        self.records = "stats" in getattr(inner, "capabilities", ())
        self.base: dict[str, Outcome | None] = {"build": None, "reference": None}
        self.before: Any = None  # the reference's session before the latest step request (to credit a difference)
        self.step: Op | None = None  # that request
        self.changed: dict[str, Any] | None = None  # the latest request that changed the game, not yet looked at

    def __getattr__(self, name: str) -> Any:  # hello, capabilities, process...: the build's
        return getattr(self.inner, name)

    @property  # the build's own record of exchanges, not one of this wrapper's
    def transcript(self) -> list[dict[str, Any]] | None:
        return getattr(self.inner, "transcript", None)

    @transcript.setter
    def transcript(self, value: list[dict[str, Any]] | None) -> None:
        self.inner.transcript = value  # type: ignore[attr-defined]  # a ProtocolDriver's or ReferenceDriver's

    def supports(self, game: str, ruleset: str | None) -> bool:
        return self.inner.supports(game, ruleset)

    def _pair(self, op: Op) -> tuple[Outcome, Outcome]:
        expected = next(iter(self.reference.batch([op])))
        actual = next(iter(self.inner.batch([op])))
        return expected, actual

    def _session(self) -> Any:
        """A copy of the reference's protocol session as it stands (None for a reference that is not one, or
        that is sent the explicit form of chance), to answer one request again later; records copied too."""
        session = getattr(self.reference, "session", None)
        if session is None:
            return None
        snapshot = copy.copy(session)
        snapshot.records = copy.deepcopy(session.records)
        return snapshot

    def _reached(self) -> dict[str, float] | None:
        """The rules the scenario's latest request that may change the game ran on the reference, each with how
        ordinary it is (harness/credit.py): that request answered again, traced, from the session as it was before
        it. Only on a difference: tracing every request would double a scenario's cost."""
        from .credit import ran_in

        if self.before is None or self.step is None or self.game not in GAMES:
            return None
        again = copy.copy(self.before)
        again.records = copy.deepcopy(self.before.records)
        try:
            with Reach() as reach:
                again.handle(self.step.body())
        except Exception:  # noqa: BLE001 - the credit is narrowed only where the request plays again
            return None
        return ran_in(self.game, reach)

    def _judge(self, probe: Probe, sent: dict[str, Any], actual: Outcome | None = None) -> Outcome:
        """The build's answer to ``probe`` (``actual``, when it came in a batch already sent; else asked now),
        judged against the reference's answer to the same request. Raises ByReference."""
        from .replay import outcome_difference

        if probe.kind == "step" and changes_game(probe.op):
            self.before, self.step = self._session(), probe.op  # the request that decides what follows
        expected = next(iter(self.reference.batch([probe.op])))
        if actual is None:
            actual = next(iter(self.inner.batch([probe.op])))
        if probe.kind == "step" and asks_records(probe.op):
            expected, judged = grown(expected, self.base["reference"]), grown(actual, self.base["build"])
        else:
            judged = actual
        diff = outcome_difference(expected, judged, answer_prefix(probe))
        if diff is not None:
            body = probe.op.body()
            raise ByReference(diff, sent, None if body == sent else body, self._reached())
        return actual

    def _looks(self, sent: dict[str, Any]) -> None:
        """After a request that may change the game: every player's view and the legal lists, judged."""
        info = GAMES[self.game].info if self.game in GAMES else None
        players = list(info.players) if info is not None and info.hidden_information else []
        for player in players:
            self._judge(Probe(State(player), "view", None, player), sent)
        if self.lists_legal:
            self._judge(Probe(Legal(), "legal", None), sent)
            for player in players:
                self._judge(Probe(Legal(player), "legal", None, player), sent)

    def batch(self, ops: Iterable[Op]) -> Generator[Outcome, None, None]:
        """Every op sent to the build together (pipelined where it pipelines), each answer judged in turn against
        the reference's. A stats request before the scenario's first start is the scenario's own to judge; right
        after that start, the records both hold are asked (the base every later stats answer grows from)."""
        plan: list[tuple[Op, str]] = []  # (op, step | own | base)
        based = self.base["build"] is not None
        for op in ops:
            plan.append((op, "own" if asks_records(op) and not based else "step"))
            if self.records and not based and op.body().get("op") == "start":
                plan.append((Stats(), "base"))
                based = True
        answers = self.inner.batch([op for op, _ in plan])
        try:
            for (op, kind), answer in zip(plan, answers):
                body = op.body()
                if kind == "base":
                    self.base["reference"], self.base["build"] = next(iter(self.reference.batch([op]))), answer
                    continue
                if body.get("op") == "start":
                    self.game = body.get("game") if isinstance(body.get("game"), str) else self.game
                if kind == "step":
                    answer = self._judge(Probe(op, "step", None), body, answer)
                if changes_game(op) and not isinstance(answer, (Rejected, Refused)):
                    self.changed = body  # the game may have changed: what every player sees, at the step's end
                yield answer
        finally:
            answers.close()

    def step_done(self) -> None:
        """The end of one scenario step: after the step changed the game, every player's view and the legal lists,
        judged (once a step, not once a request: a step that deploys twenty units is looked at once). Raises
        ByReference."""
        if self.changed is not None:
            changed, self.changed = self.changed, None
            self._looks(changed)

    def close(self) -> None:
        self.reference.close()


__all__ = ["ByReference", "Oracled"]
