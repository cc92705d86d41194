"""``refimpl simulate ludo``: play many full games with chosen CPU levels, and tabulate win rates.

Game i of a run uses the i-th output of SplitMix64 seeded with the run's seed as its game seed, so a
run depends only on the seed and the number of games, never on how many worker processes (or cluster
workers) share it.
Each game runs on one mutable Turn of the reference engine (the same rule code as ``apply``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Iterable

from .executor import run_jobs
from .processes import Terminated, acknowledge, check_stop
from .games import GAMES
from .games.ludo.engine import LEVELS, Ludo, Turn
from .games.streams import splitmix64

HUMAN = "human"


class Interrupted(Exception):
    """Ctrl-C or SIGTERM during a run: ``summary`` holds the games finished before it (see Summary.interrupted),
    ``signal`` is SIGINT or SIGTERM."""

    def __init__(self, summary: "Summary", signal: str) -> None:
        super().__init__(f"interrupted by {signal} after {summary.games} games")
        self.summary, self.signal = summary, signal


class SimulateError(Exception):
    """Bad input to simulate (a level that does not exist, a wrong number of seats)."""


def tally(record: dict[str, int], result: str | None) -> None:
    """Add one game to the human seat's record (rule LD-STAT-1, as the engine keeps it)."""
    record.update(GAMES["ludo"].record(record, result))


def game_seeds(seed: int, games: int) -> list[int]:
    """The seed of every game of a run."""
    state, out = seed, []
    for _ in range(games):
        state, value = splitmix64(state)
        out.append(value)
    return out


def play_game(engine: Ludo, seed: int, levels: tuple[str, ...]) -> tuple[str, int]:
    """(result, throws) of one full game, each seat played by its CPU level."""
    t = Turn(engine.new_state(seed=seed))
    throw, cpu_move = engine.throw, engine.cpu_move
    while t.result is None:  # a throw leaves the seat to move, to throw again, or the game over (the cap)
        throw(t, None)
        if t.phase == "move":
            cpu_move(t, levels[t.turn])
    return t.result, t.throws


def _play_many(args: tuple[list[int], tuple[str, ...]]) -> list[tuple[str, int]]:
    seeds, levels = args
    engine: Ludo = GAMES["ludo"]  # type: ignore[assignment]
    return [play_game(engine, s, levels) for s in seeds]


@dataclass
class Summary:
    games: int
    seed: int
    levels: tuple[str, ...]
    seats: tuple[str, ...]
    wins: dict[str, int] = field(default_factory=dict)
    capped: int = 0
    throws: int = 0
    record: dict[str, int] = field(default_factory=lambda: {"played": 0, "won": 0, "lost": 0})
    interrupted: tuple[str, int] | None = None  # (SIGINT or SIGTERM, games asked for): the run was cut short

    def add(self, result: str, throws: int) -> None:
        if result == "capped":
            self.capped += 1
        else:
            self.wins[result] = self.wins.get(result, 0) + 1
        self.throws += throws
        tally(self.record, result)


def wilson(successes: int, trials: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


def simulate(games: int, levels: Iterable[str], seed: int, jobs: int = 1,
             progress: Callable[[int, int], None] | None = None, cluster: str | None = None) -> Summary:
    """Play ``games`` games; ``levels`` gives each seat's CPU level; ``jobs`` local processes, or the Dask
    cluster at ``cluster``. The summary holds only counts, so it is the same whatever finishes first.
    Raises SimulateError, or ExecutorError for a cluster that cannot run the jobs."""
    engine: Ludo = GAMES["ludo"]  # type: ignore[assignment]
    levels = tuple(levels)
    seats = engine.board.seats
    if len(levels) != len(seats):
        raise SimulateError(f"give one level per seat ({len(seats)}: {', '.join(seats)}), got {len(levels)}")
    bad = [lvl for lvl in levels if lvl not in LEVELS]
    if bad:
        raise SimulateError(f"unknown level {bad[0]!r} (levels: {', '.join(LEVELS)})")
    if games < 1 or jobs < 1:
        raise SimulateError("games and jobs must be at least 1")
    summary = Summary(games, seed, levels, seats)
    seeds = game_seeds(seed, games)
    # Chunks small enough that a cluster's workers share the load, a lost worker costs little, and an
    # interrupted run still counts the games of all but its last fraction of a second.
    size = max(1, min(250, games // (max(jobs, 8 if cluster else 1) * 8) or 1))
    chunks = [(seeds[i:i + size], levels) for i in range(0, games, size)]
    done = 0
    try:
        for _, chunk in run_jobs(_play_many, chunks, jobs, cluster):
            check_stop()
            for result, throws in chunk:
                summary.add(result, throws)
            done += len(chunk)
            if progress is not None:
                progress(done, games)
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM as processes.Terminated
        acknowledge()
        signal = "SIGTERM" if isinstance(exc, Terminated) else "SIGINT"
        summary.games, summary.interrupted = done, (signal, games)
        raise Interrupted(summary, signal) from None
    return summary


def summary_rows(s: Summary) -> list[dict[str, object]]:
    rows = []
    for seat, level in zip(s.seats, s.levels):
        wins = s.wins.get(seat, 0)
        low, high = wilson(wins, s.games)
        rows.append({"seat": seat, "level": level, "wins": wins, "win_rate": wins / s.games if s.games else 0.0,
                     "ci95": [low, high]})
    return rows


def summary_text(s: Summary) -> str:
    head = [] if s.interrupted is None else [
        f"INTERRUPTED ({s.interrupted[0]}) after {s.games} of {s.interrupted[1]} games: the figures are of the "
        f"games played", ""]
    lines = head + [f"{s.games} games, seed {s.seed}, seats {','.join(s.levels)}", "",
             f"{'seat':6} {'level':7} {'wins':>7} {'win rate':>9}   95% CI"]
    for r in summary_rows(s):
        low, high = r["ci95"]  # type: ignore[misc]
        lines.append(f"{r['seat']:6} {r['level']:7} {r['wins']:>7} {r['win_rate']:>9.1%}   "
                     f"{low:.1%} - {high:.1%}")
    played = max(s.games, 1)
    lines += ["", f"capped (no result after 10,000 throws): {s.capped} ({s.capped / played:.2%})",
              f"average length: {s.throws / played:.1f} throws" if s.games else "average length: -",
              f"human seat record: {s.record['played']} played, {s.record['won']} won, {s.record['lost']} lost"]
    return "\n".join(lines) + "\n"


def summary_json(s: Summary) -> dict[str, object]:
    """The summary for machines (schema: refimpl/schemas/output/simulate.schema.json): a win rate as
    ``{"numerator": wins, "denominator": games, "probability": ...}``, its 95% interval as [low, high]."""
    from .report import fraction

    seats = [{**r, "win_rate": fraction(r["wins"], s.games)} for r in summary_rows(s)]  # type: ignore[arg-type]
    out = {"games": s.games, "seed": s.seed, "levels": list(s.levels), "seats": seats, "capped": s.capped,
           "average_throws": s.throws / s.games if s.games else None, "human_record": dict(s.record)}
    if s.interrupted is not None:
        out["interrupted"] = {"signal": s.interrupted[0], "asked": s.interrupted[1]}
    return out
