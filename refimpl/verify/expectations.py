"""Expected failures: an expect-fail file read and checked against the suite, its entries applied to a run's
checks (a declared failure is xfail, a declared check that passes xpass), and a run's failures written as one."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from .. import suite
from ..games import GAMES
from ..harness.trace import Trace
from ..reports.model import Check, Report
from ..scenarios import Scenario
from ..status import Status
from ..util import yamlsafe
from .settings import VerifyError

RECORDED = "recorded by refimpl verify --write-expect-fail on"  # the reason --write-expect-fail gives


@dataclass(frozen=True)
class Expectation:
    """One entry of an expect-fail file: a trace, scenario or rule the build is known to fail, and why."""

    kind: str  # trace | scenario | rule
    pattern: str
    reason: str
    where: str = ""  # FILE:LINE of the entry

    def names(self, kind: str, name: str, rules: Iterable[str] = ()) -> bool:
        """Whether the entry names a check of this kind and name (a rule entry: a check of that rule)."""
        if self.kind == "rule":
            return self.pattern in rules
        return self.kind == kind and self.pattern.lower() in name.lower()

    def matches(self, check: Check) -> bool:
        """Whether the entry covers ``check``: a trace or scenario by name; a rule entry only a failure it
        owns (a differing field of that rule's), or, with no fields to tell, a check tagged with it."""
        if self.kind != "rule":
            return self.names(check.kind, check.name)
        return self.pattern in check.credited


def load_expect_fail(path: str) -> list[Expectation]:
    """Read an expect-fail file: a YAML list of {trace|scenario|rule: TEXT, reason: TEXT}. Raises VerifyError
    naming the file and line of an entry that is not of that shape or has no reason."""
    try:
        text, data = yamlsafe.load_file(path)
    except yamlsafe.YamlError as exc:
        raise VerifyError(f"{exc} (the expect-fail file)") from None
    if data is None:
        return []
    if not isinstance(data, list):
        raise VerifyError(f"{path}:1: an expect-fail file is a YAML list of entries")
    try:
        # ignore: the text composed: it loaded above
        lines = yamlsafe.line_map(yamlsafe.compose(text))  # type: ignore[arg-type]
    except Exception:  # the data loaded, so this does not happen; lines are a courtesy
        lines = {}
    out = []
    for i, entry in enumerate(data):
        where = f"{path}:{lines.get((i,), '?')}"
        keys = [k for k in ("trace", "scenario", "rule") if isinstance(entry, dict) and k in entry]
        if len(keys) != 1:
            raise VerifyError(f"{where}: an entry names exactly one of trace, scenario or rule, with a reason")
        unknown = sorted(set(entry) - {keys[0], "reason"})
        if unknown:
            raise VerifyError(f"{where}: unknown key {unknown[0]!r} (an entry has {keys[0]} and reason)")
        reason = entry.get("reason")
        if not isinstance(reason, str) or not reason.strip():
            raise VerifyError(f"{where}: the entry for {keys[0]} {entry[keys[0]]!r} has no reason (say why the "
                              f"build is expected to fail it, e.g. a ticket)")
        if not isinstance(entry[keys[0]], str) or not entry[keys[0]].strip():
            raise VerifyError(f"{where}: {keys[0]} must be a non-empty text")
        out.append(Expectation(keys[0], entry[keys[0]].strip(), reason.strip(), where))
    return out


def check_expectations(expected: list[Expectation], traces: list[Trace], scenarios: list[Scenario]) -> None:
    """Raise VerifyError (exit 2, naming the entry's file and line) for an entry that names no trace,
    scenario or rule the kit has: a misspelt entry must not pass silently."""
    from ..rulebook.rules import spec_rules

    rules = {r for g in GAMES.values() for r in spec_rules(suite.spec_text(g.info.spec) or "")}
    names = [s.check_name for s in scenarios]
    for e in expected:
        if e.kind == "rule":
            known = e.pattern in rules
        elif e.kind == "trace":
            known = any(e.names("trace", f"{t.game}/{t.name}") for t in traces)
        else:
            known = any(e.names("scenario", name) for name in names)
        if not known:
            what = {"rule": "no spec has this rule ID", "trace": "no trace's name contains it",
                    "scenario": "no scenario's name contains it"}[e.kind]
            raise VerifyError(f"{e.where}: expect-fail entry {e.kind}: {e.pattern!r} matches nothing ({what})")


def apply_expectations(checks: list[Check], expected: list[Expectation]) -> tuple[list[Check], list[str]]:
    """Declared failures become xfail; a declared trace or scenario that passes becomes xpass.

    A ``rule`` entry covers only the failures that rule owns (see Expectation.matches); when none of the
    checks of that rule that ran fails so, the entry itself is reported as an xpass. An entry whose
    checks were not selected in this run is noted, not an error.
    """
    out, used = [], set()
    by_rule = {e.pattern: e for e in expected if e.kind == "rule"}
    for check in checks:
        hit = next((e for e in expected if e.kind != "rule" and e.matches(check)), None)
        fields = [f for f in check.failure.fields if f.credited] if check.failure is not None else []
        # rule entries cover a failure only when each differing field has an entry for one of the rules it is
        # credited to (the kit cannot tell which of them the build broke); a failure with no fields to tell (a
        # scenario's assertion) is covered by an entry for any rule it is tagged with
        if fields:
            covering = [[r for r in f.credited if r in by_rule] for f in fields]
            owners = [r for found in covering for r in found] if all(covering) else []
        else:
            owners = [r for r in check.credited if r in by_rule]
        if hit is None and check.status == Status.FAILED and owners:
            entries = [by_rule[r] for r in dict.fromkeys(owners)]
            used.update(entries)
            check = replace(check, status=Status.XFAIL, reason="; ".join(dict.fromkeys(e.reason for e in entries)))
        elif hit is not None and check.status == Status.FAILED:
            used.add(hit)
            check = replace(check, status=Status.XFAIL, reason=hit.reason)
        elif hit is not None and check.status == Status.PASSED:
            used.add(hit)
            check = replace(check, status=Status.XPASS, reason=hit.reason)
        elif hit is not None:
            used.add(hit)  # broke or not run: neither confirms nor refutes the entry
        out.append(check)
    notes = []
    unreviewed = [e for e in expected if e.reason.startswith(RECORDED)]
    if unreviewed:
        notes.append(f"{len(unreviewed)} expect-fail entries were recorded by --write-expect-fail and not reviewed "
                     f"(first: {unreviewed[0].where}): give each a real reason")
    for e in expected:
        if e in used:
            continue
        ran = [c for c in checks if c.status in (Status.PASSED, Status.FAILED) and e.names(c.kind, c.name, c.rules)]
        if e.kind == "rule" and ran:
            out.append(Check("rule", ran[0].game, e.pattern, (e.pattern,), Status.XPASS,
                             f"no failure in this run is owned by {e.pattern} ({len(ran)} checks of it ran)",
                             reason=e.reason))
        elif not any(e.names(c.kind, c.name, c.rules) for c in checks):
            notes.append(f"{e.where}: expect-fail entry {e.kind}: {e.pattern!r} was not applied: "
                         f"nothing it names was selected in this run")
    return out, notes


def write_expect_fail(report: Report, path: str) -> int:
    """Write this run's failures (failed and broken checks) as an expect-fail file, each entry's reason saying
    it was recorded, not reviewed; the number of entries. Raises OSError."""
    from datetime import date

    from ..util.files import write_file

    reason = f"{RECORDED} {date.today().isoformat()}: not reviewed"
    entries = []
    for c in report.checks:
        if c.status not in (Status.FAILED, Status.BROKE) or c.kind not in ("trace", "scenario"):
            continue
        entries.append({c.kind: c.name, "reason": reason})
    import yaml

    text = ("# Written by refimpl verify --write-expect-fail: this run's failures, so that the same run passes.\n"
            "# Review each entry and give it a real reason; until then reports list them as unreviewed.\n")
    text += yaml.safe_dump(entries, sort_keys=False, allow_unicode=True, width=1000) if entries else "[]\n"
    write_file(path, text.encode("utf-8"))
    return len(entries)

