"""Lantern Quay solved (``refimpl solve lantern-quay``, issue 45): the exact chance to restore the lighthouse
from any position, placing the dice the best way after each roll or at random, and the best way to place a
given roll.

Worked through the engine, so through data/lantern-quay.yaml's tables (and a profile's, where one is used): a
roll is each of the 216 ordered rolls, equally likely (weighed by multiset, each once); the best way is the
placement with the highest chance from the stock it leaves; at random, each way of putting the remaining dice on
the remaining slots (equal faces counted as distinct dice; under v0, where a die resolves as it is placed, the
order of placement is part of the way) is equally likely, as in the spec's odds table (LQ-R...: "The odds of a
restoration"), which this reproduces from the start.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..engine import Place, Roll, State


@dataclass(frozen=True)
class Way:
    """One placement and the chance to restore after it: best and at random from there on."""

    place: Place
    best: Fraction
    random: Fraction


class Solver:
    """The chance to restore from any position of one engine (its tables), memoised by position."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine
        t = engine.tables
        self.rolls = Counter(tuple(sorted(r)) for r in itertools.product(range(1, t.faces + 1), repeat=t.dice))
        self.total = sum(self.rolls.values())
        self.memo: dict[tuple[str, State], Fraction] = {}

    def chance(self, state: State, allocation: str) -> Fraction:
        """The chance that the game ends ``restored`` from ``state`` when the dice are placed ``best`` or at
        ``random`` (module docstring)."""
        key = (allocation, state)
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = self._chance(state, allocation)
        return found

    def _chance(self, state: State, allocation: str) -> Fraction:
        if state.result is not None:
            return Fraction(int(state.result == "restored"))
        apply = self.engine.apply
        if state.phase == "roll":
            return sum((weight * self.chance(apply(state, Roll(roll)), allocation)
                        for roll, weight in self.rolls.items()), Fraction(0)) / self.total
        if allocation == "best":
            return max(self.chance(apply(state, p), "best") for p in self.engine.legal_actions(state))
        # at random: the first placement of a way, each (free slot, unplaced die) pair alike (dice distinct)
        free = [slot for slot in self.engine.tables.slots if slot not in dict(state.placed)]
        dice = Counter(state.dice)
        pairs = [(slot, face, n) for slot in free for face, n in dice.items()]
        return sum((n * self.chance(apply(state, Place(slot, face)), "random") for slot, face, n in pairs),
                   Fraction(0)) / (len(free) * len(state.dice))

    def ways(self, state: State) -> list[Way]:
        """Every placement open in ``state`` (phase place), best first, with its chances. Raises ValueError
        outside phase place."""
        if state.phase != "place":
            raise ValueError(f"no dice to place: the position is in phase {state.phase}")
        out = [Way(p, self.chance(after, "best"), self.chance(after, "random"))
               for p in self.engine.legal_actions(state) for after in [self.engine.apply(state, p)]]
        return sorted(out, key=lambda w: (-w.best, -w.random))


def solve(engine: Any, state: State, roll: tuple[int, ...] | None = None) -> dict[str, Any]:
    """The solution from ``state`` (after ``roll``, where given, in phase roll): the chance to restore best and
    at random, and in phase place every placement with its chances, best first. Raises ValueError for a roll
    given where no roll is due (or one the rules refuse)."""
    solver = Solver(engine)
    if roll is not None:
        if state.phase != "roll":
            raise ValueError(f"--roll: the position is in phase {state.phase}, not roll")
        state = engine.apply(state, Roll(roll))
    best, random_ = solver.chance(state, "best"), solver.chance(state, "random")
    out: dict[str, Any] = {"position": engine.view(state), "best": best, "random": random_, "ways": []}
    if state.phase == "place":
        out["ways"] = solver.ways(state)
    return out
