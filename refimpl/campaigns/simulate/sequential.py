"""A what-if run until its difference is decided (issue 45): Wald's sequential probability ratio test on one
measure's game-by-game differences, as chess engine testing runs its SPRT.

H0: the mean difference of the measure (the second variant less the first, game by game on the same seeds) is 0;
H1: it is ``delta``. After every ``every`` games the log-likelihood ratio of H1 to H0 is worked out with the
normal approximation of the differences (their sample variance standing for the true one, as a generalised SPRT
does): LLR = n * delta * (mean - delta / 2) / variance; while every difference so far is alike (often all 0)
there is no estimate of their spread, and the LLR is 0. The run stops for H1 when LLR reaches log((1 - beta) /
alpha), for H0 when it falls to log(beta / (1 - alpha)), and is undecided if ``--games`` runs out first. The checks
fall at fixed game counts, so the same seed gives the same decision on any machine and any number of workers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Sprt:
    """The test asked for: the measure (``result=R``, a figure, ``length``), the difference H1 names, the error
    rates, and how many games between two looks."""

    measure: str
    delta: float
    alpha: float = 0.05
    beta: float = 0.05
    every: int = 50

    @property
    def bounds(self) -> tuple[float, float]:
        """(the LLR that accepts H0, the LLR that accepts H1)."""
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def llr(self, total: float, squares: float, n: int) -> float:
        """The log-likelihood ratio of H1 to H0 after ``n`` differences with this sum and sum of squares."""
        if n < 2:
            return 0.0
        mean = total / n
        variance = max(0.0, (squares - n * mean * mean) / (n - 1))
        if variance == 0.0:  # every difference alike so far (often all 0): no estimate of the spread, no evidence
            return 0.0
        return n * self.delta * (mean - self.delta / 2) / variance

    def decide(self, llr: float) -> str | None:
        """``H1``, ``H0``, or None while the LLR is between the bounds."""
        low, high = self.bounds
        return "H1" if llr >= high else "H0" if llr <= low else None


@dataclass(frozen=True)
class Decision:
    """Where the test stopped: the decision (H0, H1, or undecided), after how many games, and the LLR then."""

    test: Sprt
    decision: str
    games: int
    llr: float

    def words(self) -> str:
        low, high = self.test.bounds
        said = {"H1": f"the difference is {self.test.delta:+g} (H1)", "H0": "no difference (H0)",
                "undecided": "undecided: --games ran out first"}[self.decision]
        return (f"sequential test on {self.test.measure} (H0 difference 0, H1 {self.test.delta:+g}; alpha "
                f"{self.test.alpha:g}, beta {self.test.beta:g}): {said} after {self.games} games, LLR "
                f"{self.llr:.3g} (bounds {low:.3g}, {high:.3g})")


def parse(text: str) -> Sprt:
    """``MEASURE:DELTA`` (``result=red:0.05``) as a test. Raises ValueError naming the form."""
    measure, sep, delta = text.rpartition(":")
    try:
        value = float(delta)
    except ValueError:
        value = math.nan
    if not sep or not measure or not math.isfinite(value) or value == 0:
        raise ValueError(f"--until-decided {text!r}: give MEASURE:DELTA, a measure of the what-if and the "
                         "nonzero difference to tell from none (e.g. result=red:0.05)")
    return Sprt(measure, value)
