"""Beacon Lines solved (``refimpl solve beacon-lines``, issue 45): both factions claim at once each round
(BL-TURN-1), so each position is a matrix game, red's targets against blue's, whose entries are the values of the
positions the round leads to; solved by backward induction from the end (at most three rounds, BL-WIN-1) with
campaigns.matrixgame. A finished game is worth +1 to red when red won, -1 when blue won, 0 for a draw; the value
of a position is red's expected worth under optimal play by both, and the first choices are each faction's
optimal mix of targets there."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ....campaigns.matrixgame import solve_matrix
from ..engine import Claim, State

WORTH = {"red": Fraction(1), "blue": Fraction(-1), "draw": Fraction(0)}


class Solver:
    """The value of every position of one engine (its boards), memoised."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine
        self.memo: dict[State, Fraction] = {}

    def value(self, state: State) -> Fraction:
        """Red's expected worth from ``state`` under optimal play by both factions."""
        found = self.memo.get(state)
        if found is None:
            found = self.memo[state] = self.matrix(state)[0] if state.result is None else WORTH[state.result]
        return found

    def matrix(self, state: State) -> tuple[Fraction, list[Fraction], list[Fraction], list[str], list[str],
                                            list[list[Fraction]]]:
        """(the value, red's optimal mix, blue's, red's targets, blue's, the matrix of the next positions'
        values) of an unfinished position."""
        red, blue = (self.engine.targets(state, f) for f in ("red", "blue"))
        payoff = [[self.value(self.engine.apply(state, Claim.of(red=r, blue=b))) for b in blue] for r in red]
        value, red_mix, blue_mix = solve_matrix(payoff)
        return value, red_mix, blue_mix, red, blue, payoff


def solve(engine: Any, state: State, roll: tuple[int, ...] | None = None) -> dict[str, Any]:
    """The solution from ``state``: its value to red and, unless it is over, each faction's optimal mix of
    targets (``{target, weight}``), what each pair of claims is worth to red (``{red, blue, worth}``) and the
    targets that alone guarantee the value. Raises ValueError when a roll is given (the
    game has no dice)."""
    if roll is not None:
        raise ValueError("--roll: Beacon Lines has no dice")
    solver = Solver(engine)
    out: dict[str, Any] = {"position": engine.view(state), "value": solver.value(state)}
    if state.result is None:
        _, red_mix, blue_mix, red, blue, payoff = solver.matrix(state)
        value = out["value"]
        out.update(red=[{"target": t, "weight": w} for t, w in zip(red, red_mix)],
                   blue=[{"target": t, "weight": w} for t, w in zip(blue, blue_mix)],
                   matrix=[{"red": r, "blue": b, "worth": v} for r, row in zip(red, payoff) for b, v in zip(blue, row)],
                   # the targets that alone guarantee the value, whatever the other claims (where the mix above is
                   # one optimal choice among several, these are the others that need no mixing)
                   red_safe=[r for r, row in zip(red, payoff) if min(row) >= value],
                   blue_safe=[b for j, b in enumerate(blue) if max(row[j] for row in payoff) <= value])
    return out
