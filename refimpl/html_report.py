"""``verify --html``: the report as one self-contained HTML page (no network, no script), to read offline or
attach to a CI run: the verdict and build on top, the conformance matrix per game and rule, then each
failure with the request sent, every differing field, its ledger up to the failing step and pictures of
the position before and after that step (expected and actual, what differs outlined)."""

from __future__ import annotations

import json
from html import escape
from typing import Any, Iterable

from . import pictures
from .compare import every_whole_difference
from .report import (BROKE, FAILED, KINDS, SKIPPED, STATUSES, XFAIL, XPASS, Check, Failure, Report, VERDICTS,
                     printable, show_value, snake)

_STYLE = """
body{font-family:system-ui,sans-serif;margin:1.5em;color:#222;max-width:1400px}
h1{font-size:1.4em;margin:.2em 0}.verdict{padding:.4em .8em;border-radius:4px;display:inline-block;color:#fff}
.conforms{background:#2e7d32}.does_not_conform{background:#c62828}.build_broke{background:#ef6c00}
.interrupted{background:#616161}table{border-collapse:collapse;margin:.5em 0}
td,th{border:1px solid #ccc;padding:2px 8px;font-size:13px;text-align:left;vertical-align:top}
td.n{text-align:right;font-variant-numeric:tabular-nums}td.zero{color:#bbb}
td.failed.hit,td.broke.hit,td.xpass.hit{background:#ffcdd2}td.xfail.hit{background:#fff3cd}
td.passed.hit{background:#e8f5e9}tr.total td{font-weight:bold;border-top:2px solid #888}
tr.kind td{font-style:italic}code,pre{font-family:ui-monospace,monospace;font-size:12px}
pre{background:#f6f6f6;padding:.4em;white-space:pre-wrap;max-height:20em;overflow:auto}
section.problem{border-left:4px solid #c62828;padding:.2em 1em;margin:1em 0}
section.problem.broke{border-color:#ef6c00}.pictures{display:flex;flex-wrap:wrap;gap:1em}
figure{margin:0}figure svg{width:430px;height:auto}figcaption{font-size:13px;font-weight:bold}.bad{background:#ffebee}
.note{color:#555;font-size:13px}
"""


def _e(value: Any) -> str:
    return escape(printable(value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)), quote=True)


def _json(value: Any) -> str:
    return _e(json.dumps(value, ensure_ascii=False, separators=(",", ":")))


def _matrix(report: Report) -> list[str]:
    out = ['<h2>Conformance matrix</h2>',
           '<p class="note">A check counts once under each rule it covers (a failure only under the rules that own '
           'the fields that differ), so the rule rows need not add up to <b>all checks</b>, which counts each '
           'check once. The rows in italics count checks by kind.</p>']
    head = "".join(f"<th>{s}</th>" for s in STATUSES)
    for game, rules in report.matrix().items():
        checks = [c for c in report.checks if c.game == game]
        out += [f'<h3 id="game-{_e(game)}">{_e(game)}</h3>',
                f'<table class="matrix" data-game="{_e(game)}"><tr><th>rule</th>{head}</tr>']
        for rule, counts in rules.items():
            out.append(_row(rule, counts, f'data-rule="{_e(rule)}"'))
        for kind in sorted({c.kind for c in checks}):
            counts = {s: report.count(s, [c for c in checks if c.kind == kind]) for s in STATUSES}
            out.append(_row(KINDS.get(kind, kind), counts, f'class="kind" data-kind="{_e(kind)}"'))
        out.append(_row("all checks", {s: report.count(s, checks) for s in STATUSES}, 'class="total"'))
        out.append("</table>")
    return out


def _row(label: str, counts: dict[str, int], attrs: str) -> str:
    cells = "".join(f'<td class="n {snake(s)}{" hit" if counts[s] else " zero"}" data-status="{snake(s)}">'
                    f'{counts[s]}</td>' for s in STATUSES)
    return f"<tr {attrs}><td>{_e(label)}</td>{cells}</tr>"


def _marks(failure: Failure) -> list[str]:
    """The differing paths as they appear in the drawn view (an observer's view without its prefix)."""
    out = []
    for f in failure.fields:
        path = f.path.partition("].")[2] if f.path.startswith("view[") else f.path
        out.append(path.removeprefix("unchanged-after-rejection."))
    return out


def is_view(value: Any) -> bool:
    """A state view to draw (not a refusal such as ``{"rejected": code}``, not a legal list)."""
    return isinstance(value, dict) and not set(value) <= {"rejected", "error"}


def _pictures(check: Check, failure: Failure) -> list[str]:
    expected, marks = failure.expected_view, _marks(failure)
    if not is_view(expected) and is_view(failure.before) and is_view(failure.actual_view):
        # a refusal was due and the build moved on: the expected position is the one before, unchanged
        expected = failure.before
        marks = [d.path for d in every_whole_difference(failure.before, failure.actual_view)]
    views = [("before the step", failure.before, ()), ("expected after", expected, marks),
             ("actual after", failure.actual_view, marks)]
    drawable = [(t, v, m) for t, v, m in views if is_view(v)]
    if not drawable:
        return []
    whose = f" ({failure.observer}'s view)" if failure.observer else ""
    out = ['<div class="pictures">']
    for title, view, marks in drawable:
        picture = pictures.draw(check.game, view, marks, f"{check.name}: {title}")
        out.append(f'<figure data-picture="{_e(title)}"><figcaption>{_e(title + whose)}</figcaption>{picture}'
                   '</figure>')
    return out + ["</div>"]


def _failure(check: Check, failure: Failure) -> list[str]:
    out = [f"<p>at <code>{_e(failure.where)}</code>"
           + ("" if failure.step is None else f", step {failure.step}") + f": <code>{_e(failure.action)}</code></p>"]
    if failure.request is not None:
        out.append(f"<p>sent: <code>{_json(failure.request)}</code></p>")
    if failure.asked is not None:
        out.append(f"<p>then asked: <code>{_json(failure.asked)}</code></p>")
    if failure.fields:
        out.append('<table class="fields"><tr><th>field</th><th>expected</th><th>actual</th><th>rule</th>'
                   '<th>expected by</th></tr>')
        for f in failure.fields:
            also = f' <span class="note">(see also {_e(", ".join(f.see_also))})</span>' if f.see_also else ""
            out.append(f'<tr class="field" data-path="{_e(f.path)}"><td><code>{_e(f.path)}</code></td>'
                       f"<td><code>{_e(show_value(f.expected, 200))}</code></td>"
                       f"<td><code>{_e(show_value(f.actual, 200))}</code></td>"
                       f"<td>{_e(f.rule or '-')}{also}</td><td>{'the reference' if f.by_reference else 'the trace'}"
                       "</td></tr>")
        out.append("</table>")
    else:
        out.append(f"<pre>{_e(failure.message)}</pre>")
    if failure.ledger:
        out.append('<details open><summary>ledger up to the failing step</summary><table class="ledger">'
                   "<tr><th>step</th><th>line</th><th>action</th><th>expected</th><th>actual</th></tr>")
        for row in failure.ledger:
            actual = "as expected" if row["ok"] else " ".join(row["actual"])
            out.append(f'<tr class="{"ok" if row["ok"] else "bad"}"><td>{row["step"] or "start"}</td>'
                       f'<td>{row["line"] or ""}</td><td><code>{_e(row["action"])}</code></td>'
                       f'<td><code>{_e(" ".join(row["expected"]))}</code></td><td><code>{_e(actual)}</code></td></tr>')
        out.append("</table></details>")
    return out + _pictures(check, failure)


def _problems(checks: Iterable[Check]) -> list[str]:
    out: list[str] = []
    for i, c in enumerate(checks):
        label = {FAILED: "failed", BROKE: "broke", XPASS: "passed, but was expected to fail"}[c.status]
        out.append(f'<section class="problem {snake(c.status)}" id="problem-{i}" data-game="{_e(c.game)}">'
                   f"<h3>{_e(c.kind)} {_e(c.name)} {label} "
                   f'<span class="note">[{_e(", ".join(c.credited))}]</span></h3>')
        if c.failure is not None:
            out += _failure(c, c.failure)
        elif c.detail or c.reason:
            out.append(f"<pre>{_e(c.detail or c.reason)}</pre>")
        if c.stderr:
            out.append(f"<details><summary>build stderr (last lines)</summary><pre>{_e(c.stderr)}</pre></details>")
        out.append("</section>")
    return out


def render(report: Report) -> str:
    """The whole page (UTF-8 text)."""
    verdict = VERDICTS[report.exit_code]
    counts = ", ".join(f"{report.count(s)} {s}" for s in STATUSES if report.count(s)) or "nothing ran"
    body = [f'<h1>refimpl verify: <span class="verdict {verdict}" id="verdict">{_e(verdict.replace("_", " "))}'
            "</span></h1>",
            f'<p>Build: <b id="build">{_e(report.build or "?")}</b> &nbsp; command: <code>{_e(report.command)}'
            f'</code></p><p id="kit" class="note" data-version="{_e(report.kit["version"])}" '
            f'data-suite="{_e(report.kit["suite"])}">Judged by {_e(report.kit["name"])} {_e(report.kit["version"])}, '
            f'suite {_e(report.kit["suite"])}</p>',
            *(f'<p class="profile note" data-game="{_e(p["game"])}">Profile {_e(p["name"])} for {_e(p["game"])} '
              f'({_e(p["file"])}): ' + (_e(", ".join(f'{c["field"]} {json.dumps(c["default"])} \u2192 '
                                                    f'{json.dumps(c["value"])}' for c in p["changed"]))
                                         if p["changed"] else "the defaults") + "</p>" for p in report.profiles),
            f'<p id="counts" data-checks="{len(report.checks)}">{_e(counts)}</p>']
    if report.broke_at_start is not None:
        exc = report.broke_at_start
        body += [f"<h2>The build did not start</h2><pre>{_e(str(exc))}</pre>",
                 f"<pre>{_e(exc.stderr_tail)}</pre>" if exc.stderr_tail else ""]
    body += _matrix(report)
    bad = [c for c in report.checks if c.status in (FAILED, BROKE, XPASS)]
    if bad:
        body += [f"<h2>Problems ({len(bad)})</h2>"] + _problems(bad)
    xfails = [c for c in report.checks if c.status == XFAIL]
    if xfails:
        body += [f"<h2>Expected failures ({len(xfails)})</h2><ul>"]
        body += [f'<li class="xfail">{_e(c.kind)} <b>{_e(c.name)}</b>: {_e(c.reason)}'
                 f'<br><span class="note">{_e(c.failure.message if c.failure else c.detail)}</span></li>'
                 for c in xfails]
        body.append("</ul>")
    skipped = sorted({c.detail for c in report.checks if c.status == SKIPPED and c.detail})
    if skipped:
        body += ["<h2>Not run</h2><ul>"] + [f"<li>{_e(reason)}</li>" for reason in skipped] + ["</ul>"]
    notes = [f"Warning: {w}" for w in report.warnings]
    if report.stopped:
        notes.append(f"Stopped early: {report.stopped}; what had not run is counted as not run.")
    if notes:
        body += ["<h2>Notes</h2><ul>"] + [f"<li>{_e(n)}</li>" for n in notes] + ["</ul>"]
    title = _e(f"refimpl verify: {report.build or report.command}: {verdict}")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{title}</title><style>{_STYLE}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")
