"""Playing whole games of any game for ``refimpl simulate`` (issue 45): what a game's unit tells simulate
(``Simulation``), the policies a seat may be given, and one game played from its seed.

A game is played on the reference engine through ``legal_actions`` and ``apply`` only (the same rule code as
the protocol's), from ``new_state(ruleset, seed)``. Every choice a policy makes, chance included where the legal
list offers the outcomes (a die's faces), is drawn from ``random.Random(seed)``, the game's own generator: a game
depends on its seed alone, never on the process that plays it. A chance outcome the list does not offer (Ludo's
seeded throw, Black Fog's fog) comes from the game's seeded stream, as the spec says.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ...errors import KitError

# A policy: (the engine, the state, the game's generator) -> the action the seat to move plays now.
Policy = Callable[[Any, Any, random.Random], Any]
# One game played: (its result, the actions it took, its figures in the order of the game's Simulation.figures).
Played = tuple[str, int, tuple[float, ...]]

UNFINISHED = "unfinished"  # the result of a game stopped at Simulation.cap actions (counted, never dropped)


class SimulateError(KitError):
    """Bad input to simulate: an unknown policy, a wrong number of seats, per-seat policies in a game whose
    players act at once, zero games."""


def uniform(engine: Any, state: Any, rng: random.Random) -> Any:
    """``random``: an action drawn uniformly from the referee's legal list (every player's actions where they
    act at once; a die's faces where the list offers them, so a fair throw)."""
    return rng.choice(engine.legal_actions(state))


COMMON: Mapping[str, Policy] = {"random": uniform}


def one_ply(value: Callable[[Any, Any, Any], float], chance: Callable[[Any, Any], bool]) -> Policy:
    """A greedy one-ply policy: every action of the legal list is applied, and the one whose next state
    ``value(engine, state, next)`` rates highest is played (ties: drawn uniformly); where ``chance(engine,
    state)`` says the list is a chance outcome's (a die), the outcome is drawn uniformly instead (a greedy
    seat never picks its own die). ``value`` rates for the seat that acts in ``state``."""
    def policy(engine: Any, state: Any, rng: random.Random) -> Any:
        actions = engine.legal_actions(state)
        if chance(engine, state):
            return rng.choice(actions)
        best: list[Any] = []
        top = float("-inf")
        for action in actions:
            rated = value(engine, state, engine.apply(state, action))
            if rated > top:
                best, top = [action], rated
            elif rated == top:
                best.append(action)
        return rng.choice(best)
    return policy


@dataclass(frozen=True)
class Figure:
    """A number read off every finished game (``of(engine, state)``), reported as its mean over the run with a
    95% interval: ``name`` as reports show it, ``meaning`` in words."""

    name: str
    meaning: str
    of: Callable[[Any, Any], float]


@dataclass(frozen=True)
class Simulation:
    """What ``simulate`` knows of a game, given by its unit (``GameKit.simulate``).

    ``figures``: the numbers a designer asks of a finished game. ``policies``: the game's own beyond ``random``
    (its CPU levels, where its spec defines them). ``mover``: the seat that acts in a state, for seats with
    different policies; None where players act at once or together (one policy for every seat then).
    ``together``: for a game whose players act at once, the joint action when seats have different policies,
    ``together(engine, state, {seat: policy name}, rng)`` (each seat's part chosen by its own policy).
    ``default``: the policy of every seat when none is given. ``fast``: a speed path, ``fast(engine, seed,
    policies) -> Played``, for runs whose every seat has a policy in ``fast_policies`` and no profile; it must
    give the very games the plain path gives (a test holds it to that). ``cap``: actions after which a game is
    stopped, its result ``unfinished``. ``chance``: whether a state's legal list is a chance outcome's (a die), which
    ``refimpl play`` throws for the player; ``undo``: whether a player may take a move back (not where the spec
    forbids it)."""

    figures: tuple[Figure, ...] = ()
    policies: Mapping[str, Policy] = field(default_factory=dict)
    mover: Callable[[Any, Any], str] | None = None
    together: Callable[[Any, Any, dict[str, str], random.Random], Any] | None = None
    default: str = "random"
    fast: Callable[[Any, int, tuple[str, ...]], Played] | None = None
    fast_policies: frozenset[str] = frozenset()
    cap: int = 50_000
    chance: Callable[[Any, Any], bool] | None = None
    undo: bool = True

    def names(self) -> tuple[str, ...]:
        """Every policy a seat of this game may be given."""
        return (*COMMON, *self.policies)

    def policy(self, name: str) -> Policy:
        """The policy called ``name``. Raises SimulateError naming the ones there are."""
        found = self.policies.get(name) or COMMON.get(name)
        if found is None:
            raise SimulateError(f"unknown policy {name!r} (policies: {', '.join(self.names())})")
        return found

    def check(self, players: tuple[str, ...], policies: tuple[str, ...]) -> None:
        """Raises SimulateError unless ``policies`` gives a known policy to every seat (one policy for all in
        a game without a ``mover``)."""
        if len(policies) != len(players):
            raise SimulateError(f"give one policy per seat ({len(players)}: {', '.join(players)}), "
                                f"got {len(policies)}")
        for name in policies:
            self.policy(name)
        if self.mover is None and self.together is None and len(set(policies)) > 1:
            raise SimulateError("the players of this game act together: give every seat the same policy (got "
                                f"{', '.join(policies)})")


def play(engine: Any, sim: Simulation, ruleset: str | None, seed: int, policies: tuple[str, ...]) -> Played:
    """One whole game from ``seed`` under ``ruleset``, each seat (in the order of the game's players) played by
    its policy; stopped at ``sim.cap`` actions (result ``unfinished``)."""
    state = engine.new_state(ruleset, seed=seed)
    rng = random.Random(seed)
    chosen = [sim.policy(name) for name in policies]
    one = chosen[0] if len(set(policies)) == 1 else None
    seats = engine.info.players
    by_seat = dict(zip(seats, policies))
    apply, outcome = engine.apply, engine.outcome
    length = 0
    result = outcome(state)
    while result is None:
        if length >= sim.cap:
            result = UNFINISHED
            break
        if one is not None:
            action = one(engine, state, rng)
        elif sim.mover is not None:
            action = chosen[seats.index(sim.mover(engine, state))](engine, state, rng)
        else:  # players who act at once, each with a policy of its own (check: the game has ``together``)
            action = sim.together(engine, state, by_seat, rng)  # type: ignore[misc]
        state = apply(state, action)
        length += 1
        result = outcome(state)
    return result, length, tuple(float(f.of(engine, state)) for f in sim.figures)
