"""Lantern Quay read the other way at each ruling (specs/lantern-quay.md, Rulings)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from refimpl.games import JSON, load_data
from refimpl.games.base import evolve
from refimpl.games.lantern_quay import LanternQuay, Place, Roll, State


@dataclass(frozen=True)
class _State(State):
    """The reference's state with what a misreading needs to remember."""

    ended: bool = False  # a round ended and the next has not been rolled yet
    begun: tuple[int, int, int] | None = None  # the stock the round began with


class _Base(LanternQuay):
    def __init__(self) -> None:
        super().__init__(load_data("lantern-quay"))

    def new_state(self, ruleset: str | None = None, seed: int | None = None,
                  setup: Mapping[str, JSON] | None = None) -> State:
        return _State(**super().new_state(ruleset, seed, setup).__dict__)


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


MISREADINGS: dict[str, Any] = {
    "LQ-R1": EndsWhenRestorationIsOutOfReach,
    "LQ-R2": TakesTheLastDieOfAFace,
    "LQ-R3": RollsOneDieAtATime,
    "LQ-R4": NextRoundStartsAtItsRoll,
    "LQ-R5": DraftResolvesOnTheRoundStartStock,
}
