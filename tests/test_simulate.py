"""``refimpl simulate GAME`` (issue 45): every game plays whole games through its unit's Simulation; the summary
adds up to the games played; CSV says what the JSON says; an SVG chart with a mark per seat (or result); policies
rotated through the seats; results that depend on the seed and the games only, whatever the executor; Ludo's speed
path plays the very games of the plain path; bad input is exit 2 naming what is allowed."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from refimpl.campaigns.simulate import (
    UNFINISHED,
    SimulateError,
    Simulation,
    game_seeds,
    play,
    seat_policies,
    simulate,
    simulation,
    summary_json,
    summary_svg,
    uniform,
)
from refimpl.cli import main
from refimpl.games import GAMES

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "refimpl" / "schemas" / "output" / "simulate.schema.json").read_text())
SVG = "{http://www.w3.org/2000/svg}"
LEVELS = ["easy", "normal", "hard", "easy"]
QUICK = {"beacon-lines": 200, "lantern-quay": 200, "ludo": 30, "black-fog": 20, "conquest-king": 2}


def run(game: str, *args: str, code: int = 0) -> Any:
    result = CliRunner().invoke(main, ["simulate", game, *args])
    assert result.exit_code == code, (result.output, result.exception)
    return result


def rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_simulates_and_its_summary_adds_up(game: str) -> None:
    """Each game's whole games end in one of its results (none stopped at the cap), the JSON fits its schema, the
    results add up to the games, the seats' wins to the results that name them, and every figure of the game's
    unit has a mean inside its interval."""
    n = QUICK[game]
    doc = summary_json(simulate(game, n, None, 3))
    jsonschema.validate(doc, SCHEMA)
    info = GAMES[game].info
    assert doc["game"] == game and doc["ruleset"] == info.default_ruleset and doc["games"] == n
    results = {r["result"]: r["count"] for r in doc["results"]}
    assert list(results) == list(info.results) and sum(results.values()) == n
    assert [r["seat"] for r in doc["seats"]] == [p for p in info.players if set(info.results) & set(info.players)]
    for seat in doc["seats"]:
        assert seat["count"] == results[seat["seat"]]
    figures = simulation(game).figures
    assert [f["name"] for f in doc["figures"]] == [f.name for f in figures] and figures
    for f in doc["figures"]:
        assert f["ci95"][0] <= f["mean"] <= f["ci95"][1]
    assert doc["average_length"] > 0 and (doc["record"] is None) == (not info.statistics)


def test_ludo_speed_path_plays_the_games_of_the_plain_path() -> None:
    """Ludo's CPU levels on one mutable Turn (the fast path) give the very summary that legal_actions and apply
    give, game by game (speed work tested against the plain path); a random seat takes the plain path."""
    engine, sim = GAMES["ludo"], simulation("ludo")
    for seed in game_seeds(5, 12):
        levels = tuple(seat_policies(("hard", "easy", "normal", "easy"), seed % 4, True))
        assert sim.fast is not None and sim.fast(engine, seed, levels) == play(engine, sim, None, seed, levels)
    fast = summary_json(simulate("ludo", 40, LEVELS, 2, rotate=True))
    assert summary_json(simulate("ludo", 40, LEVELS, 2, rotate=True, fast=False)) == fast
    mixed = summary_json(simulate("ludo", 20, ["random", "hard", "hard", "hard"], 2))
    assert mixed["policies"] == ["random", "hard", "hard", "hard"] and mixed["games"] == 20


def test_a_game_that_never_ends_is_stopped_and_counted_unfinished() -> None:
    """A game past its cap of actions is stopped: its result ``unfinished``, counted like any other result."""
    engine = GAMES["ludo"]
    capped = Simulation(figures=simulation("ludo").figures, policies=simulation("ludo").policies,
                        mover=simulation("ludo").mover, cap=50)
    result, length, figures = play(engine, capped, None, 7, ("easy",) * 4)
    assert (result, length) == (UNFINISHED, 50) and figures[0] > 0


@pytest.mark.parametrize("rotate", [False, True])
def test_csv_parses_and_says_what_the_json_says(rotate: bool) -> None:
    args = ["--games", "60", "--seed", "4", "--seats", ",".join(LEVELS), "--quiet"] + (["--rotate"] if rotate else [])
    doc = json.loads(run("ludo", *args, "--format", "json").stdout)
    jsonschema.validate(doc, SCHEMA)
    table = rows(run("ludo", *args, "--format", "csv").stdout)
    for kind, key, want in (("seat", "seat", doc["seats"]), ("policy", "policy", doc["per_policy"]),
                            ("result", "result", doc["results"])):
        got = [r for r in table if r["row"] == kind]
        assert [r["name"] for r in got] == [w[key] for w in want]
        for row, w in zip(got, want):
            assert row["policy"] == (w["policy"] or "") and int(row["seats_taken"]) == w["seats_taken"]
            assert int(row["games"]) == doc["games"] == w["share"]["denominator"] == 60
            assert int(row["count"]) == w["count"] == w["share"]["numerator"]
            assert float(row["value"]) == w["share"]["probability"]
            assert [float(row["ci95_low"]), float(row["ci95_high"])] == w["ci95"]
    figures = {r["name"]: r for r in table if r["row"] == "figure"}
    assert float(figures["length"]["value"]) == doc["average_length"]
    assert float(figures["throws"]["value"]) == doc["figures"][0]["mean"]
    if rotate:
        assert all(s["policy"] is None for s in doc["seats"])
        assert [(r["policy"], r["seats_taken"]) for r in doc["per_policy"]] == [("easy", 2), ("normal", 1), ("hard", 1)]
    else:
        assert [s["policy"] for s in doc["seats"]] == LEVELS and doc["per_policy"] == []


@pytest.mark.parametrize("rotate", [False, True])
def test_the_svg_is_xml_with_one_mark_per_seat_and_an_even_share_per_mark(rotate: bool, tmp_path: Path) -> None:
    """A bar per seat (and per policy when they rotate), each with the even share of its row: one game in the
    seats for a seat, the seats a policy fills over the seats for a policy (a level given twice: half)."""
    plot = tmp_path / "rates.svg"
    args = ["--games", "40", "--seed", "1", "--seats", ",".join(LEVELS), "--plot", str(plot), "--format", "json"]
    doc = json.loads(run("ludo", *args, *(["--rotate"] if rotate else [])).stdout)
    root = ET.parse(plot).getroot()
    assert root.tag == f"{SVG}svg"
    bars = [e for e in root.iter(f"{SVG}rect") if e.get("class") == "bar"]
    assert [e.get("data-seat") for e in bars if e.get("data-seat")] == ["human", "cpu1", "cpu2", "cpu3"]
    for bar, row in zip(bars, doc["seats"]):
        assert float(bar.get("data-share", "")) == row["share"]["probability"]
    policies = [e.get("data-policy") for e in bars if e.get("data-policy")]
    assert policies == (["easy", "normal", "hard"] if rotate else [])
    evens = [float(e.get("x1", "")) for e in root.iter(f"{SVG}line") if e.get("class") == "even"]
    assert len(evens) == len(bars) and len(set(evens[:4])) == 1
    if rotate:  # easy sits in two seats: its even share is twice a seat's
        left = 170
        assert evens[4] - left == pytest.approx(2 * (evens[0] - left), abs=0.2)
    words = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert ("human (easy)" in words) if not rotate else ("easy x2 (any seat)" in words)
    assert "95% Wilson interval" in words


def test_a_game_whose_results_name_no_seat_charts_its_results(tmp_path: Path) -> None:
    plot = tmp_path / "lq.svg"
    run("lantern-quay", "--games", "50", "--plot", str(plot), "--quiet")
    bars = [e for e in ET.parse(plot).getroot().iter(f"{SVG}rect") if e.get("class") == "bar"]
    assert [e.get("data-result") for e in bars] == ["restored", "incomplete"]


def test_svg_labels_are_escaped() -> None:
    summary = simulate("ludo", 8, LEVELS, 2)
    summary.seats = ("<human>&", "cpu1", "cpu2", 'cpu"3')
    summary.possible = summary.seats
    root = ET.fromstring(summary_svg(summary))
    assert [e.get("data-seat") for e in root.iter(f"{SVG}rect") if e.get("class") == "bar"] == \
        ["<human>&", "cpu1", "cpu2", 'cpu"3']


def test_plot_is_svg_or_png() -> None:
    result = CliRunner().invoke(main, ["simulate", "ludo", "--games", "5", "--plot", "rates.gif"])
    assert result.exit_code == 2 and "written as SVG or PNG" in result.output


def test_a_png_plot_is_the_svg_drawn_by_chromium(tmp_path: Path) -> None:
    """``--plot FILE.png``: the chart as a PNG the size of the SVG (Chromium draws it, offline)."""
    from tests.test_html_report import _browser_or_skip

    _browser_or_skip()
    run("ludo", "--games", "40", "--plot", str(tmp_path / "rates.png"), "--quiet")
    data = (tmp_path / "rates.png").read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    svg = ET.fromstring(summary_svg(simulate("ludo", 40, None, 0)))
    assert (width, height) == (int(svg.get("width", "0")), int(svg.get("height", "0")))


def test_a_png_plot_without_playwright_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Before any game is played: exit 2 naming the extra to install, no traceback, no file."""
    import builtins

    real = builtins.__import__

    def no_playwright(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.startswith("playwright"):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_playwright)
    result = run("ludo", "--games", "5", "--plot", str(tmp_path / "r.png"), code=2)
    assert "pip install 'refimpl[browser]'" in result.output and not (tmp_path / "r.png").exists()


@pytest.mark.parametrize(("game", "args", "said"), [
    ("ludo", ["--seats", "easy,easy,easy,genius"], "unknown policy 'genius' (policies: random, easy, normal, hard,"),
    ("ludo", ["--seats", "easy,easy"], "one policy per seat (4: human, cpu1, cpu2, cpu3)"),
    ("beacon-lines", ["--seats", "easy"], "unknown policy 'easy' (policies: random, greedy, solved)"),
    ("black-fog", ["--seats", "random,random,random,hard"], "unknown policy 'hard'"),
    ("ludo", ["--ruleset", "v0"], "ludo has no ruleset 'v0' (rulesets: v1)"),
    ("ludo", ["--games", "0"], "0"),
])
def test_bad_input_is_exit_2_naming_what_is_allowed(game: str, args: list[str], said: str) -> None:
    result = run(game, *args, code=2)
    assert said in result.output and "Traceback" not in result.output


def test_per_seat_policies_need_a_game_whose_seats_take_turns_or_a_joint_action() -> None:
    with pytest.raises(SimulateError, match="act together"):
        Simulation(policies={"other": uniform}).check(("red", "blue"), ("random", "other"))
    with pytest.raises(SimulateError, match="act together"):
        simulate("black-fog", 2, ["random", "greedy", "random", "random"], 0)


def test_beacon_lines_factions_with_policies_of_their_own() -> None:
    """Both factions claim in one action; with different policies each part is its own policy's: a greedy red
    never loses to a random blue, a solved faction never loses to a greedy one (the value is 0), and the same
    policy for both plays the games it always played."""
    doc = summary_json(simulate("beacon-lines", 500, ["greedy", "random"], 6))
    results = {r["result"]: r["count"] for r in doc["results"]}
    assert results["blue"] == 0 and results["red"] > 300
    solved = {r["result"]: r["count"] for r in summary_json(simulate("beacon-lines", 300, ["greedy", "solved"],
                                                                     6))["results"]}
    assert solved["red"] == 0
    from refimpl.games.beacon_lines.kit.simulate import greedy, together

    engine = GAMES["beacon-lines"]
    import random as stdrandom

    state = engine.new_state("v1")
    assert together(engine, state, {"red": "greedy", "blue": "greedy"}, stdrandom.Random(3)) == \
        greedy(engine, state, stdrandom.Random(3))


def test_a_profile_and_a_ruleset_change_the_games(tmp_path: Path) -> None:
    """``--ruleset`` and ``--profile`` reach the games: Lantern Quay v0 against v1 on the same seeds, Black Fog
    with every saved animal worth nothing and losses doubled."""
    v0 = json.loads(run("lantern-quay", "--games", "300", "--ruleset", "v0", "--format", "json").stdout)
    v1 = json.loads(run("lantern-quay", "--games", "300", "--ruleset", "v1", "--format", "json").stdout)
    assert v0["ruleset"] == "v0" and v0["figures"] != v1["figures"]
    profile = tmp_path / "harsh.yaml"
    profile.write_text("game: black-fog\nname: harsh\nset:\n  score.a: 0\n  score.b: 0\n  score.c: 0\n"
                       "  score.h: 6\n", encoding="utf-8")
    plain = json.loads(run("black-fog", "--games", "10", "--format", "json").stdout)
    harsh = json.loads(run("black-fog", "--games", "10", "--format", "json", "--profile", str(profile)).stdout)
    score = {d["profile"]: next(f["mean"] for f in d["figures"] if f["name"] == "score") for d in (plain, harsh)}
    assert harsh["profile"] == "harsh" and score["harsh"] < score[None]
    other = run("black-fog", "--profile", str(ROOT / "examples" / "profiles" / "conquest-king-house.yaml"),
                code=2) if (ROOT / "examples" / "profiles" / "conquest-king-house.yaml").exists() else None
    assert other is None or "only a profile of black-fog" in other.output


def test_rotation_seats_each_policy_in_each_seat_equally_often() -> None:
    levels = ("easy", "normal", "hard", "hard")
    sat = Counter((level, seat) for i in range(4000) for seat, level in enumerate(seat_policies(levels, i, True)))
    assert sat == {**{("easy", s): 1000 for s in range(4)}, **{("normal", s): 1000 for s in range(4)},
                   **{("hard", s): 2000 for s in range(4)}}
    assert seat_policies(levels, 1, True) == ("hard", "easy", "normal", "hard")
    assert seat_policies(levels, 5, False) == levels

    doc = summary_json(simulate("ludo", 400, levels, 9, jobs=2, rotate=True))
    jsonschema.validate(doc, SCHEMA)
    per_policy = {r["policy"]: r for r in doc["per_policy"]}
    for level, taken in (("easy", 1), ("normal", 1), ("hard", 2)):
        row = per_policy[level]
        assert row["seats_taken"] == taken
        assert [s["games"] for s in row["by_seat"]] == [100 * taken] * 4
        assert row["count"] == sum(s["wins"] for s in row["by_seat"])
    results = {r["result"]: r["count"] for r in doc["results"]}
    assert sum(r["count"] for r in doc["per_policy"]) + results["capped"] == 400
    for i, seat in enumerate(doc["seats"]):  # a seat's wins are the wins of the policies that sat in it
        assert seat["count"] == sum(r["by_seat"][i]["wins"] for r in doc["per_policy"])
    assert per_policy["hard"]["count"] > per_policy["easy"]["count"]


@pytest.mark.parametrize(("game", "seats", "rotate"), [("ludo", "hard,easy,normal,easy", False),
                                                       ("ludo", "hard,random,normal,easy", True),
                                                       ("black-fog", "random", False)])
def test_the_same_seed_gives_the_same_result_with_one_job_or_two(game: str, seats: str, rotate: bool) -> None:
    args = ["--games", "24", "--seed", "7", "--seats", seats, "--format", "json", "--quiet"]
    args += ["--rotate"] if rotate else []
    one = run(game, *args, "--jobs", "1").stdout
    assert run(game, *args, "--jobs", "2").stdout == one


def test_progress_lines_when_stderr_is_a_pipe() -> None:
    command = [sys.executable, "-m", "refimpl", "simulate", "ludo", "--games", "200", "--format", "csv"]
    proc = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stderr.splitlines()
    assert lines and all(line.startswith("simulate ludo: ") for line in lines), proc.stderr
    assert "\r" not in proc.stderr and "[#" not in proc.stderr
    assert 5 <= len(lines) <= 11 and lines[-1] == "simulate ludo: 200/200 games (100%)"
    assert rows(proc.stdout)[0]["row"] == "seat"
    quiet = subprocess.run(command + ["--quiet"], cwd=ROOT, capture_output=True, text=True, check=False)
    assert quiet.returncode == 0 and quiet.stderr == "" and quiet.stdout == proc.stdout


@settings(deadline=None)
@given(st.integers(min_value=0, max_value=2**64 - 1), st.integers(min_value=1, max_value=60),
       st.integers(min_value=1, max_value=25))
def test_chunks_give_every_game_its_seed_in_order(seed: int, games: int, size: int) -> None:
    from refimpl.campaigns.simulate.run import _chunks
    from refimpl.harness.versions import Version

    chunks = list(_chunks("ludo", (Version("v1"),), seed, games, size, ("easy",) * 4, False, True))
    assert [s for chunk in chunks for s in chunk[2]] == game_seeds(seed, games)
    assert [chunk[4] for chunk in chunks] == list(range(0, games, size))


# --- what-if, side by side ---------------------------------------------------------------------------------

def test_a_what_if_plays_the_same_games_under_each_variant_and_tests_each_difference() -> None:
    """Lantern Quay v0 against v1 (LQ-TIME-1: v1 locks the three placements first): the same seeds under both,
    each variant's summary the one a single run gives, and the differences paired game by game: lenses up under
    v1, real; the length (always 12) no difference at all (nothing varies: no p-value)."""
    from refimpl.campaigns.simulate.compare import compare, comparison_json, differences

    c = compare("lantern-quay", 400, [("v0", None), ("v1", None)], seed=2)
    assert [summary_json(s) for s in c.summaries] == [summary_json(simulate("lantern-quay", 400, None, 2, ruleset=r))
                                                      for r in ("v0", "v1")]
    rows = {r["measure"]: r for r in differences(c)}
    lenses = rows["lenses"]
    assert lenses["variant"] == "v1" and lenses["baseline"] == "v0" and lenses["real"]
    assert lenses["difference"] == pytest.approx(lenses["mean"] - lenses["baseline_mean"])
    assert lenses["ci95"][0] > 0 and lenses["p_value"] is not None and lenses["p_value"] < 1e-6
    assert rows["length"]["difference"] == 0 and rows["length"]["p_value"] is None and not rows["length"]["real"]
    doc = comparison_json(c)
    assert [v["name"] for v in doc["variants"]] == ["v0", "v1"] and doc["games"] == 400


def test_variants_that_play_alike_show_no_real_difference(tmp_path: Path) -> None:
    """A profile that changes nothing the games read (Black Fog's scoring only changes the score): every
    measure but the score is the same game by game; the score differs by exactly what the profile says."""
    from refimpl.campaigns.simulate.compare import compare, differences
    from refimpl.rulebook.profiles import load_profile

    (tmp_path / "a.yaml").write_text("game: black-fog\nname: plain\nset: {}\n", encoding="utf-8")
    (tmp_path / "b.yaml").write_text("game: black-fog\nname: harsh\nset:\n  score.g: 9\n", encoding="utf-8")
    a, b = (load_profile(str(tmp_path / f)) for f in ("a.yaml", "b.yaml"))
    rows = {r["measure"]: r for r in differences(compare("black-fog", 30, [("v1", a), ("v1", b)], seed=4))}
    assert all(r["difference"] == 0 and not r["real"] for m, r in rows.items() if m != "score")
    g = GAMES["black-fog"].data["score"]["g"]  # the spec's points taken for each keeper lost
    assert rows["score"]["difference"] == pytest.approx(-(9 - g) * rows["keepers_lost"]["mean"])


@settings(max_examples=50, deadline=None)
@given(st.lists(st.floats(-50, 50, allow_nan=False), min_size=2, max_size=40))
def test_the_paired_test_is_the_z_test_of_the_mean_difference(diffs: list[float]) -> None:
    """The p-value is erfc(|mean| / (sd / sqrt n) / sqrt 2), sd the sample's; no p-value when nothing varies."""
    import math

    from refimpl.campaigns.simulate.compare import Comparison, differences
    from refimpl.campaigns.simulate.summary import Summary
    from refimpl.harness.versions import Version

    n = len(diffs)
    summaries = [Summary("g", "v1", n, 0, ("random",), ("a",), possible=("a",)) for _ in range(2)]
    for s in summaries:
        s.results = {"a": n}
    c = Comparison("g", (Version("v0"), Version("v1")), summaries, ("length",),
                   [{"length": (sum(diffs), sum(d * d for d in diffs))}])
    (row,) = differences(c)
    mean = sum(diffs) / n
    sd = math.sqrt(max(0.0, sum((d - mean) ** 2 for d in diffs) / (n - 1)))
    assert row["difference"] == pytest.approx(mean, abs=1e-9)
    if sd > 1e-6:
        assert row["p_value"] == pytest.approx(math.erfc(abs(mean) / (sd / math.sqrt(n)) / math.sqrt(2)), abs=1e-6)
        assert row["real"] == (row["p_value"] < 0.05)


def test_the_what_if_command_writes_text_csv_json_and_one_chart(tmp_path: Path) -> None:
    args = ["--games", "200", "--ruleset", "v0", "--ruleset", "v1", "--quiet"]
    text = run("beacon-lines", *args).stdout
    assert "the same games under 2 variants" in text and "difference from v0" in text and "result=draw" in text
    table = rows(run("beacon-lines", *args, "--format", "csv").stdout)
    assert {r["measure"] for r in table} >= {"result=red", "result=draw", "red_score", "length"}
    assert all(r["variant"] == "v1" and r["baseline"] == "v0" for r in table)
    one = run("beacon-lines", *args, "--format", "json", "--jobs", "2").stdout
    assert run("beacon-lines", *args, "--format", "json").stdout == one  # whatever the executor
    plot = tmp_path / "what-if.svg"
    run("beacon-lines", *args, "--plot", str(plot))
    bars = [e for e in ET.parse(plot).getroot().iter(f"{SVG}rect") if e.get("class") == "bar"]
    assert [e.get("data-result") for e in bars] == ["red", "red", "blue", "blue", "draw", "draw"]
    labels = [t.text for t in ET.parse(plot).getroot().iter(f"{SVG}text")]
    assert "red (v0)" in labels and "draw (v1)" in labels


def test_a_what_if_of_one_variant_given_twice_is_bad_input() -> None:
    result = run("lantern-quay", "--games", "5", "--ruleset", "v1", "--ruleset", "v1", code=2)
    assert "the variant v1 is given twice" in result.output


# --- greedy -------------------------------------------------------------------------------------------------

GREEDY = ("beacon-lines", "lantern-quay", "ludo", "black-fog", "conquest-king")


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(GREEDY), st.integers(0, 2**32), st.integers(0, 60))
def test_greedy_plays_a_legal_action_that_no_other_rates_above(game: str, seed: int, steps: int) -> None:
    """In a position reached by random play, ``greedy`` plays a legal action; where the list is no chance
    outcome's, no other action's next state rates higher by the game's documented rating."""
    import random

    from refimpl.games.lantern_quay.kit.simulate import rate
    from refimpl.games.ludo.kit.simulate import progress

    engine, sim = GAMES[game], simulation(game)
    state, rng = engine.new_state(None, seed=seed), random.Random(seed)
    for _ in range(steps):
        if engine.outcome(state) is not None:
            break
        state = engine.apply(state, rng.choice(engine.legal_actions(state)))
    if engine.outcome(state) is not None:
        return
    chosen = sim.policy("greedy")(engine, state, random.Random(1))
    legal = engine.legal_actions(state)
    assert chosen in legal
    ratings = {"lantern-quay": (rate, state.phase == "roll") if game == "lantern-quay" else None,
               "ludo": (progress, getattr(state, "phase", "") == "roll") if game == "ludo" else None}.get(game)
    if ratings is not None and not ratings[1]:
        value = ratings[0]
        assert value(engine, state, engine.apply(state, chosen)) == \
            max(value(engine, state, engine.apply(state, a)) for a in legal)


def test_greedy_beats_random_where_a_game_rewards_it() -> None:
    """Lantern Quay v0 (each die resolves as it is placed): a greedy keeper lights more lenses than a random one
    on the same seeds (under v1 nothing resolves before the round's third die, so one ply sees no difference and
    greedy plays as random does); Ludo: a greedy seat wins more than a random one, seats rotated."""
    lq = {p: summary_json(simulate("lantern-quay", 300, [p], 3, ruleset="v0")) for p in ("random", "greedy")}
    lenses = {p: next(f["mean"] for f in d["figures"] if f["name"] == "lenses") for p, d in lq.items()}
    assert lenses["greedy"] > lenses["random"]
    ludo = summary_json(simulate("ludo", 200, ["greedy", "random", "greedy", "random"], 3, rotate=True))
    wins = {r["policy"]: r["count"] for r in ludo["per_policy"]}
    assert wins["greedy"] > wins["random"]


def test_a_profile_of_the_seeds_values_plays_the_games_of_no_profile() -> None:
    """Ludo under a profile that sets every variant to the seed's value (so through legal_actions and apply)
    plays the very games of no profile (the Turn fast path); a variant that enters on a 5 does not."""
    from refimpl.rulebook.profiles import Profile, default_values

    seed = Profile("ludo", "seed", default_values("ludo"))
    plain = summary_json(simulate("ludo", 30, LEVELS, 4))
    same = summary_json(simulate("ludo", 30, LEVELS, 4, profile=seed))
    assert same == {**plain, "profile": "seed"}
    five = summary_json(simulate("ludo", 30, LEVELS, 4, profile=Profile("ludo", "five", {"enter_face": 5})))
    assert five["average_length"] != plain["average_length"]


# --- until decided (SPRT) -----------------------------------------------------------------------------------

@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(-1, 1), min_size=2, max_size=200), st.sampled_from([0.02, 0.05, -0.1]))
def test_the_sequential_llr_is_the_normal_approximation(diffs: list[int], delta: float) -> None:
    """LLR = n delta (mean - delta/2) / s^2 with the sample variance; 0 while every difference is alike; H1 at or
    above log((1-beta)/alpha), H0 at or below log(beta/(1-alpha))."""
    import math

    from refimpl.campaigns.simulate.sequential import Sprt

    test = Sprt("result=x", delta)
    n, mean = len(diffs), sum(diffs) / len(diffs)
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    llr = test.llr(sum(diffs), sum(d * d for d in diffs), n)
    assert llr == (0.0 if var == 0 else pytest.approx(n * delta * (mean - delta / 2) / var, rel=1e-9, abs=1e-9))
    low, high = test.bounds
    assert (low, high) == (pytest.approx(math.log(0.05 / 0.95)), pytest.approx(math.log(0.95 / 0.05)))
    assert test.decide(high) == "H1" and test.decide(low) == "H0" and test.decide(0.0) is None


def test_a_what_if_until_decided_stops_at_a_look_and_says_so() -> None:
    """Beacon Lines v0 against v1 (red wins some 15 points more often under v1): H1 at one of the looks, long
    before the most games; every variant's summary counts the games played; the same decision with two jobs."""
    from refimpl.campaigns.simulate.compare import compare, comparison_json
    from refimpl.campaigns.simulate.sequential import Sprt

    test = Sprt("result=red", 0.05)
    one = compare("beacon-lines", 20000, [("v0", None), ("v1", None)], until=test)
    assert one.sequential is not None and one.sequential.decision == "H1"
    assert one.sequential.games % test.every == 0 and one.sequential.games < 20000
    assert all(s.games == s.played == one.sequential.games for s in one.summaries)
    two = compare("beacon-lines", 20000, [("v0", None), ("v1", None)], jobs=2, until=test)
    assert comparison_json(two) == comparison_json(one)


def test_variants_that_never_differ_stay_undecided() -> None:
    from refimpl.campaigns.simulate.compare import compare
    from refimpl.campaigns.simulate.sequential import Sprt
    from refimpl.rulebook.profiles import Profile

    c = compare("lantern-quay", 200, [("v1", None), ("v1", Profile("lantern-quay", "same"))],
                until=Sprt("lenses", 0.1))
    assert c.sequential is not None and (c.sequential.decision, c.sequential.games) == ("undecided", 200)


@pytest.mark.parametrize(("args", "said"), [
    (["--ruleset", "v0", "--ruleset", "v1", "--until-decided", "lenses"], "give MEASURE:DELTA"),
    (["--ruleset", "v0", "--ruleset", "v1", "--until-decided", "lenses:0"], "give MEASURE:DELTA"),
    (["--until-decided", "lenses:0.1"], "a what-if of two variants"),
    (["--ruleset", "v0", "--ruleset", "v1", "--until-decided", "score:0.1"], "a measure of the game"),
])
def test_until_decided_bad_input_is_exit_2(args: list[str], said: str) -> None:
    result = run("lantern-quay", "--games", "50", *args, code=2)
    assert said in result.output and "Traceback" not in result.output
