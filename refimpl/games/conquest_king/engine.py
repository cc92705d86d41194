"""Conquest King: the rules of specs/conquest-king.md as a pure engine.

Phases: ``deploy`` (both sides place units within budget, one may be the ambush, then confirm twice),
``play`` (the side to move moves each unit at most once, maybe attacking, then ends its phase),
``combat`` (a fight waits for its two dice, a chance action), ``over``. Time is an action too
(``wait``), so the lobby's deadlines are tested without a clock. Every chosen number comes from the
ruleset profile (data/conquest-king.yaml).
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from ..base import JSON, BadSetup, Game, GameInfo, IllegalAction, MalformedAction

INFO = GameInfo(
    name="conquest-king",
    title="Conquest King",
    source="004_46cf37fb369b2cbe.txt",
    rule_prefix="CK",
    players=("sparkia", "gaias"),
    rulesets=("v1",),
    default_ruleset="v1",
    simultaneous=False,
    chance=True,
    results=("sparkia", "gaias", "deleted", "reset"),
    hidden_information=True,
    typical_length=200,
)
STEPS = {"n": (0, -1), "e": (1, 0), "s": (0, 1), "w": (-1, 0)}
OBSERVERS = ("referee", "sparkia", "gaias")
PRECEDENCE = {"deleted": 0, "reset": 1, "phase-timeout": 2, "archived": 3}  # same-minute order (ruling CK-R11)


@dataclass(frozen=True)
class Unit:
    id: str
    side: str
    kind: str
    at: tuple[int, int]
    facing: str
    moved: bool = False
    hidden: bool = False  # an ambush that has not appeared
    ambush: bool = False  # designated as the ambush at deployment

    def json(self) -> dict[str, JSON]:
        return {"id": self.id, "side": self.side, "kind": self.kind, "at": list(self.at), "facing": self.facing,
                "moved": self.moved, "ambush": self.ambush, "hidden": self.hidden}


@dataclass(frozen=True)
class Fight:
    """A combat waiting for its dice: ``kind`` attack (a unit's own attack) or ambush (an ambush striking)."""

    kind: str
    attacker: str
    target: str


@dataclass(frozen=True)
class State:
    ruleset: str
    phase: str  # deploy | play | combat | over
    turn: int
    side: int  # the side to move in play
    units: tuple[Unit, ...]
    gold: tuple[int, ...]
    complete: tuple[int, ...]  # deployment: 0 placing, 1 asked to confirm, 2 done
    serial: tuple[int, ...]  # units placed so far per side (for ids)
    fights: tuple[Fight, ...]
    last_combat: tuple[tuple[str, Any], ...] | None
    result: tuple[str | None, str] | None  # (winner or None, how)
    terrain: tuple[str, ...]
    field: str  # normal | realtime
    clock: int  # minutes since the field opened
    registered: tuple[int | None, ...]  # minute of each side's registration
    phase_started: int
    finished_at: int | None
    archived: bool = False


@dataclass
class Profile:
    """The ruleset profile, read once."""

    sides: tuple[str, ...]
    first: int
    budget: int
    deploy_columns: int
    width: int
    height: int
    castles: dict[str, tuple[int, int]]
    terrain_rows: tuple[str, ...]
    letters: dict[str, str]  # letter -> terrain name
    cost: dict[str, int | None]
    modifier: dict[str, int]
    units: dict[str, dict[str, Any]]
    directions: dict[str, int]
    lobby: dict[str, Any]
    gates: dict[str, tuple[tuple[int, int], ...]] = field(default_factory=dict)

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> "Profile":
        m = data["map"]
        p = cls(sides=tuple(data["sides"]), first=list(data["sides"]).index(data["first"]), budget=int(data["budget"]),
                deploy_columns=int(data["deploy_columns"]), width=int(m["width"]), height=int(m["height"]),
                castles={s: tuple(xy) for s, xy in m["castles"].items()}, terrain_rows=tuple(m["terrain"]),
                letters={t["letter"]: name for name, t in data["terrain"].items()},
                cost={name: t["cost"] for name, t in data["terrain"].items()},
                modifier={name: int(t["modifier"]) for name, t in data["terrain"].items()},
                units=dict(data["units"]), directions=dict(data["directions"]), lobby=dict(data["lobby"]))
        for side, (cx, cy) in p.castles.items():
            p.gates[side] = tuple(sorted((cx + dx, cy + dy) for dx, dy in STEPS.values()
                                         if 0 <= cx + dx < p.width and 0 <= cy + dy < p.height))
        return p


class ConquestKing(Game[State, dict]):
    info = INFO

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = data
        self.p = Profile.from_data(data)

    # --- creating ----------------------------------------------------------------------------
    def new_state(self, ruleset: str | None = None, seed: int | None = None,
                  setup: Mapping[str, JSON] | None = None) -> State:
        """The start of deployment. ``setup``: ``terrain`` (rows of letters), ``field`` (normal or
        realtime), ``registered`` (sides registered at minute 0; default both), ``units`` (a position
        to start play from directly: list of {side, kind, at, facing, ambush?}). Raises BadSetup."""
        name = self._ruleset(ruleset)
        p = self.p
        setup = dict(setup or {})
        unknown = sorted(set(setup) - {"terrain", "field", "registered", "units", "turn", "side"})
        if unknown:
            raise BadSetup("bad-setup", f"unknown set-up keys {unknown}")
        terrain = tuple(setup.get("terrain", p.terrain_rows))
        if len(terrain) != p.height or any(len(r) != p.width or set(r) - set(p.letters) for r in terrain):
            raise BadSetup("bad-setup", f"terrain must be {p.height} rows of {p.width} letters from {''.join(p.letters)}")
        field_ = setup.get("field", "normal")
        registered = setup.get("registered", list(p.sides))
        if field_ not in ("normal", "realtime") or not set(registered) <= set(p.sides):
            raise BadSetup("bad-setup", "field is normal or realtime; registered lists sides")
        kings = tuple(Unit(f"{s}-king", s, "king", p.castles[s], self._default_facing(s)) for s in p.sides)
        state = State(name, "deploy", 1, p.first, kings, (p.budget,) * len(p.sides), (0,) * len(p.sides),
                      (0,) * len(p.sides), (), None, None, terrain, field_, 0,
                      tuple(0 if s in registered else None for s in p.sides), 0, None)
        if "units" in setup:
            state = self._position(state, setup)
        return state

    def _position(self, state: State, setup: Mapping[str, Any]) -> State:
        """Start play from a given position (scenarios); kings not listed stay in their castles."""
        p = self.p
        units: dict[str, Unit] = {u.id: u for u in state.units}
        serial = [0] * len(p.sides)
        for spec in setup["units"]:
            try:
                side, kind, at = spec["side"], spec["kind"], tuple(spec["at"])
                facing, ambush = spec.get("facing", self._default_facing(spec["side"])), bool(spec.get("ambush", False))
            except (KeyError, TypeError) as exc:
                raise BadSetup("bad-setup", f"a unit needs side, kind, at: {spec!r}") from exc
            if side not in p.sides or kind not in p.units or facing not in STEPS or not self._on_map(at):
                raise BadSetup("bad-setup", f"not a unit of this profile: {spec!r}")
            if kind == "king":
                uid = f"{side}-king"
            else:
                serial[p.sides.index(side)] += 1
                uid = f"{side}-{serial[p.sides.index(side)]}"
            units[uid] = Unit(uid, side, kind, at, facing, False, ambush, ambush)
        for hidden in (False, True):  # a hidden ambush may share its square with a friend
            squares = [u.at for u in units.values() if u.hidden == hidden]
            if len(set(squares)) != len(squares):
                raise BadSetup("bad-setup", "two units on one square")
        turn, side = int(setup.get("turn", 1)), setup.get("side", p.sides[p.first])
        if side not in p.sides:
            raise BadSetup("bad-setup", f"unknown side {side!r}")
        return replace(state, phase="play", units=tuple(sorted(units.values(), key=_order)), turn=turn,
                       side=p.sides.index(side), complete=(2,) * len(p.sides), serial=tuple(serial),
                       registered=(0,) * len(p.sides))

    def _default_facing(self, side: Any) -> str:
        """Units face the enemy's half of the map unless told otherwise: east from a western castle."""
        castle = self.p.castles.get(side, (0, 0))
        return "e" if castle[0] < self.p.width / 2 else "w"

    # --- reading the board ---------------------------------------------------------------------
    def _on_map(self, at: tuple[int, ...]) -> bool:
        return len(at) == 2 and 0 <= at[0] < self.p.width and 0 <= at[1] < self.p.height

    def terrain_at(self, state: State, at: tuple[int, int]) -> str:
        return self.p.letters[state.terrain[at[1]][at[0]]]

    def unit_at(self, state: State, at: tuple[int, int], hidden: bool = False) -> Unit | None:
        """The unit on a square; a hidden ambush only when ``hidden`` (its square may also hold a friend)."""
        return next((u for u in state.units if u.at == at and u.hidden == hidden), None)

    def unit(self, state: State, uid: str) -> Unit:
        return next(u for u in state.units if u.id == uid)

    # --- actions -----------------------------------------------------------------------------
    def parse_action(self, data: JSON) -> dict:
        if type(data) is not dict or not isinstance(data.get("type"), str):
            raise MalformedAction("malformed-action", f"an action must be a mapping with a type, got {data!r}")
        forms = {"deploy": {"side", "kind", "at"}, "undeploy": {"side", "at"}, "complete": {"side"},
                 "move": {"from", "to", "facing"}, "reveal": {"at"}, "end-phase": set(),
                 "dice": {"attacker", "defender"}, "register": {"side"}, "wait": {"minutes"}}
        optional = {"deploy": {"ambush", "facing"}, "move": {"attack"}}
        kind = data["type"]
        if kind not in forms:
            raise MalformedAction("unknown-action", f"Conquest King actions are {', '.join(forms)}; got {kind!r}")
        keys = set(data) - {"type"}
        if not forms[kind] <= keys or keys - forms[kind] - optional.get(kind, set()):
            raise MalformedAction("malformed-action", f"a {kind} action has keys {sorted(forms[kind])}"
                                  f" (optional {sorted(optional.get(kind, set()))}): {data!r}")
        for key in ("at", "from", "to"):
            if key in data and not (isinstance(data[key], list) and len(data[key]) == 2
                                    and all(type(v) is int for v in data[key])):
                raise MalformedAction("malformed-action", f"{key} must be [x, y], got {data[key]!r}")
        types = {"side": str, "kind": str, "facing": str, "attack": bool, "ambush": bool, "minutes": int,
                 "attacker": int, "defender": int}
        for key, kind_ in types.items():
            if key in data and type(data[key]) is not kind_:
                raise MalformedAction("malformed-action", f"{key} must be a {kind_.__name__}, got {data[key]!r}")
        return dict(data)

    def action_json(self, action: dict) -> JSON:
        return dict(action)

    def is_chance(self, state: State) -> bool:
        return state.phase == "combat"

    def legal_actions(self, state: State, observer: str | None = None) -> list[dict]:
        """The actions of the rules proper (not ``wait`` and ``register``, which are the lobby's). A side
        (``observer``) gets its own: its deployment, or its phase's moves when it is the side to move;
        never the dice, which are chance (CK-HIDE-1)."""
        actions = self._legal(state)
        if observer in (None, "referee"):
            return actions
        if observer not in self.p.sides:
            raise IllegalAction("unknown-observer", f"observers are {', '.join(OBSERVERS)}")
        if state.phase == "deploy":
            return [a for a in actions if a["side"] == observer]
        return actions if state.phase == "play" and self.p.sides[state.side] == observer else []

    def _legal(self, state: State) -> list[dict]:
        p, out = self.p, []
        if state.phase == "combat":
            return [{"type": "dice", "attacker": a, "defender": d} for a in range(1, 7) for d in range(1, 7)]
        if state.phase == "deploy":
            for s, side in enumerate(p.sides):
                if state.registered[s] is None or state.complete[s] == 2:
                    continue
                out.append({"type": "complete", "side": side})
                out += [{"type": "undeploy", "side": side, "at": list(u.at)} for u in state.units
                        if u.side == side and u.kind != "king"]
                for kind, row in p.units.items():
                    if row["price"] is None or row["price"] > state.gold[s]:
                        continue
                    for at in self._deploy_squares(state, side):
                        out.append({"type": "deploy", "side": side, "kind": kind, "at": list(at)})
                        if not any(u.ambush for u in state.units if u.side == side):
                            out.append({"type": "deploy", "side": side, "kind": kind, "at": list(at), "ambush": True})
            return out
        if state.phase != "play":
            return []
        side = p.sides[state.side]
        for u in state.units:
            if u.side != side:
                continue
            if u.hidden:
                out.append({"type": "reveal", "at": list(u.at)})
                continue
            if u.moved:
                continue
            for to in self._reachable(state, u):
                for facing in STEPS:
                    out.append({"type": "move", "from": list(u.at), "to": list(to), "facing": facing})
                    target = self._faced(to, facing)
                    enemy = self.unit_at(state, target) if target else None
                    if enemy is not None and enemy.side != side and not enemy.hidden:
                        out.append({"type": "move", "from": list(u.at), "to": list(to), "facing": facing,
                                    "attack": True})
        out.append({"type": "end-phase"})
        return out

    def extra_actions(self, state: State) -> list[dict]:
        """Time passing and registering: the lobby's actions."""
        out: list[dict] = [{"type": "wait", "minutes": m} for m in (30, 720)]
        out += [{"type": "register", "side": s} for i, s in enumerate(self.p.sides) if state.registered[i] is None]
        return out if state.phase != "over" else []

    def apply(self, state: State, action: dict) -> State:
        kind = action["type"]
        if kind == "wait":
            return self._wait(state, action["minutes"])
        if kind == "register":
            return self._register(state, action["side"])
        if state.phase == "over":
            raise IllegalAction("game-over", "the game is over")
        handler = {"deploy": self._deploy, "undeploy": self._undeploy, "complete": self._complete,
                   "move": self._move, "reveal": self._reveal, "end-phase": self._end_phase,
                   "dice": self._dice}[kind]
        return handler(state, action)

    # --- deployment ----------------------------------------------------------------------------
    def _deploy_squares(self, state: State, side: str) -> list[tuple[int, int]]:
        p = self.p
        cx = p.castles[side][0]
        castles = set(p.castles.values())
        return [(x, y) for y in range(p.height) for x in range(p.width)
                if abs(x - cx) <= p.deploy_columns and (x, y) not in castles
                and p.cost[self.terrain_at(state, (x, y))] is not None and self.unit_at(state, (x, y)) is None]

    def _deploying(self, state: State, side: str) -> int:
        if side not in self.p.sides:
            raise IllegalAction("unknown-side", f"no side {side!r}")
        s = self.p.sides.index(side)
        if state.phase != "deploy" or state.complete[s] == 2:
            raise IllegalAction("wrong-phase", f"{side} is not deploying")
        if state.registered[s] is None:
            raise IllegalAction("not-registered", f"{side} has not registered on this field")
        return s

    def _deploy(self, state: State, a: dict) -> State:
        p, side = self.p, a["side"]
        s = self._deploying(state, side)
        kind, at = a["kind"], tuple(a["at"])
        if kind not in p.units or p.units[kind]["price"] is None:
            raise IllegalAction("unknown-unit", f"{kind!r} cannot be bought (units: "
                                f"{', '.join(k for k, r in p.units.items() if r['price'] is not None)})")
        if at not in self._deploy_squares(state, side):
            raise IllegalAction("illegal-square", f"{side} cannot place a unit at {list(at)}: it must be a free, "
                                f"passable square within {p.deploy_columns} columns of its castle")
        price = p.units[kind]["price"]
        if price > state.gold[s]:
            raise IllegalAction("over-budget", f"{kind} costs {price}G; {side} has {state.gold[s]}G left")
        ambush = bool(a.get("ambush", False))
        if ambush and any(u.ambush for u in state.units if u.side == side):
            raise IllegalAction("one-ambush", f"{side} already has an ambush unit")
        facing = a.get("facing", self._default_facing(side))
        if facing not in STEPS:
            raise IllegalAction("bad-facing", f"facing is one of n, e, s, w; got {facing!r}")
        serial = _set(state.serial, s, state.serial[s] + 1)
        unit = Unit(f"{side}-{serial[s]}", side, kind, at, facing, False, False, ambush)
        return replace(state, units=tuple(sorted(state.units + (unit,), key=_order)),
                       gold=_set(state.gold, s, state.gold[s] - price), serial=serial,
                       complete=_set(state.complete, s, 0))

    def _undeploy(self, state: State, a: dict) -> State:
        side = a["side"]
        s = self._deploying(state, side)
        unit = self.unit_at(state, tuple(a["at"]))
        if unit is None or unit.side != side or unit.kind == "king":
            raise IllegalAction("no-unit", f"{side} has no placed unit at {a['at']}")
        return replace(state, units=tuple(u for u in state.units if u is not unit),
                       gold=_set(state.gold, s, state.gold[s] + self.p.units[unit.kind]["price"]),
                       complete=_set(state.complete, s, 0))

    def _complete(self, state: State, a: dict) -> State:
        s = self._deploying(state, a["side"])
        state = replace(state, complete=_set(state.complete, s, state.complete[s] + 1))
        if all(c == 2 for c in state.complete):  # both deployed: the game starts, ambushes vanish
            units = tuple(replace(u, hidden=u.ambush) for u in state.units)
            state = replace(state, phase="play", units=units, phase_started=state.clock)
        return state

    # --- play ----------------------------------------------------------------------------------
    def _mover(self, state: State, at: list[int], hidden: bool = False) -> Unit:
        if state.phase != "play":
            raise IllegalAction("wrong-phase", "a combat waits for its dice" if state.phase == "combat"
                                else "the game has not started")
        unit = self.unit_at(state, tuple(at), hidden)
        side = self.p.sides[state.side]
        if unit is None or unit.side != side:
            raise IllegalAction("no-unit", f"{side} has no unit at {at}")
        return unit

    def _faced(self, at: tuple[int, int], facing: str) -> tuple[int, int] | None:
        dx, dy = STEPS[facing]
        square = (at[0] + dx, at[1] + dy)
        return square if self._on_map(square) else None

    def _reachable(self, state: State, unit: Unit) -> dict[tuple[int, int], int]:
        """Squares the unit may end its move on, with their cost (Dijkstra over entering costs).

        Only visible units count (ruling CK-R5): it may pass its own, never a visible enemy, a mountain or a
        castle (its own castle only for its own King), and may stop only where no visible unit stands. A
        hidden ambush's square looks empty, so a unit may pass it or stop on it (CK-AMB-3, CK-AMB-5)."""
        p = self.p
        budget = p.units[unit.kind]["move"]
        visible = {u.at: u for u in state.units if u.id != unit.id and not u.hidden}
        best: dict[tuple[int, int], int] = {unit.at: 0}
        queue = [(0, unit.at)]
        while queue:
            cost, at = heapq.heappop(queue)
            if cost > best.get(at, 1 << 30):
                continue
            for dx, dy in STEPS.values():
                nxt = (at[0] + dx, at[1] + dy)
                if not self._on_map(nxt) or not self._enterable(unit, nxt, visible.get(nxt)):
                    continue
                step = p.cost[self.terrain_at(state, nxt)]
                if step is None or cost + step > budget or cost + step >= best.get(nxt, 1 << 30):
                    continue
                best[nxt] = cost + step
                heapq.heappush(queue, (cost + step, nxt))
        return {at: c for at, c in best.items() if at == unit.at or at not in visible}

    def _enterable(self, unit: Unit, at: tuple[int, int], there: Unit | None) -> bool:
        for side, castle in self.p.castles.items():
            if at == castle and not (unit.kind == "king" and unit.side == side):
                return False
        return there is None or there.side == unit.side

    def _move(self, state: State, a: dict) -> State:
        lurking = self.unit_at(state, tuple(a["from"]), hidden=True)
        if state.phase == "play" and self.unit_at(state, tuple(a["from"])) is None and lurking is not None \
                and lurking.side == self.p.sides[state.side]:
            raise IllegalAction("hidden-ambush", "a hidden ambush cannot move; reveal it first")
        unit = self._mover(state, a["from"])
        if unit.moved:
            raise IllegalAction("already-moved", f"{unit.id} has moved this turn")
        to, facing = tuple(a["to"]), a["facing"]
        if facing not in STEPS:
            raise IllegalAction("bad-facing", f"facing is one of n, e, s, w; got {facing!r}")
        if to not in self._reachable(state, unit):
            raise IllegalAction("unreachable", f"{unit.id} cannot reach {list(to)} with "
                                f"{self.p.units[unit.kind]['move']} movement points")
        target = None
        if a.get("attack"):
            faced = self._faced(to, facing)
            target = self.unit_at(state, faced) if faced else None
            if target is None or target.side == unit.side or target.hidden:
                raise IllegalAction("no-target", f"no visible enemy in front of {list(to)} facing {facing}")
        moved = replace(unit, at=to, facing=facing, moved=True)
        enemy_ambush = next((u for u in state.units if u.hidden and u.side != unit.side), None)
        units = [u for u in state.units if u.id != unit.id]
        fights: list[Fight] = []
        if enemy_ambush is not None and enemy_ambush.at == to:
            # Stopping on the ambush: the mover is destroyed unconditionally and the ambush appears.
            units = [replace(u, hidden=False) if u.id == enemy_ambush.id else u for u in units]
            state = replace(state, units=tuple(sorted(units, key=_order)),
                            last_combat=(("kind", "ambush-square"), ("destroyed", [unit.id])))
            return self._after(state)
        units.append(moved)
        if enemy_ambush is not None and _adjacent(enemy_ambush.at, to) and not _adjacent(enemy_ambush.at, unit.at) \
                and not any(u.at == enemy_ambush.at for u in units if u.id != enemy_ambush.id):
            # (ruling CK-R6: only a move that brings the unit next to it; not turning in place, not a
            # step from one neighbouring square to another, and never while a friend stands on it)
            # The ambush appears, facing the intruder, and attacks it.
            facing_it = _direction(enemy_ambush.at, to)
            units = [replace(u, hidden=False, facing=facing_it) if u.id == enemy_ambush.id else u for u in units]
            fights.append(Fight("ambush", enemy_ambush.id, unit.id))
        if target is not None:
            fights.append(Fight("attack", unit.id, target.id))
        state = replace(state, units=tuple(sorted(units, key=_order)), fights=tuple(fights))
        return replace(state, phase="combat") if fights else self._after(state)

    def _reveal(self, state: State, a: dict) -> State:
        lurking = self.unit_at(state, tuple(a["at"]), hidden=True)
        if state.phase == "play" and (lurking is None or lurking.side != self.p.sides[state.side]):
            # the same answer for an empty square and the enemy's ambush: a probe must learn nothing
            raise IllegalAction("not-hidden", f"no hidden ambush of yours at {a['at']}")
        unit = self._mover(state, a["at"], hidden=True)
        if self.unit_at(state, unit.at) is not None:
            raise IllegalAction("square-occupied", "a friend stands on the ambush's square; move it off first")
        units = tuple(replace(u, hidden=False, moved=False) if u.id == unit.id else u for u in state.units)
        return replace(state, units=units)

    def _end_phase(self, state: State, a: dict) -> State:
        if state.phase != "play":
            raise IllegalAction("wrong-phase", "a combat waits for its dice")
        return self._next_phase(state)

    def _next_phase(self, state: State) -> State:
        p = self.p
        side = (state.side + 1) % len(p.sides)
        turn = state.turn + (1 if side == p.first else 0)
        units = tuple(replace(u, moved=False) if u.side == p.sides[side] else u for u in state.units)
        return replace(state, side=side, turn=turn, units=units, phase_started=state.clock)

    # --- combat --------------------------------------------------------------------------------
    def participants(self, state: State, fight: Fight) -> tuple[list[Unit], Unit]:
        """(attacking units, the striking one first, then every own unit beside the target facing it; target)."""
        target = self.unit(state, fight.target)
        striker = self.unit(state, fight.attacker)
        helpers = [u for u in state.units if u.side == striker.side and u.id != striker.id and not u.hidden
                   and _adjacent(u.at, target.at) and self._faced(u.at, u.facing) == target.at]
        return [striker] + helpers, target

    def bases(self, state: State, fight: Fight) -> tuple[int, int]:
        """(attack base, defence base): unit attacks, terrain modifiers and direction bonuses added up."""
        p = self.p
        attackers, target = self.participants(state, fight)
        attack = 0
        for u in attackers:
            attack += p.units[u.kind]["attack"] + p.modifier[self.terrain_at(state, u.at)]
            attack += p.directions[self._side_of(target, u.at)]
        defence = p.units[target.kind]["attack"] + p.modifier[self.terrain_at(state, target.at)]
        return attack, defence

    def _side_of(self, target: Unit, at: tuple[int, int]) -> str:
        """Where ``at`` lies relative to the way the target faces: front, side or rear."""
        towards = _direction(target.at, at)
        if towards == target.facing:
            return "front"
        return "rear" if towards == {"n": "s", "s": "n", "e": "w", "w": "e"}[target.facing] else "side"

    def _dice(self, state: State, a: dict) -> State:
        if state.phase != "combat":
            raise IllegalAction("wrong-phase", "no combat waits for dice")
        rolls = (a["attacker"], a["defender"])
        if not all(type(d) is int and 1 <= d <= 6 for d in rolls):
            raise IllegalAction("bad-face", f"dice show 1 to 6, got {list(rolls)}")
        fight = state.fights[0]
        attackers, target = self.participants(state, fight)
        attack, defence = self.bases(state, fight)
        attacker_wins = attack + rolls[0] >= defence + rolls[1]  # a tie goes to the attacker
        loser = target.id if attacker_wins else fight.attacker  # supporters never die defending
        units = tuple(u for u in state.units if u.id != loser)
        report = (("kind", fight.kind), ("attackers", [u.id for u in attackers]), ("target", target.id),
                  ("attack", attack), ("defence", defence), ("dice", list(rolls)),
                  ("totals", [attack + rolls[0], defence + rolls[1]]),
                  ("winner", "attacker" if attacker_wins else "defender"), ("destroyed", [loser]))
        rest = tuple(f for f in state.fights[1:] if f.attacker != loser and f.target != loser)
        state = replace(state, units=units, fights=rest, last_combat=report)
        return state if rest else self._after(replace(state, phase="play"))

    # --- winning -------------------------------------------------------------------------------
    def _after(self, state: State) -> State:
        """Check both victory conditions after a move or a combat has been resolved."""
        p = self.p
        for s, side in enumerate(p.sides):
            enemy = p.sides[1 - s]
            if not any(u.id == f"{enemy}-king" for u in state.units):
                return self._finish(state, side, "king")
        for s, side in enumerate(p.sides):
            enemy = p.sides[1 - s]
            held = {u.at for u in state.units if u.side == side and not u.hidden}
            if all(g in held for g in p.gates[enemy]):
                return self._finish(state, side, "gates")
        return replace(state, phase="play") if state.phase == "combat" and not state.fights else state

    def _finish(self, state: State, winner: str | None, how: str) -> State:
        return replace(state, phase="over", fights=(), result=(winner, how), finished_at=state.clock)

    def outcome(self, state: State) -> str | None:
        if state.result is None:
            return None
        winner, how = state.result
        return winner if winner is not None else how

    # --- the lobby clock -----------------------------------------------------------------------
    def _register(self, state: State, side: str) -> State:
        if side not in self.p.sides:
            raise IllegalAction("unknown-side", f"no side {side!r}")
        s = self.p.sides.index(side)
        if state.phase == "over":
            raise IllegalAction("game-over", "the game is over")
        if state.registered[s] is not None:
            raise IllegalAction("already-registered", f"{side} is already registered")
        return replace(state, registered=_set(state.registered, s, state.clock))

    def deadlines(self, state: State) -> list[tuple[int, str]]:
        """The lobby events still to come, as (minute, event), earliest first (seed §3)."""
        lobby, events = self.p.lobby, []
        regs = [r for r in state.registered if r is not None]
        if state.phase == "over":
            if state.finished_at is not None and not state.archived and state.result and state.result[0]:
                wait = lobby["realtime"]["finished_reset"] if state.field == "realtime" else lobby["finished_reset"]
                events.append((state.finished_at + wait, "archived"))
            return events
        if state.phase == "deploy":
            for s, reg in enumerate(state.registered):
                if reg is not None and state.complete[s] != 2:
                    events.append((reg + lobby["deploy_limit"], "deleted"))
        if state.field == "realtime" and regs:
            rt = lobby["realtime"]
            events.append((min(regs) + rt["first_registration_reset"], "reset"))
            if len(regs) == 1:
                events.append((regs[0] + rt["lone_registration_reset"], "reset"))
            if state.phase in ("play", "combat"):
                events.append((state.phase_started + rt["phase_limit"], "phase-timeout"))
        return sorted(events, key=lambda e: (e[0], PRECEDENCE[e[1]]))

    def _wait(self, state: State, minutes: Any) -> State:
        if type(minutes) is not int or minutes < 0:
            raise IllegalAction("bad-time", f"minutes is a whole number of at least 0, got {minutes!r}")
        end = state.clock + minutes
        while True:
            due = [(t, e) for t, e in self.deadlines(state) if t <= end]
            if not due:
                return replace(state, clock=end)
            when, event = due[0]
            state = replace(state, clock=when)
            if event == "archived":
                state = replace(state, archived=True)
            elif event == "phase-timeout":  # the phase ends as if its side had finished it (ruling CK-R8)
                state = self._after(self._next_phase(replace(state, phase="play", fights=())))
            else:
                state = self._finish(state, None, event)

    # --- views ---------------------------------------------------------------------------------
    def view(self, state: State, observer: str | None = None) -> dict[str, JSON]:
        """The referee sees everything. A side sees its own units, and of the enemy only units that are
        on the map and visible: nothing during deployment, never a hidden ambush."""
        observer = observer or "referee"
        if observer not in OBSERVERS:
            raise IllegalAction("unknown-observer", f"observers are {', '.join(OBSERVERS)}")
        p = self.p
        units = [u for u in state.units if observer in ("referee", u.side)
                 or (state.phase != "deploy" and not u.hidden)]
        sides = [s for s in p.sides if observer in ("referee", s)]
        combat = None
        if state.fights:
            fight = state.fights[0]
            attack, defence = self.bases(state, fight)
            attackers, target = self.participants(state, fight)
            combat = {"kind": fight.kind, "attackers": [u.id for u in attackers], "target": target.id,
                      "attack": attack, "defence": defence}
        last = dict(state.last_combat) if state.last_combat else None
        winner, how = state.result if state.result else (None, None)
        return {
            "game": INFO.name,
            "ruleset": state.ruleset,
            "observer": observer,
            "phase": state.phase,
            "turn": state.turn,
            "side": p.sides[state.side],
            "terrain": list(state.terrain),
            "units": [u.json() if observer in ("referee", u.side) else _public(u) for u in units],
            "deployment": {s: {"gold": state.gold[p.sides.index(s)], "complete": state.complete[p.sides.index(s)]}
                           for s in sides},
            "combat": combat,
            "last_combat": last,
            "result": None if state.result is None else {"winner": winner, "by": how},
            "lobby": {"field": state.field, "clock": state.clock,
                      "registered": {s: state.registered[i] for i, s in enumerate(p.sides)},
                      "archived": state.archived},
        }

    def from_view(self, view: Mapping[str, JSON]) -> State:
        raise BadSetup("bad-view", "Conquest King states are rebuilt by replaying their actions (hidden "
                       "information means no single view holds the whole state)")


def _public(u: Unit) -> dict[str, JSON]:
    """An enemy unit as a side sees it: whether it was the ambush shows only once it has appeared."""
    data = u.json()
    data["ambush"] = u.ambush and not u.hidden  # (a hidden enemy ambush is not shown at all)
    return data


def _order(u: Unit) -> tuple[str, int]:
    side, _, rest = u.id.partition("-")
    return side, 0 if rest == "king" else int(rest)


def _set(values: tuple, index: int, value: Any) -> tuple:
    return values[:index] + (value,) + values[index + 1:]


def _adjacent(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def _direction(src: tuple[int, int], dst: tuple[int, int]) -> str:
    """The facing from ``src`` towards an orthogonally adjacent (or straight-line) ``dst``."""
    dx, dy = dst[0] - src[0], dst[1] - src[1]
    if abs(dx) >= abs(dy):
        return "e" if dx > 0 else "w"
    return "s" if dy > 0 else "n"
