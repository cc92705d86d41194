"""``verify --jobs N``: the checks spread over worker processes give the report one job gives (same checks, same
order, same content but the seconds), for a conforming build, a failing one, one that does not start, under a
profile, and where workers are spawned rather than forked (macOS); --fail-fast still stops early; the shards
are balanced."""

from __future__ import annotations

import dataclasses
import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

from hypothesis import given, strategies as st

from refimpl.rulebook.profiles import load_profile
from refimpl.status import Status
from refimpl.verify import VerifySettings, verify
from refimpl.verify.shards import deal

ROOT = Path(__file__).resolve().parent.parent
PY = shlex.quote(sys.executable)
SERVE = f"{PY} -m refimpl serve"


def misread(key: str) -> str:
    return f"{PY} {shlex.quote(str(ROOT / 'tests' / 'builds' / 'misread.py'))} {key}"


def same_as_one_job(command: str, **options: Any) -> None:
    one, two = verify(command, VerifySettings(**options)), verify(command, VerifySettings(jobs=2, **options))
    assert [c.name for c in two.checks] == [c.name for c in one.checks]
    for a, b in zip(one.checks, two.checks):
        assert dataclasses.replace(b, seconds=0.0) == dataclasses.replace(a, seconds=0.0), a.name
    assert (two.warnings, two.stopped, two.build, two.explicit_chance, two.exit_code) == \
        (one.warnings, one.stopped, one.build, one.explicit_chance, one.exit_code)


def test_a_conforming_build_gets_the_same_report() -> None:
    same_as_one_job(SERVE, games=["ludo", "lantern-quay"])


def test_a_failing_build_gets_the_same_failures_with_their_later_differences() -> None:
    same_as_one_job(misread("LD-CAP-2"), games=["ludo"])


def test_the_protocol_check_and_the_whole_suite_come_in_their_places() -> None:
    same_as_one_job(misread("LD-R9"), keyword="before", explore=0)  # the exploration: the two tests above


def test_a_build_that_does_not_start_gets_the_same_report() -> None:
    same_as_one_job("false", games=["beacon-lines"])


def test_workers_play_the_reference_under_the_builders_profile(tmp_path: Path) -> None:
    path = tmp_path / "house.yaml"
    path.write_text("game: conquest-king\nname: faster-light\nset:\n  units.light-infantry.move: 4\n")
    profile = load_profile(path)
    same_as_one_job(f"{SERVE} --profile {shlex.quote(str(path))}", games=["conquest-king"], profiles=[profile],
                    keyword="ambush")
    wrong = verify(SERVE, VerifySettings(games=["conquest-king"], profiles=[profile], jobs=2, keyword="ambush",
                                                explore=0))
    assert wrong.count(Status.FAILED) > 0  # the default rules under a profile that changes them: the workers knew


def test_spawned_workers_select_the_same_checks(tmp_path: Path) -> None:
    """Where workers are spawned (macOS, Windows), each selects the traces and scenarios again."""
    script = (
        "import dataclasses, json, multiprocessing, sys\n"
        "multiprocessing.set_start_method('spawn')\n"
        "from refimpl.verify import VerifySettings, verify\n"
        f"r = verify({misread('BF-FORM-1')!r}, VerifySettings(games=['black-fog'], jobs=2, explore=0))\n"
        "print(json.dumps([[c.name, c.status, c.detail] for c in r.checks]))\n")
    proc = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    one = verify(misread("BF-FORM-1"), VerifySettings(games=["black-fog"], explore=0))
    assert json.loads(proc.stdout) == [[c.name, c.status, c.detail] for c in one.checks]


def test_fail_fast_stops_every_worker() -> None:
    whole = verify(misread("BL-SCORE-2"), VerifySettings(games=["beacon-lines"], scenarios=False, explore=0))
    report = verify(misread("BL-SCORE-2"), VerifySettings(games=["beacon-lines"], fail_fast=True, jobs=2))
    statuses = [c.status for c in report.checks]
    first = statuses.index(Status.FAILED)
    assert all(s == Status.NOT_RUN for s in statuses[first + 1:]) and report.stopped.startswith("--fail-fast")
    assert report.checks[first].name in {c.name for c in whole.checks if c.status == Status.FAILED}  # a trace's first
    traces = [c for c in report.checks if c.kind == "trace"]
    assert report.exit_code == 1 and len(traces) == len(whole.checks)
    unreached = [c for c in report.checks if c.kind != "trace"]  # listed, not run (issue 43)
    assert {c.kind for c in unreached} == {"scenario", "explore"}
    assert all(c.status == Status.NOT_RUN and c.detail == "not run: --fail-fast: stopped at the first failure"
               for c in unreached)


def test_jobs_on_the_command_line_and_its_bad_values(tmp_path: Path) -> None:
    def kit(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "refimpl", "verify", *args], cwd=tmp_path, capture_output=True,
                              text=True, timeout=300, env={**__import__("os").environ, **env})

    good = kit("--jobs", "auto", "--game", "lantern-quay", "-k", "forge", "--quiet")
    assert good.returncode == 0 and "CONFORMS" in good.stdout, good.stdout[-2000:] + good.stderr
    for bad in ("0", "two", "-1"):
        proc = kit("--jobs", bad)
        assert proc.returncode == 2 and "neither a whole number" in proc.stderr and "Traceback" not in proc.stderr
    assert kit(REFIMPL_JOBS="x").returncode == 2


@given(st.lists(st.integers(min_value=1, max_value=500), max_size=60), st.integers(min_value=1, max_value=8))
def test_deal_puts_every_check_in_one_shard_and_balances_them(weights: list[int], shards: int) -> None:
    groups = deal(weights, shards)
    assert sorted(i for g in groups for i in g) == list(range(len(weights)))
    assert all(list(g) == sorted(g) for g in groups) and len(groups) <= shards
    if groups:
        loads = [sum(weights[i] for i in g) for g in groups]
        assert max(loads) - min(loads) <= max(weights) or len(groups) < shards


def test_no_build_process_is_left_behind() -> None:
    import psutil

    verify(misread("CK-ATK-3"), VerifySettings(games=["conquest-king"], jobs=2, fail_fast=True, explore=0))
    assert psutil.Process().children(recursive=True) == []
