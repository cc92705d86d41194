"""The checks a verify run makes between the traces and the scenarios: the requests twice (``--twice``), the
protocol before any start, perft (``--perft N``) and the own chance of a build that declares explicit-chance."""

from __future__ import annotations

from typing import Any

from ..games import GAMES
from ..harness.compare import first_difference
from ..harness.driver import BuildBroke, DriverError, ReferenceDriver
from ..harness.plan import plan
from ..harness.protocol import Build, ProtocolDriver
from ..harness.replay import outcome_difference
from ..harness.requests import Legal, Op, Restart, State, Written
from ..harness.trace import Trace
from ..reports.model import Check, Failure, FieldDiff
from ..reports.safetext import bounded
from ..status import Status
from .checks import Run
from .settings import VerifySettings

# Requests a fresh build gets before any start (specs/protocol.md, "Edge cases, settled"): each is no-game.
BEFORE_START: tuple[tuple[str, Op], ...] = (
    ("apply without action", Written({"op": "apply"})),
    ("apply", Written({"op": "apply", "action": {"type": "end-actions"}})),
    ("state", State()),
    ("legal", Legal()),
    ("restart", Restart()),
)


BEFORE_START_NAME = "protocol/before any start"


def wants_before_start(settings: VerifySettings) -> bool:
    """Whether the run checks the protocol before any start: when no --game narrows it and -k names it."""
    return not settings.games and (settings.keyword is None or settings.keyword.lower() in BEFORE_START_NAME)


def declares_explicit_chance(build: Build) -> bool:
    """Whether the build declares explicit-chance in its hello (False when it does not start)."""
    try:
        driver = build.start()
    except BuildBroke:
        return False
    try:
        return driver.explicit_chance is not None
    finally:
        driver.close()


def run_perft(build: Build, run: Run) -> None:
    """Check the build's legal-action lists against the golden perft counts (where it lists them), to
    ``perft_depth``."""
    from ..harness.perft import check_build, load_golden

    s = run.settings
    games, rulesets, depth = s.games, s.rulesets, s.perft_depth
    driver: ProtocolDriver | None = None
    try:
        for game in sorted(GAMES):
            for ruleset in GAMES[game].info.rulesets:
                golden = load_golden(game, ruleset)
                if golden is None or (games and game not in games) or (rulesets and ruleset not in rulesets):
                    continue
                name = f"{game}/perft-{ruleset} to depth {min(depth, golden['depth'])}"
                rules = GAMES[game].info.field_rules.get("legal", ())[:1]  # the legal lists' first rule
                if run.stop_reason():
                    run.add(Check("perft", game, name, rules, Status.NOT_RUN, f"not run: {run.stop_reason()}", ruleset))
                    continue
                try:
                    driver = driver or build.start()
                    if not driver.supports(game, ruleset) or not driver.lists_legal:
                        reason = "the build does not list legal actions" if driver.supports(game, ruleset) else \
                            f"{driver.name} does not declare {game} {ruleset}"
                        run.add(Check("perft", game, name, rules, Status.NOT_RUN, reason, ruleset))
                        continue
                    found = check_build(driver, game, ruleset, min(depth, golden["depth"]))
                except BuildBroke as exc:
                    run.add(Check("perft", game, name, rules, Status.BROKE, str(exc), ruleset, exc.stderr_tail),
                            exc.cause)
                    if driver is not None:
                        driver.process.close()
                    driver = None
                    continue
                run.add(Check("perft", game, name, rules, Status.PASSED if found is None else Status.FAILED,
                              "" if found is None else str(found), ruleset))
    finally:
        if driver is not None:
            driver.close()


def run_before_start(build: Build, run: Run) -> bool | None:
    """Send a fresh build the requests of BEFORE_START before any game is started, and judge each answer by
    the reference's (one check, of the pseudo-game ``protocol``; run when no --game narrows the run). Returns
    whether the build declared explicit-chance in its hello (None when it did not start)."""
    name = BEFORE_START_NAME
    try:
        driver = build.start(pipeline=False)
    except BuildBroke:
        return None  # reported by the checks that start the build
    explicit = driver.explicit_chance is not None
    try:
        reference = ReferenceDriver()
        for words, op in BEFORE_START:
            if isinstance(op, Legal) and not driver.lists_legal:
                continue
            theirs = next(iter(driver.batch([op])))
            ours = next(iter(reference.batch([op])))
            diff = outcome_difference(ours, theirs)
            if diff is not None:
                field = FieldDiff(diff.path, bounded(diff.expected), bounded(diff.actual), None)
                failure = Failure("specs/protocol.md", None, None, f"{words} before any start", op.body(),
                                  fields=(field,), message=f"{words} before any start: {diff}")
                run.add(Check("protocol", "protocol", name, (), Status.FAILED, failure.message, failure=failure))
                return explicit
        run.add(Check("protocol", "protocol", name, (), Status.PASSED, "no-game for apply (with and without an "
                      "action), state, legal and restart"))
    except BuildBroke as exc:
        run.add(Check("protocol", "protocol", name, (), Status.BROKE, str(exc), None, exc.stderr_tail), exc.cause)
    finally:
        driver.close()
    return explicit


class OutOfTime(Exception):
    """The run must stop (its deadline passed, or it was told to) in the middle of a judgement."""


class _Stopping:
    """A driver that refuses to send once the run must stop, so that a long judgement of a build's own chance
    (1,200 throws of a slow die) ends at ``--max-time`` as every other check does (issue 43)."""

    def __init__(self, driver: ProtocolDriver, run: Run) -> None:
        self._driver, self._run = driver, run

    def batch(self, ops: Any, **kw: Any) -> Any:
        if self._run.stop_reason():
            raise OutOfTime(self._run.report.stopped)
        return self._driver.batch(ops, **kw)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._driver, name)


def run_own_chance(build: Build, run: Run) -> None:
    """For a build with its own random source: send it chance requests without an outcome and judge each
    answer and, over the run, the outcomes' distribution (refimpl/harness/ownchance.py). One check per stream."""
    from ..harness import ownchance

    games, rulesets = run.settings.games, run.settings.rulesets

    driver: ProtocolDriver | None = None
    try:
        for game in ownchance.games_judged():
            if (games and game not in games) or run.stop_reason():
                continue
            ruleset = GAMES[game].info.default_ruleset
            if rulesets and ruleset not in rulesets:
                continue
            driver = driver or build.start(pipeline=False)
            if not driver.supports(game, ruleset):
                continue
            judged: Any = _Stopping(driver, run)
            try:
                verdicts = list(ownchance.judge(judged, game, ruleset))
            except OutOfTime as exc:
                run.add(Check("chance", game, f"{game}/own chance", (), Status.NOT_RUN, f"not run: {exc}", ruleset))
                continue
            except (BuildBroke, DriverError) as exc:
                stderr = exc.stderr_tail if isinstance(exc, BuildBroke) else ""
                run.add(Check("chance", game, f"{game}/own chance", (), Status.BROKE if isinstance(exc, BuildBroke)
                              else Status.FAILED, f"asked for its own chance outcomes: {exc}", ruleset, stderr),
                        exc.cause if isinstance(exc, BuildBroke) else None)
                if driver is not None:
                    driver.process.close()
                driver = None
                continue
            for v in verdicts:
                run.add(_chance_check(v, ruleset))
    finally:
        if driver is not None:
            driver.close()


def _chance_check(v: Any, ruleset: str) -> Check:
    """The Check of one judged stream of a build's own chance."""
    from ..harness.ownchance import ALPHA

    found = v.tally.test() if v.tally is not None else None
    if v.impossible:
        failure = Failure(v.name, None, None, "its own chance", v.request, message=v.impossible)
        return Check("chance", v.game, v.name, v.rules, Status.FAILED, f"after {v.judged} judged: {v.impossible}",
                     ruleset, failure=failure)
    if v.judged == 0:
        return Check("chance", v.game, v.name, v.rules, Status.NOT_RUN, f"not run: {v.note}", ruleset)
    if v.said:
        return Check("chance", v.game, v.name, v.rules, Status.PASSED, f"{v.judged} requests judged: {v.said}",
                     ruleset)
    words = f"{v.judged} outcomes, each one the rules allow"
    if v.tally is not None and v.tally.cells and {k for k, _ in v.tally.cells} == {6}:
        words += f"; faces 1-6 seen {', '.join(map(str, v.tally.counts(6)))} times"
    if found is None:
        return Check("chance", v.game, v.name, v.rules, Status.PASSED, words + (
            "; too few draws for a distribution test" if v.tally is not None else " (judged allowed only)"), ruleset)
    statistic, df, p = found
    words += f"; chi-square {statistic:.1f} on {df} df, p = {p:.3g} (fails below {ALPHA:g})"
    if p < ALPHA:
        failure = Failure(v.name, None, None, "its own chance", None,
                          message=f"the outcomes are not distributed as the rules say: {words}")
        return Check("chance", v.game, v.name, v.rules, Status.FAILED, failure.message, ruleset, failure=failure)
    serial = v.tally.serial_test() if v.tally is not None else None
    if serial is not None:
        statistic, df, p = serial
        words += (f"; throws two at a time (independence): chi-square {statistic:.1f} on {df} df, p = {p:.3g} "
                  f"(fails below {ALPHA:g})")
        if p < ALPHA:
            failure = Failure(v.name, None, None, "its own chance", None,
                              message=f"the throws are not independent of each other: {words}")
            return Check("chance", v.game, v.name, v.rules, Status.FAILED, failure.message, ruleset,
                         failure=failure)
    return Check("chance", v.game, v.name, v.rules, Status.PASSED, words, ruleset)


def run_twice(build: Build, traces: list[Trace], run: Run) -> None:
    """Send every trace's requests twice to a fresh build and report any answer that differs."""
    answers = []
    runnable: list[Trace] = []
    for _ in range(2):
        try:
            driver = build.start()
        except BuildBroke as exc:
            run.add(Check("determinism", "", "the requests twice", (), Status.BROKE, str(exc), None, exc.stderr_tail),
                    exc.cause)
            return
        runnable = [t for t in traces if driver.supports(t.game, t.ruleset)]
        try:
            answers.append([list(driver.batch([p.op for p in plan(t, driver.lists_legal)[0]])) for t in runnable])
        except BuildBroke as exc:
            run.add(Check("determinism", "", "the requests twice", (), Status.BROKE, str(exc), None, exc.stderr_tail),
                    exc.cause)
            driver.process.close()
            return
        finally:
            driver.close()
    for trace, first, second in zip(runnable, *answers):
        name = f"{trace.game}/{trace.name} twice"
        differs = next(((i, a, b) for i, (a, b) in enumerate(zip(first, second)) if a != b), None)
        if differs is None:
            run.add(Check("determinism", trace.game, name, trace.rules, Status.PASSED, "", trace.ruleset))
            continue
        i, a, b = differs
        diff = first_difference(a, b) if isinstance(a, dict) and isinstance(b, dict) else None
        detail = f"answer {i} differs between two runs of the same requests: " + (
            str(diff) if diff else f"{a!r} then {b!r}")
        run.add(Check("determinism", trace.game, name, trace.rules, Status.FAILED, detail, trace.ruleset))
