"""Lantern Quay read another way, rule by rule and at each ruling (specs/lantern-quay.md).

Each class is a build whose author read one rule (or one of the seed's passages behind it) another plausible way,
and otherwise follows the reference. Its docstring says how that author reads it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from refimpl.games import JSON, IllegalAction, load_data
from refimpl.games.base import evolve
from refimpl.games.lantern_quay import LanternQuay, Place, Roll, State

from .restart import RestartAware


@dataclass(frozen=True)
class _State(State):
    """The reference's state with what a misreading needs to remember."""

    ended: bool = False  # a round ended and the next has not been rolled yet
    begun: tuple[int, int, int] | None = None  # the stock the round began with
    order: tuple[tuple[str, int], ...] = ()  # this round's placements, in the order they were made
    fresh: int = 0  # modules forged this round


def _changed(data: Mapping[str, Any], **changes: Any) -> dict[str, Any]:
    return {**data, **changes}


class _Base(LanternQuay):
    def __init__(self, data: Mapping[str, Any] | None = None) -> None:
        super().__init__(load_data("lantern-quay") if data is None else data)

    def new_state(self, ruleset: str | None = None, seed: int | None = None,
                  setup: Mapping[str, JSON] | None = None) -> State:
        return _State(**super().new_state(ruleset, seed, setup).__dict__)


class _RestartAware(RestartAware, _Base):
    """Tells a restart from a start (restart.RestartAware)."""


class _Locked(_Base):
    """Placements that complete a round of ``RULESETS`` resolve through ``resolve_round`` (the placements in the
    order made); before that nothing resolves. Other rulesets are the reference's."""

    RULESETS: tuple[str, ...] = ("v1",)

    def resolve_round(self, state: State, order: tuple[tuple[str, int], ...]) -> State:
        for slot in self.tables.slots:
            state = self._resolve(state, slot, dict(order)[slot])
        return state

    def apply(self, state: State, action: Any) -> State:
        checked = super().apply(state, action)  # refuses what the reference refuses
        if not isinstance(action, Place) or state.ruleset not in self.RULESETS:
            return checked
        slots = self.tables.slots
        order = getattr(state, "order", ()) + ((action.slot, action.face),)
        dice = list(state.dice)
        dice.remove(action.face)
        placed = tuple(sorted(state.placed + ((action.slot, action.face),), key=lambda p: slots.index(p[0])))
        after = evolve(state, dice=tuple(dice), placed=placed, order=order)
        if len(order) < len(slots):
            return after
        return self._end_round(evolve(self.resolve_round(after, order), order=()))


# --- start and rounds ---------------------------------------------------------------------------------------

class EmptyStartTray(_Base):
    """LQ-START-1: reads the §1 picture ("the start tray has one brass disc and the action adds one") as the
    disc being the first Salvage's: the stock starts empty, brass 0."""

    def __init__(self) -> None:
        data = load_data("lantern-quay")
        super().__init__(_changed(data, start={**data["start"], "brass": 0}))


class SetUpTaken(_Base):
    """LQ-START-2: takes a set-up as a starting stock (`{"brass": 5}`), the way a tester would like it, instead
    of refusing it."""

    def new_state(self, ruleset: str | None = None, seed: int | None = None,
                  setup: Mapping[str, JSON] | None = None) -> State:
        state = super().new_state(ruleset, seed, None)
        given = {k: v for k, v in (setup or {}).items()
                 if k in ("round", "brass", "modules", "lenses") and type(v) is int}
        return evolve(state, **given)


class SeedRollsTheFirstDice(_Base):
    """LQ-START-2, the seed: reads a seed as the game's own dice: a start with a seed rolls round 1's three dice
    from it, so the game begins in phase place."""

    def new_state(self, ruleset: str | None = None, seed: int | None = None,
                  setup: Mapping[str, JSON] | None = None) -> State:
        state = super().new_state(ruleset, seed, setup)
        if seed is None:
            return state
        rng = random.Random(seed)
        return evolve(state, dice=tuple(rng.randint(1, self.tables.faces) for _ in range(self.tables.dice)))


class ThreeDifferentFaces(_Base):
    """LQ-ROLL-1: reads §2 "d6を正確に3個振り、異なる行動枠へ各1個ずつ" as three dice showing different faces (the
    worked roll is 2, 4, 6): a roll with a repeated face is refused (`bad-face`)."""

    def apply(self, state: State, action: Any) -> State:
        after = super().apply(state, action)
        if isinstance(action, Roll) and len(set(action.dice)) < len(action.dice):
            raise IllegalAction("bad-face", f"three different faces, got {list(action.dice)}")
        return after


class DiceSorted(_Base):
    """LQ-ROLL-1, the faces in order: keeps a roll as the seed writes one, smallest face first ([2,4,6]),
    not in the order rolled."""

    def apply(self, state: State, action: Any) -> State:
        after = super().apply(state, action)
        return evolve(after, dice=tuple(sorted(after.dice))) if isinstance(action, Roll) else after


class RerollBeforePlacing(_Base):
    """LQ-ROLL-2: lets the keeper roll again while no die is placed yet (a reroll, as many dice games allow):
    the new faces replace the old."""

    def apply(self, state: State, action: Any) -> State:
        if isinstance(action, Roll) and state.phase == "place" and not state.placed:
            return super().apply(evolve(state, dice=()), action)
        return super().apply(state, action)


class SwapUntilLocked(_Base):
    """LQ-PLACE-1: reads v1's "lock all placements, then resolve" as placements being open until the third: a
    die put on a slot that holds one takes its place, and the die it displaces goes back among the unplaced."""

    def apply(self, state: State, action: Any) -> State:
        taken = dict(state.placed)
        if (isinstance(action, Place) and self.timing.get(state.ruleset) == "locked" and state.phase == "place"
                and action.slot in taken):
            if action.face not in state.dice:
                raise IllegalAction("no-such-die", f"no unplaced die shows {action.face}")
            dice = list(state.dice)
            dice.remove(action.face)
            return evolve(state, dice=(*dice, taken[action.slot]),
                          placed=tuple((s, action.face if s == action.slot else f) for s, f in state.placed))
        return super().apply(state, action)


# --- timing -------------------------------------------------------------------------------------------------

class PlacementOrderAfterLock(_Locked):
    """LQ-TIME-1: reads v1 as "lock all three, then resolve them in the order they were placed" (the lock, not
    the printed order Salvage → Forge → Install, read as the fix)."""

    def resolve_round(self, state: State, order: tuple[tuple[str, int], ...]) -> State:
        for slot, face in order:
            state = self._resolve(state, slot, face)
        return state


class EachSlotOnTheRoundStock(_Locked):
    """LQ-TIME-1, simultaneous slots: reads "resolve once all are locked" as the three slots resolving together,
    each on the stock the round began with, so Salvage's brass cannot pay this round's Forge."""

    def resolve_round(self, state: State, order: tuple[tuple[str, int], ...]) -> State:
        total = state
        for slot, face in order:
            moved = self._resolve(state, slot, face)
            total = evolve(total, brass=total.brass + moved.brass - state.brass,
                           modules=total.modules + moved.modules - state.modules,
                           lenses=total.lenses + moved.lenses - state.lenses)
        return total


class DraftAsRevised(_Base):
    """LQ-TIME-2: reads §5's revision as replacing the draft: v0 is served with the revised timing (lock all,
    then Salvage → Forge → Install), so the order of placement never matters."""

    def __init__(self) -> None:
        super().__init__()
        self.timing["v0"] = self.timing["v1"]


# --- the slots ----------------------------------------------------------------------------------------------

class HalfRoundedDown(_Base):
    """LQ-SALV-1: reads Salvage as half the face, rounded down (1: 0, 2–3: 1, 4–5: 2, 6: 3), the usual integer
    halving, not ⌈face ÷ 2⌉."""

    def __init__(self) -> None:
        data = load_data("lantern-quay")
        super().__init__(_changed(data, salvage={f: f // 2 for f in data["salvage"]}))


class LowForgeStillGivesBrass(_Base):
    """LQ-FORGE-1: reads §9 "低い出目は無駄になりますか？いいえ。1や2でも…真鍮1を得ます" as low faces never being
    wasted: a Forge with 1–2 makes no module but yields 1 brass."""

    def _resolve(self, state: State, slot: str, face: int) -> State:
        if slot == "forge" and self.tables.forge[face] is None:
            return evolve(state, brass=state.brass + 1)
        return super()._resolve(state, slot, face)


class ForgeAtTheLowerPrice(_Base):
    """LQ-FORGE-2: reads the 5–6 row as raising only the output: a Forge pays 2 brass whatever its face, and
    5–6 makes 2 modules for it."""

    def __init__(self) -> None:
        data = load_data("lantern-quay")
        forge = {f: (row if row is None or row["modules"] == 1 else {**row, "brass": 2})
                 for f, row in data["forge"].items()}
        super().__init__(_changed(data, forge=forge))


class FallsBackToTheCheaperDeal(_Base):
    """LQ-FORGE-3: reads "all or nothing" as per module: a 5–6 Forge short of 3 brass still makes the one module
    2 brass pay for (the 3–4 deal)."""

    def _resolve(self, state: State, slot: str, face: int) -> State:
        deal = self.tables.forge[face] if slot == "forge" else None
        cheaper = self.tables.forge[3]
        if deal is not None and cheaper is not None and state.brass < deal[0] and state.brass >= cheaper[0]:
            return evolve(state, brass=state.brass - cheaper[0], modules=state.modules + cheaper[1])
        return super()._resolve(state, slot, face)


class FailedInstallUsesAModule(_Base):
    """LQ-INST-1: reads Install as always spending a module it finds (§3 "モジュールをちょうど1消費"), the lens lit
    only on 5–6: a low Install with a module held uses it up for nothing."""

    def _resolve(self, state: State, slot: str, face: int) -> State:
        if slot == "install" and face < self.tables.install_min_face and state.modules >= 1:
            return evolve(state, modules=state.modules - 1)
        return super()._resolve(state, slot, face)


class EachModuleLightsALens(_Base):
    """LQ-INST-2: reads a module as one lens's part: Install on 5–6 fits every module held, each lighting a lens
    (up to the lenses left), not one a round."""

    def _resolve(self, state: State, slot: str, face: int) -> State:
        if slot == "install" and face >= self.tables.install_min_face and state.modules >= 1:
            n = min(state.modules, self.tables.lenses - state.lenses)
            return evolve(state, modules=state.modules - n, lenses=state.lenses + n)
        return super()._resolve(state, slot, face)


# --- carry-over and the end ---------------------------------------------------------------------------------

class BrassLeftOnTheQuay(_Base):
    """LQ-CARRY-1: reads the carry-over as the lens modules' only (§2 "真鍮とレンズモジュール" read as "brass-and-lens
    modules"): unspent brass is lost when a round ends, modules carry over."""

    def _end_round(self, state: State) -> State:
        after = super()._end_round(state)
        return evolve(after, brass=0) if after.result is None else after


class PlaysOnUntilRestored(_Base):
    """LQ-END-1: reads "fewer is 修復未完了 (restoration not finished)" as the game not being finished: after
    round 3 rounds go on until the third lens is lit."""

    # Its reproducer cannot be shorter: Lantern Quay has no set-up (ruling LQ-R3) and always plays three
    # rounds of a roll and three placements (LQ-R1); the reading shows only once round 3 ends.
    shortest_reproducer = 12

    def _end_round(self, state: State) -> State:
        if state.round >= self.tables.rounds and state.lenses < self.tables.lenses:
            return evolve(state, dice=(), placed=(), round=state.round + 1)
        return super()._end_round(state)


class RestartKeepsTheTable(_RestartAware):
    """LQ-RESTART-1: restores exactly what §2's restart sentence lists (round 1, brass 1, modules 0, lenses dark)
    and leaves the dice as they lie: rolled dice, placed or not, stay on the table."""

    def restarted(self, last: State, fresh: State) -> State:
        return evolve(fresh, dice=last.dice, placed=last.placed)


# --- what a build answers -----------------------------------------------------------------------------------

class RoundsInTheView(_Base):
    """LQ-VIEW-1: reads §2's "round 1 of 3" as two fields: the view also carries `rounds: 3`."""

    def view(self, state: State, observer: str | None = None) -> dict[str, JSON]:
        return {**super().view(state, observer), "rounds": self.tables.rounds}


class LensesAsAFraction(_Base):
    """LQ-VIEW-1, the lenses: writes the lenses as the seed does, "1/3", not as a count."""

    def view(self, state: State, observer: str | None = None) -> dict[str, JSON]:
        view = super().view(state, observer)
        return {**view, "lenses": f"{state.lenses}/{self.tables.lenses}"}


class RollsNotListed(_Base):
    """LQ-LEGAL-1: lists the keeper's choices only: a roll is chance, not a choice, so phase roll lists nothing."""

    def legal_actions(self, state: State, observer: str | None = None) -> list[Any]:
        return [] if state.phase == "roll" else super().legal_actions(state, observer)


class NumbersInStrings(_Base):
    """LQ-FORM-1: reads a face as a number however it is written: `"5"` is the face 5, in a placement or a roll."""

    def parse_action(self, data: JSON) -> Any:
        def number(value: Any) -> Any:
            return int(value) if type(value) is str and value.isdigit() else value

        if type(data) is dict and data.get("type") == "place" and "face" in data:
            data = {**data, "face": number(data["face"])}
        if type(data) is dict and data.get("type") == "roll" and type(data.get("dice")) is list:
            data = {**data, "dice": [number(d) for d in data["dice"]]}
        return super().parse_action(data)


class DieBeforeSlot(_Base):
    """LQ-FORM-2: checks the die before the slot: a placement whose face no unplaced die shows is `no-such-die`
    even on a slot that is taken."""

    def apply(self, state: State, action: Any) -> State:
        if (isinstance(action, Place) and state.phase == "place" and action.slot in self.tables.slots
                and action.face not in state.dice):
            raise IllegalAction("no-such-die", f"no unplaced die shows {action.face}")
        return super().apply(state, action)


class FacesBeforeCount(_Base):
    """LQ-FORM-2, a roll: checks each face before the number of dice: a roll with a face outside 1–6 is
    `bad-face` whatever its count."""

    def apply(self, state: State, action: Any) -> State:
        if (isinstance(action, Roll) and state.phase == "roll"
                and any(not 1 <= d <= self.tables.faces for d in action.dice)):
            raise IllegalAction("bad-face", f"a d6 shows 1 to 6, got {list(action.dice)}")
        return super().apply(state, action)


# --- the worked allocations ---------------------------------------------------------------------------------

class ForgedModulesReadyNextRound(_Base):
    """LQ-ROUTE-1: reads the saving allocation of §4 (modules forged "for the next round") as the rule: a module
    forged this round can be installed from the next round on, so 2→Salvage, 4→Forge, 6→Install ends with the
    module unused (brass 0, modules 1, lenses 0)."""

    def _resolve(self, state: State, slot: str, face: int) -> State:
        fresh = getattr(state, "fresh", 0)
        if slot == "install" and state.modules - fresh < self.tables.install_modules:
            return state
        after = super()._resolve(state, slot, face)
        return evolve(after, fresh=fresh + max(0, after.modules - state.modules)) if slot == "forge" else after

    def _end_round(self, state: State) -> State:
        return super()._end_round(evolve(state, fresh=0))


class PricedPerModule(_Base):
    """LQ-ROUTE-2: reads the Forge as a price per module, 2 brass each (the 3–4 row), 5–6 making two: the route's
    Forge 6 on 3 brass cannot pay 4 and fails whole (brass 3, modules 0)."""

    def __init__(self) -> None:
        data = load_data("lantern-quay")
        forge = {f: (row if row is None else {**row, "brass": 2 * row["modules"]}) for f, row in data["forge"].items()}
        super().__init__(_changed(data, forge=forge))


class DraftLocksThenPlacementOrder(PlacementOrderAfterLock):
    """LQ-ROUTE-3: reads §5's table as v0 and v1 differing only in the order of resolution: under v0 the three
    placements are locked too, then resolved in the order placed, so after Forge 4 and Salvage 2 the stock is
    still 1 brass (not 2)."""

    RULESETS = ("v0",)


# --- the rulings --------------------------------------------------------------------------------------------

class EndsWhenRestorationIsOutOfReach(_Base):
    """LQ-R1 the other way: the game ends (incomplete) as soon as three lenses can no longer be lit."""

    def _end_round(self, state: State) -> State:
        after = super()._end_round(state)
        rounds_left = self.tables.rounds - state.round
        if after.result is None and state.lenses + rounds_left < self.tables.lenses:
            return evolve(after, round=state.round, result="incomplete")
        return after


class TakesTheLastDieOfAFace(_Base):
    """LQ-R2 the other way: a placement takes the last unplaced die showing the face."""

    def apply(self, state: State, action: Any) -> State:
        after = super().apply(state, action)
        if isinstance(action, Place) and after.dice and after.round == state.round:
            dice = list(state.dice)
            del dice[len(dice) - 1 - dice[::-1].index(action.face)]
            return evolve(after, dice=tuple(dice))
        return after


class RollsOneDieAtATime(_Base):
    """LQ-R3 the other way: the dice may be rolled one action at a time; a roll of fewer dice is taken."""

    def apply(self, state: State, action: Any) -> State:
        if isinstance(action, Roll) and state.phase == "roll" and 0 < len(action.dice) < self.tables.dice:
            return evolve(state, dice=action.dice)
        return super().apply(state, action)


class NextRoundStartsAtItsRoll(_Base):
    """LQ-R4 the other way: the view's round moves on at the next roll, not when the slots resolve."""

    def _end_round(self, state: State) -> State:
        after = super()._end_round(state)
        return after if after.result is not None else evolve(after, round=state.round, ended=True)

    def apply(self, state: State, action: Any) -> State:
        if isinstance(action, Roll) and getattr(state, "ended", False) and state.phase == "roll":
            state = evolve(state, round=state.round + 1, ended=False)
        return super().apply(state, action)


class DraftResolvesOnTheRoundStartStock(_Base):
    """LQ-R5 the other way: under v0 each die resolves when placed, but on the stock the round began with."""

    def apply(self, state: State, action: Any) -> State:
        if isinstance(action, Roll):
            after = super().apply(state, action)
            return evolve(after, begun=(state.brass, state.modules, state.lenses))
        if self.timing[state.ruleset] != "on-placement" or state.phase != "place" or state.begun is None:
            return super().apply(state, action)
        brass, modules, lenses = state.begun
        on_start = evolve(state, brass=brass, modules=modules, lenses=lenses)
        after = super().apply(on_start, action)  # placed, resolved on the round's first stock
        moved = self._resolve(on_start, action.slot, action.face)
        delta = (moved.brass - brass, moved.modules - modules, moved.lenses - lenses)
        return evolve(after, brass=state.brass + delta[0], modules=state.modules + delta[1],
                      lenses=state.lenses + delta[2])


# --- wrong builds the kit's own tests serve by name (tests/builds/wrong.py), written before the catalogue: each
# breaks one rule plainly ----------------------------------------------------------------------------------------


class DraftTimingAsV1(LanternQuay):
    """Breaks LQ-TIME-1: serves the v0 draft timing (resolve on placement) under the name v1."""

    def __init__(self) -> None:
        super().__init__(load_data("lantern-quay"))
        self.timing["v1"] = "on-placement"


class ForgeSpendsOnFailure(LanternQuay):
    """Breaks LQ-FORGE-3: an unaffordable Forge still takes the brass there is, and makes nothing."""

    def __init__(self) -> None:
        super().__init__(load_data("lantern-quay"))

    def _resolve(self, state: State, slot: str, face: int) -> State:
        deal = self.tables.forge[face] if slot == "forge" else None
        if deal is not None and state.brass < deal[0]:
            return replace(state, brass=0)
        return super()._resolve(state, slot, face)


class InstallLightsTwo(LanternQuay):
    """Breaks LQ-INST-2: Install on 5-6 with two or more modules spends two and lights two lenses."""

    def __init__(self) -> None:
        super().__init__(load_data("lantern-quay"))

    def _resolve(self, state: State, slot: str, face: int) -> State:
        if slot == "install" and face >= 5 and state.modules >= 2:
            return replace(state, modules=state.modules - 2, lenses=min(3, state.lenses + 2))
        return super()._resolve(state, slot, face)


MISREADINGS: dict[str, Any] = {
    "LQ-START-1": EmptyStartTray,
    "LQ-START-2": SetUpTaken,
    "LQ-START-2#seeded-roll": SeedRollsTheFirstDice,
    "LQ-ROLL-1": ThreeDifferentFaces,
    "LQ-ROLL-1#sorted": DiceSorted,
    "LQ-ROLL-2": RerollBeforePlacing,
    "LQ-PLACE-1": SwapUntilLocked,
    "LQ-TIME-1": PlacementOrderAfterLock,
    "LQ-TIME-1#round-stock": EachSlotOnTheRoundStock,
    "LQ-TIME-2": DraftAsRevised,
    "LQ-SALV-1": HalfRoundedDown,
    "LQ-FORGE-1": LowForgeStillGivesBrass,
    "LQ-FORGE-2": ForgeAtTheLowerPrice,
    "LQ-FORGE-3": FallsBackToTheCheaperDeal,
    "LQ-INST-1": FailedInstallUsesAModule,
    "LQ-INST-2": EachModuleLightsALens,
    "LQ-CARRY-1": BrassLeftOnTheQuay,
    "LQ-END-1": PlaysOnUntilRestored,
    "LQ-RESTART-1": RestartKeepsTheTable,
    "LQ-VIEW-1": RoundsInTheView,
    "LQ-VIEW-1#lenses-as-a-fraction": LensesAsAFraction,
    "LQ-LEGAL-1": RollsNotListed,
    "LQ-FORM-1": NumbersInStrings,
    "LQ-FORM-2": DieBeforeSlot,
    "LQ-FORM-2#faces-before-count": FacesBeforeCount,
    "LQ-ROUTE-1": ForgedModulesReadyNextRound,
    "LQ-ROUTE-2": PricedPerModule,
    "LQ-ROUTE-3": DraftLocksThenPlacementOrder,
    "LQ-R1": EndsWhenRestorationIsOutOfReach,
    "LQ-R2": TakesTheLastDieOfAFace,
    "LQ-R3": RollsOneDieAtATime,
    "LQ-R4": NextRoundStartsAtItsRoll,
    "LQ-R5": DraftResolvesOnTheRoundStartStock,
    "LQ-TIME-1#draft-timing-as-v1": DraftTimingAsV1,
    "LQ-FORGE-3#spends-on-failure": ForgeSpendsOnFailure,
    "LQ-INST-2#lights-two": InstallLightsTwo,
}
