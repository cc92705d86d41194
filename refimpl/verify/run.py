"""``verify`` itself: the run, from its settings to its report. Everything runs in this process, or in
``jobs`` worker processes (shards.py); the checks become one list, each tagged with its game and rule IDs, from
which the matrix, the reports and the exit code are made."""

from __future__ import annotations

import os
import time
from dataclasses import replace

from ..games import GAMES
from ..harness.chance import STREAM_RULES
from ..harness.protocol import Build, as_build
from ..harness.trace import Trace
from ..reports.model import Check, Report
from ..rulebook.profiles import Profile, by_game, using
from ..scenarios import Scenario
from ..status import Status
from .between import (
    declares_explicit_chance,
    run_before_start,
    run_own_chance,
    run_perft,
    run_twice,
    wants_before_start,
)
from .checks import Progress, Run, reaching, run_scenarios, run_traces
from .expectations import Expectation, apply_expectations, check_expectations, load_expect_fail
from .explore import KIND as EXPLORE, check_name, not_run_after_break, run_exploration
from .selection import check_selection, every_scenario, every_trace, select_scenarios, select_traces, under_profiles
from .settings import VerifySettings


def verify(build: Build | str, settings: VerifySettings = VerifySettings(), progress: Progress | None = None) -> Report:
    """Check ``build`` (or the build a command names, given the settings' timeout) as ``settings`` say;
    ``progress`` hears of every check as it ends.

    ``jobs``: the checks are spread over that many worker processes, each with build processes of its own, and
    the report is the one a single job gives (refimpl/verify/shards.py says where it may differ: --fail-fast,
    --max-time, a build that keeps breaking).

    ``fail_fast`` stops at the first check that fails or breaks, ``max_time`` after that many seconds;
    a build that breaks the same way on BREAK_STREAK checks in a row is not started again. What did
    not run is in the report as not run, with the reason. With ``transcripts``, every failing or broken
    trace and scenario keeps its raw protocol exchanges (``Check.transcript``). Ctrl-C (KeyboardInterrupt) and
    SIGTERM (processes.Terminated) end the run: the report holds what ran and says so. Raises TraceError,
    BadChecks or VerifyError for bad input, before any build is started.

    ``profiles``: the builder's own chosen values (refimpl/rulebook/profiles.py); the reference plays those games
    under them. A trace the reference passes under the default values but not under the profile depends on a
    value the profile changes: it is judged by the reference's answers under the profile alone (its written
    expectations set aside); one whose start the profile makes impossible, and a scenario the reference fails
    under the profile, are not run, with the reason.
    """
    build = as_build(build, settings.timeout)
    check_selection(settings)
    expected = load_expect_fail(settings.expect_fail) if settings.expect_fail else []
    selected = select_traces(settings)
    chosen = select_scenarios(settings)
    if expected:
        check_expectations(expected, every_trace(settings), every_scenario(settings))
    report = Report(build.command)
    report.level = build.level
    mine = by_game(list(settings.profiles))
    report.profiles = [p.summary() for p in mine.values()]
    with using(mine):
        return _verify(build, report, settings, selected, chosen, expected, mine, progress)


def HANDOFF() -> bool:  # noqa: N802 - a switch, named as one
    """Whether the scenarios hand their build process on to the exploration (a speed path: a build slow to start,
    a web page, starts once less; the report is the same, tests/test_verify.py). ``REFIMPL_NO_HANDOFF=1``: off."""
    return os.environ.get("REFIMPL_NO_HANDOFF", "") in ("", "0")


def _run_in_order(build: Build, run: Run, selected: list[Trace], chosen: list[Scenario]) -> None:
    """One job: the traces, the checks between (twice, before any start, perft, own chance), the scenarios, the
    exploration."""
    report, s = run.report, run.settings
    with reaching(report, "traces", s.coverage):
        run_traces(build, selected, run)
    with reaching(report, "between", s.coverage):
        _between(build, run, selected)
    kept = None
    exploring = bool(s.explore)
    if s.scenarios and not run.stop_reason():
        with reaching(report, "scenarios", s.coverage):
            kept = run_scenarios(build, chosen, run, keep=exploring and HANDOFF())  # one build process for both
    if exploring and not run.stop_reason() and report.broke_at_start is None:
        with reaching(report, "explore", s.coverage):
            run_exploration(build, run, driver=kept)
    elif kept is not None:
        kept.close()


def _between(build: Build, run: Run, selected: list[Trace]) -> None:
    """The checks between the traces and the scenarios: twice, before any start, perft, own chance."""
    report, s = run.report, run.settings
    if s.twice and not run.stop_reason():
        run_twice(build, selected, run)
    if not run.stop_reason() and report.broke_at_start is None and wants_before_start(s):
        run_before_start(build, run)
    if s.perft_depth > 0:
        run_perft(build, run)
    if s.own_chance and not run.stop_reason():
        if not selected and report.broke_at_start is None:  # no trace read the build's hello
            report.explicit_chance = declares_explicit_chance(build)
        if report.explicit_chance:
            run_own_chance(build, run)


def list_unreached(report: Report, s: VerifySettings, selected: list[Trace], chosen: list[Scenario]) -> None:
    """After a run that stopped early (``--max-time``, ``--fail-fast``, an interrupt): every selected trace and
    scenario the run did not reach, and the exploration of each game and ruleset the traces play, listed as not
    run with the reason, so that every report counts every selected check (issue 43)."""
    if not report.stopped or report.broke_at_start is not None:  # a build that never started: nothing was run
        return
    reason = f"not run: {report.stopped}"
    seen = {(c.kind, c.name, c.ruleset) for c in report.checks}
    for t in selected:
        if ("trace", f"{t.game}/{t.name}", t.ruleset) not in seen:
            report.checks.append(Check("trace", t.game, f"{t.game}/{t.name}", t.rules, Status.NOT_RUN, reason,
                                       t.ruleset))
    for sc in chosen if s.scenarios else ():
        if ("scenario", sc.check_name, None) not in seen:
            report.checks.append(Check("scenario", sc.game, sc.check_name, sc.rules, Status.NOT_RUN, reason,
                                       file=sc.file, line=sc.line))
    explored = {c.game for c in report.checks if c.kind == EXPLORE}
    broke = not_run_after_break(report.checks)  # an earlier check broke: the exploration's own wording
    if s.explore and broke is not None:
        report.checks += [c for c in broke if c.game not in explored]
    elif s.explore:
        for game, ruleset in sorted({(t.game, t.ruleset or GAMES[t.game].info.default_ruleset)
                                     for t in selected if t.game in GAMES and t.game not in explored}):
            report.checks.append(Check(EXPLORE, game, check_name(game, ruleset), (), Status.NOT_RUN, reason,
                                       ruleset))


def _verify(build: Build, report: Report, settings: VerifySettings, selected: list[Trace], chosen: list[Scenario],
            expected: list[Expectation], mine: dict[str, Profile], progress: Progress | None) -> Report:
    """verify's run, with the reference already under the profiles ``mine``."""
    from ..harness.processes import Terminated, acknowledge

    s = settings
    deadline = None if s.max_time is None else time.monotonic() + s.max_time
    run = Run(report, s, deadline, progress, len(selected) + len(chosen) * s.scenarios)
    if mine:
        selected, chosen = under_profiles(selected, chosen, mine, run)
    try:
        if s.jobs > 1:
            from . import shards

            shards.run_sharded(build, run, selected, chosen)
        else:
            _run_in_order(build, run, selected, chosen)
    except KeyboardInterrupt as exc:
        acknowledge()  # reported from here on, not raised again
        report.interrupted = "SIGTERM" if isinstance(exc, Terminated) else "Ctrl-C"
        report.stopped = f"interrupted ({report.interrupted})"
    list_unreached(report, s, selected, chosen)
    if not selected and report.checks and not report.interrupted:
        report.explicit_chance = declares_explicit_chance(build)  # no trace run read its hello
    if report.explicit_chance:
        # The streams' rules are not claimed by the traces and scenarios for such a build: its own chance is
        # judged by the checks of kind chance alone, which keep them (what the seed promises, harness/seeds.py).
        report.checks = [c if c.kind == "chance" else replace(c, rules=tuple(r for r in c.rules
                                                                             if r not in STREAM_RULES))
                         for c in report.checks]
        judged_rules = {r for c in report.checks if c.kind == "chance" for r in c.rules}
        shown = sorted({r for c in report.checks if c.game in GAMES for r in GAMES[c.game].info.stream_rules}
                       - judged_rules)
        judged = sorted({c.name for c in report.checks if c.kind == "chance"})
        report.warnings.append("the build draws chance from its own random source (explicit-chance): the traces "
                               "gave it every chance outcome"
                               + (f"; its own outcomes were judged as the rules allow them and, where they are "
                                  f"counted, distributed ({', '.join(judged)})" if judged else "")
                               + (f"; {', '.join(shown)} (only the seeded streams show them) were not run"
                                  if shown else ""))
    report.checks, warnings = apply_expectations(report.checks, expected)
    report.warnings += warnings
    return report
