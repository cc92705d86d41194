"""The action phase of Black Fog: what the keepers may do (specs/black-fog.md, "The action phase").

Each action is a function of the engine (``game``: its profile and its steps), the state, the keeper and the
action's JSON; it returns the new state or raises IllegalAction with the first code of the action's own row
of the codes table that applies (BF-FORM-2), leaving the state as it was.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import IllegalAction, evolve
from . import hexes
from .hexes import Hex
from .model import Animal, Keeper, Rules, State, subsets


def find_keeper(game: Rules, state: State, kid: Any) -> Keeper:
    """The keeper named ``kid`` (BF-KEEP-1: k1 to k4). Raises IllegalAction ``no-keeper`` for another name,
    ``keeper-lost`` for a keeper the fog took (BF-FOG-4), in this order (BF-FORM-2)."""
    found = next((k for k in state.keepers if k.id == kid), None)
    if found is None:
        raise IllegalAction("no-keeper", f"keepers are {', '.join(k.id for k in state.keepers)}; got {kid!r}")
    if found.lost:
        raise IllegalAction("keeper-lost", f"{kid} was taken by the fog")
    return found


def set_keeper(game: Rules, state: State, keeper: Keeper) -> State:
    """``state`` with the keeper of ``keeper.id`` replaced by ``keeper``."""
    return evolve(state, keepers=tuple(keeper if k.id == keeper.id else k for k in state.keepers))


def set_animals(game: Rules, state: State, changed: Mapping[str, Animal]) -> State:
    """``state`` with the animals ``changed`` names replaced, the others as they were, in set-up order."""
    return evolve(state, animals=tuple(changed.get(a.id, a) for a in state.animals))


def cost(game: Rules, animal: Animal) -> int:
    """What holding ``animal`` costs (BF-TAME-1: small 1, medium 2, large 3, from the profile)."""
    return int(game.data["sizes"][animal.size]["cost"])


def load(game: Rules, state: State, keeper: Keeper) -> int:
    """The cost of the animals ``keeper`` carries (BF-TAME-1)."""
    return sum(game._cost(a) for a in state.animals if a.id in keeper.carrying)


def can_move(game: Rules, state: State, keeper: Keeper, to: Hex) -> bool:
    """Whether ``keeper`` may step onto ``to``: a neighbouring tile of the map, not fog (ruling BF-R17: fog
    never clears), not water while carrying. Implements BF-MOVE-1 for the legal list."""
    return (to in game.tiles and hexes.distance(keeper.at, to) == 1 and to not in state.fog
            and not (keeper.carrying and to in state.water))


def whistle(game: Rules, state: State, keeper: Keeper, action: dict) -> State:
    """Every wild animal within 2 tiles takes one step toward the keeper (ruling BF-R3), one on feed too; one
    on the keeper's tile stays. Implements BF-WHISTLE-1, BF-WHISTLE-2 (ruling BF-R4: water on the step stops
    it; never onto a keeper on water) and BF-WHISTLE-3 (into fog it steps and is lost, ruling BF-R5: not
    onto fogged water). It moves nothing when no animal is in reach, and is never refused for that: the caller
    counts it as a main action all the same (ruling BF-R18)."""
    changed = {}
    for a in state.animals:
        # ignores: a wild animal stands on a tile (at is None only once carried, saved or lost)
        if a.status != "wild" or not 1 <= hexes.distance(a.at, keeper.at) <= int(game.data["whistle_range"]):  # type: ignore[arg-type]
            continue
        step = hexes.toward(a.at, keeper.at)  # type: ignore[arg-type]
        if step in state.water and step != keeper.at:
            continue  # BF-WHISTLE-2, ruling BF-R4: water between the animal and the keeper: it stays
        if step == keeper.at and keeper.at in state.water:
            continue  # BF-WHISTLE-2: never onto a keeper standing on water
        changed[a.id] = game._step(state, a, step)
    return game._set_animals(state, changed)


def tame(game: Rules, state: State, keeper: Keeper, action: dict) -> State:
    """The keeper takes the named animals from its tile. Implements BF-TAME-1. Raises IllegalAction
    ``no-animal``, ``not-here`` (for the first animal named that fails) or ``over-capacity``, in this order
    (BF-FORM-2)."""
    ids = action["animals"]
    if not isinstance(ids, list) or not ids:
        raise IllegalAction("no-animal", "name the animals to tame")
    chosen = []
    for aid in ids:
        animal = next((a for a in state.animals if a.id == aid), None)
        if animal is None or animal.status != "wild" or animal.at != keeper.at or animal in chosen:
            raise IllegalAction("not-here", f"{aid} is not a wild animal on {keeper.id}'s tile "
                                "(or is named twice)")
        chosen.append(animal)
    total = game._load(state, keeper) + sum(game._cost(a) for a in chosen)
    if total > int(game.data["tame_capacity"]):
        raise IllegalAction("over-capacity", f"{keeper.id} can keep animals costing "
                            f"{game.data['tame_capacity']} at most; these would make {total}")
    state = game._set_animals(state, {a.id: evolve(a, at=None, status="carried") for a in chosen})
    return game._set_keeper(state, evolve(keeper, carrying=keeper.carrying + tuple(ids)))


def move(game: Rules, state: State, keeper: Keeper, action: dict) -> State:
    """The keeper steps onto a neighbouring tile. Implements BF-MOVE-1 (ruling BF-R17: fog never clears;
    ruling BF-R5: fogged water is ``into-fog``). Raises IllegalAction ``off-map``, ``not-adjacent``,
    ``into-fog`` or ``water-while-carrying``, in this order (BF-FORM-2)."""
    try:
        to = game._tile(action["to"])
    except (ValueError, TypeError, AttributeError):
        raise IllegalAction("off-map", f"{action['to']!r} is not a tile of the map") from None
    if hexes.distance(keeper.at, to) != 1:
        raise IllegalAction("not-adjacent", f"{keeper.id} moves one tile at a time")
    if to in state.fog:
        raise IllegalAction("into-fog", f"{hexes.name(to)} is covered by the fog")
    if keeper.carrying and to in state.water:
        raise IllegalAction("water-while-carrying", f"{keeper.id} carries animals and cannot enter water")
    return game._set_keeper(state, evolve(keeper, at=to))


def feed(game: Rules, state: State, keeper: Keeper, action: dict) -> State:
    """A feed token on the keeper's tile. Implements BF-FEED-1 and ruling BF-R12 (tokens unlimited, one per
    tile). Raises IllegalAction ``feed-on-water``, then ``feed-here`` (BF-FORM-2)."""
    if keeper.at in state.water:
        raise IllegalAction("feed-on-water", "feed cannot be put on a water tile")
    if keeper.at in state.feed:
        raise IllegalAction("feed-here", "this tile already has a feed token")
    return evolve(state, feed=state.feed | {keeper.at})


def release(game: Rules, state: State, keeper: Keeper, action: dict) -> State:
    """The keeper puts down the named animals (all it carries when the action names none) on its tile; at the
    house they are saved. Implements BF-RELEASE-1 and ruling BF-R10 (only a release saves). Raises
    IllegalAction ``not-carried``, then ``release-on-water`` (BF-FORM-2)."""
    ids = action.get("animals", list(keeper.carrying))
    if not isinstance(ids, list) or not ids or any(i not in keeper.carrying for i in ids) or len(set(ids)) < len(ids):
        raise IllegalAction("not-carried", f"{keeper.id} carries {list(keeper.carrying)}; got {ids!r}")
    if keeper.at in state.water:
        raise IllegalAction("release-on-water", "animals cannot be released on a water tile")
    home = keeper.at == (0, 0)
    changed = {a.id: evolve(a, at=None if home else keeper.at, status="saved" if home else "wild")
               for a in state.animals if a.id in ids}
    state = game._set_animals(state, changed)
    return game._set_keeper(state, evolve(keeper, carrying=tuple(i for i in keeper.carrying if i not in ids)))


def collect(game: Rules, state: State, keeper: Keeper, action: dict) -> State:
    """The keeper takes the feed token from its tile. Implements BF-COLLECT-1. Raises IllegalAction
    ``no-feed``."""
    if keeper.at not in state.feed:
        raise IllegalAction("no-feed", "no feed token on this tile")
    return evolve(state, feed=state.feed - {keeper.at})


def keeper_actions(game: Rules, state: State) -> list[dict]:
    """The action phase's legal list (BF-LEGAL-1): ``end-actions``; then for each keeper not lost, while it has
    main actions left (BF-ACT-1), whistle, each move it may make, feed, and one tame per set of the animals on
    its tile that fits; and, whatever its actions (BF-ACT-2), one release per set of the animals it carries
    unless it stands on water, and collect where its tile has a token."""
    out: list[dict] = [{"type": "end-actions"}]
    for k in state.keepers:
        if k.lost:
            continue
        if k.actions < int(game.data["actions_per_keeper"]):
            out.append({"type": "whistle", "keeper": k.id})
            out += [{"type": "move", "keeper": k.id, "to": hexes.name(n)} for n in hexes.neighbours(k.at)
                    if game._can_move(state, k, n)]
            if k.at not in state.water and k.at not in state.feed:
                out.append({"type": "feed", "keeper": k.id})
            here = [a for a in state.animals if a.status == "wild" and a.at == k.at]
            room = int(game.data["tame_capacity"]) - game._load(state, k)
            out += [{"type": "tame", "keeper": k.id, "animals": [a.id for a in group]} for group in subsets(here)
                    if sum(game._cost(a) for a in group) <= room]
        if k.carrying and k.at not in state.water:
            carried = [a for a in state.animals if a.id in k.carrying]
            out += [{"type": "release", "keeper": k.id, "animals": [a.id for a in group]}
                    for group in subsets(carried)]
        if k.at in state.feed:
            out.append({"type": "collect", "keeper": k.id})
    return out
