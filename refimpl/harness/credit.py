"""Which rules decide a step (issue 41, "the rule that decides a difference owns it"): the reference plays a
trace up to a step, then answers the step's request with the rule tracer on (rulebook/reach.py); the rules whose
cited code ran are the ones that can have decided the answer. A report credits a differing field to the field's
rules among those (``reports.failures.field_diffs``): a view field to the rule that set it in that step, a restart
to the rules a restart runs, never to a rule whose code did not run."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from ..games import GAMES, Game
from ..rulebook.reach import Reach, Site
from .driver import ReferenceDriver
from .plan import step_op
from .requests import Op, Start
from .trace import Trace

BASELINE_GAMES = 2  # seeded random games of the reference per ruleset, each of the game's typical length


def baseline(game: str) -> dict[Site, float]:
    """How ordinary each site of ``game``'s rules is (as the game is registered now: under a profile, the
    profiled engine): the share of the steps of a few seeded random games (legal actions only, every ruleset) in
    which it ran. The turn order runs at nearly every step, a capture at a few: at a failing step, the rarer of
    the rules that ran there is the likelier cause. Worked out once per engine."""
    return _baseline(GAMES[game])


@cache
def _baseline(engine: Game[Any, Any]) -> dict[Site, float]:
    game = engine.info.name
    counts: dict[Site, int] = {}
    steps = 0
    for ruleset in engine.info.rulesets:
        for n in range(BASELINE_GAMES):
            pick = random.Random(f"{game}/{ruleset}/{n}")
            state = engine.new_state(ruleset, n, {})
            for _ in range(engine.info.typical_length):
                legal = engine.legal_actions(state)
                if engine.outcome(state) is not None or not legal:
                    break
                with Reach() as reach:
                    state = engine.apply(state, pick.choice(legal))
                steps += 1
                for site in {s for sites in reach.sites().values() for s in sites}:
                    counts[site] = counts.get(site, 0) + 1
    return {site: n / max(steps, 1) for site, n in counts.items()}


def decided_by(trace: Trace, number: int) -> dict[str, float] | None:
    """The rules of ``trace``'s game whose cited code ran while the reference answered step ``number`` (0: the
    start), after the steps before it, each with how ordinary it is (``baseline``: 0 for a rule random play never
    runs); None when the game is unknown or a step before it cannot be played. (A rule with no site, a board
    table or a route, cannot be seen to run: reports.failures.deciding keeps it.)"""
    engine = GAMES.get(trace.game)
    if engine is None or number > len(trace.steps):
        return None
    session = ReferenceDriver()
    ops: list[Op] = [Start(trace.game, trace.ruleset, trace.seed, dict(trace.setup))]
    ops += [step_op(trace, st) for st in trace.steps[:number]]
    try:
        list(session.batch(ops[:-1]))
        with Reach() as reach:
            list(session.batch(ops[-1:]))
    except Exception:  # noqa: BLE001 - a trace the reference cannot play here: no narrowing, the usual credit
        return None
    return ran_in(trace.game, reach)


def ran_in(game: str, reach: Reach) -> dict[str, float]:
    """The rules of ``game`` that ``reach`` saw run, each with how ordinary it is there: the most particular of
    its sites that ran (``baseline``; 0 for a site random play never runs). A rule cited both in a function every
    move calls and at the line only a capture runs is as particular as the capture, in a capture's step."""
    prefix = GAMES[game].info.rule_prefix + "-"
    ordinary = baseline(game)
    return {rule: min(ordinary.get(site, 0.0) for site in sites)
            for rule, sites in reach.sites().items() if rule.startswith(prefix)}


__all__ = ["baseline", "decided_by", "ran_in"]
