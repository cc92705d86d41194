"""Everything the kit holds about one rule or ruling (``refimpl rule ID``): the spec's text, the code that cites
it, the scenarios tagged with it, the traces that name it and the misreadings that target it.

A citation is the ID as a word in a comment or a docstring of the kit's Python source (a docstring's
"Implements" and the IDs, or a comment naming the ruling); tables that list IDs as data (``field_rules``,
``stream_rules``) are not citations. Places are named as reports name them: code by its path from the
package's parent (``refimpl/games/ludo/engine.py``), the suite by its place in the repository
(``features/ludo.feature``, ``traces/ludo/capture.yaml``). The misreading catalogue (tests/misreadings)
lives in the repository only: an installed wheel does not carry it, and then its entry is None.
"""

from __future__ import annotations

import ast
import difflib
import io
import sys
import textwrap
import tokenize
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path
from typing import Any

from .. import suite
from ..errors import KitError
from ..games import GAMES
from ..games.registry import KIT_FOLDER
from .rules import RULE_WORD, rule_lines, spec_rules

PACKAGE = Path(__file__).resolve().parent.parent  # the refimpl package


@dataclass(frozen=True)
class Stated:
    """A rule or ruling as its spec states it: the game, the spec's repository name, the line and the text."""

    rule: str
    game: str
    spec: str
    line: int
    text: str


@dataclass(frozen=True)
class Citation:
    """A comment or docstring line of the kit's source that names a rule: file, line and the line's text."""

    file: str
    line: int
    text: str


@dataclass(frozen=True)
class TaggedScenario:
    """A scenario tagged with a rule (or in a feature tagged with it): feature file, line and name."""

    file: str
    line: int
    name: str


@dataclass(frozen=True)
class TraceMention:
    """A trace whose ``rules`` name a rule: the whole trace (``step`` None) or one step (1-based, as reports
    count), with the line of that ``rules`` list or step."""

    file: str
    line: int
    step: int | None


@dataclass(frozen=True)
class Misreading:
    """A catalogue entry that misreads a rule: its key (``LD-CAP-2#bonus-on-safe``), the file and line of its
    factory, and the first line of the factory's docstring (how the builder reads the rule)."""

    key: str
    file: str
    line: int
    reading: str


@dataclass(frozen=True)
class Entry:
    """Everything about one rule; ``misreadings`` is None when the catalogue is not installed with the kit."""

    rule: Stated
    citations: tuple[Citation, ...]
    scenarios: tuple[TaggedScenario, ...]
    traces: tuple[TraceMention, ...]
    misreadings: tuple[Misreading, ...] | None


class UnknownRule(KitError, LookupError):
    """No spec states the rule asked for; ``close`` holds the IDs that look like it, closest first."""

    def __init__(self, asked: str, close: list[str]) -> None:
        hint = f" (close matches: {', '.join(close)})" if close else ""
        super().__init__(f"no spec states a rule or ruling {asked!r}{hint}")
        self.asked, self.close = asked, close


# --- the specs --------------------------------------------------------------------------------------

@cache
def stated_rules() -> dict[str, Stated]:
    """Every rule and ruling of every game's spec, game by game in registry order and in spec order."""
    out: dict[str, Stated] = {}
    for name, engine in GAMES.items():
        text = suite.spec_text(engine.info.spec) or ""
        lines = rule_lines(text)
        for rule, body in spec_rules(text).items():
            out[rule] = Stated(rule, name, engine.info.spec, lines.get(rule, 0), body)
    return out


def close_matches(asked: str, count: int = 5) -> list[str]:
    """The known IDs that look most like ``asked`` (case ignored), closest first."""
    return difflib.get_close_matches(asked.strip().upper(), list(stated_rules()), n=count, cutoff=0.6)


def home_of(game: str) -> str:
    """Where a game's engine lives, as citations name it: its package with a trailing slash
    (``refimpl/games/ludo/``). Raises KeyError for an unknown game."""
    path = Path(sys.modules[type(GAMES[game]).__module__].__file__ or "").resolve()
    games = PACKAGE / "games"
    if path.parent != games and games in path.parents:
        return (games / path.relative_to(games).parts[0]).relative_to(PACKAGE.parent).as_posix() + "/"
    return path.relative_to(PACKAGE.parent).as_posix()


# --- the code ----------------------------------------------------------------------------------------

def cited_in(text: str) -> list[tuple[str, int]]:
    """(ID, line) for every rule or ruling ID written as a word in a comment or a docstring (any string that
    stands alone as a statement) of the Python source ``text``, in line order. Raises SyntaxError (and
    tokenize.TokenError) for text that is not Python."""
    lines = text.splitlines()
    found: set[tuple[str, int]] = set()
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT:
            found.update((m.group(), token.start[0]) for m in RULE_WORD.finditer(token.string))
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            for number in range(node.lineno, (node.end_lineno or node.lineno) + 1):
                found.update((m.group(), number) for m in RULE_WORD.finditer(lines[number - 1]))
    return sorted(found, key=lambda f: (f[1], f[0]))


@cache
def citations() -> dict[str, tuple[Citation, ...]]:
    """Rule ID -> every place of the kit's Python source that cites it, file by file in path order. Raises
    SyntaxError for a source file that is not Python (a broken install)."""
    out: dict[str, list[Citation]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        name = path.relative_to(PACKAGE.parent).as_posix()
        for rule, line in cited_in(text):
            out.setdefault(rule, []).append(Citation(name, line, lines[line - 1].strip()))
    return {rule: tuple(places) for rule, places in out.items()}


def cited_at(rule: str) -> tuple[Citation, ...]:
    """The places that cite ``rule``: those in its game's engine (home_of, not its unit's parts) first, then the rest
    of the kit."""
    places = citations().get(rule, ())
    stated = stated_rules().get(rule)
    if stated is None:
        return places
    home = home_of(stated.game)
    return tuple(sorted(places, key=lambda c: not c.file.startswith(home) or f"/{KIT_FOLDER}/" in c.file))


# --- the suite ---------------------------------------------------------------------------------------

def scenarios_of(rule: str) -> tuple[TaggedScenario, ...]:
    """The bundled scenarios tagged with ``rule`` (an outline: each example row), in file and line order.
    Raises refimpl.scenarios.gherkin.FeatureError for a feature file the kit cannot read."""
    from ..scenarios.gherkin import load_folder

    return tuple(TaggedScenario(s.file, s.line, s.name + (f" [{s.example}]" if s.example is not None else ""))
                 for s in load_folder(suite.feature_folder(), "features") if rule in s.rules)


def traces_of(rule: str) -> tuple[TraceMention, ...]:
    """The bundled traces whose ``rules`` (of the whole trace, or of a step) name ``rule``, in file order.
    Raises refimpl.harness.trace.TraceError for a trace the kit cannot read."""
    from ..harness.tracefile import load_traces

    out: list[TraceMention] = []
    for trace in load_traces([suite.trace_folder()]):
        name = suite.shown(trace.path) or trace.path
        if rule in trace.rules:
            out.append(TraceMention(name, trace.line_of(("rules",)) or 1, None))
        out += [TraceMention(name, step.line, step.number) for step in trace.steps if rule in step.rules]
    return tuple(out)


def catalogue_folder() -> Path | None:
    """The misreading catalogue (tests/misreadings beside the package, in a checkout or an editable install),
    or None when the kit is installed without it (a wheel)."""
    root = PACKAGE.parent
    folder = root / "tests" / "misreadings"
    return folder if (folder / "__init__.py").is_file() and (root / "pyproject.toml").is_file() else None


def catalogue_entries(text: str) -> list[tuple[str, int, str]]:
    """(key, line of the factory, first line of its docstring) for each entry of the literal ``MISREADINGS``
    dict of one catalogue module's source ``text``, in the dict's order. Raises SyntaxError."""
    tree = ast.parse(text)
    defined = {n.name: n for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
    out: list[tuple[str, int, str]] = []
    for node in tree.body:
        target: ast.expr
        table: ast.expr | None
        if isinstance(node, ast.AnnAssign):
            target, table = node.target, node.value
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, table = node.targets[0], node.value
        else:
            continue
        if not (isinstance(target, ast.Name) and target.id == "MISREADINGS" and isinstance(table, ast.Dict)):
            continue
        for key, value in zip(table.keys, table.values):
            if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                continue  # ``**other``: the merged catalogue of __init__.py
            factory = defined.get(value.id) if isinstance(value, ast.Name) else None
            doc = (ast.get_docstring(factory) or "") if factory is not None else ""
            out.append((key.value, factory.lineno if factory is not None else key.lineno,
                        doc.strip().split("\n")[0] if doc else ""))
    return out


def misreadings_of(rule: str) -> tuple[Misreading, ...] | None:
    """The catalogue's misreadings of ``rule`` (key ``rule`` or ``rule#name``), or None when the catalogue is
    not installed with the kit. Raises SyntaxError for a catalogue module that is not Python."""
    folder = catalogue_folder()
    if folder is None:
        return None
    out: list[Misreading] = []
    for path in sorted(folder.glob("*.py")):
        name = path.relative_to(folder.parent.parent).as_posix()
        out += [Misreading(key, name, line, reading)
                for key, line, reading in catalogue_entries(path.read_text(encoding="utf-8"))
                if key.split("#", 1)[0] == rule]
    return tuple(out)


# --- one rule ----------------------------------------------------------------------------------------

def lookup(asked: str) -> Entry:
    """Everything about the rule or ruling ``asked`` (case ignored). Raises UnknownRule naming close matches."""
    rule = asked.strip().upper()
    stated = stated_rules().get(rule)
    if stated is None:
        raise UnknownRule(asked, close_matches(asked))
    return Entry(stated, cited_at(rule), scenarios_of(rule), traces_of(rule), misreadings_of(rule))


def as_json(entry: Entry) -> dict[str, Any]:
    """An entry as machine output (refimpl/schemas/output/rule.schema.json)."""
    return {"rule": entry.rule.rule, "game": entry.rule.game,
            "spec": {"file": entry.rule.spec, "line": entry.rule.line, "text": entry.rule.text},
            "citations": [asdict(c) for c in entry.citations],
            "scenarios": [asdict(s) for s in entry.scenarios],
            "traces": [asdict(t) for t in entry.traces],
            "misreadings": None if entry.misreadings is None else [asdict(m) for m in entry.misreadings]}


def as_text(entry: Entry, width: int = 100) -> str:
    """An entry as the text ``refimpl rule ID`` prints."""
    r = entry.rule
    body = textwrap.fill(r.text, width, initial_indent="  ", subsequent_indent="  ", break_on_hyphens=False)
    out = [f"{r.rule} ({r.game}), {r.spec}:{r.line}", body, ""]

    def section(title: str, rows: list[str], none: str) -> None:
        out.append(f"{title} ({len(rows)}):" if rows else f"{title}: {none}")
        out.extend(f"  {row}" for row in rows)
        out.append("")

    section("Cited in the kit's code", [f"{c.file}:{c.line}  {c.text}" for c in entry.citations], "nowhere")
    section("Scenarios tagged with it", [f"{s.file}:{s.line}  {s.name}" for s in entry.scenarios], "none")
    section("Traces naming it", [f"{t.file}:{t.line}  " + ("the whole trace" if t.step is None else f"step {t.step}")
                                 for t in entry.traces], "none")
    if entry.misreadings is None:
        out.append("Misreadings: the catalogue (tests/misreadings) is not installed with the kit")
    else:
        section("Misreadings targeting it", [f"{m.file}:{m.line}  {m.key}  {m.reading}".rstrip()
                                             for m in entry.misreadings], "none")
    return "\n".join(out).rstrip("\n") + "\n"

