"""Every ``--format json`` is machine output: it validates against its published schema
(refimpl/schemas/output/<command>.schema.json), its keys are ASCII snake_case, numbers are numbers, and
tables hold no number in disguise ("26/36", "−1"); text and markdown keep the typographic signs."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner

from refimpl.cli import main
from refimpl.games import GAMES
from refimpl.games.black_fog import hexes
from refimpl.rulebook import tables

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "refimpl" / "schemas" / "output"
PY = shlex.quote(sys.executable)
REFERENCE = f"{PY} -m refimpl serve"
COMMANDS = ("replay", "verify", "fuzz", "mutants", "perft", "simulate", "solve", "map", "tables", "rule")
# machine output that is no command's own --format json: verify --badges DIR, simulate's what-if (two --ruleset)
OTHER_SCHEMAS = ("badge", "simulate-compare", "matrix", "fuzz-matrix")  # and verify, fuzz with several builds
SNAKE = re.compile(r"[a-z][a-z0-9_]*")
# Values copied verbatim from the protocol or a trace (a state view, an action, a fuzz case): their keys
# are the spec's (region ids such as "north-pass"), so the key check does not go inside them.
VERBATIM = {"expected", "actual", "case", "before", "request", "asked", "position"}  # the game's own keys
DISGUISED = re.compile(r"[+\-\u2212\u00b1]?\d|\d+\s*/\s*\d+")


def build(script: str, *args: str) -> str:
    return " ".join([PY, shlex.quote(str(ROOT / "tests" / "builds" / script)), *map(shlex.quote, args)])


def run_json(*args: str, codes: tuple[int, ...] = (0,)) -> dict[str, Any]:
    """Run ``refimpl ARGS`` in-process; its output, checked to be ASCII and strict JSON, parsed."""
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code in codes, (result.exit_code, result.output[-3000:], result.exception)
    assert result.stdout.isascii(), "machine output is ASCII (JSON escapes the rest)"
    return json.loads(result.stdout, parse_constant=lambda c: pytest.fail(f"non-standard JSON constant {c}"))


def keys(value: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """(path, key) for every object key outside the verbatim values."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield path, k
            if k not in VERBATIM:
                yield from keys(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from keys(v, f"{path}[{i}]")


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)


def check(command: str, doc: dict[str, Any]) -> None:
    """``doc`` validates against the command's schema and all its keys are ASCII snake_case."""
    schema = json.loads((SCHEMAS / f"{command}.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(doc), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:5])
    bad = [f"{path}: {key!r}" for path, key in keys(doc) if not SNAKE.fullmatch(key)]
    assert not bad, bad[:10]


def test_every_command_with_json_output_has_a_published_schema() -> None:
    assert sorted(p.name for p in SCHEMAS.glob("*.schema.json")) == sorted(
        f"{c}.schema.json" for c in COMMANDS + OTHER_SCHEMAS)
    for command in COMMANDS:
        result = CliRunner().invoke(main, [command, "--help"])
        assert "json" in result.output, command


@pytest.mark.parametrize("game", tables.games_with_tables())
def test_tables_json_has_numbers_and_no_typographic_signs(game: str) -> None:
    doc = run_json("tables", game, "--format", "json")
    check("tables", doc)
    assert sorted(doc) == sorted(tables.get_tables(game))
    for text in strings(doc):
        assert text.isascii(), f"typographic character in {text!r}"
        assert not DISGUISED.match(text), f"a number in disguise: {text!r}"
    for name, rows in doc.items():
        assert len(rows) == len(tables.get_tables(game)[name]().rows), name


def test_the_dice_table_as_fractions_and_text_keeps_its_signs() -> None:
    rows = run_json("tables", "conquest", "dice", "--format", "json")["dice"]
    by_difference = {r["base_difference"]: r["attacker_wins"] for r in rows}
    assert by_difference[1] == {"numerator": 26, "denominator": 36, "probability": 26 / 36}
    assert by_difference[-1] == {"numerator": 15, "denominator": 36, "probability": 15 / 36}
    assert by_difference[0]["numerator"] == 21 and by_difference[-6]["probability"] == 0
    text = CliRunner().invoke(main, ["tables", "conquest", "dice"]).output
    markdown = CliRunner().invoke(main, ["tables", "conquest", "dice", "--format", "markdown"]).output
    for out in (text, markdown):
        assert "−1" in out and "±0" in out and "26/36" in out


def test_other_tables_carry_typed_values() -> None:
    conquest = run_json("tables", "conquest-king", "--format", "json")
    units = {u["unit"]: u for u in conquest["units"]}
    assert units["king"]["price_gold"] is None and units["cavalry"]["price_gold"] == 60
    terrain = {t["terrain"]: t for t in conquest["terrain"]}
    assert terrain["mountain"]["movement_cost"] is None and terrain["river"]["attack_modifier"] == -1
    board = run_json("tables", "ludo", "--format", "json")["board"]
    assert board[0]["home_column"] == {"first_step": 51, "last_step": 56} and board[0]["goal_step"] == 57
    faces = run_json("tables", "lantern-quay", "--format", "json")["faces"]
    assert faces[0]["forge"] is None and faces[4]["install"] == {"spend_modules": 1, "light_lenses": 1}
    adjacency = {r["region"]: r for r in run_json("tables", "beacon-lines", "--format", "json")["adjacency"]}
    assert adjacency["red-home"]["owner_at_start"] == "red" and adjacency["beacon"]["value_v1"] == 2
    assert "north-pass" in adjacency["red-home"]["adjacent_to"]


def test_perft_json() -> None:
    doc = run_json("perft", "beacon-lines", "--depth", "3", "--format", "json")
    check("perft", doc)
    assert doc["nodes"] == [1, 4, 52, 588] and doc["ruleset"] == "v1"
    assert {"depth": 3, "result": "draw", "count": 222} in doc["finished"]
    assert sum(r["count"] for r in doc["finished"]) == sum(r["count"] for r in doc["totals"])


def test_simulate_json() -> None:
    doc = run_json("simulate", "ludo", "--games", "12", "--seed", "3", "--format", "json")
    check("simulate", doc)
    for seat in doc["seats"] + doc["results"]:
        rate = seat["share"]
        assert rate["numerator"] == seat["count"] and rate["denominator"] == 12
        assert rate["probability"] == pytest.approx(seat["count"] / 12)
        assert seat["ci95"][0] <= rate["probability"] <= seat["ci95"][1]


def test_simulate_what_if_json() -> None:
    doc = run_json("simulate", "beacon-lines", "--games", "400", "--ruleset", "v0", "--ruleset", "v1", "--format",
                   "json", "--until-decided", "result=red:0.05")
    assert doc["sequential"]["decision"] == "H1"
    check("simulate-compare", doc)
    for variant in doc["variants"]:
        check("simulate", variant["summary"])


LQ_TRACE = str(ROOT / "traces/lantern-quay/draft-order-under-v1.yaml")


@pytest.mark.parametrize("args", [["beacon-lines", "--trace", str(ROOT / "traces/beacon-lines/round-1.yaml")],
                                  ["lantern-quay", "--trace", LQ_TRACE, "--at", "4", "--roll", "6,4,1"]])
def test_solve_json(args: list[str]) -> None:
    doc = run_json("solve", *args, "--format", "json")
    check("solve", doc)


def test_map_json_gives_coordinates_as_numbers() -> None:
    doc = run_json("map", "--seed", "7", "--format", "json")
    check("map", doc)
    view = GAMES["black-fog"].view(GAMES["black-fog"].new_state(seed=7))["map"]
    for kind, tiles in view.items():
        assert [(t["q"], t["r"]) for t in doc[kind]] == [hexes.parse(t) for t in tiles]
    assert doc["seed"] == 7 and doc["apple"]


def test_replay_json(tmp_path: Path) -> None:
    doc = run_json("replay", str(ROOT / "traces" / "beacon-lines"), "--format", "json")
    check("replay", doc)
    assert doc["summary"]["traces"] == doc["summary"]["conforms"] > 0 and doc["summary"]["not_run"] == 0
    edited = tmp_path / "edited.yaml"
    src = (ROOT / "traces/beacon-lines/safe-route-v1.yaml").read_text(encoding="utf-8")
    edited.write_text(src.replace("scores: {red: 4, blue: 3}", "scores: {red: 4, blue: 4}"), encoding="utf-8")
    doc = run_json("replay", str(edited), "--format", "json", codes=(1,))
    check("replay", doc)
    (trace,) = doc["traces"]
    assert trace["status"] == "mismatch"
    wrong = [s for s in trace["steps"] if not s["ok"]]
    assert wrong[0]["difference"] == {"path": "scores.blue", "expected": 4, "actual": 3, "by_reference": False}


def test_verify_json_conforming_failing_and_broken() -> None:
    doc = run_json("verify", "--impl", REFERENCE, "--no-scenarios", "-k", "safe-route-v0", "--format", "json")
    check("verify", doc)
    assert doc["verdict"] == "conforms" and doc["summary"]["passed"] == doc["summary"]["checks"] == 1
    (game,) = doc["matrix"]
    assert game["game"] == "beacon-lines"
    assert any(r["rule"] == "BL-WIN-2" and r["passed"] == 1 for r in game["rules"])
    doc = run_json("verify", "--impl", build("wrong.py", "tied-beacon-scores"), "--game", "beacon-lines",
                   "--no-scenarios", "--format", "json", codes=(1,))
    check("verify", doc)
    assert doc["verdict"] == "does_not_conform" and doc["summary"]["failed"] > 0
    assert all(c["status"] in ("passed", "failed") for c in doc["checks"])
    doc = run_json("verify", "--impl", build("partial.py"), "--no-scenarios", "--format", "json")
    check("verify", doc)
    assert doc["summary"]["not_run"] > 0 and "not_run" in {c["status"] for c in doc["checks"]}
    doc = run_json("verify", "--impl", build("misbehave.py", "crash-at-start"), "--format", "json", codes=(3,))
    check("verify", doc)
    assert doc["verdict"] == "build_broke" and doc["broke_at_start"]["cause"] == "crashed-at-start"


def test_fuzz_json_with_and_without_a_finding(tmp_path: Path) -> None:
    doc = run_json("fuzz", "--game", "beacon-lines", "--examples", "5", "--out", str(tmp_path), "--format", "json")
    check("fuzz", doc)
    assert doc["finding"] is None and doc["cases"] >= 5
    doc = run_json("fuzz", "--impl", build("wrong.py", "second-claim"), "--game", "beacon-lines", "--out",
                   str(tmp_path), "--shrink-time", "2", "--format", "json", codes=(1,))
    check("fuzz", doc)
    assert doc["finding"]["kind"] == "diverges" and doc["divergence"]["path"]
    assert doc["campaigns"][0]["finding"]["case"]["game"] == "beacon-lines"


def test_mutants_json(tmp_path: Path) -> None:
    from refimpl.campaigns.mutants import campaign, population

    sites = [s for s in population() if s.file.endswith("beacon-lines.yaml")][:3]
    kit = campaign.kit_fingerprint("verify")
    verdicts = [{"status": "killed", "by": "beacon-lines/round-1", "detail": "scores.red: expected 2, got 3"},
                {"status": "survived", "by": "", "detail": ""},
                {"status": "broke", "by": "start", "detail": "build broke (exited)"}]
    lines = [json.dumps({**v, "seconds": 1.5, "id": s.id, "file": s.file, "line": s.line, "qualname": s.qualname,
                         "operator": s.operator, "before": s.before, "after": s.after, "game": "beacon-lines",
                         "kit": kit, "source": campaign._file_digest(s.file), "judge": "verify"})
             for s, v in zip(sites, verdicts)]
    (tmp_path / "results.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    args = ["mutants", "--out", str(tmp_path), "--quiet", "--format", "json"]
    for s in sites:
        args += ["--id", s.id]
    doc = run_json(*args)
    check("mutants", doc)
    (game,) = doc["games"]
    assert game["game"] == "beacon-lines" and game["sampled"] == 3
    judged = 3 - game["equivalent"]
    assert game["score"]["denominator"] == judged and game["raw"] == {"numerator": 2, "denominator": 3,
                                                                     "probability": 2 / 3}
    assert [r["id"] for r in doc["mutants"]] == [s.id for s in sites]


def test_a_report_written_to_stdout_is_stdouts_only_document(tmp_path: Path) -> None:
    """``--json -`` puts the JSON report on stdout, and nothing else: no text report before it (issue 43)."""
    proc = subprocess.run([sys.executable, "-m", "refimpl", "verify", "--game", "beacon-lines", "-k", "round-1",
                           "--no-scenarios", "--no-explore", "--quiet", "--json", "-"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert json.loads(proc.stdout)["verdict"] == "conforms"


def test_several_builds_give_a_matrix_of_their_reports(tmp_path: Path) -> None:
    """verify and fuzz with two builds (issue 47): the matrix's and the fuzz table's JSON, each build's own report
    inside valid against its own schema."""
    wrong = build("wrong.py", "install-lights-two")
    doc = run_json("verify", "--impl", REFERENCE, "--impl", wrong, "--game", "lantern-quay", "--no-scenarios",
                   "--explore", "0", "--quiet", "--format", "json", codes=(1,))
    check("matrix", doc)
    for b in doc["builds"]:
        check("verify", b["report"])
    doc = run_json("fuzz", "--impl", REFERENCE, "--impl", wrong, "--game", "lantern-quay", "--examples", "20",
                   "--quiet", "--format", "json", "--out", str(tmp_path), codes=(1,))
    check("fuzz-matrix", doc)
    assert [b["verdict"] for b in doc["builds"]] == ["no divergence", "diverges"]
    for b in doc["builds"]:
        check("fuzz", b["fuzz"])
