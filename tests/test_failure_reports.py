"""What a builder acts on: transcripts that replay into a build with no kit, and the pytest plugin's
failures as short as verify's, items named by game, traces collected as items."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest

from refimpl.status import Status

ROOT = Path(__file__).resolve().parent.parent
WRONG = f"{sys.executable} {ROOT / 'tests/builds/wrong.py'} capture-bonus"


def test_a_transcript_replays_into_the_build_with_no_kit(tmp_path: Path) -> None:
    out = tmp_path / "tr"
    proc = subprocess.run([sys.executable, "-m", "refimpl", "verify", "--impl", WRONG, "--game", "ludo", "--quiet",
                           "--transcript", str(out), "--json", str(tmp_path / "v.json")],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stderr
    doc = json.loads((tmp_path / "v.json").read_text())
    failed = [c["name"] for c in doc["checks"] if c["status"] == "failed"]
    files = sorted(p.name for p in out.iterdir() if p.name != ".refimpl-transcripts")  # the kit's manifest
    assert len(files) == len(failed) and "ludo__capture.jsonl" in files
    lines = [json.loads(line) for line in (out / "ludo__capture.jsonl").read_text().splitlines()]
    assert lines[0]["request"] == {"id": 0, "op": "hello", "protocol": 1}
    assert [e["request"]["id"] for e in lines[1:]] == sorted(e["request"]["id"] for e in lines[1:])
    assert all(e["response"]["id"] == e["request"]["id"] for e in lines)
    # the same requests piped into the build by hand get the same answers: the failure reproduces
    requests = "".join(json.dumps(e["request"]) + "\n" for e in lines)
    again = subprocess.run(WRONG.split(), input=requests, capture_output=True, text=True, timeout=60)
    answers = [json.loads(line) for line in again.stdout.splitlines()]
    assert answers[:len(lines)] == [e["response"] for e in lines]
    scenario = next(p for p in out.iterdir() if not p.name.startswith(("ludo__", ".")))
    first = json.loads(scenario.read_text().splitlines()[0])
    assert first["request"]["op"] == "hello"  # a scenario's transcript starts with the build's hello too


def _pytest(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def test_pytest_runs_features_and_traces_with_verify_s_short_messages() -> None:
    proc = _pytest("features", "traces", "-q", "--impl", WRONG, "-k", "ludo")
    assert proc.returncode == 1, proc.stdout[-3000:]
    out = proc.stdout
    assert "at traces/ludo/capture.yaml:23 step 2: move piece=0" in out
    assert 'turn   "cpu1"   | "human"  LD-CAP-2' in out
    # the scenario fails at the step whose answer differs from the reference's (the move), as a trace does
    assert re.search(r"features/ludo\.feature:\d+ step 'And human moves piece 0': turn: expected \"cpu1\", got "
                     r"\"human\" \(the reference's answer to \{\"op\":\"apply\"", out)
    assert "Traceback" not in out and "refimpl/harness/replay.py" not in out and "stepkit.py" not in out
    from refimpl.scenarios import bundled

    n_ludo = len(list((ROOT / "traces/ludo").glob("*.yaml"))) + sum(  # every Ludo trace and scenario
        s.game == "ludo" and not s.kit_only for s in bundled())
    verified = subprocess.run([sys.executable, "-m", "refimpl", "verify", "--impl", WRONG, "--game", "ludo", "--quiet",
                               "--format", "json"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    failing = sum(c["status"] == "failed" for c in json.loads(verified.stdout)["checks"]
                  if c["kind"] in ("trace", "scenario"))
    assert out.splitlines()[-1].startswith(f"{failing} failed, {n_ludo - failing} passed")  # what verify finds


def test_items_are_named_by_game_and_traces_are_items() -> None:
    proc = _pytest("features", "traces", "--collect-only", "-q", "-k", "ludo")
    ids = [line for line in proc.stdout.splitlines() if "::" in line]
    assert ids and all(i.startswith(("features/ludo.feature::", "traces/ludo/")) for i in ids)
    assert "traces/ludo/capture.yaml::ludo/capture" in ids
    traces = [i for i in ids if i.startswith("traces/")]
    assert len(traces) == len(list((ROOT / "traces/ludo").glob("*.yaml")))
    proc = _pytest("traces", "--collect-only", "-q", "-m", "LD-CAP-2")  # a rule's ID selects traces too
    assert "traces/ludo/capture.yaml::ludo/capture" in proc.stdout


def test_the_full_traceback_is_there_when_asked_for() -> None:
    proc = _pytest("traces/ludo/capture.yaml", "-q", "--impl", WRONG, "--kit-traceback")
    assert proc.returncode == 1 and "TraceMismatch" in proc.stdout


@pytest.mark.parametrize("mode", ["surrogate", "controls", "deep", "many-keys"])
def test_every_report_of_a_hostile_answer_is_written_whole(tmp_path: Path, mode: str) -> None:
    """A lone surrogate, control characters, an answer 490 levels deep or with 30,000 keys: verify still
    says 'does not conform', and every report file is complete and well-formed."""
    hostile = f"{sys.executable} {ROOT / 'tests/builds/hostile_answers.py'} {mode}"
    proc = subprocess.run([sys.executable, "-m", "refimpl", "verify", "--impl", hostile, "--game", "ludo",
                           "-k", "capture", "--no-scenarios", "--quiet", "--html", str(tmp_path / "r.html"),
                           "--json", str(tmp_path / "v.json"), "--transcript", str(tmp_path / "t"),
                           "--junit-xml", str(tmp_path / "j.xml")], cwd=ROOT, capture_output=True, timeout=120)
    assert proc.returncode == 1, proc.stderr.decode(errors="replace")[-2000:]
    assert b"Traceback" not in proc.stderr
    doc = json.loads((tmp_path / "v.json").read_text(encoding="ascii"))
    assert doc["verdict"] == "does_not_conform" and doc["checks"][0]["failure"]["fields"]
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert page.endswith("</html>\n") and "\x00" not in page and "\x1b" not in page
    assert page.count("<svg") >= 2
    ElementTree.fromstring((tmp_path / "j.xml").read_bytes())
    for line in next((tmp_path / "t").iterdir()).read_text(encoding="ascii").splitlines():
        json.loads(line)
    assert not list(tmp_path.glob(".*.part"))


def test_old_transcripts_and_badges_do_not_outlive_their_run_and_the_users_files_survive(tmp_path: Path) -> None:
    """A run removes the transcripts and badges an earlier run wrote (and only those): the user's files beside
    them, and an earlier badge of a game this run does not touch that the user wrote, stay."""
    out, badges = tmp_path / "t", tmp_path / "b"
    badges.mkdir()
    (badges / "mine.json").write_text('{"not": "a badge"}')
    (badges / "notes.txt").write_text("mine")
    first = subprocess.run([sys.executable, "-m", "refimpl", "verify", "--impl", WRONG, "--game", "ludo",
                            "--no-scenarios", "-k", "capture", "--quiet", "--transcript", str(out), "--badges",
                            str(badges)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert first.returncode == 1, first.stderr
    assert "ludo__capture.jsonl" in {p.name for p in out.iterdir()}
    (out / "README.md").write_text("my notes on the failures")
    proc = subprocess.run([sys.executable, "-m", "refimpl", "verify", "--game", "ludo", "--no-scenarios", "-k",
                           "capture", "--quiet", "--transcript", str(out), "--badges", str(badges)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in out.iterdir()) == [".refimpl-transcripts", "README.md"]  # nothing failed now
    assert sorted(p.name for p in badges.iterdir()) == [".refimpl-badges", "all.json", "all.svg", "kit.json", "kit.svg",
                                                        "ludo.json", "ludo.svg", "mine.json", "notes.txt"]


def test_rule_entries_cover_a_failure_only_when_they_cover_every_rule_it_counts_under() -> None:
    from refimpl.reports.model import Check, Failure, FieldDiff
    from refimpl.verify.expectations import Expectation, apply_expectations

    fields = (FieldDiff("turn", "cpu1", "human", "LD-CAP-2"), FieldDiff("result", None, "human", "LD-END-1"))
    check = Check("trace", "ludo", "ludo/t", ("LD-CAP-2", "LD-END-1"), Status.FAILED, failure=Failure("t", 1, 1, "a",
                                                                                              fields=fields))
    cap = Expectation("rule", "LD-CAP-2", "capture bonus (ticket 1)")
    end = Expectation("rule", "LD-END-1", "ending (ticket 2)")
    (only_cap, *_), _ = apply_expectations([check], [cap])
    assert only_cap.status == Status.FAILED  # the LD-END-1 difference is not hidden by an LD-CAP-2 entry
    (both, *_), _ = apply_expectations([check], [cap, end])
    assert both.status == Status.XFAIL and both.reason == "capture bonus (ticket 1); ending (ticket 2)"


def test_an_entry_may_name_one_example_of_a_scenario_outline() -> None:
    from refimpl.scenarios import bundled
    from refimpl.verify import VerifyError
    from refimpl.verify.expectations import Expectation, check_expectations

    entry = Expectation("scenario", "A Home is never a target [red", "r", "f:1")
    check_expectations([entry], [], bundled())  # raises VerifyError when it names nothing
    with pytest.raises(VerifyError, match="matches nothing"):
        check_expectations([Expectation("scenario", "A Home is never a target [green", "r", "f:1")], [], bundled())


def test_a_broken_check_s_transcript_ends_at_the_request_never_answered() -> None:
    from refimpl.reports.transcript import exchanges

    record = [{"request": {"id": i, "op": "state"}} for i in range(4)] + [
        {"response": {"id": 0, "ok": True}}, {"response": {"id": 1, "ok": True}},
        {"broke": {"cause": "exited", "message": "gone"}}]
    lines = exchanges(record, range(1, 4))
    assert [e.get("request", {}).get("id") for e in lines] == [0, 1, 2, None]
    assert lines[2]["response"] is None and lines[3] == {"broke": {"cause": "exited", "message": "gone"}}


def test_show_names_a_game_the_build_does_not_declare() -> None:
    partial = f"{sys.executable} {ROOT / 'tests/builds/partial.py'}"
    proc = subprocess.run([sys.executable, "-m", "refimpl", "show", "traces/ludo/capture.yaml", "--impl", partial],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "does not declare ludo v1" in proc.stderr, proc.stderr


def test_a_trace_reports_every_difference_judged_from_resynchronised_states() -> None:
    """After its first difference a trace goes on from the reference's position (a set-up puts the build
    there) and reports each later difference; it still counts as one failed check."""
    proc = subprocess.run([sys.executable, "-m", "refimpl", "verify", "--impl", WRONG, "--game", "ludo",
                           "--no-scenarios", "-k", "ludo/capture", "--quiet", "--format", "json"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    doc = json.loads(proc.stdout)
    (check,) = [c for c in doc["checks"] if c["name"] == "ludo/capture"]
    failure = check["failure"]
    assert check["status"] == "failed" and failure["step"] == 2
    assert [later["step"] for later in failure["later"]] == [13]  # the second capture, judged afresh
    assert failure["later"][0]["fields"][0]["path"] == "turn"
    assert doc["summary"]["failed"] == 1
