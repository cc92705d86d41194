"""The three CPU levels of specs/ludo.md (rules LD-CPU-*), as pure functions of a position.

Every level looks only at the legal moves for the rolled face: no search, no chained sixes. Easy draws from the
game's seeded decision stream; ties between equally good moves are split by one number drawn from the game's seed,
the same for every tie of the game (LD-CPU-4).
A position is a State or a Turn (board.py): anything with ``seed``, ``turn``, ``roll``, ``pieces`` and
``choice_state``;
the rules come in as ``game``, whatever has a ``board`` and a ``movable`` (the engine's Ludo).
"""

from __future__ import annotations

from typing import Protocol, Union

from .. import streams
from ..base import IllegalAction
from .board import YARD, Board, State, Turn

Position = Union["State", "Turn"]

# Move values (ruling LD-R8): other advance 0, safe landing 1, enter 2, finish 3, capture 3 + pieces sent home.
OTHER, SAFE, ENTER, FINISH, CAPTURE = 0, 1, 2, 3, 3


class Rules(Protocol):
    """What the CPU levels read of the rules (the engine's Ludo, passed in: this module never imports it)."""

    board: Board

    def movable(self, pos: Position) -> list[int]:
        """The pieces of the seat to play that the rolled face can move."""


def assess(game: Rules, pos: Position, piece: int, with_risk: bool) -> tuple[int, int]:
    """(value, 216 x risk) of moving ``piece`` by the rolled face (risk 0 unless ``with_risk``): normal's
    priorities as values (LD-CPU-2, ruling LD-R8) and hard's estimate of a capture on the next turn (LD-CPU-3,
    ruling LD-R9). The risk is 216 x the chance that the moved piece is captured on the next turn: per enemy seat
    k = the faces with which one of its pieces on the loop lands on the square (not a piece that would turn into
    its home column instead), combined as 1 - prod(1 - k/6) = (216 - prod(6 - k)) / 216, the seed's formula
    rather than its prose (ruling LD-R7); safe squares, the home column and home count 0. A move's score is its
    value, or for hard 216 x value - 216 x risk (ruling LD-R8)."""
    b, seat, pieces = game.board, pos.turn, pos.pieces
    step = pieces[seat][piece]
    if step == YARD:
        return ENTER, 0  # onto the start square: safe
    step += pos.roll
    if step == b.goal:
        return FINISH, 0
    square = b.squares[seat][step]
    if square is None:
        return OTHER, 0  # in the home column: out of every enemy's reach
    if square in b.safe:
        return SAFE, 0
    captured = 0
    threats = 1  # product over enemy seats of (6 - faces that hit)
    for other, there, zone in b.rivals[seat][square]:  # there: the landing square, in that seat's steps
        theirs = pieces[other]
        if zone.isdisjoint(theirs):  # no piece of that seat on the square or one throw behind it
            threats *= 6
            continue
        captured += theirs.count(there)
        if with_risk:
            # Pieces captured now are back in the yard; the others hit with one face each: as many faces as
            # distinct steps from which one throw reaches the square. Seats combine by the seed's formula, per
            # seat and multiplied, not by its prose (ruling LD-R7).
            threats *= 6 - len(b.behind[there].intersection(theirs))
    value = CAPTURE + captured if captured else OTHER
    return value, (216 - threats) if with_risk else 0


def candidates(game: Rules, pos: Position, level: str) -> list[int]:
    """The pieces ``level`` draws among, in piece order: every movable piece for easy (LD-CPU-1, each yard piece
    on its own: ruling LD-R15), the best by score (``assess``) for normal and hard (LD-CPU-2, LD-CPU-3; worked out here
    in one pass), their ties to be split by a draw (LD-CPU-4). One candidate means no draw."""
    pieces = game.movable(pos)
    if level == "easy" or len(pieces) == 1:
        return pieces
    with_risk = level != "normal"
    best, out = -1 << 30, []
    for p in pieces:
        value, risk = assess(game, pos, p, with_risk)  # score, written out: this runs once a move
        here = 216 * value - risk
        if here > best:
            best, out = here, [p]
        elif here == best:
            out.append(p)
    return out


def tie_split(game: Rules, pos: Position, tied: int) -> int:
    """Which of ``tied`` moves tied for best normal and hard play (LD-CPU-4): the number in [0, tied) that the
    decision stream gives first from its start, so it depends on the game's seed and the number of tied moves
    alone, never on the draws before it or the piece that moved last. It takes no output of the stream."""
    return streams.draw((pos.seed ^ game.board.decisions_xor) & streams.MASK, tied)[1]


def seeded_pick(game: Rules, pos: Position, level: str) -> int | None:
    """The pick the seed gives ``level`` here (ruling LD-R14): easy's next draw from the decision stream, the
    tie's split for normal and hard; None when the level draws nothing."""
    among = candidates(game, pos, level)
    if len(among) == 1:
        return None
    return streams.draw(pos.choice_state, len(among))[1] if level == "easy" else tie_split(game, pos, len(among))


def choose(game: Rules, pos: Position, level: str, pick: int | None = None) -> tuple[int, int, int]:
    """(piece, decision-stream outputs used, decision stream state after) for ``level``.

    A forced move (one legal piece) draws nothing. Easy draws one number from the decision stream for a uniform
    pick among the legal pieces (LD-CPU-1); normal and hard split a tie among their best moves by the game's seed
    (``tie_split``, LD-CPU-4), taking no output; neither touches the dice stream (LD-CPU-5). A ``pick`` given by
    the caller replaces easy's number (using up one output) or the tie's split (using none) (ruling LD-R14).
    Raises IllegalAction ``bad-pick`` when a choice is due and the pick is out of its range.
    """
    among = candidates(game, pos, level)
    if len(among) == 1:
        return among[0], 0, pos.choice_state
    if pick is not None and not 0 <= pick < len(among):
        raise IllegalAction("bad-pick", f"{level} draws among {len(among)} moves; a pick is 0 to "
                                        f"{len(among) - 1}, got {pick}")
    if level != "easy":
        return among[tie_split(game, pos, len(among)) if pick is None else pick], 0, pos.choice_state
    if pick is not None:
        return among[pick], 1, streams.splitmix64(pos.choice_state)[0]
    after, k, used = streams.draw(pos.choice_state, len(among))
    return among[k], used, after
