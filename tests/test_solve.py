"""``refimpl solve`` (issue 45): the matrix-game solver's answers are optimal by definition; Beacon Lines' and
Lantern Quay's solvers agree with a brute-force count on small cases and with the spec's odds; a simulated
policy never beats the solved value beyond its interval; bad input is exit 2."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from refimpl.campaigns.matrixgame import solve_matrix
from refimpl.campaigns.simulate import simulate, summary_json
from refimpl.cli import main
from refimpl.games import GAMES

ROOT = Path(__file__).resolve().parent.parent


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 4), st.integers(1, 4), st.data())
def test_the_matrix_game_solution_is_optimal_by_definition(m: int, n: int, data: Any) -> None:
    """Both mixes are probability vectors; the row mix gets at least the value against every column, the column
    mix gives at most the value against every row (so neither can do better: that is optimality)."""
    a = [[Fraction(data.draw(st.integers(-3, 3))) for _ in range(n)] for _ in range(m)]
    value, p, q = solve_matrix(a)
    assert sum(p) == 1 and sum(q) == 1 and min(p) >= 0 and min(q) >= 0
    assert all(sum(a[i][j] * p[i] for i in range(m)) >= value for j in range(n))
    assert all(sum(a[i][j] * q[j] for j in range(n)) <= value for i in range(m))


def _minimax(engine: Any, state: Any) -> Fraction:
    """Beacon Lines' value by brute force where a pure saddle exists at every position (else None): the best
    guaranteed worth of red's pure claims, checked equal to blue's."""
    if state.result is not None:
        return {"red": Fraction(1), "blue": Fraction(-1), "draw": Fraction(0)}[state.result]
    from refimpl.games.beacon_lines.engine import Claim

    red, blue = (engine.targets(state, f) for f in ("red", "blue"))
    table = [[_minimax(engine, engine.apply(state, Claim.of(red=r, blue=b))) for b in blue] for r in red]
    lower = max(min(row) for row in table)
    upper = min(max(row[j] for row in table) for j in range(len(blue)))
    return lower if lower == upper else solve_matrix(table)[0]


@pytest.mark.parametrize("ruleset", ["v0", "v1"])
def test_beacon_lines_value_agrees_with_brute_force_from_every_first_round_position(ruleset: str) -> None:
    from refimpl.games.beacon_lines.engine import Claim
    from refimpl.games.beacon_lines.kit.solve import Solver

    engine = GAMES["beacon-lines"]
    start = engine.new_state(ruleset)
    solver = Solver(engine)
    assert solver.value(start) == _minimax(engine, start)
    for r in engine.targets(start, "red"):
        for b in engine.targets(start, "blue"):
            after = engine.apply(start, Claim.of(red=r, blue=b))
            assert solver.value(after) == _minimax(engine, after)


def test_lantern_quay_from_the_last_round_agrees_with_counting_every_roll_and_way() -> None:
    """From a round-3 position: the solver's chances against every ordered roll and every way of placing it
    (each assignment of the dice to the slots, and under v0 each order) played through the engine."""
    from refimpl.games.lantern_quay.engine import Place, Roll, State
    from refimpl.games.lantern_quay.kit.solve import Solver

    engine = GAMES["lantern-quay"]
    slots = engine.tables.slots
    for ruleset in ("v0", "v1"):
        for brass, modules, lenses in ((3, 1, 2), (0, 2, 2), (5, 0, 1), (2, 1, 1)):
            state = State(ruleset=ruleset, round=3, brass=brass, modules=modules, lenses=lenses)
            best, rand = Fraction(0), Fraction(0)
            for roll in itertools.product(range(1, 7), repeat=3):
                ends = []
                for dice in itertools.permutations(roll):
                    for order in itertools.permutations(range(3)):
                        s = engine.apply(state, Roll(roll))
                        for k in order:
                            s = engine.apply(s, Place(slots[k], dice[k]))
                        ends.append(Fraction(int(s.result == "restored")))
                best += max(ends) / 216
                rand += sum(ends, Fraction(0)) / len(ends) / 216
            solver = Solver(engine)
            assert solver.chance(state, "best") == best, (ruleset, brass, modules, lenses)
            assert solver.chance(state, "random") == rand, (ruleset, brass, modules, lenses)


def test_lantern_quay_from_the_start_is_the_specs_odds() -> None:
    from refimpl.games.lantern_quay.kit.solve import Solver
    from refimpl.games.lantern_quay.kit.tables import restoration_chance

    engine = GAMES["lantern-quay"]
    solver = Solver(engine)
    start = engine.new_state("v1")
    assert solver.chance(start, "best") == restoration_chance("v1", "best") == Fraction(2236, 19683)
    assert solver.chance(start, "random") == restoration_chance("v1", "random") == Fraction(74, 6561)


@pytest.mark.parametrize("policy", ["random", "greedy", "best"])
def test_no_simulated_keeper_restores_more_often_than_the_best_play_allows(policy: str) -> None:
    """Lantern Quay v1: every policy's share of restorations has an interval whose low end is at most the solved
    best chance; the ``best`` policy's interval holds it."""
    doc = summary_json(simulate("lantern-quay", 1500, [policy], 11, jobs=2))
    restored = next(r for r in doc["results"] if r["result"] == "restored")
    best = 2236 / 19683
    assert restored["ci95"][0] <= best
    if policy == "best":
        assert restored["ci95"][0] <= best <= restored["ci95"][1]


def test_beacon_lines_solved_play_against_random_claims_does_at_least_the_value() -> None:
    """A solved faction cannot be exploited: against random claims, red's worth (wins less losses, a share of
    the games) is at least the value (0) beyond its interval when both play solved, and solved beats random."""
    from refimpl.games.beacon_lines.kit.simulate import solved

    engine = GAMES["beacon-lines"]
    rng = random.Random(3)
    worth = []
    for seed in range(400):
        state, choose = engine.new_state("v1"), random.Random(seed)
        while state.result is None:
            mine = solved(engine, state, choose)
            theirs = rng.choice(engine.targets(state, "blue"))
            from refimpl.games.beacon_lines.engine import Claim

            red_target = dict(mine.targets)["red"][0]
            state = engine.apply(state, Claim.of(red=red_target, blue=theirs))
        worth.append({"red": 1, "blue": -1, "draw": 0}[state.result])
    mean = sum(worth) / len(worth)
    assert mean >= 0  # the value is 0: solved red never does worse on average (here, far better)


def test_solve_command_and_its_bad_input() -> None:
    run = CliRunner().invoke
    ok = run(main, ["solve", "lantern-quay", "--trace", str(ROOT / "traces/lantern-quay/draft-order-under-v1.yaml"),
                    "--at", "4"])
    assert ok.exit_code == 0 and "best: 79/729" in ok.output
    for args, said in ((["conquest-king"], "too large to solve exactly (solved: beacon-lines, lantern-quay)"),
                       (["lantern-quay", "--ruleset", "v9"], "no ruleset 'v9'"),
                       (["lantern-quay", "--at", "3"], "--at needs --trace"),
                       (["lantern-quay", "--roll", "x"], "comma-separated"),
                       (["beacon-lines", "--roll", "1,2,3"], "Beacon Lines has no dice"),
                       (["lantern-quay", "--trace", str(ROOT / "traces/beacon-lines/round-1.yaml")],
                        "a trace of beacon-lines, not lantern-quay"),
                       (["lantern-quay", "--trace", str(ROOT / "traces/lantern-quay/draft-order-under-v1.yaml"),
                         "--at", "999"], "the trace has")):
        bad = run(main, ["solve", *args])
        assert bad.exit_code == 2 and said in bad.output and "Traceback" not in bad.output, (args, bad.output)


def test_a_variant_changes_the_solved_chance_and_the_best_play_holds_it(tmp_path: Path) -> None:
    """Lantern Quay with two lenses to restore (a variant, ``lenses: 2``): solved exactly, and the ``best``
    policy's restorations under the same profile hold that chance in their interval."""
    from refimpl.campaigns.solve import solve
    from refimpl.rulebook.profiles import load_profile

    path = tmp_path / "two.yaml"
    path.write_text("game: lantern-quay\nname: two-lenses\nset:\n  lenses: 2\n", encoding="utf-8")
    profile = load_profile(str(path))
    found = solve("lantern-quay", profile=profile).found
    assert found["best"] == Fraction(12238, 19683) and found["best"] > Fraction(2236, 19683)
    doc = summary_json(simulate("lantern-quay", 1200, ["best"], 5, jobs=2, profile=profile))
    restored = next(r for r in doc["results"] if r["result"] == "restored")
    assert restored["ci95"][0] <= float(found["best"]) <= restored["ci95"][1]


def test_beacon_lines_variants_change_who_wins(tmp_path: Path) -> None:
    """A win at 3 points with any lead (variants ``win.min_score``, ``win.min_lead``) ends random games sooner
    than the seed's 4 with a lead of 1: the what-if says so, and the solved value stays 0 (the board is still
    symmetric)."""
    from refimpl.campaigns.simulate.compare import compare, differences
    from refimpl.campaigns.solve import solve
    from refimpl.rulebook.profiles import Profile

    seed, quick = Profile("beacon-lines", "seed"), Profile("beacon-lines", "quick", {"win.min_score": 3})
    rows = {r["measure"]: r for r in differences(compare("beacon-lines", 600, [("v1", seed), ("v1", quick)]))}
    assert rows["rounds"]["difference"] < 0 and rows["rounds"]["real"]
    assert solve("beacon-lines", profile=quick).found["value"] == 0


def test_the_odds_table_and_the_solver_agree_under_a_variant(tmp_path: Path) -> None:
    """``refimpl tables lantern-quay odds --profile`` (the spec table's count over round starts) and ``refimpl
    solve`` (through every position) give the same fractions under the two-lens variant: two ways, one answer."""
    import json

    path = tmp_path / "two.yaml"
    path.write_text("game: lantern-quay\nname: two-lenses\nset:\n  lenses: 2\n", encoding="utf-8")
    table = CliRunner().invoke(main, ["tables", "lantern-quay", "odds", "--profile", str(path), "--format", "json"])
    assert table.exit_code == 0, table.output
    odds = {(r["ruleset"], r["allocation"]): Fraction(r["restored"]["numerator"], r["restored"]["denominator"])
            for r in json.loads(table.output)["odds"]}
    solved = json.loads(CliRunner().invoke(main, ["solve", "lantern-quay", "--profile", str(path), "--format",
                                                  "json"]).output)["solution"]
    assert odds["v1", "best"] == Fraction(solved["best"]["numerator"], solved["best"]["denominator"]) \
        == Fraction(12238, 19683)
    assert odds["v1", "random"] == Fraction(solved["random"]["numerator"], solved["random"]["denominator"])
