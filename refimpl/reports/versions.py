"""One route under several versions of the rules, as reports show it (``refimpl replay --ruleset v0 --ruleset v1``:
harness/versions.py plays it)."""

from __future__ import annotations

import json
from typing import Any

from ..games import JSON
from ..harness.versions import Across
from .safetext import printable


def across_json(a: Across) -> dict[str, Any]:
    """The comparison for machines: the versions, each step (how each version took it, the fields that part),
    where the states first part and each version's result."""
    return {"trace": a.trace.path, "game": a.trace.game, "versions": [v.name for v in a.versions],
            "parted_at": a.parted_at, "results": a.results,
            "steps": [{"number": s.number, "step": s.label, "taken": s.taken,
                       "parts": [{"path": p.path, "values": p.values} for p in s.parts]} for s in a.steps]}


def across_text(a: Across) -> str:
    """The comparison for people: a line a step (the same, or each field that parts with every version's
    value, and how a version that refused the step refused it), then each version's result."""
    names = [v.name for v in a.versions]
    lines = [f"{a.trace.path}: {a.trace.game} under {', '.join(names)}, {len(a.steps)} steps"
             + (f"; the states part after step {a.parted_at}" if a.parted_at else "; the states never part"), ""]
    for s in a.steps:
        how = {t for t in s.taken.values()}
        took = "" if len(how) == 1 else " (" + "; ".join(f"{n} {t}" for n, t in s.taken.items()) + ")"
        head = f"step {s.number} {printable(s.label)}{took}"
        if not s.parts:
            lines.append(f"{head}: the same")
            continue
        lines.append(f"{head}:")
        for p in s.parts:
            lines.append(f"  {printable(p.path)}: " + ", ".join(f"{n} {printable(_json(v))}"
                                                               for n, v in p.values.items()))
    lines += ["", "result: " + ", ".join(f"{n} {r or '(not over)'}" for n, r in a.results.items())]
    return "\n".join(lines) + "\n"


def _json(value: JSON) -> str:
    return value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))
