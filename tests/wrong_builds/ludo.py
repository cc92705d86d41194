"""Wrong Ludo builds: each breaks one documented rule of specs/ludo.md."""

from __future__ import annotations

from refimpl.games import load_data
from refimpl.games.ludo.engine import Ludo, Turn


class CaptureBonus(Ludo):
    """Breaks LD-CAP-2: a capture gives another throw, as in mainstream Ludo."""

    def __init__(self) -> None:
        super().__init__(load_data("ludo"))

    def _play(self, t: Turn, piece: int) -> None:
        before = sum(p == -1 for seat in t.pieces for p in seat)
        self.land(t.pieces, t.turn, piece, t.roll)
        captured = sum(p == -1 for seat in t.pieces for p in seat) > before
        if t.pieces[t.turn].count(self.board.goal) == self.board.pieces:
            t.phase, t.roll, t.sixes, t.result, t.options = "over", 0, 0, self.board.seats[t.turn], None
            return
        self._end_throw(t, again=t.roll == 6 or captured)


class HardIgnoresRisk(Ludo):
    """Breaks LD-CPU-3: the hard level plays exactly like normal, never weighing recapture."""

    def __init__(self) -> None:
        super().__init__(load_data("ludo"))

    def cpu_move(self, t: Turn, level: str, pick: int | None = None) -> None:
        super().cpu_move(t, "normal" if level == "hard" else level, pick)


class GivenFacesSkipTheStream(Ludo):
    """Breaks LD-DICE-1: a face the caller gives does not use up a face of the seeded stream, so the next
    seeded throw is the stream's next face rather than the k-th."""

    def __init__(self) -> None:
        super().__init__(load_data("ludo"))

    def throw(self, t: Turn, face: int | None) -> None:
        before = t.dice_state
        super().throw(t, face)
        if face is not None:
            t.dice_state = before
