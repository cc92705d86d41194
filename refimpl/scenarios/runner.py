"""Run scenarios in this process, step by step, through a Driver: the same for ``refimpl verify`` and for the
pytest plugin. Nothing here knows a test framework; a scenario ends passed, failed, not run or broke.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..games import GAMES
from ..harness.driver import BuildBroke, Driver, ReferenceDriver
from ..harness.oracle import ByReference
from ..harness.protocol import Build, ProtocolDriver
from ..status import Status
from .gherkin import Scenario, Step
from .registry import FIXTURES, Mismatch, NotRun, StepDef, UndefinedStep, find


@dataclass(frozen=True)
class Outcome:
    """How one scenario ended against a build."""

    status: Status  # passed | failed | not-run | broke
    detail: str = ""  # the failure or the reason, in a line or a few
    step: Step | None = None  # the step that failed, broke or found the scenario could not run
    error: BaseException | None = None  # what the step raised (a Mismatch, a BuildBroke, another exception)
    request: Any = None  # the last request sent before it ended (protocol JSON, without its id)
    message: str = ""  # a failure in the step's own words, without where it happened


class Context:
    """What one scenario's steps share: the driver, fixtures made on first use and values steps returned."""

    def __init__(self, driver: Driver) -> None:
        self.values: dict[str, Any] = {"driver": driver}

    def get(self, name: str) -> Any:
        if name not in self.values:
            if name not in FIXTURES:
                raise UndefinedStep(f"a step asks for {name!r}, which no fixture or earlier step provides")
            make = FIXTURES[name]
            self.values[name] = make(*(self.get(p) for p in _params(make)))
        return self.values[name]


def _params(func: Callable[..., Any]) -> tuple[str, ...]:
    return tuple(func.__code__.co_varnames[:func.__code__.co_argcount])


def bind(scenario: Scenario) -> list[tuple[Step, StepDef, dict[str, str | None]]]:
    """Each step with its definition and arguments. Raises UndefinedStep naming the feature file and line."""
    out = []
    for step in scenario.steps:
        try:
            definition, args = find(step.kind, step.text)
        except UndefinedStep as exc:
            raise UndefinedStep(f"{scenario.file}:{step.line}: {exc}") from None
        out.append((step, definition, args))
    return out


def check_steps(scenarios: list[Scenario]) -> None:
    """Raise UndefinedStep for the first step of ``scenarios`` that no definition (or more than one) matches:
    a suite that cannot run is found before a build is started."""
    for scenario in scenarios:
        bind(scenario)


def _last_request(driver: Driver) -> Any:
    record = getattr(getattr(driver, "inner", driver), "transcript", None) or []
    sent = next((e["request"] for e in reversed(record) if "request" in e), None)
    return {k: v for k, v in sent.items() if k != "id"} if isinstance(sent, dict) else sent


def _reference_passes(scenario: Scenario, driver: Driver) -> bool:
    """Whether the reference passes ``scenario``: a step that raised something other than a failed check
    against ``driver`` is the build's doing only then. Never when ``driver`` is the reference itself."""
    inner = getattr(driver, "inner", driver)
    if isinstance(inner, ReferenceDriver) and all(inner.engines[g] is GAMES[g] for g in GAMES):
        return False
    try:
        return run_scenario(scenario, ReferenceDriver()).status == Status.PASSED
    except Exception:  # noqa: BLE001 - the reference breaks it too: the kit's bug, raised by the caller
        return False


def run_scenario(scenario: Scenario, driver: Driver) -> Outcome:
    """Run every step of ``scenario`` on ``driver``, stopping at the first that fails, breaks or finds the
    scenario cannot be judged. Raises UndefinedStep for a step no definition matches, and what a step raised
    (not a failed check) when the reference fails the scenario too: a bug of the kit, not the build's;
    KeyboardInterrupt passes through."""
    context = Context(driver)
    for step, definition, args in bind(scenario):
        kwargs: dict[str, Any] = {}
        try:
            for name in definition.params:
                if name in args:
                    kwargs[name] = args[name]
                elif name == "datatable":
                    kwargs[name] = [list(row) for row in step.table or ()]
                else:
                    kwargs[name] = context.get(name)
            value = definition.func(**kwargs)
            done = getattr(driver, "step_done", None)  # a driver judged by the reference (harness/oracle.py)
            if done is not None:
                done()
        except NotRun as exc:
            return Outcome(Status.NOT_RUN, str(exc), step, exc)
        except BuildBroke as exc:
            sent = _last_request(driver)
            detail = str(exc) + ("" if sent is None else "\nsent: " + json.dumps(sent)[:300])
            return Outcome(Status.BROKE, detail, step, exc, sent)
        except UndefinedStep:
            raise
        except Exception as exc:  # noqa: BLE001 - any other failure of a step is the build's answer failing it,
            if not isinstance(exc, AssertionError) and not _reference_passes(scenario, driver):
                raise  # unless the reference fails the same scenario: a bug of the kit (the CLI says so, exit 4)
            message = str(exc) if isinstance(exc, (Mismatch, ByReference)) else \
                f"{type(exc).__name__}: {exc}".rstrip(": ")
            sent = exc.sent if isinstance(exc, ByReference) else _last_request(driver)
            return Outcome(Status.FAILED, f"{scenario.file}:{step.line} step '{step.label}': {message}", step, exc,
                           sent, message)
        if definition.target:
            context.values[definition.target] = value
    return Outcome(Status.PASSED)


class Selected:
    """A driver restricted to the selected games and rulesets: anything else is 'not run'."""

    def __init__(self, inner: Driver, games: set[str] | None, rulesets: set[str] | None) -> None:
        self.inner, self.games, self.rulesets = inner, games, rulesets

    def supports(self, game: str, ruleset: str | None) -> bool:
        if ruleset is None and game in GAMES:
            ruleset = GAMES[game].info.default_ruleset
        return (self.inner.supports(game, ruleset) and (self.games is None or game in self.games)
                and (self.rulesets is None or ruleset in self.rulesets))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


class Builds:
    """One outside build process for a run of scenarios, started again after it breaks; but not after it
    broke the same way ``streak`` times in a row, nor after ``deadline`` (time.monotonic()): then ``get``
    raises NotRun, and once the build failed to start, that BuildBroke again."""

    def __init__(self, build: Build, streak: int = 0, deadline: float | None = None) -> None:
        self.build, self.streak, self.deadline = build, streak, deadline
        self.current: ProtocolDriver | None = None
        self.failed_start: BuildBroke | None = None
        self.breaks: tuple[str, int] = ("", 0)

    def get(self) -> ProtocolDriver:
        """The build for the next scenario (its transcript emptied). Raises NotRun or BuildBroke."""
        if self.failed_start is not None:
            raise self.failed_start  # a build that cannot start is not started again for every scenario
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise NotRun("not run: --max-time ran out")
        if self.current is not None and (self.current.process.broken or not self.current.alive):
            cause = self.current.process.cause or "exited"
            self.breaks = (cause, self.breaks[1] + 1 if self.breaks[0] == cause else 1)
            self.current.process.close()
            self.current = None
        elif self.current is not None:
            self.breaks = ("", 0)
        if self.streak and self.breaks[1] >= self.streak:
            raise NotRun(f"not run: the build broke the same way ({self.breaks[0]}) on {self.breaks[1]} checks "
                         f"in a row, so it was not started again")
        if self.current is None:
            try:
                self.current = self.build.start()
            except BuildBroke as exc:
                self.failed_start = exc
                raise
        self.current.transcript = []
        return self.current

    def close(self) -> None:
        if self.current is not None:
            self.current.close()
            self.current = None


def transcript_of(driver: Driver) -> list[dict[str, Any]]:
    """The scenario's raw exchanges, the build's hello first (for an outside build)."""
    from ..reports.transcript import exchanges

    inner = getattr(driver, "inner", driver)
    record = getattr(inner, "transcript", None) or []
    hello = getattr(inner, "hello", None)
    return exchanges(([{"request": hello[0]}, {"response": hello[1]}] if hello else []) + list(record))
