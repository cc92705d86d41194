"""Play (seed §7): moving and facing (a move may keep its square, to turn or to turn and attack: ruling CK-R12),
the hidden ambush, combined attacks and their dice, ending a phase, and the victory check (rulings CK-R5, CK-R6,
CK-R10)."""

from __future__ import annotations

import functools
import heapq
from typing import Any

from ..base import IllegalAction, evolve
from .model import STEPS, Fight, Rules, Square, State, Unit, adjacent, direction, order


def _mover(game: Rules, state: State, at: list[int], hidden: bool = False) -> Unit:
    if state.phase != "play":
        raise IllegalAction("wrong-phase", "a combat waits for its dice" if state.phase == "combat"
                            else "the game has not started")
    unit = game.unit_at(state, tuple(at), hidden)
    side = game.p.sides[state.side]
    if unit is None or unit.side != side:
        raise IllegalAction("no-unit", f"{side} has no unit at {at}")
    return unit


def _reachable(game: Rules, state: State, unit: Unit) -> dict[Square, int]:
    """Squares the unit may end its move on, with their cost (Dijkstra over entering costs).

    Only visible units count (ruling CK-R5): it may pass its own, never a visible enemy, a mountain or a
    castle (its own castle only for its own King), and may stop only where no visible unit stands; its own
    square is always there, to turn or to turn and attack. A hidden ambush's square looks empty, so a unit
    may pass it or stop on it (CK-AMB-3, CK-AMB-5)."""
    budget = game.p.units[unit.kind]["move"]
    closed = game._closed(state, unit)
    friends = {u.at for u in state.units if not u.hidden and u.side == unit.side and u.id != unit.id}
    entries = game._entries(state.terrain)
    best: dict[Square, int] = {unit.at: 0}
    queue = [(0, unit.at)]
    while queue:
        cost, at = heapq.heappop(queue)
        if cost > best[at]:
            continue  # a stale entry: the square was reached more cheaply since
        for nxt, step in entries[at]:
            total = cost + step
            if total <= budget and nxt not in closed and (nxt not in best or total < best[nxt]):
                best[nxt] = total
                heapq.heappush(queue, (total, nxt))
    return {at: c for at, c in best.items() if at == unit.at or at not in friends}


@functools.lru_cache(maxsize=4096)  # noqa: B019 - a map's pairs of squares a move joins, the busiest of them
def _moves(game: Rules, start: Square, to: Square) -> tuple[tuple[dict[str, Any], dict[str, Any], Square | None], ...]:
    """The moves from ``start`` to ``to``, one for each facing in the order of STEPS, as (the move, the same
    move as an attack, the square it then faces, None off the map), as JSON (CK-MOVE-1, CK-ATK-1). Made
    once and shared, read-only, by every legal list."""
    return tuple(({"type": "move", "from": list(start), "to": list(to), "facing": facing},
                  {"type": "move", "from": list(start), "to": list(to), "facing": facing, "attack": True},
                  game._faced(to, facing)) for facing in STEPS)


def _closed(game: Rules, state: State, unit: Unit) -> set[Square]:
    """The squares ``unit`` may not enter: every castle but its own King's own (ruling CK-R4), and a visible
    enemy's."""
    own_castle = game.p.castles.get(unit.side) if unit.kind == "king" else None
    closed = {castle for castle in game.p.castles.values() if castle != own_castle}
    closed.update(u.at for u in state.units if not u.hidden and u.side != unit.side)
    return closed


@functools.lru_cache(maxsize=16)  # noqa: B019 - engines live as long as the process; a few maps' terrains
def _entries(game: Rules, terrain: tuple[str, ...]) -> dict[Square, tuple[tuple[Square, int], ...]]:
    """For every square of a map with ``terrain``, the neighbours a unit may enter and what entering each
    costs (mountains left out): the table every movement search of that map walks (CK-TERRAIN-1)."""
    p = game.p
    cost = {(x, y): p.cost[p.letters[terrain[y][x]]] for y in range(p.height) for x in range(p.width)}
    # ignore: cost[nxt] is an int where the filter lets it through, but mypy does not narrow an index. Not
    # rewritten for the type checker: the engines' expressions are the mutants the power meter samples.
    return {at: tuple((nxt, cost[nxt])  # type: ignore[misc]
                      for nxt in ((at[0] + dx, at[1] + dy) for dx, dy in STEPS.values())
                      if nxt in cost and cost[nxt] is not None) for at in cost}


def _move(game: Rules, state: State, a: dict) -> State:
    """Move a unit that has not moved this turn within its movement points, and face it (CK-MOVE-1); maybe
    attack the enemy it faces (CK-ATK-1). A hidden ambush cannot move (CK-AMB-6). Stopping on the enemy
    ambush destroys the mover (CK-AMB-3); ending beside it makes it strike (CK-AMB-4, ruling CK-R6), not
    while a friend stands on its square (CK-AMB-5). Raises IllegalAction."""
    lurking = game.unit_at(state, tuple(a["from"]), hidden=True)
    if state.phase == "play" and game.unit_at(state, tuple(a["from"])) is None and lurking is not None \
            and lurking.side == game.p.sides[state.side]:
        raise IllegalAction("hidden-ambush", "a hidden ambush cannot move; reveal it first")
    unit = game._mover(state, a["from"])
    if unit.moved:
        raise IllegalAction("already-moved", f"{unit.id} has moved this turn")
    to, facing = tuple(a["to"]), a["facing"]
    if facing not in STEPS:
        raise IllegalAction("bad-facing", f"facing is one of n, e, s, w; got {facing!r}")
    if to not in game._reachable(state, unit):
        raise IllegalAction("unreachable", f"{unit.id} cannot reach {list(to)} with "
                            f"{game.p.units[unit.kind]['move']} movement points")
    target = None
    if a.get("attack"):
        faced = game._faced(to, facing)
        target = game.unit_at(state, faced) if faced else None
        if target is None or target.side == unit.side or target.hidden:
            raise IllegalAction("no-target", f"no visible enemy in front of {list(to)} facing {facing}")
    moved = evolve(unit, at=to, facing=facing, moved=True)
    enemy_ambush = next((u for u in state.units if u.hidden and u.side != unit.side), None)
    units = [u for u in state.units if u.id != unit.id]
    fights: list[Fight] = []
    if enemy_ambush is not None and enemy_ambush.at == to:
        # Stopping on the ambush: the mover, a King too, is destroyed unconditionally (no dice) and the
        # ambush appears; a King lost so loses the game, as _after finds.
        units = [evolve(u, hidden=False) if u.id == enemy_ambush.id else u for u in units]
        state = evolve(state, units=tuple(sorted(units, key=order)),
                        last_combat=(("kind", "ambush-square"), ("destroyed", [unit.id])))
        return game._after(state)
    units.append(moved)
    if enemy_ambush is not None and game._triggers(enemy_ambush.at, unit.at, to) \
            and not any(u.at == enemy_ambush.at for u in units if u.id != enemy_ambush.id):
        # (never while a friend stands on its square) The ambush appears, facing the intruder, and attacks it.
        facing_it = direction(enemy_ambush.at, to)
        units = [evolve(u, hidden=False, facing=facing_it) if u.id == enemy_ambush.id else u for u in units]
        fights.append(Fight("ambush", enemy_ambush.id, unit.id))
    if target is not None:
        fights.append(Fight("attack", unit.id, target.id))
    state = evolve(state, units=tuple(sorted(units, key=order)), fights=tuple(fights))
    return evolve(state, phase="combat") if fights else game._after(state)


def _triggers(game: Rules, ambush: tuple[int, int], before: tuple[int, int], after: tuple[int, int]) -> bool:
    """Whether a move from ``before`` to ``after`` makes the ambush on ``ambush`` appear: it ends adjacent
    (sharing a side, ruling CK-R14) and started on a square that was not (ruling CK-R6): not turning in
    place, not a step from one neighbouring square to another."""
    return adjacent(ambush, after) and not adjacent(ambush, before)


def _reveal(game: Rules, state: State, a: dict) -> State:
    """The owner makes its hidden ambush appear in its own phase, unacted (CK-AMB-7); never under a friend,
    and a probe of any other square learns nothing (ruling CK-R13). Raises IllegalAction."""
    lurking = game.unit_at(state, tuple(a["at"]), hidden=True)
    if state.phase == "play" and (lurking is None or lurking.side != game.p.sides[state.side]):
        # the same answer for an empty square and the enemy's ambush: a probe must learn nothing
        raise IllegalAction("not-hidden", f"no hidden ambush of yours at {a['at']}")
    unit = game._mover(state, a["at"], hidden=True)
    if game.unit_at(state, unit.at) is not None:
        raise IllegalAction("square-occupied", "a friend stands on the ambush's square; move it off first")
    units = tuple(evolve(u, hidden=False, moved=False) if u.id == unit.id else u for u in state.units)
    return game._after(evolve(state, units=units))  # an ambush appearing on a gate square may win (CK-R10)


def _end_phase(game: Rules, state: State, a: dict) -> State:
    if state.phase != "play":
        raise IllegalAction("wrong-phase", "a combat waits for its dice")
    return game._next_phase(state)


def _next_phase(game: Rules, state: State) -> State:
    """The other side's phase; a new turn when the first side's comes round again (CK-TURN-1). The units of
    the side now to move may move again (CK-MOVE-1)."""
    p = game.p
    side = (state.side + 1) % len(p.sides)
    turn = state.turn + (1 if side == p.first else 0)
    units = tuple(evolve(u, moved=False) if u.side == p.sides[side] else u for u in state.units)
    return evolve(state, side=side, turn=turn, units=units, phase_started=state.clock)


def participants(game: Rules, state: State, fight: Fight) -> tuple[list[Unit], Unit]:
    """(attacking units, the striking one first, then every own unit beside the target facing it; target).
    The defender gets no support (CK-ATK-2)."""
    target = game.unit(state, fight.target)
    striker = game.unit(state, fight.attacker)
    helpers = [u for u in state.units if u.side == striker.side and u.id != striker.id and not u.hidden
               and adjacent(u.at, target.at) and game._faced(u.at, u.facing) == target.at]
    return [striker] + helpers, target


def bases(game: Rules, state: State, fight: Fight) -> tuple[int, int]:
    """(attack base, defence base): unit attacks, terrain modifiers (CK-TERRAIN-1) and direction bonuses
    added up (CK-ATK-3), each attacker its own position's bonus (ruling CK-R15). The seed's worked combats
    (CK-ATK-6) come out of this sum and the dice."""
    p = game.p
    attackers, target = game.participants(state, fight)
    attack = 0
    for u in attackers:
        attack += p.units[u.kind]["attack"] + p.modifier[game.terrain_at(state, u.at)]
        attack += p.directions[game._side_of(target, u.at)]
    defence = p.units[target.kind]["attack"] + p.modifier[game.terrain_at(state, target.at)]
    return attack, defence


def _side_of(game: Rules, target: Unit, at: tuple[int, int]) -> str:
    """Where ``at`` lies relative to the way the target faces: front, side or rear."""
    towards = direction(target.at, at)
    if towards == target.facing:
        return "front"
    return "rear" if towards == {"n": "s", "s": "n", "e": "w", "w": "e"}[target.facing] else "side"


def _dice(game: Rules, state: State, a: dict) -> State:
    """Resolve the waiting fight with both dice, one chance action (ruling CK-R7): the higher total wins, a
    tie goes to the attacker (CK-ATK-4), whence the attacker's odds of CK-DICE-1; the target or the striking
    unit is destroyed, never a supporter (CK-ATK-5). Under the variant ``ties`` a tie goes to the defender, or
    (``again``) destroys nothing and the fight waits for another throw. Raises IllegalAction."""
    if state.phase != "combat":
        raise IllegalAction("wrong-phase", "no combat waits for dice")
    rolls = (a["attacker"], a["defender"])
    if not all(type(d) is int and 1 <= d <= 6 for d in rolls):
        raise IllegalAction("bad-face", f"dice show 1 to 6, got {list(rolls)}")
    fight = state.fights[0]
    attackers, target = game.participants(state, fight)
    attack, defence = game.bases(state, fight)
    totals = [attack + rolls[0], defence + rolls[1]]
    if totals[0] == totals[1] and game.p.ties == "again":  # (a variant: nobody wins, the dice are thrown again)
        tie: tuple[tuple[str, Any], ...] = (
            ("kind", fight.kind), ("attackers", [u.id for u in attackers]), ("target", target.id),
            ("attack", attack), ("defence", defence), ("dice", list(rolls)), ("totals", totals), ("winner", None),
            ("destroyed", []))
        return evolve(state, last_combat=tie)
    attacker_wins = totals[0] > totals[1] or totals[0] == totals[1] and game.p.ties == "attacker"
    loser = target.id if attacker_wins else fight.attacker  # supporters never die defending
    units = tuple(u for u in state.units if u.id != loser)
    report = (("kind", fight.kind), ("attackers", [u.id for u in attackers]), ("target", target.id),
              ("attack", attack), ("defence", defence), ("dice", list(rolls)),
              ("totals", totals),
              ("winner", "attacker" if attacker_wins else "defender"), ("destroyed", [loser]))
    rest = tuple(f for f in state.fights[1:] if f.attacker != loser and f.target != loser)
    state = evolve(state, units=units, fights=rest, last_combat=report)
    return state if rest else game._after(evolve(state, phase="play"))


def _after(game: Rules, state: State) -> State:
    """Check both victory conditions after a move or a combat has been resolved (ruling CK-R10): the enemy
    King destroyed (CK-WIN-1) before both squares beside the enemy castle held (CK-WIN-2). The King is one of
    its side's units for both (ruling CK-R10): it is lost however it was destroyed, in a fight or by
    stopping on the enemy ambush's square, and it holds a gate square as any other unit does."""
    p = game.p
    for s, side in enumerate(p.sides):
        enemy = p.sides[1 - s]
        if not any(u.id == f"{enemy}-king" for u in state.units):
            return game._finish(state, side, "king")
    for s, side in enumerate(p.sides):
        enemy = p.sides[1 - s]
        held = {u.at for u in state.units if u.side == side and not u.hidden}
        if all(g in held for g in p.gates[enemy]):
            return game._finish(state, side, "gates")
    return state


def _finish(game: Rules, state: State, winner: str | None, how: str) -> State:
    return evolve(state, phase="over", fights=(), result=(winner, how), finished_at=state.clock)
