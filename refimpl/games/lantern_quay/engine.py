"""Lantern Quay: three d6, three action slots, three rounds to light three lenses (spec: specs/lantern-quay.md).

A round is a chance action (the roll of three dice) followed by three placements, one die to each
slot. Under ``v1`` the placements are locked first and then resolve in the printed order Salvage,
Forge, Install; under ``v0`` (the draft) each die resolves the moment it is placed.

The seed's worked allocations (LQ-ROUTE-1, LQ-ROUTE-2, LQ-ROUTE-3) are not coded anywhere: they follow from
the rules below, and the traces replay them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import product
from typing import Any

from ..base import JSON, Game, GameInfo, IllegalAction, MalformedAction, evolve, expect_mapping

INFO = GameInfo(
    name="lantern-quay",
    title="Lantern Quay",
    source="001_06b993e4f8157fb3.txt",
    rule_prefix="LQ",
    players=("keeper",),
    rulesets=("v0", "v1"),
    default_ruleset="v1",
    results=("restored", "incomplete"),
    typical_length=30,
    field_rules={  # the rules that decide each view field (and rejections, refusals, legal lists)
        "game": ("LQ-VIEW-1",),
        "ruleset": ("LQ-VIEW-1", "LQ-TIME-1", "LQ-TIME-2"),
        "round": ("LQ-R4", "LQ-END-1", "LQ-START-1", "LQ-RESTART-1"),
        "phase": ("LQ-END-1", "LQ-R4", "LQ-ROLL-1", "LQ-ROLL-2", "LQ-RESTART-1", "LQ-START-2"),
        "brass": ("LQ-SALV-1", "LQ-FORGE-2", "LQ-FORGE-3", "LQ-TIME-1", "LQ-FORGE-1", "LQ-TIME-2", "LQ-CARRY-1",
                  "LQ-START-1", "LQ-R5", "LQ-ROUTE-1", "LQ-ROUTE-2", "LQ-ROUTE-3"),
        "modules": ("LQ-FORGE-2", "LQ-FORGE-3", "LQ-INST-2", "LQ-TIME-1", "LQ-INST-1", "LQ-FORGE-1", "LQ-TIME-2",
                    "LQ-CARRY-1", "LQ-START-1", "LQ-R5", "LQ-ROUTE-1", "LQ-ROUTE-2", "LQ-ROUTE-3"),
        "lenses": ("LQ-INST-2", "LQ-INST-1", "LQ-TIME-1", "LQ-START-1", "LQ-TIME-2", "LQ-R5", "LQ-VIEW-1",
                   "LQ-ROUTE-1", "LQ-ROUTE-2", "LQ-ROUTE-3"),
        "dice": ("LQ-R2", "LQ-PLACE-1", "LQ-ROLL-1", "LQ-R4", "LQ-CARRY-1", "LQ-RESTART-1", "LQ-START-2"),
        "placed": ("LQ-PLACE-1", "LQ-R4", "LQ-END-1", "LQ-R2", "LQ-RESTART-1"),
        "result": ("LQ-END-1", "LQ-R1", "LQ-INST-2"),
        "rejected": ("LQ-FORM-1", "LQ-FORM-2", "LQ-PLACE-1", "LQ-ROLL-2", "LQ-ROLL-1", "LQ-R3"),
        "error": ("LQ-START-2", "LQ-R3"),
        "legal": ("LQ-LEGAL-1", "LQ-PLACE-1", "LQ-R2", "LQ-ROLL-1"),
    },
)


@dataclass(frozen=True)
class Roll:
    """Chance action: the faces of the three dice, in the order they were rolled. The three dice are one
    action whose faces the caller gives; the kit never rolls (LQ-ROLL-1, ruling LQ-R3)."""

    dice: tuple[int, ...]

    def to_json(self) -> JSON:
        return {"type": "roll", "dice": list(self.dice)}


@dataclass(frozen=True)
class Place:
    """Put one unplaced die showing ``face`` on ``slot``. Dice with equal faces are interchangeable (ruling
    LQ-R2)."""

    slot: str
    face: int

    def to_json(self) -> JSON:
        return {"type": "place", "slot": self.slot, "face": self.face}


Action = Roll | Place


@dataclass(frozen=True)
class Tables:
    """The numbers of data/lantern-quay.yaml, as the engine uses them."""

    start: Mapping[str, int]
    rounds: int
    lenses: int
    dice: int
    faces: int
    slots: tuple[str, ...]
    salvage: Mapping[int, int]
    forge: Mapping[int, tuple[int, int] | None]  # face -> (brass paid, modules made)
    install_min_face: int
    install_modules: int
    install_lenses: int

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Tables:
        forge = {int(face): (None if row is None else (int(row["brass"]), int(row["modules"])))
                 for face, row in data["forge"].items()}
        return cls(start=dict(data["start"]), rounds=int(data["rounds"]), lenses=int(data["lenses"]),
                   dice=int(data["dice"]), faces=int(data["faces"]), slots=tuple(data["slots"]),
                   salvage={int(f): int(b) for f, b in data["salvage"].items()}, forge=forge,
                   install_min_face=int(data["install"]["min_face"]),
                   install_modules=int(data["install"]["modules"]),
                   install_lenses=int(data["install"]["lenses"]))


@dataclass(frozen=True)
class State:
    ruleset: str
    round: int  # the round being played; once the game is over, the last round
    brass: int
    modules: int
    lenses: int
    dice: tuple[int, ...] = ()  # rolled this round and not yet placed, in roll order
    placed: tuple[tuple[str, int], ...] = ()  # slot -> face, in slot order
    result: str | None = None

    @property
    def phase(self) -> str:
        if self.result is not None:
            return "over"
        return "place" if self.dice else "roll"


class LanternQuay(Game[State, Action]):
    info = INFO

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = data
        self.tables = Tables.from_data(data)
        self.timing = {rs: data["rulesets"][rs]["timing"] for rs in INFO.rulesets}
        # Every roll of the dice, the same in every roll phase (LQ-LEGAL-1): made once, not 216 actions a round.
        self.rolls = tuple(Roll(d) for d in product(range(1, self.tables.faces + 1), repeat=self.tables.dice))

    # --- creating ----------------------------------------------------------------------------
    def new_state(self, ruleset: str | None = None, seed: int | None = None,
                  setup: Mapping[str, JSON] | None = None) -> State:
        """The start state: round 1, brass 1, no modules, no lens, no dice (LQ-START-1); restart comes back
        here (LQ-RESTART-1). No set-up, and the seed is ignored: no dice are drawn (LQ-START-2)."""
        name = self._ruleset(ruleset)
        self._no_setup(setup)
        s = self.tables.start
        return State(ruleset=name, round=s["round"], brass=s["brass"], modules=s["modules"],
                     lenses=s["lenses"])

    # --- actions -----------------------------------------------------------------------------
    def parse_action(self, data: JSON) -> Action:
        """The roll or placement ``data`` writes, checked for form only. Implements LQ-FORM-1. Raises
        MalformedAction."""
        if type(data) is not dict or "type" not in data:
            raise MalformedAction("malformed-action", f"an action must be a mapping with a type, got {data!r}")
        if data["type"] == "roll":
            action = expect_mapping(data, ("type", "dice"), "a roll")
            dice = action["dice"]
            if not isinstance(dice, list) or not all(type(d) is int for d in dice):
                raise MalformedAction("malformed-action", f"dice must be a list of integers, got {dice!r}")
            return Roll(tuple(dice))
        if data["type"] == "place":
            action = expect_mapping(data, ("type", "slot", "face"), "a placement")
            if not isinstance(action["slot"], str) or type(action["face"]) is not int:
                raise MalformedAction("malformed-action", f"slot must be a name and face an integer: {data!r}")
            return Place(action["slot"], action["face"])
        raise MalformedAction("unknown-action",
                              f"Lantern Quay actions are 'roll' and 'place'; got {data['type']!r}")

    def legal_actions(self, state: State, observer: str | None = None) -> list[Action]:
        """Every roll in phase roll, every empty slot with every distinct unplaced face in phase place, nothing
        once over. Implements LQ-LEGAL-1."""
        t = self.tables
        if state.phase == "roll":
            return list(self.rolls)
        if state.phase == "place":
            taken = dict(state.placed)
            return [Place(slot, face) for slot in t.slots if slot not in taken
                    for face in sorted(set(state.dice))]
        return []

    def apply(self, state: State, action: Action) -> State:
        """A roll or a placement, checked in the order of the spec's "Actions" (LQ-FORM-2): game over (LQ-END-1),
        then a roll only in phase roll and of three d6 (LQ-ROLL-1, LQ-ROLL-2), a placement only in phase place,
        on a free slot, of an unplaced die's face (LQ-ROLL-2, LQ-PLACE-1). The timing is the ruleset's
        (LQ-TIME-1, LQ-TIME-2). Raises IllegalAction."""
        t = self.tables
        if state.phase == "over":
            # three rounds and no bonus turn: nothing is left to play (ruling LQ-R1)
            raise IllegalAction("game-over", f"the game ended after round {state.round}")
        if isinstance(action, Roll):
            if state.phase != "roll":
                raise IllegalAction("wrong-phase", f"round {state.round}: place the rolled dice "
                                    f"{list(state.dice)} before rolling again")
            if len(action.dice) != t.dice:
                raise IllegalAction("wrong-dice-count", f"a roll is exactly {t.dice} dice, got {len(action.dice)}")
            bad = [d for d in action.dice if not 1 <= d <= t.faces]
            if bad:
                raise IllegalAction("bad-face", f"a d{t.faces} shows 1 to {t.faces}, got {bad}")
            return evolve(state, dice=action.dice)
        if state.phase != "place":
            raise IllegalAction("wrong-phase", f"round {state.round}: roll the dice before placing one")
        if action.slot not in t.slots:
            raise IllegalAction("unknown-slot", f"no slot {action.slot!r} (slots: {', '.join(t.slots)})")
        if action.slot in dict(state.placed):
            raise IllegalAction("slot-taken", f"{action.slot} already holds a die this round")
        if action.face not in state.dice:
            raise IllegalAction("no-such-die", f"no unplaced die shows {action.face} "
                                f"(unplaced: {list(state.dice)})")
        dice = list(state.dice)
        dice.remove(action.face)  # the first unplaced die showing the face (ruling LQ-R2)
        placed = sorted(state.placed + ((action.slot, action.face),), key=lambda p: t.slots.index(p[0]))
        after = evolve(state, dice=tuple(dice), placed=tuple(placed))
        if self.timing[state.ruleset] == "on-placement":  # v0: on the stock of this moment (LQ-TIME-2, ruling LQ-R5)
            after = self._resolve(after, action.slot, action.face)
        if len(after.placed) < len(t.slots):  # the round ends only once all three slots resolved (LQ-END-1, LQ-R5)
            return after
        if self.timing[state.ruleset] == "locked":
            # ignores: the name is reused for the faces by slot. Not renamed for the type checker: in the engines
            # every expression is a mutant the power meter samples, by its text.
            placed = dict(after.placed)  # type: ignore[assignment]
            for slot in t.slots:  # printed order, whatever order the dice were put down in (LQ-TIME-1)
                after = self._resolve(after, slot, placed[slot])  # type: ignore[call-overload]
        return self._end_round(after)

    def _resolve(self, state: State, slot: str, face: int) -> State:
        """One slot's effect for one die, on the current stock: the face table's Salvage (LQ-SALV-1), Forge
        (LQ-FORGE-1, LQ-FORGE-2, all or nothing: LQ-FORGE-3) and Install (LQ-INST-1, LQ-INST-2: one module for
        one lens, and one die on Install lights at most one lens a round)."""
        t = self.tables
        if slot == "salvage":
            return evolve(state, brass=state.brass + t.salvage[face])
        if slot == "forge":
            deal = t.forge[face]
            if deal is None or state.brass < deal[0]:
                return state  # all or nothing: an unaffordable Forge spends nothing and makes nothing
            return evolve(state, brass=state.brass - deal[0], modules=state.modules + deal[1])
        if face >= t.install_min_face and state.modules >= t.install_modules:
            return evolve(state, modules=state.modules - t.install_modules,
                           lenses=state.lenses + t.install_lenses)
        return state

    def _end_round(self, state: State) -> State:
        """Dice do not carry over; brass and modules do (LQ-CARRY-1). The next round begins at once (ruling
        LQ-R4). After the last round the game is decided: three lenses restore, fewer is incomplete (LQ-END-1,
        ruling LQ-R1)."""
        t = self.tables
        cleared = evolve(state, dice=(), placed=())
        if state.round < t.rounds:
            return evolve(cleared, round=state.round + 1)
        return evolve(cleared, result="restored" if state.lenses >= t.lenses else "incomplete")

    def outcome(self, state: State) -> str | None:
        return state.result

    # --- views -------------------------------------------------------------------------------
    def view(self, state: State, observer: str | None = None) -> dict[str, JSON]:
        """The state view of the spec's "State view". Implements LQ-VIEW-1."""
        placed = dict(state.placed)
        return {
            "game": INFO.name,
            "ruleset": state.ruleset,
            "round": state.round,
            "phase": state.phase,
            "brass": state.brass,
            "modules": state.modules,
            "lenses": state.lenses,
            "dice": list(state.dice),
            "placed": {slot: placed.get(slot) for slot in self.tables.slots},
            "result": state.result,
        }

