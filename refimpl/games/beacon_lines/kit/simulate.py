"""What ``refimpl simulate`` knows of Beacon Lines: both factions claim at once (one action carries both claims,
BL-TURN-1); with different policies each faction's part is chosen by its own (``together``); the figures are
each faction's final score (BL-SCORE-1) and the
rounds played (BL-WIN-1 may end a game before the third). ``greedy``: each faction claims the target whose
claims rate best on average against every claim the other faction may make (its score less the other's right
after the round): one ply, against a uniform opponent."""

from __future__ import annotations

import functools
import random
from typing import Any

from ....campaigns.simulate.play import Figure, Simulation
from ..engine import Claim
from .solve import Solver


@functools.cache
def _solver(engine: Any) -> Solver:
    return Solver(engine)  # one a process and engine: its memo is every position solved so far


def _margins(engine: Any, state: Any) -> tuple[list[str], list[str], dict[tuple[str, str], int]]:
    """(red's targets, blue's, red's score less blue's right after the round for each pair of claims)."""
    red, blue = (engine.targets(state, f) for f in ("red", "blue"))
    margin = {}
    for r in red:
        for b in blue:
            scores = engine.scores(engine.apply(state, Claim.of(red=r, blue=b)))
            margin[r, b] = scores["red"] - scores["blue"]
    return red, blue, margin


def _pick(engine: Any, state: Any, faction: str, policy: str, rng: random.Random) -> str:
    """One faction's claim by ``policy``: ``random`` (uniform over its targets), ``greedy`` (the best average
    margin against every claim of the other, ties drawn uniformly) or ``solved`` (a draw from its optimal mix)."""
    if policy == "random":
        return str(rng.choice(engine.targets(state, faction)))
    if policy == "solved":
        _, red_mix, blue_mix, red, blue, _ = _solver(engine).matrix(state)
        return _draw(red, red_mix, rng) if faction == "red" else _draw(blue, blue_mix, rng)
    red, blue, margin = _margins(engine, state)
    rated = {r: sum(margin[r, b] for b in blue) / len(blue) for r in red} if faction == "red" else \
        {b: -sum(margin[r, b] for r in red) / len(red) for b in blue}
    top = max(rated.values())
    return str(rng.choice([t for t, v in rated.items() if v == top]))


def together(engine: Any, state: Any, policies: dict[str, str], rng: random.Random) -> Any:
    """The joint claim when the factions have different policies: each faction's part by its own (``_pick``),
    red's first."""
    return Claim.of(red=_pick(engine, state, "red", policies["red"], rng),
                    blue=_pick(engine, state, "blue", policies["blue"], rng))


def solved(engine: Any, state: Any, rng: random.Random) -> Any:
    """``solved``: each faction draws its claim from its optimal mix at the position (kit/solve.py), red's
    first: play no opponent can exploit."""
    return Claim.of(red=_pick(engine, state, "red", "solved", rng), blue=_pick(engine, state, "blue", "solved", rng))


def _draw(targets: list[str], mix: list[Any], rng: random.Random) -> str:
    at, total = rng.random(), 0.0
    for target, weight in zip(targets, mix):
        total += float(weight)
        if at < total:
            return target
    return next(t for t, w in zip(reversed(targets), reversed(mix)) if w > 0)


def greedy(engine: Any, state: Any, rng: random.Random) -> Any:
    """Both factions' claims, each chosen as the module says (ties drawn uniformly, red's first)."""
    return Claim.of(red=_pick(engine, state, "red", "greedy", rng), blue=_pick(engine, state, "blue", "greedy", rng))


SIMULATION = Simulation(policies={"greedy": greedy, "solved": solved}, together=together, figures=(
    Figure("red_score", "red's score at the end (BL-SCORE-1)", lambda engine, state: engine.scores(state)["red"]),
    Figure("blue_score", "blue's score at the end (BL-SCORE-1)", lambda engine, state: engine.scores(state)["blue"]),
    Figure("rounds", "rounds played (BL-WIN-1 ends a game early at 4 points with a lead)",
           lambda engine, state: state.round),
))
