"""Chance given by the kit (specs/protocol.md "Chance: seeded or given"): a build with its own random source
declares explicit-chance, is sent every chance outcome explicitly, and is judged on everything but the
streams. tests/builds/own_random.py is such a build: the reference with Python's own random behind every
seeded form, so it conforms only if the kit never sends it one."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from refimpl.games import GAMES
from refimpl.games.ludo import cpu
from refimpl.harness.chance import STREAM_RULES, ExplicitChance, Rewriter, explicit_trace
from refimpl.harness.driver import ReferenceDriver
from refimpl.harness.requests import Apply, Start, Written
from refimpl.harness.tracefile import load_trace

ROOT = Path(__file__).resolve().parent.parent
OWN_RANDOM = f"{sys.executable} tests/builds/own_random.py"
LUDO, FOG = GAMES["ludo"], GAMES["black-fog"]


def _refimpl(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "refimpl", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=240)


def _without(view: dict, fields: tuple[str, ...]) -> dict:
    return {k: v for k, v in view.items() if k not in fields}


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**53 - 1), choices=st.lists(st.integers(0, 10**6), min_size=1, max_size=120))
def test_ludo_explicit_form_plays_the_same_game(seed: int, choices: list[int]) -> None:
    """The explicit form of every seeded throw and CPU choice gives the same position; only the decision count
    may differ (a drawn number that rejects an output takes two, a given pick one)."""
    seeded = given_ = LUDO.new_state("v1", seed)
    levels = ("easy", "normal", "hard")
    for n in choices:
        if seeded.phase == "over":
            break
        action = LUDO.parse_action({"type": "roll"} if seeded.phase == "roll" else
                                   {"type": "cpu", "level": levels[n % 3]})
        explicit = LUDO.action_json(LUDO.explicit(seeded, action))
        if seeded.phase == "roll":
            assert type(explicit.get("face")) is int
        else:  # a level that draws (several best moves) is given its pick; one that does not, none
            draws = len(cpu.candidates(LUDO, seeded, action.level)) > 1
            assert (type(explicit.get("pick")) is int) == draws, (explicit, draws)
        explicit = LUDO.parse_action(explicit)
        seeded, given_ = LUDO.apply(seeded, action), LUDO.apply(given_, explicit)
        assert _without(LUDO.view(seeded), ("decisions",)) == _without(LUDO.view(given_), ("decisions",))


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**53 - 1), picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=60))
def test_black_fog_explicit_forms_play_the_same_game(seed: int, picks: list[int]) -> None:
    """The seed's map given in the set-up, and each seeded die and fog given explicitly, give the same game;
    only the draw count differs (given outcomes take nothing from the stream)."""
    setup = FOG.explicit_setup("v1", seed, {})
    assert set(setup) == {"map"}
    seeded, given_ = FOG.new_state("v1", seed), FOG.new_state("v1", seed, setup)
    assert given_.draws == 0
    for n in picks:
        legal = FOG.legal_actions(seeded)
        if not legal:
            break
        action = legal[n % len(legal)]
        if action["type"] == "roll":
            action = {"type": "roll"}
        explicit = FOG.explicit(seeded, action)
        if action["type"] in ("roll", "fog"):
            assert explicit.get("face" if action["type"] == "roll" else "tiles") is not None
        seeded, given_ = FOG.apply(seeded, action), FOG.apply(given_, explicit)
        assert _without(FOG.view(seeded), ("draws",)) == _without(FOG.view(given_), ("draws",))


def test_rewriter_gives_only_what_a_stream_would_draw() -> None:
    """A seeded start and throw are made explicit; a refused start, a given outcome and a rejected seeded
    action go as written (the build must refuse them the same way)."""
    r = Rewriter()
    start = r.rewrite(Start("black-fog", "v1", 3, {}))
    assert isinstance(start, Start) and (start.game, start.ruleset, start.seed) == ("black-fog", "v1", 3)
    assert set(start.setup) == {"map"}
    assert r.rewrite(Start("black-fog", "v1", 3, {"bogus": 1})) == Start("black-fog", "v1", 3, {"bogus": 1})
    assert r.rewrite(Start("ludo", "v1", 1, {})) == Start("ludo", "v1", 1, {})
    assert r.rewrite(Apply({"type": "roll"})) == Apply({"type": "roll", "face": 6})  # seed 1's first face
    assert r.rewrite(Apply({"type": "roll"})) == Apply({"type": "roll"})  # wrong phase: sent as written
    # a 6 with four pieces in the yard: easy draws among four, so the pick the decision stream gives is sent
    picked = r.rewrite(Written({"op": "apply", "action": {"type": "cpu", "level": "easy"}}))
    assert isinstance(picked, Written) and picked.fields["action"]["pick"] in range(4)
    r.rewrite(Start("ludo", "v1", 1, {"pieces": {"human": [5, 57, 57, 57]}}))
    r.rewrite(Apply({"type": "roll", "face": 2}))
    assert r.rewrite(Apply({"type": "cpu", "level": "easy"})) == Apply({"type": "cpu", "level": "easy"})


def test_explicit_trace_leaves_counters_and_stream_rules_to_the_oracle() -> None:
    trace = explicit_trace(load_trace(ROOT / "traces/ludo/cpu-pick.yaml"))
    assert all("decisions" not in (s.expect or {}) for s in trace.steps)
    assert not set(trace.rules) & STREAM_RULES
    oracle = ExplicitChance(ReferenceDriver())
    oracle.start("ludo", "v1", 1)
    assert oracle.apply({"type": "roll"})["last_face"] == 6


def test_own_random_build_conforms_with_the_capability_and_stream_rules_are_judged_on_its_own_chance(
        tmp_path: Path) -> None:
    """The traces and scenarios give it every outcome and claim none of the streams' rules; what the seed
    promises of its own source (same seed, same game; the CPUs leave the dice alone) is judged by the checks of
    its own chance alone (harness/seeds.py), which pass for a build whose generators are seeded by the game."""
    out = tmp_path / "r.json"
    proc = _refimpl("verify", "--impl", OWN_RANDOM, "--game", "ludo", "--game", "black-fog", "--game",
                    "conquest-king", "--twice", "--perft", "2", "--json", str(out))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    doc = json.loads(out.read_text())
    assert doc["explicit_chance"] is True
    assert any("explicit-chance" in w and "own chance by the seed" in w for w in doc["warnings"])
    claimed = {r for c in doc["checks"] if c["kind"] != "chance" for r in c["credited_rules"]}
    assert not claimed & STREAM_RULES
    judged = {r for c in doc["checks"] if c["kind"] == "chance" and c["status"] == "passed" for r in c["rules"]}
    assert STREAM_RULES <= judged, STREAM_RULES - judged
    assert {"trace", "determinism", "perft", "scenario"} <= {c["kind"] for c in doc["checks"]}


@pytest.mark.parametrize(("flag", "name", "rules"), [
    ("--unseeded", "ludo/own chance by the seed", {"LD-DICE-1", "LD-R5"}),
    ("--shared-stream", "ludo/own dice apart from the CPUs", {"LD-CPU-5"}),
    ("--cycling-die", "ludo/own dice", {"LD-ROLL-1"}),
])
def test_own_chance_that_breaks_what_the_seed_promises_fails(flag: str, name: str, rules: set[str]) -> None:
    """A source that ignores the seed, a CPU that draws from the dice's generator, a die that cycles 1-6 (uniform
    but not independent): each fails its check, credited to its rules, where a count of faces alone passes."""
    proc = _refimpl("verify", "--impl", f"{OWN_RANDOM} {flag}", "--game", "ludo", "--no-scenarios",
                    "--format", "json")
    assert proc.returncode == 1, proc.stdout[-3000:]
    failed = {c["name"]: c for c in json.loads(proc.stdout)["checks"] if c["status"] == "failed"}
    assert name in failed, sorted(failed)
    assert rules <= set(failed[name]["credited_rules"])


def test_black_fog_own_chance_that_ignores_the_seed_fails() -> None:
    proc = _refimpl("verify", "--impl", f"{OWN_RANDOM} --unseeded", "--game", "black-fog", "--no-scenarios",
                    "--format", "json")
    assert proc.returncode == 1, proc.stdout[-3000:]
    failed = {c["name"] for c in json.loads(proc.stdout)["checks"] if c["status"] == "failed"}
    assert failed == {"black-fog/own chance by the seed"}


@pytest.mark.parametrize("game", ["ludo", "conquest-king"])
def test_own_random_build_fails_without_the_capability(game: str) -> None:
    """Its own dice (Ludo) or its own map at every start (Conquest King, ruling CK-R1), undeclared."""
    proc = _refimpl("verify", "--impl", OWN_RANDOM + " --no-capability", "--game", game, "--no-scenarios")
    assert proc.returncode == 1, proc.stdout[-3000:]


def test_fuzz_gives_an_own_random_build_explicit_chance(tmp_path: Path) -> None:
    for game in ("ludo", "black-fog", "conquest-king"):
        proc = _refimpl("fuzz", "--impl", OWN_RANDOM, "--game", game, "--seed", "3", "--examples", "30",
                        "--quiet", "--out", str(tmp_path))
        assert proc.returncode == 0, proc.stdout[-3000:]
