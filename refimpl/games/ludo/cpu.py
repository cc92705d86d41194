"""The three CPU levels of specs/ludo.md (rules LD-CPU-*), as pure functions of a position.

Every level looks only at the legal moves for the rolled face: no search, no chained sixes. Ties
between equally good moves are broken by one number from the game's seeded decision stream.
A position is a State or a Turn (board.py): anything with ``turn``, ``roll``, ``pieces`` and ``choice_state``;
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
    ruling LD-R9)."""
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


def risk_216(game: Rules, pos: Position, piece: int) -> int:
    """216 x the chance that the moved piece is captured on the next turn (LD-CPU-3, ruling LD-R9): per enemy
    seat k = the faces with which one of its pieces on the loop lands on the square (not a piece that would
    turn into its home column instead), combined as 1 - prod(1 - k/6) = (216 - prod(6 - k)) / 216, the seed's
    formula rather than its prose (ruling LD-R7). Safe squares, the home column and home count 0."""
    return assess(game, pos, piece, with_risk=True)[1]


def score(game: Rules, pos: Position, piece: int, with_risk: bool) -> int:
    """One move's score: its value, or with ``with_risk`` (hard) 216 x value - 216 x risk (ruling LD-R8)."""
    value, risk = assess(game, pos, piece, with_risk)
    return 216 * value - risk if with_risk else value


def scores(game: Rules, pos: Position, level: str) -> dict[int, int]:
    """Each legal move's score for ``level`` (normal or hard)."""
    return {p: score(game, pos, p, level != "normal") for p in game.movable(pos)}


def candidates(game: Rules, pos: Position, level: str) -> list[int]:
    """The pieces ``level`` draws among, in piece order: every movable piece for easy (LD-CPU-1, each yard piece
    on its own: ruling LD-R15), the best by ``scores`` for normal and hard (LD-CPU-2, LD-CPU-3; worked out here
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


def seeded_pick(game: Rules, pos: Position, level: str) -> int | None:
    """The pick the decision stream gives ``level`` here (ruling LD-R14), or None when it draws nothing."""
    among = candidates(game, pos, level)
    return streams.draw(pos.choice_state, len(among))[1] if len(among) > 1 else None


def choose(game: Rules, pos: Position, level: str, pick: int | None = None) -> tuple[int, int, int]:
    """(piece, decision-stream outputs used, decision stream state after) for ``level``.

    A forced move (one legal piece) draws nothing. Easy draws one number for a uniform pick among the
    legal pieces (LD-CPU-1); normal and hard draw one number only to break a tie among their best moves
    (LD-CPU-4), from the decision stream, never the dice stream (LD-CPU-5). A ``pick``
    given by the caller replaces that number and uses up one output (ruling LD-R14). Raises IllegalAction
    ``bad-pick`` when a draw is due and the pick is out of its range.
    """
    among = candidates(game, pos, level)
    if len(among) == 1:
        return among[0], 0, pos.choice_state
    if pick is not None:
        if not 0 <= pick < len(among):
            raise IllegalAction("bad-pick", f"{level} draws among {len(among)} moves; a pick is 0 to "
                                            f"{len(among) - 1}, got {pick}")
        return among[pick], 1, streams.splitmix64(pos.choice_state)[0]
    after, k, used = streams.draw(pos.choice_state, len(among))
    return among[k], used, after
