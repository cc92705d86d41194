"""``refimpl simulate ludo``: play many full games with chosen CPU levels, and tabulate win rates.

Game i of a run uses the i-th output of SplitMix64 seeded with the run's seed as its game seed, so a
run depends only on the seed and the number of games, never on how many worker processes (or cluster
workers) share it.
Each game runs on one mutable Turn of the reference engine (the same rule code as ``apply``).

With ``rotate``, game i seats the levels shifted by i (mod the seats): the level given for seat k sits in
seat k + i, so over a multiple of four games each level sits in each seat equally often, and the summary
adds a row per level (the games that level won, whatever seat it sat in; a level given twice counts
once a game, and can win a game at most once, so its share of the games is a proportion with an interval).

The summary is written as text, JSON (schema: refimpl/schemas/output/simulate.schema.json), CSV
(``summary_csv``) and an SVG chart (``summary_svg``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TypedDict

from ..errors import KitError
from ..games import GAMES
from ..games.ludo.engine import LEVELS, Ludo, Turn
from ..games.streams import splitmix64
from ..harness.executor import run_jobs
from ..harness.processes import Terminated, acknowledge, check_stop


class Interrupted(Exception):
    """Ctrl-C or SIGTERM during a run: ``summary`` holds the games finished before it (see Summary.interrupted),
    ``signal`` is SIGINT or SIGTERM."""

    def __init__(self, summary: Summary, signal: str) -> None:
        super().__init__(f"interrupted by {signal} after {summary.games} games")
        self.summary, self.signal = summary, signal


class SimulateError(KitError):
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


def _chunks(seed: int, games: int, size: int, levels: tuple[str, ...],
            rotate: bool) -> Iterator[tuple[list[int], tuple[str, ...], int, bool]]:
    """The run's games in chunks of ``size``: (their seeds, as game_seeds gives them; the levels; the index of
    the chunk's first game; rotate)."""
    state = seed
    for first in range(0, games, size):
        chunk = []
        for _ in range(min(size, games - first)):
            state, value = splitmix64(state)
            chunk.append(value)
        yield chunk, levels, first, rotate


def seat_levels(levels: tuple[str, ...], game: int, rotate: bool) -> tuple[str, ...]:
    """The level of each seat in game ``game`` (0-based) of a run: ``levels`` itself, or with ``rotate``
    shifted by ``game``: the level given for seat k sits in seat (k + game) mod the seats."""
    if not rotate:
        return levels
    n = len(levels)
    return tuple(levels[(seat - game) % n] for seat in range(n))


def play_game(engine: Ludo, seed: int, levels: tuple[str, ...]) -> tuple[str, int]:
    """(result, throws) of one full game, each seat played by its CPU level."""
    t = Turn(engine.new_state(seed=seed))
    throw, cpu_move = engine.throw, engine.cpu_move
    while t.result is None:  # a throw leaves the seat to move, to throw again, or the game over (the cap)
        throw(t, None)
        if t.phase == "move":
            cpu_move(t, levels[t.turn])
    return t.result, t.throws


def _play_many(args: tuple[list[int], tuple[str, ...], int, bool]) -> list[tuple[str, int]]:
    """The games of one chunk: its seeds, the run's levels, the index of its first game, and whether the
    levels rotate."""
    seeds, levels, first, rotate = args
    engine: Ludo = GAMES["ludo"]  # type: ignore[assignment]  # the registry's ludo is the Ludo engine
    return [play_game(engine, s, seat_levels(levels, first + i, rotate)) for i, s in enumerate(seeds)]


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
    rotate: bool = False  # the levels rotate through the seats (seat_levels)
    sat: dict[tuple[str, str], int] = field(default_factory=dict)  # (level, seat): games it sat there
    level_wins: dict[tuple[str, str], int] = field(default_factory=dict)  # (level, seat): games it won there

    def add(self, result: str, throws: int, levels: tuple[str, ...] | None = None) -> None:
        """One game: its result (the winning seat, or ``capped``), its throws, and its seats' levels."""
        levels = self.levels if levels is None else levels
        for seat, level in zip(self.seats, levels):
            self.sat[level, seat] = self.sat.get((level, seat), 0) + 1
        if result == "capped":
            self.capped += 1
        else:
            self.wins[result] = self.wins.get(result, 0) + 1
            level = levels[self.seats.index(result)]
            self.level_wins[level, result] = self.level_wins.get((level, result), 0) + 1
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
             progress: Callable[[int, int], None] | None = None, cluster: str | None = None,
             rotate: bool = False) -> Summary:
    """Play ``games`` games; ``levels`` gives each seat's CPU level (with ``rotate``, the first game's; see
    seat_levels); ``jobs`` local processes, or the Dask cluster at ``cluster``. The summary holds only
    counts, so it is the same whatever finishes first. Raises SimulateError, or ExecutorError for a cluster
    that cannot run the jobs."""
    engine: Ludo = GAMES["ludo"]  # type: ignore[assignment]  # the registry's ludo is the Ludo engine
    levels = tuple(levels)
    seats = engine.board.seats
    if len(levels) != len(seats):
        raise SimulateError(f"give one level per seat ({len(seats)}: {', '.join(seats)}), got {len(levels)}")
    bad = [lvl for lvl in levels if lvl not in LEVELS]
    if bad:
        raise SimulateError(f"unknown level {bad[0]!r} (levels: {', '.join(LEVELS)})")
    if games < 1 or jobs < 1:
        raise SimulateError("games and jobs must be at least 1")
    summary = Summary(games, seed, levels, seats, rotate=rotate)
    # Chunks small enough that a cluster's workers share the load, a lost worker costs little, progress
    # comes in tenths, and an interrupted run still counts the games of all but its last fraction of a second.
    # In this process a chunk is at most 10 games (a second or so under load): it costs nothing to count often.
    size = max(1, min(250 if jobs > 1 or cluster else 10, games // (max(jobs, 8 if cluster else 1) * 10) or 1))
    chunks = _chunks(seed, games, size, levels, rotate)  # drawn as they are played: a run starts at once
    done = 0
    try:
        for (_, _, first, _), chunk in run_jobs(_play_many, chunks, jobs, cluster):
            check_stop()
            for i, (result, throws) in enumerate(chunk):
                summary.add(result, throws, seat_levels(levels, first + i, rotate))
            done += len(chunk)
            if progress is not None:
                progress(done, games)
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM as processes.Terminated
        acknowledge()
        signal = "SIGTERM" if isinstance(exc, Terminated) else "SIGINT"
        summary.games, summary.interrupted = done, (signal, games)
        raise Interrupted(summary, signal) from None
    return summary


class SeatRow(TypedDict):
    seat: str
    level: str | None  # None when the levels rotate
    wins: int
    win_rate: float
    ci95: list[float]  # [low, high]


class SeatCount(TypedDict):
    seat: str
    games: int
    wins: int


class LevelRow(TypedDict):
    level: str
    seats_taken: int
    wins: int
    win_rate: float
    ci95: list[float]  # [low, high]
    by_seat: list[SeatCount]


def summary_rows(s: Summary) -> list[SeatRow]:
    """A row per seat: its level (None when the levels rotate), wins, win rate and 95% interval."""
    rows: list[SeatRow] = []
    for seat, level in zip(s.seats, s.levels):
        wins = s.wins.get(seat, 0)
        low, high = wilson(wins, s.games)
        rows.append({"seat": seat, "level": None if s.rotate else level, "wins": wins,
                     "win_rate": wins / s.games if s.games else 0.0, "ci95": [low, high]})
    return rows


def level_rows(s: Summary) -> list[LevelRow]:
    """A row per level given (in the order first given): the seats it fills each game, the games it won
    whatever seat it sat in, that share of the games with its 95% interval, and per seat the games it sat
    there and won there."""
    rows: list[LevelRow] = []
    for level in dict.fromkeys(s.levels):
        wins = sum(n for (lvl, _), n in s.level_wins.items() if lvl == level)
        low, high = wilson(wins, s.games)
        rows.append({"level": level, "seats_taken": s.levels.count(level), "wins": wins,
                     "win_rate": wins / s.games if s.games else 0.0, "ci95": [low, high],
                     "by_seat": [{"seat": seat, "games": s.sat.get((level, seat), 0),
                                  "wins": s.level_wins.get((level, seat), 0)} for seat in s.seats]})
    return rows


def summary_text(s: Summary) -> str:
    head = [] if s.interrupted is None else [
        f"INTERRUPTED ({s.interrupted[0]}) after {s.games} of {s.interrupted[1]} games: the figures are of the "
        f"games played", ""]
    given = ",".join(s.levels) + (" rotated through the seats (game i shifts them by i)" if s.rotate else "")
    lines = head + [f"{s.games} games, seed {s.seed}, seats {given}", "",
             f"{'seat':6} {'level':7} {'wins':>7} {'win rate':>9}   95% CI"]
    for r in summary_rows(s):
        low, high = r["ci95"]
        lines.append(f"{r['seat']:6} {r['level'] or '(rot.)':7} {r['wins']:>7} {r['win_rate']:>9.1%}   "
                     f"{low:.1%} - {high:.1%}")
    if s.rotate:
        lines += ["", f"{'level':7} {'seats':>5} {'wins':>7} {'win rate':>9}   95% CI"]
        for lr in level_rows(s):
            low, high = lr["ci95"]
            lines.append(f"{lr['level']:7} {lr['seats_taken']:>5} {lr['wins']:>7} {lr['win_rate']:>9.1%}   "
                         f"{low:.1%} - {high:.1%}")
    played = max(s.games, 1)
    lines += ["", f"capped (no result after 10,000 throws): {s.capped} ({s.capped / played:.2%})",
              f"average length: {s.throws / played:.1f} throws" if s.games else "average length: -",
              f"human seat record: {s.record['played']} played, {s.record['won']} won, {s.record['lost']} lost"]
    return "\n".join(lines) + "\n"


def summary_json(s: Summary) -> dict[str, object]:
    """The summary for machines (schema: refimpl/schemas/output/simulate.schema.json): a win rate as
    ``{"numerator": wins, "denominator": games, "probability": ...}``, its 95% interval as [low, high]; with
    rotation, a seat's level is null and ``per_level`` gives each level's rows."""
    from ..reports.jsondoc import fraction

    seats = [{**r, "win_rate": fraction(r["wins"], s.games)} for r in summary_rows(s)]
    out = {"games": s.games, "seed": s.seed, "levels": list(s.levels), "rotate": s.rotate, "seats": seats,
           "capped": s.capped, "average_throws": s.throws / s.games if s.games else None,
           "human_record": dict(s.record)}
    if s.rotate:
        out["per_level"] = [{**r, "win_rate": fraction(r["wins"], s.games)} for r in level_rows(s)]
    if s.interrupted is not None:
        out["interrupted"] = {"signal": s.interrupted[0], "asked": s.interrupted[1]}
    return out


CSV_COLUMNS = ("seat", "level", "games", "wins", "win_rate", "ci95_low", "ci95_high", "capped", "average_throws")


def summary_csv(s: Summary) -> str:
    """The summary as CSV: a header, then a row per seat (its level empty when the levels rotate) and, when
    they rotate, a row per level (its seat empty: the level wherever it sat). ``win_rate`` is wins / games;
    ``capped`` (games with no result after 10,000 throws) and ``average_throws`` are the run's, repeated on
    every row so each row stands alone (``average_throws`` empty when no game was played)."""
    import csv
    import io

    buffer = io.StringIO()
    out = csv.writer(buffer, lineterminator="\n")
    out.writerow(CSV_COLUMNS)
    tail = [s.capped, repr(s.throws / s.games) if s.games else ""]
    rows: list[tuple[str, str, SeatRow | LevelRow]] = [(r["seat"], r["level"] or "", r) for r in summary_rows(s)]
    rows += [("", r["level"], r) for r in level_rows(s)] if s.rotate else []
    for seat, level, r in rows:
        low, high = r["ci95"]
        out.writerow([seat, level, s.games, r["wins"], repr(r["win_rate"]), repr(low), repr(high), *tail])
    return buffer.getvalue()


def summary_svg(s: Summary) -> str:
    """A chart of the summary as a standalone SVG document: a horizontal bar per seat (and, when the levels
    rotate, per level) for its win rate, a whisker with caps for its 95% interval, the figures written at
    the end, and a dashed line at an even share (one game in four). Each bar is a ``rect`` of class ``bar``
    with ``data-seat`` (or ``data-level``), a ``data-win-rate`` and a ``<title>`` tooltip."""
    from xml.sax.saxutils import escape, quoteattr

    from ..reports.safetext import xml_safe

    def text(value: object) -> str:
        return escape(xml_safe(str(value)))

    def attr(value: object) -> str:
        return quoteattr(xml_safe(str(value)))

    marks: list[tuple[str, str, str, SeatRow | LevelRow]] = [
        ("seat", str(r["seat"]), f"{r['seat']}" + (f" ({r['level']})" if r["level"] else ""), r)
        for r in summary_rows(s)]
    if s.rotate:
        marks += [("level", str(r["level"]), f"{r['level']}" + (f" x{r['seats_taken']}" if r["seats_taken"] != 1
                                                                  else "") + " (any seat)", r)
                  for r in level_rows(s)]
    top = max([float(r["ci95"][1]) for *_, r in marks] + [1 / len(s.seats)])
    scale = min(1.0, math.ceil(top * 10 + 1e-9) / 10)  # the axis ends at the next tenth above every whisker
    left, width, row, pad_top = 170, 420, 34, 64
    gap = 26 if s.rotate else 0
    height = pad_top + row * len(marks) + gap + 56
    x = lambda p: left + width * p / scale  # noqa: E731
    title = f"Ludo win rates: {s.games} games, seed {s.seed}" + (", levels rotated through the seats"
                                                                  if s.rotate else "")
    if s.interrupted is not None:
        title += f" (interrupted after {s.games} of {s.interrupted[1]})"
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 190}" height="{height}" '
           f'viewBox="0 0 {left + width + 190} {height}" font-family="sans-serif" font-size="13">',
           f"<title>{text(title)}</title>",
           '<rect width="100%" height="100%" fill="#ffffff"/>',
           f'<text x="{left}" y="24" font-size="15" font-weight="bold">{text(title)}</text>',
           f'<text x="{left}" y="44" fill="#555555">bar: win rate; whisker: 95% Wilson interval; dashed: an even '
           f'share ({1 / len(s.seats):.0%})</text>']
    axis_y = pad_top + row * len(marks) + gap + 6
    ticks = round(scale * 10)
    for k in range(ticks + 1):
        p = k / 10
        out.append(f'<line x1="{x(p):.1f}" y1="{pad_top - 6}" x2="{x(p):.1f}" y2="{axis_y}" stroke="#e0e0e0"/>')
        out.append(f'<text x="{x(p):.1f}" y="{axis_y + 16}" text-anchor="middle" fill="#333333">{p:.0%}</text>')
    out.append(f'<line x1="{left}" y1="{axis_y}" x2="{left + width}" y2="{axis_y}" stroke="#333333"/>')
    out.append(f'<text x="{left + width / 2}" y="{axis_y + 36}" text-anchor="middle">share of games won</text>')
    even = x(1 / len(s.seats))
    out.append(f'<line x1="{even:.1f}" y1="{pad_top - 6}" x2="{even:.1f}" y2="{axis_y}" stroke="#888888" '
               f'stroke-dasharray="4 3"/>')
    colours = {"seat": "#4878a8", "level": "#d08a2c"}
    for i, (kind, key, label, r) in enumerate(marks):
        y = pad_top + row * i + (gap if kind == "level" else 0)
        if kind == "level" and marks[i - 1][0] == "seat":
            out.append(f'<text x="8" y="{y - 8}" font-weight="bold">per level, whatever seat it sat in</text>')
        rate, (low, high) = float(r["win_rate"]), r["ci95"]
        mid = y + row / 2
        figures = f"{rate:.1%} ({low:.1%} - {high:.1%})"
        out.append(f'<text x="{left - 10}" y="{mid + 4:.1f}" text-anchor="end">{text(label)}</text>')
        out.append(f'<rect class="bar" data-{kind}={attr(key)} data-win-rate="{rate!r}" x="{left}" '
                   f'y="{y + 7}" width="{max(0.0, x(rate) - left):.1f}" height="{row - 14}" '
                   f'fill="{colours[kind]}"><title>{text(label)}: {text(figures)}, {r["wins"]} of {s.games} '
                   f'games</title></rect>')
        out.append(f'<g class="ci95" stroke="#111111" stroke-width="1.5">'
                   f'<line x1="{x(low):.1f}" y1="{mid:.1f}" x2="{x(high):.1f}" y2="{mid:.1f}"/>'
                   f'<line x1="{x(low):.1f}" y1="{mid - 6:.1f}" x2="{x(low):.1f}" y2="{mid + 6:.1f}"/>'
                   f'<line x1="{x(high):.1f}" y1="{mid - 6:.1f}" x2="{x(high):.1f}" y2="{mid + 6:.1f}"/></g>')
        out.append(f'<text x="{left + width + 10}" y="{mid + 4:.1f}">{text(figures)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
