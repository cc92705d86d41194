"""What ``refimpl simulate`` knows of Beacon Lines: both factions claim at once (one action carries both claims,
BL-TURN-1), so every seat takes the same policy; the figures are each faction's final score (BL-SCORE-1) and the
rounds played (BL-WIN-1 may end a game before the third)."""

from __future__ import annotations

from ....campaigns.simulate.play import Figure, Simulation

SIMULATION = Simulation(figures=(
    Figure("red_score", "red's score at the end (BL-SCORE-1)", lambda engine, state: engine.scores(state)["red"]),
    Figure("blue_score", "blue's score at the end (BL-SCORE-1)", lambda engine, state: engine.scores(state)["blue"]),
    Figure("rounds", "rounds played (BL-WIN-1 ends a game early at 4 points with a lead)",
           lambda engine, state: state.round),
))
