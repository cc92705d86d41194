"""Ludo variant: the rules of specs/ludo.md as a pure engine.

A throw is a chance action (``Roll``: the caller names the face, or asks for the next face of the
game's canonical seeded dice stream); a turn's choice is a ``Move`` of one piece, or a ``Cpu`` action
that lets a CPU level choose with the game's seeded decision stream. Pieces are counted in steps from
their own start square: -1 in the yard, 0-50 on the shared loop, 51-56 in the home column, 57 home.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .. import streams
from ..base import JSON, BadSetup, Game, GameInfo, IllegalAction, MalformedAction
from . import cpu
from .board import YARD, Board, State, Turn

INFO = GameInfo(
    name="ludo",
    title="Ludo",
    source="003_2762a0a6ed6e2df0.txt",
    rule_prefix="LD",
    players=("human", "cpu1", "cpu2", "cpu3"),
    rulesets=("v1",),
    default_ruleset="v1",
    results=("human", "cpu1", "cpu2", "cpu3", "capped"),
    typical_length=300,
    field_rules={  # the rules that decide each view field (and rejections, refusals, legal lists)
        "game": ("LD-VIEW-1",),
        "ruleset": ("LD-VIEW-1",),
        "seed": ("LD-START-1", "LD-R5", "LD-VIEW-1"),
        "turn": ("LD-SEAT-2", "LD-ROLL-2", "LD-ROLL-3", "LD-MOVE-3", "LD-CAP-2"),
        "phase": ("LD-MOVE-3", "LD-ROLL-3", "LD-END-1", "LD-END-2"),
        "roll": ("LD-ROLL-1", "LD-MOVE-3", "LD-ROLL-3", "LD-DICE-1"),
        "sixes": ("LD-R4", "LD-ROLL-3", "LD-ROLL-2", "LD-MOVE-3"),
        "last_face": ("LD-DICE-1", "LD-ROLL-1", "LD-R5", "LD-START-1"),
        "throws": ("LD-R3", "LD-R10", "LD-END-2", "LD-START-1"),
        "decisions": ("LD-CPU-1", "LD-CPU-4", "LD-CPU-3", "LD-CPU-2", "LD-R5", "LD-START-1", "LD-R14"),
        "pieces": ("LD-MOVE-1", "LD-CAP-1", "LD-ROLL-2", "LD-R1", "LD-CPU-3", "LD-CPU-2", "LD-CPU-1"),
        "result": ("LD-END-1", "LD-END-2", "LD-R10"),
        "rejected": ("LD-FORM-1", "LD-FORM-2", "LD-MOVE-4", "LD-MOVE-2"),
        "error": ("LD-START-1", "LD-R11"),
        "legal": ("LD-LEGAL-1", "LD-MOVE-4", "LD-MOVE-2", "LD-ROLL-2"),
        "stats": ("LD-STAT-1",),
    },
    stream_fields=("decisions",),
    stream_rules=("LD-DICE-1", "LD-CPU-5", "LD-R5"),
    statistics=("played", "won", "lost"),
)
LEVELS = ("easy", "normal", "hard")


@dataclass(frozen=True)
class Roll:
    """A throw of the die: ``face`` 1-6, or None for the next face of the game's seeded dice stream (the chance
    action of LD-ROLL-1)."""

    face: int | None = None

    def to_json(self) -> JSON:
        return {"type": "roll"} if self.face is None else {"type": "roll", "face": self.face}


@dataclass(frozen=True)
class Move:
    """Move piece ``piece`` (0-3) of the seat to play by the rolled face (a 6 from the yard enters it)."""

    piece: int

    def to_json(self) -> JSON:
        return {"type": "move", "piece": self.piece}


@dataclass(frozen=True)
class Cpu:
    """Let the CPU ``level`` choose the move of the seat to play (specs/ludo.md, CPU levels): the seed's CPUs
    as an action of the protocol (ruling LD-R6), naming its level on each call (ruling LD-R13); ``pick``, when
    given, is the level's one draw given by the caller instead of the decision stream (ruling LD-R14)."""

    level: str
    pick: int | None = None

    def to_json(self) -> JSON:
        if self.pick is None:
            return {"type": "cpu", "level": self.level}
        return {"type": "cpu", "level": self.level, "pick": self.pick}


Action = Roll | Move | Cpu


class Ludo(Game[State, Action]):
    info = INFO

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = data
        self.board = b = Board.from_data(data)
        # Per face, per step (YARD last, so a piece's step indexes it directly): whether a piece there can move
        # by the face (LD-MOVE-1). From the yard only with a 6 (LD-ROLL-2; the variant enter_face lowers it);
        # otherwise exactly up to home, never past it (LD-MOVE-2). Other pieces never stop a move: a stack blocks
        # nobody (LD-STACK-1), unless the variant ``blockades`` is on (``_blocked``).
        self.can_move = tuple(tuple(step + face <= b.goal for step in range(b.goal + 1)) + (face >= b.enter_face,)
                              for face in range(7))
        self.piece_numbers = tuple(range(b.pieces))

    # --- creating ----------------------------------------------------------------------------
    def new_state(self, ruleset: str | None = None, seed: int | None = None,
                  setup: Mapping[str, JSON] | None = None) -> State:
        """The start state, or a position given by ``setup``: ``pieces`` (per seat, four steps),
        ``turn`` (the seat to roll) and ``throws`` (throws already made). Implements LD-START-1 and ruling
        LD-R11 (a position with a seat already home is refused). Raises BadSetup."""
        state = self._position(ruleset, seed, setup)
        winner = self._winner(state.pieces)
        if winner is not None:
            raise BadSetup("bad-setup", f"{self.board.seats[winner]} already has every piece home")
        return state

    def _position(self, ruleset: str | None, seed: int | None, setup: Mapping[str, JSON] | None) -> State:
        """The position ``start`` asks for: four seats, each with four pieces, all in the yard unless the
        set-up places them (LD-SEAT-1, LD-BOARD-3); the human seat throws first unless the set-up says
        otherwise (LD-SEAT-2); the seed (None: 0) starts the dice and the decision streams, apart
        (LD-DICE-1, LD-CPU-5, ruling LD-R5). Raises BadSetup."""
        name = self._ruleset(ruleset)
        b = self.board
        seed = 0 if seed is None else seed
        if type(seed) is not int:
            raise BadSetup("bad-setup", f"the seed must be an integer, got {seed!r}")
        setup = dict(setup or {})
        unknown = sorted(set(setup) - {"pieces", "turn", "throws"})
        if unknown:
            raise BadSetup("bad-setup", f"unknown set-up keys {unknown} (known: pieces, turn, throws)")
        pieces = [[YARD] * b.pieces for _ in b.seats]
        given = setup.get("pieces", {})
        if type(given) is not dict:
            raise BadSetup("bad-setup", f"pieces maps each seat to its {b.pieces} steps, got {given!r}")
        for seat, steps in given.items():
            if seat not in b.seats or not isinstance(steps, list) or len(steps) != b.pieces or not all(
                    type(s) is int and YARD <= s <= b.goal for s in steps):
                raise BadSetup("bad-setup", f"pieces of {seat!r} must be {b.pieces} steps from -1 to {b.goal}")
            pieces[b.seats.index(seat)] = list(steps)
        turn = setup.get("turn", b.seats[0])
        throws = setup.get("throws", 0)
        if turn not in b.seats or type(throws) is not int or not 0 <= throws < b.cap:
            raise BadSetup("bad-setup", f"turn must be a seat and throws 0 to {b.cap - 1}")
        # a game set up after n throws continues the stream at throw n + 1
        dice = streams.after_faces((seed ^ b.dice_xor) & streams.MASK, throws)
        return State(name, seed, b.seats.index(turn), "roll", 0, 0, throws, 0,
                     tuple(tuple(p) for p in pieces), None, 0, dice, (seed ^ b.decisions_xor) & streams.MASK)

    def setup_of(self, state: State) -> dict[str, JSON] | None:
        """The set-up of ``state``'s pieces, seat to throw and throws made (the set-up starts in phase roll,
        with no sixes and the decision stream at its start); None once the game is over, or when the
        cap's last throw is being played out (a set-up's throws are fewer than the cap)."""
        if state.result is not None or state.throws >= self.board.cap:
            return None
        seats = self.board.seats
        return {"pieces": {seat: list(state.pieces[i]) for i, seat in enumerate(seats)},
                "turn": seats[state.turn], "throws": state.throws}

    def describe(self, before: Mapping[str, JSON], after: Mapping[str, JSON]) -> str | None:
        """Which pieces moved, and whether an easy CPU drew from the decision stream (LD-CPU-1): "human piece 2:
        13 -> 19; cpu1 piece 0: 19 -> -1 (to the yard)", "cpu2 piece 1: 4 -> 7; a draw (decisions 3 -> 4)"."""
        old, new = before.get("pieces"), after.get("pieces")
        if not isinstance(old, dict) or not isinstance(new, dict):
            return None
        moves = []
        for seat, steps in new.items():
            was = old.get(seat)
            if isinstance(steps, list) and isinstance(was, list) and len(was) == len(steps):
                moves += [f"{seat} piece {i}: {a} -> {b}" + (" (to the yard)" if b == YARD else "")
                          for i, (a, b) in enumerate(zip(was, steps)) if a != b]
        drew = before.get("decisions"), after.get("decisions")
        if drew[0] != drew[1]:
            moves.append(f"a draw (decisions {drew[0]} -> {drew[1]})")
        return "; ".join(moves) or "no piece moved"

    # --- actions -----------------------------------------------------------------------------
    def parse_action(self, data: JSON) -> Action:
        """The throw, move or CPU choice ``data`` writes, checked for form only. Implements LD-FORM-1, and
        LD-HELP-1: there is no undo and no hint, so ``undo`` and ``hint`` are unknown types like any other the
        rules do not have (``unknown-action``, below). Raises MalformedAction."""
        if type(data) is not dict or "type" not in data:
            raise MalformedAction("malformed-action", f"an action must be a mapping with a type, got {data!r}")
        kind, keys = data["type"], set(data) - {"type"}
        if kind == "roll" and keys <= {"face"}:
            face = data.get("face")
            if face is not None and type(face) is not int:
                raise MalformedAction("malformed-action", f"a face is an integer, got {face!r}")
            return Roll(face)
        if kind == "move" and keys == {"piece"} and type(data["piece"]) is int:
            return Move(data["piece"])
        if (kind == "cpu" and "level" in keys and keys <= {"level", "pick"} and isinstance(data["level"], str)
                and (data.get("pick") is None or type(data["pick"]) is int)):
            return Cpu(data["level"], data.get("pick"))
        if kind in ("roll", "move", "cpu"):
            raise MalformedAction("malformed-action", f"not a well-formed {kind} action: {data!r}")
        raise MalformedAction("unknown-action", f"Ludo actions are roll, move and cpu; got {kind!r}")

    def movable(self, pos: State | Turn) -> list[int]:
        """The pieces of the seat to play that the rolled face can move: exactly the pieces a UI may let
        the player tap, each piece of a stack and each yard piece on its own (LD-MOVE-4, ruling LD-R15)."""
        if pos.phase != "move":
            return []
        if type(pos) is Turn:
            if pos.options is None:
                pos.options = self._movable(pos.pieces, pos.turn, pos.roll)
            return pos.options
        return self._movable(pos.pieces, pos.turn, pos.roll)

    def _movable(self, pieces: Sequence[Sequence[int]], seat: int, face: int) -> list[int]:
        can = self.can_move[face]
        mine = pieces[seat]
        out = []
        for i in self.piece_numbers:  # a loop, not a comprehension: this runs once a throw
            if can[mine[i]]:
                out.append(i)
        if self.board.blockades:
            return [i for i in out if not self._blocked(pieces, seat, mine[i], face)]
        return out

    def _blocked(self, pieces: Sequence[Sequence[int]], seat: int, step: int, face: int) -> bool:
        """Under the variant ``blockades``: whether a blockade (two or more pieces of one enemy seat on one loop
        square) stands on a square the piece at ``step`` would pass or land on with ``face``; entering, the start
        square. A seat's own stack bars none of its pieces; a home column holds no blockade of another seat."""
        b = self.board
        path = (0,) if step == YARD else range(step + 1, step + face + 1)
        squares = {b.squares[seat][s] for s in path} - {None}
        for other, mine in enumerate(pieces):
            if other == seat:
                continue
            loop = [b.squares[other][s] for s in mine if 0 <= s <= b.last_track_step]
            if any(loop.count(q) >= 2 for q in squares):
                return True
        return False

    def legal_actions(self, state: State, observer: str | None = None) -> list[Action]:
        """The six throws in phase roll, the movable pieces in phase move, nothing once over. Implements
        LD-LEGAL-1."""
        if state.phase == "roll":
            return [Roll(f) for f in range(1, 7)]
        return [Move(i) for i in self.movable(state)]

    def extra_actions(self, state: State) -> list[Action]:
        """The seeded throw; each CPU level's choice, seeded and with every pick its draw allows (LD-R14)."""
        if state.phase == "roll":
            return [Roll()]
        if state.phase != "move":
            return []
        out: list[Action] = []
        for level in LEVELS:
            out.append(Cpu(level))
            among = len(cpu.candidates(self, state, level))
            out += [Cpu(level, pick) for pick in range(among)] if among > 1 else []
        return out

    def explicit(self, state: State, action: Action) -> Action:
        """A seeded throw with the face the dice stream gives next; a CPU choice that draws, with the pick the
        decision stream gives (ruling LD-R14)."""
        if type(action) is Roll and action.face is None and state.phase == "roll":
            return Roll(streams.next_face(state.dice_state)[1])
        if type(action) is Cpu and action.pick is None and state.phase == "move" and action.level in LEVELS:
            pick = cpu.seeded_pick(self, state, action.level)
            if pick is not None:
                return Cpu(action.level, pick)
        return action

    def apply(self, state: State, action: Action) -> State:
        """``state`` after a throw, a move or a CPU choice. Each checks in the order of the spec's "Actions"
        (LD-FORM-2): game-over, wrong-phase, then the action's own codes. Raises IllegalAction."""
        turn = Turn(state)
        if type(action) is Roll:
            self.throw(turn, action.face)
        elif type(action) is Cpu:
            self.cpu_move(turn, action.level, action.pick)
        else:  # a Move: mypy narrows type(...) is only in the branch taken, so the union stays here
            self.move(turn, action.piece)  # type: ignore[union-attr]
        return turn.freeze(state)

    # The rules proper work on a mutable Turn: ``apply`` copies a state into one and freezes the result;
    # a simulation keeps one Turn for a whole game (refimpl/campaigns/simulate.py). One rule text, two speeds.
    def throw(self, t: Turn, face: int | None) -> None:
        """Throw the die (``face`` None: the next face of the seeded stream); then pass if nothing can move.

        Implements LD-ROLL-1, LD-DICE-1 (every throw, given or seeded, uses up the stream's next face; a refused
        one none: ruling LD-R5), LD-ROLL-3 (the void third six), LD-MOVE-3 (the automatic pass) and rulings
        LD-R3 (every throw counts toward the cap) and LD-R4 (a six that passes still counts in the streak)."""
        if t.phase != "roll":
            raise IllegalAction("game-over" if t.phase == "over" else "wrong-phase",
                                "the game is over" if t.phase == "over" else
                                f"{self.board.seats[t.turn]} must move the rolled {t.roll} first")
        dice, drawn = streams.next_face(t.dice_state)  # every throw uses up one face of the stream
        if face is None:
            face = drawn
        elif not 1 <= face <= 6:
            raise IllegalAction("bad-face", f"a die shows 1 to 6, got {face}")
        t.dice_state, t.last_face = dice, face
        t.throws += 1
        sixes = t.sixes = t.sixes + 1 if face == 6 else 0
        if sixes == self.board.sixes_void:  # the third six is void: nothing moves, the turn passes
            self._end_throw(t, False)
        else:
            options = t.options = self._movable(t.pieces, t.turn, face)
            if options:
                t.phase, t.roll = "move", face
            else:  # automatic pass; a 6 still rolls again
                self._end_throw(t, face == 6)

    def move(self, t: Turn, piece: int) -> None:
        """Move ``piece`` of the seat to play by the rolled face; a piece the face cannot move is refused
        (LD-MOVE-4, LD-MOVE-2)."""
        if t.phase != "move":
            raise self._not_moving(t)
        if type(piece) is not int or not 0 <= piece < self.board.pieces:
            raise IllegalAction("no-such-piece", f"pieces are numbered 0 to {self.board.pieces - 1}")
        if piece not in self.movable(t):
            raise IllegalAction("piece-cannot-move", f"piece {piece} cannot move {t.roll}")
        self._play(t, piece)

    def cpu_move(self, t: Turn, level: str, pick: int | None = None) -> None:
        """Let CPU ``level`` choose the move (with the seeded decision stream, or the caller's ``pick``) and make
        it. Raises IllegalAction ``unknown-level``, or ``bad-pick`` for a pick out of the level's range."""
        if t.phase != "move":
            raise self._not_moving(t)
        if level not in LEVELS:
            raise IllegalAction("unknown-level", f"CPU levels are {', '.join(LEVELS)}; got {level!r}")
        piece, used, t.choice_state = cpu.choose(self, t, level, pick)
        t.decisions += used
        self._play(t, piece)

    def _not_moving(self, t: Turn) -> IllegalAction:
        """The refusal of a move outside phase move."""
        if t.phase == "over":
            return IllegalAction("game-over", "the game is over")
        return IllegalAction("wrong-phase", f"{self.board.seats[t.turn]} must roll first")

    def land(self, pieces: list[list[int]], seat: int, piece: int, roll: int) -> bool:
        """Move the piece in ``pieces`` and send every enemy piece on its landing square to the yard: entering
        onto the start square with a 6 (LD-ROLL-2), else forward by the face (LD-MOVE-1); a whole stack, of
        every colour, on a loop square that is not safe (LD-CAP-1, LD-SAFE-1, LD-STACK-1). Returns whether it
        captured."""
        b = self.board
        mine = pieces[seat]
        step = mine[piece] = 0 if mine[piece] == YARD else mine[piece] + roll
        square = b.squares[seat][step]
        captured = False
        if square is not None and square not in b.safe:
            for other, there, _zone in b.rivals[seat][square]:  # there: the square, in that seat's steps
                theirs = pieces[other]
                if there <= b.last_track_step and there in theirs:
                    # a capture: the whole stack goes home (LD-CAP-1, LD-STACK-1), and no extra throw follows
                    # for it (LD-CAP-2): what decides a capture's step is cited here, where only a capture runs
                    theirs[:] = [YARD if p == there else p for p in theirs]
                    captured = True
        return captured

    def _play(self, t: Turn, piece: int) -> None:
        """Make the move; the game ends the moment a seat has every piece home (LD-END-1); only a 6 throws again,
        never a capture (LD-ROLL-2, LD-CAP-2; a capture too under the variant capture_throws_again)."""
        b = self.board
        captured = self.land(t.pieces, t.turn, piece, t.roll)
        mine = t.pieces[t.turn]
        if mine[piece] == b.goal and mine.count(b.goal) == b.pieces:  # the game ends the moment a seat is home
            t.phase, t.roll, t.sixes, t.result, t.options = "over", 0, 0, b.seats[t.turn], None
            return
        self._end_throw(t, t.roll == 6 or captured and b.capture_again)

    def _end_throw(self, t: Turn, again: bool) -> None:
        """The throw is over: the same seat rolls again (after a 6) or the next seat rolls, human, cpu1, cpu2,
        cpu3 (LD-SEAT-2, ruling LD-R2), the streak of sixes starting again (ruling LD-R4); or the cap, once the
        10,000th throw is played out, even after a 6 (LD-END-2, ruling LD-R10)."""
        t.roll, t.options = 0, None
        b = self.board
        if t.throws >= b.cap:
            t.phase, t.sixes, t.result = "over", 0, "capped"
            return
        t.phase = "roll"
        if not again:
            t.turn, t.sixes = (t.turn + 1) % len(b.seats), 0

    def _winner(self, pieces: tuple[tuple[int, ...], ...]) -> int | None:
        return next((i for i, mine in enumerate(pieces) if all(p == self.board.goal for p in mine)), None)

    def outcome(self, state: State) -> str | None:
        return state.result

    def record(self, record: Mapping[str, int], result: str | None) -> dict[str, int]:
        """The human seat's record with one more game (LD-STAT-1): a finished game is a win or a loss; a capped
        game, and one left before it ended (``None``), count as played only. Leaving is no action of the rules
        (ruling LD-R12): a game is left only when a start or restart replaces it (refimpl/harness/serve.py counts
        it), and refimpl simulate's games never are. The record is the three counts only: play time, which the
        seed records for statistics only, is no count of it (ruling LD-R16)."""
        out = {k: int(record.get(k, 0)) for k in INFO.statistics}
        out["played"] += 1
        if result == self.board.seats[0]:
            out["won"] += 1
        elif result is not None and result != "capped":
            out["lost"] += 1
        return out

    # --- views -------------------------------------------------------------------------------
    def view(self, state: State, observer: str | None = None) -> dict[str, JSON]:
        """The state view of the spec's "State view". Implements LD-VIEW-1; it holds no clock, as time decides
        nothing in the game (ruling LD-R16)."""
        seats = self.board.seats
        return {
            "game": INFO.name,
            "ruleset": state.ruleset,
            "seed": state.seed,
            "turn": seats[state.turn],
            "phase": state.phase,
            "roll": state.roll or None,
            "sixes": state.sixes,
            "last_face": state.last_face or None,
            "throws": state.throws,
            "decisions": state.decisions,
            "pieces": {seat: list(state.pieces[i]) for i, seat in enumerate(seats)},
            "result": state.result,
        }

