"""pytest plugin (entry point ``refimpl``): aim the kit's Gherkin features at any build.

    pytest features --impl "node examples/node-build/main.js"

``--impl`` drives an outside build over the protocol; ``--driver MODULE:FACTORY`` a Python driver
factory (the deliberately wrong engine variants use it); neither: the reference. ``--kit-report``
writes every scenario's outcome with its rule IDs as JSON (``refimpl verify`` reads it).
"""

from __future__ import annotations

import importlib
import json
import time
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from pytest_bdd.scenario import scenario_wrapper_template_registry

from .driver import BuildBroke, Driver, ReferenceDriver
from .games import GAMES
from .protocol import DEFAULT_TIMEOUT, ProtocolDriver
from .rules import RULE_ID


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("refimpl", "conformance kit")
    group.addoption("--impl", default=None, metavar="COMMAND",
                    help="shell command of a build speaking the kit's protocol (specs/protocol.md)")
    group.addoption("--impl-timeout", type=float, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                    help="how long the build may take to answer one request")
    group.addoption("--driver", default=None, metavar="MODULE:FACTORY",
                    help="Python factory returning the Driver to use instead of the reference")
    group.addoption("--kit-games", default=None, metavar="G,G", help="run only scenarios of these games")
    group.addoption("--kit-rulesets", default=None, metavar="R,R", help="run only these rulesets")
    group.addoption("--kit-report", default=None, metavar="PATH",
                    help="append each scenario's outcome to PATH as a JSON line, as it finishes")
    group.addoption("--kit-break-streak", type=int, default=0, metavar="N",
                    help="after the build broke the same way N times in a row, do not start it again: "
                         "the remaining scenarios are not run")
    group.addoption("--kit-time", type=float, default=None, metavar="SECONDS",
                    help="scenarios starting after this many seconds are not run")


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


class _Builds:
    """One outside build process for the session, started again after it breaks (but not after it broke
    the same way ``streak`` times in a row, nor after ``deadline``: the rest is not run)."""

    def __init__(self, command: str, timeout: float, streak: int = 0, deadline: float | None = None) -> None:
        self.command, self.timeout, self.streak, self.deadline = command, timeout, streak, deadline
        self.current: ProtocolDriver | None = None
        self.failed_start: BuildBroke | None = None
        self.breaks: tuple[str, int] = ("", 0)

    def get(self) -> ProtocolDriver:
        if self.failed_start is not None:
            raise self.failed_start  # a build that cannot start is not started again for every scenario
        if self.deadline is not None and time.monotonic() >= self.deadline:
            pytest.skip("not run: --max-time ran out")
        if self.current is not None and (self.current.process.broken or not self.current.alive):
            cause = self.current.process.cause or "exited"
            self.breaks = (cause, self.breaks[1] + 1 if self.breaks[0] == cause else 1)
            self.current.process.close()
            self.current = None
        elif self.current is not None:
            self.breaks = ("", 0)
        if self.streak and self.breaks[1] >= self.streak:
            pytest.skip(f"not run: the build broke the same way ({self.breaks[0]}) on {self.breaks[1]} checks "
                        f"in a row, so it was not started again")
        if self.current is None:
            try:
                self.current = ProtocolDriver(self.command, self.timeout)
            except BuildBroke as exc:
                self.failed_start = exc
                raise
        return self.current

    def close(self) -> None:
        if self.current is not None:
            self.current.close()


def _load_factory(spec: str) -> Callable[[], Driver]:
    module, _, name = spec.partition(":")
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError, ValueError) as exc:
        raise pytest.UsageError(f"--driver {spec}: {exc}") from None


def _split(value: str | None) -> set[str] | None:
    return None if value is None else {v.strip() for v in value.split(",") if v.strip()}


@pytest.fixture(scope="session")
def driver_factory(request: pytest.FixtureRequest) -> Iterator[Callable[[], Driver]]:
    """Makes the driver of one scenario: the build chosen on the command line."""
    config = request.config
    games, rulesets = _split(config.getoption("--kit-games")), _split(config.getoption("--kit-rulesets"))
    command, spec = config.getoption("--impl"), config.getoption("--driver")
    if command is not None:
        limit = config.getoption("--kit-time")
        builds = _Builds(command, config.getoption("--impl-timeout"), config.getoption("--kit-break-streak"),
                         None if limit is None else time.monotonic() + limit)
        yield lambda: Selected(builds.get(), games, rulesets)
        builds.close()
        return
    factory = ReferenceDriver if spec is None else _load_factory(spec)
    yield lambda: Selected(factory(), games, rulesets)


@pytest.fixture
def driver(driver_factory: Callable[[], Driver]) -> Iterator[Driver]:
    """A driver for one scenario (a fresh game; an outside build's process is shared)."""
    d = driver_factory()
    yield d
    if not isinstance(d.inner, ProtocolDriver):  # type: ignore[attr-defined]
        d.close()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Deselect (report not at all) scenarios of games other than --kit-games, and, for any build but
    the reference, scenarios tagged @kit: they check the kit's own derivations, not the build."""
    games = _split(config.getoption("--kit-games"))
    other_build = config.getoption("--impl") is not None or config.getoption("--driver") is not None
    keep, drop = [], []
    for item in items:
        scenario = scenario_wrapper_template_registry.get(getattr(item, "function", None))  # type: ignore[arg-type]
        if scenario is None:
            keep.append(item)
            continue
        game = Path(scenario.feature.filename).stem
        unwanted = (games is not None and game not in games) or (other_build and "kit" in scenario.tags)
        (drop if unwanted else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


# --- collecting outcomes for `refimpl verify` ---------------------------------------------------

_KEY = pytest.StashKey[list]()
_FAILED_STEP = pytest.StashKey[str]()


def pytest_bdd_step_error(request: pytest.FixtureRequest, feature: Any, scenario: Any, step: Any,
                          step_func: Any, step_func_args: Any, exception: Exception) -> None:
    """Remember which step failed, so the report can name it."""
    request.node.stash[_FAILED_STEP] = f"{step.keyword} {step.name} (line {step.line_number})"


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_KEY] = []


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    report = yield
    scenario = scenario_wrapper_template_registry.get(getattr(item, "function", None))  # type: ignore[arg-type]
    if scenario is None or (report.when != "call" and not (report.failed or report.skipped)):
        return report
    rules = sorted(t for t in scenario.tags | scenario.feature.tags if RULE_ID.match(t))
    record = {"nodeid": item.nodeid, "game": Path(scenario.feature.filename).stem,
              "feature": scenario.feature.name, "scenario": scenario.name,
              "example": item.callspec.id if hasattr(item, "callspec") else None,
              "rules": rules, "status": "passed" if report.passed else "not-run" if report.skipped else "failed",
              "detail": "", "broke": None}
    if report.skipped:
        record["detail"] = str(report.longrepr[-1]) if isinstance(report.longrepr, tuple) else ""
    elif report.failed:
        exc = call.excinfo.value if call.excinfo else None
        if isinstance(exc, BuildBroke):
            record["status"] = "broke"
            record["broke"] = {"cause": exc.cause, "message": exc.message, "stderr": exc.stderr_tail}
            record["detail"] = str(exc)
        else:
            detail = call.excinfo.exconly() if call.excinfo else str(report.longrepr)
            step = item.stash.get(_FAILED_STEP, "")
            record["detail"] = f"{scenario.feature.rel_filename} step '{step}': {detail}" if step else detail
    item.config.stash[_KEY].append(record)
    path = item.config.getoption("--kit-report")
    if path:  # a line per scenario as it ends: the caller shows progress, and keeps what ran if stopped
        with open(path, "a", encoding="utf-8") as out:
            out.write(json.dumps(record) + "\n")
    return report
