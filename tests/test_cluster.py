"""Campaigns on a real Dask cluster on this machine: a scheduler and two worker processes on the loopback
address, started by the test. The results equal a local run's, also when a worker is killed mid-run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("distributed", reason="Dask distributed is not installed (the 'cluster' extra: "
                                          "pip install -e '.[cluster]'); .ci/run installs it")

from refimpl.campaigns.simulate import simulate, summary_json  # noqa: E402
from refimpl.cli import main  # noqa: E402
from refimpl.harness.executor import ExecutorError, run_jobs  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
# One cluster per run: under pytest-xdist (make test: --dist loadgroup) these tests share one worker process.
pytestmark = pytest.mark.xdist_group("dask-cluster")


def _start(args: list[str], log: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", *args], stdout=subprocess.DEVNULL, stderr=log.open("wb"),
                            start_new_session=True)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, list[subprocess.Popen[bytes]]]]:
    """(scheduler address, [worker processes]): two workers of one thread each, without nannies, so a
    killed worker stays dead."""
    from distributed import Client

    folder = tmp_path_factory.mktemp("dask")
    info = folder / "scheduler.json"
    procs = [_start(["distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                     "--scheduler-file", str(info)], folder / "scheduler.log")]
    try:
        deadline = time.monotonic() + 60
        while not info.exists() or not info.read_text():
            if time.monotonic() > deadline or procs[0].poll() is not None:
                pytest.fail("the Dask scheduler did not start: " + (folder / "scheduler.log").read_text()[-2000:])
            time.sleep(0.1)
        address = json.loads(info.read_text())["address"]
        workers = [_start(["distributed.cli.dask_worker", address, "--nthreads", "1", "--no-nanny",
                           "--no-dashboard", "--name", f"worker-{i}"], folder / f"worker-{i}.log") for i in range(2)]
        procs += workers
        with Client(address, timeout=30) as client:
            client.wait_for_workers(2, timeout=60)
        yield address, workers
    finally:
        for proc in procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)


def _square(x: int) -> int:
    return x * x


def test_jobs_run_on_the_cluster(cluster: tuple[str, list[subprocess.Popen[bytes]]]) -> None:
    address, _ = cluster
    assert sorted(run_jobs(_square, range(20), cluster=address)) == [(i, i * i) for i in range(20)]


def test_simulate_on_the_cluster_equals_a_local_run(cluster: tuple[str, list[subprocess.Popen[bytes]]]) -> None:
    address, _ = cluster
    local = summary_json(simulate("ludo", 300, ["easy", "normal", "hard", "easy"], 5))
    assert summary_json(simulate("ludo", 300, ["easy", "normal", "hard", "easy"], 5, cluster=address)) == local
    bf = summary_json(simulate("black-fog", 16, None, 5))  # a game through legal_actions and apply, too
    assert summary_json(simulate("black-fog", 16, None, 5, cluster=address)) == bf
    result = CliRunner().invoke(main, ["simulate", "ludo", "--games", "300", "--seats", "easy,normal,hard,easy",
                                       "--seed", "5", "--format", "json", "--cluster", address])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == json.loads(json.dumps(local))


def test_fuzz_campaigns_on_the_cluster_find_what_they_find_locally(
        cluster: tuple[str, list[subprocess.Popen[bytes]]], tmp_path: Path) -> None:
    address, _ = cluster
    wrong = f"{sys.executable} {ROOT / 'tests/builds/wrong.py'} capture-bonus"
    args = ["fuzz", "--impl", wrong, "--game", "ludo", "--seed", "3", "--jobs", "2", "--examples", "40",
            "--quiet", "--format", "json"]
    local = CliRunner().invoke(main, args + ["--out", str(tmp_path / "local")])
    remote = CliRunner().invoke(main, args + ["--out", str(tmp_path / "remote"), "--cluster", address])
    assert local.exit_code == remote.exit_code == 1, (local.output[-2000:], remote.output[-2000:])
    assert _outcome(remote.output) == _outcome(local.output)


def _outcome(output: str) -> dict[str, object]:
    """A fuzz report without what depends on time or the output folder (the counts too: shrinking has a time
    bound, which a loaded machine may reach)."""
    report = {k: v for k, v in json.loads(output).items()
              if k not in ("seconds", "campaigns", "out", "reproducer", "rate", "cases", "requests")}
    report["finding"] = {k: v for k, v in (report.get("finding") or {}).items()
                         if k not in ("found_after", "shrink_seconds")}
    return report


def test_mutants_on_the_cluster_are_judged_as_locally(cluster: tuple[str, list[subprocess.Popen[bytes]]],
                                                       tmp_path: Path) -> None:
    address, _ = cluster
    args = ["mutants", "--game", "ludo", "--sample", "4", "--seed", "4", "--quiet", "--format", "json"]  # one mutant
    local = CliRunner().invoke(main, args + ["--out", str(tmp_path / "local")])
    remote = CliRunner().invoke(main, args + ["--out", str(tmp_path / "remote"), "--cluster", address])
    assert local.exit_code == remote.exit_code == 0, (local.output[-2000:], remote.output[-2000:])
    assert json.loads(remote.output)["games"] == json.loads(local.output)["games"]


def test_a_killed_worker_loses_no_result(cluster: tuple[str, list[subprocess.Popen[bytes]]]) -> None:
    """The last test of the module: it kills one of the two workers once the first chunk is in."""
    address, workers = cluster
    levels = ["hard", "easy", "normal", "easy"]
    local = summary_json(simulate("ludo", 800, levels, 11))
    killed: list[int] = []

    def kill_once(done: int, total: int) -> None:
        if not killed:
            os.killpg(workers[0].pid, signal.SIGKILL)
            killed.append(done)

    remote = simulate("ludo", 800, levels, 11, progress=kill_once, cluster=address)
    assert killed and killed[0] < 800, "the worker was killed only after the run"
    workers[0].wait(timeout=10)
    assert summary_json(remote) == local


def test_no_scheduler_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("refimpl.harness.executor.CONNECT_TIMEOUT", 1.0)
    with pytest.raises(ExecutorError, match="no Dask scheduler answers at tcp://127.0.0.1:9"):
        list(run_jobs(_square, [1], cluster="tcp://127.0.0.1:9"))


def test_many_builds_on_the_cluster_give_the_local_matrix(cluster: tuple[str, list[subprocess.Popen[bytes]]],
                                                          tmp_path: Path) -> None:
    """Issue 47: the same builds file judged on the cluster and locally, the same JSON but for times."""
    address, _ = cluster
    py = sys.executable
    (tmp_path / "builds.yaml").write_text(
        f"builds:\n  - name: reference\n    command: {py} -m refimpl serve\n"
        f"  - name: wrong\n    command: {py} {ROOT / 'tests/builds/wrong.py'} install-lights-two\n")
    docs = []
    for where in ([], ["--cluster", address]):
        out = tmp_path / f"m{len(docs)}.json"
        result = CliRunner().invoke(main, ["verify", "--builds", str(tmp_path / "builds.yaml"), "--game",
                                           "lantern-quay", "--no-scenarios", "--explore", "2", "--quiet",
                                           "--json", str(out), *where])
        assert result.exit_code == 1, result.output[-2000:]
        doc = json.loads(out.read_text())
        for b in doc["builds"]:
            b["seconds"] = 0
        docs.append(doc)
    assert docs[0] == docs[1]
