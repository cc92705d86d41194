"""What Ludo's rules (engine.py) and CPU levels (cpu.py) share: the geometry of data/ludo.yaml, precomputed,
and the position (State, and Turn, its working copy). The engine imports the CPU levels; both import this
module, and the CPU levels never import the engine."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

YARD = -1  # a piece's step while it waits in its yard


@dataclass(frozen=True, slots=True)
class Board:
    """The geometry of data/ludo.yaml, precomputed: four seats in turn order (LD-SEAT-1, ruling LD-R2), a
    52-square loop with the start squares 13 apart (LD-BOARD-1), the safe squares (LD-SAFE-1), and home 57 steps
    from the start, past a six-square home column (LD-BOARD-2, ruling LD-R1).

    The tables spare the rules and the CPU levels the modular arithmetic of every move (a simulation moves
    once a throw): ``squares[seat][step]`` is the loop square of a step 0 to ``goal``, None past
    ``last_track_step``. ``rivals[seat][square]`` holds, for every other seat in seat order, (that seat, the
    square in its steps, its loop steps on the square or up to one throw of 1 to 6 behind it: none where that
    seat's pieces never stand). ``behind[step]`` holds the loop steps from which one throw reaches ``step``.
    """

    seats: tuple[str, ...]
    track: int
    starts: tuple[int, ...]
    safe: frozenset[int]
    last_track_step: int
    goal: int
    pieces: int
    cap: int
    sixes_void: int
    enter_face: int  # the lowest face that enters a piece (6 by the seed; a variant may lower it)
    capture_again: bool  # a capture throws again (never by the seed; a variant)
    blockades: bool  # two pieces of a seat on a loop square bar every enemy (never by the seed; a variant)
    dice_xor: int
    decisions_xor: int
    squares: tuple[tuple[int | None, ...], ...]
    rivals: tuple[tuple[tuple[tuple[int, int, frozenset[int]], ...], ...], ...]
    behind: tuple[frozenset[int], ...]

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Board:
        n, spacing = len(data["seats"]), int(data["start_spacing"])
        starts = tuple(k * spacing for k in range(n))
        track = int(data["track"])
        safe = frozenset(starts) | frozenset((s + int(data["star_offset"])) % track for s in starts)
        last, goal = int(data["last_track_step"]), int(data["goal_step"])
        squares = tuple(tuple((start + step) % track if step <= last else None for step in range(goal + 1))
                        for start in starts)
        behind = tuple(frozenset(range(max(0, step - 6), step)) for step in range(last + 1))

        def rival(other: int, square: int) -> tuple[int, int, frozenset[int]]:
            there = (square - starts[other]) % track
            if there > last:  # past that seat's turn into its home column: none of its pieces stands there
                return other, there, frozenset()
            return other, there, behind[there] | {there}

        rivals = tuple(tuple(tuple(rival(other, square) for other in range(n) if other != seat)
                             for square in range(track)) for seat in range(n))
        return cls(seats=tuple(data["seats"]), track=track, starts=starts, safe=safe, last_track_step=last,
                   goal=goal, pieces=int(data["pieces"]), cap=int(data["roll_cap"]),
                   sixes_void=int(data["sixes_void"]), enter_face=int(data["enter_face"]),
                   capture_again=bool(data["capture_throws_again"]), blockades=bool(data["blockades"]),
                   dice_xor=int(data["streams"]["dice_xor"]),
                   decisions_xor=int(data["streams"]["decisions_xor"]), squares=squares, rivals=rivals,
                   behind=behind)

    def square(self, seat: int, step: int) -> int | None:
        """The loop square (0-51) of a piece ``step`` steps from its start, or None off the loop."""
        return self.squares[seat][step] if 0 <= step <= self.goal else None


@dataclass(frozen=True)
class State:
    ruleset: str
    seed: int
    turn: int  # index of the seat to play
    phase: str  # roll | move | over
    roll: int  # the face to move by (phase move), else 0
    sixes: int  # sixes in a row thrown by the seat to play this turn
    throws: int
    decisions: int  # outputs taken from the decision stream so far (SplitMix64 steps)
    pieces: tuple[tuple[int, ...], ...]  # per seat, per piece: steps from its start (-1 yard, 57 home)
    result: str | None
    last_face: int  # the face of the latest throw (0 before the first)
    dice_state: int  # the dice stream after ``throws`` faces
    choice_state: int  # the decision stream after ``decisions`` numbers


class Turn:
    """A mutable working copy of a State, for the rules to change in place."""

    __slots__ = ("seed", "turn", "phase", "roll", "sixes", "throws", "decisions", "pieces", "result", "last_face",
                 "dice_state", "choice_state", "options")

    def __init__(self, s: State) -> None:
        self.seed = s.seed  # a tie is split by the seed alone (LD-CPU-4)
        self.turn, self.phase, self.roll, self.sixes = s.turn, s.phase, s.roll, s.sixes
        self.throws, self.decisions, self.result, self.last_face = s.throws, s.decisions, s.result, s.last_face
        self.pieces = [list(p) for p in s.pieces]
        self.dice_state, self.choice_state = s.dice_state, s.choice_state
        self.options: list[int] | None = None  # movable pieces for the rolled face, once worked out

    def freeze(self, s: State) -> State:
        return State(s.ruleset, s.seed, self.turn, self.phase, self.roll, self.sixes, self.throws, self.decisions,
                     tuple(tuple(p) for p in self.pieces), self.result, self.last_face, self.dice_state,
                     self.choice_state)
