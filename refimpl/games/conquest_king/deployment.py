"""Deployment (seed §6): placing units within budget and the deployment zone, one ambush, taking units back,
completing in two steps; and the set-up positions scenarios start play from."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from ..base import BadSetup, IllegalAction
from .board import Board
from .model import STEPS, State, Unit, order, set_at


class Deployment(Board):
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
        return replace(state, phase="play", units=tuple(sorted(units.values(), key=order)), turn=turn,
                       side=p.sides.index(side), complete=(2,) * len(p.sides), serial=tuple(serial),
                       registered=(0,) * len(p.sides))

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
        serial = set_at(state.serial, s, state.serial[s] + 1)
        unit = Unit(f"{side}-{serial[s]}", side, kind, at, facing, False, False, ambush)
        return replace(state, units=tuple(sorted(state.units + (unit,), key=order)),
                       gold=set_at(state.gold, s, state.gold[s] - price), serial=serial,
                       complete=set_at(state.complete, s, 0))

    def _undeploy(self, state: State, a: dict) -> State:
        side = a["side"]
        s = self._deploying(state, side)
        unit = self.unit_at(state, tuple(a["at"]))
        if unit is None or unit.side != side or unit.kind == "king":
            raise IllegalAction("no-unit", f"{side} has no placed unit at {a['at']}")
        return replace(state, units=tuple(u for u in state.units if u is not unit),
                       gold=set_at(state.gold, s, state.gold[s] + self.p.units[unit.kind]["price"]),
                       complete=set_at(state.complete, s, 0))

    def _complete(self, state: State, a: dict) -> State:
        s = self._deploying(state, a["side"])
        state = replace(state, complete=set_at(state.complete, s, state.complete[s] + 1))
        if all(c == 2 for c in state.complete):  # both deployed: the game starts, ambushes vanish
            units = tuple(replace(u, hidden=u.ambush) for u in state.units)
            state = replace(state, phase="play", units=units, phase_started=state.clock)
        return state
