"""Lantern Quay's hint to the fuzzer (campaigns/fuzz/positions.py): now and then the best placement of the dice."""

from __future__ import annotations

from typing import Any

from ....campaigns.fuzz.draw import Draw
from ....campaigns.fuzz.positions import Hints
from ... import JSON


def lantern_quay_step(d: Draw, engine: Any, state: Any, legal: list[JSON]) -> JSON | None:
    """An action aimed at Lantern Quay's late game, half the time (None: a step drawn as usual). Played at
    random a game restores the lighthouse about once in 90 (under v0 once in 1,500), so the last lens (LQ-INST-2,
    LQ-END-1), a Forge paid to its last brass (LQ-FORGE-3) and the third round's ends stay unseen: a roll of
    mostly high faces, now and then one face twice (ruling LQ-R2), and a placement that leads to the most
    lenses, then modules, then brass by the round's end, over every way of placing the other dice (in v0 the
    order of placement is part of it)."""
    if state.phase == "over" or d.one_in(2):
        return None
    if state.phase == "roll":
        faces = [5 + d.below(2) if not d.one_in(4) else 1 + d.below(6) for _ in range(3)]
        if d.one_in(4):
            faces[1 + d.below(2)] = faces[0]
        return {"type": "roll", "dice": faces}
    scored = [(_lq_best(engine, engine.apply(state, engine.parse_action(a)), state.round), a) for a in legal]
    if not scored:
        return None
    top = max(score for score, _ in scored)
    return d.pick([a for score, a in scored if score == top])


def _lq_best(engine: Any, state: Any, round_: int) -> tuple[int, int, int]:
    """(lenses, modules, brass) at the end of round ``round_`` for the best way of placing the dice left."""
    if state.round != round_ or state.phase != "place":
        return state.lenses, state.modules, state.brass
    return max(_lq_best(engine, engine.apply(state, a), round_) for a in engine.legal_actions(state))


HINTS = Hints(step=lantern_quay_step)
