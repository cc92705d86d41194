"""Which rules the reference reaches while it answers (issue 41): rule coverage, measured at the rules' own citations.

The engines cite each rule at the code that decides it (a comment at the line, or the docstring of the function;
tests/test_rule_citations.py holds them to it). A citation becomes a *site*: a comment on a line of code is that
line; a comment on a line of its own, the next statement of the same function; a function's docstring, every call
of that function. Citations outside a function (module and class docstrings, the tables of which fields a rule
decides) are not sites: nothing runs there while a game is played.

``Reach`` is a context manager that counts, with ``sys.settrace``, how often each site of the engines' files runs
while it is open, in this thread; ``Reach.rules`` turns the counts into hits per rule. It is the kit's one tracer,
switched on only where coverage is asked for (``verify --coverage``, the rule-reach tests) or where a difference
is credited (``decided_by``): a traced reference is several times slower than an untraced one.
"""

from __future__ import annotations

import ast
import sys
import threading
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import FrameType
from typing import Any

from ..games.registry import engine_files
from . import lookup

CALL, LINE = "call", "line"


@dataclass(frozen=True)
class Site:
    """Where a citation is reached: a ``call`` of the function starting at ``line``, or a ``line`` run."""

    kind: str
    file: str  # the absolute path, as code objects name it
    line: int


def _functions(tree: ast.AST) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    return [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]


def sites_in(text: str, path: str) -> dict[str, set[Site]]:
    """Rule ID -> the sites of its citations in the Python source ``text`` of the file ``path``."""
    tree = ast.parse(text)
    functions = _functions(tree)
    docstrings: dict[int, ast.FunctionDef | ast.AsyncFunctionDef] = {}
    for f in functions:
        first = f.body[0] if f.body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
            for number in range(first.lineno, (first.end_lineno or first.lineno) + 1):
                docstrings[number] = f
    statements = sorted({s.lineno for f in functions for s in ast.walk(f) if isinstance(s, ast.stmt)
                         and s is not f})
    inside = [(f.lineno, f.end_lineno or f.lineno, f) for f in functions]
    out: dict[str, set[Site]] = {}
    for rule, number in lookup.cited_in(text):
        if number in docstrings:
            f = docstrings[number]
            opening = min([d.lineno for d in f.decorator_list] + [f.lineno])
            out.setdefault(rule, set()).add(Site(CALL, path, opening))
            continue
        holders = [(start, end) for start, end, _ in inside if start <= number <= end]
        if not holders:
            continue  # module level: a table, a class docstring, a constant
        end = min(e for _, e in holders)
        line = next((s for s in statements if number <= s <= end), None)
        if line is not None:
            out.setdefault(rule, set()).add(Site(LINE, path, line))
    return out


@cache
def engine_sites() -> dict[str, frozenset[Site]]:
    """Rule ID -> the sites of its citations in the engines' source (refimpl/games/)."""
    out: dict[str, set[Site]] = {}
    for path in engine_files():
        if path.suffix != ".py":
            continue
        for rule, found in sites_in(path.read_text(encoding="utf-8"), str(path.resolve())).items():
            out.setdefault(rule, set()).update(found)
    return {rule: frozenset(found) for rule, found in out.items()}


@cache
def _files() -> frozenset[str]:
    return frozenset(str(p.resolve()) for p in engine_files() if p.suffix == ".py")


class Reach:
    """Counts the runs of the engines' sites while open (``with Reach() as reach``); nests, and may be reopened
    to add to its counts. ``calls`` and ``lines`` are the raw counts, ``rules()`` the hits per rule."""

    def __init__(self) -> None:
        self.calls: Counter[tuple[str, int]] = Counter()
        self.lines: Counter[tuple[str, int]] = Counter()
        self._saved: list[Any] = []

    def _global(self, frame: FrameType, event: str, arg: Any) -> Any:
        code = frame.f_code
        if event != "call" or code.co_filename not in _files():
            return None
        self.calls[(code.co_filename, code.co_firstlineno)] += 1
        return self._local

    def _local(self, frame: FrameType, event: str, arg: Any) -> Any:
        if event == "line":
            self.lines[(frame.f_code.co_filename, frame.f_lineno)] += 1
        return self._local

    def __enter__(self) -> Reach:
        self._saved.append((sys.gettrace(), threading.gettrace(), self.calls.copy(), self.lines.copy()))
        sys.settrace(self._global)
        threading.settrace(self._global)
        return self

    def __exit__(self, *exc: object) -> None:
        before, thread_before, calls, lines = self._saved.pop()
        sys.settrace(before)
        threading.settrace(thread_before)
        outer = getattr(before, "__self__", None)
        if isinstance(outer, Reach):  # a Reach inside another: what it counted counts for the outer one too
            outer.calls.update(self.calls - calls)
            outer.lines.update(self.lines - lines)

    def sites(self) -> dict[str, set[Site]]:
        """Rule ID -> those of its sites that ran (rules never reached left out)."""
        out: dict[str, set[Site]] = {}
        for rule, sites in engine_sites().items():
            ran = {s for s in sites if (self.calls if s.kind == CALL else self.lines)[(s.file, s.line)]}
            if ran:
                out[rule] = ran
        return out

    def rules(self, only: Iterable[str] | None = None) -> dict[str, int]:
        """Rule ID -> how often its sites ran (rules never reached left out); ``only`` limits the rules."""
        wanted = None if only is None else set(only)
        out: dict[str, int] = {}
        for rule, sites in engine_sites().items():
            if wanted is not None and rule not in wanted:
                continue
            hits = sum(self.calls[(s.file, s.line)] if s.kind == CALL else self.lines[(s.file, s.line)]
                       for s in sites)
            if hits:
                out[rule] = hits
        return out


@cache
def unmeasured() -> dict[str, str]:
    """Rule ID -> why its reach cannot be measured (refimpl/rulebook/unreached.yaml): cited only where nothing
    runs while a game is played."""
    import yaml

    text = (lookup.PACKAGE / "rulebook" / "unreached.yaml").read_text(encoding="utf-8")
    return {str(k): str(v) for k, v in (yaml.safe_load(text) or {}).items()}


def reachable(rules: Iterable[str]) -> list[str]:
    """Of ``rules``, those with at least one site in the engines (the others cannot be measured)."""
    have = engine_sites()
    return [r for r in rules if r in have]


def merge(into: dict[str, dict[str, int]], more: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    """Add ``more``'s hits (kind -> rule -> hits) into ``into``; returns ``into``."""
    for kind, rules in more.items():
        mine = into.setdefault(kind, {})
        for rule, hits in rules.items():
            mine[rule] = mine.get(rule, 0) + hits
    return into


KINDS = ("traces", "scenarios", "explore", "between")


def reach_table(reach: dict[str, dict[str, int]], games: Iterable[str]
                ) -> list[tuple[str, list[tuple[str, dict[str, int]]], list[str], list[str]]]:
    """For each of ``games`` (in the kit's order, each once): (game, [(rule, hits by kind)], the rules with a
    site that no kind reached, the rules with no site). ``reach``: kind -> rule -> hits (Report.reach)."""
    from .. import suite
    from ..games import GAMES
    from .rules import spec_rules

    wanted = set(games)
    out = []
    for game, engine in GAMES.items():
        if game not in wanted:
            continue
        rules = list(spec_rules(suite.spec_text(engine.info.spec) or ""))
        measurable = set(reachable(rules))
        rows = [(rule, {k: reach.get(k, {}).get(rule, 0) for k in KINDS}) for rule in rules if rule in measurable]
        never = [rule for rule, hits in rows if not any(hits.values())]
        out.append((game, rows, never, [r for r in rules if r not in measurable]))
    return out


__all__ = ["KINDS", "Reach", "Site", "engine_sites", "merge", "reach_table", "reachable", "sites_in", "unmeasured"]


def _main() -> None:  # pragma: no cover - a look at the sites by hand: python -m refimpl.rulebook.reach RULE
    for rule in sys.argv[1:]:
        for site in sorted(engine_sites().get(rule, ()), key=lambda s: (s.file, s.line)):
            print(rule, site.kind, Path(site.file).name, site.line)


if __name__ == "__main__":
    _main()
