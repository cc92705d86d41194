"""Runs saved and compared: a verify report read back from its JSON (``refimpl report``), and two runs compared
(``refimpl diff``). What CI shows of a run is in markdown.py (the step summary) and github.py (annotations)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema

from ..errors import KitError
from ..harness.compare import MISSING
from ..harness.driver import BuildBroke
from ..status import Status
from ..util import yamlsafe
from ..util.files import read_bytes
from .model import STATUSES, VERDICTS, Check, Failure, FieldDiff, Report

_STATUS = {s.replace("-", "_"): s for s in STATUSES}
LIMIT = 256 << 20  # bytes of a saved report the kit reads


class SavedReportError(KitError):
    """A file that is not a verify report the kit can read (exit 2)."""


DEPTH = 100  # nesting a saved report may have (a failure's views are cut at 64 levels: reports.safetext)


@cache
def _validator() -> jsonschema.Draft202012Validator:
    text = resources.files("refimpl").joinpath("schemas", "output", "verify.schema.json").read_text(encoding="utf-8")
    return jsonschema.Draft202012Validator(json.loads(text))


def load_report(path: str | Path) -> Report:
    """A verify JSON report (``verify --json FILE``) read back: JSON nested at most DEPTH deep, valid against
    verify.schema.json (every field of the type the kit writes). Raises SavedReportError naming the file (and
    the field), never anything a report would crash on later (issue 43: exit 4 for a hostile file)."""
    return checked_report(load_json(path), str(path))


def load_json(path: str | Path) -> Any:
    """A saved report's JSON, read within LIMIT bytes and DEPTH levels. Raises SavedReportError."""
    try:
        doc = json.loads(read_bytes(path, LIMIT))
    except OSError as exc:
        raise SavedReportError(f"{path}: cannot read: {yamlsafe.os_reason(exc)}") from None
    except RecursionError:
        raise SavedReportError(f"{path}: not a refimpl verify report (JSON nested too deeply to read)") from None
    except ValueError as exc:
        raise SavedReportError(f"{path}: not JSON: {exc}") from None
    if yamlsafe.too_deep(doc, limit=DEPTH):
        raise SavedReportError(f"{path}: not a refimpl verify report (JSON nested deeper than {DEPTH})")
    return doc


def is_matrix(doc: Any) -> bool:
    """Whether a saved document is a many-builds matrix (reports/matrix.py) rather than one build's report."""
    return isinstance(doc, dict) and doc.get("kind") == "refimpl-matrix"


def checked_report(doc: Any, path: str) -> Report:
    """The Report of a verify JSON document ``doc`` (read from ``path``), checked against verify.schema.json.
    Raises SavedReportError naming the file and the field."""
    error = jsonschema.exceptions.best_match(_validator().iter_errors(doc))
    if error is not None:
        where = "/".join(map(str, error.absolute_path)) or "the document"
        raise SavedReportError(f"{path}: not a refimpl verify report (at {where}: {error.message[:200]})")
    try:
        return report_from_json(doc)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise SavedReportError(f"{path}: not a refimpl verify report ({type(exc).__name__}: {exc})") from None


def _failure(doc: Mapping[str, Any] | None) -> Failure | None:
    if doc is None:
        return None
    fields = tuple(FieldDiff(f["path"], MISSING if f.get("expected_missing") else f["expected"],
                             MISSING if f.get("actual_missing") else f["actual"], f["rule"], tuple(f["see_also"]),
                             f.get("source") == "reference", tuple(f.get("owners") or ()))
                   for f in doc["fields"])
    views = doc.get("views") or {}
    return Failure(doc["file"], doc["line"], doc["step"], doc["action"], doc["request"], doc["asked"], fields,
                   doc["message"], tuple(doc.get("ledger") or ()), views.get("before"), views.get("expected"),
                   views.get("actual"), views.get("observer"),
                   tuple(f for f in (_failure(x) for x in doc.get("later") or ()) if f is not None))


def report_from_json(doc: Mapping[str, Any]) -> Report:
    """The Report a verify JSON document describes (its exit code and matrix follow from its checks)."""
    report = Report(doc["command"], doc["build"])
    report.kit = dict(doc["kit"])
    report.profiles = list(doc.get("profiles") or [])
    broke = doc.get("broke_at_start")
    if broke is not None:
        report.broke_at_start = BuildBroke(broke["cause"], broke["message"], broke.get("stderr", ""))
    report.checks = [Check(c["kind"], c["game"], c["name"], tuple(c["rules"]), _STATUS[c["status"]], c["detail"],
                           c["ruleset"], c["stderr"], c["reason"], _failure(c["failure"]),
                           screens=tuple(c.get("screens") or ()))
                     for c in doc["checks"]]
    report.warnings = list(doc.get("warnings") or [])
    report.explicit_chance = bool(doc.get("explicit_chance"))
    report.level = str(doc.get("level") or "full")
    report.stopped = doc.get("stopped") or ""
    report.interrupted = doc.get("interrupted") or ""
    return report


# --- two runs compared --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Change:
    kind: str
    game: str
    name: str
    before: str | None  # None: the check did not run in the old report
    after: str | None  # None: not in the new report


GOOD = (Status.PASSED, Status.XFAIL)


def diff(old: Report, new: Report) -> dict[str, list[Change]]:
    """The checks that got worse (``regressions``: passed or expected before, failed, broke or xpass now), got
    better (``fixes``), appeared or disappeared, by (kind, name)."""
    before = {(c.kind, c.name): c for c in old.checks}
    after = {(c.kind, c.name): c for c in new.checks}
    out: dict[str, list[Change]] = {"regressions": [], "fixes": [], "new": [], "gone": []}
    for key in sorted(set(before) | set(after)):
        b, a = before.get(key), after.get(key)
        # ignore: a key comes from one run or the other
        change = Change(key[0], (a or b).game, key[1], b.status if b else None, a.status if a else None)  # type: ignore[union-attr]
        if b is None:
            out["new"].append(change)
            if a is not None and a.status in (Status.FAILED, Status.BROKE, Status.XPASS):
                out["regressions"].append(change)
        elif a is None:
            out["gone"].append(change)
        elif b.status in GOOD and a.status in (Status.FAILED, Status.BROKE, Status.XPASS):
            out["regressions"].append(change)
        elif b.status in (Status.FAILED, Status.BROKE, Status.XPASS) and a.status in GOOD:
            out["fixes"].append(change)
    return out


def diff_json(changes: Mapping[str, list[Change]]) -> str:
    """``refimpl diff --format json``: the changes by kind (regressions, fixes, new, gone), each a check's kind,
    game, name and its status before and after."""
    return json.dumps({k: [vars(c) for c in v] for k, v in changes.items()}, indent=1, ensure_ascii=True) + "\n"


def diff_text(changes: Mapping[str, list[Change]], old: Report, new: Report) -> str:
    lines = [f"old: {VERDICTS[old.exit_code]} ({old.kit.get('version')}, suite {old.kit.get('suite')}); "
             f"new: {VERDICTS[new.exit_code]} ({new.kit.get('version')}, suite {new.kit.get('suite')})"]
    for word in ("regressions", "fixes", "new", "gone"):
        items = changes[word]
        lines.append(f"{word}: {len(items)}")
        lines += [f"  {c.kind} {c.name}: {c.before or '-'} -> {c.after or '-'}" for c in items]
    return "\n".join(lines) + "\n"


__all__ = ["Change", "SavedReportError", "diff", "diff_json", "diff_text", "load_report", "report_from_json"]
