"""The vocabulary of step definitions: ``given``/``when``/``then`` register a step, ``fixture`` a value a
scenario's steps share, ``skip`` and ``expect`` end a step as *not run* or as a mismatch.

A step's pattern is its exact text, or a ``regex(...)`` matched against the whole text; the named groups
become the function's keyword arguments. Any other parameter is filled by name from the scenario's
context: ``driver``, ``datatable`` (the step's table as lists of cells), a fixture, or the value an earlier
step returned with ``target_fixture``. Steps use no test framework, so verify runs them in-process and the
pytest plugin runs the same functions.
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn, TypeVar

from ..errors import KitError
from ..harness.compare import whole_difference

F = TypeVar("F", bound=Callable[..., Any])


class NotRun(Exception):
    """A step found that the scenario cannot be judged on this build (it lacks the game, the ruleset or the
    legal lists): the scenario is reported *not run*, never passed."""


class Mismatch(AssertionError):
    """The build's answer differs from what a step expects: the field path, the expected and the actual value."""

    def __init__(self, path: str, expected: Any, actual: Any, note: str = "") -> None:
        self.path, self.expected, self.actual, self.note = path, expected, actual, note
        text = f"{path}: expected {_show(expected)}, got {_show(actual)}"
        super().__init__(text + (f" ({note})" if note else ""))


def _show(value: Any) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=repr)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 300 else text[:299] + "…"


def skip(reason: str) -> NoReturn:
    """End the scenario as not run, for ``reason``. Raises NotRun."""
    raise NotRun(reason)


def expect(path: str, actual: Any, expected: Any, note: str = "") -> None:
    """Raise Mismatch unless ``actual`` is the same JSON value as ``expected`` (``true`` is not ``1``, every key
    counts); ``path`` names the view field compared (``scores``, ``pieces.human``), which the report credits
    to the rule that owns it, and ``note`` says what was compared when it is not the field itself."""
    if whole_difference(expected, actual) is not None:
        raise Mismatch(path, expected, actual, note)


def regex(pattern: str) -> re.Pattern[str]:
    """A step pattern matched against the whole step text; its named groups are the step's arguments."""
    return re.compile(pattern)


@dataclass(frozen=True)
class StepDef:
    """One registered step definition."""

    kind: str  # given | when | then
    pattern: re.Pattern[str] | str
    func: Callable[..., Any]
    params: tuple[str, ...]
    target: str | None  # the context name the step's return value is stored under

    @property
    def where(self) -> str:
        code = self.func.__code__
        return f"{self.func.__module__}:{code.co_firstlineno}"

    def match(self, text: str) -> dict[str, str | None] | None:
        """The step's arguments when it matches ``text`` whole, else None."""
        if isinstance(self.pattern, str):
            return {} if self.pattern == text else None
        found = self.pattern.fullmatch(text)
        return None if found is None else found.groupdict()


STEPS: list[StepDef] = []
FIXTURES: dict[str, Callable[..., Any]] = {}


def _register(kind: str, pattern: re.Pattern[str] | str, target: str | None) -> Callable[[F], F]:
    def decorate(func: F) -> F:
        params = tuple(inspect.signature(func).parameters)
        STEPS.append(StepDef(kind, pattern, func, params, target))
        return func
    return decorate


def given(pattern: re.Pattern[str] | str, target_fixture: str | None = None) -> Callable[[F], F]:
    """Register a Given step (also matched by the And and But that follow a Given)."""
    return _register("given", pattern, target_fixture)


def when(pattern: re.Pattern[str] | str, target_fixture: str | None = None) -> Callable[[F], F]:
    """Register a When step."""
    return _register("when", pattern, target_fixture)


def then(pattern: re.Pattern[str] | str, target_fixture: str | None = None) -> Callable[[F], F]:
    """Register a Then step."""
    return _register("then", pattern, target_fixture)


def fixture(func: F) -> F:
    """Register a value made once per scenario, on first use, under the function's name; its parameters are
    filled from the context like a step's."""
    FIXTURES[func.__name__] = func
    return func


class UndefinedStep(KitError):
    """No step definition matches a step of a feature file (or more than one does): a bug of the kit's
    suite, found before any build is started."""


def find(kind: str, text: str) -> tuple[StepDef, dict[str, str | None]]:
    """The one definition of ``kind`` whose pattern matches ``text``, and its arguments; a definition by exact
    text wins over patterns that also match (a game's own ``a new Conquest King game`` over the shared
    ``a new <title> game``). Raises UndefinedStep."""
    hits = [(d, args) for d in STEPS if d.kind == kind or kind == "any"
            for args in [d.match(text)] if args is not None]
    exact = [(d, args) for d, args in hits if isinstance(d.pattern, str)]
    hits = exact or hits
    if not hits:
        raise UndefinedStep(f"no {kind} step matches {text!r}")
    if len(hits) > 1:
        raise UndefinedStep(f"{len(hits)} {kind} steps match {text!r}: " + ", ".join(d.where for d, _ in hits))
    return hits[0]
