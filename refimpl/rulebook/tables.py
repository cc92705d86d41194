"""Tables printed from the games' data files: by ``refimpl tables`` and inside the specs.

The spec files hold these tables between ``<!-- table:NAME -->`` and ``<!-- /table -->`` markers;
a test checks that each block equals what this module renders, so the numbers are typed once.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..games import GAMES, BadSetup, kits
from ..games.registry import kit_of


@dataclass(frozen=True)
class Table:
    """One table twice over: text cells for people (typographic signs, as in the specs) and typed records
    for machines (``--format json``: numbers as numbers, snake_case keys, ids instead of display names)."""

    head: list[str]
    rows: list[list[str]]
    records: list[dict[str, Any]]


def markdown(table: Table) -> str:
    head, rows = table.head, table.rows
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def text(table: Table) -> str:
    head, rows = table.head, table.rows
    widths = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]
    fmt = lambda r: "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip()  # noqa: E731
    return "\n".join([fmt(head), fmt(["-" * w for w in widths])] + [fmt(r) for r in rows]) + "\n"


def as_json(table: Table) -> list[dict[str, Any]]:
    """The table's rows for machines (schema: refimpl/schemas/output/tables.schema.json)."""
    return table.records


def games_with_tables() -> list[str]:
    """The games whose unit has tables (``GameKit.tables``), in the order they were registered."""
    return [kit.name for kit in kits() if kit.tables is not None]


def get_tables(game: str, spec: bool = False) -> dict[str, Callable[[], Table]]:
    """The tables of ``game`` (a name or an alias), by name; with ``spec``, also those the spec alone prints.
    Raises BadSetup (``unknown-game``) for a game without tables."""
    try:
        kit = kit_of(game)
    except KeyError:
        kit = None
    if kit is not None and spec:
        from .profiles import fields_of

        found = dict(kit.tables.load()) if kit.tables is not None else {}
        if kit.spec_tables is not None:
            found.update(kit.spec_tables.load())
        if any(f.variant for f in fields_of(kit.name)):
            name = kit.name
            found["variants"] = lambda: variants_table(name)
        return found
    if kit is None or kit.tables is None:
        raise BadSetup("unknown-game",
                       f"no tables for {game!r} (games with tables: {', '.join(games_with_tables())})")
    return dict(kit.tables.load())


def variants_table(game: str) -> Table:
    """The variants of ``game`` a designer may try (profile fields marked ``variant``): the field, what it
    changes, the seed's value (the default), what a profile may set and the rules it changes."""
    from .profiles import allowed_range, default_values, fields_of

    defaults = default_values(game)
    chosen = [f for f in fields_of(game) if f.variant]
    rows = [[f"`{f.path}`", f.meaning, json.dumps(defaults[f.path]), allowed_range(f.schema), ", ".join(f.rules)]
            for f in chosen]
    records = [{"field": f.path, "meaning": f.meaning, "seed_value": defaults[f.path], "rules": list(f.rules)}
               for f in chosen]
    return Table(["profile field", "what it changes", "the seed's value", "a profile may set", "rules"], rows,
                 records)


BLOCK = re.compile(r"(<!-- table:(?P<name>[a-z-]+) -->\n)(?P<body>.*?)(<!-- /table -->)", re.S)


def sync_spec(game: str, text_: str) -> str:
    """``text_`` with every table block of ``game``'s spec re-rendered from the data."""
    tables = get_tables(game, spec=True)

    def fill(m: re.Match[str]) -> str:
        return m.group(1) + markdown(tables[m.group("name")]()) + m.group(4)

    return BLOCK.sub(fill, text_)


def write_specs(root: str = ".") -> list[str]:
    """Re-render the table blocks of every spec under ``root``; return the files that changed."""
    from pathlib import Path

    changed = []
    for game in [kit.name for kit in kits()]:  # (a game without tables may still have its variants')
        path = Path(root) / GAMES[game].info.spec
        old = path.read_text(encoding="utf-8")
        new = sync_spec(game, old)
        if new != old:
            path.write_text(new, encoding="utf-8")
            changed.append(str(path))
    return changed


if __name__ == "__main__":  # `make specs`
    for name in write_specs():
        print(f"updated {name}")
