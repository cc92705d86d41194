"""What ``refimpl simulate`` knows of Ludo: its CPU levels as policies (LD-CPU-1..5: a CPU seat throws from the
seeded stream and lets its level move), ``greedy`` (a fair throw, then the move whose position rates highest by
``progress``), the seat to move, the throws a game took; and a speed path for games of CPU levels alone, on one
mutable Turn, that plays the very games the plain path plays."""

from __future__ import annotations

import random
from typing import Any

from ....campaigns.simulate.play import Figure, Played, Policy, Simulation, one_ply
from ..board import Turn
from ..engine import LEVELS, Cpu, Ludo, Roll


def cpu(level: str) -> Policy:
    """The policy of CPU ``level``: in the roll phase the seeded throw (``roll`` without a face, LD-DICE-1),
    in the move phase the level's move (``cpu``, LD-R6), its pick from the decision stream (LD-R14)."""
    def play(engine: Any, state: Any, rng: random.Random) -> Any:
        return Roll() if state.phase == "roll" else Cpu(level)
    play.__doc__ = f"the CPU level {level} (LD-CPU-1..5)"
    return play


def progress(engine: Any, state: Any, after: Any) -> float:
    """The greedy seat's rating of a state: the steps its pieces have gone (a piece in the yard counts 0) less
    the mean of each other seat's; rated for the seat to move in ``state``."""
    me = state.turn
    gone = [sum(max(step, 0) for step in pieces) for pieces in after.pieces]
    others = [g for seat, g in enumerate(gone) if seat != me]
    return gone[me] - sum(others) / len(others)


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
    policies={**{level: cpu(level) for level in LEVELS},
              "greedy": one_ply(progress, lambda engine, state: state.phase == "roll")},
    mover=lambda engine, state: engine.info.players[state.turn],
    default="easy",
    fast=fast,
    fast_policies=frozenset(LEVELS),
    chance=lambda engine, state: state.phase == "roll",
    undo=False,  # LD-HELP-1: the game has no undo
)
