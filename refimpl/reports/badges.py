"""Shields.io endpoint badges for a verify run (https://shields.io/badges/endpoint-badge).

One document per game that has checks in the report (label: the game's id, e.g. ``ludo``), one for
the whole run under the key ``all`` (label ``refimpl`` and the kit's version, e.g. ``refimpl 0.2.0``), and
one naming the kit that judged under the key ``kit`` (message: its version and suite digest, blue). Schema:
refimpl/schemas/output/badge.schema.json.

A badge counts the checks that ran (passed, failed, xfail, xpass, broke); *not run* checks are no
evidence and are left out. Its message and colour, the first that applies:

- ``interrupted``, lightgrey: the run was cut short (Ctrl-C, SIGTERM); it gives no verdict, so every
  badge says so;
- ``broke``, orange: a check broke the build, or the build did not start (then every badge);
- ``F failing of N``, red: F checks failed or passed although expected to fail (xpass), of N that ran;
- ``not run``, lightgrey: no check ran;
- ``conforms P/N``, brightgreen: P passed of N that ran; ``conforms P/N (X xfail)`` when X of them
  are known deviations (``--expect-fail``) that failed as expected.

So the ``all`` badge is green exactly when verify exits 0, red or lightgrey when it exits 1, orange
when it exits 3.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..games import GAMES
from ..status import Status
from ..util.files import OwnedFolder
from .model import Check, Report

ALL = "all"
KIT = "kit"
COLOURS = {"conforms": "brightgreen", "failing": "red", "broke": "orange", "not-run": "lightgrey",
           "interrupted": "lightgrey", "kit": "blue"}


def _document(label: str, message: str, kind: str) -> dict[str, Any]:
    """A Shields endpoint document."""
    return {"schemaVersion": 1, "label": label, "message": message, "color": COLOURS[kind]}


def _badge(label: str, report: Report, checks: list[Check]) -> dict[str, Any]:
    """The badge of ``checks``, a game's or all of them."""
    if report.interrupted:
        return _document(label, "interrupted", "interrupted")
    passed, xfail = report.count(Status.PASSED, checks), report.count(Status.XFAIL, checks)
    failing = report.count(Status.FAILED, checks) + report.count(Status.XPASS, checks)
    ran = passed + xfail + failing + report.count(Status.BROKE, checks)
    if report.broke_at_start is not None or report.count(Status.BROKE, checks):
        return _document(label, "broke", "broke")
    if failing:
        return _document(label, f"{failing} failing of {ran}", "failing")
    if not ran:
        return _document(label, "not run", "not-run")
    known = f" ({xfail} xfail)" if xfail else ""
    level = f" at level {report.level}" if report.level != "full" else ""  # a play-level verdict says so
    return _document(label, f"conforms{level} {passed}/{ran}{known}", "conforms")


def games(report: Report) -> list[str]:
    """The games with checks in the report, sorted."""
    return sorted({c.game for c in report.checks})


def badges(report: Report) -> dict[str, dict[str, Any]]:
    """game (and ``all``, ``kit``) -> its Shields endpoint document."""
    out = {game: _badge(game, report, [c for c in report.checks if c.game == game]) for game in games(report)}
    out[ALL] = _badge(f"{report.kit['name']} {report.kit['version']}", report, report.checks)
    out[KIT] = _document(report.kit["name"], f"{report.kit['version']} (suite {report.kit['suite']})", "kit")
    return out


HEX = {"brightgreen": "#4c1", "red": "#e05d44", "orange": "#fe7d37", "lightgrey": "#9f9f9f", "blue": "#007ec6"}


def svg(doc: dict[str, Any]) -> str:
    """A badge drawn locally (for a private repository, where Shields cannot read the JSON): the label on grey,
    the message on the badge's colour, text widths estimated at 6.5 px a character (7 for wide ones)."""
    from xml.sax.saxutils import escape

    from rich.cells import cell_len

    label, message = str(doc["label"]), str(doc["message"])
    lw, mw = 10 + int(6.5 * cell_len(label)), 10 + int(6.5 * cell_len(message))
    colour = HEX.get(str(doc["color"]), "#9f9f9f")
    text = f"{label}: {message}"
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{lw + mw}" height="20" role="img" '
            f'aria-label="{escape(text, {chr(34): "&quot;"})}"><title>{escape(text)}</title>'
            f'<rect width="{lw}" height="20" fill="#555"/><rect x="{lw}" width="{mw}" height="20" fill="{colour}"/>'
            f'<g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11" text-anchor="middle">'
            f'<text x="{lw / 2}" y="14">{escape(label)}</text><text x="{lw + mw / 2}" y="14">{escape(message)}</text>'
            f'</g></svg>\n')


def folder(path: str | Path) -> OwnedFolder:
    """The badge folder: the kit writes ``<game>.json``, ``all.json`` and ``kit.json`` there and replaces only
    the badges it wrote itself (refimpl/util/files.py)."""
    stems = set(GAMES) | {ALL, KIT, "protocol"}
    names = {f"{stem}.{ext}" for stem in stems for ext in ("json", "svg")}
    return OwnedFolder(path, "badges", names.__contains__)


def write_badges(report: Report, path: str | Path) -> list[Path]:
    """Write ``<folder>/<game>.json`` per game, ``<folder>/all.json`` and ``<folder>/kit.json`` (and each as an
    SVG beside it), creating the folder, and remove the badges an earlier run wrote there that this one does not;
    the paths. Raises OSError, and refuses a folder holding a file of a badge's name that the kit did not write."""
    files = []
    for name, doc in badges(report).items():
        files.append((f"{name}.json", (json.dumps(doc, ensure_ascii=True) + "\n").encode()))
        files.append((f"{name}.svg", svg(doc).encode("utf-8")))
    return folder(path).replace_all(files)
