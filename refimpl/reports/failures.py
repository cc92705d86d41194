"""A trace's failure as every report shows it: where, what was sent, every differing field with the rule that
owns it (read from the specs), and the ledger of the steps up to it."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from functools import cache
from typing import Any

from .. import suite
from ..games import GAMES
from ..games.base import _RULING, owners
from ..harness.compare import MISSING, Difference, flatten
from ..harness.replay import TraceResult
from ..harness.trace import Trace
from ..rulebook.rules import code_rules, rule_lines, spec_rules
from .model import Failure, FieldDiff
from .safetext import bounded

_CODES: dict[str, dict[str, tuple[str, ...]]] = {}


def _code_owners(game: str) -> dict[str, tuple[str, ...]]:
    """The game's codes and the rules that name them (read from its spec once)."""
    if game not in _CODES:
        text = suite.spec_text(GAMES[game].info.spec) if game in GAMES else None
        _CODES[game] = code_rules(text) if text else {}
    return _CODES[game]


def _code_of(value: Any) -> str | None:
    return value.split(":")[0].removeprefix("rejected ").removeprefix("error ").strip() \
        if isinstance(value, str) else None


@cache
def rule_words(rule: str) -> tuple[str, str, int] | None:
    """(the rule's whole text, its spec's repository name, the line stating it) for a rule or ruling ID of any
    game, or None for an ID no spec states."""
    prefix = rule.split("-", 1)[0]
    for engine in GAMES.values():
        if engine.info.rule_prefix == prefix:
            text = suite.spec_text(engine.info.spec) or ""
            body = spec_rules(text).get(rule)
            if body is None:
                return None
            return body, engine.info.spec, rule_lines(text).get(rule, 0)
    return None


def field_diffs(game: str, diffs: Iterable[tuple[Difference, bool]],
                *tagged: Sequence[str], reached: Mapping[str, float] | None = None) -> tuple[FieldDiff, ...]:
    """Differences with the rule owning each field: for a rejection or error code, the rules that name the
    code expected (else the one given); for any other field, the field's rules (GameInfo.field_rules).
    ``reached``: the rules whose code ran in the step (harness/credit.py); the field's rules among them decide
    it, when any does. Among several, those in the most particular group of ``tagged`` (a step's rules, then
    the trace's) win, else the first (see games.base.owners)."""
    info = GAMES[game].info if game in GAMES else None
    out = []
    for diff, by_reference in diffs:
        rules = info.rules_of(diff.path) if info is not None else ()
        top = diff.path.rpartition("].")[2].split(".")[0] if diff.path.startswith("view[") else diff.path
        if top in ("rejected", "error", "start"):
            named = _code_owners(game).get(_code_of(diff.expected) or _code_of(diff.actual) or "", ())
            rules = tuple(dict.fromkeys((*named, *rules)))
        if (diff.expected is MISSING or diff.actual is MISSING) and info is not None and \
                top not in ("rejected", "error", "start") and "." not in diff.path.removeprefix("view[") \
                and "[" not in diff.path.partition("].")[2 if diff.path.startswith("view[") else 0]:
            # a key the view must not have, or lacks: the rule that says what a view holds, whatever the step
            rules = info.field_rules.get("game", rules)
            credited = tuple(rules[:1])
        elif _only_twice(diff):  # a legal list whose only fault is an action listed twice: the listing rule's
            credited = tuple(rules[:1])
        else:
            credited = deciding(rules, reached, *tagged)
        rule = credited[0] if credited else None
        out.append(FieldDiff(diff.path, diff.expected, diff.actual, rule, tuple(r for r in rules if r != rule),
                             by_reference, credited))
    return tuple(out)


def _only_twice(diff: Difference) -> bool:
    """Whether ``diff`` is a legal list whose only fault is actions listed more than once."""
    e, a = diff.expected, diff.actual
    return isinstance(e, dict) and isinstance(a, dict) and e.get("missing") == [] and bool(a.get("twice")) \
        and sorted(set(a.get("extra", ()))) == a["twice"]


def deciding(rules: Sequence[str], reached: Mapping[str, float] | None, *tagged: Sequence[str]) -> tuple[str, ...]:
    """The rules a differing field is credited to (issue 41: the rule that decides a difference owns it).
    ``rules``: the field's rules, in the order the game lists them; ``tagged``: the step's rules, then the check's;
    ``reached`` (harness/credit.py): the rules whose cited code ran in the failing step, each with how ordinary it
    is (the share of the steps of random play it runs in); None when unknown (then games.base.owners). A rule with
    no site to run (a board table) counts as run. In turn:

    1. the field's rules the check is about (the most particular group that holds any), those that ran if any
       did: the kit cannot tell which of them the build broke, so each is credited;
    2. else one of the check's own rules, one that ran if any did (a ruling behind a generic field: a CPU's risk
       ruling behind the ``pieces`` a move changed), the least ordinary;
    3. else, for a check about no rule in particular (an exploration's reproducer), the least ordinary of the
       field's rules that ran: the capture rule, not the turn order that runs at every step.

    A key a view must not have, or lacks, is the view rule's, and an action listed twice the listing rule's
    (field_diffs)."""
    if reached is None:
        return owners(rules, *tagged)
    from ..rulebook.reach import engine_sites

    sites = engine_sites()

    def one(pool: Sequence[str]) -> tuple[str, ...]:
        def rank(rule: str) -> tuple[bool, float, bool, int]:
            share = reached.get(rule, 1.0) if rule in sites else 1.0
            return rule not in reached and rule in sites, share, _RULING.search(rule) is None, pool.index(rule)
        return (min(pool, key=rank),)

    ran = [r for r in rules if r in reached or r not in sites]
    for group in tagged:
        mine = [r for r in rules if r in group]
        if mine:
            return owners([r for r in mine if r in ran] or mine, group)
    named = [list(g) for g in tagged if g]
    if named:
        return one(named[0])
    return one(ran) if ran else owners(rules, *tagged)


def _ledger(result: TraceResult) -> tuple[dict[str, Any], ...]:
    """The trace's steps up to the failing one, as rows a report shows."""
    return tuple({"step": s.number, "line": s.line, "action": s.action, "ok": s.ok,
                  "expected": flatten(s.expected) if s.expected is not None else [],
                  "actual": [] if s.ok else flatten(s.actual)} for s in result.steps)


def shown_path(path: str) -> str:
    """A bundled file by its name in the kit's repository (``traces/ludo/capture.yaml``); another ``path``
    relative to the working folder when it lies inside it (shorter in reports), else as given."""
    bundled = suite.shown(path)
    if bundled is not None:
        return bundled
    try:
        relative = os.path.relpath(path)
    except ValueError:
        return path
    return path if relative.startswith("..") else relative


def trace_failure(trace: Trace, result: TraceResult, reached: Mapping[str, float] | None = None) -> Failure:
    """The Failure of a trace that did not conform: where, what was sent, every differing field (credited among
    the rules ``reached`` in the failing step, when given: see field_diffs)."""
    fail = result.failure
    assert fail is not None and fail.difference is not None
    detail = fail.failure
    diffs = detail.differences if detail is not None else ((fail.difference, fail.by_reference),)
    where = f"step {fail.number}" if fail.number else "the start"
    file = shown_path(trace.path)
    line = fail.line or trace.line_of(("start",)) or trace.line_of(("setup",)) or trace.line_of(("game",))
    message = f"{file}:{line} {where} ({fail.action}): {fail.describe()}" if line else \
        f"{file} {where} ({fail.action}): {fail.describe()}"
    fields = tuple(replace(f, expected=bounded(f.expected), actual=bounded(f.actual))  # a build's answer: cut
                   for f in field_diffs(trace.game, diffs, fail.step.rules if fail.step else (), trace.rules,
                                        reached=reached))
    return Failure(file, line, fail.number, fail.action,
                   detail.request if detail else None, detail.asked if detail else None, fields,
                   message, _ledger(result), bounded(detail.before if detail else None),
                   bounded(detail.expected_view if detail else fail.expected),
                   bounded(detail.actual_view if detail else fail.answer), detail.observer if detail else None)
