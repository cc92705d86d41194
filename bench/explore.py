"""The exploration inside ``verify`` (issue 41): the whole bundled suite through ``refimpl verify`` as a user runs it
against the Node example build (the reference where node is missing), without the exploration and with the
default one, in alternating runs in the same session: each wall time's median, the ratio with / without (the
goal: the whole run within 60 s on 2 cores, and at most 3x verify without it), and the exploration's cost per case
against ``refimpl fuzz --examples`` per case on the same games and rulesets.

    python bench/explore.py [--runs 3]
"""

from __future__ import annotations

import argparse
import json
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


def run(args: list[str], folder: str) -> tuple[float, dict]:  # type: ignore[type-arg]
    started = time.perf_counter()
    env = {k: v for k, v in os.environ.items() if k != "REFIMPL_EXPLORE"}  # the default exploration, as users get it
    proc = subprocess.run([sys.executable, "-m", "refimpl", *args, "--quiet", "--format", "json"], cwd=folder,
                          capture_output=True, text=True, env=env)
    seconds = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(f"{args[:1]} exited {proc.returncode}: {proc.stderr[-2000:]}{proc.stdout[-1000:]}")
    return seconds, json.loads(proc.stdout)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    node = shutil.which("node")
    build = f"node {shlex.quote(str(ROOT / 'examples/node-build/main.js'))}" if node else \
        f"{shlex.quote(sys.executable)} -m refimpl serve"
    name = "the Node example build" if node else "the reference (no node here)"
    without, with_, cases = [], [], 0
    mine: list[dict] = []  # type: ignore[type-arg]
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(args.runs):
            seconds, _doc = run(["verify", "--impl", build, "--no-explore"], folder)
            without.append(seconds)
            seconds, doc = run(["verify", "--impl", build], folder)
            with_.append(seconds)
            mine = [c for c in doc["checks"] if c["kind"] == "explore"]
            cases = sum(int(c["detail"].split(" cases")[0]) for c in mine if c["status"] == "passed")
        a, b = statistics.median(with_), statistics.median(without)
        print(f"verify, whole suite, {name}, {args.runs} runs each, alternating:")
        print(f"  without the exploration  {b:6.2f} s (median)")
        print(f"  with it (default)        {a:6.2f} s (median), {cases} cases   ratio {a / b:.2f}x   "
              f"(goals: <= 60 s, <= 3x)")
        per_case_verify = (a - b) / max(cases, 1)
        fuzzed = 0.0
        n = 0
        for check in mine:
            game, _, ruleset = check["name"].partition("/explore ")
            started = time.perf_counter()
            subprocess.run([sys.executable, "-m", "refimpl", "fuzz", "--impl", build, "--game", game, "--ruleset",
                            ruleset, "--examples", "40", "--quiet", "--out", folder], cwd=folder,
                           capture_output=True, text=True, check=True)
            fuzzed += time.perf_counter() - started
            n += 40
        print(f"  the exploration a case   {1000 * per_case_verify:6.1f} ms; fuzz --examples 40 a case "
              f"{1000 * fuzzed / max(n, 1):6.1f} ms (its own start-up each game and ruleset included)")


if __name__ == "__main__":
    main()
