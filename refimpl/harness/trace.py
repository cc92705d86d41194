"""Traces as the kit holds them (format version 1, specs/trace-format.md): a trace, its steps (a long trace's
read one by one as they are used) and TraceError, which names the file, the line and the reason of every
problem, so the CLI can print it without a traceback. tracefile.py reads, checks and writes them."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, overload

from ..errors import KitError
from ..games import JSON
from .compare import flatten


class TraceError(KitError):
    """A trace that cannot be used: unreadable, malformed YAML, schema error, unknown game or action."""

    def __init__(self, path: str, line: int | None, reason: str) -> None:
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: {reason}")
        self.path, self.line, self.reason = path, line, reason


@dataclass(frozen=True)
class Step:
    """One step: an action, a restart or a new start; then the expected partial view, rejection code
    (an action) or protocol error code (a start)."""

    number: int  # 1-based, as reports count
    line: int
    action: JSON | None  # any JSON value for an action step (garbage included); None for a restart or start
    expect: Mapping[str, JSON] | None = None
    reject: str | None = None
    error: str | None = None  # a start the build must refuse with this protocol error code
    start: Mapping[str, JSON] | None = None  # the fields of a start step, or the whole request of a request step
    kind: str = "action"  # action | restart | start | request
    note: str | None = None
    views: Mapping[str, Mapping[str, JSON]] | None = None  # partial views by observer
    legal: list[JSON] | None = None  # the legal actions expected after the step, as a set
    rules: tuple[str, ...] = ()  # the rules this step checks in particular (credited before the trace's)
    field_lines: Mapping[str, int] = field(default_factory=dict, repr=False, compare=False)

    def line_of(self, path: str) -> int:
        """The line of the expectation at ``path`` (``scores.red``), else of the step itself."""
        while path:
            if path in self.field_lines:
                return self.field_lines[path]
            path = path.rpartition(".")[0] if "." in path else ""
        return self.line

    @property
    def is_restart(self) -> bool:
        return self.kind == "restart"

    def label(self) -> str:
        """A short human form of the step's request, for ledgers."""
        if self.kind == "restart":
            return "restart"
        if self.kind in ("start", "request"):
            return " ".join([self.kind] + flatten(dict(self.start or {})))
        if not isinstance(self.action, dict):
            return json.dumps(self.action)
        rest = {k: v for k, v in self.action.items() if k != "type"}
        return " ".join([str(self.action.get("type", "?"))] + flatten(rest))


@dataclass(frozen=True)
class Trace:
    path: str
    game: str
    ruleset: str
    seed: int | None
    setup: Mapping[str, JSON]
    title: str
    rules: tuple[str, ...]
    source: str
    steps: Steps
    start: Mapping[str, JSON] | None = None
    description: str = ""
    lines: Any = field(default=None, repr=False, compare=False)  # where things are in the text (_Lines)
    # Why the trace's written expectations are set aside and every answer is judged by the reference alone
    # (a profile changes a value they depend on); "" when they hold.
    judged_by: str = ""

    def line_of(self, path: Iterable[Any]) -> int | None:
        """The line of a data path (``("setup", "units", 2)``) in the trace's file, where known."""
        return None if self.lines is None else self.lines.of(path)

    @property
    def name(self) -> str:
        return Path(self.path).stem


def by_reference(trace: Trace, why: str) -> Trace:
    """``trace`` judged by the reference's answers alone, its written expectations set aside (``why``)."""
    from dataclasses import replace

    return replace(trace, judged_by=why)


class Steps(Sequence[Step]):
    """A trace's steps. Up to EAGER_STEPS they are parsed and checked when the trace is read; a longer trace's
    are parsed and checked one by one from the text each time they are used (its first step at once), so
    replaying a million steps holds one at a time. A step that turns out bad raises TraceError where it is
    reached. ``map`` gives the same steps, each changed by a function, as lazily."""

    def __init__(self, count: int, make: Callable[[int], Step], eager: bool) -> None:
        self._count, self._make = count, make
        self._all: tuple[Step, ...] | None = tuple(make(i) for i in range(count)) if eager else None

    @classmethod
    def of(cls, steps: Iterable[Step]) -> Steps:
        held = tuple(steps)
        return cls(len(held), held.__getitem__, True)

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> Step: ...

    @overload
    def __getitem__(self, index: slice) -> Steps: ...

    def __getitem__(self, index: int | slice) -> Step | Steps:
        if isinstance(index, slice):
            picked = range(self._count)[index]
            return Steps(len(picked), lambda i: self[picked[i]], False)
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError(index)
        return self._all[index] if self._all is not None else self._make(index)

    def __iter__(self) -> Iterator[Step]:
        if self._all is not None:
            return iter(self._all)
        return (self._make(i) for i in range(self._count))

    def map(self, change: Callable[[Step], Step]) -> Steps:
        if self._all is not None:
            return Steps.of(change(step) for step in self._all)
        return Steps(self._count, lambda i: change(self._make(i)), False)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Steps, tuple, list)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._count)

    def __repr__(self) -> str:
        return f"Steps({self._count})"
