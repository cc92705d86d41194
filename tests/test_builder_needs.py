"""docs/getting-started.md "What a builder needs" tells the truth: every name a state view or an action can hold
(the view schema's keys and fixed values, and every word the bundled traces send in actions) is defined in the
sections of the game's spec that the table names."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from refimpl.games import GAMES
from refimpl.harness.tracefile import find_traces, load_trace

ROOT = Path(__file__).resolve().parent.parent
WORD = re.compile(r"^[a-z][a-z0-9-]*$")


def needed() -> dict[str, list[str]]:
    """The table in docs/getting-started.md: game -> the spec sections it names (a remark in brackets left out)."""
    text = (ROOT / "docs" / "getting-started.md").read_text(encoding="utf-8")
    part = text.split("### What a builder needs", 1)[1].split("\n#", 1)[0]
    rows = re.findall(r"^\| ([a-z-]+) \| (.+) \|$", part, re.M)
    return {game: [re.sub(r"\s*\(.*\)$", "", s).strip() for s in cells.split(";")] for game, cells in rows
            if game != "game"}


def sections(text: str, names: list[str]) -> str:
    out, current = [], None
    for line in text.splitlines():
        if line.startswith(("## ", "### ")):
            current = line.lstrip("#").strip()
        if current in names:
            out.append(line)
    return "\n".join(out)


def _view_words(schema: Any, out: set[str]) -> None:
    if isinstance(schema, dict):
        words = [schema["const"]] if "const" in schema else schema.get("enum", [])
        out.update(v for v in words if isinstance(v, str))
        out.update(schema.get("properties", {}))
        for value in schema.values():
            _view_words(value, out)
    elif isinstance(schema, list):
        for value in schema:
            _view_words(value, out)


def _strings(value: Any, out: set[str]) -> None:
    if isinstance(value, dict):
        out.update(value)
        for v in value.values():
            _strings(v, out)
    elif isinstance(value, list):
        for v in value:
            _strings(v, out)
    elif isinstance(value, str):
        out.add(value)


def test_the_table_names_every_game_and_only_sections_its_spec_has() -> None:
    table = needed()
    assert set(table) == set(GAMES)
    for game, names in table.items():
        headings = set(re.findall(r"^#{2,3} (.+)$", (ROOT / "specs" / f"{game}.md").read_text(encoding="utf-8"),
                                  re.M))
        assert set(names) <= headings, (game, set(names) - headings)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_view_and_action_word_is_defined_in_the_named_sections(game: str) -> None:
    words: set[str] = set()
    _view_words(json.loads((ROOT / "refimpl" / "schemas" / "views" / f"{game}.schema.json").read_text()), words)
    for path in find_traces([ROOT / "traces" / game]):
        for step in load_trace(path).steps:
            if step.action is not None and step.reject is None:
                _strings(step.action, words)
    vocabulary = {w for w in words if WORD.match(w)}
    text = sections((ROOT / "specs" / f"{game}.md").read_text(encoding="utf-8"), needed()[game])
    missing = sorted(w for w in vocabulary if not re.search(rf"(?<![a-z0-9-]){re.escape(w)}(?![a-z0-9-])", text))
    assert vocabulary and not missing, missing
