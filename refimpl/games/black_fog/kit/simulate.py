"""What ``refimpl simulate`` knows of Black Fog: the four keepers play together (BF-KEEP-1), so every seat takes
the same policy; the game always ends ``finished`` after eight rounds, and what a designer asks is the animals
saved and lost by size, the keepers lost and the score (BF-SCORE-1, under the profile's a-h). ``greedy`` plays
the action whose next state has the highest score (ties, which are most actions, drawn uniformly), and throws
fair dice."""

from __future__ import annotations

from typing import Any

from ....campaigns.simulate.play import Figure, Simulation, one_ply


def _count(status: str, size: str) -> Any:
    return lambda engine, state: sum(a.status == status and a.size == size for a in state.animals)


SIMULATION = Simulation(policies={"greedy": one_ply(lambda engine, state, after: engine.score(after)["total"],
                                                    lambda engine, state: engine.pending(state) == "roll")},
                        chance=lambda engine, state: engine.pending(state) == "roll", figures=(
    *(Figure(f"{status}_{size}", f"{size} animals {status} at the end", _count(status, size))
      for status in ("saved", "lost") for size in ("small", "medium", "large")),
    Figure("keepers_lost", "keepers the fog took", lambda engine, state: sum(k.lost for k in state.keepers)),
    Figure("score", "the score at the end (BF-SCORE-1, the profile's a-h)",
           lambda engine, state: engine.score(state)["total"]),
))
