"""``refimpl simulate``: whole games of any game played by the reference, seats given policies (uniform random,
or the game's own CPU levels), added up into win rates, results and the game's figures with 95% intervals
(issue 45). play.py plays one game, run.py a run over local processes or a cluster, summary.py adds them up,
output.py writes text, JSON, CSV and SVG. What simulate knows of a game comes from its unit (``GameKit.simulate``).
"""

from .output import CSV_COLUMNS, summary_csv, summary_json, summary_svg, summary_text
from .play import COMMON, UNFINISHED, Figure, Played, Policy, SimulateError, Simulation, play, uniform
from .run import Interrupted, game_seeds, play_chunk, simulate, simulation
from .summary import Summary, figure_rows, mean_interval, policy_rows, result_rows, seat_policies, seat_rows, wilson

__all__ = ["COMMON", "CSV_COLUMNS", "UNFINISHED", "Figure", "Interrupted", "Played", "Policy", "SimulateError",
           "Simulation", "Summary", "figure_rows", "game_seeds", "mean_interval", "play", "play_chunk",
           "policy_rows", "result_rows", "seat_policies", "seat_rows", "simulate", "simulation", "summary_csv",
           "summary_json", "summary_svg", "summary_text", "uniform", "wilson"]
