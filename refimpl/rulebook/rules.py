"""Read rule IDs out of the specs and features, so coverage and reports speak in rule IDs."""

from __future__ import annotations

import re
from pathlib import Path

# A rule (``BL-WIN-1``) or a ruling (``BL-R4``): the spec states both with an ID, checks are tagged with both.
_ID = r"[A-Z]{2}-(?:[A-Z]+-\d+|R\d+)"
RULE_ID = re.compile(rf"^{_ID}$")
RULE_WORD = re.compile(rf"\b{_ID}\b")  # an ID as a word in running text (a comment, a docstring)
_RULE_LINE = re.compile(rf"^- \*\*(?P<id>{_ID})\*\* (?P<text>.+)$")
_TAG = re.compile(rf"@({_ID})\b")


def spec_rules(text: str) -> dict[str, str]:
    """Rule ID -> its text (continuation lines joined), in the order the spec states them.

    Raises ValueError when an ID is stated twice.
    """
    rules: dict[str, str] = {}
    current: str | None = None
    for line in text.splitlines():
        m = _RULE_LINE.match(line)
        if m:
            current = m.group("id")
            if current in rules:
                raise ValueError(f"rule {current} is stated twice")
            rules[current] = m.group("text")
        elif current and line.startswith("  ") and line.strip():
            rules[current] += " " + line.strip()
        else:
            current = None
    return rules


def feature_tags(path: str | Path) -> set[str]:
    """Every rule-ID tag used in a feature file."""
    return set(_TAG.findall(Path(path).read_text(encoding="utf-8")))


_CODE = re.compile(r"`([a-z][a-z0-9]*(?:-[a-z0-9]+)+)`")


def code_rules(text: str) -> dict[str, tuple[str, ...]]:
    """Rejection or error code -> the rules whose text names it in backticks (``illegal-target``), in spec
    order: the rules that own a difference in that code."""
    out: dict[str, list[str]] = {}
    for rule, body in spec_rules(text).items():
        for code in dict.fromkeys(_CODE.findall(body)):
            out.setdefault(code, []).append(rule)
    return {code: tuple(rules) for code, rules in out.items()}


def first_sentence(text: str) -> str:
    """A rule's first sentence: its citation and anything after the first full stop, colon or semicolon left
    out, but never one inside brackets or a code span ("Salvage adds ⌈face ÷ 2⌉ brass (1–2: 1, 3–4: 2)." stays
    whole)."""
    text = re.sub(r"\s*\*\(.*$", "", text).strip()
    depth, code = 0, False
    for i, ch in enumerate(text):
        if ch == "`":
            code = not code
        elif not code and ch in "([":
            depth += 1
        elif not code and ch in ")]":
            depth = max(0, depth - 1)
        elif not code and depth == 0 and ch in ".:;" and (i + 1 == len(text) or text[i + 1].isspace()):
            head = text[:i + 1]
            return head.rstrip(":;").rstrip() + ("" if head.endswith(".") else ".")
    return text.rstrip(":;").rstrip() + ("" if text.endswith(".") else ".")


def rule_lines(text: str) -> dict[str, int]:
    """Rule ID -> the 1-based line of the spec that states it."""
    out: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        m = _RULE_LINE.match(line)
        if m:
            out[m.group("id")] = number
    return out
