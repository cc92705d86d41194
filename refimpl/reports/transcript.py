"""Transcripts: the raw protocol exchanges of a failing check, written as JSON Lines (``verify --transcript``).

Each line is one exchange, ``{"request": {...}, "response": {...}}`` in the order sent, from the ``hello`` on,
so a builder can feed the requests to their build with no kit at all (``jq -c .request FILE | BUILD``) and
compare the answers. An exchange the build never answered has ``"response": null``; how it broke, if it
did, is the last line's ``"broke"``.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..harness.driver import JSON
from ..util.files import OwnedFolder


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
    """A file name for a check's transcript: ``ludo/capture`` -> ``ludo__capture.jsonl``. A name that had to
    be changed to make a file name (``a b``, ``a?b``) or cut short gets a digest of the whole name, so two
    checks never share a file: ``a b`` -> ``a_b-<8 hex>.jsonl``, while ``a_b`` stays ``a_b.jsonl``; so does a
    name with ``__`` in it, which ``/`` becomes."""
    plain = check_name.replace("/", "__")
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", plain).strip("_.")[:150]
    if safe != plain or not safe or "__" in check_name:  # "a__b" must not meet "a/b"
        safe = f"{safe[:140]}-{hashlib.sha256(check_name.encode('utf-8', 'surrogatepass')).hexdigest()[:8]}"
    return safe + ".jsonl"


def text(lines: list[dict[str, JSON]]) -> bytes:
    """A transcript's JSON Lines. ASCII: a lone surrogate a build sent stays the escape it was, not a character
    UTF-8 cannot hold."""
    return "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines).encode("ascii")


def folder(path: str | Path) -> OwnedFolder:
    """The transcript folder: the kit writes ``*.jsonl`` there and replaces only the ones it wrote."""
    return OwnedFolder(path, "transcripts (*.jsonl)", lambda name: name.endswith(".jsonl"))


def write_all(path: str | Path, transcripts: Iterable[tuple[str, list[dict[str, JSON]]]]) -> list[Path]:
    """Write one transcript per (check name, exchanges) into the folder ``path``, removing the ones an earlier
    run wrote there; the paths. Raises OSError (see files.OwnedFolder)."""
    return folder(path).replace_all((file_name(name), text(lines)) for name, lines in transcripts)
