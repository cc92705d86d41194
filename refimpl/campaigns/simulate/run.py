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
from ...harness.versions import Version  # (a variant of a what-if: a ruleset and a profile)
from .play import UNFINISHED, Played, SimulateError, Simulation, play
from .summary import Summary, seat_policies


class Interrupted(Exception):
    """Ctrl-C or SIGTERM during a run: ``summary`` holds the games finished before it (Summary.interrupted),
    ``signal`` is SIGINT or SIGTERM."""

    def __init__(self, summary: Summary, signal: str) -> None:
        super().__init__(f"interrupted by {signal} after {summary.games} games")
        self.summary, self.signal = summary, signal
        self.comparison: Any = None  # a what-if's comparison of the games played (compare.py)


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


# One chunk of a run: (game, the variants, its games' seeds, the run's policies, its first game's index, rotate,
# fast): all a worker needs, so a chunk can run in another process or on a cluster.
Chunk = tuple[str, tuple[Version, ...], list[int], tuple[str, ...], int, bool, bool]


def _chunks(game: str, variants: tuple[Version, ...], seed: int, games: int, size: int, policies: tuple[str, ...],
            rotate: bool, fast: bool) -> Iterator[Chunk]:
    """The run's games in chunks of ``size``, their seeds as game_seeds gives them."""
    state = seed
    for first in range(0, games, size):
        seeds = []
        for _ in range(min(size, games - first)):
            state, value = splitmix64(state)
            seeds.append(value)
        yield game, variants, seeds, policies, first, rotate, fast


def play_chunk(chunk: Chunk) -> list[tuple[Played, ...]]:
    """The games of one chunk, each played under every variant from the same seed (common random numbers): on
    the game's fast path where it has one for these policies, no profile, and ``fast`` on, else through
    legal_actions and apply."""
    game, variants, seeds, policies, first, rotate, fast = chunk
    engines = [_engine(game, v.profile) for v in variants]
    sim = simulation(game)
    out = []
    for i, seed in enumerate(seeds):
        seated = seat_policies(policies, first + i, rotate)
        played = []
        for variant, engine in zip(variants, engines):
            quick = sim.fast if fast and variant.profile is None and set(seated) <= sim.fast_policies else None
            played.append(quick(engine, seed, seated) if quick is not None
                          else play(engine, sim, variant.ruleset, seed, seated))
        out.append(tuple(played))
    return out


_ENGINES: dict[str, Any] = {}  # a profile's engine, made once a process (a policy may keep its own memo by it)


def _engine(game: str, profile: Any) -> Any:
    """The reference engine of ``game`` under ``profile`` (None: the registry's), one a process and profile."""
    if profile is None:
        return GAMES[game]
    import json

    key = json.dumps([game, profile.name, profile.values], sort_keys=True, default=str)
    if key not in _ENGINES:
        _ENGINES[key] = profile.engine()
    return _ENGINES[key]


def checked(game: str, games: int, policies: Iterable[str] | None, jobs: int,
            variants: Iterable[tuple[str | None, Any]]) -> tuple[tuple[str, ...], tuple[Version, ...]]:
    """(every seat's policy, the variants) of a run, checked. Raises SimulateError naming what is allowed."""
    if game not in GAMES:
        raise SimulateError(f"unknown game {game!r} (games: {', '.join(sorted(GAMES))})")
    info, sim = GAMES[game].info, simulation(game)
    out = []
    for ruleset, profile in variants:
        ruleset = ruleset or info.default_ruleset
        if ruleset not in info.rulesets:
            raise SimulateError(f"{game} has no ruleset {ruleset!r} (rulesets: {', '.join(info.rulesets)})")
        if profile is not None and profile.game != game:
            raise SimulateError(f"the profile {profile.name} is of {profile.game}, not {game}")
        out.append(Version(ruleset, profile))
    seated = tuple(policies) if policies is not None else (sim.default,) * len(info.players)
    sim.check(info.players, seated)
    if games < 1 or jobs < 1:
        raise SimulateError("games and jobs must be at least 1")
    return seated, tuple(out)


def new_summary(game: str, games: int, seed: int, seated: tuple[str, ...], variant: Version,
                rotate: bool) -> Summary:
    """An empty summary of a run of ``game`` under ``variant``."""
    info, sim = GAMES[game].info, simulation(game)
    return Summary(game, variant.ruleset, games, seed, seated, info.players, tuple(f.name for f in sim.figures),
                   tuple(f.meaning for f in sim.figures), info.results,
                   profile=None if variant.profile is None else variant.profile.name, rotate=rotate,
                   record={} if info.statistics else None)


def play_all(game: str, games: int, seated: tuple[str, ...], variants: tuple[Version, ...], seed: int, jobs: int,
             cluster: str | None, rotate: bool, fast: bool,
             each: Callable[[tuple[str, ...], tuple[Played, ...]], bool | None],
             progress: Callable[[int, int], None] | None) -> int:
    """Play the run's games, calling ``each(seats' policies, played under every variant)`` for each, in the order
    of the game's number whatever order the workers finish in (a chunk waits for those before it), until
    ``each`` returns True (a sequential test decided: the games not yet handed over are dropped); returns the
    games handed over. Raises KeyboardInterrupt (Ctrl-C, or SIGTERM as processes.Terminated) with the games so
    far handed to ``each``, or ExecutorError."""
    # Chunks small enough that a cluster's workers share the load, a lost worker costs little, progress comes in
    # tenths, and an interrupted run still counts the games of all but its last fraction of a second.
    size = max(1, min(250 if jobs > 1 or cluster else 10, games // (max(jobs, 8 if cluster else 1) * 10) or 1))
    chunks = _chunks(game, variants, seed, games, size, seated, rotate, fast)  # drawn as they are played
    done = 0
    waiting: dict[int, list[tuple[Played, ...]]] = {}  # finished chunks by their first game, not yet handed over
    runs = run_jobs(play_chunk, chunks, jobs, cluster)
    try:
        for (_, _, _, _, first, _, _), played in runs:
            check_stop()
            waiting[first] = played
            while done in waiting:
                chunk = waiting.pop(done)
                for i, one in enumerate(chunk):
                    if each(seat_policies(seated, done + i, rotate), one):
                        return done + i + 1
                done += len(chunk)
                if progress is not None:
                    progress(done, games)
    finally:
        runs.close()  # (a stop cancels the jobs not yet started)
    return done


def simulate(game: str, games: int, policies: Iterable[str] | None = None, seed: int = 0, jobs: int = 1,
             progress: Callable[[int, int], None] | None = None, cluster: str | None = None, rotate: bool = False,
             ruleset: str | None = None, profile: Any = None, fast: bool = True) -> Summary:
    """Play ``games`` games of ``game``; ``policies`` gives each seat's policy (None: the game's default for
    every seat; with ``rotate``, the first game's); ``jobs`` local processes, or the Dask cluster at ``cluster``;
    under ``ruleset`` (None: the default) and ``profile`` (a rulebook Profile of the game, or None). ``fast``:
    the game's speed path where it has one (False: every game through legal_actions and apply). The summary
    holds only counts and sums, so it is the same whatever finishes first. Raises SimulateError, Interrupted
    (with the games played), or ExecutorError for a cluster that cannot run the jobs."""
    seated, (variant,) = checked(game, games, policies, jobs, [(ruleset, profile)])
    summary = new_summary(game, games, seed, seated, variant, rotate)
    record = GAMES[game].record

    def each(policies_: tuple[str, ...], played: tuple[Played, ...]) -> None:
        result, length, figures = played[0]
        summary.add(result, length, figures, policies_)
        if summary.record is not None:
            summary.record = record(summary.record, None if result == UNFINISHED else result)

    try:
        play_all(game, games, seated, (variant,), seed, jobs, cluster, rotate, fast, each, progress)
    except KeyboardInterrupt as exc:
        raise interrupted(summary, games, exc) from None
    return summary


def interrupted(summary: Summary, games: int, exc: KeyboardInterrupt) -> Interrupted:
    """The Interrupted a run cut short raises: the summary of the games played, and the signal."""
    acknowledge()
    signal = "SIGTERM" if isinstance(exc, Terminated) else "SIGINT"
    summary.games, summary.interrupted = summary.played, (signal, games)
    return Interrupted(summary, signal)
