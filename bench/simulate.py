"""simulate benchmark: for every game, whole games a second of ``simulate`` (one process, uniform random seats)
against the engine's bare playout loop in the same run (``new_state``, then ``legal_actions``, a uniform choice
and ``apply`` until ``outcome``: no harness); the ratio is simulate's overhead (issue 45's bar: within 1.2x).
Also 10,000 games of every game on 2 local workers, timed (the bar: within 60 s each).

Writes bench/results/simulate.json and prints a table.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from refimpl.campaigns.simulate import game_seeds, simulate
from refimpl.games import GAMES

GAMES_EACH = {"beacon-lines": 3000, "lantern-quay": 3000, "ludo": 60, "black-fog": 60, "conquest-king": 2}
BIG = {"beacon-lines": 10_000, "lantern-quay": 10_000, "ludo": 10_000, "black-fog": 10_000}  # conquest-king: too slow


def bare(game: str, games: int) -> float:
    """Games a second of the bare loop over the same seeds."""
    engine = GAMES[game]
    start = time.perf_counter()
    for seed in game_seeds(1, games):
        state, rng = engine.new_state(None, seed=seed), random.Random(seed)
        while engine.outcome(state) is None:
            state = engine.apply(state, rng.choice(engine.legal_actions(state)))
    return games / (time.perf_counter() - start)


def simulated(game: str, games: int, jobs: int = 1) -> tuple[float, float]:
    """(games a second, seconds) of simulate with every seat random."""
    players = GAMES[game].info.players
    start = time.perf_counter()
    simulate(game, games, ("random",) * len(players), 1, jobs=jobs)
    took = time.perf_counter() - start
    return games / took, took


def main() -> None:
    out: dict[str, dict[str, float]] = {}
    print(f"{'game':14} {'bare games/s':>13} {'simulate games/s':>17} {'overhead':>9}   10,000 games, 2 jobs")
    for game, n in GAMES_EACH.items():
        plain = max(bare(game, n) for _ in range(2))
        sim = max(simulated(game, n)[0] for _ in range(2))
        big = simulated(game, BIG[game], jobs=2)[1] if game in BIG and "--quick" not in sys.argv else None
        out[game] = {"bare": plain, "simulate": sim, "overhead": plain / sim, "seconds_10000_jobs2": big or 0.0}
        print(f"{game:14} {plain:>13.1f} {sim:>17.1f} {plain / sim:>8.2f}x   "
              + (f"{big:.1f} s" if big is not None else "-"))
    (ROOT / "bench" / "results").mkdir(exist_ok=True)
    (ROOT / "bench" / "results" / "simulate.json").write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
