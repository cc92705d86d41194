"""Drivers: the one way scenarios and replay talk to a build. Never to engine internals.

A driver starts a game, applies actions, restarts and shows the state view. ``ReferenceDriver`` runs
the in-process engines (or any engine object with the same surface, such as a deliberately wrong
variant); a protocol driver for outside builds has the same methods.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Mapping, Protocol, Union

from .games import GAMES, JSON, BadSetup, Game, RuleViolation


@dataclass(frozen=True)
class Rejected:
    """The build refused an action; its state must be unchanged."""

    code: str
    message: str = ""


# A request in a batch: ("start", game, ruleset, seed, setup) | ("apply", action) | ("restart",)
# | ("view", observer) | ("legal",). Its outcome: a view, a Rejected, or a list of legal actions.
Op = tuple[Any, ...]
Outcome = Union[dict[str, JSON], Rejected, list[JSON]]


class DriverError(Exception):
    """The driver could not do what was asked (no such game in the build, bad setup...)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code, self.message = code, message


class BuildBroke(Exception):
    """The build under test crashed, hung or broke the protocol (exit code 3).

    ``cause`` is a stable word: crashed-at-start, exited, hung, not-json, partial-line, line-too-long,
    bad-response, wrong-protocol.
    """

    def __init__(self, cause: str, message: str, stderr_tail: str = "") -> None:
        super().__init__(f"{cause}: {message}")
        self.cause, self.message, self.stderr_tail = cause, message, stderr_tail
        self.where = ""  # filled in by callers: the trace and step, or the scenario

    def __str__(self) -> str:
        where = f" at {self.where}" if self.where else ""
        return f"build broke ({self.cause}){where}: {self.message}"


class Driver(Protocol):
    """What a scenario or a replay may ask of a build."""

    name: str

    def supports(self, game: str, ruleset: str | None) -> bool: ...  # None: the default ruleset
    def start(self, game: str, ruleset: str | None = None, seed: int | None = None,
              setup: Mapping[str, JSON] | None = None) -> dict[str, JSON]: ...
    def apply(self, action: JSON) -> dict[str, JSON] | Rejected: ...
    def restart(self) -> dict[str, JSON]: ...
    def view(self, observer: str | None = None) -> dict[str, JSON]: ...
    def legal_actions(self) -> list[JSON] | None: ...  # None: the build does not list them
    def batch(self, ops: Iterable[Op]) -> Iterator[Outcome]: ...  # outcomes in order; may pipeline
    def close(self) -> None: ...


def run_op(driver: Driver, op: Op) -> Outcome:
    """One request of a batch, through the driver's single-call methods."""
    kind = op[0]
    if kind == "start":
        return driver.start(*op[1:])
    if kind == "apply":
        return driver.apply(op[1])
    if kind == "restart":
        return driver.restart()
    if kind == "view":
        return driver.view(op[1])
    if kind == "legal":
        return driver.legal_actions() or []
    raise ValueError(f"unknown op {kind!r}")


class ReferenceDriver:
    """Drives engine objects in-process. ``engines`` replaces registry entries (wrong-build variants)."""

    def __init__(self, engines: Mapping[str, Game[Any, Any]] | None = None, name: str = "reference") -> None:
        self.engines: dict[str, Game[Any, Any]] = {**GAMES, **(engines or {})}
        self.name = name
        self.lists_legal = True
        self._game: Game[Any, Any] | None = None
        self._state: Any = None
        self._started: tuple[Any, ...] = ()  # what start was given, for restart

    def supports(self, game: str, ruleset: str | None) -> bool:
        if game not in self.engines:
            return False
        info = self.engines[game].info
        return (info.default_ruleset if ruleset is None else ruleset) in info.rulesets

    def _current(self) -> Game[Any, Any]:
        if self._game is None:
            raise DriverError("no-game", "no game has been started")
        return self._game

    def start(self, game: str, ruleset: str | None = None, seed: int | None = None,
              setup: Mapping[str, JSON] | None = None) -> dict[str, JSON]:
        if game not in self.engines:
            raise DriverError("unknown-game", f"no game {game!r}")
        engine = self.engines[game]
        try:
            self._state = engine.new_state(ruleset, seed, setup)
        except BadSetup as exc:
            raise DriverError(exc.code, exc.message) from None
        self._game, self._started = engine, (ruleset, seed, setup)
        return engine.view(self._state)

    def apply(self, action: JSON) -> dict[str, JSON] | Rejected:
        engine = self._current()
        try:
            self._state = engine.apply(self._state, engine.parse_action(action))
        except RuleViolation as exc:
            return Rejected(exc.code, exc.message)
        return engine.view(self._state)

    def restart(self) -> dict[str, JSON]:
        """The game as ``start`` made it: same ruleset, seed and set-up."""
        engine = self._current()
        self._state = engine.new_state(*self._started)
        return engine.view(self._state)

    def view(self, observer: str | None = None) -> dict[str, JSON]:
        return self._current().view(self._state, observer)

    def legal_actions(self) -> list[JSON] | None:
        engine = self._current()
        return [engine.action_json(a) for a in engine.legal_actions(self._state)]

    def batch(self, ops: Iterable[Op]) -> Iterator[Outcome]:
        for op in ops:
            yield run_op(self, op)

    def close(self) -> None:
        self._game = self._state = None


__all__ = ["BuildBroke", "Driver", "DriverError", "Op", "Outcome", "ReferenceDriver", "Rejected", "run_op"]
