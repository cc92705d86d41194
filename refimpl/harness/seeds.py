"""What the seed promises of a build's own chance (issue 41; specs/protocol.md "A build's own chance").

A build that declares ``explicit-chance`` need not reproduce the canonical streams, but the seed's promise still
holds for its own draws: the same seed gives the same game (Ludo §2, LD-DICE-1 and ruling LD-R5; Black Fog ruling
BF-R6), and the CPUs' draws do not move the dice (LD-CPU-5). With the seeded forms as its own play sends them,
this module plays a game from a seed and then:

1. sends the same requests again after a ``restart``, and after a new ``start`` with the same seed: every answer
   must be the same as the first time (the stream counters aside, which are the build's own affair);
2. plays from another seed: the throws (Ludo) or the map (Black Fog) must differ somewhere (a build whose source
   ignores the seed gives the same ones; a correct build does so with chance 6^-THROWS, or one map in many);
3. (Ludo) plays one seed twice with the CPUs at two levels: the k-th throw must be the same face both times.

The requests are chosen by a generator seeded with SEED, the outcomes are the build's; the reference follows
each answer (``ownchance.Judge``) to choose what to send next. Each check reads the answers only: an answer no
allowed outcome explains is the other own-chance checks' to report, and here it just ends the game early.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .driver import Driver, Rejected
from .ownchance import Judge, Verdict, _as_written, _describe

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


def _shown(answer: Any, skip: set[str]) -> Any:
    if isinstance(answer, dict):
        return {k: v for k, v in answer.items() if k not in skip}
    if isinstance(answer, Rejected):
        return {"rejected": answer.code}
    return _describe(answer)


def _face(j: Judge, answer: Any) -> int | None:
    face, _ = j.which(answer, [{"type": "roll", "face": f} for f in range(1, 7)])
    return None if face is None else face + 1


def play_ludo(j: Judge, seed: int, level: Callable[[int], str]) -> Played:
    """A Ludo game from ``seed`` with throws without a face and CPU moves without a pick, the CPU's level of
    each move from ``level`` (its count so far), until the game ends, REQUESTS, or an answer the reference
    cannot follow."""
    from ..games.ludo import cpu

    skip = set(j.engine.info.stream_fields)
    out = Played(seed)
    out.start = _shown(_as_written(j.driver, ("start", "ludo", j.ruleset, seed, {})), skip)
    j.state = j.engine.new_state(j.ruleset, seed, {})
    moves = 0
    while j.engine.outcome(j.state) is None and len(out.actions) < REQUESTS:
        if j.state.phase == "roll":
            action: dict[str, Any] = {"type": "roll"}
            answer = j.send(action)
            face = _face(j, answer)
            if face is not None:
                out.faces.append(face)
        else:
            action = {"type": "cpu", "level": level(moves)}
            moves += 1
            among = cpu.candidates(j.engine, j.state, action["level"])  # type: ignore[arg-type]  # the Ludo engine
            answer = j.send(action)
            if len(among) > 1:
                face = j.which(answer, [{**action, "pick": i} for i in range(len(among))])[0]
            else:
                face = 0 if j.follow(action, answer) else None
        out.actions.append(action)
        out.answers.append(_shown(answer, skip))
        if face is None:
            break
    return out


def play_black_fog(j: Judge, seed: int, rng: random.Random) -> Played:
    """A Black Fog game from ``seed`` with a start without a map, animal dice without a face and fog without
    tiles; the keepers' actions drawn by ``rng``; until the game ends, REQUESTS, or an answer the reference
    cannot follow."""
    skip = set(j.engine.info.stream_fields)
    out = Played(seed)
    answer = _as_written(j.driver, ("start", "black-fog", j.ruleset, seed, {}))
    out.start = _shown(answer, skip)
    shown = answer.get("map") if isinstance(answer, dict) else None
    if not isinstance(shown, dict) or j.adopt(seed, {"map": {"apple": shown.get("apple"),
                                                            "water": shown.get("water")}}, answer, "no map"):
        return out
    while j.engine.outcome(j.state) is None and len(out.actions) < REQUESTS:
        need = j.engine.pending(j.state)  # type: ignore[attr-defined]  # the Black Fog engine
        if need in ("roll", "fog"):
            action: dict[str, Any] = {"type": need}
            answer = j.send(action)
            if need == "roll":
                face = _face(j, answer)
                followed = face is not None
                if face is not None:
                    out.faces.append(face)
            else:
                before = set(j._view(j.state)["map"]["fog"])
                tiles = sorted(set(answer["map"]["fog"]) - before) if isinstance(answer, dict) and isinstance(
                    answer.get("map"), dict) and isinstance(answer["map"].get("fog"), list) else []
                followed = j.which(answer, [{"type": "fog", "tiles": tiles}])[0] is not None
        else:
            legal = j.engine.legal_actions(j.state)
            actions = [a for a in legal if a["type"] != "end-actions"]
            action = {"type": "end-actions"} if not actions or rng.random() < 0.4 else rng.choice(actions)
            if need == "feed":
                action = rng.choice(legal)
            answer = j.send(action)
            followed = j.follow(action, answer)
        out.actions.append(action)
        out.answers.append(_shown(answer, skip))
        if not followed:
            break
    return out


def _again(j: Judge, first: Played, how: str) -> str:
    """Send ``first``'s requests again after ``how`` ("restart", or "start": a new start with its seed); the
    first answer that differs, in words ("" when none does)."""
    skip = set(j.engine.info.stream_fields)
    if how == "restart":
        answer = _as_written(j.driver, ("restart",))
    else:
        answer = _as_written(j.driver, ("start", j.game, j.ruleset, first.seed, {}))
    if _shown(answer, skip) != first.start:
        return f"after a {how} with seed {first.seed}, its start is not the one that seed gave before"
    for k, (action, was) in enumerate(zip(first.actions, first.answers), 1):
        now = _shown(j.send(action), skip)
        if now != was:
            return (f"after a {how} with seed {first.seed}, request {k} ({json.dumps(action)}) was answered "
                    f"otherwise than the first time: the same seed did not give the same game")
    return ""


def judge_ludo(driver: Driver, ruleset: str) -> list[Verdict]:
    """The seed's promise of a build's own dice and CPU draws in Ludo."""
    j = Judge(driver, "ludo", ruleset)
    rng = random.Random(f"{SEED}/ludo")
    levels = ("easy", "normal", "hard")
    seeded = Verdict("ludo", "ludo/own chance by the seed", ("LD-DICE-1", "LD-R5"),
                     said="the same seed gave the same game after a restart and a new start; another seed other throws")
    apart = Verdict("ludo", "ludo/own dice apart from the CPUs", ("LD-CPU-5",),
                    said="one seed threw the same faces whichever level the CPUs played",
                    note=f"the two games shared fewer than {LEAST_THROWS} throws")
    seed = rng.randrange(1 << 53)
    first = play_ludo(j, seed, lambda n: levels[n % 3])
    for how in ("restart", "start"):
        seeded.impossible = seeded.impossible or _again(j, first, how)
    other = play_ludo(j, seed ^ rng.randrange(1, 1 << 53), lambda n: levels[n % 3])
    shared = min(len(first.faces), len(other.faces))
    if not seeded.impossible and shared >= LEAST_THROWS and first.faces[:shared] == other.faces[:shared]:
        seeded.impossible = (f"seeds {first.seed} and {other.seed} threw the same {shared} faces: its dice do not "
                             f"come from the seed")
    seeded.judged = len(first.actions) if not seeded.impossible else 0
    seeded.request = {"op": "start", "game": "ludo", "ruleset": ruleset, "seed": seed, "setup": {}}
    easy = play_ludo(j, seed, lambda n: "easy")
    hard = play_ludo(j, seed, lambda n: "hard")
    shared = min(len(easy.faces), len(hard.faces))
    if shared >= LEAST_THROWS:
        k = next((i for i in range(shared) if easy.faces[i] != hard.faces[i]), None)
        if k is not None:
            apart.impossible = (f"with seed {seed}, throw {k + 1} was a {easy.faces[k]} when the CPUs played easy and "
                                f"a {hard.faces[k]} when they played hard: the CPUs' draws move the dice")
        apart.judged = shared
    apart.request = seeded.request
    return [seeded, apart]


def judge_black_fog(driver: Driver, ruleset: str) -> list[Verdict]:
    """The seed's promise of a build's own maps, dice and fog in Black Fog."""
    j = Judge(driver, "black-fog", ruleset)
    rng = random.Random(f"{SEED}/black-fog")
    seeded = Verdict("black-fog", "black-fog/own chance by the seed", ("BF-R6",),
                     said="the same seed gave the same map, dice and fog after a restart and a new start; another "
                          "seed another map")
    seed = rng.randrange(1 << 53)
    first = play_black_fog(j, seed, random.Random(f"{SEED}/keepers"))
    for how in ("restart", "start"):
        seeded.impossible = seeded.impossible or _again(j, first, how)
    other_seed = seed ^ rng.randrange(1, 1 << 53)
    other = _as_written(driver, ("start", "black-fog", ruleset, other_seed, {}))
    if not seeded.impossible and isinstance(other, dict) and isinstance(first.start, dict) \
            and other.get("map") == first.start.get("map"):
        seeded.impossible = f"seeds {seed} and {other_seed} drew the same map: its maps do not come from the seed"
    seeded.judged = len(first.actions) + 1 if not seeded.impossible else 0
    seeded.request = {"op": "start", "game": "black-fog", "ruleset": ruleset, "seed": seed, "setup": {}}
    return [seeded]


JUDGES: dict[str, Callable[[Driver, str], list[Verdict]]] = {"ludo": judge_ludo, "black-fog": judge_black_fog}


__all__ = ["JUDGES", "judge_black_fog", "judge_ludo"]
