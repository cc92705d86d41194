"""What the seed promises of a build's own chance (issue 41; specs/protocol.md "A build's own chance").

A build that declares ``explicit-chance`` need not reproduce the canonical streams, but the seed's promise still
holds for its own draws: the same seed gives the same game (Ludo §2, LD-DICE-1 and ruling LD-R5; Black Fog ruling
BF-R6), and the CPUs' draws do not move the dice (LD-CPU-5). With the seeded forms as its own play sends them,
each game's judge plays a game from a seed and then:

1. sends the same requests again after a ``restart``, and after a new ``start`` with the same seed: every answer
   must be the same as the first time (the stream counters aside, which are the build's own affair);
2. plays from another seed: the throws (Ludo) or the map (Black Fog) must differ somewhere (a build whose source
   ignores the seed gives the same ones; a correct build does so with chance 6^-THROWS, or one map in many);
3. (Ludo) plays one seed twice with the CPUs at two levels: the k-th throw must be the same face both times.

The requests are chosen by a generator seeded with SEED, the outcomes are the build's; the reference follows
each answer (``ownchance.Judge``) to choose what to send next. Each check reads the answers only: an answer no
allowed outcome explains is the other own-chance checks' to report, and here it just ends the game early. This
module holds what the games' judges share; each game's plays and checks are in its unit
(``games/<game>/kit/chance.py``, ``GameKit.seed_chance``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .driver import Rejected
from .ownchance import Judge, as_written, describe
from .requests import Restart, Start

SEED = 20261206
REQUESTS = 160  # requests a game plays at most (a Ludo game of four seats: about 90 throws)
LEAST_THROWS = 20  # throws two plays must share before they are compared


@dataclass
class Played:
    """One game from a seed: the requests sent after the start, the answers (stream counters left out) and the
    throws' faces the reference read from them."""

    seed: int
    start: Any = None
    actions: list[Any] = field(default_factory=list)
    answers: list[Any] = field(default_factory=list)
    faces: list[int] = field(default_factory=list)


def shown(answer: Any, skip: set[str]) -> Any:
    if isinstance(answer, dict):
        return {k: v for k, v in answer.items() if k not in skip}
    if isinstance(answer, Rejected):
        return {"rejected": answer.code}
    return describe(answer)


def face_of(j: Judge, answer: Any) -> int | None:
    face, _ = j.which(answer, [{"type": "roll", "face": f} for f in range(1, 7)])
    return None if face is None else face + 1


def again(j: Judge, first: Played, how: str) -> str:
    """Send ``first``'s requests again after ``how`` ("restart", or "start": a new start with its seed); the
    first answer that differs, in words ("" when none does)."""
    skip = set(j.engine.info.stream_fields)
    if how == "restart":
        answer = as_written(j.driver, Restart())
    else:
        answer = as_written(j.driver, Start(j.game, j.ruleset, first.seed, {}))
    if shown(answer, skip) != first.start:
        return f"after a {how} with seed {first.seed}, its start is not the one that seed gave before"
    for k, (action, was) in enumerate(zip(first.actions, first.answers), 1):
        now = shown(j.send(action), skip)
        if now != was:
            return (f"after a {how} with seed {first.seed}, request {k} ({json.dumps(action)}) was answered "
                    f"otherwise than the first time: the same seed did not give the same game")
    return ""


__all__ = ["LEAST_THROWS", "REQUESTS", "SEED", "Played", "again", "face_of", "shown"]
