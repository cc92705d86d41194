"""Ludo's variant ``blockades`` (specs/ludo.md, "Variants"): two pieces of a seat on a loop square bar every enemy
piece from passing or landing there; judged against the spec's geometry written out afresh, and off by default."""

from __future__ import annotations

from hypothesis import given, settings

from refimpl.games import GAMES, IllegalAction
from refimpl.games.ludo import Move, Roll
from refimpl.rulebook.profiles import Profile
from tests.test_ludo import positions, spec_movable, spec_square

BLOCKADES = Profile("ludo", "blockades", {"blockades": True}).engine()
SEATS = GAMES["ludo"].board.seats


def spec_blocked(pieces: list[list[int]], seat: int, step: int, face: int) -> bool:
    """The variant's words: the squares passed and landed on (entering: the start square) against every other
    seat's loop squares holding two or more of its pieces."""
    path = [0] if step == -1 else list(range(step + 1, step + face + 1))
    squares = {spec_square(seat, s) for s in path if s <= 50}
    for other, mine in enumerate(pieces):
        held = [spec_square(other, s) for s in mine if 0 <= s <= 50]
        if other != seat and any(held.count(q) >= 2 for q in squares):
            return True
    return False


def rolled(engine, pieces: dict[str, list[int]], face: int, turn: str = "human"):  # type: ignore[no-untyped-def]
    return engine.apply(engine.new_state(seed=1, setup={"pieces": pieces, "turn": turn}), Roll(face))


def test_a_blockade_bars_passing_and_landing_but_not_its_own_seat() -> None:
    # cpu1 (seat 1) has two pieces on its step 2, which is human's loop step 15 (square 15).
    pieces = {"human": [12, 14, -1, -1], "cpu1": [2, 2, -1, -1], "cpu2": [-1] * 4, "cpu3": [-1] * 4}
    state = rolled(BLOCKADES, pieces, 3)
    assert state.phase == "roll" and state.turn == 1  # 12 -> 15 lands on it, 14 -> 17 passes it: the throw passes
    default = rolled(GAMES["ludo"], pieces, 3)
    assert GAMES["ludo"].movable(default) == [0, 1]  # by the seed a stack blocks nobody (LD-STACK-1)
    own = rolled(BLOCKADES, pieces, 4, turn="cpu1")
    assert BLOCKADES.movable(own) == [0, 1]


def test_a_barred_piece_is_refused_and_nothing_changes() -> None:
    pieces = {"human": [12, 20, -1, -1], "cpu1": [2, 2, -1, -1], "cpu2": [-1] * 4, "cpu3": [-1] * 4}
    state = rolled(BLOCKADES, pieces, 5)
    assert BLOCKADES.movable(state) == [1]
    try:
        BLOCKADES.apply(state, Move(0))
    except IllegalAction as exc:
        assert exc.code == "piece-cannot-move"
    else:
        raise AssertionError("a move through a blockade was accepted")


def test_a_blockade_on_a_start_square_bars_entering() -> None:
    # cpu3 (seat 3) on its step 13 stands on square 0 + 52 = human's start square.
    pieces = {"human": [-1, -1, -1, 30], "cpu1": [-1] * 4, "cpu2": [-1] * 4, "cpu3": [13, 13, -1, -1]}
    assert BLOCKADES.movable(rolled(BLOCKADES, pieces, 6)) == [3]


@settings(max_examples=300, deadline=None)
@given(positions())
def test_the_movable_pieces_are_the_spec_geometrys_under_blockades(case: tuple[list[list[int]], int, int]) -> None:
    pieces, seat, face = case
    state = rolled(BLOCKADES, dict(zip(SEATS, pieces)), face, turn=SEATS[seat])
    want = [p for p in spec_movable(pieces[seat], face) if not spec_blocked(pieces, seat, pieces[seat][p], face)]
    if want:
        assert [a.piece for a in BLOCKADES.legal_actions(state)] == want
    else:
        assert state.phase == "roll"  # every piece barred or unable: the throw passed (LD-MOVE-3)
