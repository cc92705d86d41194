"""Inputs a build should refuse: actions with one or several faults, malformed actions, starts with bad
fields and protocol requests of the wrong form. Generic: they are made by bending legal actions and
valid set-ups, so every game gets them without knowing its actions."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from ...games import JSON
from .draw import Draw

# Values a field of an action or a set-up should not take (or takes only at its edge). Integers stay within
# the range every JSON parser reads exactly, as the kit promises (specs/protocol.md "Numbers").
EDGE_VALUES: tuple[JSON, ...] = (None, -1, 0, 1.5, True, False, "", "x", [], {}, 2 ** 31, 2 ** 53 - 1, -(2 ** 53 - 1),
                                 10 ** 6)


# Actions a game's screens often have and these rules do not (leaving, giving up, taking back, passing): a build
# that adds one answers where the rules refuse.
UI_TYPES = ("abandon", "leave", "resign", "forfeit", "undo", "pass", "skip", "end-turn")


def _paths(value: JSON, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into a JSON value (its keys and indexes, at any depth), the value itself first."""
    out = [path]
    if isinstance(value, dict):
        for key, inner in value.items():
            out += _paths(inner, path + (key,))
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            out += _paths(inner, path + (i,))
    return out


def _get(value: JSON, path: tuple[Any, ...]) -> JSON:
    for part in path:
        value = value[part]
    return value


def _set(value: JSON, path: tuple[Any, ...], new: JSON) -> JSON:
    if not path:
        return new
    _get(value, path[:-1])[path[-1]] = new
    return value


def scalars(view: JSON) -> list[JSON]:
    """The strings and whole numbers a view holds (tiles, ids, counts), each once, in a stable order: values
    a field of an action may plausibly hold, though not here and now."""
    seen: dict[tuple[str, Any], JSON] = {}
    for path in _paths(view):
        leaf = _get(view, path)
        if type(leaf) in (str, int):
            seen[(type(leaf).__name__, leaf)] = leaf
        elif type(leaf) is list and 0 < len(leaf) <= 3 and all(type(v) is int for v in leaf):
            seen[("list", tuple(leaf))] = list(leaf)  # a square, a coordinate pair
        if path and type(path[-1]) is str:
            seen[("str", path[-1])] = path[-1]  # keys name things too (seats, species)
    return list(seen.values())


def bend_value(d: Draw, value: JSON, others: Sequence[JSON] = (), near: Sequence[JSON] = ()) -> JSON:
    """``value`` (an action, a set-up) with one fault somewhere inside it, at any depth: a number moved off by a
    little or a lot, a field given an edge value or a value of the wrong kind, a key dropped, a key added (to the
    value or to any mapping inside it), a list element repeated or the last dropped, a field's value taken from
    ``others`` (another action, another seat), a field's value, or one more list element, taken from ``near``
    (values of the same kind the state holds:
    a tile that is not adjacent, an animal not carried, the square of a hidden unit), a flag turned the other
    way, or two values given where one is due (or the one value in a list)."""
    bent = copy.deepcopy(value)
    paths = [p for p in _paths(bent) if p and p[-1] != "type"] or [()]
    path = d.pick(paths)
    here = _get(bent, path)
    how = d.below(10)
    if how >= 8 and near:
        if how == 9 and isinstance(here, list):
            kinds = {type(v) for v in here} or {str, int}
            pool = [v for v in near if type(v) in kinds and v not in here]
            if pool:
                return _set(bent, path, here + [d.pick(pool)])
        pool = [v for v in near if type(v) is type(here) and v != here]
        if pool:
            return _set(bent, path, d.pick(pool))
    if how == 7 and path:  # one value where one is due, two given ([it, another]) or it in a list ([it])
        leaves = [_get(o, q) for o in others if isinstance(o, dict) for q in _paths(o)
                  if q and q[-1] != "type" and not isinstance(_get(o, q), (dict, list))]
        k = d.below(4)
        if k == 3:
            return _set(bent, path, [here])
        return _set(bent, path, [here, d.pick(leaves) if leaves and k else here])
    if how == 0 and type(here) is int:  # off by a little or a lot, or the same number written as text
        return _set(bent, path, here + d.pick((1, -1, 2, -2, 5, 50)) if not d.one_in(4) else str(here))
    if how <= 1 and type(here) is bool:
        return _set(bent, path, not here)  # a flag the other way (an attack with no one in front)
    if how == 1 and path and isinstance(_get(bent, path[:-1]), dict):
        del _get(bent, path[:-1])[path[-1]]
        return bent
    if how == 2 and isinstance(here, list) and here:
        if d.one_in(2):  # one of its items repeated, where it stands (a tile, a die, a unit given twice)
            i = d.below(len(here))
            return _set(bent, path, here[:i + 1] + [copy.deepcopy(here[i])] + here[i + 1:])
        return _set(bent, path, here[:-1])
    if how == 3:  # a key no action or set-up has, in the value itself or in any mapping inside it
        holders = [p for p in _paths(bent) if isinstance(_get(bent, p), dict)]
        if holders:
            _get(bent, d.pick(holders))["x" * (1 + d.below(3))] = d.pick(EDGE_VALUES)
            return bent
    if how == 4 and others:
        donor = d.pick(others)
        if isinstance(donor, dict) and isinstance(bent, dict):
            missing = sorted(set(donor) - set(bent))  # a field another action has: an attack flag, a target
            key = d.pick(missing) if missing and d.one_in(2) else path[0] if path else None
            if key in donor:
                bent[key] = copy.deepcopy(donor[key])
                return bent
    return _set(bent, path, d.pick(EDGE_VALUES))


def bend_action(d: Draw, action: JSON, vocabulary: Sequence[JSON], near: Sequence[JSON] = ()) -> JSON:
    """An action near a legal one that the rules may refuse, with one fault or, one time in three, two or
    three at once (so the order in which a build checks them is compared): ``bend_value``'s faults, a legal
    action of another moment, a field other actions of its type have added, or another type of action with
    this one's fields. ``near``: the values the state holds (``scalars``)."""
    faults = 1 if not d.one_in(3) else 2 + d.below(2)
    for _ in range(faults):
        how = d.below(8)
        if how == 6 and vocabulary:
            action = copy.deepcopy(d.pick(vocabulary))  # right once, wrong now
        elif how == 5 and isinstance(action, dict) and vocabulary:
            # a field other actions of this type have, added: an attack where no one stands in front
            extra = {k: v for a in vocabulary if isinstance(a, dict) and a.get("type") == action.get("type")
                     for k, v in a.items() if k not in action}
            if extra:
                key = d.pick(sorted(extra))
                action = {**action, key: copy.deepcopy(extra[key])}
            else:
                action = bend_value(d, action, vocabulary, near)
        elif how == 7 and isinstance(action, dict) and vocabulary:
            types = sorted({a.get("type") for a in vocabulary if isinstance(a, dict)} - {action.get("type")}, key=str)
            if types:
                action = {**action, "type": d.pick(types)}
        else:
            action = bend_value(d, action, vocabulary, near)
    return action


def odd_action(d: Draw, action: JSON) -> JSON:
    """Something sent as an action that is no action at all, or only the shell of one."""
    kind = action.get("type") if isinstance(action, dict) else "x"
    return copy.deepcopy(d.pick((
        [], "roll", 0, None, True, [action], {}, {"type": None}, {"type": 7}, {"type": "no-such-action"},
        {"type": kind}, {"type": kind.upper() if isinstance(kind, str) else kind},
        {k: None for k in action} if isinstance(action, dict) else {"type": kind, "x": None},
        {"type": [kind]}, {"type": d.pick(UI_TYPES)},
    )))


def bend_start(d: Draw, ruleset: str, seed: JSON, setup: JSON) -> dict[str, JSON]:
    """The fields of a ``start`` (ruleset, seed, set-up) with one of them bent: a seed out of range or of
    the wrong kind, an unknown ruleset, a set-up of the wrong kind or with a fault inside."""
    fields: dict[str, JSON] = {"ruleset": ruleset, "seed": seed, "setup": copy.deepcopy(setup)}
    which = d.below(3)
    if which == 0:
        fields["seed"] = d.pick((-1, 1.5, "7", True, 2 ** 53, 2 ** 64, [], {}, -(2 ** 53)))
    elif which == 1:
        fields["ruleset"] = d.pick(("v9", "", 1, "V1", ["v1"]))
    elif isinstance(setup, dict) and setup and not d.one_in(4):
        fields["setup"] = bend_value(d, fields["setup"])
    else:
        fields["setup"] = d.pick(([], "x", 1, None, True, {"x": 1}))
    return fields


def odd_request(d: Draw, game: str, players: Sequence[str]) -> dict[str, JSON]:
    """A protocol request of the wrong form, or one the protocol answers without a move: legal and state
    for each player or an unknown observer, an unknown op, a start without its fields or of no game."""
    observer = d.pick(list(players) + ["nobody", 3, ""])
    return copy.deepcopy(d.pick((
        {"op": "legal", "observer": observer},
        {"op": "state", "observer": observer},
        {"op": "state"},
        {"op": "apply"},
        {"op": "frobnicate"},
        {"op": "start", "game": game},
        {"op": "start", "game": "no-such-game", "ruleset": None, "seed": None, "setup": {}},
        {"op": "start", "game": game, "ruleset": None, "seed": None},
    )))
