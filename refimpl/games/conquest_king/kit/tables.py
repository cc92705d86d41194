"""Conquest King's tables (``refimpl tables conquest-king``, specs/conquest-king.md): dice, units, terrain,
and the map, castles and lobby clock the spec prints."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, cast

from ....reports.jsondoc import fraction
from ....rulebook.tables import Table
from ... import GAMES
from ..engine import INFO, ConquestKing


def _conquest() -> ConquestKing:
    return cast(ConquestKing, GAMES[INFO.name])


def attacker_wins(difference: int, ties: str = "attacker") -> tuple[int, int]:
    """(the throws the attacker wins, the throws that decide the fight) of the 36 throws of the two dice at this
    base difference (attack base minus defence base): the table of CK-DICE-1, where a tie goes to the attacker;
    under the variant ``ties``, to the defender, or (``again``) a tie decides nothing and is thrown again, so the
    attacker's chance is its wins over the throws that decide."""
    throws = [(difference + a, d) for a in range(1, 7) for d in range(1, 7)]
    wins = sum(1 for a, d in throws if a > d or a == d and ties == "attacker")
    return wins, 36 - sum(1 for a, d in throws if a == d) if ties == "again" else 36


def _conquest_dice() -> Table:

    ties = _conquest().p.ties
    rows, records = [], []
    for diff in range(5, -7, -1):
        wins, of = attacker_wins(diff, ties)
        label = "±0" if diff == 0 else f"{diff:+d}".replace("-", "−")
        rows.append([label, f"{wins}/{of}", f"{math.floor(100 * wins / of + 0.5)}%"])
        records.append({"base_difference": diff, "attacker_wins": fraction(wins, of)})
    return Table(["base difference", "attacker wins", "chance"], rows, records)


def _conquest_units() -> Table:
    data: Any = _conquest().data
    units = data["units"].items()
    return Table(["unit", "attack", "movement", "price"],
                 [[f"`{k}`", str(r["attack"]), str(r["move"]), "—" if r["price"] is None else f"{r['price']}G"]
                  for k, r in units],
                 [{"unit": k, "attack": r["attack"], "movement": r["move"], "price_gold": r["price"]}
                  for k, r in units])


def _conquest_terrain() -> Table:
    data: Any = _conquest().data
    terrain = data["terrain"].items()
    return Table(["terrain", "letter", "movement cost", "attack modifier"],
                 [[name, f"`{t['letter']}`", "impassable" if t["cost"] is None else str(t["cost"]),
                   f"{t['modifier']:+d}"] for name, t in terrain],
                 [{"terrain": name, "letter": t["letter"], "movement_cost": t["cost"], "attack_modifier": t["modifier"]}
                  for name, t in terrain])


def _conquest_map() -> Table:
    data: Any = _conquest().data
    rows = data["map"]["terrain"]
    return Table(["y", f"row: the letters of x = 0 to {data['map']['width'] - 1}, west to east"],
                 [[str(y), f"`{row}`"] for y, row in enumerate(rows)],
                 [{"y": y, "row": row} for y, row in enumerate(rows)])


def _conquest_castles() -> Table:
    engine: Any = GAMES[INFO.name]
    p = engine.p
    out, records = [], []
    for side in p.sides:
        x, y = p.castles[side]
        gates = p.gates[side]
        first, last = max(0, x - p.deploy_columns), min(p.width - 1, x + p.deploy_columns)
        facing = engine._default_facing(side)
        out.append([f"`{side}`" + (" (moves first)" if p.sides[p.first] == side else ""), f"[{x}, {y}]",
                    ", ".join(f"[{gx}, {gy}]" for gx, gy in gates), f"{first}–{last}", f"`{facing}`"])
        records.append({"side": side, "first": p.sides[p.first] == side, "castle": [x, y],
                        "gates": [list(g) for g in gates], "deploy_columns": [first, last], "facing": facing})
    return Table(["side", "castle", "gate squares (beside the castle)", "deployment columns", "default facing"],
                 out, records)


def _conquest_lobby() -> Table:
    lobby: Any = _conquest().data["lobby"]
    rt = lobby["realtime"]
    spec = [("a registered side has not completed deployment (phase `deploy`)", "after it registered", "both",
             lobby["deploy_limit"], "the game is deleted (`deleted`)"),
            ("a game finished with a winner", "after it ended", "normal", lobby["finished_reset"],
             "it is archived (`lobby.archived` turns `true`)"),
            ("a game finished with a winner", "after it ended", "realtime", rt["finished_reset"],
             "it is archived (`lobby.archived` turns `true`)"),
            ("the first registration (phase `deploy`, `play` or `combat`)", "after it", "realtime",
             rt["first_registration_reset"], "the game is reset (`reset`)"),
            ("a single registration, the other side not registered", "after it", "realtime",
             rt["lone_registration_reset"], "the game is reset (`reset`)"),
            ("a `play` or `combat` phase", "after it began", "realtime", rt["phase_limit"],
             "the phase ends (ruling CK-R8)")]
    return Table(["deadline", "minutes", "field", "then"],
                 [[what, f"{minutes:,} {when}", field, then] for what, when, field, minutes, then in spec],
                 [{"deadline": what, "minutes": minutes, "field": field, "then": then}
                  for what, _, field, minutes, then in spec])


TABLES: dict[str, Callable[[], Table]] = {"dice": _conquest_dice, "units": _conquest_units,
                                          "terrain": _conquest_terrain}
SPEC_TABLES: dict[str, Callable[[], Table]] = {"map": _conquest_map, "castles": _conquest_castles,  # the spec's only
                                               "lobby": _conquest_lobby}
