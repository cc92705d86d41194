"""What ``refimpl simulate`` knows of Conquest King: the sides deploy at once (CK-R3's deployment is concurrent,
the referee's list mixing both), so every seat takes the same policy; the figures are how a game was won (the
king taken, CK-WIN-1, or both gates held, CK-WIN-2) and the turns it took."""

from __future__ import annotations

from ....campaigns.simulate.play import Figure, Simulation


def _by(how: str) -> Figure:
    won = "taking the king (CK-WIN-1)" if how == "king" else "holding both gates (CK-WIN-2)"
    return Figure(f"by_{how}", f"share of games won by {won}",
                  lambda engine, state: float(state.result is not None and state.result[1] == how))


SIMULATION = Simulation(chance=lambda engine, state: state.phase == "combat", figures=(
    _by("king"), _by("gates"),
    Figure("turns", "turns played", lambda engine, state: state.turn),
))
