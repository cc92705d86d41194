"""A fuzz run (``refimpl fuzz``): its campaigns (one, or ``--jobs N`` of them in processes or on a cluster), the
report, and the finding concluded. The smallest finding is judged once more the way ``verify`` judges a trace
(legal lists after every step), its set-up pruned, written as a trace, and replayed through the ordinary replay
path to check it shows the same mismatch."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ...games import GAMES
from ...harness.driver import BuildBroke, DriverError, ReferenceDriver
from ...harness.executor import run_jobs
from ...harness.processes import acknowledge, check_stop
from ...harness.protocol import Build, ProtocolDriver, as_build
from ...harness.replay import replay_all
from ...harness.trace import TraceError
from ...harness.tracefile import dump_trace, load_trace
from ...rulebook.profiles import using
from ...status import Status
from ...util.files import write_file
from .campaign import CampaignJob, CampaignResult, Finding, FuzzSettings, run_campaign
from .cases import Case
from .judge import Divergence, Judged, explain, judge
from .reproducer import SetupPruner, reproducer, same_divergence


@dataclass
class FuzzReport:
    settings: FuzzSettings
    ruleset: str  # the finding's, or the first of ``rulesets``
    build: str = ""
    campaigns: list[CampaignResult] = field(default_factory=list)
    rulesets: tuple[str, ...] = ()  # the rulesets the cases took in turn
    finding: Finding | None = None
    divergence: Divergence | None = None
    explanation: list[str] = field(default_factory=list)
    trace_path: str | None = None
    replays: str = ""  # what replaying the reproducer through verify's path showed
    interrupted: str | None = None  # SIGINT or SIGTERM ended the run; what was found so far is written

    def rate(self) -> dict[str, float]:
        """Cases and requests a second of search, over the campaigns, and the share of the time that went to
        shrinking and confirming a finding."""
        search = max(sum(c.search_seconds for c in self.campaigns), 1e-3)  # a finding at once: not a rate of 1e10
        total = max(sum(c.seconds for c in self.campaigns), search)
        cases = sum(c.cases if c.search_cases is None else c.search_cases for c in self.campaigns)
        requests = sum(c.requests if c.search_requests is None else c.search_requests for c in self.campaigns)
        return {"cases_per_second": round(cases / search, 1),
                "requests_per_second": round(requests / search, 1),
                "shrink_share": round(max(0.0, total - search) / total, 3)}

    @property
    def cases(self) -> int:
        return sum(c.cases for c in self.campaigns)

    @property
    def requests(self) -> int:
        return sum(c.requests for c in self.campaigns)

    def json(self) -> dict[str, Any]:
        """The report for machines (schema: refimpl/schemas/output/fuzz.schema.json), safe for strict JSON.
        ``request``, ``expected``, ``actual`` and a campaign's ``case`` are the protocol's values as sent."""
        from ...reports.safetext import json_safe

        def finding(f: Finding | None, case: bool = False) -> dict[str, Any] | None:
            if f is None:
                return None
            out = {"kind": f.kind, "steps": f.steps(), "first_steps": f.first_steps, "found_after": f.found_after,
                   "shrink_seconds": f.shrink_seconds, "shrink_cut": f.shrink_cut, "cause": f.cause,
                   "stderr": f.stderr}
            return {**out, "case": f.case} if case else out

        from ...suite import identity

        d = self.divergence
        return json_safe({
            "kit": identity(),
            "profile": None if self.settings.profile is None else self.settings.profile.summary(),
            "game": self.settings.game, "ruleset": self.ruleset, "rulesets": list(self.rulesets or (self.ruleset,)),
            "build": self.build,
            "settings": {k: v for k, v in asdict(self.settings).items() if k != "profile"},
            "cases": self.cases, "requests": self.requests,
            "campaigns": [{"job": c.job, "seed": c.seed, "cases": c.cases, "requests": c.requests,
                           "seconds": c.seconds, "search_seconds": c.search_seconds, "timed_out": c.timed_out,
                           "finding": finding(c.finding, case=True)}
                          for c in self.campaigns],
            "rate": self.rate(),
            "finding": finding(self.finding),
            "divergence": None if d is None else {"step": d.step, "request": d.request, "headline": d.headline,
                                                  "path": d.difference.path,
                                                  "expected": _plain(d.difference.expected),
                                                  "actual": _plain(d.difference.actual)},
            "explanation": self.explanation, "reproducer": self.trace_path, "replays": self.replays,
            "interrupted": self.interrupted})


def _plain(value: Any) -> Any:
    import json

    try:
        json.dumps(value)
        return value
    except (TypeError, ValueError):
        return repr(value)


def fuzz(build: Build | str, settings_: FuzzSettings, out: str | Path = "fuzz-out",
         progress: Callable[[str], None] | None = None, cluster: str | None = None) -> FuzzReport:
    """Fuzz ``build`` (or the build a command names, given the settings' timeout); the campaigns run in local
    processes, or on the Dask cluster at ``cluster`` (each worker starts the build itself). Raises DriverError
    when it does not declare the game and ruleset, BuildBroke when it breaks before any case runs (at its start
    or ``hello``), ExecutorError when the cluster cannot run the campaigns. The reference plays under the
    settings' profile."""
    profile = settings_.profile
    with using({profile.game: profile} if profile is not None else None):
        return _fuzz(as_build(build, settings_.timeout), settings_, out, progress, cluster)


def _fuzz(build: Build, settings_: FuzzSettings, out: str | Path, progress: Callable[[str], None] | None,
          cluster: str | None) -> FuzzReport:
    s = settings_
    engine = GAMES[s.game]
    ruleset = s.ruleset or engine.info.default_ruleset
    report = FuzzReport(s, ruleset)
    driver = build.start()
    try:
        report.build = f"{driver.name} {driver.version}".strip()
        if not driver.supports(s.game, ruleset):
            raise DriverError("unsupported", f"{report.build} does not declare {s.game} {ruleset}")
        # Without --ruleset the cases take every ruleset the build declares in turn (the default's first), so a
        # misreading that only one ruleset shows is found without asking for it.
        rulesets = (ruleset,) if s.ruleset else tuple(
            [ruleset] + [r for r in engine.info.rulesets if r != ruleset and driver.supports(s.game, r)])
        report.rulesets = rulesets
        jobs = [CampaignJob(build, s, ruleset, i, rulesets) for i in range(max(1, s.jobs))]
        if len(jobs) == 1 and not cluster:
            report.campaigns = [run_campaign(jobs[0], driver, progress)]
        else:
            done: list[CampaignResult] = []
            try:
                for _, r in run_jobs(run_campaign, jobs, len(jobs), cluster):
                    done.append(r)
                    if progress is not None:
                        progress(f"campaign {r.job} done ({len(done)}/{len(jobs)}): {r.cases} cases"
                                 + (f", found: {r.finding.kind}" if r.finding is not None else ""))
            except KeyboardInterrupt:
                if not any(r.finding is not None for r in done):
                    raise
                report.interrupted = acknowledge() or "SIGINT"  # the campaigns done found something: write it
            report.campaigns = sorted(done, key=lambda r: r.job)
        report.interrupted = report.interrupted or next((c.interrupted for c in report.campaigns if c.interrupted),
                                                        None)
        found = [c for c in report.campaigns if c.finding is not None]
        if found:
            # ignore: found holds campaigns with a finding
            best = min(found, key=lambda c: (Case.from_json(c.finding.case).size(), c.job))  # type: ignore[union-attr]
            report.finding = best.finding
            report.ruleset = str(best.finding.case["ruleset"])  # type: ignore[union-attr]
            conclude(report, driver, build, Path(out))
    finally:
        driver.close()
    return report


def reproducer_path(out: str | Path, game: str, ruleset: str, seed: int) -> Path:
    """Where the reproducer goes: ``out`` itself when it names a YAML file (ends with .yaml or .yml and is
    not a folder already there), else ``GAME-RULESET-seedSEED.yaml`` in the folder ``out``."""
    out = Path(out)
    if out.suffix.lower() in (".yaml", ".yml") and not out.is_dir():
        return out
    return out / f"{game}-{ruleset}-seed{seed}.yaml"


def _prune(report: FuzzReport, judged: Judged, driver: ProtocolDriver, build: Build,
           started: list[ProtocolDriver]) -> tuple[Judged, list[str]]:
    """The divergence ``judged`` with its set-up pruned on the build (reproducer.SetupPruner), within what
    shrinking left of --shrink-time; a build that breaks on a try is started afresh (into ``started``)."""
    s, finding = report.settings, report.finding
    assert finding is not None and judged.divergence is not None
    first = judged.divergence
    deadline = time.monotonic() + max(0.0, s.shrink_time - finding.shrink_seconds)
    running = [driver]

    def diverges(case: Case) -> Judged | None:
        check_stop()
        try:
            if not running[0].alive:
                running[0] = build.start()
                started.append(running[0])
            again = judge(case, running[0], "legal" in running[0].capabilities, full=True)
        except BuildBroke:
            running[0].close()
            return None
        return again if same_divergence(again.divergence, first) else None

    pruner = SetupPruner(judged, diverges, lambda: time.monotonic() < deadline)
    try:
        pruner.run()
    except KeyboardInterrupt:
        report.interrupted = acknowledge() or "SIGINT"  # keep what was pruned so far; it is written, unreplayed
    return pruner.judged, pruner.dropped


def conclude(report: FuzzReport, driver: ProtocolDriver, build: Build, out: Path) -> None:
    """Judge the finding as verify will, prune a divergence's set-up, write it as a trace (to ``out``: a
    .yaml/.yml file, or a folder) and replay that trace to confirm it."""
    started: list[ProtocolDriver] = []
    try:
        _conclude_with(report, driver, build, out, started)
    finally:
        for process in started:
            process.close()


def _conclude_with(report: FuzzReport, driver: ProtocolDriver, build: Build, out: Path,
                   started: list[ProtocolDriver]) -> None:
    finding = report.finding
    assert finding is not None
    s = report.settings
    case = Case.from_json(finding.case)
    title = {Status.DIVERGES: "fuzz reproducer", Status.BROKE: "fuzz reproducer: the build broke",
             Status.NONDETERMINISTIC: "fuzz reproducer: answers differ between two runs"}[finding.kind]
    judged: Judged | None = None
    if finding.kind == Status.DIVERGES and report.interrupted is None:
        if not driver.alive:
            driver = build.start()
            started.append(driver)
        try:
            judged = judge(case, driver, "legal" in driver.capabilities, full=True)
        except BuildBroke as exc:
            finding.kind, finding.cause = Status.BROKE, f"{exc.cause}: {exc.message}"
        if judged is not None and judged.divergence is None:
            judged = judge(case, driver, "legal" in driver.capabilities)
        if judged is not None and judged.divergence is not None:
            div = judged.divergence
            case = case.with_steps(case.steps[:div.step])
            judged = judge(case, driver, "legal" in driver.capabilities, full=True)
    dropped: list[str] = []
    if judged is not None and judged.divergence is not None and finding.kind == Status.DIVERGES:
        judged, dropped = _prune(report, judged, driver, build, started)
        case = judged.case
    if judged is None or judged.divergence is None:
        judged = judge(case, ReferenceDriver(), True, full=True)  # the reference's answers, for the trace
        if finding.kind == Status.DIVERGES and report.interrupted is None:
            report.replays = "the finding did not diverge again: the build answers differently from run to run"
            finding.kind = Status.NONDETERMINISTIC
    report.divergence = judged.divergence
    if judged.divergence is not None:
        title = f"fuzz reproducer: {judged.divergence.difference}"
        report.explanation = explain(judged.divergence, s.game)
    description = (f"Found by refimpl fuzz --game {s.game} --seed {s.seed}"
                   + (f" --jobs {s.jobs}" if s.jobs > 1 else "")
                   + f", shrunk from {finding.first_steps} to {len(case.steps)} "
                   f"steps. Expectations are the reference's whole answers.")
    if dropped:
        description += f" The set-up was pruned of what the divergence does not need: {', '.join(dropped)}."
    if finding.kind == Status.BROKE:
        description += f" The build broke on it: {finding.cause}."
    doc = reproducer(judged, title[:200], description)
    path = reproducer_path(out, s.game, report.ruleset, s.seed)
    write_file(path, dump_trace(doc).encode("utf-8"))
    report.trace_path = str(path)
    finding.case = case.json()
    if report.interrupted is not None:
        report.replays = f"not replayed: the run was interrupted ({report.interrupted})"
        return
    if judged.divergence is not None or finding.kind == Status.BROKE:
        report.replays = _replays(path, build, s, judged.divergence, finding)


def _replays(path: Path, build: Build, s: FuzzSettings, div: Divergence | None, finding: Finding) -> str:
    """Replay the written trace on a fresh build as ``verify --traces`` does, and say whether it shows the
    same mismatch (or breaks the build the same way). Raises RuntimeError (a bug of the kit, exit 4) when the
    trace the kit wrote is not a valid one."""
    try:
        trace = load_trace(path)
    except TraceError as exc:
        raise RuntimeError(f"the reproducer the kit wrote is not a valid trace: {exc}") from exc
    try:
        driver = build.start()
    except BuildBroke as exc:
        return f"the build broke at its start when replaying: {exc}"
    try:
        (result,) = list(replay_all([trace], driver, oracle=ReferenceDriver()))
    except BuildBroke as exc:
        same = finding.kind == Status.BROKE and finding.cause.split(":")[0] == exc.cause
        return "replays to the same fault" if same else f"replaying it broke the build: {exc}"
    finally:
        driver.close()
    if div is None:
        return "did not break a fresh build: the fault builds up over several games"
    failure = result.failure
    if failure is None:  # the build diverged only after what earlier games of the session left in it
        return ("conforms when replayed on a fresh build: the divergence needs what the build kept from the "
                "session's earlier games (a build that carries state from one game to the next); fuzz found it "
                "after them")
    said = failure.difference
    if said is not None and said.path == div.difference.path:
        return "replays to the same mismatch"
    return f"replays to another mismatch: {said}"
