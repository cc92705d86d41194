"""Beacon Lines' tables (``refimpl tables beacon-lines``, specs/beacon-lines.md): printed from its data."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ....rulebook.tables import Table
from ... import GAMES
from ..engine import INFO


def _beacon_adjacency() -> Table:
    engine: Any = GAMES[INFO.name]
    data = engine.data
    v0, v1 = engine.boards["v0"], engine.boards["v1"]
    rows, records = [], []
    for region in data["regions"]:
        rid = region["id"]
        adjacent = [n for n in v1.regions if n in v1.neighbours[rid]]
        home = region["kind"] == "home"
        start = f"permanently {region['owner'].capitalize()}" if home else "neutral"
        rows.append([f"{region['name']} (`{rid}`)", region["kind"], ", ".join(v1.names[n] for n in adjacent), start,
                     str(v0.values[rid]), str(v1.values[rid])])
        records.append({"region": rid, "name": region["name"], "kind": region["kind"], "adjacent_to": adjacent,
                        "owner_at_start": region["owner"] if home else None, "permanent_owner": home,
                        "value_v0": v0.values[rid], "value_v1": v1.values[rid]})
    return Table(["region (id)", "kind", "adjacent to", "at start", "value v0", "value v1"], rows, records)



TABLES: dict[str, Callable[[], Table]] = {"adjacency": _beacon_adjacency}
