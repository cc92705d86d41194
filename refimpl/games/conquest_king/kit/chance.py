"""Conquest King's own chance judged: the maps of a start without terrain (harness/ownchance.py)."""

from __future__ import annotations

from ....harness.driver import Driver
from ....harness.ownchance import Judge, Verdict, describe

CONQUEST_MAPS = 40  # Conquest King starts without terrain


def judge_own(driver: Driver, ruleset: str, starts: int = CONQUEST_MAPS) -> list[Verdict]:
    """Starts without terrain: each map the build draws must be one a set-up could give (ruling CK-R1)."""
    j = Judge(driver, "conquest-king", ruleset)
    maps = Verdict("conquest-king", "conquest-king/own maps", ("CK-R1", "CK-START-1"))
    for _ in range(starts):
        answer, seed = j.start()
        maps.request = {"op": "start", "game": "conquest-king", "ruleset": ruleset, "seed": seed, "setup": {}}
        if not isinstance(answer, dict):
            maps.impossible = f"it refused a start without terrain: {describe(answer)}"
            break
        maps.impossible = j.adopt(seed, {"terrain": answer.get("terrain")}, answer, "no map a set-up could give")
        if maps.impossible:
            break
        maps.judged += 1
    return [maps]
