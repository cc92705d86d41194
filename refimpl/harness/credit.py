"""Which rules decide a step (issue 41, "the rule that decides a difference owns it"): the reference plays a
trace up to a step, then answers the step's request with the rule tracer on (rulebook/reach.py); the rules whose
cited code ran are the ones that can have decided the answer. A report credits a differing field to the field's
rules among those (``reports.failures.field_diffs``): a view field to the rule that set it in that step, a restart
to the rules a restart runs, never to a rule whose code did not run."""

from __future__ import annotations

from typing import Any

from ..games import GAMES
from ..rulebook.reach import Reach
from .driver import ReferenceDriver
from .plan import step_op
from .trace import Trace


def decided_by(trace: Trace, number: int) -> frozenset[str] | None:
    """The rules of ``trace``'s game whose cited code ran while the reference answered step ``number`` (0: the
    start), after the steps before it; None when the game is unknown or a step before it cannot be played. (A
    rule with no site, a board table or a route, cannot be seen to run: reports.failures.deciding keeps it.)"""
    engine = GAMES.get(trace.game)
    if engine is None or number > len(trace.steps):
        return None
    prefix = engine.info.rule_prefix + "-"
    session = ReferenceDriver()
    first: tuple[Any, ...] = ("start", trace.game, trace.ruleset, trace.seed, dict(trace.setup))
    ops = [first] + [step_op(trace, st) for st in trace.steps[:max(0, number - 1)]]
    try:
        if number == 0:
            with Reach() as reach:
                list(session.batch(ops))
        else:
            list(session.batch(ops))
            with Reach() as reach:
                list(session.batch([step_op(trace, trace.steps[number - 1])]))
    except Exception:  # noqa: BLE001 - a trace the reference cannot play here: no narrowing, the usual credit
        return None
    return frozenset(r for r in reach.rules() if r.startswith(prefix))


__all__ = ["decided_by"]
