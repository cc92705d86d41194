"""pytest plugin (entry point ``refimpl``): aim the kit's Gherkin features at any build.

    pytest features --impl "node examples/node-build/main.js"

``--impl`` drives an outside build over the protocol; ``--driver MODULE:FACTORY`` a Python driver
factory (the deliberately wrong engine variants use it); neither: the reference. ``--kit-report``
writes every scenario's outcome with its rule IDs as JSON (``refimpl verify`` reads it).
"""

from __future__ import annotations

import importlib
import json
import re
import time
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from pytest_bdd.scenario import scenario_wrapper_template_registry

from .driver import BuildBroke, Driver, ReferenceDriver
from .games import GAMES
from .protocol import DEFAULT_TIMEOUT, ProtocolDriver
from .replay import MISMATCH, NOT_RUN, replay
from .report import Failure, failure_lines, trace_failure
from .rules import RULE_ID
from .trace import Trace, TraceError, load_trace
from .transcript import exchanges


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
    group.addoption("--kit-transcripts", action="store_true", default=False,
                    help="with --kit-report: each failing scenario's record carries its raw exchanges")
    group.addoption("--kit-traceback", action="store_true", default=False,
                    help="show a failure's full Python traceback instead of the kit's short message")


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


def _scenario_of(item: pytest.Item) -> Any:
    """The pytest-bdd scenario an item runs, or None (a trace item, a plain test)."""
    function = getattr(item, "function", None)
    return None if function is None else scenario_wrapper_template_registry.get(function)


def _split(value: str | None) -> set[str] | None:
    return None if value is None else {v.strip() for v in value.split(",") if v.strip()}


class _Source:
    """Where every scenario's and trace item's driver comes from: the build chosen on the command line."""

    def __init__(self, config: pytest.Config) -> None:
        self.games, self.rulesets = _split(config.getoption("--kit-games")), _split(config.getoption("--kit-rulesets"))
        command, spec = config.getoption("--impl"), config.getoption("--driver")
        self.builds: _Builds | None = None
        self.factory: Callable[[], Driver] = ReferenceDriver
        if command is not None:
            limit = config.getoption("--kit-time")
            self.builds = _Builds(command, config.getoption("--impl-timeout"), config.getoption("--kit-break-streak"),
                                  None if limit is None else time.monotonic() + limit)
        elif spec is not None:
            self.factory = _load_factory(spec)

    def get(self) -> Driver:
        return Selected(self.builds.get() if self.builds is not None else self.factory(), self.games, self.rulesets)

    def close(self) -> None:
        if self.builds is not None:
            self.builds.close()


_SOURCE = pytest.StashKey[_Source]()


def _source(config: pytest.Config) -> _Source:
    if _SOURCE not in config.stash:
        config.stash[_SOURCE] = _Source(config)
    return config.stash[_SOURCE]


def pytest_unconfigure(config: pytest.Config) -> None:
    if _SOURCE in config.stash:
        config.stash[_SOURCE].close()


@pytest.fixture(scope="session")
def driver_factory(request: pytest.FixtureRequest) -> Callable[[], Driver]:
    """Makes the driver of one scenario: the build chosen on the command line."""
    return _source(request.config).get


@pytest.fixture
def driver(driver_factory: Callable[[], Driver]) -> Iterator[Driver]:
    """A driver for one scenario (a fresh game; an outside build's process is shared). It records the
    scenario's exchanges (``transcript``), so a failure can name the request sent and be replayed."""
    d = driver_factory()
    inner = d.inner  # type: ignore[attr-defined]
    inner.transcript = []
    yield d
    if not isinstance(inner, ProtocolDriver):
        d.close()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Deselect (report not at all) scenarios of games other than --kit-games, and, for any build but
    the reference, scenarios tagged @kit: they check the kit's own derivations, not the build."""
    games = _split(config.getoption("--kit-games"))
    other_build = config.getoption("--impl") is not None or config.getoption("--driver") is not None
    keep, drop = [], []
    for item in items:
        if isinstance(item, TraceItem):
            (drop if games is not None and item.trace.game not in games else keep).append(item)
            continue
        scenario = _scenario_of(item)
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
_FAILED_STEP = pytest.StashKey[tuple[str, int]]()


def _transcript(item: pytest.Item) -> list[dict[str, Any]]:
    """The scenario's exchanges (after the build's hello, when the build is an outside one)."""
    driver = getattr(item, "funcargs", {}).get("driver")
    inner = getattr(driver, "inner", None)
    record = getattr(inner, "transcript", None) or []
    hello = getattr(inner, "hello", None)
    return exchanges(([{"request": hello[0]}, {"response": hello[1]}] if hello else []) + list(record))


def _stderr(record: dict[str, Any]) -> str:
    tail = (record.get("broke") or {}).get("stderr", "")
    return "\nbuild stderr (last lines):\n" + "\n".join("  | " + s for s in tail.splitlines()) if tail else ""


def pytest_bdd_step_error(request: pytest.FixtureRequest, feature: Any, scenario: Any, step: Any,
                          step_func: Any, step_func_args: Any, exception: Exception) -> None:
    """Remember which step failed, so the report can name it."""
    request.node.stash[_FAILED_STEP] = (f"{step.keyword} {step.name}", step.line_number)


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_KEY] = []


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    report = yield
    scenario = _scenario_of(item)
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
        record["transcript"] = _transcript(item)
        sent = next((e["request"] for e in reversed(record["transcript"]) if "request" in e), None)
        if isinstance(sent, dict):
            sent = {k: v for k, v in sent.items() if k != "id"}
        if isinstance(exc, BuildBroke):
            record["status"] = "broke"
            record["broke"] = {"cause": exc.cause, "message": exc.message, "stderr": exc.stderr_tail}
            record["detail"] = str(exc) + ("" if sent is None else "\nsent: " + json.dumps(sent)[:300])
        else:
            detail = call.excinfo.exconly() if call.excinfo else str(report.longrepr)
            step, line = item.stash.get(_FAILED_STEP, ("", None))
            where = f"{scenario.feature.rel_filename}:{line}" if line else scenario.feature.rel_filename
            record["detail"] = f"{where} step '{step}': {detail}" if step else detail
            record["failure"] = {"file": scenario.feature.rel_filename, "line": line, "action": step or "",
                                 "request": sent, "message": detail}
        if not item.config.getoption("--kit-traceback"):  # the same short message verify prints
            report.longrepr = record["detail"] + _stderr(record)
        if not item.config.getoption("--kit-transcripts"):
            del record["transcript"]
    item.config.stash[_KEY].append(record)
    path = item.config.getoption("--kit-report")
    if path:  # a line per scenario as it ends: the caller shows progress, and keeps what ran if stopped
        with open(path, "a", encoding="utf-8") as out:
            out.write(json.dumps(record) + "\n")
    return report


# --- the bundled traces as pytest items ----------------------------------------------------------
# ``pytest features traces --impl CMD`` runs what ``refimpl verify`` runs by default: every scenario and
# every trace, each trace judged by its own expectations and against the reference's whole answers.

_TRACE_HEAD = re.compile(r"(?m)^game\s*:")


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """A YAML file in a folder named ``traces`` that declares a game is a trace: one item."""
    if file_path.suffix not in (".yaml", ".yml") or "traces" not in file_path.parts[:-1]:
        return None
    try:
        with open(file_path, encoding="utf-8", errors="replace") as head:
            if not _TRACE_HEAD.search(head.read(4096)):
                return None
    except OSError:
        return None
    return TraceFile.from_parent(parent, path=file_path)


class TraceFile(pytest.File):
    def collect(self) -> Iterator[pytest.Item]:
        try:
            trace = load_trace(self.path)
        except TraceError as exc:
            raise self.CollectError(str(exc)) from None
        yield TraceItem.from_parent(self, name=f"{trace.game}/{trace.name}", trace=trace)


class TraceMismatch(Exception):
    """A trace did not conform: its Failure, shown as ``verify`` shows it."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.message)
        self.failure = failure


class TraceItem(pytest.Item):
    """One trace replayed against the build (and the reference's answers), as ``verify`` does."""

    def __init__(self, *, trace: Trace, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.trace = trace
        self.extra_keyword_matches.update({trace.game, trace.ruleset})
        for rule in dict.fromkeys((*trace.rules, *(r for step in trace.steps for r in step.rules))):
            self.add_marker(rule)  # ``-m LD-CAP-2`` selects traces as it selects scenarios

    def runtest(self) -> None:
        driver = _source(self.config).get()
        try:
            result = replay(self.trace, driver, oracle=ReferenceDriver())
        finally:
            if not isinstance(getattr(driver, "inner", None), ProtocolDriver):
                driver.close()
        if result.status == NOT_RUN:
            pytest.skip(result.reason)
        if result.status == MISMATCH:
            raise TraceMismatch(trace_failure(self.trace, result))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> str | Any:
        if self.config.getoption("--kit-traceback"):
            return super().repr_failure(excinfo, style)
        exc = excinfo.value
        if isinstance(exc, TraceMismatch):
            return "\n".join(failure_lines(exc.failure))
        if isinstance(exc, BuildBroke):
            return str(exc) + _stderr({"broke": {"stderr": exc.stderr_tail}})
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, 0, f"trace {self.name}"
