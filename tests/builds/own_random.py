"""The reference as a web app with its own random source would be: it declares explicit-chance, and every
seeded form it is sent (a throw without its face, a CPU choice without its pick, fog without its tiles, a
Black Fog start without its map, a Conquest King start without its terrain) is decided by Python's ``random`` seeded from the operating system, not by
the canonical streams. Against it, ``verify`` conforms only if the kit gives every chance outcome itself.

    python tests/builds/own_random.py [--no-capability]   (without the capability: what a build that does
                                                          not say so gets judged as: it fails)
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from refimpl.games import GAMES  # noqa: E402
from refimpl.games.ludo import cpu  # noqa: E402
from refimpl.serve import Session  # noqa: E402

CHANCE = random.SystemRandom()


class OwnRandom(Session):
    def __init__(self, declare: bool) -> None:
        super().__init__(GAMES, "own random" + ("" if declare else " (undeclared)"))
        self.declare = declare

    def hello(self, req: dict[str, Any]) -> dict[str, Any]:
        answer = super().hello(req)
        if self.declare:
            answer["capabilities"] = [*answer["capabilities"], "explicit-chance"]
        return answer

    def start(self, req: dict[str, Any]) -> dict[str, Any]:
        setup = req.get("setup")
        if req.get("game") == "black-fog" and isinstance(setup, dict) and "map" not in setup:
            # a map of its own: the one another seed draws
            engine = GAMES["black-fog"]
            drawn = engine.explicit_setup(req.get("ruleset"), CHANCE.randrange(2**53), setup)
            req = {**req, "setup": drawn}
        if req.get("game") == "conquest-king" and isinstance(setup, dict) and "terrain" not in setup:
            # a map of its own at every start, as the seed's game draws one (ruling CK-R1)
            p = GAMES["conquest-king"].p  # type: ignore[attr-defined]
            rows = [[CHANCE.choice(".....fhrm") for _ in range(p.width)] for _ in range(p.height)]
            for x, y in p.castles.values():
                rows[y][x] = "."
            req = {**req, "setup": {**setup, "terrain": ["".join(r) for r in rows]}}
        return super().start(req)

    def apply(self, req: dict[str, Any]) -> dict[str, Any]:
        action = req.get("action")
        if self.game is not None and isinstance(action, dict):
            req = {**req, "action": self.own_chance(action)}
        return super().apply(req)

    def own_chance(self, action: dict[str, Any]) -> dict[str, Any]:
        name, state = self.game.info.name, self.state
        kind = action.get("type")
        seeded_roll = action.get("face") is None if name == "ludo" else "face" not in action  # Black Fog: no null
        if kind == "roll" and seeded_roll and name in ("ludo", "black-fog"):
            return {**action, "face": CHANCE.randint(1, 6)}
        if name == "ludo" and kind == "cpu" and action.get("pick") is None and state.phase == "move" \
                and action.get("level") in ("easy", "normal", "hard"):
            return {**action, "pick": CHANCE.randrange(len(cpu.candidates(self.game, state, action["level"])))}
        if name == "black-fog" and kind == "fog" and "tiles" not in action and self.game.pending(state) == "fog":
            eligible = self.game._fog_eligible(state)
            chosen = CHANCE.sample(eligible, self.game._fog_want(eligible))
            return {**action, "tiles": [f"{q},{r}" for q, r in chosen]}
        return action

    OPS = {**Session.OPS, "hello": hello, "start": start, "apply": apply}


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
