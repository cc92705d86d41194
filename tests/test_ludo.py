"""Ludo: the seeded streams, the CPU arithmetic, the fast simulation path and the statistics."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from refimpl.campaigns.simulate import SimulateError, game_seeds, simulate, wilson
from refimpl.games import GAMES, BadSetup, IllegalAction
from refimpl.games.ludo import Cpu, Move, Roll, cpu
from refimpl.games.ludo.engine import Turn
from refimpl.games.ludo.kit.simulate import fast
from refimpl.games.streams import draw, faces, splitmix64
from tests.engine_extras import from_view, risk_216, scores

LUDO = GAMES["ludo"]
ROOT = Path(__file__).resolve().parent.parent


def test_splitmix64_matches_the_published_test_vector() -> None:
    state, outputs = 0, []
    for _ in range(3):
        state, x = splitmix64(state)
        outputs.append(x)
    assert outputs == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_the_documented_faces_of_seed_1() -> None:
    assert faces(1, 12) == [6, 2, 1, 6, 4, 3, 4, 4, 1, 5, 4, 5]


def test_draws_are_unbiased_by_rejection() -> None:
    # An output at or above 2^64 - (2^64 mod n) is thrown away. Find a state whose next output is one.
    limit = (1 << 64) - (1 << 64) % 6
    state, x = splitmix64(0)
    assert x < limit  # the ordinary case: one output, one number
    assert draw(0, 6) == (state, x % 6, 1)
    assert all(0 <= draw(s, 6)[1] < 6 for s in range(100))
    counts = [0] * 6
    for f in faces(12345, 6000):
        counts[f - 1] += 1
    assert all(900 < c < 1100 for c in counts), counts


def position(pieces: dict[str, list[int]], roll: int, seed: int = 1, turn: str = "human"):  # type: ignore[no-untyped-def]
    return LUDO.apply(LUDO.new_state(seed=seed, setup={"pieces": pieces, "turn": turn}), Roll(roll))


def test_risk_numbers_of_the_spec() -> None:
    s = position({"human": [14, 30, -1, -1], "cpu1": [2, -1, -1, -1], "cpu2": [5, -1, -1, -1],
                  "cpu3": [42, -1, -1, -1]}, 3)
    assert risk_216(LUDO, s, 0) == 36  # 1/6
    assert risk_216(LUDO, s, 1) == 66  # 11/36, less than 2/6 (the seed's erratum)
    assert scores(LUDO, s, "hard") == {0: -36, 1: -66}
    assert scores(LUDO, s, "normal") == {0: 0, 1: 0}


def test_risk_is_zero_on_safe_squares_home_column_and_home() -> None:
    s = position({"human": [5, 50, 54, -1], "cpu3": [20, -1, -1, -1]}, 3)  # cpu3 sits on square 7
    assert [risk_216(LUDO, s, p) for p in (0, 1, 2)] == [0, 0, 0]


def test_a_piece_about_to_turn_home_threatens_nothing() -> None:
    # cpu1 at its step 48 is square 9; square 11 would be its step 50: reachable. Its step 49 (square 10)
    # plus 3 would be step 52, in its home column: it cannot reach square 13+ on the loop.
    s = position({"human": [8, -1, -1, -1], "cpu1": [48, -1, -1, -1]}, 3)  # human lands on square 11
    assert risk_216(LUDO, s, 0) == 216 - 5 * 6 * 6
    s = position({"human": [10, -1, -1, -1], "cpu1": [49, -1, -1, -1]}, 2)  # square 12; cpu1 would need step 51
    assert risk_216(LUDO, s, 0) == 0


def test_captured_pieces_threaten_nothing_after_the_move() -> None:
    # Human lands on square 10 capturing cpu1 there; cpu1's other piece 3 behind still threatens.
    s = position({"human": [7, -1, -1, -1], "cpu1": [49, 46, -1, -1]}, 3)
    assert risk_216(LUDO, s, 0) == 216 - 5 * 6 * 6


@st.composite
def games(draw_: st.DrawFn) -> tuple[int, list[str], int]:
    return (draw_(st.integers(0, 2**64 - 1)), draw_(st.lists(st.sampled_from(["easy", "normal", "hard"]),
                                                              min_size=4, max_size=4)), draw_(st.integers(1, 120)))


@settings(max_examples=40, deadline=None)
@given(games())
def test_the_fast_path_and_apply_agree_and_keep_the_invariants(case: tuple[int, list[str], int]) -> None:
    seed, levels, n = case
    state, turn = LUDO.new_state(seed=seed), Turn(LUDO.new_state(seed=seed))
    for _ in range(n):
        if state.result is not None:
            break
        action = Roll() if state.phase == "roll" else Cpu(levels[state.turn])
        state = LUDO.apply(state, action)
        if turn.phase == "roll":
            LUDO.throw(turn, None)
        else:
            LUDO.cpu_move(turn, levels[turn.turn])
        assert turn.freeze(state) == state
        view = LUDO.view(state)
        assert from_view(LUDO, json.loads(json.dumps(view))) == state
        squares: dict[int, set[str]] = {}
        for k, seat in enumerate(LUDO.board.seats):
            for p in view["pieces"][seat]:
                assert -1 <= p <= 57
                sq = LUDO.board.square(k, p)
                if sq is not None and sq not in LUDO.board.safe:
                    squares.setdefault(sq, set()).add(seat)
        assert all(len(colours) == 1 for colours in squares.values()), "two colours share a plain square"


# --- the engine's tables and the CPU's arithmetic against the spec, written out the slow way ---------------
# specs/ludo.md: seat k starts on square 13k, stars 8 squares further; steps 0-50 on the loop, 57 home.
SPEC_SAFE = {0, 13, 26, 39, 8, 21, 34, 47}


def spec_square(seat: int, step: int) -> int | None:
    return (13 * seat + step) % 52 if 0 <= step <= 50 else None


def spec_movable(mine: list[int], face: int) -> list[int]:
    return [i for i, p in enumerate(mine) if (p == -1 and face == 6) or (0 <= p and p + face <= 57)]


def spec_assess(pieces: list[list[int]], seat: int, piece: int, face: int) -> tuple[int, int]:
    """(value, 216 x risk), rulings LD-R7 to LD-R9, by looking at every enemy piece and every face."""
    step = pieces[seat][piece]
    if step == -1:
        return 2, 0
    if step + face == 57:
        return 3, 0
    square = spec_square(seat, step + face)
    if square is None:
        return 0, 0
    if square in SPEC_SAFE:
        return 1, 0
    captured, threats = 0, 1
    for other, theirs in enumerate(pieces):
        if other != seat:
            captured += sum(spec_square(other, p) == square for p in theirs)
            hits = {f for p in theirs for f in range(1, 7) if p >= 0 and spec_square(other, p + f) == square}
            threats *= 6 - len(hits)
    return (3 + captured if captured else 0), 216 - threats


def spec_land(pieces: list[list[int]], seat: int, piece: int, face: int) -> list[list[int]]:
    after = [list(p) for p in pieces]
    after[seat][piece] = 0 if after[seat][piece] == -1 else after[seat][piece] + face
    square = spec_square(seat, after[seat][piece])
    if square is not None and square not in SPEC_SAFE:
        after = [mine if k == seat else [-1 if spec_square(k, p) == square else p for p in mine]
                 for k, mine in enumerate(after)]
    return after


def test_the_board_tables_are_the_spec_geometry() -> None:
    b = LUDO.board
    assert b.safe == SPEC_SAFE
    for seat in range(4):
        assert [b.square(seat, step) for step in range(-1, 58)] == [spec_square(seat, s) for s in range(-1, 58)]
        assert list(b.squares[seat]) == [spec_square(seat, s) for s in range(58)]
        for square in range(52):
            for other, there, zone in b.rivals[seat][square]:
                assert there == (square - 13 * other) % 52
                assert zone == {p for p in range(51) for d in range(7) if spec_square(other, p + d) == square}
            assert [r[0] for r in b.rivals[seat][square]] == [k for k in range(4) if k != seat]
    for face in range(1, 7):
        for step in range(-1, 58):
            assert LUDO.can_move[face][step] == (spec_movable([step], face) == [0])


@st.composite
def positions(draw_: st.DrawFn) -> tuple[list[list[int]], int, int]:
    seat_steps = st.lists(st.one_of(st.integers(-1, 57), st.sampled_from([-1, 0, 50, 51, 56, 57])),
                          min_size=4, max_size=4).filter(lambda mine: mine != [57] * 4)
    return draw_(st.lists(seat_steps, min_size=4, max_size=4)), draw_(st.integers(0, 3)), draw_(st.integers(1, 6))


@settings(max_examples=300, deadline=None)
@given(positions())
def test_moves_values_risks_and_captures_agree_with_the_spec(case: tuple[list[list[int]], int, int]) -> None:
    pieces, seat, face = case
    seats = LUDO.board.seats
    start = LUDO.new_state(seed=1, setup={"pieces": dict(zip(seats, pieces)), "turn": seats[seat]})
    state = LUDO.apply(start, Roll(face))
    movable = spec_movable(pieces[seat], face)
    assert LUDO.movable(state) == movable
    if not movable:
        assert state.phase == "roll"
        return
    for piece in movable:
        value, risk = spec_assess(pieces, seat, piece, face)
        assert cpu.assess(LUDO, state, piece, True) == (value, risk)
        assert cpu.assess(LUDO, state, piece, False) == (value, 0)
        assert [list(p) for p in LUDO.apply(state, Move(piece)).pieces] == spec_land(pieces, seat, piece, face)
    for level in ("normal", "hard"):
        score = scores(LUDO, state, level)
        assert list(score) == movable
        assert cpu.candidates(LUDO, state, level) == [p for p in movable if score[p] == max(score.values())]


def test_whole_games_are_the_ones_the_reference_played_before_it_was_made_faster() -> None:
    golden = json.loads((ROOT / "tests" / "data" / "ludo-games.json").read_text())["games"]
    seeds = game_seeds(2026, 100)
    for mix in golden.values():
        levels = tuple(mix["levels"])
        got = []
        for seed in seeds:
            t = Turn(LUDO.new_state(seed=seed))
            while t.result is None:
                LUDO.throw(t, None)
                if t.phase == "move":
                    LUDO.cpu_move(t, levels[t.turn])
            got.append([t.result, t.throws, t.decisions])
        assert got == mix["results"], levels
        assert [[fast(LUDO, seed, levels)[0], int(fast(LUDO, seed, levels)[2][0])] for seed in seeds[:10]] == \
            [r[:2] for r in got[:10]]


@settings(max_examples=8, deadline=None)
@given(games())
def test_a_whole_game_through_apply_is_the_game_on_one_turn(case: tuple[int, list[str], int]) -> None:
    seed, levels, _n = case
    state, turn = LUDO.new_state(seed=seed), Turn(LUDO.new_state(seed=seed))
    while state.result is None:
        state = LUDO.apply(state, Roll() if state.phase == "roll" else Cpu(levels[state.turn]))
        if turn.phase == "roll":
            LUDO.throw(turn, None)
        else:
            LUDO.cpu_move(turn, levels[turn.turn])
        assert turn.freeze(state) == state  # every field, the dice and decision streams too


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["easy", "normal", "hard"]), st.sampled_from(["easy", "normal", "hard"]))
def test_cpu_levels_never_change_the_faces(seed: int, a: str, b: str) -> None:
    def thrown(level: str) -> list[int]:
        t, out = Turn(LUDO.new_state(seed=seed)), []
        while t.result is None and len(out) < 60:
            if t.phase == "roll":
                LUDO.throw(t, None)
                out.append(t.last_face)
            else:
                LUDO.cpu_move(t, level)
        return out

    first, second = thrown(a), thrown(b)
    assert first[:min(len(first), len(second))] == second[:min(len(first), len(second))]
    assert first == faces(seed, len(first))


def test_legal_moves_are_exactly_the_accepted_ones() -> None:
    s = position({"human": [55, 12, 12, 57], "cpu2": [3, -1, -1, -1]}, 4)
    legal = {a.piece for a in LUDO.legal_actions(s)}
    assert legal == {1, 2}
    for piece in range(4):
        if piece in legal:
            LUDO.apply(s, Move(piece))
        else:
            with pytest.raises(IllegalAction):
                LUDO.apply(s, Move(piece))


def test_bad_setups_are_refused() -> None:
    for setup in ({"pieces": {"human": [1, 2, 3]}}, {"pieces": {"blue": [1, 2, 3, 4]}}, {"turn": "cpu9"},
                  {"throws": 10000}, {"pieces": {"cpu1": [57, 57, 57, 57]}}, {"board": 1}):
        with pytest.raises(BadSetup):
            LUDO.new_state(seed=1, setup=setup)


def test_statistics_tally() -> None:
    record = {"played": 0, "won": 0, "lost": 0}
    for result in ("human", "cpu2", "capped", None, "cpu1"):
        record = LUDO.record(record, result)
    assert record == {"played": 5, "won": 1, "lost": 2}


def test_wilson_interval() -> None:
    low, high = wilson(50, 100)
    assert round(low, 4) == 0.4038 and round(high, 4) == 0.5962
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)


def test_a_simulation_depends_on_seed_and_games_only() -> None:
    one = simulate("ludo", 40, ["easy", "normal", "hard", "easy"], seed=3, jobs=1)
    two = simulate("ludo", 40, ["easy", "normal", "hard", "easy"], seed=3, jobs=2)
    assert (one.results, one.figures, one.length) == (two.results, two.figures, two.length)
    assert sum(one.results.values()) == 40
    seeds = game_seeds(3, 2)
    assert one.figures["throws"][0] >= fast(LUDO, seeds[0], ("easy", "normal", "hard", "easy"))[2][0]


def test_simulate_rejects_bad_levels() -> None:
    with pytest.raises(SimulateError, match="unknown policy 'genius'"):
        simulate("ludo", 1, ["easy", "easy", "easy", "genius"], seed=0)
    with pytest.raises(SimulateError, match="one policy per seat"):
        simulate("ludo", 1, ["easy", "hard"], seed=0)


def test_simulate_command() -> None:
    proc = subprocess.run([sys.executable, "-m", "refimpl", "simulate", "ludo", "--games", "30", "--seed", "2",
                           "--seats", "hard,easy,easy,easy", "--format", "json"], cwd=ROOT, capture_output=True,
                          text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert [r["seat"] for r in doc["seats"]] == ["human", "cpu1", "cpu2", "cpu3"]
    assert sum(r["count"] for r in doc["seats"]) + doc["results"][-1]["count"] == 30
    assert doc["results"][-1]["result"] == "capped" and doc["record"]["played"] == 30
    one = subprocess.run([sys.executable, "-m", "refimpl", "simulate", "ludo", "--games", "5", "--seats", "easy"],
                         cwd=ROOT, capture_output=True, text=True, check=False)
    assert one.returncode == 0 and "seats easy,easy,easy,easy" in one.stdout  # one name: every seat
    bad = subprocess.run([sys.executable, "-m", "refimpl", "simulate", "ludo", "--seats", "easy,hard"], cwd=ROOT,
                         capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and "one policy per seat" in bad.stderr and "Traceback" not in bad.stderr
