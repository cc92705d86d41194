"""Fuzz throughput: requests per second per game against ``refimpl serve``, as a ratio against the
pipelined echo floor measured in the same run (issue 30's goal: at most 20x in every game), and each game
against Beacon Lines.

Each campaign searches for BUDGET seconds, as a user's fuzz runs by time: the build's start-up is spread
over a campaign as it is in use (a count of 120 short Beacon Lines cases was a third start-up).

A request's cost here is everything the fuzzer spends on it: drawing the case against the reference,
the reference's own answer, the build's answer over the protocol, and the comparison.

The goal is judged against ``refimpl serve``, which writes every answer byte for byte as the reference has it,
so the fuzzer takes each one without reading it (``ProtocolDriver.batch``, ``expect``). A build need not write
its answers so (the Node example build lists actions in another order): where ``node`` is installed, every game
is fuzzed against that build too, as a second table, so the figure a user's build gets is in sight.
Writes bench/results/fuzz.json (not committed) and prints the tables.
"""

from __future__ import annotations

import json
import shlex
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from refimpl.campaigns.fuzz import FuzzSettings, fuzz
from refimpl.games import GAMES

sys.path.insert(0, str(ROOT / "bench"))
from protocol import echo_floor

SERVE = f"{shlex.quote(sys.executable)} -m refimpl serve"
NODE = f"node {shlex.quote(str(ROOT / 'examples' / 'node-build' / 'main.js'))}"
BUDGET = 6.0  # seconds each campaign searches
REPEATS = 2  # each figure is the best of this many runs


def throughput(game: str, build: str = SERVE) -> tuple[float, int]:
    """Seconds per request fuzzing ``build`` (the reference's ``serve``) at ``game``, and the requests sent."""
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        report = fuzz(build, FuzzSettings(game, ruleset=GAMES[game].info.default_ruleset, max_time=BUDGET, seed=1),
                      out)
        elapsed = time.perf_counter() - start
    if report.finding is not None:
        raise SystemExit(f"{build} diverged from the reference fuzzing {game}: {report.explanation}")
    return elapsed / report.requests, report.requests


def table(build: str, floor: float) -> dict[str, dict[str, float]]:
    """Each game's row (best of REPEATS) fuzzing ``build``."""
    results: dict[str, dict[str, float]] = {}
    for game in sorted(GAMES):
        per_request, requests = min((throughput(game, build) for _ in range(REPEATS)), key=lambda r: r[0])
        results[game] = {"us_per_request": per_request * 1e6, "requests_per_s": 1 / per_request,
                         "requests": requests, "vs_echo_floor": per_request / floor}
    base = results["beacon-lines"]["us_per_request"]
    for row in results.values():
        row["vs_beacon_lines"] = row["us_per_request"] / base
    return results


def show(title: str, results: dict[str, dict[str, float]]) -> None:
    print(f"\n{title}")
    print(f"{'game':15}{'requests/s':>12}{'µs/request':>12}{'x echo':>9}{'x Beacon Lines':>16}")
    for game, row in results.items():
        print(f"{game:15}{row['requests_per_s']:>12,.0f}{row['us_per_request']:>12.1f}{row['vs_echo_floor']:>9.1f}"
              f"{row['vs_beacon_lines']:>16.2f}")


def main() -> None:
    floor = min(echo_floor(True) for _ in range(REPEATS))
    results = table(SERVE, floor)
    doc: dict[str, object] = {"echo_pipelined_us": floor * 1e6, "games": results}
    print(f"best of {REPEATS}: {BUDGET:.0f} s of search per game; echo floor {floor * 1e6:.1f} µs/message")
    show("against refimpl serve (the goal)", results)
    if shutil.which("node"):
        node = table(NODE, floor)
        doc["node_example_build"] = node
        show("against the Node example build", node)
    else:
        print("\n(no node: the Node example build's table is left out)")
    out = ROOT / "bench" / "results"
    out.mkdir(exist_ok=True)
    (out / "fuzz.json").write_text(json.dumps(doc, indent=2))
    worst = max(results, key=lambda g: results[g]["vs_echo_floor"])
    print(f"\nslowest per request: {worst}, {results[worst]['vs_echo_floor']:.1f}x the echo floor (goal <= 20x)")


if __name__ == "__main__":
    main()
