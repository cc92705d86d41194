"""Many-builds matrices saved and compared (issue 47): a matrix read back from its JSON (every build's own report
checked against verify.schema.json), and two matrices compared by ``refimpl diff OLD NEW``: per build present in
both, the rules whose cell got worse (``regressed``: anything but failed or broke before, failed or broke now) or
better (``fixed``), with the checks that changed (runs.diff); the builds added and gone."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema

from .matrix import Entry, Matrix
from .runs import SavedReportError, checked_report, diff as check_diff, is_matrix, load_json

GOOD = ("passed", "xfail")
BAD = ("failed", "broke")


@cache
def _validator() -> jsonschema.Draft202012Validator:
    text = resources.files("refimpl").joinpath("schemas", "output", "matrix.schema.json").read_text(encoding="utf-8")
    return jsonschema.Draft202012Validator(json.loads(text))


def matrix_from(doc: Any, path: str) -> Matrix:
    """The Matrix a saved matrix document describes. Raises SavedReportError naming the file and the field."""
    error = jsonschema.exceptions.best_match(_validator().iter_errors(doc))
    if error is not None:
        where = "/".join(map(str, error.absolute_path)) or "the document"
        raise SavedReportError(f"{path}: not a refimpl matrix (at {where}: {error.message[:200]})")
    entries = [Entry(b["name"], b["target"], checked_report(b["report"], f"{path}: build {b['name']}"),
                     float(b["seconds"]), tuple(b["games"])) for b in doc["builds"]]
    names = [e.name for e in entries]
    return Matrix(entries, tuple(doc["gate"]), tuple(names + list(doc["not_run"])), doc["interrupted"],
                  dict(doc["kit"]))


def load_matrix(path: str | Path) -> Matrix:
    """A saved matrix (``verify --builds FILE --json PATH``). Raises SavedReportError."""
    doc = load_json(path)
    if not is_matrix(doc):
        raise SavedReportError(f"{path}: not a refimpl matrix (a single build's report? compare two of those "
                               f"with refimpl diff as well)")
    return matrix_from(doc, str(path))


def cells(entry: Entry) -> dict[tuple[str, str], str]:
    """(game, rule) -> the build's cell word for every rule it judged."""
    from .matrix import cell

    return {(game, rule): cell(entry, counts, game)[0]
            for game, rules in entry.report.matrix().items() for rule, counts in rules.items()}


def transitions(old: Entry, new: Entry) -> dict[str, list[dict[str, str]]]:
    """The rules of one build that regressed and were fixed between two runs."""
    return changes(cells(old), cells(new))


def changes(before: Mapping[tuple[str, str], str],
            after: Mapping[tuple[str, str], str]) -> dict[str, list[dict[str, str]]]:
    """Between two runs' cells of one build ((game, rule) -> word), the rules that regressed (anything but
    failed or broke before, failed or broke now) and were fixed (failed or broke before, passed or expected-fail
    now): the one comparison ``diff`` and the site's history make."""
    out: dict[str, list[dict[str, str]]] = {"regressed": [], "fixed": []}
    for key in sorted(set(before) | set(after)):
        b, a = before.get(key, "-"), after.get(key, "-")
        change = {"game": key[0], "rule": key[1], "before": b, "after": a}
        if b not in BAD and a in BAD:  # passed, expected-fail, not run or not judged before
            out["regressed"].append(change)
        elif b in BAD and a in GOOD:
            out["fixed"].append(change)
    return out


def diff_matrices(old: Matrix, new: Matrix) -> dict[str, Any]:
    """Per build in both: its verdicts, the rules regressed and fixed, the checks regressed and fixed; the
    builds added and gone."""
    from .model import VERDICTS

    mine = {e.name: e for e in old.entries}
    theirs = {e.name: e for e in new.entries}
    builds = []
    for name in [n for n in theirs if n in mine]:
        o, n = mine[name], theirs[name]
        checks = check_diff(o.report, n.report)
        builds.append({"name": name, "before": VERDICTS[o.report.exit_code], "after": VERDICTS[n.report.exit_code],
                       **transitions(o, n),
                       "checks": {k: [vars(c) for c in v] for k, v in checks.items()
                                  if k in ("regressions", "fixes")}})
    return {"builds": builds, "added": [n for n in theirs if n not in mine],
            "gone": [n for n in mine if n not in theirs]}


def regressed(changes: Mapping[str, Any]) -> bool:
    return any(b["regressed"] or b["checks"]["regressions"] for b in changes["builds"])


def diff_text(changes: Mapping[str, Any]) -> str:
    lines = []
    for b in changes["builds"]:
        verdict = b["after"] if b["before"] == b["after"] else f"{b['before']} -> {b['after']}"
        lines.append(f"{b['name']}: {verdict}; {len(b['regressed'])} rules regressed, {len(b['fixed'])} fixed; "
                     f"{len(b['checks']['regressions'])} checks regressed, {len(b['checks']['fixes'])} fixed")
        lines += [f"  regressed {c['game']} {c['rule']}: {c['before']} -> {c['after']}" for c in b["regressed"]]
        lines += [f"  fixed     {c['game']} {c['rule']}: {c['before']} -> {c['after']}" for c in b["fixed"]]
    lines += [f"added: {', '.join(changes['added']) or '-'}", f"gone: {', '.join(changes['gone']) or '-'}"]
    from .safetext import printable

    return printable("\n".join(lines) + "\n")


__all__ = ["changes", "diff_matrices", "diff_text", "load_matrix", "matrix_from", "regressed", "transitions"]
