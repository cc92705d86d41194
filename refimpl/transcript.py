"""Transcripts: the raw protocol exchanges of a failing check, written as JSON Lines (``verify --transcript``).

Each line is one exchange, ``{"request": {...}, "response": {...}}`` in the order sent, from the ``hello`` on,
so a builder can feed the requests to their build with no kit at all (``jq -c .request FILE | BUILD``) and
compare the answers. An exchange the build never answered has ``"response": null``; how it broke, if it
did, is the last line's ``"broke"``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterable

from .driver import JSON


def exchanges(record: Iterable[dict[str, JSON]], ids: range | None = None) -> list[dict[str, JSON]]:
    """Pair a driver's record (see CallsByBatch.transcript) into exchanges; with ``ids``, only the hello
    (id 0) and the requests whose id is in ``ids``. A record without ids (the reference in this process)
    pairs in order."""
    out: list[dict[str, JSON]] = []
    by_id: dict[Any, dict[str, JSON]] = {}
    broke: dict[str, JSON] | None = None
    for entry in record:
        if "request" in entry:
            rid = entry["request"].get("id") if isinstance(entry["request"], dict) else None
            if ids is None or rid == 0 or rid in ids:
                exchange: dict[str, JSON] = {"request": entry["request"], "response": None}
                out.append(exchange)
                by_id[rid if rid is not None else len(out)] = exchange
        elif "response" in entry:
            answer = entry["response"]
            rid = answer.get("id") if isinstance(answer, dict) else None
            if rid is None:
                pending = next((e for e in out if e["response"] is None), None)
                if pending is not None:
                    pending["response"] = answer
            elif rid in by_id:
                by_id[rid]["response"] = answer
        elif "broke" in entry and out and any(e["response"] is None for e in out):
            broke = entry["broke"]
    unanswered = next((i for i, e in enumerate(out) if e["response"] is None), None)
    if unanswered is not None:  # requests sent ahead after the one the build never answered are not its story
        out = out[:unanswered + 1]
    if broke is not None:
        out.append({"broke": broke})
    return out


def file_name(check_name: str) -> str:
    """A file name for a check's transcript: ``ludo/capture`` -> ``ludo__capture.jsonl``."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", check_name.replace("/", "__")).strip("_")[:150] + ".jsonl"


def write(folder: str | Path, check_name: str, lines: list[dict[str, JSON]]) -> Path:
    """Write one transcript; returns its path. Raises OSError."""
    path = Path(folder) / file_name(check_name)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as out:
        for line in lines:
            # ASCII: a lone surrogate a build sent stays the escape it was, not a character UTF-8 cannot hold
            out.write(json.dumps(line, separators=(",", ":")) + "\n")
    return path
