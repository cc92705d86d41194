"""Wrong Black Fog builds: each breaks one documented rule of specs/black-fog.md."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from refimpl.games import JSON, load_data
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
