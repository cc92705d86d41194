"""``verify --builds FILE --site DIR`` (issue 47): each run added to a static site, a folder to publish on any
static host (no script, no server). The folder is flat and owned (util/files.OwnedFolder): the kit writes and
replaces only its own files there and refuses a folder holding a file of those names it did not write.

- ``index.html``: the runs, newest first (when, how many builds, the verdicts, the most misread rules), each
  linking to its matrix page, and the builds' and rules' pages;
- ``run-NNNN.json`` and ``run-NNNN.html``: each run's matrix (the JSON as ``--json`` writes it; the page as
  ``--html``); at most HISTORY runs are kept, the oldest dropped;
- ``build-NAME.html``: one build across the runs: its verdict each run and the transitions of each rule (which
  rules regressed and which were fixed, run by run, not only totals); ``build-NAME.svg`` and
  ``build-NAME.json`` its badge (the drawn SVG and a Shields endpoint document) for the latest run;
- ``rule-ID.html``: one rule across the builds: each build's cell in the latest run, and how many builds
  misread it in each run."""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..util.files import OwnedFolder
from .matrix import Matrix, matrix_document
from .model import VERDICTS

HISTORY = 100  # runs a site keeps
_RUN = re.compile(r"run-(\d{4,})\.json")
_NAME = re.compile(r"^(index\.html|run-\d{4,}\.(json|html)|build-[A-Za-z0-9._-]+\.(html|svg|json)"
                   r"|rule-[A-Za-z0-9._-]+\.html)$")


def site_folder(path: str | Path) -> OwnedFolder:
    """The site's folder: the kit's own files there are the names the module lists."""
    return OwnedFolder(path, "site pages", lambda name: bool(_NAME.match(name)))


@dataclass
class Run:
    number: int
    when: str
    doc: dict[str, Any]
    raw: bytes


def _runs(folder: Path) -> list[Run]:
    """The runs the site holds (oldest first), read back from its run-NNNN.json files."""
    from .runs import SavedReportError, load_json

    out = []
    for path in sorted(folder.glob("run-*.json")) if folder.is_dir() else []:
        if not _RUN.fullmatch(path.name):
            continue  # a file of the user's that only looks like a run
        try:
            doc = load_json(path)
        except SavedReportError:
            continue
        if isinstance(doc, dict) and doc.get("kind") == "refimpl-matrix":
            out.append(Run(int(path.stem.split("-")[1]), str(doc.get("site_time", "")), doc, path.read_bytes()))
    return sorted(out, key=lambda r: r.number)


def add_run(path: str | Path, m: Matrix) -> list[Path]:
    """Add the run ``m`` to the site at ``path`` and write every page again. Raises OSError (and refuses a
    folder holding files of the site's names the kit did not write)."""
    from .matrixhtml import render

    folder = site_folder(path)
    folder.check()
    runs = _runs(Path(path))
    number = runs[-1].number + 1 if runs else 1
    doc = {**matrix_document(m), "site_time": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    raw = (json.dumps(doc, indent=1, ensure_ascii=True) + "\n").encode()
    runs = (runs + [Run(number, doc["site_time"], doc, raw)])[-HISTORY:]
    files: dict[str, bytes] = {}
    for run in runs:
        files[f"run-{run.number:04d}.json"] = run.raw
    files[f"run-{number:04d}.html"] = render(m).encode()
    for run in runs[:-1]:  # the earlier runs' pages, kept as they were written
        old = Path(path) / f"run-{run.number:04d}.html"
        if old.is_file():
            files[old.name] = old.read_bytes()
    files.update(_pages(runs))
    return folder.replace_all(sorted(files.items()))


def _pages(runs: list[Run]) -> dict[str, bytes]:
    """The index, build and rule pages and the badges, from the runs (oldest first)."""
    from .badges import svg
    from .htmlpage import _environment

    latest = runs[-1]
    env = _environment().overlay()
    env.filters["site_name"] = _safe
    template = env.get_template("site.html")
    builds = [b["name"] for b in latest.doc["builds"]]
    out: dict[str, bytes] = {}
    index = [{"number": r.number, "when": r.when, "verdict": r.doc["verdict"], "builds": len(r.doc["builds"]),
              "verdicts": {b["name"]: b["verdict"] for b in r.doc["builds"]},
              "top": [x for x in r.doc["rules"] if x["misread"]][:5]} for r in reversed(runs)]
    rules = latest.doc["rules"]
    out["index.html"] = template.render(page="index", runs=index, builds=builds, rules=rules,
                                        title="refimpl: conformance runs").encode()
    for name in builds:
        history = _build_history(runs, name)
        badge = _badge(latest.doc, name)
        out[f"build-{name}.json"] = (json.dumps(badge, ensure_ascii=True) + "\n").encode()
        out[f"build-{name}.svg"] = svg(badge).encode()
        out[f"build-{name}.html"] = template.render(page="build", name=name, history=history,
                                                    title=f"refimpl: build {name}").encode()
    for row in rules:
        seen = [(r.number, next((x for x in r.doc["rules"] if x["rule"] == row["rule"]), None)) for r in reversed(runs)]
        out[f"rule-{_safe(row['rule'])}.html"] = template.render(page="rule", row=row, seen=seen,
                                                                 title=f"refimpl: rule {row['rule']}").encode()
    return out


def _safe(rule: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]", "_", rule)


def _badge(doc: dict[str, Any], name: str) -> dict[str, Any]:
    """A Shields endpoint document for one build of a run: the badge ``verify --badges`` gives that build's
    report, labelled with its name."""
    from .badges import _badge as badge
    from .runs import report_from_json

    report = report_from_json(next(x for x in doc["builds"] if x["name"] == name)["report"])
    return badge(name, report, report.checks)


def _cells(doc: dict[str, Any], name: str) -> dict[tuple[str, str], str]:
    return {(r["game"], r["rule"]): c["status"] for r in doc["rules"] for c in r["cells"] if c["build"] == name}


def _build_history(runs: list[Run], name: str) -> list[dict[str, Any]]:
    """The build's runs, newest first: its verdict and the rules that regressed and were fixed since the run
    before that judged it (matrixdiff.changes, the comparison ``refimpl diff`` makes)."""
    from .matrixdiff import BAD, changes

    out = []
    before: dict[tuple[str, str], str] | None = None
    for run in runs:
        b = next((x for x in run.doc["builds"] if x["name"] == name), None)
        if b is None:
            continue
        now = _cells(run.doc, name)
        moved = changes(before, now) if before is not None else {"regressed": [], "fixed": []}
        out.append({"number": run.number, "when": run.when, "verdict": b["verdict"], "summary": b["summary"],
                    "first": before is None, "failing": sorted(k[1] for k, v in now.items() if v in BAD),
                    **{kind: [f"{c['rule']} ({c['before']} \u2192 {c['after']})" for c in moved[kind]]
                       for kind in ("regressed", "fixed")}})
        before = now
    return out[::-1]


__all__ = ["HISTORY", "VERDICTS", "add_run", "site_folder"]
