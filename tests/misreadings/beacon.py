"""Beacon Lines read the other way at each ruling (specs/beacon-lines.md, Rulings)."""

from __future__ import annotations

from typing import Any

from refimpl.games import IllegalAction, load_data
from refimpl.games.base import evolve
from refimpl.games.beacon_lines import BeaconLines, Claim, State


class _Base(BeaconLines):
    def __init__(self) -> None:
        super().__init__(load_data("beacon-lines"))


class OwnRegionsAlwaysTargets(_Base):
    """BL-R1 the other way: a region the faction controls is a target whatever its neighbours."""

    def targets(self, state: State, faction: str) -> list[str]:
        found = super().targets(state, faction)
        if state.result is not None:
            return found
        own = [r for r, o in self.control(state).items() if o == faction and r not in self.boards[state.ruleset].homes]
        board = self.boards[state.ruleset]
        return [r for r in board.contested if r in set(found) | set(own)]


class RoundCountsOnAfterTheEnd(_Base):
    """BL-R2 the other way: ``round`` counts the rounds scored, so it moves on when the game ends too."""

    def _finish_round(self, state: State) -> State:
        after = super()._finish_round(state)
        return evolve(after, round=after.round + 1) if after.result is not None else after


class PlaysOnAfterTheEnd(_Base):
    """BL-R3 the other way: a claim after the end is played (markers added), the result stands."""

    def apply(self, state: State, action: Claim) -> State:
        if state.result is None:
            return super().apply(state, action)
        played = super().apply(evolve(state, result=None), action)
        return evolve(played, result=state.result, round=state.round)


class FourWinsWithoutLead(_Base):
    """BL-R4 the other way: 4 points win even when level (the first faction takes it)."""

    def _finish_round(self, state: State) -> State:
        scores = self.scores(state)
        best = max(scores, key=scores.__getitem__)
        if scores[best] >= self.boards[state.ruleset].min_score:
            return evolve(state, result=best)
        return super()._finish_round(state)


class BlueFollowsTheScript(_Base):
    """BL-R5 the other way: the "opponent script" is built in; Blue plays South Pass, Depot, Beacon
    whenever that is legal, whatever Blue claimed."""

    SCRIPT = ("south-pass", "depot", "beacon")

    def apply(self, state: State, action: Claim) -> State:
        scripted = self.SCRIPT[state.round - 1] if state.round <= len(self.SCRIPT) else None
        if state.result is None and scripted in self.targets(state, "blue"):
            action = Claim(tuple((f, (scripted,) if f == "blue" else rs) for f, rs in action.targets))
        return super().apply(state, action)


class OwnCodes(_Base):
    """BL-R6 the other way: a build with codes of its own (``not-adjacent`` for an illegal target)."""

    def apply(self, state: State, action: Claim) -> State:
        try:
            return super().apply(state, action)
        except IllegalAction as exc:
            if exc.code == "illegal-target":
                raise IllegalAction("not-adjacent", exc.message) from None
            raise


class V0StopsAtALevelRoundTwo(_Base):
    """BL-R7 the other way: under v0, 3–3 after round 2 is where the players stop: a draw."""

    def _finish_round(self, state: State) -> State:
        after = super()._finish_round(state)
        scores = self.scores(state)
        if state.ruleset == "v0" and after.result is None and state.round == 2 and len(set(scores.values())) == 1:
            return evolve(state, result="draw")
        return after


MISREADINGS: dict[str, Any] = {
    "BL-R1": OwnRegionsAlwaysTargets,
    "BL-R2": RoundCountsOnAfterTheEnd,
    "BL-R3": PlaysOnAfterTheEnd,
    "BL-R4": FourWinsWithoutLead,
    "BL-R5": BlueFollowsTheScript,
    "BL-R6": OwnCodes,
    "BL-R7": V0StopsAtALevelRoundTwo,
}
