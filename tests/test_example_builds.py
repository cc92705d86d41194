"""The example builds in examples/ are checked by the kit like any outside build: the clean-room Node.js build
of all five games through verify (with --perft and --twice), both ways of chance for the games with seeded
streams, and a small fixed fuzz sample per game (the full campaign is `make examples`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from refimpl.games import GAMES
from tests.node import missing_reason

ROOT = Path(__file__).resolve().parent.parent
NODE_BUILD = f"node {ROOT / 'examples/node-build/main.js'}"


pytestmark = pytest.mark.skipif(missing_reason("the example build") is not None,
                                reason=missing_reason("the example build") or "")


def _refimpl(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "refimpl", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=600, env={**os.environ, **(env or {})})


def test_the_node_build_declares_every_game_and_ruleset() -> None:
    proc = subprocess.run(["node", "examples/node-build/main.js"], cwd=ROOT, capture_output=True, text=True,
                          input='{"id":0,"op":"hello","protocol":1}\n', timeout=30)
    hello = json.loads(proc.stdout)
    assert hello["games"] == {name: list(g.info.rulesets) for name, g in GAMES.items()}
    assert hello["capabilities"] == ["legal", "stats"]


def test_the_node_build_conforms_on_every_game_with_perft_and_twice(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    proc = _refimpl("verify", "--impl", NODE_BUILD, "--perft", "3", "--twice", "--json", str(out))
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    doc = json.loads(out.read_text())
    assert doc["summary"]["not_run"] == 0, [c["name"] for c in doc["checks"] if c["status"] == "not_run"]
    assert {c["game"] for c in doc["checks"]} >= set(GAMES)
    assert {"trace", "scenario", "perft", "determinism"} <= {c["kind"] for c in doc["checks"]}


def test_the_node_build_with_its_own_random_source_is_given_every_chance(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    proc = _refimpl("verify", "--impl", NODE_BUILD, "--game", "ludo", "--json", str(out),
                    env={"NODE_BUILD_OWN_RANDOM": "1"})
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert json.loads(out.read_text())["explicit_chance"] is True


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_fuzz_sample_finds_no_divergence_in_the_node_build(game: str, tmp_path: Path) -> None:
    proc = _refimpl("fuzz", "--impl", NODE_BUILD, "--game", game, "--seed", "1", "--examples", "25",
                    "--quiet", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stdout[-4000:]
