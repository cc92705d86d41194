"""Ludo's hints to the fuzzer (campaigns/fuzz/positions.py): set-ups of crowded squares, short of the cap, a last
piece; and seeds at the edge of its dice stream."""

from __future__ import annotations

from functools import cache
from typing import Any

from ....campaigns.fuzz.draw import Draw
from ....campaigns.fuzz.positions import Hints
from ... import JSON, streams


def ludo(d: Draw, engine: Any, ruleset: str) -> dict[str, JSON]:
    b = engine.board
    # The loop square where the pieces crowd: anywhere, or (a third of the time) one of the board's edges, a start
    # square (entering, safety) or the square before a seat's home column (the turn home), where rules meet.
    edges = sorted({*b.starts, *((start + b.last_track_step) % b.track for start in b.starts)})
    spot = d.pick(edges) if d.one_in(3) else d.below(b.track)
    pieces: dict[str, list[int]] = {}
    for i, seat in enumerate(b.seats):
        if d.one_in(5):
            continue  # all four in the yard
        steps = []
        for _ in range(b.pieces):
            where = d.below(10)
            if where < 2:
                steps.append(-1)
            elif where == 2:
                steps.append(b.goal)
            elif where == 3:
                steps.append(b.last_track_step + 1 + d.below(b.goal - b.last_track_step - 1))  # the home column
            else:
                step = (spot + d.below(15) - 7 - b.starts[i]) % b.track
                steps.append(step if step <= b.last_track_step else -1)
        if d.one_in(4):  # a stack: two or three pieces of this seat on one loop square (half the time the spot)
            square = next((s for s in steps if 0 <= s <= b.last_track_step), None)
            at_spot = (spot - b.starts[i]) % b.track
            if square is not None and at_spot <= b.last_track_step and d.one_in(2):
                steps[steps.index(square)] = square = at_spot
            if square is not None:
                for k in range(1 + d.below(2)):
                    steps[(steps.index(square) + 1 + k) % b.pieces] = square
        if d.one_in(5):  # the last piece: the others home, it a throw or two from the goal (the win, LD-END-1)
            steps = [b.goal] * b.pieces
            steps[d.below(b.pieces)] = b.goal - 1 - d.below(min(12, b.goal - b.last_track_step + 5))
        if all(s == b.goal for s in steps):
            steps[0] = b.goal - 1
        if d.one_in(16):  # a seat home already: a set-up the game refuses (ruling LD-R11)
            steps = [b.goal] * b.pieces
        pieces[seat] = steps
    throws = 0 if not d.one_in(4) else b.cap - 1 - d.below(6)  # a few throws short of the cap
    return {"pieces": pieces, "turn": d.pick(b.seats), "throws": throws}


@cache
def ludo_stream_edges(dice_xor: int, cap: int) -> tuple[tuple[int, int], ...]:
    """(seed, throws): seeds a start may name (0 to 2^53 - 1) whose dice stream, after ``throws`` faces, meets
    one of the four outputs an unbiased die throws away (ruling LD-R5) on its next throw. A seed drawn at
    random meets one once in about 2^62 throws, so a build taking the output mod 6 (or keeping the stream
    one output behind after one) is otherwise never told apart."""
    found = []
    for bad in streams.THROWN_AWAY_6:  # the states whose output is thrown away
        for k in range(1, cap):
            seed = ((bad - k * streams.GOLDEN) & streams.MASK) ^ dice_xor  # output k of this seed is bad's
            state = streams.after_faces((seed ^ dice_xor) & streams.MASK, k - 1)
            if seed < 1 << 53 and (state + streams.GOLDEN) & streams.MASK == bad:
                found.append((seed, k - 1))
    return tuple(sorted(found))


def ludo_edge(d: Draw, engine: Any, setup: dict[str, JSON]) -> tuple[int, dict[str, JSON]] | None:
    """A seed, and the drawn set-up with its ``throws`` a throw or three before an output the die throws away."""
    b = engine.board
    seed, throws = d.pick(ludo_stream_edges(b.dice_xor, b.cap))
    return seed, {**setup, "throws": max(0, throws - d.below(3))}


HINTS = Hints(setup=ludo, edge=ludo_edge)
