"""``refimpl simulate GAME``: many whole games of any game, their policies seated as asked, added up.

Game i of a run uses the i-th output of SplitMix64 seeded with the run's seed as its game seed, so a run depends
only on its seed, games, policies, ruleset and profile, never on how many worker processes (or cluster workers)
share it. With ``rotate``, game i seats the policies shifted by i (summary.seat_policies).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ...games import GAMES, kit_of
from ...games.streams import splitmix64
from ...harness.executor import run_jobs
from ...harness.processes import Terminated, acknowledge, check_stop
from .play import UNFINISHED, Played, SimulateError, Simulation, play
from .summary import Summary, seat_policies


class Interrupted(Exception):
    """Ctrl-C or SIGTERM during a run: ``summary`` holds the games finished before it (Summary.interrupted),
    ``signal`` is SIGINT or SIGTERM."""

    def __init__(self, summary: Summary, signal: str) -> None:
        super().__init__(f"interrupted by {signal} after {summary.games} games")
        self.summary, self.signal = summary, signal


def game_seeds(seed: int, games: int) -> list[int]:
    """The seed of every game of a run."""
    state, out = seed, []
    for _ in range(games):
        state, value = splitmix64(state)
        out.append(value)
    return out


def simulation(game: str) -> Simulation:
    """The game's Simulation, from its unit. Raises SimulateError for a game without one."""
    part = kit_of(game).simulate
    if part is None:
        raise SimulateError(f"{game} cannot be simulated")
    found: Simulation = part.load()
    return found


# One chunk of a run: (game, ruleset, profile, its games' seeds, the run's policies, its first game's index,
# rotate, fast): all a worker needs, so a chunk can run in another process or on a cluster.
Chunk = tuple[str, str, Any, list[int], tuple[str, ...], int, bool, bool]


def _chunks(game: str, ruleset: str, profile: Any, seed: int, games: int, size: int, policies: tuple[str, ...],
            rotate: bool, fast: bool) -> Iterator[Chunk]:
    """The run's games in chunks of ``size``, their seeds as game_seeds gives them."""
    state = seed
    for first in range(0, games, size):
        seeds = []
        for _ in range(min(size, games - first)):
            state, value = splitmix64(state)
            seeds.append(value)
        yield game, ruleset, profile, seeds, policies, first, rotate, fast


def play_chunk(chunk: Chunk) -> list[Played]:
    """The games of one chunk, played by the reference (under the chunk's profile): on the game's fast path
    where it has one for these policies and ``fast`` is on, else through legal_actions and apply."""
    game, ruleset, profile, seeds, policies, first, rotate, fast = chunk
    engine = profile.engine() if profile is not None else GAMES[game]
    sim = simulation(game)
    out = []
    for i, seed in enumerate(seeds):
        seated = seat_policies(policies, first + i, rotate)
        quick = sim.fast if fast and profile is None and set(seated) <= sim.fast_policies else None
        out.append(quick(engine, seed, seated) if quick is not None else play(engine, sim, ruleset, seed, seated))
    return out


def simulate(game: str, games: int, policies: Iterable[str] | None = None, seed: int = 0, jobs: int = 1,
             progress: Callable[[int, int], None] | None = None, cluster: str | None = None, rotate: bool = False,
             ruleset: str | None = None, profile: Any = None, fast: bool = True) -> Summary:
    """Play ``games`` games of ``game``; ``policies`` gives each seat's policy (None: the game's default for
    every seat; with ``rotate``, the first game's); ``jobs`` local processes, or the Dask cluster at ``cluster``;
    under ``ruleset`` (None: the default) and ``profile`` (a rulebook Profile of the game, or None). ``fast``:
    the game's speed path where it has one (False: every game through legal_actions and apply). The summary
    holds only counts and sums, so it is the same whatever finishes first. Raises SimulateError, Interrupted
    (with the games played), or ExecutorError for a cluster that cannot run the jobs."""
    if game not in GAMES:
        raise SimulateError(f"unknown game {game!r} (games: {', '.join(sorted(GAMES))})")
    engine = GAMES[game]
    info, sim = engine.info, simulation(game)
    ruleset = ruleset or info.default_ruleset
    if ruleset not in info.rulesets:
        raise SimulateError(f"{game} has no ruleset {ruleset!r} (rulesets: {', '.join(info.rulesets)})")
    if profile is not None and profile.game != game:
        raise SimulateError(f"the profile {profile.name} is of {profile.game}, not {game}")
    seated = tuple(policies) if policies is not None else (sim.default,) * len(info.players)
    sim.check(info.players, seated)
    if games < 1 or jobs < 1:
        raise SimulateError("games and jobs must be at least 1")
    summary = Summary(game, ruleset, games, seed, seated, info.players, tuple(f.name for f in sim.figures),
                      tuple(f.meaning for f in sim.figures), info.results,
                      profile=None if profile is None else profile.name, rotate=rotate,
                      record={} if info.statistics else None)
    # Chunks small enough that a cluster's workers share the load, a lost worker costs little, progress comes in
    # tenths, and an interrupted run still counts the games of all but its last fraction of a second.
    size = max(1, min(250 if jobs > 1 or cluster else 10, games // (max(jobs, 8 if cluster else 1) * 10) or 1))
    chunks = _chunks(game, ruleset, profile, seed, games, size, seated, rotate, fast)  # drawn as they are played
    done = 0
    try:
        for (*_, first, _, _), played in run_jobs(play_chunk, chunks, jobs, cluster):
            check_stop()
            for i, (result, length, figures) in enumerate(played):
                summary.add(result, length, figures, seat_policies(seated, first + i, rotate))
                if summary.record is not None:
                    summary.record = engine.record(summary.record, None if result == UNFINISHED else result)
            done += len(played)
            if progress is not None:
                progress(done, games)
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM as processes.Terminated
        acknowledge()
        signal = "SIGTERM" if isinstance(exc, Terminated) else "SIGINT"
        summary.games, summary.interrupted = done, (signal, games)
        raise Interrupted(summary, signal) from None
    return summary
