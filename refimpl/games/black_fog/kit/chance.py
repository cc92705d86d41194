"""Black Fog's own chance judged: its maps, animal dice and fog (harness/ownchance.py), and what its seed promises
(harness/seeds.py)."""

from __future__ import annotations

import random
from typing import Any

from ....harness.driver import Driver
from ....harness.ownchance import Judge, Tally, Verdict, as_written, describe
from ....harness.requests import Start
from ....harness.seeds import REQUESTS, SEED, Played, again, face_of, shown
from .. import hexes

BLACK_FOG_ROLLS = 900  # animal dice counted (those whose six faces all differ): the same die caught in 99.95%
BLACK_FOG_GAMES = 6  # Black Fog games at least (each: a map, about 40 animal dice, 4 fogs); then on to ROLLS dice


def judge_own(driver: Driver, ruleset: str, rolls: int = BLACK_FOG_ROLLS,
                    games: int = BLACK_FOG_GAMES) -> list[Verdict]:
    """Starts without a map, then each game played to its end (the players' actions drawn by the kit, every
    animal die and every fog left to the build): at least ``games`` games, and on until ``rolls`` dice."""

    j = Judge(driver, "black-fog", ruleset)
    maps = Verdict("black-fog", "black-fog/own maps", ("BF-MAP-2", "BF-MAP-3", "BF-MAP-4"))
    dice = Verdict("black-fog", "black-fog/own dice", ("BF-ANIMAL-1",), Tally())
    fog = Verdict("black-fog", "black-fog/own fog", ("BF-FOG-1",))
    played = 0
    # ignore: made with a Tally
    while played < games or (dice.tally.draws < rolls and played < 20 * games):  # type: ignore[union-attr]
        played += 1
        answer, seed = j.start()
        maps.request = {"op": "start", "game": "black-fog", "ruleset": ruleset, "seed": seed, "setup": {}}
        if not isinstance(answer, dict):
            maps.impossible = f"it refused a start without a map: {describe(answer)}"
            break
        shown = given if isinstance(given := answer.get("map"), dict) else {}
        setup = {"map": {"apple": shown.get("apple"), "water": shown.get("water")}}
        drawn_rules = j.engine.drawn_map_problem  # type: ignore[attr-defined]  # the Black Fog engine's own check
        maps.impossible = j.adopt(seed, setup, answer, "no map at all", drawn_rules)
        if maps.impossible:
            break
        maps.judged += 1
        for _step in range(2000):
            if j.engine.outcome(j.state) is not None:
                break
            need = j.engine.pending(j.state)  # type: ignore[attr-defined]  # the Black Fog engine
            if need == "roll":
                answer = j.send({"type": "roll"})
                face, fair = j.which(answer, [{"type": "roll", "face": f} for f in range(1, 7)])
                if face is None:
                    dice.impossible = f"an animal's die: no face 1-6 explains it; {describe(answer)}"
                    dice.request = {"type": "roll"}
                    return [maps, dice, fog]
                if fair:
                    dice.tally.add(6, face)  # type: ignore[union-attr]  # made with a Tally
                dice.judged += 1
            elif need == "fog":
                before = set(j._view(j.state)["map"]["fog"])
                answer = j.send({"type": "fog"})
                tiles = sorted(set(answer["map"]["fog"]) - before, key=hexes.parse) \
                    if isinstance(answer, dict) and isinstance(answer.get("map"), dict) else []
                if j.which(answer, [{"type": "fog", "tiles": tiles}])[0] is None:
                    fog.impossible = (f"fog fell on {', '.join(tiles) or 'no tile'}, which the rules do not allow "
                                      f"there ({describe(answer)})")
                    fog.request = {"type": "fog"}
                    return [maps, dice, fog]
                fog.judged += 1
            else:
                legal = j.engine.legal_actions(j.state)
                actions = [a for a in legal if a["type"] != "end-actions"]
                choice = {"type": "end-actions"} if not actions or j.rng.random() < 0.4 else j.rng.choice(actions)
                if need == "feed":
                    choice = j.rng.choice(legal)
                answer = j.send(choice)
                if not j.follow(choice, answer):
                    maps.impossible = f"{choice}: {describe(answer)}"
                    return [maps, dice, fog]
    return [maps, dice, fog]


def play_black_fog(j: Judge, seed: int, rng: random.Random) -> Played:
    """A Black Fog game from ``seed`` with a start without a map, animal dice without a face and fog without
    tiles; the keepers' actions drawn by ``rng``; until the game ends, REQUESTS, or an answer the reference
    cannot follow."""
    skip = set(j.engine.info.stream_fields)
    out = Played(seed)
    answer = as_written(j.driver, Start("black-fog", j.ruleset, seed, {}))
    out.start = shown(answer, skip)
    drawn = answer.get("map") if isinstance(answer, dict) else None
    if not isinstance(drawn, dict) or j.adopt(seed, {"map": {"apple": drawn.get("apple"),
                                                            "water": drawn.get("water")}}, answer, "no map"):
        return out
    while j.engine.outcome(j.state) is None and len(out.actions) < REQUESTS:
        need = j.engine.pending(j.state)  # type: ignore[attr-defined]  # the Black Fog engine
        if need in ("roll", "fog"):
            action: dict[str, Any] = {"type": need}
            answer = j.send(action)
            if need == "roll":
                face = face_of(j, answer)
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
        out.answers.append(shown(answer, skip))
        if not followed:
            break
    return out


def judge_seeded(driver: Driver, ruleset: str) -> list[Verdict]:
    """The seed's promise of a build's own maps, dice and fog in Black Fog."""
    j = Judge(driver, "black-fog", ruleset)
    rng = random.Random(f"{SEED}/black-fog")
    seeded = Verdict("black-fog", "black-fog/own chance by the seed", ("BF-R6",),
                     said="the same seed gave the same map, dice and fog after a restart and a new start; another "
                          "seed another map")
    seed = rng.randrange(1 << 53)
    first = play_black_fog(j, seed, random.Random(f"{SEED}/keepers"))
    for how in ("restart", "start"):
        seeded.impossible = seeded.impossible or again(j, first, how)
    other_seed = seed ^ rng.randrange(1, 1 << 53)
    other = as_written(driver, Start("black-fog", ruleset, other_seed, {}))
    if not seeded.impossible and isinstance(other, dict) and isinstance(first.start, dict) \
            and other.get("map") == first.start.get("map"):
        seeded.impossible = f"seeds {seed} and {other_seed} drew the same map: its maps do not come from the seed"
    seeded.judged = len(first.actions) + 1 if not seeded.impossible else 0
    seeded.request = {"op": "start", "game": "black-fog", "ruleset": ruleset, "seed": seed, "setup": {}}
    return [seeded]
