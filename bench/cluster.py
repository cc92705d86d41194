"""Cluster benchmark: ``simulate`` Ludo games per second on a local Dask cluster of two worker processes
(one thread each) against one process, measured side by side in the same run, with the same games (the
results must be equal, and are checked). On two cores the goal is close to 2x.

Needs the cluster extra (``pip install -e '.[cluster]'``, which ``make bench`` does); says so and skips
without it. Writes bench/results/cluster.json and prints a table.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from refimpl.campaigns.simulate import simulate, summary_json

GAMES = 3000
SEATS = ["easy", "normal", "easy", "normal"]
REPEATS = 3


def rate(cluster: str | None) -> tuple[float, dict]:
    """(games per second, the summary) of one simulate run."""
    start = time.perf_counter()
    summary = simulate("ludo", GAMES, SEATS, 1, cluster=cluster)
    return GAMES / (time.perf_counter() - start), summary_json(summary)


def main() -> None:
    try:
        from distributed import LocalCluster
    except ImportError:
        print("skipped: Dask distributed is not installed (pip install -e '.[cluster]')")
        return
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                      host="127.0.0.1") as cluster:
        address = cluster.scheduler_address
        rate(address)  # warm the workers (imports) before measuring
        local, remote = [], []
        for _ in range(REPEATS):
            r, expected = rate(None)
            local.append(r)
            r, got = rate(address)
            remote.append(r)
            assert got == expected, "the cluster's table differs from the local one"
    one, two = max(local), max(remote)
    results = {"games": GAMES, "seats": SEATS, "one_process_games_per_s": one,
               "cluster_two_workers_games_per_s": two, "two_workers_vs_one_process": two / one}
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "cluster.json").write_text(json.dumps(results, indent=2) + "\n")
    print(f"simulate ludo, {GAMES} games, seats {','.join(SEATS)} (best of {REPEATS}):")
    print(f"  {'one process':32} {one:8.1f} games/s   1.00x")
    print(f"  {'local Dask cluster, 2 workers':32} {two:8.1f} games/s   {two / one:.2f}x")


if __name__ == "__main__":
    main()
