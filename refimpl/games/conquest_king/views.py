"""What each observer sees (CK-HIDE-1, ruling CK-R9): the referee everything, a side its own units and the
enemy's visible ones."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import JSON, IllegalAction
from .model import OBSERVERS, Rules, State, public


def observer_of(observer: object) -> str:
    """The observer a request names: ``None`` is the referee. Raises IllegalAction ``unknown-observer`` for
    anything but ``None`` and the names in OBSERVERS (``""`` and ``0`` included)."""
    if observer is None:
        return "referee"
    if not isinstance(observer, str) or observer not in OBSERVERS:
        raise IllegalAction("unknown-observer", f"observers are {', '.join(OBSERVERS)}")
    return observer


def view(game: Rules, state: State, observer: str | None = None) -> dict[str, JSON]:
    """The referee sees everything. A side sees its own units, and of the enemy only units that are
    on the map and visible: nothing during deployment, never a hidden ambush (CK-HIDE-1, CK-AMB-2).
    Implements CK-VIEW-1."""
    observer = observer_of(observer)
    p = game.p
    units = [u for u in state.units if observer in ("referee", u.side)
             or (state.phase != "deploy" and not u.hidden)]
    sides = [s for s in p.sides if observer in ("referee", s)]
    combat = None
    if state.fights:
        fight = state.fights[0]
        attack, defence = game.bases(state, fight)
        attackers, target = game.participants(state, fight)
        combat = {"kind": fight.kind, "attackers": [u.id for u in attackers], "target": target.id,
                  "attack": attack, "defence": defence}
    last = dict(state.last_combat) if state.last_combat else None
    winner, how = state.result if state.result else (None, None)
    return {
        "game": game.info.name,
        "ruleset": state.ruleset,
        "observer": observer,
        "phase": state.phase,
        "turn": state.turn,
        "side": p.sides[state.side],
        "terrain": list(state.terrain),
        "units": [u.json() if observer in ("referee", u.side) else public(u) for u in units],
        "deployment": {s: {"gold": state.gold[p.sides.index(s)], "complete": state.complete[p.sides.index(s)]}
                       for s in sides},
        "combat": combat,
        "last_combat": last,
        "result": None if state.result is None else {"winner": winner, "by": how},
        "lobby": {"field": state.field, "clock": state.clock,
                  "registered": {s: state.registered[i] for i, s in enumerate(p.sides)},
                  "archived": state.archived},
    }


def describe(game: Rules, before: Mapping[str, Any], after: Mapping[str, Any]) -> str | None:
    """Which units moved, turned, appeared or were destroyed: "sparkia-1 [3, 2] -> [4, 2] facing e"."""
    def units(view: Mapping[str, Any]) -> dict[Any, Any]:  # by id, whatever JSON value a build sent as one
        listed = view.get("units")
        return {u.get("id"): u for u in listed if isinstance(u, dict)} if isinstance(listed, list) else {}
    old, new = units(before), units(after)
    said = []
    for uid, u in new.items():
        was = old.get(uid)
        if was is None:
            said.append(f"{uid} appears at {u.get('at')}")
        elif (was.get("at"), was.get("facing")) != (u.get("at"), u.get("facing")):
            said.append(f"{uid} {was.get('at')} -> {u.get('at')} facing {u.get('facing')}")
    said += [f"{uid} destroyed" for uid in old if uid not in new]
    return "; ".join(str(x) for x in said) or None
