"""A judged case written as an ordinary trace: every step with the reference's whole answer (its full
view, each player's view in games with hidden information, its rejection or error code), so the trace
replays to the same mismatch under ``verify --traces`` with or without the oracle.

Before it is written, a divergence's set-up is pruned (``SetupPruner``): a drawn set-up holds far more
than the fault needs (every unit, animal, feed and fog hex of the position). Each top-level key of the
set-up is tried without it, then each element of every list in it (a top-level list such as Conquest
King's ``units`` or Black Fog's ``animals`` and ``feed``, or a list one level down such as the hexes of
Black Fog's ``map``), in order; a removal is kept when the case, with the same steps, still diverges the
same way on the build: at the same step, in the same probe (the answer, a player's view, a legal list)
and at the same field path. A removal the game refuses (the start becomes a bad set-up) is not kept, as
the build then refuses it too, or diverges elsewhere. Pruning shares the finding's ``--shrink-time``:
it gets what shrinking left of it, and what it has pruned when time runs out (or on Ctrl-C/SIGTERM) is
kept. The trace's description names the parts dropped.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from ...games import GAMES, JSON
from ...harness.driver import Refused, Rejected
from ...harness.plan import Records
from .cases import Case, setup_at, setup_lists
from .judge import Divergence, Judged

Diverges = Callable[[Case], "Judged | None"]  # the case judged on the build, when it diverges the same way


def same_divergence(found: Divergence | None, first: Divergence) -> bool:
    """Whether ``found`` is the divergence ``first`` again: the same step, probe and field path."""
    return found is not None and found.step == first.step and found.probe.kind == first.probe.kind \
        and found.probe.observer == first.probe.observer and found.difference.path == first.difference.path


class SetupPruner:
    """Prune ``judged``'s set-up (see the module docstring): ``run`` leaves in ``judged`` the case with as
    little of its set-up as still gives the same divergence, and in ``dropped`` the parts dropped in words
    (``fog``, ``units[2]``: an element by its place in the list as first given). ``diverges`` judges a
    candidate on the build; ``time_left`` is asked before each try. When ``run`` is interrupted (Ctrl-C,
    SIGTERM), ``judged`` and ``dropped`` hold what was kept so far."""

    def __init__(self, judged: Judged, diverges: Diverges, time_left: Callable[[], bool]) -> None:
        self.judged, self.diverges, self.time_left = judged, diverges, time_left
        self.dropped: list[str] = []

    def _attempt(self, setup: dict[str, Any]) -> bool:
        if not self.time_left():
            return False
        case = self.judged.case
        found = self.diverges(case.with_steps(case.steps, setup=setup))
        if found is None:
            return False
        self.judged = found
        return True

    def run(self) -> Judged:
        setup = self.judged.case.setup
        if not isinstance(setup, dict) or not setup:
            return self.judged
        for key in list(setup):
            if self._attempt({k: v for k, v in self.judged.case.setup.items() if k != key}):
                self.dropped.append(key)
        for path in list(setup_lists(self.judged.case.setup)):
            original, i = 0, 0  # the element's place in the list as first given, and its place now
            while i < len(setup_at(self.judged.case.setup, path)):
                smaller = copy.deepcopy(self.judged.case.setup)
                del setup_at(smaller, path)[i]
                if self._attempt(smaller):
                    self.dropped.append(f"{'.'.join(path)}[{original}]")
                else:
                    i += 1
                original += 1
        return self.judged


def reproducer(judged: Judged, title: str, description: str) -> dict[str, Any]:
    """The trace document (a mapping in the format's key order) for ``judged``."""
    case, div = judged.case, judged.divergence
    info = GAMES[case.game].info
    answers: dict[int, dict[str, Any]] = {}  # step number (0: the start) -> what the reference answered
    records = Records()  # a stats step expects what the records grew by since the start
    for probe, answer in zip(judged.probes, judged.answers):
        if records.seen(probe, reference=answer):
            continue
        answer = records.since(probe, "reference", answer)
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
        elif isinstance(answer, Refused) and "restart" not in entry:  # a restart has no error form
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
