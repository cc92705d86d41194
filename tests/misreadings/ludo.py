"""Ludo read the other way at each ruling (specs/ludo.md, Rulings)."""

from __future__ import annotations

from typing import Any, Mapping

from refimpl.games import JSON, MalformedAction, load_data
from refimpl.games.base import evolve
from refimpl.games.ludo import cpu
from refimpl.games.ludo.board import YARD
from refimpl.games.ludo.engine import Cpu, Ludo, State, Turn


def _data(**changes: Any) -> dict[str, Any]:
    return {**load_data("ludo"), **changes}


class _Base(Ludo):
    def __init__(self) -> None:
        super().__init__(_data())


class HomeOnTheSixthColumnSquare(Ludo):
    """LD-R1 the other way: the sixth square of the home column is home (56 steps)."""

    def __init__(self) -> None:
        super().__init__(_data(goal_step=56))


class TurnsGoTheOtherWayRound(_Base):
    """LD-R2 the other way: turns go human, cpu3, cpu2, cpu1."""

    def _end_throw(self, t: Turn, again: bool) -> None:
        before = t.turn
        super()._end_throw(t, again)
        if t.phase == "roll" and t.turn != before:
            t.turn = (before - 1) % len(self.board.seats)


class VoidSixesDoNotCount(_Base):
    """LD-R3 the other way: a void third six is not a throw."""

    def throw(self, t: Turn, face: int | None) -> None:
        sixes = t.sixes
        super().throw(t, face)
        if t.last_face == 6 and sixes + 1 == self.board.sixes_void:
            t.throws -= 1


class APassingSixEndsTheStreak(_Base):
    """LD-R4 the other way: a six that can move nothing starts the streak again."""

    def throw(self, t: Turn, face: int | None) -> None:
        super().throw(t, face)
        if t.last_face == 6 and t.phase == "roll" and t.sixes:
            t.sixes = 0


class NoSeedIsSeedOne(_Base):
    """LD-R5 the other way: a game started without a seed uses seed 1."""

    def new_state(self, ruleset: str | None = None, seed: int | None = None,
                  setup: Mapping[str, JSON] | None = None) -> State:
        return super().new_state(ruleset, 1 if seed is None else seed, setup)


class NoCpus(_Base):
    """LD-R6 the other way: the CPUs are the app's, not the protocol's: a cpu action is unknown."""

    def parse_action(self, data: JSON) -> Any:
        action = super().parse_action(data)
        if type(action) is Cpu:
            raise MalformedAction("unknown-action", "this build has no CPU action")
        return action


def _summed_assess(game: Ludo, pos: Any, piece: int, with_risk: bool) -> tuple[int, int]:
    value, risk = _ORIGINAL_ASSESS(game, pos, piece, with_risk)
    if not with_risk or risk == 0:
        return value, risk
    b, seat = game.board, pos.turn
    square = (b.starts[seat] + pos.pieces[seat][piece] + pos.roll) % b.track
    total = 0
    for other, theirs in enumerate(pos.pieces):
        there = (square - b.starts[other]) % b.track
        if other == seat or there > b.last_track_step:
            continue
        total += 36 * len({there - p for p in theirs if p != there and p >= 0 and 1 <= there - p <= 6})
    return value, min(total, 216)


_ORIGINAL_ASSESS = cpu.assess


class _PatchedAssess(_Base):
    """Runs the CPU levels with another ``cpu.assess`` (module-level: the levels call it by name)."""

    ASSESS: Any = None

    def cpu_move(self, t: Turn, level: str, pick: int | None = None) -> None:
        cpu.assess = self.ASSESS
        try:
            super().cpu_move(t, level, pick)
        finally:
            cpu.assess = _ORIGINAL_ASSESS


class RisksAdded(_PatchedAssess):
    """LD-R7 the other way: the seats' chances are added, not combined."""

    ASSESS = staticmethod(_summed_assess)


def _flat_capture_assess(game: Ludo, pos: Any, piece: int, with_risk: bool) -> tuple[int, int]:
    value, risk = _ORIGINAL_ASSESS(game, pos, piece, with_risk)
    return (min(value, cpu.CAPTURE + 1), risk)


class CapturesAllWorthTheSame(_PatchedAssess):
    """LD-R8 the other way: a capture is worth the same however many pieces it sends home."""

    ASSESS = staticmethod(_flat_capture_assess)


def _home_turn_threatens(game: Ludo, pos: Any, piece: int, with_risk: bool) -> tuple[int, int]:
    value, risk = _ORIGINAL_ASSESS(game, pos, piece, with_risk)
    b, seat = game.board, pos.turn
    step = pos.pieces[seat][piece]
    if not with_risk or step < 0 or step + pos.roll > b.last_track_step:
        return value, risk
    square = (b.starts[seat] + step + pos.roll) % b.track
    if square in b.safe:
        return value, risk
    threats = 1
    for other, theirs in enumerate(pos.pieces):
        if other == seat:
            continue
        faces = set()
        for p in theirs:
            if p < 0 or p > b.last_track_step:
                continue
            for face in range(1, 7):
                if (b.starts[other] + p + face) % b.track == square:
                    faces.add(face)
        threats *= 6 - len(faces)
    return value, 216 - threats


class HomeTurnersThreaten(_PatchedAssess):
    """LD-R9 the other way: an enemy piece that would turn into its home column still counts as a threat."""

    ASSESS = staticmethod(_home_turn_threatens)


class SixAtTheCapThrowsAgain(_Base):
    """LD-R10 the other way: a 6 as the 10,000th throw still gives its extra throw before the game ends."""

    def _end_throw(self, t: Turn, again: bool) -> None:
        if again and t.throws == self.board.cap:
            t.roll, t.options, t.phase = 0, None, "roll"
            return
        super()._end_throw(t, again)


class SetUpWithASeatHome(_Base):
    """LD-R11 the other way: a set-up with a seat already home is taken (and the game is over)."""

    def new_state(self, ruleset: str | None = None, seed: int | None = None,
                  setup: Mapping[str, JSON] | None = None) -> State:
        state = self._position(ruleset, seed, setup)
        winner = self._winner(state.pieces)
        if winner is not None:
            return evolve(state, phase="over", result=self.board.seats[winner])
        return state


class CanAbandon(_Base):
    """LD-R12 the other way: leaving is an action that ends the game with no result."""

    def parse_action(self, data: JSON) -> Any:
        if isinstance(data, dict) and data.get("type") == "abandon":
            return "abandon"
        return super().parse_action(data)

    def apply(self, state: State, action: Any) -> State:
        if action == "abandon":
            return evolve(state, phase="over", result="capped")
        return super().apply(state, action)


class OneLevelForAllSeats(_Base):
    """LD-R13 the other way: every CPU seat plays the game's one level (normal), whatever level is named."""

    def cpu_move(self, t: Turn, level: str, pick: int | None = None) -> None:
        super().cpu_move(t, "normal" if level in ("easy", "normal", "hard") else level, pick)


class PickIgnored(_Base):
    """LD-R14 the other way: a CPU's `pick` is ignored and the decision stream draws as if none were given."""

    def cpu_move(self, t: Turn, level: str, pick: int | None = None) -> None:
        super().cpu_move(t, level, None)


_ORIGINAL_CANDIDATES = cpu.candidates


def _one_entry(game: Ludo, pos: Any, level: str) -> list[int]:
    among = _ORIGINAL_CANDIDATES(game, pos, level)
    yard = [p for p in among if pos.pieces[pos.turn][p] == YARD]
    return [p for p in among if p not in yard[1:]]


class EnteringIsOneOption(_Base):
    """LD-R15 the other way: entering is one option however many pieces wait in the yard: the CPUs draw among
    the pieces out and one yard piece (the first), so easy with three in the yard and one out enters one time
    in two. The legal list and a player's move are unchanged."""

    def _patched(self, call: Any) -> Any:
        cpu.candidates = _one_entry
        try:
            return call()
        finally:
            cpu.candidates = _ORIGINAL_CANDIDATES

    def cpu_move(self, t: Turn, level: str, pick: int | None = None) -> None:
        self._patched(lambda: Ludo.cpu_move(self, t, level, pick))

    def explicit(self, state: State, action: Any) -> Any:
        return self._patched(lambda: Ludo.explicit(self, state, action))


MISREADINGS: dict[str, Any] = {
    "LD-R1": HomeOnTheSixthColumnSquare,
    "LD-R2": TurnsGoTheOtherWayRound,
    "LD-R3": VoidSixesDoNotCount,
    "LD-R4": APassingSixEndsTheStreak,
    "LD-R5": NoSeedIsSeedOne,
    "LD-R6": NoCpus,
    "LD-R7": RisksAdded,
    "LD-R8": CapturesAllWorthTheSame,
    "LD-R9": HomeTurnersThreaten,
    "LD-R10": SixAtTheCapThrowsAgain,
    "LD-R11": SetUpWithASeatHome,
    "LD-R12": CanAbandon,
    "LD-R13": OneLevelForAllSeats,
    "LD-R14": PickIgnored,
    "LD-R15": EnteringIsOneOption,
}
