"""What misreadings of a game's restart rule share: telling a restart from a start."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class RestartAware:
    """Mixed in before a game's engine: tells a restart from a start, as the protocol session restarts with
    the very set-up object it started with (a start, even with equal fields, brings a new one).
    ``restarted`` makes the misread restart."""

    def __init__(self) -> None:
        super().__init__()
        self._setup: Any = None
        self._last: Any = None

    def new_state(self, ruleset: str | None = None, seed: int | None = None,
                  setup: Mapping[str, Any] | None = None) -> Any:
        fresh = super().new_state(ruleset, seed, setup)  # type: ignore[misc]  # the engine's, after this mixin
        again = setup is not None and setup is self._setup and self._last is not None
        self._setup = setup
        self._last = self.restarted(self._last, fresh) if again and self._last is not None else fresh
        return self._last

    def restarted(self, last: Any, fresh: Any) -> Any:
        return fresh

    def apply(self, state: Any, action: Any) -> Any:
        self._last = super().apply(state, action)  # type: ignore[misc]  # the engine's, after this mixin
        return self._last
