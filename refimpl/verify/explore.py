"""The exploration inside ``verify`` (issue 41): after the traces, the checks between and the scenarios, a seeded
differential search against the reference over every game and ruleset the build declares (under the profile the
builder gave for a game), so that a green verdict does not rest on the paths the traces and scenarios happen to
walk. It is the fuzzer's engine (refimpl/campaigns/fuzz) run for a fixed number of cases from a fixed seed, never
for a time: the same build gets the same verdict on any machine and under any ``--jobs``.

One check a game and ruleset, kind ``explore``: passed with the cases and requests it sent, or failed with the
first divergence shrunk to a reproducer, written as an ordinary trace and replayed through verify's own trace path,
so the failure reads (and is credited) like a trace's. The reproducer's text rides on the check
(``Check.reproducer``), which ``verify --reproducers DIR`` writes out. Shrinking is bounded by SHRINK_TIME: how
small a reproducer gets may differ from machine to machine, whether there is one does not.
"""

from __future__ import annotations

import tempfile
from dataclasses import replace
from pathlib import Path

from ..games import GAMES
from ..harness.driver import BuildBroke, ReferenceDriver
from ..harness.protocol import Build, ProtocolDriver
from ..harness.replay import replay_all
from ..harness.trace import TraceError
from ..harness.tracefile import load_trace
from ..reports.model import Check
from ..rulebook.profiles import by_game
from ..status import Status
from .checks import Run, trace_check
from .settings import VerifySettings

SEED = 41_2026_12  # the exploration's seed in this release of the kit: a new release may draw other cases
# A floor of requests per case of the budget: a game whose cases are short (Beacon Lines, some 16 requests a
# case) plays more cases until it has sent as many requests as a game whose cases are long (Ludo, over 200), so
# every game and ruleset gets a like share of the search, not a like count of cases.
REQUESTS_PER_CASE = 100
SHRINK_TIME = 5.0  # seconds to shrink a finding: bounds the reproducer's size, never the verdict
KIND = "explore"


def targets(driver: ProtocolDriver, run: Run) -> list[tuple[str, str]]:
    """The games and rulesets to explore: every one the build declares that the run selects, in the kit's
    order of games and each game's order of rulesets."""
    s = run.settings
    games, rulesets = s.picked("games"), s.picked("rulesets")
    out = []
    for game, engine in GAMES.items():
        if games is not None and game not in games:
            continue
        for ruleset in engine.info.rulesets:
            if (rulesets is None or ruleset in rulesets) and driver.supports(game, ruleset):
                out.append((game, ruleset))
    return out


def check_name(game: str, ruleset: str) -> str:
    return f"{game}/explore {ruleset}"


def reproducer_name(game: str, ruleset: str) -> str:
    """The reproducer's file name, as reports show it and ``--reproducers`` writes it."""
    return f"explore-{game}-{ruleset}.yaml"


def run_exploration(build: Build, run: Run, only: list[tuple[str, str]] | None = None,
                    driver: ProtocolDriver | None = None) -> None:
    """Explore every target (or ``only`` those) on one build process (``driver``, the scenarios' one handed on,
    else one started), started again after it breaks, one check each, until the run must stop; what is left is
    recorded as not run. ``driver`` is closed at the end either way."""
    cases = run.settings.explore
    skipped = not_run_after_break(run.report.checks) if cases else None
    if not cases or skipped is not None:
        for check in skipped or ():
            run.add(check)
        if driver is not None:
            driver.close()
        return
    try:
        try:
            driver = driver or build.start()
        except BuildBroke as exc:
            if not run.report.checks:
                run.report.broke_at_start = exc
            else:
                run.add(Check(KIND, "", "explore", (), Status.BROKE, str(exc), stderr=exc.stderr_tail), exc.cause)
            return
        todo = targets(driver, run) if only is None else [t for t in only if driver.supports(*t)]
        for game, ruleset in todo:
            if run.stop_reason():
                run.add(Check(KIND, game, check_name(game, ruleset), (), Status.NOT_RUN,
                              f"not run: {run.report.stopped}", ruleset))
                continue
            if not driver.alive:
                driver.close()
                driver = build.start()
            check = explore_one(build, driver, game, ruleset, run)
            run.add(check, check.detail.split(":")[0] if check.status == Status.BROKE else None)
    except BuildBroke as exc:
        run.add(Check(KIND, "", "explore", (), Status.BROKE, str(exc), stderr=exc.stderr_tail), exc.cause)
    finally:
        if driver is not None:
            driver.close()


def not_run_after_break(checks: list[Check]) -> list[Check] | None:
    """The exploration's checks when an earlier check of the run broke (one "not run" a game the run judged):
    the verdict is "the build broke" already, and a search would break it again and again, slowly. None when
    nothing broke."""
    broke = next((c for c in checks if c.status == Status.BROKE and c.kind != KIND), None)
    if broke is None:
        return None
    return [Check(KIND, game, f"{game}/explore", (), Status.NOT_RUN,
                  f"not run: the build broke earlier in this run ({broke.kind} {broke.name})")
            for game in dict.fromkeys(c.game for c in checks if c.game in GAMES)]


def every_target(settings: VerifySettings) -> list[tuple[str, str]]:
    """Every game and ruleset the run selects, whether or not the build declares it (``--jobs`` deals these
    out before any build is started; a worker leaves out what its build does not declare)."""
    games, rulesets = settings.picked("games"), settings.picked("rulesets")
    return [(g, r) for g, engine in GAMES.items() if games is None or g in games
            for r in engine.info.rulesets if rulesets is None or r in rulesets]


def explore_one(build: Build, driver: ProtocolDriver, game: str, ruleset: str, run: Run) -> Check:
    """One game and ruleset explored: ``run.settings.explore`` cases from SEED (more while fewer than
    REQUESTS_PER_CASE requests a case were sent), the first finding shrunk,
    written as a trace and replayed the way verify replays a trace."""
    from ..campaigns.fuzz.campaign import CampaignJob, FuzzSettings, run_campaign
    from ..campaigns.fuzz.run import FuzzReport, conclude

    s = run.settings
    profile = by_game(list(s.profiles)).get(game)
    settings = FuzzSettings(game, ruleset, examples=s.explore, seed=SEED, shrink_time=SHRINK_TIME,
                            timeout=s.timeout, profile=profile, min_requests=s.explore * REQUESTS_PER_CASE)
    name = check_name(game, ruleset)
    result = run_campaign(CampaignJob(build, settings, ruleset, 0), driver)
    said = f"{result.cases} cases, {result.requests} requests (seed {SEED})"
    finding = result.finding
    if finding is None:
        return Check(KIND, game, name, (), Status.PASSED, said, ruleset)
    report = FuzzReport(settings, ruleset, build=f"{driver.name} {driver.version}".strip(), campaigns=[result],
                        finding=finding)
    with tempfile.TemporaryDirectory(prefix="refimpl-explore-") as tmp:
        path = Path(tmp) / reproducer_name(game, ruleset)
        live = driver if driver.alive else build.start()
        try:
            conclude(report, live, build, path)
        finally:
            if live is not driver:
                live.close()
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        check = _replayed(build, path, run) if text else None  # (named after the explored ruleset)
    searched = result.search_cases if result.search_cases is not None else result.cases
    found = (f"found by case {searched} (seed {SEED}); shrunk from {finding.first_steps} to "
             f"{finding.steps()} steps")  # no times: one build, one report, on any machine and any --jobs
    if check is None:
        detail = f"{report.finding.kind if report.finding else finding.kind}: {finding.cause or found}"
        status = Status.BROKE if finding.kind == Status.BROKE else Status.FAILED
        return Check(KIND, game, name, (), status, detail, ruleset, stderr=finding.stderr,
                     file=reproducer_name(game, ruleset), reproducer=text)
    return replace(check, kind=KIND, name=name, detail=f"{check.detail}\n{found}".strip(), reproducer=text,
                   file=reproducer_name(game, ruleset))


def _replayed(build: Build, path: Path, run: Run) -> Check | None:
    """The reproducer replayed on a fresh build with the reference as oracle, as a trace check (None when it
    does not show a difference again: a build that answers otherwise from run to run)."""
    try:
        trace = load_trace(path)
    except TraceError as exc:
        raise RuntimeError(f"the reproducer the kit wrote is not a valid trace: {exc}") from exc
    trace = replace(trace, path=path.name)  # the explored ruleset's file (a case may start another ruleset)
    driver = build.start()
    try:
        (result,) = list(replay_all([trace], driver, oracle=ReferenceDriver()))
    except BuildBroke as exc:
        return Check(KIND, trace.game, "", (), Status.BROKE, str(exc), trace.ruleset, exc.stderr_tail)
    finally:
        driver.close()
    check = trace_check(trace, result)
    return check if check.status == Status.FAILED else None


__all__ = ["SEED", "run_exploration", "targets"]
