"""A judged case written as an ordinary trace: every step with the reference's whole answer (its full
view, each player's view in games with hidden information, its rejection or error code), so the trace
replays to the same mismatch under ``verify --traces`` with or without the oracle."""

from __future__ import annotations

from typing import Any

from ..driver import Refused, Rejected
from ..games import GAMES, JSON
from .judge import Judged


def reproducer(judged: Judged, title: str, description: str) -> dict[str, Any]:
    """The trace document (a mapping in the format's key order) for ``judged``."""
    case, div = judged.case, judged.divergence
    info = GAMES[case.game].info
    answers: dict[int, dict[str, Any]] = {}  # step number (0: the start) -> what the reference answered
    for probe, answer in zip(judged.probes, judged.answers):
        at = answers.setdefault(0 if probe.step is None else probe.step.number, {"views": {}})
        if probe.kind == "step":
            at["answer"] = answer
        elif probe.kind == "view" and isinstance(answer, dict):
            at["views"][probe.observer] = answer
        elif probe.kind == "legal" and probe.observer is None:
            at["legal"] = answer

    def fill(entry: dict[str, Any], number: int, wants_legal: bool) -> dict[str, Any]:
        got = answers.get(number, {})
        answer = got.get("answer")
        if isinstance(answer, Rejected):
            entry["reject"] = answer.code
        elif isinstance(answer, Refused):
            entry["error"] = answer.code
        elif isinstance(answer, dict):
            entry["expect"] = answer
        if got.get("views") and not isinstance(answer, (Rejected, Refused)):
            entry["views"] = got["views"]
        if wants_legal and isinstance(got.get("legal"), list):
            entry["legal"] = got["legal"]
        return entry

    legal_at = div.step if div is not None and div.probe.kind == "legal" and div.probe.observer is None else -1
    steps: list[dict[str, Any]] = []
    if div is not None and div.step == 0 and div.probe.kind != "step":
        # The start's own answer agreed, a player's view or a legal list after it did not: a restart shows
        # the same position again, with those expectations written down.
        steps.append(fill({"restart": True}, 0, legal_at == 0))
    for number, request in enumerate(case.steps, 1):
        if request.kind == "action":
            entry: dict[str, Any] = {"action": request.body}
        elif request.kind == "restart":
            entry = {"restart": True}
        elif request.kind == "start":
            entry = {"start": request.body}
        else:
            entry = {"request": request.body}
        steps.append(fill(entry, number, legal_at == number))
    start = answers.get(0, {}).get("answer")
    doc: dict[str, JSON] = {"version": 1, "game": case.game, "ruleset": case.ruleset, "seed": case.seed,
                            "setup": case.setup, "title": title, "description": description,
                            "rules": list(info.rules_of(div.difference.path if div is not None else "")),
                            "source": "refimpl fuzz (no seed passage)"}
    if isinstance(start, dict):
        doc["start"] = start
    doc["steps"] = steps or [fill({"restart": True}, 0, legal_at == 0)]
    return doc
