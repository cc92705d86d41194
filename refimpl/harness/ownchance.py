"""A build's own chance, judged (specs/protocol.md "Chance: seeded or given", "A build's own chance").

A build that declares ``explicit-chance`` draws chance from its own random source, so the traces give it every
outcome. Here it is also sent chance requests *without* an outcome, as its own play would make them: a Ludo
``roll`` without a face and a ``cpu`` without a pick, a Black Fog ``start`` without a map, ``roll`` without a
face and ``fog`` without tiles, a Conquest King ``start`` without terrain. Each answer is judged:

1. **allowed**: the answer must be the reference's answer to one outcome the rules allow from that position
   (the kit tries each: the six faces, each pick the CPU level draws among, the fog tiles or the map the
   answer shows); the stream counters (``decisions``, ``draws``) are the build's own affair and not compared;
2. **distributed as the rules say**, over the run: a die's faces uniform, easy's draw uniform among the moves
   it draws among (LD-CPU-1), by Pearson's chi-square test on the counts of each (choices, outcome)
   cell, each test at ALPHA, so that a correct build is failed by chance in fewer than one run in a million
   (three tests). ``ROLLS`` throws (games/ludo/kit/chance.py) catch a die that shows one face twice as often
   as each other face in more than 99.9% of runs (tests/test_ownchance.py measures it). Maps and fog are judged
   allowed only: their outcomes are too many for a count to say anything in one run;
3. **one split a seed**: a tie of normal or hard is split by one number drawn from the game's seed (LD-CPU-4), so
   in one game every tie among the same number of moves goes to the same one of them (in piece order); a build
   whose own source splits ties afresh each time fails it. Which way a seed splits is the build's own affair.

The requests go one at a time (the next depends on the answer), chosen by a generator seeded with SEED, so a
run sends the same kinds of requests each time; the outcomes are the build's.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..games import GAMES, BadSetup, RuleViolation
from ..games.registry import kits, loaded
from .driver import BuildBroke, Driver, Rejected, refusal_words
from .requests import Apply, Op, Start

ALPHA = 1e-7  # each distribution test's false-alarm rate: five tests, under one in a million per run
SEED = 20261202


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-square with ``df`` degrees of freedom (the regularized upper incomplete gamma
    Q(df/2, x/2), by its series or its continued fraction)."""
    if x <= 0:
        return 1.0
    a, z = df / 2.0, x / 2.0
    if z < a + 1:  # series for P, then Q = 1 - P
        term = total = 1.0 / a
        n = a
        for _ in range(10_000):
            n += 1
            term *= z / n
            total += term
            if term < total * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(-z + a * math.log(z) - math.lgamma(a)))
    tiny = 1e-300  # Lentz's continued fraction for Q
    b = z + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return min(1.0, h * math.exp(-z + a * math.log(z) - math.lgamma(a)))


@dataclass
class Tally:
    """The outcomes seen of one kind of draw: (how many equally likely outcomes, which one) -> count."""

    cells: dict[tuple[int, int], int] = field(default_factory=dict)
    faces: list[int] = field(default_factory=list)  # the outcomes of the six-sided draws, in the order drawn

    def add(self, choices: int, index: int) -> None:
        self.cells[(choices, index)] = self.cells.get((choices, index), 0) + 1
        if choices == 6:
            self.faces.append(index)

    def serial_test(self) -> tuple[float, int, float] | None:
        """(Pearson's statistic, degrees of freedom, p-value) of the six-sided draws taken two at a time, in
        the order drawn, without overlap: independent fair draws fill the 36 (first, second) cells alike, so
        a die that cycles or avoids repeating a face fails it though its faces are uniform. Which draws are
        counted depends on the position before each, never on its own outcome, so the counted ones are still
        independent. None with fewer than 5 pairs expected in a cell."""
        pairs = len(self.faces) // 2
        if pairs / 36 < 5:
            return None
        cells = [0] * 36
        for i in range(pairs):
            cells[6 * self.faces[2 * i] + self.faces[2 * i + 1]] += 1
        expected = pairs / 36
        statistic = sum((c - expected) ** 2 / expected for c in cells)
        return statistic, 35, chi2_sf(statistic, 35)

    @property
    def draws(self) -> int:
        return sum(self.cells.values())

    def test(self) -> tuple[float, int, float] | None:
        """(Pearson's statistic, degrees of freedom, p-value) over the draws of every number of choices that
        has at least 5 expected in each cell; None when no such group has draws."""
        statistic, df = 0.0, 0
        for k in sorted({k for k, _ in self.cells}):
            n = sum(c for (kk, _), c in self.cells.items() if kk == k)
            if n / k < 5:
                continue
            expected = n / k
            statistic += sum((self.cells.get((k, i), 0) - expected) ** 2 / expected for i in range(k))
            df += k - 1
        if df == 0:
            return None
        return statistic, df, chi2_sf(statistic, df)

    def counts(self, choices: int) -> list[int]:
        return [self.cells.get((choices, i), 0) for i in range(choices)]


@dataclass
class Verdict:
    """One judged stream: what was judged, and the first answer no allowed outcome explains (if any)."""

    game: str
    name: str
    rules: tuple[str, ...]
    tally: Tally | None = None  # None: judged allowed only
    judged: int = 0
    impossible: str = ""  # the first answer no outcome explains, in words
    request: Any = None  # the request it answered
    note: str = ""  # why nothing was judged, when nothing was
    said: str = ""  # what a pass means in words, when not "each outcome one the rules allow"


class Judge:
    """Plays one game against the build with requests without outcomes, keeping the reference in step."""

    def __init__(self, driver: Driver, game: str, ruleset: str) -> None:
        self.driver, self.game, self.ruleset = driver, game, ruleset
        self.engine = GAMES[game]
        self.skip = set(self.engine.info.stream_fields)
        self.state: Any = None
        self.rng = random.Random(f"{SEED}/{game}")

    def _same(self, expected: Mapping[str, Any], actual: Any) -> bool:
        if not isinstance(actual, dict):
            return False
        return {k: v for k, v in expected.items() if k not in self.skip} == \
            {k: v for k, v in actual.items() if k not in self.skip}

    def _view(self, state: Any) -> dict[str, Any]:
        return self.engine.view(state)

    def send(self, action: Any) -> Any:
        """The build's answer to ``action`` as written (its view, or Rejected): no outcome is filled in."""
        return as_written(self.driver, Apply(action))

    def start(self) -> tuple[Any, int]:
        """(the build's answer to a start without a set-up, its view or Refused; the seed it was sent). Every
        start has a seed of its own, so a build that draws from a game's seeded stream plays other games."""
        seed = self.rng.randrange(1 << 53)
        return as_written(self.driver, Start(self.game, self.ruleset, seed, {})), seed

    def which(self, answer: Any, outcomes: list[Any]) -> tuple[int | None, bool]:
        """(the index of the outcome, an explicit action, whose reference answer is the build's, or None;
        whether every outcome gives an answer of its own). Only a draw whose outcomes all differ may be
        counted: which position makes two faces alike (an animal at the edge) does not depend on the face
        thrown, so leaving those draws out keeps the count fair."""
        found: int | None = None
        seen: list[Any] = []
        for i, action in enumerate(outcomes):
            try:
                after = self.engine.apply(self.state, self.engine.parse_action(action))
            except RuleViolation:
                continue
            shown = {k: v for k, v in self._view(after).items() if k not in self.skip}
            seen.append(shown)
            if found is None and self._same(shown, answer):
                found, state = i, after
        if found is not None:
            self.state = state
        distinct = len(seen) == len(outcomes) and all(seen[i] != seen[k] for i in range(len(seen))
                                                      for k in range(i + 1, len(seen)))
        return found, distinct

    def adopt(self, seed: int, setup: Mapping[str, Any], answer: Any, unlike: str,
              drawn_rules: Callable[[Any], str | None] | None = None) -> str:
        """Start the reference on ``setup``, the set-up that gives the map the build drew in ``answer``; what is
        wrong with that map in words ("" when nothing): no map a set-up gives (``unlike`` says how), one
        ``drawn_rules`` finds against the rules of a drawn map, or a start other than the reference's on it."""
        try:
            self.state = self.engine.new_state(self.ruleset, seed, setup)
        except BadSetup as exc:
            return f"its map is {unlike}: {exc.message}"
        problem = drawn_rules(self.state) if drawn_rules is not None else None
        if problem is not None:
            return f"its map breaks the rules of a drawn map: {problem}"
        if not self._same(self._view(self.state), answer):
            return "its start is not the reference's start on the same map"
        return ""

    def follow(self, action: Any, answer: Any) -> bool:
        """Play ``action`` (no chance in it) on the reference; whether the build's answer is the reference's."""
        try:
            after = self.engine.apply(self.state, self.engine.parse_action(action))
        except RuleViolation as exc:
            return isinstance(answer, Rejected) and answer.code == exc.code
        self.state = after
        return self._same(self._view(after), answer)


def as_written(driver: Driver, op: Op) -> Any:
    batch = driver.batch
    try:
        # ignore: Driver.batch has no as_written; the builds' driver (ProtocolDriver) has, the others raise TypeError
        return next(iter(batch([op], as_written=True)))  # type: ignore[call-arg]
    except TypeError:  # a driver that gives no chance of its own (the reference in this process)
        return next(iter(batch([op])))


def describe(answer: Any) -> str:
    said = refusal_words(answer, message=True)
    return f"it answered {said}" if said else "its answer is the reference's answer to none of them"


def games_judged() -> list[str]:
    """The games with chance of their own (``GameKit.own_chance``), by name."""
    return sorted(kit.name for kit in kits() if kit.own_chance is not None)


def judge(driver: Driver, game: str, ruleset: str) -> Iterator[Verdict]:
    """Every verdict on the build's own chance in ``game`` (its unit's ``own_chance``, then what its seed
    promises: ``seed_chance``). Raises BuildBroke."""
    own = loaded(game, "own_chance")
    if own is None:
        raise KeyError(f"{game} has no chance of its own to judge (games_judged: {', '.join(games_judged())})")
    verdicts = own(driver, ruleset)
    failed = next((v for v in verdicts if v.impossible), None)
    for v in verdicts:
        if not v.judged and not v.impossible:
            v.note = f"not judged: {failed.name} failed first" if failed is not None else \
                "the games played drew nothing of it"
    yield from verdicts
    seeded = loaded(game, "seed_chance")
    if seeded is not None:
        yield from seeded(driver, ruleset)


__all__ = ["ALPHA", "BuildBroke", "Judge", "Tally", "Verdict", "as_written", "chi2_sf", "describe", "games_judged",
           "judge"]
