"""Deployment (seed §6): placing units within budget and the deployment zone, one ambush, taking units back,
completing in two steps; and the set-up positions scenarios start play from."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from ..base import BadSetup, IllegalAction, evolve
from .model import MAX_TURN, STEPS, Rules, State, Unit, order, set_at


def _position(game: Rules, state: State, setup: Mapping[str, Any]) -> State:
    """Start play from a given position (scenarios); kings not listed stay in their castles. Raises
    BadSetup for a position the rules could not reach (section "Start and set-up" of the spec)."""
    p = game.p
    given = setup["units"]
    if type(given) is not list:
        raise BadSetup("bad-setup", "units is a list of {side, kind, at, facing?, ambush?}")
    units: dict[str, Unit] = {u.id: u for u in state.units}
    serial = [0] * len(p.sides)
    kings: set[str] = set()
    for spec in given:
        if type(spec) is not dict or not {"side", "kind", "at"} <= set(spec) <= {"side", "kind", "at", "facing",
                                                                                "ambush"}:
            raise BadSetup("bad-setup", f"a unit is {{side, kind, at, facing?, ambush?}}: {spec!r}")
        side, kind, at = spec["side"], spec["kind"], spec["at"]
        if type(side) is not str or side not in p.sides or type(kind) is not str:
            raise BadSetup("bad-setup", f"not a unit of this profile on the map: {spec!r}")
        facing, ambush = spec.get("facing", game._default_facing(side)), spec.get("ambush", False)
        if kind not in p.units or type(facing) is not str or facing not in STEPS or type(ambush) is not bool \
                or type(at) is not list or len(at) != 2 or not all(type(v) is int for v in at) \
                or not game._on_map(tuple(at)):
            raise BadSetup("bad-setup", f"not a unit of this profile on the map: {spec!r}")
        at = tuple(at)
        if kind == "king":
            if side in kings or ambush:
                raise BadSetup("bad-setup", f"{side} has one king, and a king is never the ambush")
            kings.add(side)
            uid = f"{side}-king"
        else:
            serial[p.sides.index(side)] += 1
            uid = f"{side}-{serial[p.sides.index(side)]}"
        if p.cost[game.terrain_at(state, at)] is None or any(
                at == castle and not (kind == "king" and side == owner) for owner, castle in p.castles.items()):
            raise BadSetup("bad-setup", f"no unit may stand at {list(at)} (a mountain or a castle)")
        units[uid] = Unit(uid, side, kind, at, facing, False, ambush, ambush)
    visible = [u.at for u in units.values() if not u.hidden]
    if len(set(visible)) != len(visible):
        raise BadSetup("bad-setup", "two units on one square")
    for u in units.values():
        if u.hidden and any(o.at == u.at and o.side != u.side for o in units.values() if not o.hidden):
            raise BadSetup("bad-setup", f"{u.id} lies in ambush under an enemy unit")
    for s in p.sides:
        if sum(u.ambush for u in units.values() if u.side == s) > 1:
            raise BadSetup("bad-setup", f"{s} has more than one ambush")
        enemy = p.sides[1 - p.sides.index(s)]
        if all(any(u.at == g and u.side == s and not u.hidden for u in units.values()) for g in p.gates[enemy]):
            raise BadSetup("bad-setup", f"{s} already holds both squares beside the {enemy} castle")
    turn, side = setup.get("turn", 1), setup.get("side", p.sides[p.first])
    if type(turn) is not int or not 1 <= turn <= MAX_TURN or side not in p.sides:
        raise BadSetup("bad-setup", f"turn is a whole number from 1 to {MAX_TURN:,} and side a side")
    numbered, serials = game._numbered(tuple(units.values()))  # as a game's start numbers them (CK-R9)
    return evolve(state, phase="play", units=numbered, turn=turn, side=p.sides.index(side),
                   complete=(2,) * len(p.sides), serial=serials, registered=(0,) * len(p.sides))


def setup_of(game: Rules, state: State) -> dict[str, Any] | None:
    """The set-up of a position in play (units with their squares and facings, the hidden ambushes as
    ambushes, kings out of their castles listed), its terrain, field, turn and side to move; None in
    deployment, in combat and once the game is over. Units are numbered afresh (a set-up's numbering,
    ruling CK-R9): the same ids unless a destroyed unit left a gap."""
    if state.phase != "play":
        return None
    units = [{"side": u.side, "kind": u.kind, "at": list(u.at), "facing": u.facing, "ambush": u.hidden}
             for u in state.units if u.kind != "king" or u.at != game.p.castles[u.side]]
    return {"terrain": list(state.terrain), "field": state.field, "units": units, "turn": state.turn,
            "side": game.p.sides[state.side]}


def _taken(game: Rules, state: State) -> set[tuple[int, int]]:
    """The squares no unit may be placed on, for standing on them: those of the units in sight (a hidden
    ambush takes none) (CK-DEPLOY-1)."""
    return {u.at for u in state.units if not u.hidden}


def _deploy_squares(game: Rules, state: State, side: str) -> list[tuple[int, int]]:
    """The squares ``side`` may place a unit on now: its deployment area less the squares taken
    (``_taken``) (CK-DEPLOY-1)."""
    taken = game._taken(state)
    return [at for at in game._deploy_area(state.terrain, side) if at not in taken]


@functools.lru_cache(maxsize=128)  # noqa: B019 - engines live as long as the process; some maps' terrains
def _deploy_area(game: Rules, terrain: tuple[str, ...], side: str) -> tuple[tuple[int, int], ...]:
    """The passable squares within the deployment columns of ``side``'s castle, no castle among them, row
    by row: the same for every deployment on a map with ``terrain`` (CK-DEPLOY-1)."""
    p = game.p
    cx = p.castles[side][0]
    castles = set(p.castles.values())
    return tuple((x, y) for y in range(p.height) for x in range(p.width)
                 if abs(x - cx) <= p.deploy_columns and (x, y) not in castles
                 and p.cost[p.letters[terrain[y][x]]] is not None)


@functools.lru_cache(maxsize=1024)  # noqa: B019 - as _deploy_area: each map's sides and kinds, with and without
def _deploy_actions(game: Rules, terrain: tuple[str, ...], side: str, kind: str, may_ambush: bool
                    ) -> tuple[dict[str, Any], ...]:
    """Every deployment of a ``kind`` by ``side`` on the map with ``terrain``, as JSON, square by square in
    the order of ``_deploy_area``: a plain placement, then, when ``may_ambush``, the same as the ambush
    (CK-DEPLOY-1, CK-AMB-1). Made once per map and shared, read-only, by every legal list, which takes the
    runs of free squares (``_free_runs``): a deployment lists up to 922, and making them afresh was most of
    its cost."""
    out: list[dict[str, Any]] = []
    for at in game._deploy_area(terrain, side):
        out.append({"type": "deploy", "side": side, "kind": kind, "at": list(at)})
        if may_ambush:
            out.append({"type": "deploy", "side": side, "kind": kind, "at": list(at), "ambush": True})
    return tuple(out)


@functools.lru_cache(maxsize=128)  # noqa: B019 - as _deploy_area
def _deploy_index(game: Rules, terrain: tuple[str, ...], side: str) -> dict[tuple[int, int], int]:
    """Each square of ``_deploy_area`` by its place there."""
    return {at: i for i, at in enumerate(game._deploy_area(terrain, side))}


def _free_runs(game: Rules, state: State, side: str) -> list[tuple[int, int]]:
    """The squares ``side`` may place a unit on now (``_deploy_squares``), as runs [start, end) of places in
    ``_deploy_area`` (some empty): the area cut at every square taken (``_taken``) (CK-DEPLOY-1)."""
    index = game._deploy_index(state.terrain, side)
    runs, start = [], 0
    for i in sorted({index[at] for at in game._taken(state) if at in index}):
        runs.append((start, i))
        start = i + 1
    runs.append((start, len(index)))
    return runs


def _deploying(game: Rules, state: State, side: str) -> int:
    if side not in game.p.sides:
        raise IllegalAction("unknown-side", f"no side {side!r}")
    s = game.p.sides.index(side)
    if state.phase != "deploy" or state.complete[s] == 2:
        raise IllegalAction("wrong-phase", f"{side} is not deploying")
    if state.registered[s] is None:
        raise IllegalAction("not-registered", f"{side} has not registered on this field")
    return s


def _deploy(game: Rules, state: State, a: dict) -> State:
    """Place a unit bought within the budget (CK-ARMY-1) in the deployment zone (CK-DEPLOY-1), maybe as
    the side's one ambush (CK-AMB-1), facing the enemy's half unless told (ruling CK-R12). Raises
    IllegalAction."""
    p, side = game.p, a["side"]
    s = game._deploying(state, side)
    kind, at = a["kind"], tuple(a["at"])
    if kind not in p.units or p.units[kind]["price"] is None:
        raise IllegalAction("unknown-unit", f"{kind!r} cannot be bought (units: "
                            f"{', '.join(k for k, r in p.units.items() if r['price'] is not None)})")
    if at not in game._deploy_squares(state, side):
        raise IllegalAction("illegal-square", f"{side} cannot place a unit at {list(at)}: it must be a free, "
                            f"passable square within {p.deploy_columns} columns of its castle")
    price = p.units[kind]["price"]
    if price > state.gold[s]:
        raise IllegalAction("over-budget", f"{kind} costs {price}G; {side} has {state.gold[s]}G left")
    ambush = bool(a.get("ambush", False))
    if ambush and any(u.ambush for u in state.units if u.side == side):
        raise IllegalAction("one-ambush", f"{side} already has an ambush unit")
    facing = a.get("facing", game._default_facing(side))
    if facing not in STEPS:
        raise IllegalAction("bad-facing", f"facing is one of n, e, s, w; got {facing!r}")
    serial = set_at(state.serial, s, state.serial[s] + 1)
    unit = Unit(f"{side}-{serial[s]}", side, kind, at, facing, False, False, ambush)
    return evolve(state, units=tuple(sorted(state.units + (unit,), key=order)),
                   gold=set_at(state.gold, s, state.gold[s] - price), serial=serial,
                   complete=set_at(state.complete, s, 0))


def _undeploy(game: Rules, state: State, a: dict) -> State:
    """Take a placed unit back, its price refunded, until deployment is complete (CK-DEPLOY-2). Raises
    IllegalAction."""
    side = a["side"]
    s = game._deploying(state, side)
    unit = game.unit_at(state, tuple(a["at"]))
    if unit is None or unit.side != side or unit.kind == "king":
        raise IllegalAction("no-unit", f"{side} has no placed unit at {a['at']}")
    return evolve(state, units=tuple(u for u in state.units if u is not unit),
                   gold=set_at(state.gold, s, state.gold[s] + game.p.units[unit.kind]["price"]),
                   complete=set_at(state.complete, s, 0))


def _complete(game: Rules, state: State, a: dict) -> State:
    """Complete, then confirm: the game starts when both sides have done both (CK-DEPLOY-3). Raises
    IllegalAction."""
    s = game._deploying(state, a["side"])
    state = evolve(state, complete=set_at(state.complete, s, state.complete[s] + 1))
    # Both deployed: the game starts and the ambushes vanish (CK-AMB-2), once and for all: nothing else hides
    # a unit (CK-AMB-8).
    if all(c == 2 for c in state.complete):
        units, serial = game._numbered(tuple(evolve(u, hidden=u.ambush) for u in state.units))
        state = evolve(state, phase="play", units=units, serial=serial, phase_started=state.clock)
    return state


def _numbered(game: Rules, units: tuple[Unit, ...]) -> tuple[tuple[Unit, ...], tuple[int, ...]]:
    """(units, serial) with each side's units numbered afresh as play begins (ruling CK-R9): its visible
    units 1, 2, … in placement order, then its ambush; so no id the enemy sees skips a hidden unit or a
    unit taken back."""
    out = [u for u in units if u.kind == "king"]
    serial: list[int] = []
    for side in game.p.sides:
        mine = sorted((u for u in units if u.side == side and u.kind != "king"), key=lambda u: (u.ambush, order(u)))
        out += [evolve(u, id=f"{side}-{n}") for n, u in enumerate(mine, 1)]
        serial.append(len(mine))
    return tuple(sorted(out, key=order)), tuple(serial)
