"""``refimpl fuzz``: campaigns of random cases against a build and the reference, and the report.

A campaign draws cases with Hypothesis (``find`` over ``st.data()``), sends each to the build in one
batch, and judges every answer against the reference. The first failure (a divergence, or the build
crashing or hanging) is shrunk, by Hypothesis and then by the passes in ``shrink.py``, inside a time
budget. ``--jobs N`` runs N campaigns with seeds derived from ``--seed`` in N processes and keeps the
smallest finding (ties: the lowest job), so the same seed and job count give the same result. The
finding is judged once more the way ``verify`` judges a trace (legal lists after every step), written
as a trace, and replayed through the ordinary replay path to check it shows the same mismatch.
"""

from __future__ import annotations

import gc
import random
import time
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from hypothesis import HealthCheck, Phase, find, settings
from hypothesis import strategies as st
from hypothesis.errors import HypothesisException

from ...harness.driver import BuildBroke, DriverError, ReferenceDriver
from ...harness.executor import run_jobs
from ...games import GAMES
from ...harness.protocol import DEFAULT_TIMEOUT, ProtocolDriver
from ...harness.replay import replay_all
from ...util.files import write_file
from ...harness.processes import acknowledge, check_stop
from ...rulebook.profiles import Profile, using
from ...harness.tracefile import dump_trace, load_trace
from .cases import Case, CaseDraw, CaseShape, Request
from .draw import Draw, same_draws_everywhere
from .judge import Divergence, Judged, explain, judge, judge_drawn
from .reproducer import SetupPruner, reproducer, same_divergence
from .shrink import Shrinker

DIVERGES, BROKE, NONDETERMINISTIC = "diverges", "broke", "nondeterministic"
# Hypothesis's shrinking stops after this many tries in a row that do not make the case smaller (a count, not
# a time, so the same seed shrinks the same way); the passes in ``shrink.py`` take it from there.
STALE_SHRINKS = 40
# While shrinking a hang, a request gets this long (or --timeout, if shorter): each try that still hangs costs
# it. The reproducer is replayed with the full --timeout afterwards.
HANG_SHRINK_TIMEOUT = 1.0


DEFAULT_BUDGET = 30.0  # seconds of search per campaign when no count of cases is given
ROUND = 1000  # cases in one Hypothesis search; a time-bound campaign runs rounds until its budget is spent


@dataclass(frozen=True)
class FuzzSettings:
    """Everything that decides a fuzz run (the same settings give the same run)."""

    game: str
    ruleset: str | None = None
    examples: int | None = None  # cases per campaign before it gives up (None: search for ``budget`` seconds)
    seed: int = 0
    max_steps: int | None = None  # longest case, in requests after the start (default: the game's length)
    shrink_time: float = 20.0  # seconds to shrink a finding
    max_time: float | None = None  # seconds a campaign may search (None: DEFAULT_BUDGET, or until ``examples``)
    timeout: float = DEFAULT_TIMEOUT
    twice: bool = False  # send every case twice and compare the answers
    jobs: int = 1
    profile: Profile | None = None  # the builder's chosen values: the reference plays the game under them

    @property
    def budget(self) -> float | None:
        """Seconds a campaign searches: ``max_time``, else DEFAULT_BUDGET unless a count of ``examples`` is
        given (then None: the count ends it)."""
        if self.max_time is not None:
            return self.max_time
        return DEFAULT_BUDGET if self.examples is None else None

    def job_seed(self, job: int) -> int:
        """Job 0 runs ``seed`` itself, so one job and the first of several agree."""
        return self.seed if job == 0 else random.Random(f"{self.seed}/{job}").getrandbits(48)


@dataclass
class Finding:
    kind: str  # diverges | broke | nondeterministic
    case: dict[str, Any]  # Case.json(), shrunk
    found_after: float  # seconds from the campaign's start
    first_steps: int  # steps of the case as first found
    shrink_seconds: float = 0.0
    shrink_cut: bool = False  # the time budget stopped shrinking early
    cause: str = ""  # for broke: the build's fault (crashed, hung, ...) and message
    stderr: str = ""

    def steps(self) -> int:
        return len(self.case["steps"])


@dataclass
class CampaignResult:
    job: int
    seed: int
    cases: int = 0
    requests: int = 0
    seconds: float = 0.0
    finding: Finding | None = None
    timed_out: bool = False  # the time budget ended the search
    search_seconds: float = 0.0  # of ``seconds``, the search (the rest: shrinking and confirming a finding)
    interrupted: str | None = None  # SIGINT or SIGTERM stopped the campaign (its finding, if any, is kept)


@contextmanager
def quiet_gc() -> Iterator[None]:
    """No automatic garbage collection inside the block (one case, drawn and judged), and one at its end when
    it is due. A case makes and drops tens of thousands of containers (views, lists of legal actions), almost
    none in a cycle, and the collections they set off rescan everything the campaign holds (Hypothesis's
    records of every case so far): half the fuzzer's time on a long game."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def joined(cases: list[Case]) -> Case:
    """Several cases as one: the first, then each other's start as a ``start`` request and its steps."""
    first, steps = cases[0], list(cases[0].steps)
    for case in cases[1:]:
        steps.append(Request("start", {"ruleset": case.ruleset, "seed": case.seed, "setup": case.setup}))
        steps += case.steps
    return first.with_steps(steps)


@dataclass(frozen=True)
class CampaignJob:
    command: str
    settings: FuzzSettings
    ruleset: str
    job: int


PROGRESS_EVERY = 25  # cases between two progress lines


def run_campaign(job: CampaignJob, driver: ProtocolDriver | None = None,
                 progress: Callable[[str], None] | None = None) -> CampaignResult:
    """One campaign: search, then shrink the first finding, with the reference under the settings' profile
    (a campaign may run in another process). Never raises for the build's faults. ``progress`` hears a line
    every PROGRESS_EVERY cases and when something is found."""
    profile = job.settings.profile
    with using({profile.game: profile} if profile is not None else None):
        return _campaign(job, driver, progress)


def _campaign(job: CampaignJob, driver: ProtocolDriver | None,
              progress: Callable[[str], None] | None) -> CampaignResult:
    s = job.settings
    engine = GAMES[s.game]
    seed = s.job_seed(job.job)
    result = CampaignResult(job.job, seed)
    shape = CaseShape(max_steps=s.max_steps or engine.info.typical_length, depth=engine.info.typical_length // 2)
    budget = s.budget
    started = time.monotonic()
    build: list[ProtocolDriver | None] = [driver]
    found: dict[str, Any] = {}  # kind, case, at (seconds), first_steps
    broke: dict[str, tuple[str, str]] = {}  # cause: (the build's fault, its stderr) the first time it broke

    history: list[Case] = []  # the cases the running build process has been sent, oldest first

    def connect() -> ProtocolDriver:
        if build[0] is None or not build[0].alive:
            history.clear()
            if build[0] is not None:
                build[0].close()
            timeout = s.timeout
            if broke.get("cause", ("",))[0].startswith("hung"):
                timeout = min(timeout, HANG_SHRINK_TIMEOUT)  # shrinking a hang: every case that hangs waits
            build[0] = ProtocolDriver(job.command, timeout)
        return build[0]

    def run(case: Case | CaseDraw) -> tuple[str | None, int]:
        """(what went wrong, the step it went wrong at) for one case, or for one being drawn (it is drawn as
        it is judged)."""
        drawn = case if isinstance(case, CaseDraw) else None
        try:
            if found.get("kind") == BROKE and build[0] is not None:
                build[0].close()  # a fault that builds up over many cases: each shrink step starts afresh
                build[0] = None
            target = connect()
            if drawn is None:
                history.append(case)
                judged = judge(case, target, "legal" in target.capabilities)
            else:
                try:
                    judged = judge_drawn(drawn, target, "legal" in target.capabilities)
                finally:
                    history.append(drawn.sent())  # what the build was sent of it
                case = judged.case
        except BuildBroke as exc:
            if drawn is not None:
                case = drawn.case()  # drawn whole all the same
            result.cases += 1
            broke.setdefault("cause", (f"{exc.cause}: {exc.message}", exc.stderr_tail))
            if build[0] is not None:
                build[0].close()
                build[0] = None
            step = getattr(exc, "step", len(case.steps))
            if not found and len(history) > 1:
                # The build broke after earlier cases too: the finding is all of them in one, so a fresh
                # build breaks on it as well; shrinking drops what it does not need.
                whole = joined(history)
                broken_by[0] = whole
                step += len(whole.steps) - len(case.steps)
            history.clear()
            return BROKE, step
        result.cases += 1
        result.requests += len(judged.probes)
        if progress is not None and not found and result.cases % PROGRESS_EVERY == 0:
            progress(f"{result.cases}{f'/{s.examples}' if s.examples else ''} cases, {result.requests} requests, "
                     f"{time.monotonic() - started:.0f} s")
        if judged.divergence is not None:
            return DIVERGES, judged.divergence.step
        if s.twice:
            again = list(target.batch([p.op for p in judged.probes]))
            if again != judged.outcomes:
                return NONDETERMINISTIC, len(case.steps)
        return None, 0

    def cut(case: Case, step: int, kind: str) -> Case:
        return case.with_steps(case.steps[:step]) if kind in (DIVERGES, BROKE) else case

    broken_by: list[Case | None] = [None]  # the joined case when the build broke after several
    hypothesis_until = [float("inf")]
    hypothesis_cut = [False]

    since_improved = [0]

    def fails(data: Any) -> bool:
        now = time.monotonic()
        if found:
            since_improved[0] += 1
            if since_improved[0] > STALE_SHRINKS:
                return False  # Hypothesis has not made the case smaller for a while: on to the passes
        if now > hypothesis_until[0]:
            hypothesis_cut[0] = True
            return False
        if budget is not None and not found and now - started > budget:
            result.timed_out = True
            return False
        with quiet_gc():
            drawn = CaseDraw(Draw(data), s.game, job.ruleset, shape)
            broken_by[0] = None
            # While searching, the case goes to the build as it is drawn. While shrinking, it is drawn whole
            # first: Hypothesis may end a shrunk case midway, and then the build must not have been sent it.
            kind, step = run(drawn if not found else drawn.case())
        case = drawn.case()
        if kind is None or (found and kind != found["kind"]):
            return False
        case = cut(broken_by[0] or case, step, kind)
        if not found:
            found.update(kind=kind, case=case, at=now - started, first_steps=len(case.steps))
            if progress is not None:
                progress(f"{kind} after {result.cases} cases ({now - started:.1f} s); shrinking a "
                         f"{len(case.steps)}-step case")
            hypothesis_until[0] = time.monotonic() + s.shrink_time * 0.5
        elif case.size() < found["case"].size():
            found["case"] = case
            since_improved[0] = 0
        return True

    config = settings(max_examples=s.examples or ROUND, database=None, deadline=None, derandomize=False,
                      suppress_health_check=list(HealthCheck), phases=[Phase.generate, Phase.shrink],
                      report_multiple_bugs=False)
    shrinker: Shrinker | None = None
    try:
        rounds = 0
        while True:  # one search for a count of cases; rounds of ROUND cases until a time budget is spent
            try:
                with same_draws_everywhere():
                    find(st.data(), fails, settings=config,
                         random=random.Random(seed if rounds == 0 else f"{seed}/{rounds}"))
            except HypothesisException:
                pass  # NoSuchExample, or Hypothesis giving up: the smallest finding, if any, is in ``found``
            rounds += 1
            if found or s.examples is not None or result.timed_out or budget is None:
                break
        result.search_seconds = round(found["at"] if found else time.monotonic() - started, 3)
        check_stop()  # a signal whose exception Hypothesis's callbacks swallowed
        if found:
            def check(case: Case) -> int | None:
                check_stop()
                with quiet_gc():
                    kind, step = run(case)
                return step if kind == found["kind"] else None

            shrinker = Shrinker(check, found["at"] + started + s.shrink_time)
            found["case"] = shrinker.run(found["case"])
    except KeyboardInterrupt:
        if not found:
            raise
        result.interrupted = acknowledge() or "SIGINT"  # keep what was found: it is written, unconfirmed
        if shrinker is not None and shrinker.best is not None:
            found["case"] = shrinker.best
    finally:
        if build[0] is not None and build[0] is not driver:  # ours: started here, or in place of a dead one
            build[0].close()
    if found:
        cause, stderr = broke.get("cause", ("", "")) if found["kind"] == BROKE else ("", "")
        cut = result.interrupted is not None or (shrinker is not None and shrinker.cut) or hypothesis_cut[0]
        result.finding = Finding(found["kind"], found["case"].json(), round(found["at"], 3), found["first_steps"],
                                 round(time.monotonic() - started - found["at"], 3), cut, cause, stderr)
    result.seconds = round(time.monotonic() - started, 3)
    return result


@dataclass
class FuzzReport:
    settings: FuzzSettings
    ruleset: str
    build: str = ""
    campaigns: list[CampaignResult] = field(default_factory=list)
    finding: Finding | None = None
    divergence: Divergence | None = None
    explanation: list[str] = field(default_factory=list)
    trace_path: str | None = None
    replays: str = ""  # what replaying the reproducer through verify's path showed
    interrupted: str | None = None  # SIGINT or SIGTERM ended the run; what was found so far is written

    def rate(self) -> dict[str, float]:
        """Cases and requests a second of search, over the campaigns, and the share of the time that went to
        shrinking and confirming a finding."""
        search = sum(c.search_seconds for c in self.campaigns) or 1e-9
        total = sum(c.seconds for c in self.campaigns) or 1e-9
        return {"cases_per_second": round(self.cases / search, 1), "requests_per_second": round(self.requests / search, 1),
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
            "game": self.settings.game, "ruleset": self.ruleset, "build": self.build,
            "settings": {k: v for k, v in asdict(self.settings).items() if k != "profile"}, "cases": self.cases, "requests": self.requests,
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


def fuzz(command: str, settings_: FuzzSettings, out: str | Path = "fuzz-out",
         progress: Callable[[str], None] | None = None, cluster: str | None = None) -> FuzzReport:
    """Fuzz the build started by ``command``; the campaigns run in local processes, or on the Dask cluster
    at ``cluster`` (each worker starts the build itself). Raises DriverError when it does not declare the
    game and ruleset, BuildBroke when it breaks before any case runs (at its start or ``hello``),
    ExecutorError when the cluster cannot run the campaigns. The reference plays under the settings' profile."""
    profile = settings_.profile
    with using({profile.game: profile} if profile is not None else None):
        return _fuzz(command, settings_, out, progress, cluster)


def _fuzz(command: str, settings_: FuzzSettings, out: str | Path, progress: Callable[[str], None] | None,
          cluster: str | None) -> FuzzReport:
    s = settings_
    engine = GAMES[s.game]
    ruleset = s.ruleset or engine.info.default_ruleset
    report = FuzzReport(s, ruleset)
    driver = ProtocolDriver(command, s.timeout)
    try:
        report.build = f"{driver.name} {driver.version}".strip()
        if not driver.supports(s.game, ruleset):
            raise DriverError("unsupported", f"{report.build} does not declare {s.game} {ruleset}")
        jobs = [CampaignJob(command, s, ruleset, i) for i in range(max(1, s.jobs))]
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
            best = min(found, key=lambda c: (Case.from_json(c.finding.case).size(), c.job))  # type: ignore[union-attr]
            report.finding = best.finding
            _conclude(report, driver, command, Path(out))
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


def _prune(report: FuzzReport, judged: Judged, driver: ProtocolDriver, command: str,
           started: list[ProtocolDriver]) -> tuple[Judged, list[str]]:
    """The divergence ``judged`` with its set-up pruned on the build (reproducer.SetupPruner), within what
    shrinking left of --shrink-time; a build that breaks on a try is started afresh (into ``started``)."""
    s, finding = report.settings, report.finding
    assert finding is not None and judged.divergence is not None
    first = judged.divergence
    deadline = time.monotonic() + max(0.0, s.shrink_time - finding.shrink_seconds)
    build = [driver]

    def diverges(case: Case) -> Judged | None:
        check_stop()
        try:
            if not build[0].alive:
                build[0] = ProtocolDriver(command, s.timeout)
                started.append(build[0])
            again = judge(case, build[0], "legal" in build[0].capabilities, full=True)
        except BuildBroke:
            build[0].close()
            return None
        return again if same_divergence(again.divergence, first) else None

    pruner = SetupPruner(judged, diverges, lambda: time.monotonic() < deadline)
    try:
        pruner.run()
    except KeyboardInterrupt:
        report.interrupted = acknowledge() or "SIGINT"  # keep what was pruned so far; it is written, unreplayed
    return pruner.judged, pruner.dropped


def _conclude(report: FuzzReport, driver: ProtocolDriver, command: str, out: Path) -> None:
    """Judge the finding as verify will, prune a divergence's set-up, write it as a trace (to ``out``: a
    .yaml/.yml file, or a folder) and replay that trace to confirm it."""
    started: list[ProtocolDriver] = []
    try:
        _conclude_with(report, driver, command, out, started)
    finally:
        for build in started:
            build.close()


def _conclude_with(report: FuzzReport, driver: ProtocolDriver, command: str, out: Path,
                   started: list[ProtocolDriver]) -> None:
    finding = report.finding
    assert finding is not None
    s = report.settings
    case = Case.from_json(finding.case)
    title = {DIVERGES: "fuzz reproducer", BROKE: "fuzz reproducer: the build broke",
             NONDETERMINISTIC: "fuzz reproducer: answers differ between two runs"}[finding.kind]
    judged: Judged | None = None
    if finding.kind == DIVERGES and report.interrupted is None:
        if not driver.alive:
            driver = ProtocolDriver(command, s.timeout)
            started.append(driver)
        try:
            judged = judge(case, driver, "legal" in driver.capabilities, full=True)
        except BuildBroke as exc:
            finding.kind, finding.cause = BROKE, f"{exc.cause}: {exc.message}"
        if judged is not None and judged.divergence is None:
            judged = judge(case, driver, "legal" in driver.capabilities)
        if judged is not None and judged.divergence is not None:
            div = judged.divergence
            case = case.with_steps(case.steps[:div.step])
            judged = judge(case, driver, "legal" in driver.capabilities, full=True)
    dropped: list[str] = []
    if judged is not None and judged.divergence is not None and finding.kind == DIVERGES:
        judged, dropped = _prune(report, judged, driver, command, started)
        case = judged.case
    if judged is None or judged.divergence is None:
        judged = judge(case, ReferenceDriver(), True, full=True)  # the reference's answers, for the trace
        if finding.kind == DIVERGES and report.interrupted is None:
            report.replays = "the finding did not diverge again: the build answers differently from run to run"
            finding.kind = NONDETERMINISTIC
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
    if finding.kind == BROKE:
        description += f" The build broke on it: {finding.cause}."
    doc = reproducer(judged, title[:200], description)
    path = reproducer_path(out, s.game, report.ruleset, s.seed)
    write_file(path, dump_trace(doc).encode("utf-8"))
    report.trace_path = str(path)
    finding.case = case.json()
    if report.interrupted is not None:
        report.replays = f"not replayed: the run was interrupted ({report.interrupted})"
        return
    if judged.divergence is not None or finding.kind == BROKE:
        report.replays = _replays(path, command, s, judged.divergence, finding)


def _replays(path: Path, command: str, s: FuzzSettings, div: Divergence | None, finding: Finding) -> str:
    """Replay the written trace on a fresh build as ``verify --traces`` does, and say whether it shows the
    same mismatch (or breaks the build the same way)."""
    trace = load_trace(path)
    try:
        driver = ProtocolDriver(command, s.timeout)
    except BuildBroke as exc:
        return f"the build broke at its start when replaying: {exc}"
    try:
        (result,) = list(replay_all([trace], driver, oracle=ReferenceDriver()))
    except BuildBroke as exc:
        same = finding.kind == BROKE and finding.cause.split(":")[0] == exc.cause
        return "replays to the same fault" if same else f"replaying it broke the build: {exc}"
    finally:
        driver.close()
    if div is None:
        return "did not break a fresh build: the fault builds up over several games"
    failure = result.failure
    if failure is None:
        return "REPLAYS AS CONFORMING (a bug of the kit: please report it)"
    said = failure.difference
    if said is not None and said.path == div.difference.path:
        return "replays to the same mismatch"
    return f"replays to another mismatch: {said}"
