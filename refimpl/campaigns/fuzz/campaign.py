"""One fuzz campaign: random cases against a build and the reference, the first finding shrunk.

A campaign draws cases from a seeded generator (``Draw(seed=...)``: each case's numbers from the campaign's
seed), sends each to the build as it is drawn, and judges every answer against the reference. The first failure
(a divergence, or the build crashing or hanging) is shrunk inside a time budget: by Hypothesis (``find`` over
``st.data()``, starting from the numbers the case drew: ``draw.shrink_choices``), then by the passes in
``shrink.py``. Searching without Hypothesis's engine between cases made a short game's request about a third
cheaper (issue 30); Hypothesis still does what it is best at, shrinking. ``--jobs N`` runs N campaigns with
seeds derived from ``--seed`` in N processes and keeps the smallest finding (ties: the lowest job), so the same
seed and job count give the same result (run.py, which also judges, writes and replays the finding).
"""

from __future__ import annotations

import gc
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from ...games import GAMES
from ...harness.chance import is_explicit
from ...harness.driver import BuildBroke
from ...harness.plan import Records
from ...harness.processes import acknowledge, check_stop
from ...harness.protocol import DEFAULT_TIMEOUT, Build, ProtocolDriver
from ...rulebook.profiles import Profile, using
from ...status import Status
from .cases import Case, CaseDraw, CaseShape, CaseStep
from .draw import Draw, same_draws_everywhere, shrink_choices
from .judge import Upcoming, judge, judge_drawn
from .shrink import Shrinker

# Hypothesis's shrinking stops after this many tries in a row that do not make the case smaller (a count, not
# a time, so the same seed shrinks the same way); the passes in ``shrink.py`` take it from there.
STALE_SHRINKS = 40
# While shrinking a hang, a request gets this long (or --timeout, if shorter): each try that still hangs costs
# it. The reproducer is replayed with the full --timeout afterwards.
HANG_SHRINK_TIMEOUT = 1.0


DEFAULT_BUDGET = 30.0  # seconds of search per campaign when no count of cases is given
LONG_FINDING = 10  # steps: a first finding longer than this (cut at its divergence) ...
LOOK_FURTHER = 30  # ... is weighed against this many more cases, the shortest failing one kept
MORE_CASES = 10  # a search with a floor of requests (``min_requests``) runs at most this many times its cases


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
    # with ``examples``: more cases while fewer requests than this were sent (a game whose cases are short gets
    # as many requests as one whose cases are long), at most MORE_CASES times ``examples``
    min_requests: int | None = None

    def searching(self, cases: int, requests: int) -> bool:
        """Whether a search that has judged ``cases`` cases with ``requests`` requests goes on (a time budget,
        checked elsewhere, may end it sooner)."""
        if self.examples is None:
            return True
        if cases < self.examples:
            return True
        return self.min_requests is not None and requests < self.min_requests and cases < self.examples * MORE_CASES

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
    kind: Status  # diverges | broke | nondeterministic
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
    search_cases: int | None = None  # of ``cases`` and ``requests``, the search's (None: all of them)
    search_requests: int | None = None
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
        steps.append(CaseStep("start", {"ruleset": case.ruleset, "seed": case.seed, "setup": case.setup}))
        steps += case.steps
    return first.with_steps(steps)


@dataclass(frozen=True)
class CampaignJob:
    build: Build
    settings: FuzzSettings
    ruleset: str
    job: int
    # The rulesets the cases take in turn, case by case (fuzz without --ruleset: every one the build declares);
    # empty: ``ruleset`` alone.
    rulesets: tuple[str, ...] = ()


PROGRESS_EVERY = 25  # cases between two progress lines


def run_campaign(job: CampaignJob, driver: ProtocolDriver | None = None,
                 progress: Callable[[str], None] | None = None) -> CampaignResult:
    """One campaign: search, then shrink the first finding, with the reference under the settings' profile
    (a campaign may run in another process). Never raises for the build's faults. ``progress`` hears a line
    every PROGRESS_EVERY cases and when something is found."""
    profile = job.settings.profile
    with using({profile.game: profile} if profile is not None else None):
        return Campaign(job, driver, progress).outcome()


class Campaign:
    """One campaign's search and shrink, and what they share: the build (started here unless given, started
    again when it dies), the first finding, and how the build broke the first time. ``run`` judges one case,
    ``attempt`` draws one and runs it, ``search`` and ``shrink`` are the two halves, ``result`` the outcome."""

    def __init__(self, job: CampaignJob, driver: ProtocolDriver | None,
                 progress: Callable[[str], None] | None) -> None:
        s = self.s = job.settings
        self.job, self.given, self.progress = job, driver, progress
        engine = GAMES[s.game]
        self.seed = s.job_seed(job.job)
        self.result = CampaignResult(job.job, self.seed)
        self.shape = CaseShape(max_steps=s.max_steps or engine.info.typical_length,
                               depth=engine.info.typical_length // 2)
        self.started = time.monotonic()
        self.build: ProtocolDriver | None = driver
        self.found: dict[str, Any] = {}  # kind, case, at (seconds), first_steps, choices
        self.broke: dict[str, tuple[str, str]] = {}  # cause: (the build's fault, its stderr) the first time it broke
        self.history: list[Case] = []  # the cases the running build process has been sent, oldest first
        self.broken_by: Case | None = None  # the joined case when the build broke after several
        self.hypothesis_until = float("inf")
        self.hypothesis_cut = False
        self.since_improved = 0
        self.rotation = job.rulesets or (job.ruleset,)
        self.drawn_ahead = 0
        self.current = job.ruleset  # the ruleset of the case being judged (while shrinking: the finding's)
        self.shrinker: Shrinker | None = None

    def connect(self) -> ProtocolDriver:
        """The build, started (again, with an empty history) when there is none or it died."""
        current = self.build
        if current is None or not current.alive:
            self.history.clear()
            if current is not None:
                current.close()
            build = self.job.build
            if self.broke.get("cause", ("",))[0].startswith("hung"):
                build = build.within(HANG_SHRINK_TIMEOUT)  # shrinking a hang: every case that hangs waits
            current = self.build = build.start()
        return current

    def _drop_build(self) -> None:
        if self.build is not None:
            self.build.close()
            self.build = None

    def run(self, case: Case | CaseDraw, upcoming: Upcoming | None = None, after: Upcoming | None = None,
            connected: ProtocolDriver | BuildBroke | None = None) -> tuple[str | None, int]:
        """(what went wrong, the step it went wrong at) for one case, or for one being drawn (it is drawn as
        it is judged; ``upcoming``: drawn ahead, then). ``after``: the next case, drawn ahead while the build
        answers this one. ``connected``: the build the caller has connected to already (or the way it broke
        trying), so a build that cannot start is started once a case."""
        s, result = self.s, self.result
        drawn = case if isinstance(case, CaseDraw) else None
        try:
            if self.found.get("kind") == Status.BROKE:
                self._drop_build()  # a fault that builds up over many cases: each shrink step starts afresh
            if isinstance(connected, BuildBroke):
                raise connected
            target = self.connect() if connected is None else connected
            if drawn is None:
                assert isinstance(case, Case)  # not being drawn: a whole case
                self.history.append(case)
                judged = judge(case, target, "legal" in target.capabilities, any_order=not s.twice)
            else:
                target.process.idle = None if after is None else after.planned_for(target).step
                try:
                    judged = judge_drawn(drawn, target, "legal" in target.capabilities,
                                         None if upcoming is None else upcoming.plan(), any_order=not s.twice)
                finally:
                    target.process.idle = None
                    self.history.append(drawn.sent())  # what the build was sent of it
                case = judged.case
        except BuildBroke as exc:
            return Status.BROKE, self._broke(exc, case, drawn, upcoming)
        result.cases += 1
        result.requests += len(judged.probes)
        if self.progress is not None and not self.found and result.cases % PROGRESS_EVERY == 0:
            self.progress(f"{result.cases}{f'/{s.examples}' if s.examples else ''} cases, {result.requests} "
                          f"requests, {time.monotonic() - self.started:.0f} s")
        if judged.divergence is not None:
            return Status.DIVERGES, judged.divergence.step
        if s.twice:
            again = list(target.batch([p.op for p in judged.probes]))
            # the session's records have grown by the first run's games: their growth must agree, not their sum
            if Records.judged(judged.probes, again) != Records.judged(judged.probes, judged.outcomes):
                return Status.NONDETERMINISTIC, len(case.steps)
        return None, 0

    def _broke(self, exc: BuildBroke, case: Case | CaseDraw, drawn: CaseDraw | None,
               upcoming: Upcoming | None) -> int:
        """The build broke on ``case``: counted, the first cause kept, the build dropped; the step it broke at
        (in the cases it was sent joined, when it broke after earlier ones too)."""
        if drawn is not None:
            if upcoming is not None:  # being drawn for a plan: drawn to its end (the plan answers it alone)
                for _ in upcoming.plan():
                    pass
            case = drawn.case()  # drawn whole all the same
        assert isinstance(case, Case)
        self.result.cases += 1
        self.broke.setdefault("cause", (f"{exc.cause}: {exc.message}", exc.stderr_tail))
        self._drop_build()
        step: int = getattr(exc, "step", len(case.steps))
        if not self.found and len(self.history) > 1:
            # The build broke after earlier cases too: the finding is all of them in one, so a fresh
            # build breaks on it as well; shrinking drops what it does not need.
            whole = joined(self.history)
            self.broken_by = whole
            step += len(whole.steps) - len(case.steps)
        self.history.clear()
        return step

    def fails(self, data: Any) -> bool:
        """Hypothesis's test while shrinking: the case its numbers draw fails as the one found did."""
        return self.attempt(Draw(data))

    def attempt(self, draw: Draw, upcoming: Upcoming | None = None, after: Upcoming | None = None) -> bool:
        """Draw a case with ``draw`` and run it: True when it fails (while shrinking: the way the one found
        did, and it is kept when smaller). ``upcoming``: the case drawn ahead with ``draw`` (searching);
        ``after``: the next one, to draw ahead while this one waits for the build."""
        now, found, budget = time.monotonic(), self.found, self.s.budget
        if found:
            self.since_improved += 1
            if self.since_improved > STALE_SHRINKS:
                return False  # Hypothesis has not made the case smaller for a while: on to the passes
        if now > self.hypothesis_until:
            self.hypothesis_cut = True
            return False
        if budget is not None and not found and now - self.started > budget:
            self.result.timed_out = True
            return False
        with quiet_gc():
            connected: ProtocolDriver | BuildBroke | None = None
            if upcoming is not None:
                try:
                    connected = self.connect()
                except BuildBroke as exc:
                    connected = exc  # (run says so, without starting the build again)
                if isinstance(connected, ProtocolDriver) and not is_explicit(connected):
                    draw = upcoming.planned_for(connected).d
                else:  # the build does not start, or it is sent the explicit form of each request, which the
                    # case must be drawn whole for (judge_drawn): drawn afresh, as usual
                    draw, upcoming, after = upcoming.begin_again().d, None, None
            drawn = CaseDraw(draw, self.s.game, self.current, self.shape) if upcoming is None \
                else upcoming.case_draw()
            self.broken_by = None
            # While searching, the case goes to the build as it is drawn. While shrinking, it is drawn whole
            # first: Hypothesis may end a shrunk case midway, and then the build must not have been sent it.
            kind, step = self.run(drawn, upcoming, after, connected) if not found else self.run(drawn.case())
        case = drawn.case()
        if kind is None or (found and kind != found["kind"]):
            return False
        case = _cut(self.broken_by or case, step, kind)
        if not found:
            found.update(kind=kind, case=case, at=time.monotonic() - self.started, first_steps=len(case.steps))
            if self.progress is not None:
                self.progress(f"{kind} after {self.result.cases} cases ({now - self.started:.1f} s); shrinking a "
                              f"{len(case.steps)}-step case")
        elif case.size() < found["case"].size():
            found["case"] = case
            self.since_improved = 0
        return True

    def _search_ends(self) -> None:
        result = self.result
        result.search_seconds = round(time.monotonic() - self.started, 3)
        result.search_cases, result.search_requests = result.cases, result.requests

    def ahead(self, cases: random.Random) -> Upcoming:
        """The next case of the search, with its own seed in turn, to be drawn ahead while the build answers;
        its ruleset the next of the rotation."""
        ruleset = self.rotation[self.drawn_ahead % len(self.rotation)]
        self.drawn_ahead += 1
        return Upcoming(cases.getrandbits(64), self.s.game, ruleset, self.shape)

    def search(self) -> None:
        """Cases until one fails, the count or budget is spent; a long first finding is weighed against
        LOOK_FURTHER more cases, the shortest failing one kept."""
        found, result = self.found, self.result
        cases = random.Random(self.seed)  # each case's own seed, in turn
        upcoming = self.ahead(cases)
        while not found and not result.timed_out and self.s.searching(result.cases, result.requests):
            this, upcoming = upcoming, self.ahead(cases)
            self.current = this.ruleset
            if self.attempt(this.d, this, upcoming):
                found["choices"] = this.d.choices
        self._search_ends()
        if found and len(found["case"].steps) > LONG_FINDING:
            # A long first finding: a few more cases, and the shortest failing one is shrunk (shrinking cannot
            # always undo a long route: Black Fog's stream moves on, so a set-up cannot start half way).
            for _ in range(LOOK_FURTHER):
                first = found["case"]
                this, upcoming = upcoming, self.ahead(cases)
                draw = Draw(seed=this.seed)  # drawn whole, as cases are while shrinking
                self.current = this.ruleset
                if self.attempt(draw) and found["case"] is not first:
                    found["choices"] = draw.choices
                self.current = found["case"].ruleset
            self.since_improved = 0
            self._search_ends()  # those cases are search too: shrinking's time starts after them

    def shrink(self) -> None:
        """The finding made small: by Hypothesis over its numbers for half the shrink time, then the passes."""
        found = self.found
        shrink_from = time.monotonic()
        self.hypothesis_until = shrink_from + self.s.shrink_time * 0.5
        with same_draws_everywhere():  # Hypothesis replays the found case's numbers and shrinks them
            shrink_choices(found["choices"], self.fails, self.seed)
        check_stop()  # a signal whose exception Hypothesis's callbacks swallowed

        def check(case: Case) -> int | None:
            check_stop()
            with quiet_gc():
                kind, step = self.run(case)
            return step if kind == found["kind"] else None

        self.shrinker = Shrinker(check, shrink_from + self.s.shrink_time)
        found["case"] = self.shrinker.run(found["case"])

    def outcome(self) -> CampaignResult:
        """Search, shrink what was found, and the result; an interrupt while shrinking keeps the best so far.
        The build started here ends here."""
        found, result = self.found, self.result
        try:
            self.search()
            if found:
                self.shrink()
        except KeyboardInterrupt:
            if not found:
                raise
            result.interrupted = acknowledge() or "SIGINT"  # keep what was found: it is written, unconfirmed
            if self.shrinker is not None and self.shrinker.best is not None:
                found["case"] = self.shrinker.best
        finally:
            if self.build is not None and self.build is not self.given:  # ours: started here, or for a dead one
                self.build.close()
        if found:
            cause, stderr = self.broke.get("cause", ("", "")) if found["kind"] == Status.BROKE else ("", "")
            was_cut = result.interrupted is not None or (self.shrinker is not None and self.shrinker.cut) \
                or self.hypothesis_cut
            result.finding = Finding(found["kind"], found["case"].json(), round(found["at"], 3),
                                     found["first_steps"], round(time.monotonic() - self.started
                                                                 - result.search_seconds, 3), was_cut, cause, stderr)
        result.seconds = round(time.monotonic() - self.started, 3)
        return result


def _cut(case: Case, step: int, kind: str) -> Case:
    """A diverging or breaking case cut after the step it failed at; any other as it is."""
    return case.with_steps(case.steps[:step]) if kind in (Status.DIVERGES, Status.BROKE) else case
