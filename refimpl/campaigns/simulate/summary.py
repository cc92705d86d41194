"""What a simulate run adds up (``Summary``): every game's result, length and figures, by seat and policy, as
counts and sums only, so the same games give the same summary in any order; and the rows reports show, each a
share with its 95% Wilson interval or a mean with its 95% normal interval."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TypedDict

Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    low = 0.0 if successes == 0 else max(0.0, centre - half)  # (exact at the ends: no rounding past them)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


def mean_interval(total: float, squares: float, n: int, z: float = Z95) -> tuple[float, float, float]:
    """(mean, low, high): the mean of ``n`` numbers from their sum and sum of squares, with the 95% normal
    interval of the mean (the sample's standard deviation over the square root of n); (0, 0, 0) for none."""
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = total / n
    variance = max(0.0, (squares - n * mean * mean) / (n - 1)) if n > 1 else 0.0
    half = z * math.sqrt(variance / n)
    return mean, mean - half, mean + half


def seat_policies(policies: tuple[str, ...], game: int, rotate: bool) -> tuple[str, ...]:
    """The policy of each seat in game ``game`` (0-based) of a run: ``policies`` itself, or with ``rotate``
    shifted by ``game``: the policy given for seat k sits in seat (k + game) mod the seats."""
    if not rotate:
        return policies
    n = len(policies)
    return tuple(policies[(seat - game) % n] for seat in range(n))


@dataclass
class Summary:
    """A run's games added up. ``results``: games by result (every result the game has, and ``unfinished``);
    ``sat``/``won``: (policy, seat) -> games it sat there, games it won there (where results name seats);
    ``figures``: name -> (sum, sum of squares); ``record``: the game's own statistics record over the run
    (Ludo's human seat, LD-STAT-1), None where the game keeps none."""

    game: str
    ruleset: str
    games: int
    seed: int
    policies: tuple[str, ...]
    seats: tuple[str, ...]
    figure_names: tuple[str, ...] = ()
    figure_meanings: tuple[str, ...] = ()
    possible: tuple[str, ...] = ()  # every result the game can have (GameInfo.results), in its order
    profile: str | None = None
    rotate: bool = False
    results: dict[str, int] = field(default_factory=dict)
    length: int = 0
    figures: dict[str, tuple[float, float]] = field(default_factory=dict)
    sat: dict[tuple[str, str], int] = field(default_factory=dict)
    won: dict[tuple[str, str], int] = field(default_factory=dict)
    record: dict[str, int] | None = None
    interrupted: tuple[str, int] | None = None  # (SIGINT or SIGTERM, games asked for): the run was cut short

    def add(self, result: str, length: int, figures: tuple[float, ...], policies: tuple[str, ...]) -> None:
        """One game: its result, its length in actions, its figures and its seats' policies."""
        self.results[result] = self.results.get(result, 0) + 1
        self.length += length
        for name, value in zip(self.figure_names, figures):
            total, squares = self.figures.get(name, (0.0, 0.0))
            self.figures[name] = (total + value, squares + value * value)
        for seat, policy in zip(self.seats, policies):
            self.sat[policy, seat] = self.sat.get((policy, seat), 0) + 1
        if result in self.seats:
            policy = policies[self.seats.index(result)]
            self.won[policy, result] = self.won.get((policy, result), 0) + 1

    @property
    def played(self) -> int:
        """Games added so far (``games`` once the run is whole)."""
        return sum(self.results.values())

    @property
    def by_seat(self) -> bool:
        """Whether the game's results name seats (a winner), so seats and policies have win rates."""
        return any(seat in self.possible for seat in self.seats)


class ShareRow(TypedDict):
    name: str  # the seat, policy or result
    policy: str | None  # a seat's policy (None when they rotate); a policy row's own name
    seats_taken: int  # the seats the policy filled each game (1 for a seat or a result)
    count: int
    games: int
    share: float
    ci95: list[float]


class FigureRow(TypedDict):
    name: str
    meaning: str
    mean: float
    ci95: list[float]


def seat_rows(s: Summary) -> list[ShareRow]:
    """A row per seat, where results name seats: its policy, wins, share and interval."""
    if not s.by_seat:
        return []
    return [_share(seat, None if s.rotate else policy, 1, s.results.get(seat, 0), s.games)
            for seat, policy in zip(s.seats, s.policies)]


def policy_rows(s: Summary) -> list[ShareRow]:
    """With rotation, where results name seats, a row per policy given (in the order first given): the seats it
    fills each game and the games it won whatever seat it sat in."""
    if not (s.rotate and s.by_seat):
        return []
    return [_share(p, p, s.policies.count(p), sum(n for (q, _), n in s.won.items() if q == p), s.games)
            for p in dict.fromkeys(s.policies)]


def result_rows(s: Summary) -> list[ShareRow]:
    """A row per result the game can have (and ``unfinished`` if a game was stopped): games, share, interval."""
    names = list(s.possible) + [r for r in s.results if r not in s.possible]
    return [_share(r, None, 1, s.results.get(r, 0), s.games) for r in names]


def figure_rows(s: Summary) -> list[FigureRow]:
    """A row per figure of the game: its mean over the games with a 95% interval."""
    rows: list[FigureRow] = []
    for name, meaning in zip(s.figure_names, s.figure_meanings):
        total, squares = s.figures.get(name, (0.0, 0.0))
        mean, low, high = mean_interval(total, squares, s.games)
        rows.append({"name": name, "meaning": meaning, "mean": mean, "ci95": [low, high]})
    return rows


def _share(name: str, policy: str | None, seats: int, count: int, games: int) -> ShareRow:
    low, high = wilson(count, games)
    return {"name": name, "policy": policy, "seats_taken": seats, "count": count, "games": games,
            "share": count / games if games else 0.0, "ci95": [low, high]}
