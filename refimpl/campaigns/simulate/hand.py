"""A game played by hand (``refimpl play GAME``, issue 45): the seats a person takes, the others played by a
policy, chance thrown by the kit, every step recorded with the full state after it, so the route is a trace that
``refimpl replay`` accepts as it is.

Where the game's seats take turns (its Simulation has a ``mover``: Ludo), the person plays the seats they took
and a policy the rest. Where players act at once or together (Beacon Lines' joint claims, Black Fog's keepers,
Conquest King's deployment, Lantern Quay's one keeper), the person chooses from the referee's whole list: they
play every seat, and the view they see is the full state. A chance outcome the list offers (a die) is thrown
for them from a generator seeded by ``--seed`` and recorded as the outcome it was (an explicit face), so the trace
replays the same anywhere. Undo takes back the person's last choice (and what followed it), where the game
allows it (not Ludo: LD-HELP-1).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from ...games import GAMES, JSON
from .play import SimulateError, Simulation
from .run import simulation


@dataclass
class Table:
    """A game at the table: the engine, who plays what, the state, and the steps so far (each the action as JSON
    and the full view after it), with the states to undo to."""

    game: str
    ruleset: str
    seed: int
    humans: frozenset[str]
    others: str
    engine: Any
    sim: Simulation
    profile: Any = None
    state: Any = None
    steps: list[dict[str, JSON]] = field(default_factory=list)
    marks: list[tuple[int, Any]] = field(default_factory=list)  # (steps before a person's choice, the state then)
    rng: random.Random = field(default_factory=random.Random)

    @property
    def over(self) -> bool:
        return self.engine.outcome(self.state) is not None

    def person_to_act(self) -> bool:
        """Whether the person chooses now (not a chance outcome, not a seat a policy plays)."""
        if self.over or self._chance():
            return False
        if self.sim.mover is None:
            return True
        return self.sim.mover(self.engine, self.state) in self.humans

    def observer(self) -> str | None:
        """Whose view the person sees: their one seat's in a game with hidden information, else the full state."""
        if self.engine.info.hidden_information and len(self.humans) == 1 and self.sim.mover is not None:
            return next(iter(self.humans))
        return None

    def view(self) -> dict[str, JSON]:
        view: dict[str, JSON] = self.engine.view(self.state, self.observer())
        return view

    def choices(self) -> list[JSON]:
        """The actions the person may choose now, as JSON, numbered by their place in this list."""
        return [self.engine.action_json(a) for a in self.engine.legal_actions(self.state)]

    def choose(self, number: int) -> None:
        """Play the person's choice ``number`` (1-based). Raises SimulateError for a number not offered."""
        actions = self.engine.legal_actions(self.state)
        if not 1 <= number <= len(actions):
            raise SimulateError(f"choose 1 to {len(actions)}")
        self.marks.append((len(self.steps), self.state))
        self._play(actions[number - 1])

    def run_others(self) -> list[dict[str, JSON]]:
        """Play chance and the policy seats until the person must choose or the game is over; the steps played."""
        sim, played = self.sim, []
        other = sim.policy(self.others)
        while not self.over and not self.person_to_act():
            if self._chance():
                action = self.rng.choice(self.engine.legal_actions(self.state))
            else:
                action = other(self.engine, self.state, self.rng)
            played.append(self._play(action))
        return played

    def undo(self) -> bool:
        """Take back the person's last choice and what followed it; False where the game allows no undo or there
        is nothing to take back."""
        if not self.sim.undo or not self.marks:
            return False
        count, self.state = self.marks.pop()
        del self.steps[count:]
        return True

    def _chance(self) -> bool:
        return self.sim.chance is not None and bool(self.sim.chance(self.engine, self.state))

    def _play(self, action: Any) -> dict[str, JSON]:
        self.state = self.engine.apply(self.state, action)
        step: dict[str, JSON] = {"action": self.engine.action_json(action), "expect": self.engine.view(self.state)}
        self.steps.append(step)
        return step

    def trace(self) -> dict[str, JSON]:
        """The route so far as a trace (docs/trace-format.md): every step with the full state after it."""
        played = "played by hand with refimpl play" + (f" under the profile {self.profile.name}"
                                                       if self.profile is not None else "")
        out: dict[str, JSON] = {"version": 1, "game": self.game, "ruleset": self.ruleset, "seed": self.seed,
                                "title": f"{self.game} {self.ruleset}, seed {self.seed}: {played}",
                                "rules": [], "source": "refimpl play", "steps": list(self.steps)}
        return out


def sit(game: str, ruleset: str | None = None, seed: int = 0, humans: list[str] | None = None,
        others: str | None = None, profile: Any = None) -> Table:
    """A new game of ``game`` at the table: the person takes ``humans`` (default: the first seat), ``others``
    (default: the game's default policy) plays the rest. Raises SimulateError naming what is allowed."""
    if game not in GAMES:
        raise SimulateError(f"unknown game {game!r} (games: {', '.join(sorted(GAMES))})")
    info, sim = GAMES[game].info, simulation(game)
    ruleset = ruleset or info.default_ruleset
    if ruleset not in info.rulesets:
        raise SimulateError(f"{game} has no ruleset {ruleset!r} (rulesets: {', '.join(info.rulesets)})")
    seats = humans or [info.players[0]]
    bad = [s for s in seats if s not in info.players]
    if bad:
        raise SimulateError(f"{game} has no seat {bad[0]!r} (seats: {', '.join(info.players)})")
    policy = others or sim.default
    sim.policy(policy)
    if profile is not None and profile.game != game:
        raise SimulateError(f"the profile {profile.name} is of {profile.game}, not {game}")
    engine = profile.engine() if profile is not None else GAMES[game]
    table = Table(game, ruleset, seed, frozenset(seats), policy, engine, sim, profile, rng=random.Random(seed))
    table.state = engine.new_state(ruleset, seed=seed)
    return table
