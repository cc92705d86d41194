"""Lantern Quay's tables (``refimpl tables lantern-quay``, specs/lantern-quay.md), and the exact chance of a
restoration the spec prints."""

from __future__ import annotations

import functools
import itertools
import json
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from typing import Any, cast

from ....reports.jsondoc import fraction
from ....rulebook.tables import Table
from ... import GAMES
from ..engine import INFO, LanternQuay


# The registry holds each game's own engine under its name (a profile's engine too: the same class, other data).
def _lantern() -> LanternQuay:
    return cast(LanternQuay, GAMES[INFO.name])


def _lantern_faces() -> Table:
    t: Any = _lantern().tables
    rows, records = [], []
    for face in range(1, t.faces + 1):
        forge = t.forge[face]
        forge_text = "nothing" if forge is None else f"pay {forge[0]} brass, make {forge[1]} module(s)"
        installs = face >= t.install_min_face
        install = f"spend {t.install_modules} module, light {t.install_lenses} lens" if installs else "nothing"
        rows.append([str(face), f"+{t.salvage[face]} brass", forge_text, install])
        records.append({"face": face, "salvage_brass": t.salvage[face],
                        "forge": None if forge is None else {"pay_brass": forge[0], "make_modules": forge[1]},
                        "install": {"spend_modules": t.install_modules, "light_lenses": t.install_lenses}
                        if installs else None})
    return Table(["face", "Salvage", "Forge (all or nothing)", "Install (needs a module)"], rows, records)


def restoration_chance(ruleset: str, allocation: str) -> Fraction:
    """The exact chance that a Lantern Quay game ends ``restored``, over every roll of every round, played
    through the engine (so through data/lantern-quay.yaml's tables).

    ``allocation`` is ``best``: after each roll, the way of placing the dice that gives the highest chance of a
    restoration from the stock it leaves; or ``random``: each way equally likely. A way is an assignment of the
    three rolled dice (equal faces counted as distinct dice) to the three slots and, under ``v0``, whose dice
    resolve as they are placed, also the order they are placed in (under ``v1`` the order changes nothing).
    """
    if allocation not in ("best", "random"):
        raise ValueError(f"allocation is best or random, not {allocation!r}")
    game: Any = GAMES[INFO.name]  # (the engine in play: a profile's, under rulebook.profiles.using)
    return _restoration(json.dumps(game.data, sort_keys=True, default=str), ruleset, allocation)


@functools.cache
def _restoration(data: str, ruleset: str, allocation: str) -> Fraction:
    """restoration_chance for the engine whose data file is ``data`` (the cache's key: a profile's own odds)."""
    game: Any = GAMES[INFO.name]
    t = game.tables
    # A roll's order does not matter (every assignment of its dice is a way): each multiset of faces once,
    # weighed by the number of ordered rolls that show it.
    rolls = Counter(tuple(sorted(r)) for r in itertools.product(range(1, t.faces + 1), repeat=t.dice))

    @functools.cache
    def chance(round_: int, brass: int, modules: int, lenses: int) -> Fraction:
        total = Fraction(0)
        for roll, weight in rolls.items():
            ways = [chance(*after) if isinstance(after, tuple) else after
                    for after in _lantern_ways(data, ruleset, round_, brass, modules, lenses, roll)]
            total += weight * (max(ways) if allocation == "best" else sum(ways, Fraction(0)) / len(ways))
        return total / sum(rolls.values())

    start = game.new_state(ruleset)
    return chance(start.round, start.brass, start.modules, start.lenses)


@functools.cache
def _lantern_ways(data: str, ruleset: str, round_: int, brass: int, modules: int,
                  lenses: int, roll: tuple[int, ...]) -> list[Any]:
    """What each way of placing ``roll`` leads to, one entry per way: the next round's (round, brass, modules,
    lenses), or at the end of the game 1 (restored) or 0, as Fractions."""
    from ..engine import Place, Roll, State

    game: Any = GAMES[INFO.name]
    slots = game.tables.slots
    orders = list(itertools.permutations(range(len(slots))))
    if game.timing[ruleset] != "on-placement":
        orders = orders[:1]
    rolled = game.apply(State(ruleset=ruleset, round=round_, brass=brass, modules=modules, lenses=lenses),
                        Roll(roll))
    seen: dict[tuple[tuple[int, ...], tuple[int, ...]], Any] = {}
    out = []
    for dice in itertools.permutations(roll):  # dice[k] goes to slot k
        for order in orders:
            if (dice, order) not in seen:
                state = rolled
                for k in order:
                    state = game.apply(state, Place(slots[k], dice[k]))
                seen[dice, order] = ((state.round, state.brass, state.modules, state.lenses)
                                     if state.result is None else Fraction(int(state.result == "restored")))
            out.append(seen[dice, order])
    return out


def _lantern_odds() -> Table:

    rows, records = [], []
    for ruleset in ("v1", "v0"):
        for allocation, how in (("best", "the best way after each roll"),
                                ("random", "at random, each way equally likely")):
            p = restoration_chance(ruleset, allocation)
            rows.append([f"`{ruleset}`", how, f"{p.numerator}/{p.denominator}", f"{100 * float(p):.2f}%"])
            records.append({"ruleset": ruleset, "allocation": allocation,
                            "restored": fraction(p.numerator, p.denominator)})
    return Table(["ruleset", "dice placed", "chance of `restored`", "about"], rows, records)



TABLES: dict[str, Callable[[], Table]] = {"faces": _lantern_faces, "odds": _lantern_odds}
SPEC_TABLES: dict[str, Callable[[], Table]] = {}
