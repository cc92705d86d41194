"""The verify report: its checks (each with its status, and its failure with the rules that own each
differing field), the matrix they make and the run's exit code. Its renderings live beside it: ``text``,
``jsondoc``, ``junit``, ``markdown``, ``github``, ``htmlpage``; ``failures`` makes a Failure from a replayed
trace."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .. import suite
from ..errors import Exit
from ..games import GAMES
from ..harness.driver import BuildBroke
from ..rulebook.rules import spec_rules
from ..status import Status

# The statuses of a verify check, in the order the matrix and the summaries count them.
LEVEL_WORDS = {
    "full": "full (every answer whole: states, views, legal lists, results, and each refusal's kind and code)",
    "play": "play (states, views, legal lists, results, and whether an illegal action is refused; not which "
            "code or form check refuses it)",
}
STATUSES = (Status.PASSED, Status.FAILED, Status.NOT_RUN, Status.XFAIL, Status.XPASS, Status.BROKE)


@dataclass(frozen=True)
class FieldDiff:
    """One field that differs in a failing answer, with the rule that owns it."""

    path: str  # scores.red, pieces.human[2], view[gaias].units, legal, rejected
    expected: Any
    actual: Any
    rule: str | None  # the rule the failure is credited to first (None: no rule owns this field)
    see_also: tuple[str, ...] = ()  # the other rules that decide this field
    by_reference: bool = False  # the expected value is the reference's answer, not the trace's own words
    owners: tuple[str, ...] = ()  # every rule the failure is credited to (games.base.owners); () = (rule,)

    @property
    def credited(self) -> tuple[str, ...]:
        return self.owners or ((self.rule,) if self.rule else ())


@dataclass(frozen=True)
class Failure:
    """Where and how a check failed: what a builder needs to act without replaying it by hand."""

    file: str  # the trace or feature file
    line: int | None
    step: int | None  # the trace step (0: the start), None for a scenario or perft
    action: str  # the step's action in a few words, or the Gherkin step
    request: Any = None  # the request the kit sent for that step (protocol JSON, without its id)
    asked: Any = None  # the request whose answer differed, when not the step's own (a view, a legal list)
    fields: tuple[FieldDiff, ...] = ()  # every differing field
    message: str = ""  # the failure in one line
    ledger: tuple[dict[str, Any], ...] = ()  # the trace's steps up to the failing one (step, action, ok...)
    before: Any = None  # the position before the step (a state view), for pictures
    expected_view: Any = None  # the answer the kit expected
    actual_view: Any = None  # the answer the build gave
    observer: str | None = None  # whose view differed
    # The differences found after this one, each judged from a resynchronised state: the build put in the
    # reference's position after the step before it (refimpl/verify/checks.py, ``resynchronise``).
    later: tuple[Failure, ...] = ()

    @property
    def where(self) -> str:
        """``file:line`` (or the file alone)."""
        return f"{self.file}:{self.line}" if self.line else self.file


@dataclass(frozen=True)
class Check:
    """One trace, scenario, perft walk or determinism check run against the build."""

    kind: str  # trace | scenario | perft | determinism | chance | protocol | rule | explore
    game: str
    name: str
    rules: tuple[str, ...]  # the rules the check is tagged with
    status: Status  # passed | failed | not-run | xfail | xpass | broke
    detail: str = ""
    ruleset: str | None = None
    stderr: str = ""
    reason: str = ""  # why it was expected to fail
    failure: Failure | None = None
    transcript: tuple[dict[str, Any], ...] = ()  # the raw exchanges of a failing check (verify --transcript)
    file: str = ""  # the trace or feature file, as reports name it
    line: int | None = None  # the scenario's line (a trace: None, its file is the place)
    seconds: float = 0.0  # how long the check took, as the run saw it (pipelined traces share their batch's)
    reproducer: str = ""  # an exploration's finding written as a trace (YAML), for verify --reproducers
    screens: tuple[str, ...] = ()  # a page build's own screen before and after the failing step (PNG files)

    @property
    def credited(self) -> tuple[str, ...]:
        """The rules the matrix counts this check under: a failure with differing fields counts under the
        rules owning those fields (not every rule the trace is tagged with); anything else under its tags."""
        if self.status in (Status.FAILED, Status.XFAIL) and self.failure is not None:
            fields = [f for failure in (self.failure, *self.failure.later) for f in failure.fields]
            credited = tuple(dict.fromkeys(r for f in fields for r in f.credited))
            if credited:
                return credited
        return self.rules


@dataclass
class Report:
    command: str
    build: str = ""
    kit: dict[str, str] = field(default_factory=suite.identity)  # the kit that judged (suite.identity)
    profiles: list[dict[str, Any]] = field(default_factory=list)  # the builder's profiles (Profile.summary)
    checks: list[Check] = field(default_factory=list)
    broke_at_start: BuildBroke | None = None
    warnings: list[str] = field(default_factory=list)
    stopped: str = ""  # why the run stopped before every check ran (the rest is not run)
    interrupted: str = ""  # "Ctrl-C" or "SIGTERM": the run was cut short from outside
    # verify --coverage: how often the reference ran each rule's cited code, by kind of check (traces,
    # between, scenarios, explore): kind -> rule -> hits (rulebook/reach.py); empty without --coverage
    reach: dict[str, dict[str, int]] = field(default_factory=dict)
    explicit_chance: bool = False  # the build declared explicit-chance (refimpl/harness/chance.py)
    level: str = "full"  # what the verdict judges: full, or play (the rules, not which code refuses: Build.level)

    @property
    def level_words(self) -> str:
        """The level in a line, as every report names it."""
        return LEVEL_WORDS.get(self.level, self.level)

    def count(self, status: str, checks: Iterable[Check] | None = None) -> int:
        return sum(1 for c in (self.checks if checks is None else checks) if c.status == status)

    @property
    def exit_code(self) -> Exit:
        if self.interrupted:
            return Exit.TERMINATED if self.interrupted == "SIGTERM" else Exit.INTERRUPTED
        if self.broke_at_start is not None or self.count(Status.BROKE):
            return Exit.BUILD_BROKE
        if self.count(Status.FAILED) or self.count(Status.XPASS) or not (self.count(Status.PASSED)
                                                                         or self.count(Status.XFAIL)):
            return Exit.DOES_NOT_CONFORM
        return Exit.CONFORMS

    def matrix(self) -> dict[str, dict[str, dict[Status, int]]]:
        """game -> rule ID -> status -> count, every rule of the game's spec included."""
        out: dict[str, dict[str, dict[Status, int]]] = {}
        games = sorted({c.game for c in self.checks})
        for game in games:
            text = suite.spec_text(GAMES[game].info.spec) if game in GAMES else None
            rules = {r: dict.fromkeys(STATUSES, 0) for r in spec_rules(text or "")}
            for check in (c for c in self.checks if c.game == game):
                for rule in check.credited:
                    rules.setdefault(rule, dict.fromkeys(STATUSES, 0))[check.status] += 1
            out[game] = rules
        return out


# How the matrix names the rows that count checks by kind.
KINDS = {"trace": "traces", "scenario": "scenarios", "perft": "perft", "determinism": "twice", "rule": "rule entries",
         "chance": "own chance", "protocol": "protocol", "explore": "exploration"}

# The verdict word of each exit code, as machine output and the saved reports write it.
VERDICTS = {Exit.CONFORMS: "conforms", Exit.DOES_NOT_CONFORM: "does_not_conform", Exit.BUILD_BROKE: "build_broke",
            Exit.INTERRUPTED: "interrupted", Exit.TERMINATED: "interrupted"}
