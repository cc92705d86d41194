"""A check's transcript kept within bounds (issue 43: a build whose every answer weighs a megabyte drove a run
with ``--transcript`` to gigabytes of memory and of files): what the drivers record of each exchange."""

from __future__ import annotations

from typing import Any

from ..util import jsonio

TRANSCRIPT_ANSWER = 64 << 10  # bytes of one exchange a transcript keeps whole
TRANSCRIPT_TOTAL = 16 << 20  # bytes of one check's transcript; then a note says the rest was cut
_ANSWER_FIELDS = ("id", "ok", "state", "actions", "stats", "rejected", "error", "protocol", "build", "games",
                  "capabilities")


def outline(entry: dict[str, Any], size: int) -> dict[str, Any]:
    """A big exchange as a transcript keeps it: an answer without the fields the protocol does not name (their
    names and sizes said), and then, if still big, its id, ok and codes with the rest said in bytes."""
    answer = entry.get("response")
    if not isinstance(answer, dict):
        return {k: f"{size} bytes: not kept in the transcript" for k in entry}
    known = {k: v for k, v in answer.items() if k in _ANSWER_FIELDS}
    extra = sorted(k for k in answer if k not in _ANSWER_FIELDS)
    if extra:
        known["<not kept>"] = f"fields the protocol does not name: {', '.join(extra[:10])}"
    if len(jsonio.dumps(known)) <= TRANSCRIPT_ANSWER:
        return {"response": known}
    out: dict[str, Any] = {k: known[k] for k in ("id", "ok") if k in known}
    for k in ("rejected", "error"):
        if isinstance(known.get(k), dict):
            out[k] = {"code": known[k].get("code"), "message": str(known[k].get("message", ""))[:500]}
    out["<not kept>"] = f"an answer of {size} bytes: only its id, ok and codes are kept in the transcript"
    return {"response": out}


def kept(entry: dict[str, Any], used: int) -> tuple[dict[str, Any] | None, int]:
    """(what a transcript holding ``used`` bytes keeps of ``entry``, or None for nothing; the bytes it then
    holds). An exchange over TRANSCRIPT_ANSWER bytes is kept as its ``outline``; past TRANSCRIPT_TOTAL bytes one
    note says the later exchanges were not kept, and nothing more is."""
    if used > TRANSCRIPT_TOTAL:
        return None, used
    size = len(jsonio.dumps(entry))
    if size > TRANSCRIPT_ANSWER:
        entry = outline(entry, size)
        size = len(jsonio.dumps(entry))
    if used + size > TRANSCRIPT_TOTAL:
        return {"cut": f"the transcript reached {TRANSCRIPT_TOTAL >> 20} MiB: later exchanges not kept"}, \
            TRANSCRIPT_TOTAL + 1
    return entry, used + size + 1
