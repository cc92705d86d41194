"""What every game's step definitions share: the ``Play`` record of a scenario (the ``play`` fixture) and the
helpers that turn the features' words into the protocol's ids. Steps talk to a driver only, never to an engine.

Words in the features are the spec's words ("North Pass", "Salvage"); the steps turn them into the
JSON actions and view keys of the protocol (``north-pass``, ``salvage``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ...harness.driver import Driver, Rejected
from ..registry import fixture, skip

RESULTS = {"none yet": None, "Red wins": "red", "Blue wins": "blue", "a draw": "draw",
           "restored": "restored", "incomplete": "incomplete"}


def slug(words: str) -> str:
    """ "North Pass" -> "north-pass"; "Red" -> "red"."""
    return "-".join(words.strip().lower().split())


def names(text: str) -> list[str]:
    """ "A, B and C" -> ["a", "b", "c"] as slugs."""
    return [slug(p) for p in re.split(r",\s*|\s+and\s+", text.strip()) if p.strip()]


def ints(text: str) -> list[int]:
    return [int(x) for x in re.findall(r"-?\d+", text)]


@dataclass
class Play:
    """What a scenario has done so far through the driver."""

    driver: Driver
    view: dict[str, Any] = field(default_factory=dict)  # the latest accepted state
    before: dict[str, Any] = field(default_factory=dict)  # the state before the latest action
    outcome: Any = None  # the latest answer: a view or a Rejected
    not_started: str = ""  # why the game could not be started (the build lacks it); skip when used
    last_action: dict[str, Any] = field(default_factory=dict)

    def ready(self) -> None:
        if self.not_started:
            skip(self.not_started)

    def act(self, action: dict[str, Any]) -> None:
        self.ready()
        self.last_action = action
        self.before, self.outcome = self.driver.view_then_apply(action)
        if not isinstance(self.outcome, Rejected):
            self.view = self.outcome

    def current(self) -> dict[str, Any]:
        self.ready()
        return self.driver.view()


@fixture
def play(driver: Driver) -> Play:
    """The scenario's Play on the scenario's driver."""
    return Play(driver)
