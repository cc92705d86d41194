"""What a verify run is asked to do: every choice of ``refimpl verify`` but the build, in one object."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import KitError
from ..harness.protocol import DEFAULT_TIMEOUT
from ..rulebook.profiles import Profile


class VerifyError(KitError):
    """Bad input to verify (an unreadable expect-fail file, features that do not load...): exit 2."""


DEFAULT_EXPLORE = 40  # cases per game and ruleset: the whole of verify within 3x of it without (issue 41)

# The choices that name things (files, games, rulesets): an empty sequence means the same as none, "all of them".
_SELECTIONS = ("traces", "games", "rulesets")


@dataclass(frozen=True)
class VerifySettings:
    """Everything that decides a verify run but the build under test (the same settings give the same checks).
    Sequences may be given as lists; they are kept as tuples, an empty one as None (no narrowing)."""

    traces: tuple[str, ...] | None = None  # trace files or folders (None: the bundled traces)
    features: str | None = None  # a folder of feature files (None: the bundled features)
    games: tuple[str, ...] | None = None  # only these games (None: every game)
    rulesets: tuple[str, ...] | None = None  # only these rulesets
    keyword: str | None = None  # only traces and scenarios whose name contains this text
    expect_fail: str | None = None  # the build's known deviations (a YAML file, expectations.py)
    timeout: float = DEFAULT_TIMEOUT  # seconds the build may take to answer one request
    scenarios: bool = True  # run the Gherkin scenarios too
    pipeline: bool = True  # send every trace's requests before reading the answers (False: lock-step)
    perft_depth: int = 0  # also walk the build's legal lists to this depth against the golden perft counts
    twice: bool = False  # also send every trace twice and report answers that differ
    fail_fast: bool = False  # stop at the first check that fails or breaks
    oracle: bool = True  # judge every answer against the reference's whole answers too
    max_time: float | None = None  # seconds the whole run may take (the rest is not run)
    transcripts: bool = False  # keep the raw exchanges of every failing or broken check
    profiles: tuple[Profile, ...] = ()  # the builder's own chosen values (rulebook/profiles.py)
    own_chance: bool = True  # judge the own chance of a build that declares explicit-chance
    jobs: int = 1  # worker processes (shards.py); the report is the one a single job gives
    explore: int = DEFAULT_EXPLORE  # cases of the exploration per game and ruleset (explore.py); 0: none
    coverage: bool = False  # count the rules the reference reaches, by kind of check (rulebook/reach.py)

    def __post_init__(self) -> None:
        for name in _SELECTIONS:
            value: Any = getattr(self, name)
            if value is not None and not isinstance(value, tuple):
                value = tuple(value)
            object.__setattr__(self, name, value or None)
        object.__setattr__(self, "profiles", tuple(self.profiles))

    def picked(self, name: str) -> list[str] | None:
        """One of the selections (``traces``, ``games``, ``rulesets``) as a list, or None for all."""
        value = getattr(self, name)
        return list(value) if value else None


__all__ = ["VerifyError", "VerifySettings"]
