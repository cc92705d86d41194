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
   (three tests). ``ROLLS`` throws catch a die that shows one face twice as often as each other face in
   more than 99.9% of runs (tests/test_ownchance.py measures it). Maps and fog are judged allowed only: their
   outcomes are too many for a count to say anything in one run;
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
from .driver import BuildBroke, Driver, Rejected, refusal_words

ALPHA = 1e-7  # each distribution test's false-alarm rate: five tests, under one in a million per run
ROLLS = 1200  # Ludo throws judged: a die with one face twice as likely is caught in every run of 2,000 simulated
BLACK_FOG_ROLLS = 900  # animal dice counted (those whose six faces all differ): the same die caught in 99.95%
BLACK_FOG_GAMES = 6  # Black Fog games at least (each: a map, about 40 animal dice, 4 fogs); then on to ROLLS dice
CONQUEST_MAPS = 40  # Conquest King starts without terrain
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
        return _as_written(self.driver, ("apply", action))

    def start(self) -> tuple[Any, int]:
        """(the build's answer to a start without a set-up, its view or Refused; the seed it was sent). Every
        start has a seed of its own, so a build that draws from a game's seeded stream plays other games."""
        seed = self.rng.randrange(1 << 53)
        return _as_written(self.driver, ("start", self.game, self.ruleset, seed, {})), seed

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


def _as_written(driver: Driver, op: Any) -> Any:
    batch = driver.batch
    try:
        # ignore: Driver.batch has no as_written; the builds' driver (ProtocolDriver) has, the others raise TypeError
        return next(iter(batch([op], as_written=True)))  # type: ignore[call-arg]
    except TypeError:  # a driver that gives no chance of its own (the reference in this process)
        return next(iter(batch([op])))


def _describe(answer: Any) -> str:
    said = refusal_words(answer, message=True)
    return f"it answered {said}" if said else "its answer is the reference's answer to none of them"


def judge_ludo(driver: Driver, ruleset: str, rolls: int = ROLLS) -> list[Verdict]:
    """Throws without a face and CPU moves without a pick, game after game, until ``rolls`` throws."""
    from ..games.ludo import cpu
    from ..games.ludo.engine import LEVELS

    j = Judge(driver, "ludo", ruleset)
    dice = Verdict("ludo", "ludo/own dice", ("LD-ROLL-1",), Tally())
    picks = Verdict("ludo", "ludo/own CPU draws", ("LD-CPU-1",), Tally())
    ties = Verdict("ludo", "ludo/own tie splits", ("LD-CPU-4",),
                   said="in each game, every tie among the same number of moves split to the same one of them")
    # ignore: dice is made with a Tally
    while dice.tally.draws < rolls and not any(v.impossible for v in (dice, picks, ties)):  # type: ignore[union-attr]
        answer, seed = j.start()
        splits: dict[int, int] = {}  # this game's ties: how many moves tied -> which of them the build took
        j.state = j.engine.new_state(ruleset, seed, {})
        if not j._same(j._view(j.state), answer):
            dice.impossible = "its start is not the reference's start"
            break
        # ignore: made with a Tally
        while j.engine.outcome(j.state) is None and dice.tally.draws < rolls:  # type: ignore[union-attr]
            if j.state.phase == "roll":
                action = {"type": "roll"}
                answer = j.send(action)
                face, fair = j.which(answer, [{"type": "roll", "face": f} for f in range(1, 7)])
                if face is None:
                    dice.impossible, dice.request = f"a throw: no face 1-6 explains it; {_describe(answer)}", action
                    break
                if fair:
                    dice.tally.add(6, face)  # type: ignore[union-attr]  # made with a Tally
                dice.judged += 1
                continue
            level = j.rng.choice(LEVELS)
            action = {"type": "cpu", "level": level}
            among = cpu.candidates(j.engine, j.state, level)  # type: ignore[arg-type]  # the Ludo engine
            answer = j.send(action)
            if len(among) > 1:
                pick, fair = j.which(answer, [{"type": "cpu", "level": level, "pick": i}
                                              for i in range(len(among))])
                verdict = picks if level == "easy" else ties
                if pick is None:
                    verdict.impossible = (f"a {level} CPU move: none of the {len(among)} moves it draws among "
                                          f"explains it; {_describe(answer)}")
                    verdict.request = action
                    break
                if level != "easy" and fair and splits.setdefault(len(among), pick) != pick:
                    ties.impossible = (f"seed {seed} split a tie of {len(among)} moves to move {splits[len(among)]} "
                                       f"and a later one to move {pick} (in piece order): the game's seed gives one "
                                       f"number for every tie")
                    ties.request = action
                    break
                if fair and level == "easy":
                    picks.tally.add(len(among), pick)  # type: ignore[union-attr]  # made with a Tally
                verdict.judged += 1
            elif not j.follow(action, answer):
                picks.impossible, picks.request = f"a {level} CPU move with one choice: {_describe(answer)}", action
                break
    return [dice, picks, ties]


def judge_black_fog(driver: Driver, ruleset: str, rolls: int = BLACK_FOG_ROLLS,
                    games: int = BLACK_FOG_GAMES) -> list[Verdict]:
    """Starts without a map, then each game played to its end (the players' actions drawn by the kit, every
    animal die and every fog left to the build): at least ``games`` games, and on until ``rolls`` dice."""
    from ..games.black_fog import hexes

    j = Judge(driver, "black-fog", ruleset)
    maps = Verdict("black-fog", "black-fog/own maps", ("BF-MAP-2", "BF-MAP-3", "BF-MAP-4"))
    dice = Verdict("black-fog", "black-fog/own dice", ("BF-ANIMAL-1",), Tally())
    fog = Verdict("black-fog", "black-fog/own fog", ("BF-FOG-1",))
    played = 0
    # ignore: made with a Tally
    while played < games or (dice.tally.draws < rolls and played < 20 * games):  # type: ignore[union-attr]
        played += 1
        answer, seed = j.start()
        maps.request = {"op": "start", "game": "black-fog", "ruleset": ruleset, "seed": seed, "setup": {}}
        if not isinstance(answer, dict):
            maps.impossible = f"it refused a start without a map: {_describe(answer)}"
            break
        shown = given if isinstance(given := answer.get("map"), dict) else {}
        setup = {"map": {"apple": shown.get("apple"), "water": shown.get("water")}}
        drawn_rules = j.engine.drawn_map_problem  # type: ignore[attr-defined]  # the Black Fog engine's own check
        maps.impossible = j.adopt(seed, setup, answer, "no map at all", drawn_rules)
        if maps.impossible:
            break
        maps.judged += 1
        for _step in range(2000):
            if j.engine.outcome(j.state) is not None:
                break
            need = j.engine.pending(j.state)  # type: ignore[attr-defined]  # the Black Fog engine
            if need == "roll":
                answer = j.send({"type": "roll"})
                face, fair = j.which(answer, [{"type": "roll", "face": f} for f in range(1, 7)])
                if face is None:
                    dice.impossible = f"an animal's die: no face 1-6 explains it; {_describe(answer)}"
                    dice.request = {"type": "roll"}
                    return [maps, dice, fog]
                if fair:
                    dice.tally.add(6, face)  # type: ignore[union-attr]  # made with a Tally
                dice.judged += 1
            elif need == "fog":
                before = set(j._view(j.state)["map"]["fog"])
                answer = j.send({"type": "fog"})
                tiles = sorted(set(answer["map"]["fog"]) - before, key=hexes.parse) \
                    if isinstance(answer, dict) and isinstance(answer.get("map"), dict) else []
                if j.which(answer, [{"type": "fog", "tiles": tiles}])[0] is None:
                    fog.impossible = (f"fog fell on {', '.join(tiles) or 'no tile'}, which the rules do not allow "
                                      f"there ({_describe(answer)})")
                    fog.request = {"type": "fog"}
                    return [maps, dice, fog]
                fog.judged += 1
            else:
                legal = j.engine.legal_actions(j.state)
                actions = [a for a in legal if a["type"] != "end-actions"]
                choice = {"type": "end-actions"} if not actions or j.rng.random() < 0.4 else j.rng.choice(actions)
                if need == "feed":
                    choice = j.rng.choice(legal)
                answer = j.send(choice)
                if not j.follow(choice, answer):
                    maps.impossible = f"{choice}: {_describe(answer)}"
                    return [maps, dice, fog]
    return [maps, dice, fog]


def judge_conquest_king(driver: Driver, ruleset: str, starts: int = CONQUEST_MAPS) -> list[Verdict]:
    """Starts without terrain: each map the build draws must be one a set-up could give (ruling CK-R1)."""
    j = Judge(driver, "conquest-king", ruleset)
    maps = Verdict("conquest-king", "conquest-king/own maps", ("CK-R1", "CK-START-1"))
    for _ in range(starts):
        answer, seed = j.start()
        maps.request = {"op": "start", "game": "conquest-king", "ruleset": ruleset, "seed": seed, "setup": {}}
        if not isinstance(answer, dict):
            maps.impossible = f"it refused a start without terrain: {_describe(answer)}"
            break
        maps.impossible = j.adopt(seed, {"terrain": answer.get("terrain")}, answer, "no map a set-up could give")
        if maps.impossible:
            break
        maps.judged += 1
    return [maps]


JUDGES: dict[str, Callable[[Driver, str], list[Verdict]]] = {
    "ludo": judge_ludo, "black-fog": judge_black_fog, "conquest-king": judge_conquest_king}


def judge(driver: Driver, game: str, ruleset: str) -> Iterator[Verdict]:
    """Every verdict on the build's own chance in ``game``. Raises BuildBroke."""
    verdicts = JUDGES[game](driver, ruleset)
    failed = next((v for v in verdicts if v.impossible), None)
    for v in verdicts:
        if not v.judged and not v.impossible:
            v.note = f"not judged: {failed.name} failed first" if failed is not None else \
                "the games played drew nothing of it"
    yield from verdicts


__all__ = ["ALPHA", "JUDGES", "Tally", "Verdict", "chi2_sf", "judge", "BuildBroke"]
