"""solve benchmark: seconds to solve each small game from its start, per ruleset, and Lantern Quay from a position
mid-game (issue 45's bars: each solve within 60 s, mid-game within 1 s); the Lantern Quay start against the
spec's odds table's own count (``restoration_chance``, which knows only round starts) in the same run.

Writes bench/results/solve.json and prints a table.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from refimpl.campaigns.solve import solve
from refimpl.games.lantern_quay.kit import tables


def timed(**kw: object) -> float:
    start = time.perf_counter()
    solve(**kw)  # type: ignore[arg-type]
    return time.perf_counter() - start


def main() -> None:
    out: dict[str, float] = {}
    trace = str(ROOT / "traces" / "lantern-quay" / "draft-order-under-v1.yaml")
    for game in ("beacon-lines", "lantern-quay"):
        for ruleset in ("v0", "v1"):
            out[f"{game} {ruleset} start"] = timed(game=game, ruleset=ruleset)
    out["lantern-quay v1 after step 4 of draft-order-under-v1"] = timed(game="lantern-quay", trace=trace, at=4)
    tables._restoration.cache_clear()
    start = time.perf_counter()
    tables.restoration_chance("v1", "best"), tables.restoration_chance("v1", "random")
    baseline = time.perf_counter() - start
    for name, seconds in out.items():
        print(f"{name:55} {seconds:7.2f} s")
    ratio = out["lantern-quay v1 start"] / baseline
    print(f"{'lantern-quay v1 start against the odds table (both chances)':55} {ratio:7.2f}x")
    out["lantern-quay v1 start / odds table"] = ratio
    (ROOT / "bench" / "results").mkdir(exist_ok=True)
    (ROOT / "bench" / "results" / "solve.json").write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
