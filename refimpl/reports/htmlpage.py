"""``verify --html``: the report as one self-contained HTML page (no network, no script), to read offline or
attach to a CI run. It opens on the problem: the verdict, the build, the kit, the profiles and the counts on
top with a linked list of every failure, broken check and unexpected pass; then each of them in full (the
request sent, every differing field with the whole text of the rule that owns it, a legal list's missing and
extra actions in full, the expected and actual positions side by side with what differs outlined and what the
step moved drawn, the later differences of the trace); then the conformance matrix, a game whose checks all
passed folded.

The page is rendered by Jinja2 from ``refimpl/reports/templates`` with autoescaping on: every value (a build's name,
stderr and answers among them) reaches the page escaped and made printable (``_finalize``); only the pictures
(``refimpl.reports.pictures``, which escape what they draw) and the rule texts (escaped, then given their code spans)
are marked safe."""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup, escape

from .. import suite
from ..games import GAMES
from ..harness.compare import MISSING, every_whole_difference, field_differences
from ..rulebook.rules import spec_rules
from ..status import Status
from . import pictures
from .jsondoc import snake
from .model import KINDS, STATUSES, VERDICTS, Check, Failure, FieldDiff, Report
from .safetext import printable
from .text import show_value

LONG = 90  # characters of JSON shown inline; a longer value gets a block of its own, in full
INNER = 60  # differences listed inside one differing field that holds a list or an object
SHOWN_CAPTION = 8  # caption lines of a picture shown before "n more"


# --- the Jinja2 environment ------------------------------------------------------------------------------

def _finalize(value: Any) -> Any:
    """Every ``{{ value }}`` passes here before it is escaped: nothing a terminal or a page cannot hold (a
    control character becomes a visible escape, a lone surrogate U+FFFD), None as nothing."""
    if isinstance(value, Markup):
        return value
    if value is None:
        return ""
    return printable(value if isinstance(value, str) else str(value))


def _compact(value: Any) -> str:
    """A JSON value as one line (``<missing>`` for a key that is not there)."""
    if value is MISSING:
        return "<missing>"
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError):
        return repr(value)


def _pretty(value: Any) -> str:
    """A JSON value for a block of its own: a list an item a line, an object a key a line."""
    if isinstance(value, list) and value:
        return "[\n  " + ",\n  ".join(_compact(v) for v in value) + "\n]"
    if isinstance(value, dict) and value:
        return "{\n  " + ",\n  ".join(f"{_compact(str(k))}: {_compact(v)}" for k, v in value.items()) + "\n}"
    return _compact(value)


_CODE = re.compile(r"`([^`]+)`")
_CITE = re.compile(r"\*\(([^*]*)\)\*")
_BOLD = re.compile(r"\*\*([^*]+)\*\*")
_ITALIC = re.compile(r"\*([^*\s][^*]*)\*")


def _rule_words(text: str) -> Markup:
    """A rule's text as the spec writes it (Markdown code spans, bold, italics and the citation), escaped
    first, so only the tags added here are markup."""
    out = str(escape(printable(text)))
    out = _CODE.sub(r"<code>\1</code>", out)
    out = _BOLD.sub(r"<b>\1</b>", out)
    out = _CITE.sub(r'<span class="cite">(\1)</span>', out)
    return Markup(_ITALIC.sub(r"<em>\1</em>", out))


@cache
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.PackageLoader("refimpl.reports", "templates"), autoescape=True,
                             undefined=jinja2.StrictUndefined, finalize=_finalize, trim_blocks=True,
                             lstrip_blocks=True, keep_trailing_newline=True)
    env.filters.update(compact=_compact, pretty=_pretty, rule_words=_rule_words)
    return env


# --- what the page shows, worked out before it is rendered ------------------------------------------------

@cache
def rule_texts(game: str) -> dict[str, str]:
    """Rule ID -> its whole text, as the game's spec states it ({} for a game the kit does not know)."""
    if game not in GAMES:
        return {}
    text = suite.spec_text(GAMES[game].info.spec)
    try:
        return spec_rules(text or "")
    except ValueError:
        return {}


def _anchor(*parts: str) -> str:
    """An ``id`` made of the kit's own words (never a build's): letters, digits and dashes."""
    return re.sub(r"[^A-Za-z0-9_-]+", "-", "-".join(parts)).strip("-")


@dataclass
class Rule:
    id: str
    text: str  # the whole text from the spec ("" when no spec states this ID)
    anchor: str


@dataclass
class Field:
    path: str
    expected: str  # compact JSON
    actual: str
    long: bool  # shown as blocks under the row, in full
    expected_block: str
    actual_block: str
    rule: Rule | None
    others: list[Rule]  # every other rule credited, then those that also decide the field
    source: str  # the trace | the reference
    inner: list[tuple[str, str, str]]  # differences inside a list or object: (path, expected, actual)
    inner_more: int
    legal: Legal | None


@dataclass
class Legal:
    """A legal list that differs: every action missing from the build's list and every extra one."""
    path: str
    missing: list[str]
    extra: list[str]
    expected_count: int | None  # actions in the expected list, when the answer is at hand
    actual_count: int | None


@dataclass
class Figure:
    title: str  # "expected after": tests and readers find a picture by it
    caption: str
    svg: Markup
    lines: list[tuple[str, bool]]  # caption lines under the board (text, names a difference)
    more: list[tuple[str, bool]]


@dataclass
class FailureView:
    where: str
    step: str
    action: str
    request: Any
    asked: Any
    fields: list[Field]
    rules: list[Rule]  # the rules credited, with their whole text
    also: list[Rule]  # rules that also decide these fields
    legal: list[Legal]
    message: str
    ledger: list[dict[str, Any]]
    figures: list[Figure]
    moved: bool  # the pictures show what the step moved (the position before it is at hand)
    later: list[FailureView] = field(default_factory=list)
    screens: list[tuple[str, str]] = field(default_factory=list)  # a page's own screen: (caption, data: URI)


@dataclass
class Problem:
    anchor: str
    check: Check
    status: str  # failed | broke | xpass (snake case)
    label: str
    summary: str  # one line for the list on top
    rules: list[Rule]
    failure: FailureView | None


def _rule(game: str, rule: str, prefix: str) -> Rule:
    return Rule(rule, rule_texts(game).get(rule, ""), _anchor(prefix, "rule", rule))


def legal_of(f: FieldDiff, expected_view: Any = None, actual_view: Any = None) -> Legal | None:
    """A legal-list difference (``{"missing": [...]}`` against ``{"extra": [...]}``) in full, or None."""
    missing = f.expected.get("missing") if isinstance(f.expected, dict) else None
    extra = f.actual.get("extra") if isinstance(f.actual, dict) else None
    if not isinstance(missing, list) or not isinstance(extra, list):
        return None
    return Legal(f.path, [a if isinstance(a, str) else _compact(a) for a in missing],
                 [a if isinstance(a, str) else _compact(a) for a in extra],
                 len(expected_view) if isinstance(expected_view, list) else None,
                 len(actual_view) if isinstance(actual_view, list) else None)


def _ids(value: Any) -> dict[str, Any] | None:
    """A list of objects that each have an id (Conquest King's units) by id, or None."""
    if not isinstance(value, list) or not all(isinstance(u, dict) and isinstance(u.get("id"), str) for u in value):
        return None
    return {u["id"]: u for u in value}


def inner_differences(path: str, expected: Any, actual: Any) -> list[tuple[str, Any, Any]]:
    """The differences inside a field that holds a list or an object, ``(path, expected, actual)``, as
    ``compare.field_differences`` names them (objects with ids by id: ``units[id=gaias-2].at``); none when the
    values differ only as a whole (lists of other lengths: nothing finer to say)."""
    found = field_differences(expected, actual, path)
    if len(found) == 1 and found[0].path == path:
        return []
    return [(d.path, d.expected, d.actual) for d in found]


def _field(game: str, f: FieldDiff, prefix: str, failure: Failure) -> Field:
    legal = legal_of(f, failure.expected_view if f.path.endswith("legal") else None,
                     failure.actual_view if f.path.endswith("legal") else None)
    expected, actual = _compact(f.expected), _compact(f.actual)
    if legal is not None:
        expected, actual = f"{len(legal.missing)} missing", f"{len(legal.extra)} extra"
    inner: list[tuple[str, str, str]] = []
    more = 0
    if legal is None and isinstance(f.expected, (dict, list)) and isinstance(f.actual, (dict, list)):
        found = inner_differences(f.path, f.expected, f.actual)
        inner = [(p, _compact(e), _compact(a)) for p, e, a in found[:INNER]]
        more = max(0, len(found) - INNER)
    others = [r for r in f.credited if r != f.rule] + [r for r in f.see_also if r not in f.credited]
    return Field(f.path, expected, actual, legal is None and max(len(expected), len(actual)) > LONG,
                 _pretty(f.expected), _pretty(f.actual), _rule(game, f.rule, prefix) if f.rule else None,
                 [_rule(game, r, prefix) for r in others], "the reference" if f.by_reference else "the trace",
                 inner, more, legal)


def is_view(value: Any) -> bool:
    """A state view to draw (not a refusal such as ``{"rejected": code}``, not a legal list)."""
    return isinstance(value, dict) and not set(value) <= {"rejected", "error"}


def _drawn_path(path: str) -> str:
    """A differing path as it appears in the drawn view (an observer's view without its prefix)."""
    path = path.partition("].")[2] if path.startswith("view[") else path
    return path.removeprefix("unchanged-after-rejection.")


def _by_id(path: str, expected: Any, actual: Any) -> tuple[list[str], list[str]] | None:
    """For a list of objects with ids (Conquest King's units) that differs as a whole: the entries of each
    side that the other side does not hold as they are (matched by id), or None."""
    if not (isinstance(expected, list) and isinstance(actual, list)):
        return None
    if not all(isinstance(u, dict) and isinstance(u.get("id"), str) for u in (*expected, *actual)):
        return None
    theirs = {u["id"]: u for u in actual}
    ours = {u["id"]: u for u in expected}
    left = [f"{path}[{i}]" for i, u in enumerate(expected) if theirs.get(u["id"]) != u]
    right = [f"{path}[{i}]" for i, u in enumerate(actual) if ours.get(u["id"]) != u]
    return (left, right) if left or right else None


def marks(failure: Failure, expected: Any) -> tuple[list[str], list[str]]:
    """The paths to outline on the expected and on the actual picture: each differing field, a list of units
    narrowed to the units that differ (each side its own indexes)."""
    if expected is failure.before:  # a refusal was due and the build moved on: what it changed
        paths = [d.path for d in every_whole_difference(failure.before, failure.actual_view)]
        return paths, paths
    left: list[str] = []
    right: list[str] = []
    for f in failure.fields:
        path = _drawn_path(f.path)
        narrowed = _by_id(path, f.expected, f.actual)
        if narrowed is None:
            left.append(path)
            right.append(path)
        else:
            left += narrowed[0]
            right += narrowed[1]
    return left, right


def _figure(game: str, name: str, title: str, caption: str, view: Any, marked: Iterable[str],
            before: Any) -> Figure:
    with pictures.captions_apart() as lines:
        svg = pictures.draw(game, view, marked, f"{name}: {title}", before=before)
    # what differs first, then the drawer's notes and legend
    shown = sorted(((printable(line), line.startswith("differs: ")) for line in lines), key=lambda x: not x[1])
    return Figure(title, caption, Markup(svg), shown[:SHOWN_CAPTION], shown[SHOWN_CAPTION:])


def _figures(check: Check, failure: Failure) -> list[Figure]:
    """Expected and actual after the step (side by side), then the position before it."""
    expected = failure.expected_view
    if not is_view(expected) and is_view(failure.before) and is_view(failure.actual_view):
        expected = failure.before  # a refusal was due and the build moved on: the position before, unchanged
    left, right = marks(failure, expected)
    whose = f" ({failure.observer}'s view)" if failure.observer else ""
    before = failure.before if is_view(failure.before) else None
    moved_from = before if expected is not failure.before else None
    out = []
    if is_view(expected):
        unchanged = " (the position before, unchanged: a refusal was due)" if expected is failure.before else ""
        out.append(_figure(check.game, check.name, "expected after", f"expected after the step{whose}{unchanged}",
                           expected, left, moved_from))
    if is_view(failure.actual_view):
        out.append(_figure(check.game, check.name, "actual after", f"actual after the step{whose}: the build's",
                           failure.actual_view, right, before))
    if before is not None:
        seen = before.get("observer") if isinstance(before, dict) else None
        out.append(_figure(check.game, check.name, "before the step",
                           "before the step" + (f" ({seen}'s view)" if seen else " (the whole state)" if whose else ""),
                           before, (), None))
    return out


def _failure(check: Check, failure: Failure, prefix: str) -> FailureView:
    fields = [_field(check.game, f, prefix, failure) for f in failure.fields]
    credited = list(dict.fromkeys(r for f in failure.fields for r in f.credited))
    also = [r for r in dict.fromkeys(r for f in failure.fields for r in f.see_also) if r not in credited]
    step = "" if failure.step is None else "the start" if failure.step == 0 else f"step {failure.step}"
    # each later difference on its own (the later ones of a later one are listed with the first failure)
    later = [_failure(check, replace(f, later=()), f"{prefix}-later-{k}") for k, f in enumerate(failure.later)]
    return FailureView(failure.where, step, failure.action, failure.request, failure.asked, fields,
                       [_rule(check.game, r, prefix) for r in credited],
                       [_rule(check.game, r, prefix + "-also") for r in also],
                       [f.legal for f in fields if f.legal is not None], failure.message,
                       [dict(row) for row in failure.ledger], _figures(check, failure), is_view(failure.before),
                       later)


def _screens(check: Check) -> list[tuple[str, str]]:
    """A page build's pictures of itself (verify --page), embedded so the report stays one file: the page after
    the failing step, then before it; a file gone since the run is left out."""
    out = []
    for path, caption in zip(check.screens, ("the page before the step: its own screen",
                                             "the page after the step: its own screen")):
        try:
            data = Path(path).read_bytes()
        except OSError:
            continue
        if data.startswith(b"\x89PNG"):
            out.append((caption, "data:image/png;base64," + base64.b64encode(data).decode("ascii")))
    return out[::-1]


def _summary(check: Check) -> str:
    """A problem in one line, for the list on top."""
    f = check.failure
    if check.status == Status.XPASS:
        return f"passed, but was expected to fail: {check.reason}"
    if f is None:
        return (check.detail or check.reason or check.status).strip().partition("\n")[0]
    where = "" if f.step is None else "the start: " if f.step == 0 else f"step {f.step}: "
    if not f.fields:
        return where + (f.message.partition("\n")[0] or f.action)
    first = f.fields[0]
    legal = legal_of(first)
    if legal is not None:
        said = f"{len(legal.missing)} missing, {len(legal.extra)} extra"
    elif _ids(first.expected) is not None and _ids(first.actual) is not None and \
            (found := inner_differences("", first.expected, first.actual)):
        said = "; ".join(f"{p} " + ("extra" if e is MISSING else "missing" if a is MISSING else
                                    f"expected {show_value(e, 24)}, got {show_value(a, 24)}") for p, e, a in found[:3])
    else:
        said = f"expected {show_value(first.expected, 40)}, got {show_value(first.actual, 40)}"
    more = f" (and {len(f.fields) - 1} more fields)" if len(f.fields) > 1 else ""
    later = f"; {len(f.later)} later difference{'s' if len(f.later) > 1 else ''}" if f.later else ""
    return f"{where}{_drawn_path(first.path)}: {said}{more}{later}"


_LABELS = {Status.FAILED: "failed", Status.BROKE: "broke", Status.XPASS: "passed, but was expected to fail"}


def _problems(checks: list[Check]) -> list[Problem]:
    out = []
    for i, c in enumerate(checks):
        prefix = f"problem-{i}"
        failure = _failure(c, c.failure, prefix) if c.failure is not None else None
        if failure is not None:
            failure.screens = _screens(c)
        out.append(Problem(prefix, c, snake(c.status), _LABELS[c.status], _summary(c),
                           [_rule(c.game, r, prefix) for r in c.credited], failure))
    return out


@dataclass
class Game:
    name: str
    anchor: str
    open: bool  # a game with a failure, a broken check or an unexpected pass is shown unfolded
    counts: dict[Status, int]
    rules: list[tuple[str, dict[Status, int]]]
    kinds: list[tuple[str, str, dict[Status, int]]]  # (kind, how the matrix names it, counts)


def _games(report: Report) -> list[Game]:
    out = []
    for game, rules in report.matrix().items():
        checks = [c for c in report.checks if c.game == game]
        counts = {s: report.count(s, checks) for s in STATUSES}
        kinds = [(kind, KINDS.get(kind, kind), {s: report.count(s, [c for c in checks if c.kind == kind])
                                                for s in STATUSES}) for kind in sorted({c.kind for c in checks})]
        bad = bool(counts[Status.FAILED] or counts[Status.BROKE] or counts[Status.XPASS])
        out.append(Game(game, _anchor("game", game), bad, counts, list(rules.items()), kinds))
    return out


def _profile(p: dict[str, Any]) -> str:
    changed = ", ".join(f"{c['field']} {_compact(c['default'])} \u2192 {_compact(c['value'])}" for c in p["changed"])
    return f"Profile {p['name']} for {p['game']} ({p['file']}): {changed or 'the defaults'}"


def render(report: Report) -> str:
    """The whole page (UTF-8 text)."""
    verdict = VERDICTS[report.exit_code]
    bad = [c for c in report.checks if c.status in (Status.FAILED, Status.BROKE, Status.XPASS)]
    notes = [f"Warning: {w}" for w in report.warnings]
    if report.stopped:
        notes.append(f"Stopped early: {report.stopped}; what had not run is counted as not run.")
    if report.interrupted:
        notes.append(f"Interrupted ({report.interrupted}): what had not run is counted as not run.")
    page = _environment().get_template("report.html").render(
        report=report, verdict=verdict, verdict_words=verdict.replace("_", " "),
        counts=[(s, snake(s), report.count(s)) for s in STATUSES if report.count(s)],
        problems=_problems(bad), games=_games(report), statuses=[(s, snake(s)) for s in STATUSES],
        profiles=[(p, _profile(p)) for p in report.profiles],
        xfails=[c for c in report.checks if c.status == Status.XFAIL],
        skipped=sorted({c.detail for c in report.checks if c.status == Status.NOT_RUN and c.detail}),
        notes=notes, passed=Status.PASSED, title=f"refimpl verify: {report.build or report.command}: {verdict}")
    return page if page.endswith("\n") else page + "\n"
