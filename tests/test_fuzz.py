"""``refimpl fuzz``: the reference fuzzes clean, every wrong build is found with a short reproducer that
replays to the same mismatch, runs repeat exactly, a build's faults are the build's, and the pieces the
fuzzer is made of (set-up drawers, bent inputs, ``setup_of``, the rules named per field) hold up."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from refimpl.campaigns.fuzz import FuzzSettings, fuzz
from refimpl.campaigns.fuzz.cases import CaseDraw, CaseShape, draw_case
from refimpl.campaigns.fuzz.draw import Draw
from refimpl.campaigns.fuzz.inputs import bend_action, bend_start, odd_action
from refimpl.campaigns.fuzz.judge import Upcoming, judge_drawn
from refimpl.campaigns.fuzz.kinds import KindsMet, Options, action_kind, options
from refimpl.campaigns.fuzz.positions import drawer
from refimpl.games import GAMES, RuleViolation
from refimpl.harness.driver import ReferenceDriver
from refimpl.harness.protocol import Build, ProtocolDriver
from refimpl.harness.replay import replay_all
from refimpl.harness.requests import Apply, Op, Start
from refimpl.harness.serve import Session
from refimpl.harness.tracefile import load_trace
from refimpl.rulebook.rules import spec_rules
from refimpl.status import Status
from tests.builds.wrong import VARIANTS

DRAWERS = {game: found for game in GAMES if (found := drawer(game)) is not None}

ROOT = Path(__file__).resolve().parent.parent
PY = shlex.quote(sys.executable)
SERVE = f"{PY} -m refimpl serve"


def build(script: str, *args: str) -> str:
    return " ".join([PY, shlex.quote(str(ROOT / "tests" / "builds" / script)), *map(shlex.quote, args)])


def refimpl(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "refimpl", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, check=False)


# --- the reference against itself ---------------------------------------------------------------------

@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_reference_fuzzes_clean(game: str, tmp_path: Path) -> None:
    report = fuzz(SERVE, FuzzSettings(game, examples=25 if game == "conquest-king" else 60), tmp_path)
    assert report.finding is None, report.explanation
    assert report.cases >= 25 and report.requests > report.cases
    assert not list(tmp_path.iterdir())


# --- every wrong build ----------------------------------------------------------------------------

@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_fuzz_finds_every_wrong_build_with_a_short_reproducer(variant: str, tmp_path: Path) -> None:
    game, _, rule = VARIANTS[variant]
    report = fuzz(build("wrong.py", variant), FuzzSettings(game, shrink_time=10), tmp_path)
    assert report.finding is not None and report.finding.kind == Status.DIVERGES, variant
    assert report.finding.found_after < 60
    trace = load_trace(report.trace_path)
    assert len(trace.steps) <= 10, f"{variant}: a reproducer of {len(trace.steps)} steps"
    assert report.replays == "replays to the same mismatch"
    text = "\n".join(report.explanation)
    assert ("expected (reference)" in text and "actual (build)" in text) or "the reference lists" in text \
        or "expected " in text
    assert report.divergence is not None and report.divergence.request in text
    if variant == "leaks-the-ambush":
        assert report.divergence.difference.path.startswith("view[")
    if report.divergence.difference.path.startswith("view["):
        # a divergence in a player's view: the reproducer carries that view as an expectation, so it fails
        # from the trace alone too (without the oracle)
        driver = ProtocolDriver(build("wrong.py", variant))
        try:
            (result,) = replay_all([trace], driver, oracle=None)
        finally:
            driver.close()
        assert result.failure is not None and result.failure.difference is not None
        assert result.failure.difference.path == report.divergence.difference.path


def test_ludo_decisions_are_told_as_the_pieces_each_side_moved(tmp_path: Path) -> None:
    proc = refimpl("fuzz", "--impl", build("wrong.py", "hard-ignores-risk"), "--game", "ludo",
                   "--out", str(tmp_path), "--shrink-time", "10")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert re.search(r"the reference: (human|cpu\d) piece \d: ", proc.stdout), proc.stdout
    assert re.search(r"the build: +(human|cpu\d) piece \d: ", proc.stdout), proc.stdout
    assert "LD-CPU" in proc.stdout and "replays to the same mismatch" in proc.stdout


# --- the same run every time ----------------------------------------------------------------------

def _run(tmp: Path, *extra: str) -> tuple[str, str]:
    proc = refimpl("fuzz", "--impl", build("wrong.py", "forge-spends-on-failure"), "--game", "lantern-quay",
                   "--seed", "11", "--examples", "300", "--out", str(tmp), *extra)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    said = re.sub(r"\d+\.\d+ s", "_ s", proc.stdout.replace(str(tmp), "OUT"))
    said = re.sub(r"(?m)^[\d.]+ cases and [\d.]+ requests a second.*\n", "", said)  # speed varies
    (written,) = tmp.glob("lantern-quay-*-seed11.yaml")  # named by the finding's ruleset: the cases take each in turn
    return said, written.read_text()


def test_the_same_seed_and_job_count_give_the_same_run(tmp_path: Path) -> None:
    first = _run(tmp_path / "a", "--jobs", "2")
    assert _run(tmp_path / "b", "--jobs", "2") == first
    assert "2 campaign(s)" in first[0]
    said, trace = _run(tmp_path / "one")
    report = fuzz(build("wrong.py", "forge-spends-on-failure"), FuzzSettings("lantern-quay", seed=11, examples=300),
                  tmp_path / "lib")
    assert Path(report.trace_path or "").read_text() == trace  # in-process, the same
    assert report.trace_path == str(tmp_path / "lib" / f"lantern-quay-{report.ruleset}-seed11.yaml")
    assert f"at step {report.divergence.step}:" in said


# --- a build's faults -----------------------------------------------------------------------------

@pytest.mark.parametrize("mode, cause", [("legal-non-objects", "bad-response"), ("crash-mid", "exited"),
                                         ("exit-early", "exited")])
def test_a_build_that_breaks_is_named_with_exit_3(mode: str, cause: str, tmp_path: Path) -> None:
    proc = refimpl("fuzz", "--impl", build("misbehave.py", mode), "--game", "beacon-lines", "--out", str(tmp_path),
                   "--shrink-time", "2")
    assert proc.returncode == 3, proc.stdout + proc.stderr
    assert cause in proc.stdout and 'File "' not in proc.stdout + proc.stderr  # the build's stderr, not ours
    assert "Flaky" not in proc.stdout + proc.stderr and "Hypothesis" not in proc.stdout + proc.stderr
    (path,) = tmp_path.glob("*.yaml")
    assert "replays to the same fault" in proc.stdout
    assert load_trace(path).steps


def test_a_hanging_build_is_cut_off(tmp_path: Path) -> None:
    proc = refimpl("fuzz", "--impl", build("misbehave.py", "hang-mid"), "--game", "beacon-lines", "--out",
                   str(tmp_path), "--timeout", "0.5", "--shrink-time", "1", timeout=120)
    assert proc.returncode == 3 and "hung" in proc.stdout, proc.stdout + proc.stderr


def test_a_build_that_reads_the_clock_is_caught_by_running_twice(tmp_path: Path) -> None:
    clocky = build("misbehave.py", "clock-in-state")
    judged = refimpl("verify", "--impl", clocky, "-k", "immediate-lens", "--no-scenarios")
    assert judged.returncode == 1 and "served_at  <missing> | 1" in judged.stdout, judged.stdout
    assert "LQ-VIEW-1 (by the reference)" in judged.stdout  # a field no view has breaks the view's rule
    plain = refimpl("verify", "--impl", clocky, "-k", "immediate-lens", "--no-scenarios", "--no-oracle")
    assert plain.returncode == 0, "an extra key passes the partial comparisons of a trace"
    twice = refimpl("verify", "--impl", clocky, "-k", "immediate-lens", "--no-scenarios", "--no-oracle", "--twice")
    assert twice.returncode == 1 and "differs between two runs of the same requests" in twice.stdout
    fuzzed = refimpl("fuzz", "--impl", clocky, "--game", "lantern-quay", "--examples", "5", "--out", str(tmp_path),
                     "--shrink-time", "2")
    assert fuzzed.returncode == 1 and "served_at" in fuzzed.stdout


def test_fuzz_bad_usage() -> None:
    proc = refimpl("fuzz", "--game", "chess")
    assert proc.returncode == 2 and "unknown game 'chess'" in proc.stderr and "Traceback" not in proc.stderr
    proc = refimpl("fuzz", "--game", "ludo", "--ruleset", "v7")
    assert proc.returncode == 2 and "v7" in proc.stderr and "Traceback" not in proc.stderr
    broke = refimpl("fuzz", "--impl", build("misbehave.py", "crash-at-start"), "--game", "beacon-lines")
    assert broke.returncode == 3 and "crashed-at-start" in broke.stdout


def test_json_report(tmp_path: Path) -> None:
    import json

    proc = refimpl("fuzz", "--impl", build("wrong.py", "second-claim"), "--game", "beacon-lines", "--out",
                   str(tmp_path), "--format", "json", "--shrink-time", "5")
    assert proc.returncode == 1
    doc = json.loads(proc.stdout)
    assert doc["finding"]["kind"] == Status.DIVERGES and doc["finding"]["steps"] <= 3
    assert doc["divergence"]["path"] and doc["replays"] == "replays to the same mismatch"
    assert doc["reproducer"] == str(tmp_path / f"beacon-lines-{doc['ruleset']}-seed0.yaml")
    assert doc["rulesets"] == ["v1", "v0"] and doc["ruleset"] in doc["rulesets"]  # the default's first


# --- the pieces ------------------------------------------------------------------------------------

def _answer(session: Session, op: Op) -> dict[str, Any]:
    """The reference's protocol answer: ok, or a rejection or error with a code; never an exception."""
    answer = session.handle(op.body())
    assert answer["ok"] or (answer.get("rejected") or answer["error"])["code"], answer
    return answer


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(DRAWERS)), st.integers(0, 2**32))
def test_drawn_and_bent_set_ups_are_taken_or_refused_with_a_code(game: str, seed: int) -> None:
    engine = GAMES[game]
    d = Draw(seed=seed)
    ruleset = d.pick(engine.info.rulesets)
    setup = DRAWERS[game](d, engine, ruleset)
    session = Session(GAMES, "reference")
    _answer(session, Start(game, ruleset, None, setup))
    bent = bend_start(d, ruleset, None, setup)
    _answer(session, Start(game, bent["ruleset"], bent["seed"], bent["setup"]))


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(GAMES)), st.integers(0, 2**32))
def test_bent_and_odd_actions_are_taken_or_refused_with_a_code(game: str, seed: int) -> None:
    engine = GAMES[game]
    d = Draw(seed=seed)
    session = Session(GAMES, "reference")
    _answer(session, Start(game, d.pick(engine.info.rulesets), None, {}))
    for _ in range(d.below(30)):
        legal, _ = options(engine, session.state)
        if not legal:
            break
        _answer(session, Apply(d.pick(legal)))
    legal, extra = options(engine, session.state)
    if not legal:
        return
    action = d.pick(legal)
    before = engine.view(session.state)
    for bent in (bend_action(d, action, legal + extra), odd_action(d, action)):
        if not _answer(session, Apply(bent))["ok"]:
            assert engine.view(session.state) == before  # a refused action leaves the game as it was
        before = engine.view(session.state)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(sorted(DRAWERS)), st.integers(0, 2**32))
def test_setup_of_gives_a_set_up_that_rebuilds_the_position(game: str, seed: int) -> None:
    """From any position a drawn case reaches, ``setup_of`` gives a set-up the game accepts, and setting up
    from the set-up's own position gives back the same set-up (a fixed point)."""
    engine = GAMES[game]
    case = draw_case(Draw(seed=seed), game, engine.info.default_ruleset,
                     CaseShape(max_steps=40, depth=engine.info.typical_length // 2))
    try:
        state = engine.new_state(case.ruleset, case.seed, case.setup)
    except RuleViolation:
        return
    for step in case.steps:
        if step.kind != "action":
            continue
        try:
            state = engine.apply(state, engine.parse_action(step.body))
        except RuleViolation:
            continue
    setup = engine.setup_of(state)
    if setup is None:
        return
    rebuilt = engine.new_state(case.ruleset, None, setup)
    assert engine.setup_of(rebuilt) == setup


def test_every_view_field_names_rules_that_exist() -> None:
    for name, engine in GAMES.items():
        ids = set(spec_rules((ROOT / engine.info.spec).read_text(encoding="utf-8")))
        info = engine.info
        for ruleset in info.rulesets:
            fields = set(engine.view(engine.new_state(ruleset)))
            missing = fields - set(info.field_rules)
            assert not missing, f"{name} {ruleset}: no rules named for {sorted(missing)}"
        for key in ("rejected", "legal"):
            assert info.field_rules.get(key), f"{name}: no rules named for {key}"
        unknown = {r for rules in info.field_rules.values() for r in rules} - ids
        assert not unknown, f"{name}: field_rules names rules the spec lacks: {sorted(unknown)}"


def test_the_reference_fuzzed_in_process_runs_every_request_kind() -> None:
    """Over a few hundred drawn cases every request kind appears: actions, bent actions, malformed ones,
    restarts, new starts, state per observer and legal requests, and set-up starts."""
    kinds: dict[str, int] = {}
    origins: set[str] = set()
    for seed in range(150):
        case = draw_case(Draw(seed=seed), "conquest-king", "v1", CaseShape(max_steps=60, depth=30))
        origins.add(case.origin)
        for step in case.steps:
            key = step.kind
            if step.kind == "request":
                key = str(step.body.get("op")) if isinstance(step.body, dict) else "odd"
            elif step.kind == "action" and not isinstance(step.body, dict):
                key = "non-object action"
            kinds[key] = kinds.get(key, 0) + 1
    assert {"action", "restart", "start", "state", "legal", "non-object action"} <= set(kinds), kinds
    assert origins == {"plain", "played", "drawn"}


def test_fuzz_searches_for_its_time_budget_and_reports_its_rate(tmp_path: Path) -> None:
    """Without a count of cases a campaign searches for its time budget (30 s unless --max-time), and the report
    gives cases and requests a second; with a count it stops there."""
    import time

    started = time.monotonic()
    report = fuzz(SERVE, FuzzSettings("lantern-quay", max_time=2), tmp_path)
    took = time.monotonic() - started
    (result,) = report.campaigns
    assert result.timed_out and result.search_seconds >= 2 and took < 30
    assert report.finding is None and report.cases > 20
    counted = fuzz(SERVE, FuzzSettings("lantern-quay", examples=7), tmp_path)
    assert counted.cases == 7 and not counted.campaigns[0].timed_out
    doc = report.json()
    assert doc["settings"]["examples"] is None and doc["rate"]["cases_per_second"] > 0
    assert FuzzSettings("ludo").budget == 30.0 and FuzzSettings("ludo", examples=5).budget is None


# --- where the reproducer goes, and what of its set-up it keeps ---------------------------------------

def test_out_naming_a_yaml_file_writes_the_reproducer_there(tmp_path: Path) -> None:
    import json

    found = tmp_path / "found.yaml"
    proc = refimpl("fuzz", "--impl", build("wrong.py", "second-claim"), "--game", "beacon-lines", "--out",
                   str(found), "--format", "json", "--shrink-time", "5", "--quiet")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert found.is_file() and json.loads(proc.stdout)["reproducer"] == str(found)
    assert load_trace(found).game == "beacon-lines" and list(tmp_path.iterdir()) == [found]
    folder = tmp_path / "old.yml"  # a folder already there stays a folder
    folder.mkdir()
    report = fuzz(build("wrong.py", "second-claim"), FuzzSettings("beacon-lines", shrink_time=5), folder)
    assert report.trace_path == str(folder / f"beacon-lines-{report.ruleset}-seed0.yaml")
    nested = tmp_path / "new" / "case.YML"
    report = fuzz(build("wrong.py", "second-claim"), FuzzSettings("beacon-lines", shrink_time=5), nested)
    assert report.trace_path == str(nested) and nested.is_file()


def test_the_reproducer_keeps_only_the_set_up_the_divergence_needs(tmp_path: Path) -> None:
    """Defender-wins-ties is a fault of the tie-break alone: what the drawn set-up holds besides the fight (its
    terrain, field, turn, side) is pruned, the units not in the fight are gone (thinned while shrinking, or
    pruned), and the trace still replays to the same mismatch."""
    report = fuzz(build("wrong.py", "defender-wins-ties"), FuzzSettings("conquest-king", shrink_time=30), tmp_path)
    assert report.finding is not None and report.finding.kind == Status.DIVERGES
    assert report.replays == "replays to the same mismatch"
    trace = load_trace(report.trace_path)
    dropped = trace.description.split("pruned of what the divergence does not need: ", 1)[1]
    assert dropped and "terrain" not in trace.setup, trace.setup  # (pruned, or a drawn set-up on the profile's map)
    # the fight's two sides (a King not listed stays in its castle, and may be one of them) and at most a supporter
    assert 1 <= len(trace.setup["units"]) <= 3, trace.setup
    assert report.finding.case["setup"] == dict(trace.setup)


def test_setup_pruning_keeps_a_removal_only_when_the_divergence_stays() -> None:
    from refimpl.campaigns.fuzz.cases import Case
    from refimpl.campaigns.fuzz.judge import Judged
    from refimpl.campaigns.fuzz.reproducer import SetupPruner

    setup = {"terrain": ["...."], "units": [{"id": 1}, {"id": 2}, {"id": 3}], "map": {"fog": ["a", "b"]},
             "turn": 2}

    def judged(case: Case) -> Judged:
        return Judged(case, [], [], [], None)

    def diverges(case: Case) -> Judged | None:  # the fault needs unit 2, fog hex b and a turn
        s = case.setup
        needed = {"id": 2} in s.get("units", []) and "b" in s.get("map", {}).get("fog", []) and "turn" in s
        return judged(case) if needed else None

    pruner = SetupPruner(judged(Case("conquest-king", "v1", None, setup)), diverges, lambda: True)
    assert pruner.run().case.setup == {"units": [{"id": 2}], "map": {"fog": ["b"]}, "turn": 2}
    assert pruner.dropped == ["terrain", "units[0]", "units[2]", "map.fog[0]"]
    assert setup["units"] == [{"id": 1}, {"id": 2}, {"id": 3}]  # the case it was given is left as it was
    tries = iter([True, False])
    stopped = SetupPruner(judged(Case("conquest-king", "v1", None, setup)), diverges, lambda: next(tries, False))
    assert stopped.run().case.setup == {k: v for k, v in setup.items() if k != "terrain"}


@pytest.mark.parametrize("mode", ["crash-mid", "exit-early"])
def test_fuzz_leaves_no_build_process_behind(mode: str, tmp_path: Path) -> None:
    """The build processes fuzz starts in place of one that died are closed too (the first is its caller's)."""
    import psutil

    report = fuzz(build("misbehave.py", mode), FuzzSettings("beacon-lines", seed=3, examples=50, shrink_time=2),
                  tmp_path)
    assert report.finding is not None
    assert psutil.Process().children(recursive=True) == []


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(sorted(GAMES)), st.integers(0, 2**32))
def test_a_case_drawn_as_it_is_judged_is_the_case_drawn_whole(game: str, seed: int) -> None:
    """Drawing a case while the judge's plan plays it (the draw's mirror as the plan's reference) gives the
    very case the same choices give drawn whole first, and the reference agrees with itself on it."""
    engine = GAMES[game]
    shape = CaseShape(max_steps=40, depth=engine.info.typical_length // 2)
    whole = draw_case(Draw(seed=seed), game, engine.info.default_ruleset, shape)
    judged = judge_drawn(CaseDraw(Draw(seed=seed), game, engine.info.default_ruleset, shape),
                         ReferenceDriver(), lists_legal=True)
    assert judged.case == whole
    assert judged.divergence is None
    assert len(judged.answers) == len(judged.outcomes) == len(judged.probes) > 0


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["conquest-king", "black-fog", "ludo"]), st.lists(st.integers(0, 10**6), max_size=30))
def test_kinds_kept_from_position_to_position_are_the_kinds_worked_out_afresh(game: str, picks: list[int]) -> None:
    """``Options.kinds`` with the kinds of actions met at earlier positions (the mirror's ``seen``) sorts
    every action as ``action_kind`` does, in the order of the list, at every position of a random game."""
    engine = GAMES[game]
    state = engine.new_state(engine.info.default_ruleset)
    met = KindsMet()
    extra = [{"type": "deploy", "ambush": 1}, {"type": "deploy", "ambush": True, "x": True}, "odd", [1]]
    for pick in picks + [0]:
        legal, every = options(engine, state)
        here = Options(legal, every + extra * (pick % 2), met)
        for type_ in here.types():
            grouped: dict[str, list[Any]] = {}
            for a in here.every:
                if (a.get("type") if isinstance(a, dict) else "?") == type_:
                    grouped.setdefault(action_kind(a), []).append(a)
            assert here.kinds(type_) == grouped
        actions = engine.legal_actions(state)
        if not actions:
            break
        state = engine.apply(state, actions[pick % len(actions)])


def _floats(value: Any) -> list[float]:
    if type(value) is float:
        return [value]
    if isinstance(value, dict):
        return [f for v in value.values() for f in _floats(v)]
    if isinstance(value, list):
        return [f for v in value for f in _floats(v)]
    return []


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(GAMES)), st.integers(0, 2**32))
def test_the_reference_answers_drawn_cases_with_no_float(game: str, seed: int) -> None:
    """What lets the fuzzer take a build's line that is byte for byte the reference's answer as that answer
    (refimpl/harness/known.py, ``known_answer``): orjson writes NaN and the infinities as null, and the reference
    never answers with a float, whatever the case sends it (bent starts, bent actions)."""
    engine = GAMES[game]
    shape = CaseShape(max_steps=40, depth=engine.info.typical_length // 2)
    judged = judge_drawn(CaseDraw(Draw(seed=seed), game, engine.info.default_ruleset, shape),
                         ReferenceDriver(), lists_legal=True)
    assert not [f for answer in judged.answers for f in _floats(answer)]


def test_conquest_king_deployments_shared_by_legal_lists_stay_as_made() -> None:
    """A deployment's actions are made once per map and shared by every legal list (``_deploy_actions``):
    drawing, bending and judging cases (the reference against itself, legal lists compared) change none."""
    engine = GAMES["conquest-king"]
    state = engine.new_state(engine.info.default_ruleset)  # both sides deploying
    first = engine.legal_actions(state)
    made = json.dumps(first)
    assert sum(a["type"] == "deploy" for a in first) > 500
    shape = CaseShape(max_steps=40, depth=20)
    for seed in range(40):
        judged = judge_drawn(CaseDraw(Draw(seed=seed), "conquest-king", "v1", shape), ReferenceDriver(),
                             lists_legal=True)
        assert judged.divergence is None
    again = engine.legal_actions(state)
    assert again[1] is first[1] or again[-1] is first[-1]  # the same objects: shared, as the test assumes
    assert json.dumps(again) == json.dumps(first) == made


class _Plain(ReferenceDriver):
    """The reference as a build that declares neither ``legal`` nor ``stats``."""

    capabilities = frozenset()


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(sorted(GAMES)), st.integers(0, 2**64 - 1), st.integers(0, 400), st.booleans())
def test_a_case_drawn_ahead_while_the_build_answers_is_the_case_drawn_in_its_turn(game: str, seed: int,
                                                                                  ahead: int, plain: bool) -> None:
    """The search draws its next case while the build answers the one before (``Upcoming.step``, any number of
    requests ahead, the one after it drawn ahead in turn meanwhile): the requests, the reference's answers and
    the case are those of the case drawn in its turn without drawing ahead, for a build with or without the
    capabilities ``legal`` and ``stats``, so how long the build took never changes a run."""
    engine = GAMES[game]
    ruleset = engine.info.default_ruleset
    shape = CaseShape(max_steps=40, depth=engine.info.typical_length // 2)
    build = _Plain() if plain else ReferenceDriver()
    lists_legal = "legal" in build.capabilities
    late = judge_drawn(CaseDraw(Draw(seed=seed), game, ruleset, shape), build, lists_legal)

    upcoming = Upcoming(seed, game, ruleset, shape).planned_for(build)
    for _ in range(ahead):
        upcoming.step()
    after = Upcoming(seed ^ 1, game, ruleset, shape).planned_for(build)

    def interleaved() -> Any:
        for item in upcoming.plan():
            after.step()  # the next case, drawn ahead between two requests of this one
            yield item

    early = judge_drawn(upcoming.case_draw(), build, lists_legal, interleaved())
    assert early.case == late.case
    assert [p.op for p in early.probes] == [p.op for p in late.probes]
    assert early.answers == late.answers and early.divergence is None


def test_ludo_edge_seeds_meet_an_output_the_die_throws_away_and_are_drawn() -> None:
    """Every edge seed's next throw after its ``throws`` meets one of the four outputs an unbiased die throws
    away (ruling LD-R5); drawn set-ups use them, so a build taking the output mod 6 is found."""
    from refimpl.campaigns.fuzz.cases import draw_start
    from refimpl.games import streams
    from refimpl.games.ludo.kit.explore import ludo_stream_edges

    b = GAMES["ludo"].board
    edges = ludo_stream_edges(b.dice_xor, b.cap)
    assert len(edges) >= 4
    for seed, throws in edges:
        assert 0 <= seed < 1 << 53 and 0 <= throws < b.cap
        state = streams.after_faces((seed ^ b.dice_xor) & streams.MASK, throws)
        assert (state + streams.GOLDEN) & streams.MASK in streams.THROWN_AWAY_6
        GAMES["ludo"].new_state("v1", seed, {"throws": throws})  # a start the game accepts
    drawn = {draw_start(Draw(seed=i), "ludo", "v1", 10)[0] for i in range(400)}
    assert drawn & {seed for seed, _ in edges}


def test_black_fog_edge_seeds_draw_a_map_that_meets_a_thrown_away_output_and_are_drawn() -> None:
    """A Black Fog seed whose map, drawn from it, meets an output the unbiased draw throws away takes one output
    more than a plain seed's map (ruling BF-R6); drawn starts use such seeds around their set-up, so a build that
    keeps such an output (or takes another limit for a draw over many tiles) is found."""
    from refimpl.campaigns.fuzz.cases import draw_start
    from refimpl.games.black_fog.kit.explore import map_stream_edges, stream_edge_seeds

    engine = GAMES["black-fog"]
    assert all(0 <= seed < 1 << 53 for seed in stream_edge_seeds())
    plain = engine.new_state(None, 0, {}).draws
    edges = map_stream_edges(engine, {})
    assert edges == [3166782436651141], "the default map: one seed under 2^53 at the edge"
    assert engine.new_state(None, edges[0], {}).draws == plain + 1
    assert all(engine.new_state(None, seed, {}).draws == plain for seed in (1, 2, 3, 1 << 40, (1 << 53) - 1))
    assert map_stream_edges(engine, {"keepers": {"k1": "9,9"}}) == []  # a set-up the game refuses: none
    starts = [draw_start(Draw(seed=i), "black-fog", "v1", 10) for i in range(400)]
    at_edge = [(seed, setup) for seed, setup, how in starts if how == "drawn" and "map" not in setup
               and seed in stream_edge_seeds()]
    assert at_edge
    for seed, setup in at_edge:
        # seed 0's map drawn around the same set-up (its start may be refused: water under feed)
        assert engine.new_state(None, seed, setup).draws > engine._mapped(None, 0, setup).draws


# --- Conquest King: drawn set-ups and steps aimed where its rules are busy (issue 28) -----------------------

def _ck_draws(n: int) -> list[dict[str, Any]]:
    from refimpl.games.conquest_king.kit.explore import conquest_king

    return [conquest_king(Draw(seed=i), GAMES["conquest-king"], "v1") for i in range(n)]


def _ck_refusal(setup: dict[str, Any]) -> str | None:
    try:
        GAMES["conquest-king"].new_state("v1", None, setup)
    except RuleViolation as exc:
        return exc.code
    return None


def test_conquest_king_drawn_lobby_set_ups_give_turn_or_side_without_units_and_are_refused() -> None:
    """CK-START-1: `turn` or `side` without `units` is refused with bad-setup (answered as bad-request)."""
    odd = [s for s in _ck_draws(400) if "units" not in s and ({"turn", "side"} & set(s))]
    assert len(odd) >= 3 and {k for s in odd for k in ("turn", "side") if k in s} == {"turn", "side"}
    assert all(_ck_refusal(s) == "bad-setup" for s in odd)


def test_conquest_king_drawn_set_ups_put_a_side_one_move_from_the_enemy_gates() -> None:
    """A side on one square beside the enemy castle and a step from the other (its King often one of them), to
    move: accepted; both squares held by visible units: refused (spec "Start and set-up")."""
    p = GAMES["conquest-king"].p
    near, both, kings = 0, 0, 0
    for s in _ck_draws(600):
        for side, enemy in (p.sides, p.sides[::-1]):
            mine = {tuple(u["at"]): u for u in s.get("units", []) if u["side"] == side and not u["ambush"]}
            on = [g for g in p.gates[enemy] if g in mine]
            if len(on) == 2:
                both += 1
                assert _ck_refusal(s) == "bad-setup"
            elif len(on) == 1 and s["side"] == side:
                (other,) = set(p.gates[enemy]) - set(on)
                if any(abs(x - other[0]) + abs(y - other[1]) == 1 for x, y in mine):
                    near += 1
                    kings += any(mine[g]["kind"] == "king" for g in on) or any(
                        u["kind"] == "king" and abs(x - other[0]) + abs(y - other[1]) == 1
                        for (x, y), u in mine.items())
                    assert _ck_refusal(s) in (None, "bad-setup")
    assert near >= 10 and kings >= 3 and both >= 1


def test_conquest_king_drawn_set_ups_put_the_enemy_near_a_hidden_ambush_or_a_friend_on_it() -> None:
    """The enemy to move a step or two from a hidden ambush, straight and diagonally (its King among them), or the
    owner to move with a friend on the ambush's square: positions the game accepts (an ambush under a friend is
    allowed, under an enemy refused)."""
    straight = diagonal = king = friend = 0
    for s in _ck_draws(600):
        units = s.get("units", [])
        for a in (u for u in units if u["ambush"]):
            ax, ay = a["at"]
            others = [u for u in units if not u["ambush"]]
            if any(u["side"] == a["side"] and u["at"] == a["at"] for u in others) and s["side"] == a["side"]:
                friend += 1
                assert _ck_refusal(s) in (None, "bad-setup")  # refused only for another reason
                if _ck_refusal(s) is None:
                    engine = GAMES["conquest-king"]
                    state = engine.new_state("v1", None, s)
                    assert {"type": "reveal", "at": a["at"]} not in engine.legal_actions(state)
            elif s["side"] != a["side"]:
                for u in others:
                    if u["side"] != a["side"]:
                        dx, dy = abs(u["at"][0] - ax), abs(u["at"][1] - ay)
                        straight += (dx, dy) in ((2, 0), (0, 2))
                        diagonal += (dx, dy) == (1, 1)
                        king += u["kind"] == "king" and dx + dy == 1
    assert straight >= 10 and diagonal >= 10 and king >= 3 and friend >= 3


def _ck_focus(state: Any, want: Any, tries: int = 600) -> list[Any]:
    """The actions the Conquest King step focus proposes at ``state`` over ``tries`` draws that ``want`` keeps."""
    from refimpl.games.conquest_king.kit.explore import conquest_king_step

    engine = GAMES["conquest-king"]
    legal = [engine.action_json(a) for a in engine.legal_actions(state)]
    found = []
    for i in range(tries):
        action = conquest_king_step(Draw(seed=i), engine, state, legal)
        if action is not None and want(action):
            found.append(action)
    return found


def test_conquest_king_step_focus_aims_at_the_ambush_the_gates_and_a_reveal_under_a_friend() -> None:
    engine = GAMES["conquest-king"]
    unit = {"kind": "light-infantry", "facing": "n", "ambush": False}
    state = engine.new_state("v1", None, {"side": "sparkia", "units": [
        {**unit, "side": "gaias", "at": [6, 3], "ambush": True},
        {**unit, "side": "sparkia", "kind": "king", "at": [6, 5]},
        {**unit, "side": "sparkia", "at": [13, 7]},
        {**unit, "side": "gaias", "at": [8, 4]}]})
    to = {tuple(a["to"]) for a in _ck_focus(state, lambda a: a["type"] == "move")}
    assert (6, 3) in to  # onto the ambush (the King: CK-AMB-3, CK-WIN-1)
    assert to & {(5, 4), (7, 4), (5, 2), (7, 2)} and to & {(6, 4), (5, 3), (7, 3), (6, 2)}  # diagonal, straight
    assert (14, 7) in to  # beside the gaias castle (CK-WIN-2)
    assert any(a.get("attack") for a in _ck_focus(state, lambda a: a["type"] == "move"))
    under = engine.new_state("v1", None, {"side": "gaias", "units": [
        {**unit, "side": "gaias", "at": [6, 3], "ambush": True}, {**unit, "side": "gaias", "at": [6, 3]}]})
    reveal = {"type": "reveal", "at": [6, 3]}
    assert reveal not in engine.legal_actions(under) and reveal in _ck_focus(under, lambda a: True)
    with pytest.raises(RuleViolation) as refused:  # ruling CK-R13
        engine.apply(under, engine.parse_action(reveal))
    assert refused.value.code == "square-occupied"


def test_conquest_king_step_focus_throws_the_tie_and_the_extremes_and_waits_for_the_archive() -> None:
    engine = GAMES["conquest-king"]
    unit = {"kind": "light-infantry", "facing": "n", "ambush": False}
    state = engine.new_state("v1", None, {"side": "sparkia", "field": "realtime", "units": [
        {**unit, "side": "sparkia", "at": [5, 5], "facing": "e"}, {**unit, "side": "gaias", "at": [7, 5]}]})
    state = engine.apply(state, {"type": "move", "from": [5, 5], "to": [6, 5], "facing": "e", "attack": True})
    attack, defence = engine.bases(state, state.fights[0])
    dice = {(a["attacker"], a["defender"]) for a in _ck_focus(state, lambda a: a["type"] == "dice")}
    assert {(1, 6), (6, 1)} <= dice and any(attack + a == defence + b for a, b in dice)
    won = engine.new_state("v1", None, {"side": "sparkia", "field": "realtime", "units": [
        {**unit, "side": "sparkia", "at": [15, 6]}, {**unit, "side": "sparkia", "at": [13, 7]}]})
    over = engine.apply(won, {"type": "move", "from": [13, 7], "to": [14, 7], "facing": "n"})  # CK-WIN-2
    assert over.phase == "over" and engine.legal_actions(over) == [] and engine.extra_actions(over) == []
    waits = {a["minutes"] for a in _ck_focus(over, lambda a: a["type"] == "wait")}
    assert waits == {29, 30}  # the real-time field's archive after 30 minutes (CK-LOBBY-5), and a minute short
    assert engine.apply(over, {"type": "wait", "minutes": 30}).archived


def test_conquest_king_step_focus_spends_a_budget_then_deploys_out_of_zone_over_budget() -> None:
    """Once a side has placed only its dearest units it mostly goes on, until a deploy both out of its zone and
    over budget, refused for the square (CK-FORM-2: the first rule in the order of "Actions")."""
    from refimpl.games.conquest_king.kit.explore import conquest_king_step

    engine = GAMES["conquest-king"]
    d = Draw(seed=3)
    state = engine.new_state("v1")
    bad = None
    for _ in range(400):
        legal = [engine.action_json(a) for a in engine.legal_actions(state)]
        action = conquest_king_step(d, engine, state, legal)
        if action is None or action["type"] == "wait":  # (time passing in deployment ends it at its deadline)
            continue
        try:
            state = engine.apply(state, engine.parse_action(action))
        except RuleViolation as exc:
            bad = (action, exc.code)
            break
    assert bad is not None, "no deploy out of zone and over budget"
    action, code = bad
    side = engine.p.sides.index(action["side"])
    assert engine.p.units[action["kind"]]["price"] > state.gold[side] and code == "illegal-square"


def test_conquest_king_drawn_set_ups_have_strong_targets_among_weak_attackers_and_ambushes_by_the_gates() -> None:
    """A strong target with none but the weakest units of the enemy beside it (a supported attack that may lose,
    CK-ATK-5); the castle side's hidden ambush beside both its gate squares while the enemy holds one (the winning
    move makes it strike: a fight before the win, ruling CK-R10). Both are positions the game accepts."""
    p = GAMES["conquest-king"].p
    attack = {k: r["attack"] for k, r in p.units.items() if r.get("price") is not None}
    strong, weak = max(attack, key=attack.__getitem__), min(attack, key=attack.__getitem__)
    lopsided = by_the_gates = 0
    for s in _ck_draws(600):
        units = s.get("units", [])
        for t in (u for u in units if u["kind"] == strong and not u["ambush"]):
            beside = [u for u in units if u["side"] != t["side"] and not u["ambush"]
                      and abs(u["at"][0] - t["at"][0]) + abs(u["at"][1] - t["at"][1]) == 1]
            if len(beside) >= 2 and all(u["kind"] == weak for u in beside):
                lopsided += 1
                assert _ck_refusal(s) in (None, "bad-setup")
        for a in (u for u in units if u["ambush"]):
            (gx, gy), (hx, hy) = p.gates[a["side"]]
            cx, cy = p.castles[a["side"]]
            if a["at"] == [gx + hx - cx, gy + hy - cy] and any(
                    u["side"] != a["side"] and tuple(u["at"]) in p.gates[a["side"]] for u in units):
                by_the_gates += 1
                assert _ck_refusal(s) is None or _ck_refusal(s) == "bad-setup"
    assert lopsided >= 10 and by_the_gates >= 3


def test_conquest_king_step_focus_sends_attacks_facing_away_and_moves_of_the_hidden_ambush() -> None:
    """Two more actions the legal list leaves out, both refused: an attack from beside an enemy while facing away
    from it (no-target, CK-ATK-1) and a move of the own hidden ambush (hidden-ambush, CK-AMB-6)."""
    engine = GAMES["conquest-king"]
    unit = {"kind": "light-infantry", "facing": "n", "ambush": False}
    state = engine.new_state("v1", None, {"side": "sparkia", "units": [
        {**unit, "side": "sparkia", "at": [6, 3], "ambush": True},
        {**unit, "side": "sparkia", "at": [9, 5]}, {**unit, "side": "gaias", "at": [11, 5]}]})
    legal = engine.legal_actions(state)
    aside = _ck_focus(state, lambda a: a["type"] == "move" and a.get("attack") and a not in legal)
    hidden = _ck_focus(state, lambda a: a["type"] == "move" and a["from"] == [6, 3])
    assert aside and hidden
    for action, code in ((aside[0], "no-target"), (hidden[0], "hidden-ambush")):
        with pytest.raises(RuleViolation) as refused:
            engine.apply(state, engine.parse_action(action))
        assert refused.value.code == code


def test_conquest_king_step_focus_keeps_the_lobby_clock() -> None:
    """In the lobby (a side to register, or the real-time field) the focus registers a side, completes a side's
    deployment, lets half an hour pass or waits to the next deadline or a minute short of it; plain deployments on
    the normal field, both sides registered, get none of it."""
    engine = GAMES["conquest-king"]
    lobby = engine.new_state("v1", None, {"registered": ["sparkia"], "field": "realtime"})
    seen = {json.dumps(a, sort_keys=True) for a in _ck_focus(lobby, lambda a: True)}
    due = engine.deadlines(lobby)[0][0]
    assert {json.dumps(a, sort_keys=True) for a in ({"type": "register", "side": "gaias"},
                                                    {"type": "complete", "side": "sparkia"},
                                                    {"type": "wait", "minutes": 30},
                                                    {"type": "wait", "minutes": due},
                                                    {"type": "wait", "minutes": due - 1})} <= seen
    plain = engine.new_state("v1")
    assert not _ck_focus(plain, lambda a: a["type"] in ("register", "complete", "wait"))


def test_a_long_first_finding_is_weighed_against_more_cases(tmp_path: Path) -> None:
    """Black Fog's taming misreading is first found at seed 0 in a 35-step case that shrinking cannot bring under
    16 steps (the seeded stream moves on, so no set-up starts half way): a few more cases are drawn and the
    shortest failing one is shrunk instead."""
    from refimpl.campaigns.fuzz import campaign

    misread = " ".join([PY, shlex.quote(str(ROOT / "tests" / "builds" / "misread.py")), "BF-TAME-1"])
    report = fuzz(misread, FuzzSettings("black-fog", max_time=20), tmp_path)
    assert report.finding is not None and report.finding.first_steps > campaign.LONG_FINDING
    assert report.finding.steps() <= 10
    (run,) = report.campaigns  # the extra cases are search: shrinking's own window starts after them
    assert not report.finding.shrink_cut
    assert abs(run.search_seconds + report.finding.shrink_seconds - run.seconds) < 0.05


def test_a_build_that_dies_between_cases_and_cannot_start_again_is_named_broken() -> None:
    """The next case is drawn ahead for the build that answers this one; when that build is gone by the next
    case and no new one starts, the campaign says the build broke (it once stopped on a case half drawn)."""
    from refimpl.campaigns.fuzz.campaign import CampaignJob, run_campaign

    alive_calls = [0]

    class DiesAfterAWhile(ProtocolDriver):
        @property
        def alive(self) -> bool:
            alive_calls[0] += 1
            return alive_calls[0] < 4 and self.process.proc.poll() is None

    first = DiesAfterAWhile(SERVE)
    try:
        result = run_campaign(CampaignJob(Build("false"), FuzzSettings("ludo", examples=5, seed=1), "v1", 0), first)
    finally:
        first.close()
    assert result.finding is not None and result.finding.kind == Status.BROKE
    assert result.finding.cause.startswith("crashed-at-start") or "exit status 1" in result.finding.cause


REVERSED_LEGAL = """\
import sys
from refimpl.games import GAMES
from refimpl.harness.serve import Session
from refimpl.util import jsonio
session = Session(GAMES, "reversed", reuse_views=True)
for line in sys.stdin:
    answer = session.answer(line)
    if isinstance(answer.get("actions"), list):
        answer = {**answer, "actions": answer["actions"][::-1]}
    sys.stdout.buffer.write(jsonio.dumps(answer) + b"\\n")
    sys.stdout.flush()
    if session.quitting:
        break
"""


@pytest.mark.parametrize("twice", [False, True])
def test_a_build_that_lists_legal_actions_in_its_own_order_fuzzes_clean_and_deterministic(
        tmp_path: Path, twice: bool) -> None:
    """The reference written out with every legal list reversed conforms: its lists stand for the reference's
    (``Known.answers``), and with ``--twice`` they are read as written, so two runs agree (review: they once
    compared the reference's order with the build's and called the build not deterministic)."""
    script = tmp_path / "reversed.py"
    script.write_text(REVERSED_LEGAL)
    report = fuzz(f"{shlex.quote(sys.executable)} {script}",
                  FuzzSettings("conquest-king", ruleset="v1", examples=12, seed=3, twice=twice), str(tmp_path / "out"))
    assert report.finding is None, report.explanation
