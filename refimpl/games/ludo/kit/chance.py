"""Ludo's own chance judged: its dice, its CPUs' draws and tie splits (harness/ownchance.py), and what its seed
promises (harness/seeds.py)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ....harness.driver import Driver
from ....harness.ownchance import Judge, Tally, Verdict, as_written, describe
from ....harness.requests import Start
from ....harness.seeds import LEAST_THROWS, REQUESTS, SEED, Played, again, face_of, shown
from .. import cpu
from ..engine import LEVELS

ROLLS = 1200  # Ludo throws judged: a die with one face twice as likely is caught in every run of 2,000 simulated


def judge_own(driver: Driver, ruleset: str, rolls: int = ROLLS) -> list[Verdict]:
    """Throws without a face and CPU moves without a pick, game after game, until ``rolls`` throws."""

    j = Judge(driver, "ludo", ruleset)
    dice = Verdict("ludo", "ludo/own dice", ("LD-ROLL-1",), Tally())
    picks = Verdict("ludo", "ludo/own CPU draws", ("LD-CPU-1",), Tally())
    ties = Verdict("ludo", "ludo/own tie splits", ("LD-CPU-4",),
                   said="in each game, every tie among the same number of moves split to the same one of them")
    # ignore: dice is made with a Tally
    while dice.tally.draws < rolls and not any(v.impossible for v in (dice, picks, ties)):  # type: ignore[union-attr]
        answer, seed = j.start()
        splits: dict[int, int] = {}  # this game's ties: how many moves tied -> which of them the build took
        j.state = j.engine.new_state(ruleset, seed, {})
        if not j._same(j._view(j.state), answer):
            dice.impossible = "its start is not the reference's start"
            break
        # ignore: made with a Tally
        while j.engine.outcome(j.state) is None and dice.tally.draws < rolls:  # type: ignore[union-attr]
            if j.state.phase == "roll":
                action = {"type": "roll"}
                answer = j.send(action)
                face, fair = j.which(answer, [{"type": "roll", "face": f} for f in range(1, 7)])
                if face is None:
                    dice.impossible, dice.request = f"a throw: no face 1-6 explains it; {describe(answer)}", action
                    break
                if fair:
                    dice.tally.add(6, face)  # type: ignore[union-attr]  # made with a Tally
                dice.judged += 1
                continue
            level = j.rng.choice(LEVELS)
            action = {"type": "cpu", "level": level}
            among = cpu.candidates(j.engine, j.state, level)  # type: ignore[arg-type]  # the Ludo engine
            answer = j.send(action)
            if len(among) > 1:
                pick, fair = j.which(answer, [{"type": "cpu", "level": level, "pick": i}
                                              for i in range(len(among))])
                verdict = picks if level == "easy" else ties
                if pick is None:
                    verdict.impossible = (f"a {level} CPU move: none of the {len(among)} moves it draws among "
                                          f"explains it; {describe(answer)}")
                    verdict.request = action
                    break
                if level != "easy" and fair and splits.setdefault(len(among), pick) != pick:
                    ties.impossible = (f"seed {seed} split a tie of {len(among)} moves to move {splits[len(among)]} "
                                       f"and a later one to move {pick} (in piece order): the game's seed gives one "
                                       f"number for every tie")
                    ties.request = action
                    break
                if fair and level == "easy":
                    picks.tally.add(len(among), pick)  # type: ignore[union-attr]  # made with a Tally
                verdict.judged += 1
            elif not j.follow(action, answer):
                picks.impossible, picks.request = f"a {level} CPU move with one choice: {describe(answer)}", action
                break
    return [dice, picks, ties]


def play_ludo(j: Judge, seed: int, level: Callable[[int], str]) -> Played:
    """A Ludo game from ``seed`` with throws without a face and CPU moves without a pick, the CPU's level of
    each move from ``level`` (its count so far), until the game ends, REQUESTS, or an answer the reference
    cannot follow."""

    skip = set(j.engine.info.stream_fields)
    out = Played(seed)
    out.start = shown(as_written(j.driver, Start("ludo", j.ruleset, seed, {})), skip)
    j.state = j.engine.new_state(j.ruleset, seed, {})
    moves = 0
    while j.engine.outcome(j.state) is None and len(out.actions) < REQUESTS:
        if j.state.phase == "roll":
            action: dict[str, Any] = {"type": "roll"}
            answer = j.send(action)
            face = face_of(j, answer)
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
        out.answers.append(shown(answer, skip))
        if face is None:
            break
    return out


def judge_seeded(driver: Driver, ruleset: str) -> list[Verdict]:
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
        seeded.impossible = seeded.impossible or again(j, first, how)
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
