"""``verify --jobs N``: the checks of one verify run spread over N worker processes, each with build processes
of its own, and put back together as the one report a single job gives.

What is spread: the traces (in N shards), the scenarios (in N shards) and the checks between them (the
requests twice, the protocol before any start, perft, the build's own chance) as one more unit. Traces and
scenarios are dealt out heaviest first to the lightest shard (weight: their steps, a trace's at its game's cost
a step: its unit's ``step_cost``), so the shards take about as long; one scenario shard is lighter by the checks between
(BETWEEN_WEIGHT), which its worker runs after it. Each worker selects the same traces and scenarios as the
parent (inherited where the platform forks, selected again once per worker where it spawns) and plays the
reference under the same profiles.

The report is the one a single job gives: every check in the same place, with the same content (decisions,
written down in docs/verify.md):

- ``--fail-fast``: every worker stops once a trace (or a check between) has failed, or a scenario once every
  trace has run; the report keeps the checks up to the first failure in report order and every check after it
  is "not run", as a single job would have it, but a trace before it that its worker had not reached when
  another trace failed is "not run" too.
- A failing check's transcript (``--transcript``) numbers its requests as its worker's build session did.
- ``--max-time`` and a build that breaks the same way BREAK_STREAK times in a row: each worker stops by itself,
  so the checks that did run may be other ones than a single job would have run (never fewer).
- The later differences a failed trace shows (checks.resynchronise) are capped per worker, so a build that
  fails more than RESYNC_RUN_LIMIT traces may show more of them than under a single job.
- A check's ``seconds`` is the time its worker took.
"""

from __future__ import annotations

import multiprocessing
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..games import kit_of
from ..harness.driver import BuildBroke
from ..harness.executor import run_jobs
from ..harness.protocol import Build
from ..reports.model import Check, Report
from ..rulebook.profiles import by_game, using
from ..rulebook.reach import merge
from ..status import Status
from .checks import reaching
from .settings import VerifySettings

TRACE_WEIGHT = 4  # a trace's weight beyond its steps: its start and its view at every step
SCENARIO_WEIGHT = 2
# What a step of a trace costs, by game, relative to the others: its unit's ``step_cost`` (Conquest King's says how it
# was measured). Weighing steps alike left one shard 0.4 s behind the other on the whole suite.


def _step_cost(game: str) -> int:
    try:
        return kit_of(game).step_cost
    except KeyError:  # a trace of a game nobody registered: refused elsewhere, weighed as the cheapest
        return 1


# The checks between, in a scenario's weight (its steps + SCENARIO_WEIGHT, about 0.4 ms each): a fresh build for
# the protocol before any start, about 0.1-0.2 s. The scenarios are dealt so that one shard is lighter by it,
# and the checks between run last on the worker that took that shard, so neither worker waits at the end.
BETWEEN_WEIGHT = 300


def trace_weight(trace: Any) -> int:
    """A trace's share of a shard's time: its steps (and its start) at its game's cost a step."""
    return (len(trace.steps) + TRACE_WEIGHT) * _step_cost(trace.game)


def scenario_weight(scenario: Any) -> int:
    """A scenario's share of a shard's time: its steps and its own start."""
    return len(scenario.steps) + SCENARIO_WEIGHT


@dataclass(frozen=True)
class Unit:
    """One worker's share: a shard of traces or scenarios (indexes into the selection), or the checks between."""

    token: str  # the parent's selection, where a forked worker finds it
    settings: VerifySettings  # the run's: every worker selects and judges alike
    build: Build
    kind: str  # traces | scenarios | between
    indexes: tuple[int, ...] = ()
    deadline: float | None = None  # time.monotonic() in the parent (the same clock in every process here)


@dataclass
class Done:
    """What a unit ran: its checks in the order given, and what its report learned about the build."""

    unit: Unit
    checks: list[Check]
    build: str = ""
    explicit_chance: bool | None = None  # None: the unit did not learn it
    broke_at_start: BuildBroke | None = None
    stopped: str = ""
    warnings: list[str] = field(default_factory=list)
    reach: dict[str, dict[str, int]] = field(default_factory=dict)  # verify --coverage: kind -> rule -> hits


_SELECTED: dict[str, tuple[list[Any], list[Any]]] = {}  # token -> (traces, scenarios), set before the pool forks
_STOP: list[Any] = []  # in a worker: the run's stop event (set by the parent at a failure under --fail-fast)
FAIL_FAST = "--fail-fast: stopped at the first failure"


def _worker(stop: Any) -> None:
    _STOP[:] = [stop]


def _told() -> str:
    return FAIL_FAST if _STOP and _STOP[0].is_set() else ""


def _selection(unit: Unit) -> tuple[list[Any], list[Any]]:
    """The traces and scenarios the parent selected: inherited, or selected again (once per worker)."""
    if unit.token not in _SELECTED:
        from .checks import Run
        from .selection import select_scenarios, select_traces, under_profiles

        s = unit.settings
        traces = select_traces(s)
        scenarios = select_scenarios(s)
        mine = by_game(list(s.profiles))
        if mine:
            with using(mine):
                traces, scenarios = under_profiles(traces, scenarios, mine, Run(Report(unit.build.command), s))
        _SELECTED[unit.token] = (traces, scenarios)
    return _SELECTED[unit.token]


def run_unit(unit: Unit) -> Done:
    """Run one unit in this (worker) process and hand back its checks."""
    from .between import declares_explicit_chance, run_before_start, run_own_chance, run_perft, run_twice
    from .checks import Run, run_scenarios, run_traces

    traces, scenarios = _selection(unit)
    report = Report(unit.build.command)
    s = unit.settings
    run = Run(report, s, unit.deadline, told=_told)
    explicit: bool | None = None
    with using(by_game(list(s.profiles))), reaching(report, unit.kind, s.coverage):
        if unit.kind == "traces":
            run_traces(unit.build, [traces[i] for i in unit.indexes], run)
            explicit = report.explicit_chance if report.build else None
        elif unit.kind == "scenarios":
            run_scenarios(unit.build, [scenarios[i] for i in unit.indexes], run)
        elif unit.kind == "explore":
            from .explore import every_target, run_exploration

            pairs = every_target(s)
            run_exploration(unit.build, run, [pairs[i] for i in unit.indexes])
        else:
            b = _between(s)
            if b["twice"]:
                run_twice(unit.build, traces, run)
            if b["before_start"] and not run.stop_reason():
                explicit = run_before_start(unit.build, run)
            if b["perft_depth"] > 0:
                run_perft(unit.build, run)
            if b["own_chance"] and not run.stop_reason():
                if explicit is None:  # no check here read the build's hello
                    explicit = declares_explicit_chance(unit.build)
                if explicit:
                    run_own_chance(unit.build, run)
    return Done(unit, report.checks, report.build, explicit, report.broke_at_start, report.stopped, report.warnings,
                report.reach)


def deal(weights: Sequence[int], shards: int, preload: int = 0) -> list[tuple[int, ...]]:
    """Indexes dealt into ``shards`` groups of about equal total weight (heaviest first, each to the lightest
    group so far), the first group counted as holding ``preload`` already (work its worker also does); each group
    in index order, empty groups left out."""
    groups: list[list[int]] = [[] for _ in range(max(1, shards))]
    loads = [preload] + [0] * (len(groups) - 1)
    for i in sorted(range(len(weights)), key=lambda i: (-weights[i], i)):
        lightest = loads.index(min(loads))
        groups[lightest].append(i)
        loads[lightest] += weights[i]
    return [tuple(sorted(g)) for g in groups if g]


def _between(settings: VerifySettings) -> dict[str, Any]:
    """The checks between the traces and the scenarios that the run makes (the ``between`` unit's)."""
    from .between import wants_before_start

    return {"twice": settings.twice, "before_start": wants_before_start(settings),
            "perft_depth": settings.perft_depth, "own_chance": settings.own_chance}


def run_sharded(build: Build, run: Any, selected: list[Any], chosen: list[Any]) -> None:
    """Run ``selected`` traces, the checks between and ``chosen`` scenarios over ``jobs`` workers, adding every
    check to ``run`` (a checks.Run) in the order a single job adds them (see the module docstring). Ctrl-C and
    SIGTERM propagate (the workers are ended; what they had finished is added first)."""
    report, settings, jobs = run.report, run.settings, run.settings.jobs
    token = secrets.token_hex(8)
    _SELECTED[token] = (selected, chosen)
    common = dict(token=token, settings=settings, build=build, deadline=run.deadline)
    units = [Unit(kind="traces", indexes=idx, **common)
             for idx in deal([trace_weight(t) for t in selected], jobs)]
    between = any(_between(settings).values())
    if between:
        units.append(Unit(kind="between", **common))
    if settings.scenarios:
        units += [Unit(kind="scenarios", indexes=idx, **common)
                  for idx in deal([scenario_weight(s) for s in chosen], jobs,
                                  preload=BETWEEN_WEIGHT if between else 0)]
    if settings.explore:
        from .explore import every_target

        pairs = every_target(settings)
        units += [Unit(kind="explore", indexes=idx, **common)
                  for idx in deal([explore_weight(g, settings.explore) for g, _ in pairs], jobs)]
    heaviest_first = sorted(units, key=lambda u: -_weight(u, selected, chosen))
    done: dict[int, Done] = {}
    order = {id(u): n for n, u in enumerate(units)}
    shown = 0
    stop = multiprocessing.get_context().Event()
    later = ("scenarios", "explore")  # the kinds whose checks come after every trace's and the checks between
    earlier = sum(u.kind not in later for u in units)  # units whose checks come before every scenario's
    failed_later = False
    try:
        for unit, result in run_jobs(run_unit, heaviest_first, jobs, initializer=_worker, initargs=(stop,)):
            done[order[id(unit)]] = result
            earlier -= unit.kind not in later
            failed_later = failed_later or (unit.kind in later and _first_failure(result.checks) is not None)
            if settings.fail_fast and (_first_failure(result.checks) is not None and unit.kind not in later
                                  or failed_later and earlier == 0):
                stop.set()  # the other workers stop after the check they are running; a failing scenario stops
                # them only once every trace has run, since a trace's failure would come first in the report
            if run.progress is not None:
                for check in result.checks:
                    shown += 1
                    run.progress(check, shown, max(run.total, shown))
    except KeyboardInterrupt:
        _merge(report, run, units, done, selected, chosen, settings.scenarios)
        raise
    finally:
        _SELECTED.pop(token, None)
    _merge(report, run, units, done, selected, chosen, settings.scenarios)


def explore_weight(game: str, cases: int) -> int:
    """A game's exploration in a scenario's weight: its cases, each about half a game of the game's typical
    length (cases.CaseShape), at its cost a step."""
    from ..games import GAMES

    return cases * GAMES[game].info.typical_length // 2 * _step_cost(game)


def _weight(unit: Unit, selected: list[Any], chosen: list[Any]) -> int:
    if unit.kind == "explore":
        from .explore import every_target

        pairs = every_target(unit.settings)
        return sum(explore_weight(pairs[i][0], unit.settings.explore) for i in unit.indexes)
    if unit.kind == "traces":
        return sum(trace_weight(selected[i]) for i in unit.indexes)
    if unit.kind == "scenarios":
        return sum(scenario_weight(chosen[i]) for i in unit.indexes)
    return 10 ** 9 if unit.settings.twice or unit.settings.perft_depth else BETWEEN_WEIGHT


def _merge(report: Report, run: Any, units: list[Unit], done: dict[int, Done], selected: list[Any],
           chosen: list[Any], scenarios: bool) -> None:
    """Put the units' checks into ``report`` in a single job's order: traces, the checks between, scenarios."""
    trace_checks: list[Check | None] = [None] * len(selected)
    scenario_checks: list[Check | None] = [None] * len(chosen)
    between: list[Check] = []
    explored: dict[int, list[Check]] = {}  # by the first target of the unit: in the targets' order
    for n, unit in enumerate(units):
        result = done.get(n)
        if result is None:
            continue
        if result.broke_at_start is not None and report.broke_at_start is None:
            report.broke_at_start = result.broke_at_start
        report.build = report.build or result.build
        if result.explicit_chance is not None:
            report.explicit_chance = report.explicit_chance or result.explicit_chance
        report.stopped = report.stopped or result.stopped
        merge(report.reach, result.reach)
        if unit.kind == "traces":
            for i, c in zip(unit.indexes, result.checks):
                trace_checks[i] = c
        elif unit.kind == "scenarios":
            for i, c in zip(unit.indexes, result.checks):
                scenario_checks[i] = c
        elif unit.kind == "explore":
            explored[unit.indexes[0]] = result.checks
        else:
            between = result.checks
    if report.broke_at_start is not None:
        report.stopped = "the build did not start"
    cut = _first_failure(trace_checks) if run.settings.fail_fast else None
    if cut is not None:
        report.stopped = FAIL_FAST
    for i, check in enumerate(trace_checks):
        if check is None or (cut is not None and i > cut) or (report.broke_at_start is not None):
            trace = selected[i]
            check = Check("trace", trace.game, f"{trace.game}/{trace.name}", trace.rules, Status.NOT_RUN,
                          f"not run: {report.stopped or 'interrupted'}", trace.ruleset)
        report.checks.append(check)
    if cut is not None or report.broke_at_start is not None:  # the scenarios unreached: run.list_unreached
        _merge_explored(report, explored)
        return
    report.checks += between
    if run.settings.fail_fast and _first_failure(between) is not None:
        report.stopped = FAIL_FAST
        _merge_explored(report, explored)
        return
    cut = _first_failure(scenario_checks) if run.settings.fail_fast else None
    if cut is not None:
        report.stopped = FAIL_FAST
    for i, check in enumerate(scenario_checks):
        if check is None or (cut is not None and i > cut):
            s = chosen[i]
            check = Check("scenario", s.game, s.check_name, s.rules, Status.NOT_RUN,
                          f"not run: {report.stopped or 'interrupted'}")
        report.checks.append(check)
    _merge_explored(report, explored)


def _merge_explored(report: Report, explored: dict[int, list[Check]]) -> None:
    """The exploration's checks after every other, in the order of the targets, as a single job has them
    (with "not run" in place of them when an earlier check broke, as a single job does)."""
    from .explore import not_run_after_break

    if report.stopped:  # listed as not run by run.list_unreached
        return
    skipped = not_run_after_break(report.checks)
    if skipped is not None and explored:
        report.checks += skipped
        return
    ordered = [c for _, checks in sorted(explored.items()) for c in checks]
    report.checks += sorted(ordered, key=_target_order)


def _target_order(check: Check) -> tuple[int, int]:
    from ..games import GAMES

    games = list(GAMES)
    if check.game not in GAMES:
        return (len(games), 0)
    rulesets = list(GAMES[check.game].info.rulesets)
    return (games.index(check.game), rulesets.index(check.ruleset) if check.ruleset in rulesets else 0)


def _first_failure(checks: Sequence[Check | None]) -> int | None:
    return next((i for i, c in enumerate(checks) if c is not None and c.status in (Status.FAILED, Status.BROKE)), None)


__all__ = ["Unit", "Done", "deal", "run_sharded", "run_unit"]
