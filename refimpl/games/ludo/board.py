"""Ludo's board: the geometry of data/ludo.yaml, precomputed, shared by the rules and the CPU levels."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

YARD = -1  # a piece's step while it waits in its yard


@dataclass(frozen=True)
class Board:
    """The geometry of data/ludo.yaml, precomputed."""

    seats: tuple[str, ...]
    track: int
    starts: tuple[int, ...]
    safe: frozenset[int]
    last_track_step: int
    goal: int
    pieces: int
    cap: int
    sixes_void: int
    dice_xor: int
    decisions_xor: int

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> "Board":
        n, spacing = len(data["seats"]), int(data["start_spacing"])
        starts = tuple(k * spacing for k in range(n))
        track = int(data["track"])
        safe = frozenset(starts) | frozenset((s + int(data["star_offset"])) % track for s in starts)
        return cls(seats=tuple(data["seats"]), track=track, starts=starts, safe=safe,
                   last_track_step=int(data["last_track_step"]), goal=int(data["goal_step"]),
                   pieces=int(data["pieces"]), cap=int(data["roll_cap"]), sixes_void=int(data["sixes_void"]),
                   dice_xor=int(data["streams"]["dice_xor"]), decisions_xor=int(data["streams"]["decisions_xor"]))

    def square(self, seat: int, step: int) -> int | None:
        """The loop square (0-51) of a piece ``step`` steps from its start, or None off the loop."""
        if 0 <= step <= self.last_track_step:
            return (self.starts[seat] + step) % self.track
        return None
