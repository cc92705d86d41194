"""The reference as a web app with its own random source would be: it declares explicit-chance, and every
seeded form it is sent (a throw without its face, a CPU choice without its pick, fog without its tiles, a
Black Fog start without its map, a Conquest King start without its terrain) is decided by Python's ``random``,
not by the canonical streams: generators of its own seeded from the game's seed, one for the dice, one for easy's
draws, one for maps and fog, so the same seed gives the same game (LD-DICE-1, LD-CPU-5, BF-R6); a tie of normal or
hard is split by the first number of one more generator of the seed, the same for every tie (LD-CPU-4). Against it,
``verify`` conforms only if the kit gives every chance outcome itself.

    python tests/builds/own_random.py [--no-capability]   (without the capability: what a build that does
                                                          not say so gets judged as: it fails)

Builds whose own chance is wrong (refimpl/harness/ownchance.py must fail each):
    --die W1,...,W6        its die shows each face with these weights (2,1,1,1,1,1: one face twice as often)
    --trees-map            a Black Fog map of its own with 30 apple trees and no water
    --fog-anywhere         fog on any five tiles of the map
    --crash-on-roll        it exits when asked to throw a die of its own
    --first-pick           a CPU that draws always plays the first of its moves
    --mountain-castle      a Conquest King map with a mountain on Gaias's castle
    --unseeded             every draw from the operating system's randomness: the seed is not honoured
    --shared-stream        the CPUs draw from the dice's generator, so their draws move the dice
    --cycling-die          its die shows 1, 2, 3, 4, 5, 6, 1, ... in turn: uniform, but not independent
    --fresh-ties           a tie is split by the next draw of the CPUs' generator, afresh each time
    --slow-die SECONDS     a fair die that takes SECONDS to throw (a judgement that must end at --max-time)
"""

from __future__ import annotations

import json
import random
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from refimpl.games import GAMES  # noqa: E402
from refimpl.games.ludo import cpu  # noqa: E402
from refimpl.harness.serve import Session  # noqa: E402

ARGS = sys.argv[1:]


def generator(seed: Any, stream: str) -> random.Random:
    """The build's own generator of one stream for a game's seed (the operating system's with --unseeded)."""
    return random.SystemRandom() if "--unseeded" in ARGS else random.Random(f"{seed}/{stream}")


class Streams:
    """A game's own generators: the dice, the CPUs' draws, maps, fog."""

    def __init__(self, seed: Any) -> None:
        self.seed = seed
        self.dice, self.picks, self.maps, self.fog = (generator(seed, s) for s in ("dice", "picks", "maps", "fog"))
        if "--shared-stream" in ARGS:
            self.picks = self.dice
        self.cycle = 0


CHANCE = Streams(None)


def _arg(name: str) -> str | None:
    return ARGS[ARGS.index(name) + 1] if name in ARGS else None


WEIGHTS = [float(w) for w in (_arg("--die") or "1,1,1,1,1,1").split(",")]


def face() -> int:
    """A face of its own die (fair unless --die gives weights)."""
    if "--crash-on-roll" in ARGS:
        sys.exit(7)
    if _arg("--slow-die"):
        time.sleep(float(_arg("--slow-die") or 0))
    if "--cycling-die" in ARGS:
        CHANCE.cycle += 1
        return (CHANCE.cycle - 1) % 6 + 1
    return CHANCE.dice.choices(range(1, 7), weights=WEIGHTS)[0]


class OwnRandom(Session):
    def __init__(self, declare: bool) -> None:
        super().__init__(GAMES, "own random" + ("" if declare else " (undeclared)"))
        self.declare = declare

    def hello(self, req: dict[str, Any]) -> dict[str, Any]:
        answer = super().hello(req)
        if self.declare:
            answer["capabilities"] = [*answer["capabilities"], "explicit-chance"]
        return answer

    def restart(self, req: dict[str, Any]) -> dict[str, Any]:
        if self.started:
            self.streams(self.started[1])
        return super().restart(req)

    @staticmethod
    def streams(seed: Any) -> None:
        global CHANCE
        CHANCE = Streams(seed)

    def start(self, req: dict[str, Any]) -> dict[str, Any]:
        self.streams(req.get("seed"))
        setup = req.get("setup")
        if req.get("game") == "black-fog" and isinstance(setup, dict) and "map" not in setup:
            # a map of its own: the one another seed draws
            engine = GAMES["black-fog"]
            drawn = engine.explicit_setup(req.get("ruleset"), CHANCE.maps.randrange(2**53), setup)
            req = {**req, "setup": drawn}
            if "--trees-map" in ARGS and not setup:  # 30 apple trees and no water: not a map the rules draw
                answer = super().start(req)
                trees = frozenset(CHANCE.maps.sample(sorted(engine.tiles - {(0, 0)}), 30))
                self.state = replace(self.state, apple=trees, water=frozenset())
                return {**answer, "state": self._view()}
        if req.get("game") == "conquest-king" and isinstance(setup, dict) and "terrain" not in setup:
            # a map of its own at every start, as the seed's game draws one (ruling CK-R1)
            p = GAMES["conquest-king"].p  # type: ignore[attr-defined]
            rows = [[CHANCE.maps.choice(".....fhrm") for _ in range(p.width)] for _ in range(p.height)]
            for x, y in p.castles.values():
                rows[y][x] = "."
            req = {**req, "setup": {**setup, "terrain": ["".join(r) for r in rows]}}
            if "--mountain-castle" in ARGS and not setup:  # its map puts a mountain on Gaias's castle
                answer = super().start(req)
                x, y = p.castles["gaias"]
                terrain = list(self.state.terrain)
                terrain[y] = terrain[y][:x] + "m" + terrain[y][x + 1:]
                self.state = replace(self.state, terrain=tuple(terrain))
                return {**answer, "state": self._view()}
        return super().start(req)

    def apply(self, req: dict[str, Any]) -> dict[str, Any]:
        action = req.get("action")
        if self.game is not None and isinstance(action, dict):
            seeded_fog = action.get("type") == "fog" and "tiles" not in action
            req = {**req, "action": self.own_chance(action)}
            if seeded_fog and "--fog-anywhere" in ARGS and self.game.info.name == "black-fog":
                before = self.state.fog
                answer = super().apply(req)
                anywhere = frozenset(CHANCE.fog.sample(sorted(self.game.tiles), 5))  # its fog falls on any 5 tiles
                self.state = replace(self.state, fog=before | anywhere)
                return {**answer, "state": self._view()}
        return super().apply(req)

    def own_chance(self, action: dict[str, Any]) -> dict[str, Any]:
        name, state = self.game.info.name, self.state
        kind = action.get("type")
        seeded_roll = action.get("face") is None if name == "ludo" else "face" not in action  # Black Fog: no null
        if kind == "roll" and seeded_roll and name in ("ludo", "black-fog"):
            return {**action, "face": face()}
        if name == "ludo" and kind == "cpu" and action.get("pick") is None and state.phase == "move" \
                and action.get("level") in ("easy", "normal", "hard"):
            among = len(cpu.candidates(self.game, state, action["level"]))
            if "--first-pick" in ARGS:
                return {**action, "pick": 0}
            tie = action["level"] != "easy" and "--fresh-ties" not in ARGS
            draws = generator(CHANCE.seed, "ties") if tie else CHANCE.picks
            return {**action, "pick": draws.randrange(among)}
        if name == "black-fog" and kind == "fog" and "tiles" not in action and self.game.pending(state) == "fog":
            eligible = self.game._fog_eligible(state)
            chosen = CHANCE.fog.sample(eligible, self.game._fog_want(eligible))
            return {**action, "tiles": [f"{q},{r}" for q, r in chosen]}
        return action

    OPS = {**Session.OPS, "hello": hello, "start": start, "apply": apply, "restart": restart}


def main() -> None:
    session = OwnRandom(declare="--no-capability" not in sys.argv[1:])
    for line in sys.stdin:
        response = session.answer(line)
        sys.stdout.write(json.dumps(response, separators=(",", ":")) + "\n")
        sys.stdout.flush()
        if session.quitting:
            break


if __name__ == "__main__":
    main()
