"""Fuzz throughput: requests per second per game against ``refimpl serve``, as a ratio against the
pipelined echo floor measured in the same run (issue 30's goal: at most 20x in every game), and each game
against Beacon Lines.

Each campaign searches for BUDGET seconds, as a user's fuzz runs by time: the build's start-up is spread
over a campaign as it is in use (a count of 120 short Beacon Lines cases was a third start-up).

A request's cost here is everything the fuzzer spends on it: drawing the case against the reference,
the reference's own answer, the build's answer over the protocol, and the comparison.
Writes bench/results/fuzz.json (not committed) and prints a table.
"""

from __future__ import annotations

import json
import shlex
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
BUDGET = 6.0  # seconds each campaign searches
REPEATS = 2  # each figure is the best of this many runs


def throughput(game: str) -> tuple[float, int]:
    """Seconds per request fuzzing ``game`` against the reference, and the requests sent."""
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        report = fuzz(SERVE, FuzzSettings(game, ruleset=GAMES[game].info.default_ruleset, max_time=BUDGET, seed=1),
                      out)
        elapsed = time.perf_counter() - start
    if report.finding is not None:
        raise SystemExit(f"the reference diverged from itself fuzzing {game}: {report.explanation}")
    return elapsed / report.requests, report.requests


def main() -> None:
    floor = min(echo_floor(True) for _ in range(REPEATS))
    results: dict[str, dict[str, float]] = {}
    for game in sorted(GAMES):
        per_request, requests = min((throughput(game) for _ in range(REPEATS)), key=lambda r: r[0])
        results[game] = {"us_per_request": per_request * 1e6, "requests_per_s": 1 / per_request,
                         "requests": requests, "vs_echo_floor": per_request / floor}
    base = results["beacon-lines"]["us_per_request"]
    for row in results.values():
        row["vs_beacon_lines"] = row["us_per_request"] / base
    out = ROOT / "bench" / "results"
    out.mkdir(exist_ok=True)
    (out / "fuzz.json").write_text(json.dumps({"echo_pipelined_us": floor * 1e6, "games": results}, indent=2))
    print(f"best of {REPEATS}: {BUDGET:.0f} s of search per game; echo floor {floor * 1e6:.1f} µs/message\n")
    print(f"{'game':15}{'requests/s':>12}{'µs/request':>12}{'x echo':>9}{'x Beacon Lines':>16}")
    for game, row in results.items():
        print(f"{game:15}{row['requests_per_s']:>12,.0f}{row['us_per_request']:>12.1f}{row['vs_echo_floor']:>9.1f}"
              f"{row['vs_beacon_lines']:>16.2f}")
    worst = max(results, key=lambda g: results[g]["vs_echo_floor"])
    print(f"\nslowest per request: {worst}, {results[worst]['vs_echo_floor']:.1f}x the echo floor (goal <= 20x)")


if __name__ == "__main__":
    main()
