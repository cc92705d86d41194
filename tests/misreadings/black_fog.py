"""Black Fog read the other way at each ruling (specs/black-fog.md, Rulings)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from refimpl.games import IllegalAction, load_data
from refimpl.games.black_fog import BlackFog
from refimpl.games.black_fog import hexes
from refimpl.games.black_fog.engine import Animal, State


class _Base(BlackFog):
    def __init__(self, **changes: Any) -> None:
        super().__init__({**load_data("black-fog"), **changes})


class RingsCountedFromZero(_Base):
    """BF-R1 the other way: ring n is the tiles n steps from the house (the house is ring 0), so each of the
    draft's fog rings lies one step further out, and "ring 6" off the map."""

    def __init__(self) -> None:
        super().__init__(fog_appears={1: 7, 3: 6, 5: 5, 7: 4})


class FacesCounterClockwise(_Base):
    """BF-R2 the other way: faces 1-6 run counter-clockwise from up."""

    def _roll(self, state: State, face: Any) -> State:
        if type(face) is int and 1 <= face <= 6:
            face = 1 + (1 - face) % 6
        return super()._roll(state, face)


def _toward_last(src: hexes.Hex, dst: hexes.Hex) -> hexes.Hex:
    if src == dst:
        return src
    here = hexes.distance(src, dst)
    return [n for n in hexes.neighbours(src) if hexes.distance(n, dst) == here - 1][-1]


class _PatchedToward(_Base):
    TOWARD: Any = None

    def apply(self, state: State, action: dict) -> State:
        original = hexes.toward
        hexes.toward = self.TOWARD
        try:
            return super().apply(state, action)
        finally:
            hexes.toward = original


class TiesGoTheOtherWay(_PatchedToward):
    """BF-R3 the other way: of two equally good steps, the last in die-face order."""

    TOWARD = staticmethod(_toward_last)


class AnyWaterInBetween(_Base):
    """BF-R4 the other way: at distance 2, water on either tile between stops the animal."""

    def _whistle(self, state: State, keeper: Any, action: dict) -> State:
        blocked = set()
        for a in state.animals:
            if a.status == "wild" and hexes.distance(a.at, keeper.at) == 2:
                between = [n for n in hexes.neighbours(a.at) if hexes.distance(n, keeper.at) == 1]
                if any(n in state.water for n in between):
                    blocked.add(a.id)
        after = super()._whistle(state, keeper, action)
        return self._set_animals(after, {a.id: a for a in state.animals if a.id in blocked})


class FogSparesWater(_Base):
    """BF-R5 the other way: fog neither appears on nor spreads over water."""

    def _engulf(self, state: State, tiles: frozenset) -> State:
        return super()._engulf(state, frozenset(t for t in tiles if t not in state.water))


class WaterFirst(_Base):
    """BF-R6 the other way: a ring's water is drawn before its apple trees."""

    def _generate(self, state: State) -> State:
        keep_dry = {a.at for a in state.animals} | {k.at for k in state.keepers}
        apple: set = set()
        water: set = set()
        for n in range(2, self.rings + 1):
            tiles = hexes.ring(n)
            state, wet = self._pick(state, [t for t in tiles if t not in keep_dry],
                                    len(tiles) // int(self.data["water_per_tiles"]))
            water |= set(wet)
            if n < self.rings:
                state, trees = self._pick(state, [t for t in tiles if t not in water],
                                          int(self.data["apple_trees_per_ring"]))
                apple |= set(trees)
        return replace(state, apple=frozenset(apple), water=frozenset(water))


class WaterAnywhere(_Base):
    """BF-R7 the other way: water may be drawn where an animal or keeper starts."""

    def _generate(self, state: State) -> State:
        hidden = replace(state, animals=(), keepers=())
        return replace(super()._generate(hidden), animals=state.animals, keepers=state.keepers)


class CarriedAnimalsSurvive(_Base):
    """BF-R8 the other way: animals held by a keeper the fog takes are not lost."""

    def _engulf(self, state: State, tiles: frozenset) -> State:
        carried = {a for k in state.keepers if not k.lost and k.at in tiles for a in k.carrying}
        after = super()._engulf(state, tiles)
        return self._set_animals(after, {a.id: a for a in state.animals if a.id in carried})


class KeepersInOrder(_Base):
    """BF-R9 the other way: keepers act in turn: none may act while an earlier one has actions left."""

    def apply(self, state: State, action: dict) -> State:
        if state.phase == "actions" and action.get("type") not in ("end-actions",) and "keeper" in action:
            for k in state.keepers:
                if k.id == action["keeper"]:
                    break
                if not k.lost and k.actions < int(self.data["actions_per_keeper"]):
                    raise IllegalAction("wrong-phase", f"{k.id} acts first")
        return super().apply(state, action)


class HouseSavesWanderers(_Base):
    """BF-R10 the other way: an animal that steps onto the house is saved."""

    def _step(self, state: State, animal: Animal, to: hexes.Hex) -> Animal:
        moved = super()._step(state, animal, to)
        return replace(moved, at=None, status="saved") if moved.at == (0, 0) else moved


class OtherNumbers(_Base):
    """BF-R11 the other way: another choice of the open numbers (a small animal saved scores 2)."""

    def __init__(self) -> None:
        data = load_data("black-fog")
        super().__init__(score={**data["score"], "a": 2})


class FeedSurvivesFog(_Base):
    """BF-R12 the other way: feed tokens stay where the fog covers them."""

    def _engulf(self, state: State, tiles: frozenset) -> State:
        return replace(super()._engulf(state, tiles), feed=state.feed)


class EveryAnimalOfTheSize(_Base):
    """BF-R13 the other way: the bonus needs every animal of that size saved, not one of each species."""

    def score(self, state: State) -> dict[str, int]:
        points = super().score(state)
        s = self.data["score"]
        bonus = 0
        for size, key in (("small", "d"), ("medium", "e"), ("large", "f")):
            of_size = [a for a in state.animals if a.size == size]
            if of_size and all(a.status == "saved" for a in of_size):
                bonus += s[key]
        points["total"] += bonus - points["species_bonus"]
        points["species_bonus"] = bonus
        return points


class NoFogWhenTooFewTiles(_Base):
    """BF-R14 the other way: with fewer than three eligible tiles the fog appears nowhere."""

    def _appear(self, state: State, tiles: Any) -> State:
        ring = int(self.data["fog_appears"][state.round])
        eligible = [t for t in hexes.ring(ring) if t not in state.apple | state.withered | state.fog]
        if len(eligible) < int(self.data["fog_tiles"]):
            if tiles:
                raise IllegalAction("bad-fog", "no fog when too few tiles are left")
            return self._next_round(state)
        return super()._appear(state, tiles)


class LastAnimalFirst(_Base):
    """BF-R15 the other way: the animals move in reverse set-up order."""

    def _moving(self, state: State) -> Animal | None:
        n = len(state.animals)
        return state.animals[n - 1 - state.mover] if state.mover < n else None


class FeedPullsOneTile(_Base):
    """BF-R16 the other way (A-4's "one tile"): a step toward feed is the animal's last move of the phase, so a
    small animal within reach of feed moves one tile toward it, not two."""

    def _walk(self, state: State, animal: Animal, target: Any) -> State:
        after = super()._walk(state, animal, target)
        if target is not None and after.mover == state.mover and after.steps_left:
            return replace(after, mover=state.mover + 1, steps_left=0)
        return after


class FogClearsAtTheNextAppearance(_Base):
    """BF-R17 the other way ("until the fog clears"): the fog lifts from every tile when new fog appears in an odd
    round, so it moves inward ring by ring instead of growing."""

    def _appear(self, state: State, tiles: Any) -> State:
        return super()._appear(replace(state, fog=frozenset()), tiles)


MISREADINGS: dict[str, Any] = {
    "BF-R1": RingsCountedFromZero,
    "BF-R2": FacesCounterClockwise,
    "BF-R3": TiesGoTheOtherWay,
    "BF-R4": AnyWaterInBetween,
    "BF-R5": FogSparesWater,
    "BF-R6": WaterFirst,
    "BF-R7": WaterAnywhere,
    "BF-R8": CarriedAnimalsSurvive,
    "BF-R9": KeepersInOrder,
    "BF-R10": HouseSavesWanderers,
    "BF-R11": OtherNumbers,
    "BF-R12": FeedSurvivesFog,
    "BF-R13": EveryAnimalOfTheSize,
    "BF-R14": NoFogWhenTooFewTiles,
    "BF-R15": LastAnimalFirst,
    "BF-R16": FeedPullsOneTile,
    "BF-R17": FogClearsAtTheNextAppearance,
}
