"""Ludo misread: each ruling read the other way (specs/ludo.md, Rulings), and each rule read the way a builder
plausibly might from the seed or the spec (specs/ludo.md, Rules)."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from refimpl.games import JSON, MalformedAction, load_data, streams
from refimpl.games.base import BadSetup, IllegalAction, evolve
from refimpl.games.ludo import cpu
from refimpl.games.ludo.board import YARD, Board
from refimpl.games.ludo.engine import LEVELS, Cpu, Ludo, Move, Roll, State, Turn


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



# --- the rules (LD-SEAT-1 ... LD-FORM-2): each read the way a builder plausibly might ------------------------

@dataclass(frozen=True)
class _Noted(State):
    """The reference's state with what a misreading remembers of the game's history (``note``)."""

    note: Any = None


class _Remembers(_Base):
    """A misreading that remembers something the reference does not (the set-up's seats, the piece each seat
    moved last, ...): ``memo`` is the note of the state being played, which the rules may change in place
    while an action is applied; the state after it carries the new note."""

    memo: Any = None

    def first_note(self, state: State, setup: Mapping[str, JSON] | None) -> Any:
        return None

    def noted(self, before: State, action: Any, after: State) -> Any:
        return self.memo

    def new_state(self, ruleset: str | None = None, seed: int | None = None,
                  setup: Mapping[str, JSON] | None = None) -> State:
        state = super().new_state(ruleset, seed, setup)
        note = self.first_note(state, setup)
        return _Noted(**state.__dict__, note=tuple(note) if isinstance(note, list) else note)

    def apply(self, state: State, action: Any) -> State:
        note = getattr(state, "note", None)
        self.memo = list(note) if isinstance(note, tuple) else note
        after = super().apply(state, action)
        note = self.noted(state, action, after)
        return _Noted(**{**after.__dict__, "note": tuple(note) if isinstance(note, list) else note})


def _board(game: Ludo, **changes: Any) -> Board:
    return dataclasses.replace(game.board, **changes)


def _all_home(game: Ludo, mine: Any) -> bool:
    return all(p == game.board.goal for p in mine)


class SeatsLeftOutDoNotPlay(_Remembers):
    """LD-SEAT-1 misread: a game has two to four seats, as in common Ludo: a set-up that gives pieces to some
    seats only is a game of those seats, and the others take no turns."""

    def first_note(self, state: State, setup: Mapping[str, JSON] | None) -> Any:
        given = (setup or {}).get("pieces")
        if not given:
            return None
        playing = {self.board.seats.index(s) for s in given} | {state.turn}
        return sorted(playing) if len(playing) > 1 else None

    def _end_throw(self, t: Turn, again: bool) -> None:
        before = t.turn
        super()._end_throw(t, again)
        if self.memo and t.phase == "roll" and t.turn != before:
            while t.turn not in self.memo:
                t.turn = (t.turn + 1) % len(self.board.seats)


class FirstSeatFromTheSeed(_Base):
    """LD-SEAT-2 misread: who throws first is left to chance, as in a roll-off: the seed picks the first seat
    (seed mod 4) when the set-up names none."""

    def new_state(self, ruleset: str | None = None, seed: int | None = None,
                  setup: Mapping[str, JSON] | None = None) -> State:
        state = super().new_state(ruleset, seed, setup)
        if "turn" in (setup or {}):
            return state
        return evolve(state, turn=state.seed % len(self.board.seats))


class StartsTheOtherWayRound(_Base):
    """LD-BOARD-1 misread: CPU 1 sits on the human's left, so its start square is 13 squares before the
    human's (square 39), CPU 3's 13 after (square 13): the start squares go round against the pieces' way."""

    def __init__(self) -> None:
        super().__init__()
        track = self.board.track
        board = Board.from_data(_data(start_spacing=track - 13))  # starts 0, 39, 78 = 26, 117 = 13 (mod 52)
        self.board = _board(self, squares=board.squares, rivals=board.rivals,
                            starts=tuple(s % track for s in board.starts),
                            safe=frozenset(s % track for s in board.safe))


class HomeColumnAfterAFullLap(Ludo):
    """LD-BOARD-2 misread: a piece goes once all the way round the loop, back onto its start square (51 steps),
    before it turns into its home column: home is 58 steps from the start square."""

    def __init__(self) -> None:
        super().__init__(_data(last_track_step=51, goal_step=58))


class OnePieceStartsOut(_Base):
    """LD-BOARD-3 misread: as in some house rules, each seat starts with one piece already on its start square
    and the other three in the yard."""

    def new_state(self, ruleset: str | None = None, seed: int | None = None,
                  setup: Mapping[str, JSON] | None = None) -> State:
        state = super().new_state(ruleset, seed, setup)
        if (setup or {}).get("pieces"):
            return state
        return evolve(state, pieces=tuple((0,) + mine[1:] for mine in state.pieces))


class OnlyStartSquaresAreSafe(_Base):
    """LD-SAFE-1 misread: "start squares are safe" (LD-CAP-1) is the whole rule; the star squares are only
    drawn on the board, and a piece on one can be captured."""

    def __init__(self) -> None:
        super().__init__()
        self.board = _board(self, safe=frozenset(self.board.starts))


class SafeOnlyForItsOwnColour(_Base):
    """LD-SAFE-1 misread: a safe square shelters only the colour it belongs to (a seat's start square and its
    star square): a piece of another colour standing there is captured like anywhere else."""

    def land(self, pieces: list[list[int]], seat: int, piece: int, roll: int) -> None:
        super().land(pieces, seat, piece, roll)
        b = self.board
        square = b.squares[seat][pieces[seat][piece]]
        if square is None or square not in b.safe:
            return
        for other, theirs in enumerate(pieces):
            own = {b.starts[other], (b.starts[other] + int(self.data["star_offset"])) % b.track}
            if other != seat and square not in own:
                theirs[:] = [YARD if 0 <= p <= b.last_track_step and b.squares[other][p] == square else p
                             for p in theirs]


class EachSeatItsOwnDie(_Remembers):
    """LD-ROLL-1 misread: each seat throws its own seeded die (the stream of seed xor the seat's number), so
    a seat's faces do not depend on the other seats' throws."""

    def first_note(self, state: State, setup: Mapping[str, JSON] | None) -> Any:
        return [(state.seed ^ k) & streams.MASK for k in range(len(self.board.seats))]

    def throw(self, t: Turn, face: int | None) -> None:
        if t.phase == "roll" and (face is None or 1 <= face <= 6):
            self.memo[t.turn], drawn = streams.next_face(self.memo[t.turn])
            face = drawn if face is None else face
        super().throw(t, face)


class EnteringIsCompulsory(_Base):
    """LD-ROLL-2 misread: a 6 is for bringing a piece out: while a piece waits in the yard, a 6 must enter one
    and cannot move a piece already out."""

    def _movable(self, pieces: Any, seat: int, face: int) -> list[int]:
        out = super()._movable(pieces, seat, face)
        mine = pieces[seat]
        yard = [p for p in out if mine[p] == YARD]
        return yard if face == 6 and yard else out


class EnteringEndsTheTurn(_Base):
    """LD-ROLL-2 misread: the 6 that brings a piece out is spent on entering; only a 6 that moves a piece
    already out throws again."""

    def _play(self, t: Turn, piece: int) -> None:
        if t.pieces[t.turn][piece] == YARD:
            t.roll = 0  # entering does not look at the face; a roll of 0 is no 6, so no throw again
        super()._play(t, piece)


class ThirdSixPlayedThenPasses(Ludo):
    """LD-ROLL-3 misread: the third six in a row is played like any face, and then the turn passes: it is the
    extra throw that is lost, not the six."""

    def __init__(self) -> None:
        super().__init__(_data(sixes_void=4))

    def _end_throw(self, t: Turn, again: bool) -> None:
        super()._end_throw(t, again and t.sixes < 3)


class HomeColumnOnlyByTheExactNumber(_Base):
    """LD-MOVE-1 misread: exact finish means a piece in its home column moves only with the face that takes
    it home; inside the column it cannot move by less."""

    def __init__(self) -> None:
        super().__init__()
        b = self.board
        self.can_move = tuple(tuple(can if not b.last_track_step < step < b.goal else step + face == b.goal
                                    for step, can in enumerate(row)) for face, row in enumerate(self.can_move))


def _overshoot_assess(home: bool) -> Any:
    def assess(game: Ludo, pos: Any, piece: int, with_risk: bool) -> tuple[int, int]:
        step = pos.pieces[pos.turn][piece]
        if step != YARD and step + pos.roll > game.board.goal:
            return (cpu.FINISH if home else cpu.OTHER), 0
        return _ORIGINAL_ASSESS(game, pos, piece, with_risk)
    return staticmethod(assess)


class OvershootBouncesBack(_PatchedAssess):
    """LD-MOVE-2 misread: as in common Ludo, a face that would carry a piece past home takes it home and back
    again by the steps left over."""

    ASSESS = _overshoot_assess(False)

    def __init__(self) -> None:
        super().__init__()
        b = self.board
        self.can_move = tuple(tuple(step < b.goal or can for step, can in enumerate(row[:-1])) + (row[-1],)
                              for row in self.can_move)

    def land(self, pieces: list[list[int]], seat: int, piece: int, roll: int) -> None:
        step, goal = pieces[seat][piece], self.board.goal
        if step != YARD and step + roll > goal:
            roll = 2 * goal - 2 * step - roll  # to goal - (step + roll - goal)
        super().land(pieces, seat, piece, roll)


class OvershootStopsAtHome(OvershootBouncesBack):
    """LD-MOVE-2 misread: a face at least as large as the steps left takes a piece home: the exact number is
    not needed."""

    ASSESS = _overshoot_assess(True)

    def land(self, pieces: list[list[int]], seat: int, piece: int, roll: int) -> None:
        step, goal = pieces[seat][piece], self.board.goal
        Ludo.land(self, pieces, seat, piece, goal - step if step != YARD and step + roll > goal else roll)


class APassingSixEndsTheTurn(_Base):
    """LD-MOVE-3 misread: a throw with no legal move passes the turn, whatever the face: a 6 gives another throw
    only when it was played."""

    passing = False

    def throw(self, t: Turn, face: int | None) -> None:
        self.passing = True
        try:
            super().throw(t, face)
        finally:
            self.passing = False

    def _end_throw(self, t: Turn, again: bool) -> None:
        super()._end_throw(t, again and not self.passing)


class AStackMovesAsOne(_Base):
    """LD-MOVE-4 misread: a stack is one token on the board: only its first piece is highlighted and can be
    tapped (the pieces in the yard still count one by one, ruling LD-R15)."""

    def _movable(self, pieces: Any, seat: int, face: int) -> list[int]:
        out, seen = [], set()
        mine = pieces[seat]
        for p in super()._movable(pieces, seat, face):
            if mine[p] == YARD or mine[p] not in seen:
                out.append(p)
            seen.add(mine[p])
        return out


class OnePieceCapturedAtATime(_Base):
    """LD-CAP-1 misread: a landing captures one enemy piece, the first one on the square; the others there (the
    rest of a stack, or another colour's) stay."""

    def land(self, pieces: list[list[int]], seat: int, piece: int, roll: int) -> None:
        before = [list(p) for p in pieces]
        super().land(pieces, seat, piece, roll)
        first = True
        for other, theirs in enumerate(pieces):
            for i, was in enumerate(before[other]):
                if other != seat and theirs[i] != was:
                    if not first:
                        theirs[i] = was
                    first = False


class HomeColumnStandsOnTheLoop(_Base):
    """LD-CAP-1 misread: every position is a loop square, (start + steps) mod 52, the home column included: a
    piece in its home column is captured by an enemy landing on that square, and captures there itself."""

    def land(self, pieces: list[list[int]], seat: int, piece: int, roll: int) -> None:
        super().land(pieces, seat, piece, roll)
        b = self.board
        step = pieces[seat][piece]
        square = (b.starts[seat] + step) % b.track
        if step == b.goal or square in b.safe:
            return
        for other, theirs in enumerate(pieces):
            if other != seat:
                theirs[:] = [YARD if 0 <= p < b.goal and (b.starts[other] + p) % b.track == square else p
                             for p in theirs]


class EnteringCaptures(_Base):
    """LD-CAP-1 misread: as in common Ludo, a piece brought out onto its start square captures the enemy
    pieces waiting there (the start square shelters only the pieces of its own colour)."""

    def land(self, pieces: list[list[int]], seat: int, piece: int, roll: int) -> None:
        entering = pieces[seat][piece] == YARD
        super().land(pieces, seat, piece, roll)
        b = self.board
        if entering:
            for other, theirs in enumerate(pieces):
                if other != seat:
                    theirs[:] = [YARD if 0 <= p <= b.last_track_step and b.squares[other][p] == b.starts[seat]
                                 else p for p in theirs]


class CaptureGivesAThrow(_Base):
    """LD-CAP-2 misread: as in common Ludo, a capture earns the capturing seat another throw."""

    captured = False

    def land(self, pieces: list[list[int]], seat: int, piece: int, roll: int) -> None:
        waiting = sum(p.count(YARD) for i, p in enumerate(pieces) if i != seat)
        super().land(pieces, seat, piece, roll)
        self.captured = sum(p.count(YARD) for i, p in enumerate(pieces) if i != seat) > waiting

    def _end_throw(self, t: Turn, again: bool) -> None:
        captured, self.captured = self.captured, False
        super()._end_throw(t, again or captured)


class StacksBlock(_Base):
    """LD-STACK-1 misread: as in common Ludo, two or more pieces of one colour on a loop square form a blockade
    that no enemy piece may pass or land on."""

    def _blocked(self, pos: Any, piece: int) -> bool:
        b, seat = self.board, pos.turn
        step = pos.pieces[seat][piece]
        if step == YARD:
            return False
        for s in range(step + 1, min(step + pos.roll, b.last_track_step) + 1):
            square = b.squares[seat][s]
            for other, there, _zone in b.rivals[seat][square]:
                if there <= b.last_track_step and pos.pieces[other].count(there) >= 2:
                    return True
        return False

    def movable(self, pos: Any) -> list[int]:
        return [p for p in super().movable(pos) if not self._blocked(pos, p)]

    def throw(self, t: Turn, face: int | None) -> None:
        super().throw(t, face)
        if t.phase == "move":
            t.options = [p for p in t.options or () if not self._blocked(t, p)]
            if not t.options:
                self._end_throw(t, t.roll == 6)


class StacksAreSafe(_Base):
    """LD-STACK-1 misread: two or more pieces of one colour on a square protect each other: an enemy may land
    there, but captures nothing."""

    def land(self, pieces: list[list[int]], seat: int, piece: int, roll: int) -> None:
        before = [list(p) for p in pieces]
        super().land(pieces, seat, piece, roll)
        for other, theirs in enumerate(pieces):
            sent = [i for i, was in enumerate(before[other]) if theirs[i] != was]
            if other != seat and len(sent) >= 2:
                theirs[:] = before[other]


class PlacesArePlayedOut(_Remembers):
    """LD-END-1 misread: as in common Ludo, the game goes on for the other places when a seat has all four
    pieces home (that seat's turns are skipped) and ends when one seat is left; the first home wins."""

    def _play(self, t: Turn, piece: int) -> None:
        b = self.board
        self.land(t.pieces, t.turn, piece, t.roll)
        if _all_home(self, t.pieces[t.turn]):
            self.memo = t.turn if self.memo is None else self.memo
            if sum(_all_home(self, mine) for mine in t.pieces) >= len(b.seats) - 1:
                t.phase, t.roll, t.sixes, t.result, t.options = "over", 0, 0, b.seats[self.memo], None
                return
            self._end_throw(t, False)
            return
        self._end_throw(t, t.roll == 6)

    def _end_throw(self, t: Turn, again: bool) -> None:
        super()._end_throw(t, again)
        while t.phase == "roll" and _all_home(self, t.pieces[t.turn]):
            t.turn, t.sixes = (t.turn + 1) % len(self.board.seats), 0


class CapEndsAtTheThrow(_Base):
    """LD-END-2 misread: the game is capped the moment the 10,000th throw is made; its face is not played."""

    def throw(self, t: Turn, face: int | None) -> None:
        super().throw(t, face)
        if t.phase == "move" and t.throws >= self.board.cap:
            t.phase, t.roll, t.sixes, t.result, t.options = "over", 0, 0, "capped", None


class CapAfterTenThousandMoreThrows(Ludo):
    """LD-END-2 misread: "after 10,000 throws" means once 10,000 throws are behind the game: it is capped when a
    10,001st throw is over."""

    def __init__(self) -> None:
        super().__init__(_data(roll_cap=10001))


class _Records(_Base):
    """A misreading of how the human seat's record counts a game (LD-STAT-1)."""

    def record(self, record: Mapping[str, int], result: str | None) -> dict[str, int]:
        out = super().record(record, result)
        if self.lost(result):
            out["lost"] += 1
        return out

    def lost(self, result: str | None) -> bool:
        return False


class CappedIsALoss(_Records):
    """LD-STAT-1 misread: a game the human seat did not win is lost: a capped game counts as a loss."""

    def lost(self, result: str | None) -> bool:
        return result == "capped"


class AbandonedIsALoss(_Records):
    """LD-STAT-1 misread: leaving a game unfinished forfeits it: an abandoned game counts as a loss."""

    def lost(self, result: str | None) -> bool:
        return result is None


class PlayTimeCounted(_Base):
    """LD-R16 the other way: play time is one of the statistics the build answers: the record counts the
    whole minutes played, from each game's start to its end or its leaving, beside played, won and lost."""

    started = 0.0

    def new_state(self, ruleset: str | None = None, seed: int | None = None,
                  setup: Mapping[str, JSON] | None = None) -> State:
        state = super().new_state(ruleset, seed, setup)
        self.started = time.monotonic()
        return state

    def record(self, record: Mapping[str, int], result: str | None) -> dict[str, int]:
        minutes = int(record.get("minutes", 0)) + int((time.monotonic() - self.started) // 60)
        return {**super().record(record, result), "minutes": minutes}


class AbandonedIsNotPlayed(_Base):
    """LD-STAT-1 misread: only games played to their end count: a game left by a start or a restart is not
    counted at all."""

    def record(self, record: Mapping[str, int], result: str | None) -> dict[str, int]:
        return dict(record) if result is None else super().record(record, result)


class GivenFacesSpendNothing(_Base):
    """LD-DICE-1 misread: the seeded stream is the build's own die: a throw whose face the caller gives does not
    use up a face of it, so the next seeded throw shows the face the given one would have."""

    def throw(self, t: Turn, face: int | None) -> None:
        dice = t.dice_state
        super().throw(t, face)
        if face is not None:
            t.dice_state = dice


class FaceIsOutputModSix(_Base):
    """LD-DICE-1 misread: a face is the stream's next output mod 6, plus 1: every output is used, none thrown
    away (six faces from 2^64 outputs look equally likely)."""

    def throw(self, t: Turn, face: int | None) -> None:
        if face is None and t.phase == "roll":
            dice, out = streams.splitmix64(t.dice_state)
            super().throw(t, out % 6 + 1)
            t.dice_state = dice
        else:
            super().throw(t, face)


class EasyAlwaysDraws(_Base):
    """LD-CPU-1 misread: easy is "one of the legal moves at random": it draws one number in [0, n) every time,
    a forced move (n = 1) included."""

    def cpu_move(self, t: Turn, level: str, pick: int | None = None) -> None:
        if t.phase == "move" and level == "easy" and len(self.movable(t)) == 1:
            if pick is not None and pick != 0:
                raise IllegalAction("bad-pick", "easy draws among 1 move; a pick is 0")
            if pick is None:
                t.choice_state, _k, used = streams.draw(t.choice_state, 1)
            else:
                t.choice_state, used = streams.splitmix64(t.choice_state)[0], 1
            t.decisions += used
            self._play(t, self.movable(t)[0])
            return
        super().cpu_move(t, level, pick)


_ORIGINAL_CHOOSE = cpu.choose


def _easy_by_piece(game: Ludo, pos: Any, level: str, pick: int | None = None) -> tuple[int, int, int]:
    if level != "easy" or len(game.movable(pos)) == 1:
        return _ORIGINAL_CHOOSE(game, pos, level, pick)
    movable, n = game.movable(pos), game.board.pieces
    if pick is not None:
        if not 0 <= pick < n:
            raise IllegalAction("bad-pick", f"easy draws among {n} pieces")
        after, k, used = streams.splitmix64(pos.choice_state)[0], pick, 1
    else:
        after, k, used = streams.draw(pos.choice_state, n)
    return next(p for p in list(range(k, n)) + list(range(k)) if p in movable), used, after


class EasyDrawsAPiece(_Base):
    """LD-CPU-1 misread: easy draws one of the four pieces, a number in [0, 4), and moves it, or the next piece
    in piece order that can move when it cannot."""

    def cpu_move(self, t: Turn, level: str, pick: int | None = None) -> None:
        cpu.choose = _easy_by_piece
        try:
            super().cpu_move(t, level, pick)
        finally:
            cpu.choose = _ORIGINAL_CHOOSE


def _home_column_is_safe(game: Ludo, pos: Any, piece: int, with_risk: bool) -> tuple[int, int]:
    value, risk = _ORIGINAL_ASSESS(game, pos, piece, with_risk)
    step = pos.pieces[pos.turn][piece]
    if value == cpu.OTHER and step != YARD and game.board.last_track_step < step + pos.roll < game.board.goal:
        return cpu.SAFE, risk
    return value, risk


class HomeColumnIsASafeLanding(_PatchedAssess):
    """LD-CPU-2 misread: the own home column is out of every enemy's reach, so a move into it counts as landing
    on a safe square."""

    ASSESS = staticmethod(_home_column_is_safe)


def _own_safe_squares(game: Ludo, pos: Any, piece: int, with_risk: bool) -> tuple[int, int]:
    value, risk = _ORIGINAL_ASSESS(game, pos, piece, with_risk)
    b, seat = game.board, pos.turn
    step = pos.pieces[seat][piece]
    if value == cpu.SAFE and step != YARD:
        square = b.squares[seat][step + pos.roll]
        if square not in (b.starts[seat], (b.starts[seat] + int(game.data["star_offset"])) % b.track):
            return cpu.OTHER, _risk_216(game, pos, square) if with_risk else 0
    return value, risk


class OwnSafeSquaresOnly(_PatchedAssess):
    """LD-CPU-2 misread: "landing on a safe square" means one of the seat's own safe squares (its start and its
    star square); another colour's is a plain advance."""

    ASSESS = staticmethod(_own_safe_squares)


def _risk_216(game: Ludo, pos: Any, square: int | None, per_piece: bool = False) -> int:
    """216 x the chance that a piece on loop ``square`` is captured next turn, as ruling LD-R9 counts it: per
    enemy seat k = the faces with which one of its loop pieces lands there without turning home first
    (``per_piece``: the pieces that do, a stack's one by one, not the faces)."""
    if square is None:
        return 0
    b, threats = game.board, 1
    for other, theirs in enumerate(pos.pieces):
        if other == pos.turn:
            continue
        faces = []
        for p in theirs:
            face = (square - b.starts[other] - p) % b.track
            if 0 <= p <= b.last_track_step and 1 <= face <= 6 and p + face <= b.last_track_step:
                faces.append(face)
        threats *= max(0, 6 - (len(faces) if per_piece else len(set(faces))))
    return 216 - threats


def _risky_safe_squares(game: Ludo, pos: Any, piece: int, with_risk: bool) -> tuple[int, int]:
    value, risk = _ORIGINAL_ASSESS(game, pos, piece, with_risk)
    if not with_risk or value not in (cpu.SAFE, cpu.ENTER):
        return value, risk
    b, seat = game.board, pos.turn
    step = pos.pieces[seat][piece]
    return value, _risk_216(game, pos, b.squares[seat][0 if step == YARD else step + pos.roll])


class SafeSquaresHaveRisk(_PatchedAssess):
    """LD-CPU-3 misread: hard works out the risk of every loop square it lands on the same way, safe squares
    (a start square entered, a star square) included: an enemy one throw behind is a threat there too."""

    ASSESS = staticmethod(_risky_safe_squares)


def _stack_assess(game: Ludo, pos: Any, piece: int, with_risk: bool) -> tuple[int, int]:
    value, risk = _ORIGINAL_ASSESS(game, pos, piece, with_risk)
    if not with_risk or risk == 0:
        return value, risk
    b, seat = game.board, pos.turn
    after = [list(p) for p in pos.pieces]
    game.land(after, seat, piece, pos.roll)
    moved = _Pos(seat, pos.roll, after)
    return value, _risk_216(game, moved, b.squares[seat][after[seat][piece]], per_piece=True)


class _Pos:
    """A position for ``_risk_216``: the seat to play, the face, the pieces."""

    def __init__(self, turn: int, roll: int, pieces: Any) -> None:
        self.turn, self.roll, self.pieces = turn, roll, pieces


class StackCountsPieceByPiece(_PatchedAssess):
    """LD-CPU-3 misread: hard counts the enemy pieces that could hit the landing square, each piece of a stack
    on its own, as if a stack of two hit twice as often: k is pieces, not faces."""

    ASSESS = staticmethod(_stack_assess)


def _home_column_risk(game: Ludo, pos: Any, piece: int, with_risk: bool) -> tuple[int, int]:
    value, risk = _ORIGINAL_ASSESS(game, pos, piece, with_risk)
    b, seat = game.board, pos.turn
    step = pos.pieces[seat][piece]
    if not with_risk or step == YARD or not b.last_track_step < step + pos.roll < b.goal:
        return value, risk
    square = (b.starts[seat] + step + pos.roll) % b.track
    return value, 0 if square in b.safe else _risk_216(game, pos, square)


class HomeColumnAtRisk(_PatchedAssess):
    """LD-CPU-3 misread: hard works out the risk of every landing the same way, as the loop square (start +
    steps) mod 52, so a square of the home column is as much at risk as the loop square it stands beside."""

    ASSESS = staticmethod(_home_column_risk)


class LastMovedWinsTies(_Remembers):
    """LD-CPU-4 misread: a tie goes on with the piece the seat moved last when it is one of the tied moves (the
    draw decides only among others), so the same board splits by what moved before it."""

    def first_note(self, state: State, setup: Mapping[str, JSON] | None) -> Any:
        return [None] * len(self.board.seats)

    def noted(self, before: State, action: Any, after: State) -> Any:
        seat = before.turn
        if before.phase == "move":
            moved = [i for i, (a, b) in enumerate(zip(before.pieces[seat], after.pieces[seat])) if a != b]
            self.memo[seat] = moved[0] if moved else self.memo[seat]
        return self.memo

    def cpu_move(self, t: Turn, level: str, pick: int | None = None) -> None:
        if t.phase == "move" and level in ("normal", "hard") and self.memo:
            among = cpu.candidates(self, t, level)
            if len(among) > 1 and self.memo[t.turn] in among:
                self._play(t, self.memo[t.turn])
                return
        super().cpu_move(t, level, pick)


class TieFromTheStream(_Base):
    """LD-CPU-4 misread: a tie is broken as easy draws, by the decision stream's next number (taking its outputs,
    counted in ``decisions``), so one board under one seed splits by where the stream stands, not by the seed."""

    def cpu_move(self, t: Turn, level: str, pick: int | None = None) -> None:
        if t.phase == "move" and level in ("normal", "hard"):
            among = cpu.candidates(self, t, level)
            if len(among) > 1 and (pick is None or 0 <= pick < len(among)):
                if pick is None:
                    t.choice_state, pick, used = streams.draw(t.choice_state, len(among))
                else:
                    t.choice_state, used = streams.splitmix64(t.choice_state)[0], 1
                t.decisions += used
                self._play(t, among[pick])
                return
        super().cpu_move(t, level, pick)


class OneStreamForDiceAndCpus(_Base):
    """LD-CPU-5 misread: the game has one seeded random source: the CPUs' draws take their outputs from the
    dice stream too, so a CPU that draws changes the faces that follow."""

    def cpu_move(self, t: Turn, level: str, pick: int | None = None) -> None:
        before = t.decisions
        super().cpu_move(t, level, pick)
        for _ in range(t.decisions - before):
            t.dice_state = streams.splitmix64(t.dice_state)[0]


class SharedSquaresRefused(_Base):
    """LD-START-1 misread: a set-up with pieces of two colours on one loop square cannot arise in play (the
    later one would have captured), so start refuses it."""

    def new_state(self, ruleset: str | None = None, seed: int | None = None,
                  setup: Mapping[str, JSON] | None = None) -> State:
        state = super().new_state(ruleset, seed, setup)
        owner: dict[int, int] = {}
        for seat, mine in enumerate(state.pieces):
            for step in mine:
                square = self.board.square(seat, step)
                if square is not None and owner.setdefault(square, seat) != seat:
                    raise BadSetup("bad-setup", f"two colours on square {square}")
        return state


class SetUpThrowsKeepTheStream(_Base):
    """LD-START-1 misread: a set-up's throws only count toward the cap; the dice stream starts at its first face."""

    def _position(self, ruleset: str | None, seed: int | None, setup: Mapping[str, JSON] | None) -> State:
        state = super()._position(ruleset, seed, setup)
        return evolve(state, dice_state=(state.seed ^ self.board.dice_xor) & streams.MASK)


class NullIsTheDefault(_Base):
    """LD-START-1 misread: a set-up key given as null is the same as leaving it out (its default)."""

    def new_state(self, ruleset: str | None = None, seed: int | None = None,
                  setup: Mapping[str, JSON] | None = None) -> State:
        if isinstance(setup, Mapping):
            setup = {k: v for k, v in setup.items() if v is not None}
        return super().new_state(ruleset, seed, setup)


class RollShowsTheLatestFace(_Base):
    """LD-VIEW-1 misread: `roll` is the face shown on the die, the latest throw's, played or not (the same as
    `last_face`)."""

    def view(self, state: State, observer: str | None = None) -> dict[str, JSON]:
        return {**super().view(state, observer), "roll": state.last_face or None}


class SixesCountedOncePlayed(_Base):
    """LD-VIEW-1 misread: `sixes` counts the sixes played (or passed) this turn: a 6 waiting in phase move is
    not counted yet."""

    def view(self, state: State, observer: str | None = None) -> dict[str, JSON]:
        out = super().view(state, observer)
        if state.phase == "move" and state.roll == 6:
            out["sixes"] = state.sixes - 1
        return out


class SeededThrowListed(_Base):
    """LD-LEGAL-1 misread: the player's action in phase roll is tapping the die: legal lists the one seeded throw
    `{"type": "roll"}`, not six faces."""

    def legal_actions(self, state: State, observer: str | None = None) -> list[Any]:
        return [Roll()] if state.phase == "roll" else super().legal_actions(state, observer)


class CpuChoicesListed(_Base):
    """LD-LEGAL-1 misread: in phase move the CPU choices are actions too: legal lists the three `cpu` levels
    after the movable pieces."""

    def legal_actions(self, state: State, observer: str | None = None) -> list[Any]:
        out = super().legal_actions(state, observer)
        return out + [Cpu(level) for level in LEVELS] if state.phase == "move" else out


_KEYS = {"roll": {"type", "face"}, "move": {"type", "piece"}, "cpu": {"type", "level", "pick"}}


class ExtraKeysIgnored(_Base):
    """LD-FORM-1 misread: a lenient reader: keys a throw, a move or a CPU choice does not use are ignored."""

    def parse_action(self, data: JSON) -> Any:
        if isinstance(data, dict) and isinstance(data.get("type"), str) and data["type"] in _KEYS:
            data = {k: v for k, v in data.items() if k in _KEYS[data["type"]]}
        return super().parse_action(data)


class BooleansAreNumbers(_Base):
    """LD-FORM-1 misread: a whole number is whatever the language's integer test takes: true is 1, false 0."""

    def parse_action(self, data: JSON) -> Any:
        if isinstance(data, dict):
            data = {k: int(v) if k in ("face", "piece", "pick") and isinstance(v, bool) else v
                    for k, v in data.items()}
        return super().parse_action(data)


class UndoDoesNothing(_Base):
    """LD-HELP-1 misread: the app's undo and hint buttons are there but do nothing in this game: an action of
    type `undo` or `hint` is taken, and the state stays as it was."""

    def parse_action(self, data: JSON) -> Any:
        if isinstance(data, dict) and data.get("type") in ("undo", "hint") and set(data) == {"type"}:
            return data["type"]
        return super().parse_action(data)

    def apply(self, state: State, action: Any) -> State:
        if action in ("undo", "hint"):
            return state
        return super().apply(state, action)


class UndoTakesBackTheLastAction(_Remembers):
    """LD-HELP-1 misread: as in many apps, undo takes back the last action: the position before it, the dice
    stream where it stood then (so the face just seen comes again); one step back, nothing before the first."""

    def noted(self, before: State, action: Any, after: State) -> Any:
        return State(**{k: v for k, v in before.__dict__.items() if k != "note"})

    def parse_action(self, data: JSON) -> Any:
        if isinstance(data, dict) and data.get("type") == "undo" and set(data) == {"type"}:
            return "undo"
        return super().parse_action(data)

    def apply(self, state: State, action: Any) -> State:
        if action == "undo":
            before = getattr(state, "note", None)
            return state if before is None else before
        return super().apply(state, action)


class ActionCodesFirst(_Base):
    """LD-FORM-2 misread: an action is checked on its own first (the face, the piece number, the level), then
    against the game: bad-face, no-such-piece and unknown-level come before game-over and wrong-phase."""

    def apply(self, state: State, action: Any) -> State:
        if type(action) is Roll and action.face is not None and not 1 <= action.face <= 6:
            raise IllegalAction("bad-face", f"a die shows 1 to 6, got {action.face}")
        if type(action) is Move and not 0 <= action.piece < self.board.pieces:
            raise IllegalAction("no-such-piece", f"pieces are numbered 0 to {self.board.pieces - 1}")
        if type(action) is Cpu and action.level not in LEVELS:
            raise IllegalAction("unknown-level", f"no CPU level {action.level!r}")
        return super().apply(state, action)


class LanderKeepsItsOwnSafeSquares(_Base):
    """LD-SAFE-1 misread: a seat's safe squares (its start and star squares) are safe from that seat: it cannot
    capture there, but lands on another colour's safe square as on any other and captures."""

    def land(self, pieces: list[list[int]], seat: int, piece: int, roll: int) -> None:
        entering = pieces[seat][piece] == YARD
        super().land(pieces, seat, piece, roll)
        b = self.board
        square = b.squares[seat][pieces[seat][piece]]
        own = {b.starts[seat], (b.starts[seat] + int(self.data["star_offset"])) % b.track}
        if entering or square is None or square not in b.safe or square in own:
            return
        for other, theirs in enumerate(pieces):
            if other != seat:
                theirs[:] = [YARD if 0 <= p <= b.last_track_step and b.squares[other][p] == square else p
                             for p in theirs]


# --- wrong builds the kit's own tests serve by name (tests/builds/wrong.py), written before the catalogue: each
# breaks one rule plainly ----------------------------------------------------------------------------------------


class HardIgnoresRisk(Ludo):
    """Breaks LD-CPU-3: the hard level plays exactly like normal, never weighing recapture."""

    def __init__(self) -> None:
        super().__init__(load_data("ludo"))

    def cpu_move(self, t: Turn, level: str, pick: int | None = None) -> None:
        super().cpu_move(t, "normal" if level == "hard" else level, pick)


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
    "LD-R16": PlayTimeCounted,
    "LD-SEAT-1": SeatsLeftOutDoNotPlay,
    "LD-SEAT-2": FirstSeatFromTheSeed,
    "LD-BOARD-1": StartsTheOtherWayRound,
    "LD-BOARD-2": HomeColumnAfterAFullLap,
    "LD-BOARD-3": OnePieceStartsOut,
    "LD-SAFE-1": OnlyStartSquaresAreSafe,
    "LD-SAFE-1#own-colour-only": SafeOnlyForItsOwnColour,
    "LD-SAFE-1#lander-own-squares-only": LanderKeepsItsOwnSafeSquares,
    "LD-ROLL-1": EachSeatItsOwnDie,
    "LD-ROLL-2": EnteringIsCompulsory,
    "LD-ROLL-2#entering-ends-the-turn": EnteringEndsTheTurn,
    "LD-ROLL-3": ThirdSixPlayedThenPasses,
    "LD-MOVE-1": HomeColumnOnlyByTheExactNumber,
    "LD-MOVE-2": OvershootBouncesBack,
    "LD-MOVE-2#overshoot-goes-home": OvershootStopsAtHome,
    "LD-MOVE-3": APassingSixEndsTheTurn,
    "LD-MOVE-4": AStackMovesAsOne,
    "LD-CAP-1": OnePieceCapturedAtATime,
    "LD-CAP-1#home-column-on-the-loop": HomeColumnStandsOnTheLoop,
    "LD-CAP-1#entering-captures": EnteringCaptures,
    "LD-CAP-2": CaptureGivesAThrow,
    "LD-STACK-1": StacksBlock,
    "LD-STACK-1#stack-is-safe": StacksAreSafe,
    "LD-END-1": PlacesArePlayedOut,
    "LD-END-2": CapEndsAtTheThrow,
    "LD-END-2#one-throw-more": CapAfterTenThousandMoreThrows,
    "LD-STAT-1": CappedIsALoss,
    "LD-STAT-1#abandoned-is-lost": AbandonedIsALoss,
    "LD-STAT-1#abandoned-not-played": AbandonedIsNotPlayed,
    "LD-DICE-1": GivenFacesSpendNothing,
    "LD-DICE-1#modulo-bias": FaceIsOutputModSix,
    "LD-CPU-1": EasyAlwaysDraws,
    "LD-CPU-1#draws-a-piece": EasyDrawsAPiece,
    "LD-CPU-2": HomeColumnIsASafeLanding,
    "LD-CPU-2#own-safe-squares": OwnSafeSquaresOnly,
    "LD-CPU-3": SafeSquaresHaveRisk,
    "LD-CPU-3#stack-counts-per-piece": StackCountsPieceByPiece,
    "LD-CPU-3#home-column-at-risk": HomeColumnAtRisk,
    "LD-CPU-4": LastMovedWinsTies,
    "LD-CPU-4#split-by-the-stream": TieFromTheStream,
    "LD-CPU-5": OneStreamForDiceAndCpus,
    "LD-START-1": SharedSquaresRefused,
    "LD-START-1#set-up-throws-keep-the-stream": SetUpThrowsKeepTheStream,
    "LD-START-1#null-is-default": NullIsTheDefault,
    "LD-VIEW-1": RollShowsTheLatestFace,
    "LD-VIEW-1#sixes-counted-once-played": SixesCountedOncePlayed,
    "LD-LEGAL-1": SeededThrowListed,
    "LD-LEGAL-1#cpu-listed": CpuChoicesListed,
    "LD-FORM-1": ExtraKeysIgnored,
    "LD-FORM-1#booleans-are-numbers": BooleansAreNumbers,
    "LD-FORM-2": ActionCodesFirst,
    "LD-HELP-1": UndoDoesNothing,
    "LD-HELP-1#takes-back": UndoTakesBackTheLastAction,
    "LD-CPU-3#as-normal": HardIgnoresRisk,
}
