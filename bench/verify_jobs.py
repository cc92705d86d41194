"""``verify --jobs``: the whole bundled suite (traces, the checks between, scenarios) through ``refimpl verify``
as a user runs it, one job against N jobs, in alternating runs in the same session; the wall time's median and
the ratio N jobs / 1 job (the goal on 2 cores: at most 0.7x). Against the reference (``refimpl serve``) and,
where node exists, the Node example build.

    python bench/verify_jobs.py [--runs 5] [--jobs 2]
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def wall(command: str, jobs: int, folder: str) -> float:
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "refimpl", "verify", "--impl", command, "--jobs", str(jobs),
                           "--quiet", "--format", "json"], cwd=folder, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(f"verify --jobs {jobs} exited {proc.returncode}: {proc.stderr[-2000:]}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    builds = {"reference": f"{shlex.quote(sys.executable)} -m refimpl serve"}
    if shutil.which("node"):
        builds["node"] = f"node {shlex.quote(str(ROOT / 'examples' / 'node-build' / 'main.js'))}"
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"whole suite through refimpl verify, {args.runs} alternating runs each, {cores} usable cores")
    with tempfile.TemporaryDirectory() as folder:  # run where a user would: outside the checkout
        for name, command in builds.items():
            wall(command, 1, folder)  # warm the caches once
            one: list[float] = []
            many: list[float] = []
            for _ in range(args.runs):
                one.append(wall(command, 1, folder))
                many.append(wall(command, args.jobs, folder))
            ratios = sorted(m / o for m, o in zip(many, one))
            print(f"{name:10} --jobs 1: {statistics.median(one):.2f} s   --jobs {args.jobs}: "
                  f"{statistics.median(many):.2f} s   ratio {statistics.median(many) / statistics.median(one):.2f}x "
                  f"(paired {ratios[0]:.2f}-{ratios[-1]:.2f}x)")


if __name__ == "__main__":
    main()
