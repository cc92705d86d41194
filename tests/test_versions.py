"""``refimpl replay --ruleset v0 --ruleset v1 TRACE`` (issue 45): one route played to its end under each version,
side by side: where the states part, each field with every version's value, how a version refused a step, and
each version's result; a profile against the spec's values; the same version twice is bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from refimpl.cli import main
from refimpl.games import GAMES
from refimpl.harness.tracefile import load_trace
from refimpl.harness.versions import Version, across

ROOT = Path(__file__).resolve().parent.parent
SAFE_V1 = ROOT / "traces" / "beacon-lines" / "safe-route-v1.yaml"


def test_beacon_lines_v1_ends_where_v0_plays_on() -> None:
    """The beacon worth 2 in v1 (BL-SCORE-2) makes red win after round 2; v0 plays a third round and draws. The
    third claim is refused under v1 (the game is over) and played under v0."""
    a = across(load_trace(SAFE_V1), [Version("v0"), Version("v1")])
    assert a.parted_at == 2 and a.results == {"v0": "draw", "v1": "red"}
    second = {p.path: p.values for p in a.steps[1].parts}
    assert second["scores.red"] == {"v0": 3, "v1": 4} and second["result"] == {"v0": None, "v1": "red"}
    assert a.steps[2].taken == {"v0": "applied", "v1": "rejected game-over"}
    assert not a.steps[0].parts and "ruleset" not in second


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["beacon-lines", "lantern-quay"]), st.integers(0, 2**32), st.integers(1, 12))
def test_a_route_under_one_version_twice_never_parts(game: str, seed: int, steps: int) -> None:
    """A version against itself (the same ruleset under two names: itself and a profile that sets nothing)
    never parts, and takes every step alike."""
    import random

    from refimpl.harness.trace import Step, Steps, Trace
    from refimpl.rulebook.profiles import Profile

    engine, rng = GAMES[game], random.Random(seed)
    state, actions = engine.new_state("v1"), []
    for _ in range(steps):
        legal = engine.legal_actions(state)
        if not legal:
            break
        action = rng.choice(legal)
        actions.append(engine.action_json(action))
        state = engine.apply(state, action)
    trace = Trace(path="drawn", game=game, ruleset="v1", seed=None, setup={}, title="", rules=(), source="",
                  steps=Steps.of(Step(number=i + 1, line=0, action=a) for i, a in enumerate(actions)))
    a = across(trace, [Version("v1"), Version("v1", Profile(game, "same"))])
    assert a.parted_at is None and all(len(set(s.taken.values())) == 1 for s in a.steps)
    assert len(set(a.results.values())) == 1


def test_the_command_shows_the_parting_in_text_and_json(tmp_path: Path) -> None:
    run = CliRunner().invoke
    text = run(main, ["replay", "--ruleset", "v0", "--ruleset", "v1", str(SAFE_V1)])
    assert text.exit_code == 0, text.output
    assert "the states part after step 2" in text.output and "v1 rejected game-over" in text.output
    assert "result: v0 draw, v1 red" in text.output
    doc = json.loads(run(main, ["replay", "--ruleset", "v0", "--ruleset", "v1", str(SAFE_V1), "--format",
                                "json"]).output)
    (one,) = doc["versions"]
    assert one["parted_at"] == 2 and one["results"] == {"v0": "draw", "v1": "red"} and len(one["steps"]) == 3


def test_a_profile_is_shown_beside_the_specs_values(tmp_path: Path) -> None:
    """One --profile: the trace's ruleset under the spec's values, then under the profile (Conquest King with
    Sparkia's light infantry worth 9 in attack is no change the opening moves show; a route that fights is)."""
    profile = tmp_path / "slow.yaml"
    profile.write_text("game: beacon-lines\nname: same\nset: {}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", "--profile", str(profile), str(SAFE_V1)])
    assert result.exit_code == 0 and "beacon-lines under v1, v1+same" in result.output
    assert "the states never part" in result.output


@pytest.mark.parametrize(("args", "said"), [
    (["--ruleset", "v1", "--ruleset", "v1"], "a version is given twice"),
    (["--ruleset", "v0", "--ruleset", "v9"], "has no ruleset 'v9'"),
])
def test_bad_versions_are_exit_2(args: list[str], said: str) -> None:
    result = CliRunner().invoke(main, ["replay", *args, str(SAFE_V1)])
    assert result.exit_code == 2 and said in result.output and "Traceback" not in result.output


@pytest.mark.parametrize(("ties", "winner", "destroyed", "phase"), [("attacker", "attacker", ["gaias-2"], "play"),
                                                                   ("defender", "defender", ["sparkia-3"], "play"),
                                                                   ("again", None, [], "combat")])
def test_conquest_kings_tie_variant_decides_the_seeds_worked_tie(ties: str, winner: str | None,
                                                                   destroyed: list[str], phase: str) -> None:
    """The seed's figure 1 is a tie (7 against 7): the attacker wins it by the seed (CK-ATK-4); under the variant
    ``ties`` the defender does, or (``again``) nothing is destroyed and the fight waits for another throw."""
    from refimpl.rulebook.profiles import Profile

    trace = load_trace(ROOT / "traces" / "conquest-king" / "worked-combats.yaml")
    profile = Profile("conquest-king", ties, {"ties": ties})
    engine = profile.engine()
    state = engine.new_state("v1", setup=dict(trace.setup))
    for step in trace.steps[:2]:
        state = engine.apply(state, engine.parse_action(step.action))
    view = engine.view(state)
    assert view["last_combat"]["winner"] == winner and view["last_combat"]["destroyed"] == destroyed
    assert view["phase"] == phase
    a = across(trace, [Version("v1"), Version("v1", profile)])
    assert a.parted_at == (None if ties == "attacker" else 2)


def test_tables_under_a_profile(tmp_path: Path) -> None:
    path = tmp_path / "again.yaml"
    path.write_text("game: conquest-king\nname: again\nset:\n  ties: again\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["tables", "conquest-king", "dice", "--profile", str(path)])
    assert result.exit_code == 0 and "15/30" in result.output
    other = CliRunner().invoke(main, ["tables", "ludo", "--profile", str(path)])
    assert other.exit_code == 2 and "a profile of conquest-king, not ludo" in other.output


def test_the_dice_table_follows_the_tie_rule() -> None:
    """``refimpl tables conquest-king dice`` under each tie rule: at an equal base the attacker wins 21 of 36
    (ties to the attacker), 15 of 36 (to the defender), 15 of the 30 throws that decide (thrown again)."""
    from refimpl.games.conquest_king.kit.tables import attacker_wins

    assert [attacker_wins(0, t) for t in ("attacker", "defender", "again")] == [(21, 36), (15, 36), (15, 30)]
    assert all(attacker_wins(d, "again")[1] == 36 - sum(1 for a in range(1, 7) for e in range(1, 7) if d + a == e)
               for d in range(-6, 6))


def test_map_and_perft_follow_a_profiles_variants(tmp_path: Path) -> None:
    """``refimpl map --profile``: a drawn Black Fog map with one apple tree a ring has 4 (rings 2 to 5), the
    seed's 3 a ring 12; ``refimpl perft --profile``: Beacon Lines over in one round has no second claim."""
    run = CliRunner().invoke
    trees = tmp_path / "trees.yaml"
    trees.write_text("game: black-fog\nname: sparse\nset:\n  apple_trees_per_ring: 1\n", encoding="utf-8")
    drawn = {p: json.loads(run(main, ["map", "--seed", "3", "--format", "json",
                                      *(["--profile", str(trees)] if p else [])]).output) for p in (False, True)}
    assert {p: len(d["apple"]) for p, d in drawn.items()} == {False: 12, True: 4}
    short = tmp_path / "short.yaml"
    short.write_text("game: beacon-lines\nname: short\nset:\n  rounds: 1\n", encoding="utf-8")
    plain = run(main, ["perft", "beacon-lines", "--depth", "2", "--format", "json"]).output
    one = run(main, ["perft", "beacon-lines", "--depth", "2", "--format", "json", "--profile", str(short)]).output
    assert plain != one and '"nodes": 0' not in plain
    bad = run(main, ["map", "--profile", str(short)])
    assert bad.exit_code == 2 and "a profile of beacon-lines, not black-fog" in bad.output
