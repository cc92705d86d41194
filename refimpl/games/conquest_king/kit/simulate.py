"""What ``refimpl simulate`` knows of Conquest King: the figures are how a game was won (the king taken,
CK-WIN-1, or both gates held, CK-WIN-2) and the turns it took; the policies ``random`` and ``greedy``.

The sides deploy at once (CK-R3: the referee's list mixes both sides' placements). With one policy for both, that
policy chooses from the mixed list, as before; with a policy each (``together``), the sides deploy one after the
other in player order, each from its own list (``legal_actions(state, side)``: what CK-HIDE-1 lets it see, so
nothing of the other's placement), then each side's policy plays its own phases, and a fight's dice are thrown
fairly whatever the policies.

``greedy`` rates every action of the list by what it adds to the seat's worth, from what the seat can see (its
own units, the enemy's in sight): each unit's price in gold (a King 200) plus one point for every square it
stands nearer the enemy castle than the far corner of the map (its Manhattan distance; Kings none, so a King
stays home), less the worth of the enemy's units in sight; a win 10,000, a loss -10,000. A placement adds its
unit, taking one back removes it, a plain move adds its steps nearer; an attack is applied and its fights'
dice averaged over every throw (one ply of the seat's own choice with the chance after it; one throw for each
difference of the two dice, weighted by how many of the 36 have it, as the totals decide a fight), so it attacks
when the expected gold taken outweighs the expected gold lost. Ties, end of phase and completing deployment among
them, are drawn uniformly. It reads the list and applies attacks only: a game of greedy sides takes some 60
actions, not the 3,000 of a uniform game."""

from __future__ import annotations

import functools
import random
from typing import Any

from ....campaigns.simulate.play import Figure, Simulation

KING_WORTH = 200
WIN = 10_000.0


def _by(how: str) -> Figure:
    won = "taking the king (CK-WIN-1)" if how == "king" else "holding both gates (CK-WIN-2)"
    return Figure(f"by_{how}", f"share of games won by {won}",
                  lambda engine, state: float(state.result is not None and state.result[1] == how))


def _worth(engine: Any, kind: str) -> int:
    price = engine.p.units[kind]["price"]
    return KING_WORTH if price is None else int(price)


@functools.cache
def _goal(engine: Any, side: str) -> tuple[int, int, int]:
    """(x, y) of the enemy castle of ``side`` and the distance from it of the map's farthest corner."""
    enemy = next(s for s in engine.p.sides if s != side)
    ex, ey = engine.p.castles[enemy]
    return ex, ey, max(ex, engine.p.width - 1 - ex) + max(ey, engine.p.height - 1 - ey)


def _nearer(engine: Any, side: str, kind: str, at: tuple[int, int] | list[int]) -> int:
    """The squares a unit of ``kind`` at ``at`` stands nearer the enemy castle than the map's far corner."""
    if kind == "king":
        return 0
    ex, ey, far = _goal(engine, side)
    return far - abs(at[0] - ex) - abs(at[1] - ey)


def worth(engine: Any, state: Any, side: str) -> float:
    """The greedy seat's worth of ``state`` for ``side`` (the module's words)."""
    if state.result is not None:
        return WIN if state.result[0] == side else -WIN if state.result[0] is not None else 0.0
    total = 0.0
    for u in state.units:
        if u.side == side:
            total += _worth(engine, u.kind) + _nearer(engine, side, u.kind, u.at)
        elif not u.hidden:
            total -= _worth(engine, u.kind)
    return total


def _expected(engine: Any, state: Any, side: str) -> float:
    """``worth`` of ``state``, its pending fights' dice averaged over every throw: one throw for each difference
    of the two dice, weighted by the throws that have it (a fight is decided by the totals, CK-ATK-4)."""
    if state.phase != "combat":
        return worth(engine, state, side)
    total, weight = 0.0, 0
    for gap, throws in _GAPS.items():
        after = engine.apply(state, {"type": "dice", "attacker": max(1, 1 + gap), "defender": max(1, 1 - gap)})
        if after.phase == "combat" and after.fights == state.fights:
            continue  # a tie thrown again (the variant ties: again): the same fight, so left out of the mean
        total += throws * _expected(engine, after, side)
        weight += throws
    return total / weight


_GAPS = {gap: 6 - abs(gap) for gap in range(-5, 6)}  # the attacker's die less the defender's: throws of 36


def _rating(engine: Any, state: Any, action: dict[str, Any], side: str, now: float) -> float:
    """What ``action`` adds to ``side``'s worth (``now``: the worth of ``state``)."""
    kind = action["type"]
    if kind == "deploy":
        return _worth(engine, action["kind"]) + _nearer(engine, side, action["kind"], action["at"])
    if kind == "undeploy":
        unit = engine.unit_at(state, tuple(action["at"]))
        return -(_worth(engine, unit.kind) + _nearer(engine, side, unit.kind, unit.at))
    if kind == "move" and action.get("attack"):
        return _expected(engine, engine.apply(state, action), side) - now
    if kind == "move":
        unit = engine.unit_at(state, tuple(action["from"]))
        return float(_nearer(engine, side, unit.kind, action["to"]) - _nearer(engine, side, unit.kind, unit.at))
    return 0.0  # complete, reveal, end-phase


def _side_of(engine: Any, state: Any, action: dict[str, Any]) -> str:
    return str(action.get("side") or engine.p.sides[state.side])


def greedy(engine: Any, state: Any, rng: random.Random, actions: list[Any] | None = None) -> Any:
    """``greedy`` (the module's words) over ``actions`` (default: the referee's list); a fight's dice uniformly."""
    actions = engine.legal_actions(state) if actions is None else actions
    if state.phase == "combat":
        return rng.choice(actions)
    now = {s: worth(engine, state, s) for s in engine.p.sides}
    best: list[Any] = []
    top = float("-inf")
    for action in actions:
        side = _side_of(engine, state, action)
        rated = _rating(engine, state, action, side, now[side])
        if rated > top:
            best, top = [action], rated
        elif rated == top:
            best.append(action)
    return rng.choice(best)


def _uniform(engine: Any, state: Any, rng: random.Random, actions: list[Any]) -> Any:
    return rng.choice(actions)


OWN = {"random": _uniform, "greedy": greedy}


def together(engine: Any, state: Any, policies: dict[str, str], rng: random.Random) -> Any:
    """The action when the sides have different policies: in deployment the first side still deploying (player
    order) acts from its own list; in play the side to move; a fight's dice uniformly."""
    if state.phase == "combat":
        return rng.choice(engine.legal_actions(state))
    if state.phase == "deploy":
        side = next(s for i, s in enumerate(engine.p.sides)
                    if state.registered[i] is not None and state.complete[i] < 2)
    else:
        side = engine.p.sides[state.side]
    return OWN[policies[side]](engine, state, rng, engine.legal_actions(state, side))


SIMULATION = Simulation(
    chance=lambda engine, state: state.phase == "combat",
    policies={"greedy": greedy},
    together=together,
    figures=(_by("king"), _by("gates"), Figure("turns", "turns played", lambda engine, state: state.turn)),
)
