"""The kit's checks as pytest items: every scenario of a ``*.feature`` file and every trace in a ``traces``
folder, judged against the build chosen on the command line exactly as ``refimpl verify`` judges it (the same
scenario runner, the same replay and reference answers).

Registered by refimpl/pytest_plugin.py only when ``--impl`` or ``--driver`` is given (and by the kit's own
conftest.py, which runs the suite against the reference). With no paths on the command line, ``pytest --impl
CMD`` runs the bundled suite from any folder.

    pytest --impl "node adapter/main.js"                 # the bundled scenarios and traces
    pytest --impl "node adapter/main.js" -m LD-CAP-2     # only the checks of one rule
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from . import suite
from .games import GAMES
from .harness.driver import BuildBroke, Driver, ReferenceDriver
from .harness.oracle import Oracled
from .harness.protocol import DEFAULT_TIMEOUT, Build, ProtocolDriver
from .harness.replay import replay
from .harness.trace import Trace, TraceError
from .harness.tracefile import load_trace
from .page import PageError, page_command
from .reports.failures import trace_failure
from .reports.model import Failure
from .reports.text import failure_lines
from .rulebook.rules import RULE_ID, feature_tags, spec_rules
from .scenarios import (
    Builds,
    NotRun,
    Outcome,
    Scenario,
    Selected,
    gherkin,
    run_scenario,
    steps as _steps,
)
from .status import Status

_steps.register()  # every game's step definitions

BREAK_STREAK = 3  # after the build broke the same way this many times in a row, the rest is not run


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("refimpl", "conformance kit (refimpl)")
    group.addoption("--impl", default=None, metavar="COMMAND",
                    help="shell command of a build speaking the kit's protocol (specs/protocol.md); run from "
                         "the folder pytest was started in")
    group.addoption("--page", default=None, metavar="PATH|URL",
                    help="a web page as the build (refimpl verify --page; docs/page.md): a local HTML file or "
                         "folder, or an http(s) URL, whose window.refimpl.handle answers the protocol")
    group.addoption("--impl-timeout", type=float, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                    help="how long the build may take to answer one request")
    group.addoption("--driver", default=None, metavar="MODULE:FACTORY",
                    help="Python factory returning the Driver to use instead of the reference")
    group.addoption("--kit-games", default=None, metavar="G,G", help="run only the checks of these games")
    group.addoption("--kit-rulesets", default=None, metavar="R,R", help="run only these rulesets")
    group.addoption("--kit-traceback", action="store_true", default=False,
                    help="show a failure's full Python traceback instead of the kit's short message")


def _other_build(config: pytest.Config) -> bool:
    return any(config.getoption(o) is not None for o in ("--impl", "--page", "--driver"))


def _command(config: pytest.Config) -> str | None:
    """The build's shell command: ``--impl``, or the bridge to ``--page`` (refimpl/page). Raises UsageError."""
    command, page = config.getoption("--impl"), config.getoption("--page")
    if page is None:
        return command
    if command is not None:
        raise pytest.UsageError("give --impl or --page, not both")
    try:
        return page_command(page, config.getoption("--impl-timeout"))
    except PageError as exc:
        raise pytest.UsageError(str(exc)) from None


def pytest_configure(config: pytest.Config) -> None:
    """Register every rule ID as a marker (``-m BL-WIN-1`` selects by rule), and with a build named but no
    paths given, collect the bundled suite instead of the current folder."""
    tags = {t for path in suite.feature_folder().glob("*.feature") for t in feature_tags(path)}
    for game in GAMES.values():
        text = suite.spec_text(game.info.spec)
        tags |= set(spec_rules(text)) if text else set()
    for tag in sorted(tags):
        config.addinivalue_line("markers", f"{tag}: checks of rule {tag}")
    config.addinivalue_line("markers", "kit: checks the kit's own derivations, not a build (skipped for builds)")
    if _other_build(config) and config.args_source != pytest.Config.ArgsSource.ARGS:
        config.args = [str(suite.feature_folder()), str(suite.trace_folder())]
    config.stash[_COLLECTED] = 0


def pytest_unconfigure(config: pytest.Config) -> None:
    if _SOURCE in config.stash:
        config.stash[_SOURCE].close()


def _split(value: str | None) -> set[str] | None:
    return None if value is None else {v.strip() for v in value.split(",") if v.strip()}


def _load_factory(spec: str) -> Callable[[], Driver]:
    module, _, name = spec.partition(":")
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError, ValueError) as exc:
        raise pytest.UsageError(f"--driver {spec}: {exc}") from None


class _Source:
    """Where every item's driver comes from: the build chosen on the command line, else the reference."""

    def __init__(self, config: pytest.Config) -> None:
        self.games, self.rulesets = _split(config.getoption("--kit-games")), _split(config.getoption("--kit-rulesets"))
        command, spec = _command(config), config.getoption("--driver")
        self.builds = Builds(Build(command, config.getoption("--impl-timeout")), BREAK_STREAK) if command else None
        self.factory: Callable[[], Driver] = _load_factory(spec) if spec and not command else ReferenceDriver

    def get(self) -> Selected:
        """A driver for one item. Raises NotRun (the build broke too often) or BuildBroke (it did not start)."""
        if self.builds is not None:
            return Selected(self.builds.get(), self.games, self.rulesets)
        driver = self.factory()
        driver.transcript = []  # type: ignore[attr-defined]  # drivers record a transcript when given a list
        return Selected(driver, self.games, self.rulesets)

    def done(self, driver: Selected) -> None:
        if not isinstance(driver.inner, ProtocolDriver):
            driver.inner.close()

    def close(self) -> None:
        if self.builds is not None:
            self.builds.close()


_SOURCE = pytest.StashKey[_Source]()
_COLLECTED = pytest.StashKey[int]()


def _source(config: pytest.Config) -> _Source:
    if _SOURCE not in config.stash:
        config.stash[_SOURCE] = _Source(config)
    return config.stash[_SOURCE]


def _wanted_game(config: pytest.Config, game: str) -> bool:
    games = _split(config.getoption("--kit-games"))
    return games is None or game in games


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """A ``*.feature`` file is a FeatureFile; a YAML file in a folder named ``traces`` that declares a game is
    a TraceFile."""
    if file_path.suffix == ".feature":
        return FeatureFile.from_parent(parent, path=file_path)
    if file_path.suffix not in (".yaml", ".yml") or "traces" not in file_path.parts[:-1]:
        return None
    from .util.files import read_bytes

    try:
        if b"game:" not in read_bytes(file_path, 4096, head=True):
            return None
    except OSError:  # not there, or not a regular file: not a trace to collect
        return None
    return TraceFile.from_parent(parent, path=file_path)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Say plainly what to type when a build was named and none of the kit's checks was collected."""
    config = session.config
    if (config.getoption("--impl") or config.getoption("--page")) and not config.stash.get(_COLLECTED, 0):
        reporter = config.pluginmanager.get_plugin("terminalreporter")
        message = ("refimpl: --impl was given, but none of the collected tests is one of the kit's checks. Run "
                   "`pytest --impl CMD` with no paths for the bundled scenarios and traces, or `refimpl verify "
                   "--impl CMD` for the whole report.")
        if reporter is not None:
            reporter.write_line(message, yellow=True, bold=True)


class FeatureFile(pytest.File):
    """A feature file: one ScenarioItem per scenario (and per example of an outline)."""

    def collect(self) -> Iterator[pytest.Item]:
        shown = suite.shown(self.path) or str(self.path)
        try:
            scenarios = gherkin.load(self.path, shown)
        except gherkin.FeatureError as exc:
            raise self.CollectError(str(exc)) from None
        other = _other_build(self.config)
        for scenario in scenarios:
            if (other and scenario.kit_only) or not _wanted_game(self.config, scenario.game):
                continue
            name = scenario.name + (f" [{scenario.example}]" if scenario.example is not None else "")
            yield ScenarioItem.from_parent(self, name=name, scenario=scenario)


class ScenarioFailed(Exception):
    """A scenario did not pass: its Outcome, shown as ``verify`` shows it."""

    def __init__(self, outcome: Outcome) -> None:
        super().__init__(outcome.detail)
        self.outcome = outcome


class TraceMismatch(Exception):
    """A trace did not conform: its Failure, shown as ``verify`` shows it."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.message)
        self.failure = failure


def _is_reference(driver: Any) -> bool:
    """Whether ``driver`` is the plain reference in this process (nothing to judge it against)."""
    return isinstance(driver, ReferenceDriver) and all(driver.engines[g] is GAMES[g] for g in GAMES)


class _KitItem(pytest.Item):
    """One of the kit's checks: run on a driver from the session's source, failures shown as verify shows
    them (``--kit-traceback`` for pytest's own)."""

    def run_on(self, driver: Selected) -> None:
        raise NotImplementedError

    def runtest(self) -> None:
        source = _source(self.config)
        try:
            driver = source.get()
        except NotRun as exc:
            pytest.skip(str(exc))
        try:
            self.run_on(driver)
        finally:
            source.done(driver)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str | Any:
        if self.config.getoption("--kit-traceback"):
            return super().repr_failure(excinfo, style)
        exc = excinfo.value
        if isinstance(exc, ScenarioFailed):
            broke = exc.outcome.error if isinstance(exc.outcome.error, BuildBroke) else None
            return exc.outcome.detail + _stderr(broke.stderr_tail if broke else "")
        if isinstance(exc, TraceMismatch):
            return "\n".join(failure_lines(exc.failure))
        if isinstance(exc, BuildBroke):
            return str(exc) + _stderr(exc.stderr_tail)
        return super().repr_failure(excinfo, style)


class ScenarioItem(_KitItem):
    """One scenario run against the build through the kit's scenario runner."""

    def __init__(self, *, scenario: Scenario, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scenario = scenario
        self.extra_keyword_matches.update({scenario.game, *scenario.tags})
        for tag in scenario.tags:
            self.add_marker(tag)
        self.config.stash[_COLLECTED] = self.config.stash.get(_COLLECTED, 0) + 1

    def run_on(self, driver: Selected) -> None:
        if not _is_reference(driver.inner):  # judged against the reference's answers, as verify judges it
            driver = Selected(Oracled(driver.inner), driver.games, driver.rulesets)
        outcome = run_scenario(self.scenario, driver)
        if outcome.status == Status.NOT_RUN:
            pytest.skip(outcome.detail)
        if outcome.status in (Status.FAILED, Status.BROKE):
            raise ScenarioFailed(outcome)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, self.scenario.line - 1, f"scenario {self.scenario.check_name}"


def _stderr(tail: str) -> str:
    return "\nbuild stderr (last lines):\n" + "\n".join("  | " + s for s in tail.splitlines()) if tail else ""


# --- the traces as pytest items -----------------------------------------------------------------
# ``pytest --impl CMD`` runs what ``refimpl verify`` runs by default: every scenario and every trace, each
# trace judged by its own expectations and against the reference's whole answers.

class TraceFile(pytest.File):
    def collect(self) -> Iterator[pytest.Item]:
        try:
            trace = load_trace(self.path)
        except TraceError as exc:
            raise self.CollectError(str(exc)) from None
        if _wanted_game(self.config, trace.game):
            yield TraceItem.from_parent(self, name=f"{trace.game}/{trace.name}", trace=trace)


class TraceItem(_KitItem):
    """One trace replayed against the build (and the reference's answers), as ``verify`` does."""

    def __init__(self, *, trace: Trace, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.trace = trace
        self.extra_keyword_matches.update({trace.game, trace.ruleset})
        for rule in dict.fromkeys((*trace.rules, *(r for step in trace.steps for r in step.rules))):
            if RULE_ID.match(rule):
                self.add_marker(rule)  # ``-m LD-CAP-2`` selects traces as it selects scenarios
        self.config.stash[_COLLECTED] = self.config.stash.get(_COLLECTED, 0) + 1

    def run_on(self, driver: Selected) -> None:
        result = replay(self.trace, driver, oracle=ReferenceDriver())
        if result.status == Status.NOT_RUN:
            pytest.skip(result.reason)
        if result.status == Status.MISMATCH:
            raise TraceMismatch(trace_failure(self.trace, result))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, 0, f"trace {self.name}"
