"""Ludo benchmark: full games per second of the reference against the PyPI package ludopy, the anchor,
measured side by side in the same run (random moves for both; then the reference's hard level).

Needs the bench extra (``pip install -e '.[bench]'``, which ``make bench`` does). Writes
bench/results/ludo.json and prints a table.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from refimpl.campaigns.simulate import game_seeds
from refimpl.games import GAMES
from refimpl.games.ludo.kit.simulate import fast

REPEATS = 3


def ludopy_rate(games: int) -> float:
    """Games per second of ludopy with uniformly random legal moves."""
    import ludopy
    import numpy as np

    start = time.perf_counter()
    for i in range(games):
        rng = np.random.default_rng(i)
        game, over = ludopy.Game(), False
        while not over:
            (_dice, movable, _p, _e, _won, over), _player = game.get_observation()
            game.answer_observation(movable[rng.integers(0, len(movable))] if len(movable) else -1)
    return games / (time.perf_counter() - start)


def reference_rate(games: int, level: str) -> tuple[float, float]:
    """(games per second, throws per game) of the reference, all four seats at ``level``."""
    engine = GAMES["ludo"]
    levels = (level,) * 4
    start = time.perf_counter()
    throws = sum(int(fast(engine, seed, levels)[2][0]) for seed in game_seeds(1, games))  # type: ignore[arg-type]
    return games / (time.perf_counter() - start), throws / games


def main() -> None:
    anchor = max(ludopy_rate(40) for _ in range(REPEATS))
    easy, easy_len = max(reference_rate(300, "easy") for _ in range(REPEATS))
    hard, hard_len = max(reference_rate(100, "hard") for _ in range(REPEATS))
    results = {"ludopy_random_games_per_s": anchor, "reference_random_games_per_s": easy,
               "reference_hard_games_per_s": hard, "random_vs_ludopy": easy / anchor,
               "hard_vs_ludopy": hard / anchor, "reference_random_throws_per_game": easy_len,
               "reference_hard_throws_per_game": hard_len}
    out = ROOT / "bench" / "results"
    out.mkdir(exist_ok=True)
    (out / "ludo.json").write_text(json.dumps(results, indent=2))
    print(f"best of {REPEATS}, one process each\n")
    print(f"{'ludopy, random moves (the anchor)':40} {anchor:8.1f} games/s")
    print(f"{'reference, random moves (easy x4)':40} {easy:8.1f} games/s  {easy / anchor:5.1f}x  (target >= 25x)")
    print(f"{'reference, hard x4':40} {hard:8.1f} games/s  {hard / anchor:5.1f}x  (target >= 6x)")
    print(f"\naverage length: {easy_len:.0f} throws (easy), {hard_len:.0f} throws (hard)")


if __name__ == "__main__":
    main()
