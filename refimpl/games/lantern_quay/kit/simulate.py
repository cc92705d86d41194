"""What ``refimpl simulate`` knows of Lantern Quay: one keeper; its results are restored or incomplete
(LQ-END-1), and the figures are the lenses lit, the modules and the brass left at the end (a ``random`` keeper
throws fair dice: the legal list offers every ordered roll). ``greedy`` places each die where the state right
after it rates highest: lenses first, then modules, then brass (100, 10 and 1 points each). Under v1 nothing
resolves before the round's third die is placed (LQ-TIME-1), so every placement ties and ``greedy`` plays the
very games ``random`` plays: one ply sees nothing there (the solver's best allocation does)."""

from __future__ import annotations

import functools
import random
from typing import Any

from ....campaigns.simulate.play import Figure, Simulation, one_ply
from .solve import Solver


@functools.cache
def _solver(engine: Any) -> Solver:
    return Solver(engine)  # one a process and engine: its memo is every position solved so far


def best(engine: Any, state: Any, rng: random.Random) -> Any:
    """``best``: a fair roll, then the placement with the highest chance to restore (kit/solve.py; ties drawn
    uniformly): the policy whose chance the spec's odds table gives, 2236/19683 from the start."""
    actions = engine.legal_actions(state)
    if state.phase == "roll":
        return rng.choice(actions)
    solver = _solver(engine)
    rated = [(solver.chance(engine.apply(state, a), "best"), a) for a in actions]
    top = max(r for r, _ in rated)
    return rng.choice([a for r, a in rated if r == top])


def rate(engine: Any, state: Any, after: Any) -> float:
    """The greedy keeper's rating of a state: 100 a lens, 10 a module, 1 a brass."""
    return 100.0 * after.lenses + 10.0 * after.modules + after.brass


SIMULATION = Simulation(policies={"greedy": one_ply(rate, lambda engine, state: state.phase == "roll"), "best": best},
                        chance=lambda engine, state: state.phase == "roll", figures=(
    Figure("lenses", "lenses lit at the end (three restore the lighthouse, LQ-END-1)",
           lambda engine, state: state.lenses),
    Figure("modules", "modules left at the end", lambda engine, state: state.modules),
    Figure("brass", "brass left at the end", lambda engine, state: state.brass),
))
