"""What ``refimpl simulate`` knows of Lantern Quay: one keeper; its results are restored or incomplete
(LQ-END-1), and the figures are the lenses lit, the modules and the brass left at the end (a ``random`` keeper
throws fair dice: the legal list offers every ordered roll)."""

from __future__ import annotations

from ....campaigns.simulate.play import Figure, Simulation

SIMULATION = Simulation(figures=(
    Figure("lenses", "lenses lit at the end (three restore the lighthouse, LQ-END-1)",
           lambda engine, state: state.lenses),
    Figure("modules", "modules left at the end", lambda engine, state: state.modules),
    Figure("brass", "brass left at the end", lambda engine, state: state.brass),
))
