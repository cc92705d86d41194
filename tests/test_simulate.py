"""``refimpl simulate ludo``: CSV that says what the JSON says, an SVG chart with a mark per seat, levels
rotated through the seats, results that depend on --seed and --games only, and progress lines in a log."""

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
from hypothesis import given, strategies as st

from refimpl.campaigns.simulate import seat_levels, simulate, summary_csv, summary_json, summary_svg
from refimpl.cli import main

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "refimpl" / "schemas" / "output" / "simulate.schema.json").read_text())
SVG = "{http://www.w3.org/2000/svg}"
LEVELS = ["easy", "normal", "hard", "easy"]


def run(*args: str) -> Any:
    result = CliRunner().invoke(main, ["simulate", "ludo", *args])
    assert result.exit_code == 0, (result.output, result.exception)
    return result


def rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


@pytest.mark.parametrize("rotate", [False, True])
def test_csv_parses_and_says_what_the_json_says(rotate: bool) -> None:
    args = ["--games", "60", "--seed", "4", "--seats", ",".join(LEVELS), "--quiet"] + (["--rotate"] if rotate else [])
    doc = json.loads(run(*args, "--format", "json").stdout)
    jsonschema.validate(doc, SCHEMA)
    table = rows(run(*args, "--format", "csv").stdout)
    per_seat = [r for r in table if r["seat"]]
    per_level = [r for r in table if not r["seat"]]
    assert [r["seat"] for r in per_seat] == [s["seat"] for s in doc["seats"]]
    assert len(per_level) == (len(doc["per_level"]) if rotate else 0)
    for row, want in zip(per_seat + per_level, doc["seats"] + doc.get("per_level", [])):
        assert row["level"] == (want["level"] or "")
        assert int(row["games"]) == doc["games"] == want["win_rate"]["denominator"] == 60
        assert int(row["wins"]) == want["wins"] == want["win_rate"]["numerator"]
        assert float(row["win_rate"]) == want["win_rate"]["probability"]
        assert [float(row["ci95_low"]), float(row["ci95_high"])] == want["ci95"]
        assert int(row["capped"]) == doc["capped"] and float(row["average_throws"]) == doc["average_throws"]
    if rotate:
        assert all(s["level"] is None for s in doc["seats"]) and all(r["level"] == "" for r in per_seat)
        assert [r["level"] for r in per_level] == ["easy", "normal", "hard"]
    else:
        assert [r["level"] for r in per_seat] == LEVELS and "per_level" not in doc


@pytest.mark.parametrize("rotate", [False, True])
def test_the_svg_is_xml_with_one_mark_per_seat(rotate: bool, tmp_path: Path) -> None:
    plot = tmp_path / "rates.svg"
    args = ["--games", "40", "--seed", "1", "--seats", ",".join(LEVELS), "--plot", str(plot), "--format", "json"]
    doc = json.loads(run(*args, *(["--rotate"] if rotate else [])).stdout)
    root = ET.parse(plot).getroot()
    assert root.tag == f"{SVG}svg"
    bars = [e for e in root.iter(f"{SVG}rect") if e.get("class") == "bar"]
    seats = [e.get("data-seat") for e in bars if e.get("data-seat")]
    assert seats == ["human", "cpu1", "cpu2", "cpu3"]
    for bar, row in zip(bars, doc["seats"]):
        assert float(bar.get("data-win-rate", "")) == row["win_rate"]["probability"]
    levels = [e.get("data-level") for e in bars if e.get("data-level")]
    assert levels == (["easy", "normal", "hard"] if rotate else [])
    words = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert "human (easy)" in words if not rotate else "hard (any seat)" in words
    assert "95% Wilson interval" in words


def test_svg_labels_are_escaped() -> None:
    summary = simulate(8, LEVELS, 2)
    summary.seats = ("<human>&", "cpu1", "cpu2", 'cpu"3')
    root = ET.fromstring(summary_svg(summary))
    assert [e.get("data-seat") for e in root.iter(f"{SVG}rect") if e.get("class") == "bar"] == \
        ["<human>&", "cpu1", "cpu2", 'cpu"3']


def test_plot_is_svg_only() -> None:
    result = CliRunner().invoke(main, ["simulate", "ludo", "--games", "5", "--plot", "rates.png"])
    assert result.exit_code == 2 and "SVG only" in result.output


def test_rotation_seats_each_level_in_each_seat_equally_often() -> None:
    levels = ("easy", "normal", "hard", "hard")
    sat = Counter((level, seat) for i in range(4000) for seat, level in enumerate(seat_levels(levels, i, True)))
    assert sat == {**{("easy", s): 1000 for s in range(4)}, **{("normal", s): 1000 for s in range(4)},
                   **{("hard", s): 2000 for s in range(4)}}
    assert seat_levels(levels, 1, True) == ("hard", "easy", "normal", "hard")
    assert seat_levels(levels, 5, False) == levels

    # the run's own record of where each level sat (4000 full games take 10 s or more: 400 here)
    summary = simulate(400, levels, 9, jobs=2, rotate=True)
    doc = summary_json(summary)
    jsonschema.validate(doc, SCHEMA)
    per_level = {r["level"]: r for r in doc["per_level"]}
    for level, taken in (("easy", 1), ("normal", 1), ("hard", 2)):
        row = per_level[level]
        assert row["seats_taken"] == taken
        assert [s["games"] for s in row["by_seat"]] == [100 * taken] * 4
        assert row["wins"] == sum(s["wins"] for s in row["by_seat"])
    assert sum(r["wins"] for r in doc["per_level"]) + doc["capped"] == 400
    assert sum(r["wins"] for r in doc["per_level"]) == sum(s["wins"] for s in doc["seats"])
    for i, seat in enumerate(doc["seats"]):  # a seat's wins are the wins of the levels that sat in it
        assert seat["wins"] == sum(r["by_seat"][i]["wins"] for r in doc["per_level"])
    assert per_level["hard"]["wins"] > per_level["easy"]["wins"]


@pytest.mark.parametrize("rotate", [False, True])
def test_the_same_seed_gives_the_same_result_with_one_job_or_two(rotate: bool) -> None:
    args = ["--games", "120", "--seed", "7", "--seats", "hard,easy,normal,easy", "--format", "json", "--quiet"]
    args += ["--rotate"] if rotate else []
    one = run(*args, "--jobs", "1").stdout
    assert run(*args, "--jobs", "2").stdout == one
    assert summary_csv(simulate(120, ["hard", "easy", "normal", "easy"], 7, jobs=2, rotate=rotate)) == \
        summary_csv(simulate(120, ["hard", "easy", "normal", "easy"], 7, jobs=1, rotate=rotate))


def test_progress_lines_when_stderr_is_a_pipe() -> None:
    command = [sys.executable, "-m", "refimpl", "simulate", "ludo", "--games", "200", "--format", "csv"]
    proc = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stderr.splitlines()
    assert lines and all(line.startswith("simulate ludo: ") for line in lines), proc.stderr
    assert "\r" not in proc.stderr and "[#" not in proc.stderr
    assert 5 <= len(lines) <= 11 and lines[-1] == "simulate ludo: 200/200 games (100%)"
    assert len(rows(proc.stdout)) == 4
    quiet = subprocess.run(command + ["--quiet"], cwd=ROOT, capture_output=True, text=True, check=False)
    assert quiet.returncode == 0 and quiet.stderr == "" and quiet.stdout == proc.stdout


@given(st.integers(min_value=0, max_value=2**64 - 1), st.integers(min_value=1, max_value=60),
       st.integers(min_value=1, max_value=25))
def test_chunks_give_every_game_its_seed_in_order(seed: int, games: int, size: int) -> None:
    from refimpl.campaigns.simulate import _chunks, game_seeds

    chunks = list(_chunks(seed, games, size, ("easy",) * 4, False))
    assert [s for chunk, _, _, _ in chunks for s in chunk] == game_seeds(seed, games)
    assert [first for _, _, first, _ in chunks] == list(range(0, games, size))
