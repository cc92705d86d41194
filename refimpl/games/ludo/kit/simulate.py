"""What ``refimpl simulate`` knows of Ludo: its CPU levels as policies (LD-CPU-1..5: a CPU seat throws from the
seeded stream and lets its level move), the seat to move, the throws a game took; and a speed path for games
of CPU levels alone, on one mutable Turn, that plays the very games the plain path plays."""

from __future__ import annotations

import random
from typing import Any

from ....campaigns.simulate.play import Figure, Played, Policy, Simulation
from ..board import Turn
from ..engine import LEVELS, Cpu, Ludo, Roll


def cpu(level: str) -> Policy:
    """The policy of CPU ``level``: in the roll phase the seeded throw (``roll`` without a face, LD-DICE-1),
    in the move phase the level's move (``cpu``, LD-R6), its pick from the decision stream (LD-R14)."""
    def play(engine: Any, state: Any, rng: random.Random) -> Any:
        return Roll() if state.phase == "roll" else Cpu(level)
    play.__doc__ = f"the CPU level {level} (LD-CPU-1..5)"
    return play


def fast(engine: Ludo, seed: int, levels: tuple[str, ...]) -> Played:
    """A game of CPU levels alone on one mutable Turn (the same rule code as ``apply``): its result, its actions
    (throws and moves, as the plain path counts them) and its throws."""
    t = Turn(engine.new_state(seed=seed))
    throw, cpu_move = engine.throw, engine.cpu_move
    moves = 0
    while t.result is None:  # a throw leaves the seat to move, to throw again, or the game over (the cap)
        throw(t, None)
        if t.phase == "move":
            cpu_move(t, levels[t.turn])
            moves += 1
    return t.result, t.throws + moves, (float(t.throws),)


SIMULATION = Simulation(
    figures=(Figure("throws", "throws of the die a game took (capped at 10,000, LD-END-2)",
                    lambda engine, state: state.throws),),
    policies={level: cpu(level) for level in LEVELS},
    mover=lambda engine, state: engine.info.players[state.turn],
    default="easy",
    fast=fast,
    fast_policies=frozenset(LEVELS),
)
