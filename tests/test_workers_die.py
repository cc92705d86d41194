"""Workers die with the run (issue 43): a CI runner SIGKILLs the kit after its grace period, and nothing the kit
started may go on without it: not the ``--jobs`` workers of the executor, not the builds they started."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psutil
import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL and fork are POSIX")

JOBS = textwrap.dedent("""
    import sys, time
    import refimpl.harness.executor as executor
    if sys.argv[1] == "watch":  # as where the kernel has no parent-death signal: the workers watch their parent
        executor.killed_with_parent = lambda: False

    def job(i):
        time.sleep(120)
        return i

    if __name__ == "__main__":
        for _ in executor.run_jobs(job, range(4), 2):
            pass
""")


def gone(pids: list[int], within: float) -> list[int]:
    """Of ``pids``, those still running (zombies count as gone) after at most ``within`` seconds."""
    deadline = time.monotonic() + within
    while True:
        alive = [p for p in pids if psutil.pid_exists(p) and psutil.Process(p).status() != psutil.STATUS_ZOMBIE]
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.1)


@pytest.mark.parametrize("how", ["signal", "watch"])
def test_the_executors_workers_end_when_the_run_is_killed(how: str, tmp_path: Path) -> None:
    script = tmp_path / "jobs.py"
    script.write_text(JOBS, encoding="utf-8")
    proc = subprocess.Popen([sys.executable, str(script), how], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        deadline = time.monotonic() + 30
        workers: list[int] = []
        while len(workers) < 2 and time.monotonic() < deadline:
            workers = [c.pid for c in psutil.Process(proc.pid).children(recursive=True)]
            time.sleep(0.1)
        assert len(workers) >= 2, "the workers did not start"
        time.sleep(0.5)  # each has run its start-up
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        assert gone(workers, within=10) == []
    finally:
        for p in psutil.Process().children(recursive=True):
            p.kill()


def test_verify_with_jobs_leaves_no_worker_or_build_when_killed(tmp_path: Path) -> None:
    marker = tmp_path / "pids"
    build = f"{sys.executable} {ROOT / 'tests/builds/misbehave.py'} hang-mid --pidfile {marker}"
    proc = subprocess.Popen([sys.executable, "-m", "refimpl", "verify", "--impl", build, "--jobs", "2",
                             "--game", "ludo", "--no-scenarios", "--no-explore", "--timeout", "120", "--quiet"],
                            cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not marker.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert marker.exists(), "no build started"
        time.sleep(1.0)  # the builds hang at their third apply
        started = [p.pid for p in psutil.Process(proc.pid).children(recursive=True)]
        assert started
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        left = gone(started, within=15)
        assert left == [], [" ".join(psutil.Process(p).cmdline())[:200] for p in left if psutil.pid_exists(p)]
    finally:
        for p in psutil.Process().children(recursive=True):
            p.kill()
