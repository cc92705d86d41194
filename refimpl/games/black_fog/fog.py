"""The fog phase of Black Fog and the end of a round (specs/black-fog.md, "The fog phase").

Odd rounds wait for the fog's tiles (a chance action: given, or picked with the seeded stream); even rounds
spread at once. Functions of the engine (``game``: its profile and its steps) and a state.
"""

from __future__ import annotations

from typing import Any

from ..base import IllegalAction, evolve
from . import hexes
from .hexes import Hex
from .model import Rules, State


def fog_phase(game: Rules, state: State) -> State:
    """The fog phase begins: odd rounds wait for the fog's tiles (BF-FOG-1); even rounds spread at once
    (BF-FOG-2) and the round ends."""
    if state.round % 2 == 1:
        return state
    return game._next_round(game._spread(state))


def appear(game: Rules, state: State, tiles: Any) -> State:
    """Fog appears on ``tiles`` of this round's ring (None: picked with the seeded stream, ruling BF-R6), and
    the round ends. Implements BF-FOG-1 and ruling BF-R14. Raises IllegalAction ``bad-fog`` unless the tiles
    are exactly the number due of distinct eligible tiles."""
    ring = int(game.data["fog_appears"][state.round])
    eligible = game._fog_eligible(state)
    want = game._fog_want(eligible)
    if tiles is None:
        state, chosen = game._pick(state, eligible, want)
    else:
        try:
            chosen = [game._tile(t) for t in tiles]
        except (ValueError, TypeError, AttributeError):
            raise IllegalAction("bad-fog", f"fog tiles must be tiles of the map: {tiles!r}") from None
        if len(set(chosen)) != want or not set(chosen) <= set(eligible):
            raise IllegalAction("bad-fog", f"round {state.round}: fog appears on {want} tiles of ring {ring} "
                                "that are not apple trees or fog already")
    return game._next_round(game._engulf(state, frozenset(chosen)))


def fog_eligible(game: Rules, state: State) -> list[Hex]:
    """The tiles of this round's ring (ruling BF-R1: counted from the house, ring 1) fog may appear on, in ring
    order: not apple trees, healthy or withered, and not fog already; water may be fogged (ruling BF-R5).
    Implements BF-FOG-1."""
    ring = int(game.data["fog_appears"][state.round])
    return [t for t in hexes.ring(ring) if t not in state.apple and t not in state.withered and t not in state.fog]


def fog_want(game: Rules, eligible: list[Hex]) -> int:
    """How many tiles the fog takes: the profile's number, or every eligible tile when fewer are left (ruling
    BF-R14)."""
    return min(int(game.data["fog_tiles"]), len(eligible))


def spread(game: Rules, state: State) -> State:
    """Fog spreads one tile from every fog tile (BF-FOG-2; ruling BF-R17: every fog tile, however old; over
    water too, ruling BF-R5), onto every neighbour on the map, outward and along its ring as well as inward
    (ruling BF-R19: the draft's "周囲", its figure being lost): a healthy tree withers instead, a withered tree is
    taken (BF-FOG-3)."""
    reach = {n for f in state.fog for n in hexes.neighbours(f) if n in game.tiles} - state.fog
    withering = {t for t in reach if t in state.apple}
    taken = state.withered
    new_fog = (reach - withering) | taken
    state = evolve(state, apple=state.apple - withering, withered=(state.withered | withering) - taken)
    return game._engulf(state, frozenset(new_fog))


def engulf(game: Rules, state: State, tiles: frozenset[Hex]) -> State:
    """Fog covers ``tiles`` for good (ruling BF-R17): keepers there are lost with the animals they carry (ruling
    BF-R8), and wild animals there; feed tokens there are gone (ruling BF-R12). Implements BF-FOG-4."""
    lost_keepers = {k.id for k in state.keepers if not k.lost and k.at in tiles}
    carried = {a for k in state.keepers if k.id in lost_keepers for a in k.carrying}
    keepers = tuple(evolve(k, lost=True, carrying=()) if k.id in lost_keepers else k for k in state.keepers)
    animals = tuple(evolve(a, at=None, status="lost") if a.id in carried or
                    (a.status == "wild" and a.at in tiles) else a for a in state.animals)
    return evolve(state, fog=state.fog | tiles, feed=state.feed - tiles, keepers=keepers, animals=animals)


def next_round(game: Rules, state: State) -> State:
    """The fog phase is over: the next round's action phase, every keeper's actions back to 0, or the end
    after the last round (BF-ROUND-1: 8)."""
    if state.round >= int(game.data["rounds"]):
        return evolve(state, phase="over")
    keepers = tuple(evolve(k, actions=0) for k in state.keepers)
    return evolve(state, round=state.round + 1, phase="actions", keepers=keepers)
