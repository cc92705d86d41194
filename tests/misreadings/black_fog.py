"""Black Fog read the other way at each rule and each ruling (specs/black-fog.md, Rules and Rulings)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from refimpl.games import JSON, IllegalAction, load_data
from refimpl.games.base import BadSetup
from refimpl.games.black_fog import BlackFog, hexes
from refimpl.games.black_fog.engine import FREE_ACTIONS, MAIN_ACTIONS, Animal, Keeper, State


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


# --- the rules (one misreading each at least; a key ``ID#name`` for a further one) ----------------------------

@dataclass(frozen=True)
class _Memo(State):
    """A state with room for what a misreading remembers and the reference does not."""

    used: frozenset = frozenset()  # (keeper, main action) pairs taken this round
    rolled: bool = False  # the moving animal threw a die for an earlier step
    second: bool = False  # the animal phase's second sweep (small animals' second steps)


class _Remembering(_Base):
    def new_state(self, ruleset: str | None = None, seed: int | None = None,
                  setup: Mapping[str, Any] | None = None) -> State:
        return _Memo(**super().new_state(ruleset, seed, setup).__dict__)


def _drawn(game: BlackFog, state: State, tree_rings: range, water_pool: Any, water_count: Any) -> State:
    """The seeded map as ``_generate`` draws it, with the rings that get trees, the water's candidates and the
    number of water tiles given as functions of the ring's tiles and the trees so far."""
    keep_dry = {a.at for a in state.animals} | {k.at for k in state.keepers}
    apple: set = set()
    water: set = set()
    for n in range(2, game.rings + 1):
        tiles = hexes.ring(n)
        if n in tree_rings:
            state, trees = game._pick(state, tiles, int(game.data["apple_trees_per_ring"]))
            apple |= set(trees)
        state, wet = game._pick(state, water_pool(tiles, apple, keep_dry), water_count(tiles, apple))
        water |= set(wet)
    return replace(state, apple=frozenset(apple), water=frozenset(water))


class SixTilesOutFromTheHouse(_Base):
    """BF-MAP-1: "一辺が6タイル" read as six tiles from the house to the edge, so beyond the draft's ring 6 (where
    the trees, water and fog are laid by ring number) the map has a seventh ring of 36 tiles."""

    def __init__(self) -> None:
        super().__init__()
        self.tiles = self.tiles | frozenset(hexes.ring(self.rings + 1))
        self.names = {h: hexes.name(h) for h in self.tiles}


class TreesInTheOuterRingToo(_Base):
    """BF-MAP-2: three apple trees in every ring but the house, the outer ring too (the builder misses
    "外周と")."""

    def _generate(self, state: State) -> State:
        return _drawn(self, state, range(2, self.rings + 1),
                      lambda tiles, apple, dry: [t for t in tiles if t not in apple and t not in dry],
                      lambda tiles, apple: len(tiles) // int(self.data["water_per_tiles"]))


class WaterPerSixTilesBesideTheTrees(_Base):
    """BF-MAP-3: one water tile per six of the ring's tiles that are not apple trees, counted after the trees
    are laid (ring 2 then gets none, ring 3 one, ring 4 two, ring 5 three)."""

    def _generate(self, state: State) -> State:
        return _drawn(self, state, range(2, self.rings),
                      lambda tiles, apple, dry: [t for t in tiles if t not in apple and t not in dry],
                      lambda tiles, apple: len([t for t in tiles if t not in apple]) //
                      int(self.data["water_per_tiles"]))


class WaterMayFallOnTrees(_Base):
    """BF-MAP-4: trees and water are drawn each from the whole ring, independently, so a tile can be both an apple
    tree and water."""

    def _generate(self, state: State) -> State:
        return _drawn(self, state, range(2, self.rings),
                      lambda tiles, apple, dry: [t for t in tiles if t not in dry],
                      lambda tiles, apple: len(tiles) // int(self.data["water_per_tiles"]))


class SetUpKeepersArePlayers(_Base):
    """BF-KEEP-1: the draft's 1-4 players read as 1-4 keepers: a set-up that places keepers names the keepers in
    the game, and those it leaves out do not play."""

    def _mapped(self, ruleset: str | None, seed: int | None, setup: Mapping[str, Any] | None) -> State:
        state = super()._mapped(ruleset, seed, setup)
        placed = (setup or {}).get("keepers")
        if isinstance(placed, dict) and placed:
            state = replace(state, keepers=tuple(k for k in state.keepers if k.id in placed))
        return state


class OverWhenRoundEightBegins(_Base):
    """BF-ROUND-1 off by one: "合計8ラウンド終了した時点" counted on the round counter, so the game is over when
    round 7's fog phase ends and the counter would reach 8."""

    def _next_round(self, state: State) -> State:
        if state.round + 1 >= int(self.data["rounds"]):
            return replace(state, phase="over")
        return super()._next_round(state)


class NoFogAfterTheLastRound(_Base):
    """BF-ROUND-1: with no round to follow, the last round ends after its animals move: round 8 has no fog
    phase, so its spread takes no one."""

    def _fog_phase(self, state: State) -> State:
        if state.round >= int(self.data["rounds"]):
            return replace(state, phase="over")
        return super()._fog_phase(state)


def _refuse_main(game: BlackFog, state: State, action: dict, why: str) -> None:
    """Raise no-actions-left as the reference would for a keeper out of actions (after its own checks)."""
    game._keeper(state, action["keeper"])  # no-keeper, keeper-lost first
    raise IllegalAction("no-actions-left", why)


class ThreeActionsForTheTeam(_Base):
    """BF-ACT-1: "4つのアクションから3回選ぶ" read as the players' three main actions a round, shared by the four
    keepers, not three for each keeper."""

    def _spent(self, state: State) -> bool:
        return sum(k.actions for k in state.keepers) >= int(self.data["actions_per_keeper"])

    def apply(self, state: State, action: dict) -> State:
        if state.phase == "actions" and action.get("type") in MAIN_ACTIONS and self._spent(state):
            _refuse_main(self, state, action, "the keepers have taken the round's three actions")
        return super().apply(state, action)

    def legal_actions(self, state: State, observer: str | None = None) -> list[dict]:
        out = super().legal_actions(state, observer)
        return [a for a in out if a["type"] not in MAIN_ACTIONS] if self._spent(state) else out


class NoActionTwice(_Remembering):
    """BF-ACT-1 without "(重複可)": a keeper's three main actions must be three different ones."""

    def apply(self, state: State, action: dict) -> State:
        kind = action.get("type")
        if state.phase == "actions" and kind in MAIN_ACTIONS and (action.get("keeper"), kind) in state.used:
            _refuse_main(self, state, action, f"{action['keeper']} has already taken {kind} this round")
        after = super().apply(state, action)
        if after.phase == "actions" and kind in MAIN_ACTIONS and after.round == state.round:
            after = replace(after, used=state.used | {(action["keeper"], kind)})
        return after

    def _next_round(self, state: State) -> State:
        return replace(super()._next_round(state), used=frozenset())

    def legal_actions(self, state: State, observer: str | None = None) -> list[dict]:
        return [a for a in super().legal_actions(state, observer)
                if (a.get("keeper"), a["type"]) not in getattr(state, "used", ())]


class FreeActionsCount(_Base):
    """BF-ACT-2: releasing and collecting are actions like the others: each counts among the keeper's three, and
    none is left after them."""

    def apply(self, state: State, action: dict) -> State:
        if state.phase == "actions" and action.get("type") in FREE_ACTIONS:
            keeper = self._keeper(state, action["keeper"])
            if keeper.actions >= int(self.data["actions_per_keeper"]):
                raise IllegalAction("no-actions-left", f"{keeper.id} has taken its three actions")
            after = super().apply(state, action)
            moved = self._keeper(after, keeper.id)
            return self._set_keeper(after, replace(moved, actions=moved.actions + 1))
        return super().apply(state, action)

    def legal_actions(self, state: State, observer: str | None = None) -> list[dict]:
        spent = {k.id for k in state.keepers if k.actions >= int(self.data["actions_per_keeper"])}
        return [a for a in super().legal_actions(state, observer)
                if not (a["type"] in FREE_ACTIONS and a.get("keeper") in spent)]


class FeedHoldsAgainstTheWhistle(_Base):
    """BF-WHISTLE-1 without its third bullet: an animal on a feed token keeps to the feed when whistled."""

    def _whistle(self, state: State, keeper: Keeper, action: dict) -> State:
        held = {a.id: a for a in state.animals if a.status == "wild" and a.at in state.feed}
        return self._set_animals(super()._whistle(state, keeper, action), held)


class SilentWhistleIsFree(_Base):
    """BF-R18 the other way: a whistle that moves no animal did nothing, so it costs the keeper no action."""

    def apply(self, state: State, action: dict) -> State:
        after = super().apply(state, action)
        if action.get("type") == "whistle" and after.animals == state.animals:
            keeper = self._keeper(after, action["keeper"])
            after = self._set_keeper(after, replace(keeper, actions=keeper.actions - 1))
        return after


class AnimalsJoinAKeeperOnWater(_Base):
    """BF-WHISTLE-2 with only its first sentence: water between stops an animal, but one next to a keeper on
    water steps onto the keeper's tile."""

    def _whistle(self, state: State, keeper: Keeper, action: dict) -> State:
        if keeper.at not in state.water:
            return super()._whistle(state, keeper, action)
        changed = {}
        for a in state.animals:
            if a.status == "wild" and hexes.distance(a.at, keeper.at) == 1:
                changed[a.id] = self._step(state, a, keeper.at)
        return self._set_animals(super()._whistle(state, keeper, action), changed)


class NoWhistleFromWater(_Base):
    """BF-WHISTLE-2: "自分が水辺タイルにいる場合、動物は自分のタイルに移動しない" read as a keeper on water calling
    no animal at all, near or far."""

    def _whistle(self, state: State, keeper: Keeper, action: dict) -> State:
        return state if keeper.at in state.water else super()._whistle(state, keeper, action)


class FogStopsTheWhistle(_Base):
    """BF-WHISTLE-3 the way of water: fog between the animal and the keeper stops it, as water does."""

    def _whistle(self, state: State, keeper: Keeper, action: dict) -> State:
        held = {a.id: a for a in state.animals if a.status == "wild"
                and 1 <= hexes.distance(a.at, keeper.at) <= int(self.data["whistle_range"])
                and hexes.toward(a.at, keeper.at) in state.fog}
        return self._set_animals(super()._whistle(state, keeper, action), held)


class CapacityPerTame(_Base):
    """BF-TAME-1: the 3-cost limit read as a limit on one taming ("同時に手懐けられる"), so a keeper who holds a
    deer may still tame a bear."""

    def _load(self, state: State, keeper: Keeper) -> int:
        return 0


class CapacityCountsHeads(_Base):
    """BF-TAME-1: "最大3コスト" read as at most three animals, whatever their size."""

    def _cost(self, animal: Animal) -> int:
        return 1


class KeepersNeverEnterWater(_Base):
    """BF-MOVE-1: water is closed to keepers, carrying or not (the builder misses "一人であれば移動可能")."""

    def _move(self, state: State, keeper: Keeper, action: dict) -> State:
        after = super()._move(state, keeper, action)
        if self._keeper(after, keeper.id).at in state.water:
            raise IllegalAction("water-while-carrying", "keepers do not enter water")
        return after

    def _can_move(self, state: State, keeper: Keeper, to: hexes.Hex) -> bool:
        return super()._can_move(state, keeper, to) and to not in state.water


class NoFeedBesideWater(_Base):
    """BF-FEED-1: "水辺タイル" read as the waterside: no feed on water nor on a tile beside it."""

    def _beside(self, state: State, tile: hexes.Hex) -> bool:
        return any(n in state.water for n in hexes.neighbours(tile))

    def _feed(self, state: State, keeper: Keeper, action: dict) -> State:
        if self._beside(state, keeper.at):
            raise IllegalAction("feed-on-water", "no feed by the waterside")
        return super()._feed(state, keeper, action)

    def legal_actions(self, state: State, observer: str | None = None) -> list[dict]:
        at = {k.id: k.at for k in state.keepers}
        return [a for a in super().legal_actions(state, observer)
                if not (a["type"] == "feed" and self._beside(state, at[a["keeper"]]))]


class ReleaseLetsGoOfAll(_Base):
    """BF-RELEASE-1: "手懐けている動物を放流する" read as letting go of every animal held: a release puts them all
    down, whichever it names."""

    def _release(self, state: State, keeper: Keeper, action: dict) -> State:
        super()._release(state, keeper, action)  # the same refusals
        return super()._release(state, keeper, {**action, "animals": list(keeper.carrying)})


class CollectGathersAround(_Base):
    """BF-COLLECT-1: collecting gathers the feed around the keeper: the token on its tile and those on the six
    tiles beside it."""

    def _collect(self, state: State, keeper: Keeper, action: dict) -> State:
        after = super()._collect(state, keeper, action)
        return replace(after, feed=after.feed - set(hexes.neighbours(keeper.at)))


class OneThrowForBothSmallSteps(_Base):
    """BF-ANIMAL-1: "6面ダイス * 2回" read as a small animal's throw counting twice: one die, two tiles in its
    direction."""

    def _roll(self, state: State, face: Any) -> State:
        animal = self._moving(state)
        small = animal is not None and animal.size == "small" and state.steps_left >= 2
        if face is None:
            state, face = self._seeded_face(state)
        after = super()._roll(state, face)
        if small and after.phase == "animals" and after.mover == state.mover and self.pending(after) == "roll":
            after = super()._roll(after, face)
        return after


class FeedPullsAllTheWay(_Base):
    """BF-ANIMAL-2: an animal within 2 tiles of feed goes to the feed: each move toward it ends on the token."""

    def _walk(self, state: State, animal: Animal, target: Any) -> State:
        if target is None:
            return super()._walk(state, animal, target)
        moved = animal
        while moved.status == "wild" and moved.at != target:
            step = self._land(state, moved, hexes.toward(moved.at, target))
            if step == moved:
                break
            moved = step
        return self._advance(self._set_animals(state, {animal.id: moved}), moved)


class FeedLookedAtOnceATurn(_Remembering):
    """BF-ANIMAL-2 without "2回目の移動時は餌トークンに近づく": whether an animal heads for feed is settled before
    it moves; one that throws a die for its first step throws for its second too."""

    def _roll(self, state: State, face: Any) -> State:
        return super()._roll(replace(state, rolled=True), face)

    def _advance(self, state: State, animal: Animal) -> State:
        after = super()._advance(state, animal)
        return replace(after, rolled=False) if after.mover != state.mover else after

    def _feed_options(self, state: State) -> list:
        return [] if getattr(state, "rolled", False) else super()._feed_options(state)


class NearestFeedWins(_Base):
    """BF-ANIMAL-3: with two feed tokens in reach the animal heads for the nearer; the players choose only
    between tokens equally near."""

    def _feed_options(self, state: State) -> list:
        options = super()._feed_options(state)
        animal = self._moving(state)
        if len(options) > 1 and None not in options and animal is not None:
            best = min(hexes.distance(o, animal.at) for o in options)
            options = [o for o in options if hexes.distance(o, animal.at) == best]
        return options


class OnFeedItStays(_Base):
    """BF-ANIMAL-4: an animal on a feed token stays in the movement phase, whatever other feed lies near (only a
    whistle moves it)."""

    def _feed_options(self, state: State) -> list:
        options = super()._feed_options(state)
        return [None] if None in options else options


class BlockedStepThrownAgain(_Base):
    """BF-ANIMAL-5: a throw whose step leads off the map or onto water does not count: the animal throws
    again."""

    def _roll(self, state: State, face: Any) -> State:
        if face is None:
            state, face = self._seeded_face(state)
        animal = self._moving(state)
        if type(face) is int and 1 <= face <= 6 and animal is not None and animal.at is not None:
            to = hexes.neighbour(animal.at, face)
            if to not in self.tiles or to in state.water:
                return state
        return super()._roll(state, face)


class OffTheEdgeIsLost(_Base):
    """BF-ANIMAL-5: an animal whose step leads off the map leaves the forest and is lost (onto water it stays)."""

    def _land(self, state: State, animal: Animal, to: hexes.Hex) -> Animal:
        if to not in self.tiles:
            return replace(animal, at=None, status="lost")
        return super()._land(state, animal, to)


class StepsTakenInTurns(_Remembering):
    """BF-ANIMAL-6: the animals take their steps in turns: every animal its first step, in set-up order, then the
    small animals their second."""

    def _run_animals(self, state: State) -> State:
        while True:
            animal = self._moving(state)
            if animal is None:
                if not getattr(state, "second", False):
                    state = replace(state, second=True, mover=0, steps_left=0)
                    continue
                return self._fog_phase(replace(state, phase="fog", mover=0, steps_left=0, second=False))
            rolls = int(self.data["sizes"][animal.size]["rolls"])
            if animal.status != "wild" or (state.second and rolls < 2):
                state = replace(state, mover=state.mover + 1, steps_left=0)
                continue
            if state.steps_left == 0:
                state = replace(state, steps_left=1)
            options = self._feed_options(state)
            if len(options) > 1:
                return state
            if len(options) == 1:
                state = self._walk(state, animal, options[0])
                continue
            return state


class WitheredTreesTakeFog(_Base):
    """BF-FOG-1: "(リンゴの木タイルを除く)" read as the healthy trees only: fog may appear on a withered tree,
    which it then takes."""

    def _fog_eligible(self, state: State) -> list:
        ring = int(self.data["fog_appears"][state.round])
        return [t for t in hexes.ring(ring) if t not in state.apple and t not in state.fog]

    def _engulf(self, state: State, tiles: frozenset) -> State:
        return super()._engulf(replace(state, withered=state.withered - tiles), tiles)


class FogMayFallOnFog(_Base):
    """BF-FOG-1: the 3 tiles are drawn from the ring's tiles that are not apple trees, fog or not: a draw that
    lands on fog adds nothing."""

    def _fog_eligible(self, state: State) -> list:
        ring = int(self.data["fog_appears"][state.round])
        return [t for t in hexes.ring(ring) if t not in state.apple and t not in state.withered]


class TreesDrawnButSpared(_Base):
    """BF-FOG-1: the fog's 3 tiles are drawn from the whole ring, and the apple trees among them (and tiles already
    fog) stay as they are: "3 tiles, apple trees excepted"."""

    def _fog_eligible(self, state: State) -> list:
        return hexes.ring(int(self.data["fog_appears"][state.round]))

    def _engulf(self, state: State, tiles: frozenset) -> State:
        if state.phase == "fog" and state.round % 2 == 1:
            tiles = frozenset(t for t in tiles if t not in state.apple | state.withered)
        return super()._engulf(state, tiles)


class SpreadsOneTileEachTowardTheHouse(_Base):
    """BF-FOG-2: "周囲1タイルずつ" read as one tile from each fog tile, the one toward the house, not every
    tile around it."""

    def _spread(self, state: State) -> State:
        reach = {hexes.toward(f, (0, 0)) for f in state.fog} - state.fog
        withering = {t for t in reach if t in state.apple}
        taken = state.withered
        state = replace(state, apple=state.apple - withering, withered=(state.withered | withering) - taken)
        return self._engulf(state, frozenset((reach - withering) | taken))


class SpreadsOnlyInward(_Base):
    """BF-R19 the other way: with the draft's figure of rounds 1-2 lost, the fog is read as eating into the
    forest a ring at a time: each fog tile spreads onto its neighbours nearer the house, never along its ring or
    outward."""

    def _spread(self, state: State) -> State:
        reach = {n for f in state.fog for n in hexes.neighbours(f) if n in self.tiles
                 and hexes.distance(n, (0, 0)) < hexes.distance(f, (0, 0))} - state.fog
        withering = {t for t in reach if t in state.apple}
        taken = state.withered
        state = replace(state, apple=state.apple - withering, withered=(state.withered | withering) - taken)
        return self._engulf(state, frozenset((reach - withering) | taken))


class WitheredTakenAtTheNextFog(_Base):
    """BF-FOG-3: a withered tree is taken by the next fog, whether it appears or spreads ("次の黒い霧" without
    "の拡大時")."""

    def _appear(self, state: State, tiles: Any) -> State:
        after = super()._appear(state, tiles)
        if not state.withered:
            return after
        return self._engulf(replace(after, withered=after.withered - state.withered), state.withered)


class WitheredTreesKeepTheFogOff(_Base):
    """BF-FOG-3: a withered tree is still an apple tree the fog avoids: it is never taken."""

    def _spread(self, state: State) -> State:
        reach = {n for f in state.fog for n in hexes.neighbours(f) if n in self.tiles} - state.fog - state.withered
        withering = {t for t in reach if t in state.apple}
        state = replace(state, apple=state.apple - withering, withered=state.withered | withering)
        return self._engulf(state, frozenset(reach - withering))


class KeepersOutliveTheFog(_Base):
    """BF-FOG-4: the fog swallows animals; a keeper it covers is only shut in ("人が立ち入ることはできなくなる"),
    and keeps the animals it holds."""

    def _engulf(self, state: State, tiles: frozenset) -> State:
        after = super()._engulf(state, tiles)
        held = {a.id: a for a in state.animals if a.status == "carried"}
        return self._set_animals(replace(after, keepers=state.keepers), held)


class KeeperOnWaterRefused(_Base):
    """BF-START-1: since a drawn map keeps water off the start tiles, a set-up that puts a keeper on water is
    refused too."""

    def new_state(self, ruleset: str | None = None, seed: int | None = None,
                  setup: Mapping[str, Any] | None = None) -> State:
        state = super().new_state(ruleset, seed, setup)
        if any(k.at in state.water for k in state.keepers):
            raise BadSetup("bad-setup", "a keeper on water")
        return state


class TilesSortedAsText(_Base):
    """BF-VIEW-1: the view's lists of tiles sorted as the names' text ("-1,0" before "-2,0", "0,-1" before "0,-3"),
    not by q, then r, as numbers."""

    def _listed(self, tiles: frozenset) -> tuple:  # type: ignore[override]
        return tuple(sorted(self.names[t] for t in tiles))


class NullSeedShownAsNull(_Base):
    """BF-VIEW-1: a game started without a seed shows `seed: null` (it plays seed 0's stream all the same)."""

    def new_state(self, ruleset: str | None = None, seed: int | None = None,
                  setup: Mapping[str, Any] | None = None) -> State:
        state = super().new_state(ruleset, seed, setup)
        return replace(state, seed=None) if seed is None else state  # type: ignore[arg-type]


class FreeActionsListedWithActionsLeft(_Base):
    """BF-LEGAL-1: a keeper's actions are listed only while it has main actions left, release and collect too."""

    def legal_actions(self, state: State, observer: str | None = None) -> list[dict]:
        spent = {k.id for k in state.keepers if k.actions >= int(self.data["actions_per_keeper"])}
        return [a for a in super().legal_actions(state, observer) if a.get("keeper") not in spent]


class TameListedOneByOne(_Base):
    """BF-LEGAL-1: `legal` lists one tame for each wild animal on the keeper's tile, not one for each set of them
    that fits."""

    def legal_actions(self, state: State, observer: str | None = None) -> list[dict]:
        return [a for a in super().legal_actions(state, observer)
                if a["type"] != "tame" or len(a["animals"]) == 1]


class ExtraKeysIgnored(_Base):
    """BF-FORM-1: an action's keys beyond its own are ignored, as many JSON readers do, not malformed."""

    def parse_action(self, data: Any) -> dict:
        if type(data) is dict and data.get("type") in self.FORMS:
            data = {k: v for k, v in data.items() if k == "type" or k in self.FORMS[data["type"]]}
        return super().parse_action(data)


class FogCheckedBeforeDistance(_Base):
    """BF-FORM-2: a move into fog is refused `into-fog` first, before the distance is looked at."""

    def _move(self, state: State, keeper: Keeper, action: dict) -> State:
        try:
            to = self._tile(action["to"])
        except (ValueError, TypeError, AttributeError):
            to = None
        if to is not None and to in state.fog:
            raise IllegalAction("into-fog", f"{hexes.name(to)} is covered by the fog")
        return super()._move(state, keeper, action)


class ScoreAtTheEnd(_Base):
    """BF-SCORE-1: the score is counted when the game ends; until then every part of it is 0."""

    def score(self, state: State) -> dict[str, int]:
        points = super().score(state)
        return points if state.phase == "over" else dict.fromkeys(points, 0)


def _toward_q_first(src: hexes.Hex, dst: hexes.Hex) -> hexes.Hex:
    if src == dst:
        return src
    here = hexes.distance(src, dst)
    closer = [n for n in hexes.neighbours(src) if hexes.distance(n, dst) == here - 1]
    return next((n for n in closer if n[1] == src[1]), closer[0])


class TiesAlongQFirst(_PatchedToward):
    """BF-R3 the way of a square grid: of two equally good steps, the one along q (r unchanged) when there is one,
    as x before y."""

    TOWARD = staticmethod(_toward_q_first)


class WalksAroundWater(_Base):
    """BF-R4: an animal with water on its step at distance 2 takes the other step one tile closer when that one
    is dry: only water on every way between stops it."""

    def _whistle(self, state: State, keeper: Keeper, action: dict) -> State:
        around = {}
        for a in state.animals:
            if a.status == "wild" and hexes.distance(a.at, keeper.at) == 2 and \
                    hexes.toward(a.at, keeper.at) in state.water:
                dry = [n for n in hexes.neighbours(a.at)
                       if hexes.distance(n, keeper.at) == 1 and n not in state.water]
                if dry:
                    around[a.id] = self._step(state, a, dry[0])
        return self._set_animals(super()._whistle(state, keeper, action), around)



# --- wrong builds the kit's own tests serve by name (tests/builds/wrong.py), written before the catalogue: each
# breaks one rule plainly ----------------------------------------------------------------------------------------


class OneStepTowardFeed(BlackFog):
    """Breaks BF-ANIMAL-2: an animal near feed takes one step toward it, whatever number of steps it rolls."""

    def __init__(self) -> None:
        super().__init__(load_data("black-fog"))

    def _walk(self, state: State, animal: Animal, target: object) -> State:
        after = super()._walk(state, animal, target)  # type: ignore[arg-type]
        if after.mover == state.mover and after.steps_left:
            return replace(after, mover=state.mover + 1, steps_left=0)
        return after


class NoBonusNoPenalty(BlackFog):
    """Breaks BF-SCORE-1: the species bonuses and the penalty for lost keepers are left at zero."""

    def __init__(self) -> None:
        data = dict(load_data("black-fog"))
        data["score"] = {**data["score"], "d": 0, "e": 0, "f": 0, "g": 0}
        super().__init__(data)


class LenientKeepers(BlackFog):
    """Breaks BF-START-1: a set-up's ``keepers`` naming someone besides the four keepers has that entry ignored,
    where the rules refuse the set-up."""

    def __init__(self) -> None:
        super().__init__(load_data("black-fog"))

    def new_state(self, ruleset: str | None = None, seed: int | None = None,
                  setup: Mapping[str, JSON] | None = None) -> State:
        placed = (setup or {}).get("keepers")
        if isinstance(placed, dict):
            known = set(self.data["keepers"])
            setup = {**(setup or {}), "keepers": {k: v for k, v in placed.items() if k in known}}
        return super().new_state(ruleset, seed, setup)


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
    "BF-R18": SilentWhistleIsFree,
    "BF-R19": SpreadsOnlyInward,
    "BF-R3#q-first": TiesAlongQFirst,
    "BF-R4#around": WalksAroundWater,
    "BF-MAP-1": SixTilesOutFromTheHouse,
    "BF-MAP-2": TreesInTheOuterRingToo,
    "BF-MAP-3": WaterPerSixTilesBesideTheTrees,
    "BF-MAP-4": WaterMayFallOnTrees,
    "BF-KEEP-1": SetUpKeepersArePlayers,
    "BF-ROUND-1": OverWhenRoundEightBegins,
    "BF-ROUND-1#no-last-fog": NoFogAfterTheLastRound,
    "BF-ACT-1": ThreeActionsForTheTeam,
    "BF-ACT-1#no-repeats": NoActionTwice,
    "BF-ACT-2": FreeActionsCount,
    "BF-WHISTLE-1": FeedHoldsAgainstTheWhistle,
    "BF-WHISTLE-2": AnimalsJoinAKeeperOnWater,
    "BF-WHISTLE-2#silent-on-water": NoWhistleFromWater,
    "BF-WHISTLE-3": FogStopsTheWhistle,
    "BF-TAME-1": CapacityPerTame,
    "BF-TAME-1#heads": CapacityCountsHeads,
    "BF-MOVE-1": KeepersNeverEnterWater,
    "BF-FEED-1": NoFeedBesideWater,
    "BF-RELEASE-1": ReleaseLetsGoOfAll,
    "BF-COLLECT-1": CollectGathersAround,
    "BF-ANIMAL-1": OneThrowForBothSmallSteps,
    "BF-ANIMAL-2": FeedPullsAllTheWay,
    "BF-ANIMAL-2#first-step-only": FeedLookedAtOnceATurn,
    "BF-ANIMAL-3": NearestFeedWins,
    "BF-ANIMAL-4": OnFeedItStays,
    "BF-ANIMAL-5": BlockedStepThrownAgain,
    "BF-ANIMAL-5#off-edge-lost": OffTheEdgeIsLost,
    "BF-ANIMAL-6": StepsTakenInTurns,
    "BF-FOG-1": WitheredTreesTakeFog,
    "BF-FOG-1#on-fog": FogMayFallOnFog,
    "BF-FOG-1#trees-drawn": TreesDrawnButSpared,
    "BF-FOG-2": SpreadsOneTileEachTowardTheHouse,
    "BF-FOG-3": WitheredTakenAtTheNextFog,
    "BF-FOG-3#withered-stand": WitheredTreesKeepTheFogOff,
    "BF-FOG-4": KeepersOutliveTheFog,
    "BF-START-1": KeeperOnWaterRefused,
    "BF-VIEW-1": TilesSortedAsText,
    "BF-VIEW-1#null-seed": NullSeedShownAsNull,
    "BF-LEGAL-1": FreeActionsListedWithActionsLeft,
    "BF-LEGAL-1#tame-singly": TameListedOneByOne,
    "BF-FORM-1": ExtraKeysIgnored,
    "BF-FORM-2": FogCheckedBeforeDistance,
    "BF-SCORE-1": ScoreAtTheEnd,
    "BF-ANIMAL-2#one-step": OneStepTowardFeed,
    "BF-SCORE-1#no-bonus-no-penalty": NoBonusNoPenalty,
    "BF-START-1#lenient-keepers": LenientKeepers,
}
