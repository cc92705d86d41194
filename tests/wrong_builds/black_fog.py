"""Wrong Black Fog builds: each breaks one documented rule of specs/black-fog.md."""

from __future__ import annotations

from dataclasses import replace

from refimpl.games import load_data
from refimpl.games.black_fog import BlackFog
from refimpl.games.black_fog.engine import Animal, State


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
