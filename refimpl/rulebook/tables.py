"""Tables printed from the games' data files: by ``refimpl tables`` and inside the specs.

The spec files hold these tables between ``<!-- table:NAME -->`` and ``<!-- /table -->`` markers;
a test checks that each block equals what this module renders, so the numbers are typed once.
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, cast

from ..games import GAMES, BadSetup, ConquestKing, LanternQuay, Ludo


@dataclass(frozen=True)
class Table:
    """One table twice over: text cells for people (typographic signs, as in the specs) and typed records
    for machines (``--format json``: numbers as numbers, snake_case keys, ids instead of display names)."""

    head: list[str]
    rows: list[list[str]]
    records: list[dict[str, Any]]


def _beacon_adjacency() -> Table:
    engine: Any = GAMES["beacon-lines"]
    data = engine.data
    v0, v1 = engine.boards["v0"], engine.boards["v1"]
    rows, records = [], []
    for region in data["regions"]:
        rid = region["id"]
        adjacent = [n for n in v1.regions if n in v1.neighbours[rid]]
        home = region["kind"] == "home"
        start = f"permanently {region['owner'].capitalize()}" if home else "neutral"
        rows.append([f"{region['name']} (`{rid}`)", region["kind"], ", ".join(v1.names[n] for n in adjacent), start,
                     str(v0.values[rid]), str(v1.values[rid])])
        records.append({"region": rid, "name": region["name"], "kind": region["kind"], "adjacent_to": adjacent,
                        "owner_at_start": region["owner"] if home else None, "permanent_owner": home,
                        "value_v0": v0.values[rid], "value_v1": v1.values[rid]})
    return Table(["region (id)", "kind", "adjacent to", "at start", "value v0", "value v1"], rows, records)


# The registry holds each game's own engine under its name (a profile's engine too: the same class, other data).
def _lantern() -> LanternQuay:
    return cast(LanternQuay, GAMES["lantern-quay"])


def _ludo() -> Ludo:
    return cast(Ludo, GAMES["ludo"])


def _conquest() -> ConquestKing:
    return cast(ConquestKing, GAMES["conquest-king"])


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


@functools.cache
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
    game: Any = GAMES["lantern-quay"]
    t = game.tables
    # A roll's order does not matter (every assignment of its dice is a way): each multiset of faces once,
    # weighed by the number of ordered rolls that show it.
    rolls = Counter(tuple(sorted(r)) for r in itertools.product(range(1, t.faces + 1), repeat=t.dice))

    @functools.cache
    def chance(round_: int, brass: int, modules: int, lenses: int) -> Fraction:
        total = Fraction(0)
        for roll, weight in rolls.items():
            ways = [chance(*after) if isinstance(after, tuple) else after
                    for after in _lantern_ways(ruleset, round_, brass, modules, lenses, roll)]
            total += weight * (max(ways) if allocation == "best" else sum(ways, Fraction(0)) / len(ways))
        return total / sum(rolls.values())

    start = game.new_state(ruleset)
    return chance(start.round, start.brass, start.modules, start.lenses)


@functools.cache
def _lantern_ways(ruleset: str, round_: int, brass: int, modules: int,
                  lenses: int, roll: tuple[int, ...]) -> list[Any]:
    """What each way of placing ``roll`` leads to, one entry per way: the next round's (round, brass, modules,
    lenses), or at the end of the game 1 (restored) or 0, as Fractions."""
    from ..games.lantern_quay import Place, Roll, State

    game: Any = GAMES["lantern-quay"]
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
    from ..reports.jsondoc import fraction  # a share as machine output writes it (an edge across: the map says)

    rows, records = [], []
    for ruleset in ("v1", "v0"):
        for allocation, how in (("best", "the best way after each roll"),
                                ("random", "at random, each way equally likely")):
            p = restoration_chance(ruleset, allocation)
            rows.append([f"`{ruleset}`", how, f"{p.numerator}/{p.denominator}", f"{100 * float(p):.2f}%"])
            records.append({"ruleset": ruleset, "allocation": allocation,
                            "restored": fraction(p.numerator, p.denominator)})
    return Table(["ruleset", "dice placed", "chance of `restored`", "about"], rows, records)


def _ludo_board() -> Table:
    b: Any = _ludo().board
    sits = ["bottom", "left", "opposite", "right"]
    first, last = b.last_track_step + 1, b.goal - 1
    rows, records = [], []
    for k, seat in enumerate(b.seats):
        star = (b.starts[k] + _ludo().data["star_offset"]) % b.track
        rows.append([f"`{seat}`", sits[k], str(b.starts[k]), str(star), f"{first}–{last}", str(b.goal)])
        records.append({"seat": seat, "sits": sits[k], "start_square": b.starts[k], "star_square": star,
                        "home_column": {"first_step": first, "last_step": last}, "goal_step": b.goal})
    return Table(["seat", "sits", "start square", "star square", "home column (steps)", "goal (steps)"], rows, records)


def _ludo_streams() -> Table:
    """Check values for the canonical streams (specs/ludo.md "The canonical streams"): seeds 0 and 1, each
    stream's state before its first output, that output, and the first draws taken one after another."""
    from ..games import streams

    b: Any = _ludo().board
    rows, records = [], []
    for seed in (0, 1):
        for stream, xor, sizes in (("dice", b.dice_xor, (6,)), ("decision", b.decisions_xor, (2, 3, 4))):
            state = (seed ^ xor) & streams.MASK
            first = streams.splitmix64(state)[1]
            for n in sizes:
                s, draws = state, []
                for _ in range(8):
                    s, k, _used = streams.draw(s, n)
                    draws.append(k + 1 if stream == "dice" else k)
                what = "a face: a number in [0, 6), plus 1" if stream == "dice" else f"a number in [0, {n})"
                rows.append([str(seed), stream, f"`0x{state:016x}`", f"`0x{first:016x}`", what,
                             ", ".join(map(str, draws))])
                records.append({"seed": seed, "stream": stream, "state": state, "first_output": first, "n": n,
                                "draws": draws})
    return Table(["seed", "stream", "state at the start", "first output", "each draw", "the first 8 draws"],
                 rows, records)


def attacker_wins(difference: int) -> int:
    """Of the 36 throws of the two dice, how many the attacker wins at this base difference
    (attack base minus defence base; a tie goes to the attacker): the table of CK-DICE-1."""
    return sum(1 for a in range(1, 7) for d in range(1, 7) if difference + a >= d)


def _conquest_dice() -> Table:
    from ..reports.jsondoc import fraction

    rows, records = [], []
    for diff in range(5, -7, -1):
        wins = attacker_wins(diff)
        label = "±0" if diff == 0 else f"{diff:+d}".replace("-", "−")
        rows.append([label, f"{wins}/36", f"{math.floor(100 * wins / 36 + 0.5)}%"])
        records.append({"base_difference": diff, "attacker_wins": fraction(wins, 36)})
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
    engine: Any = GAMES["conquest-king"]
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


TABLES: dict[str, dict[str, Callable[[], Table]]] = {
    "conquest-king": {"dice": _conquest_dice, "units": _conquest_units, "terrain": _conquest_terrain},
    "beacon-lines": {"adjacency": _beacon_adjacency},
    "lantern-quay": {"faces": _lantern_faces},
    "ludo": {"board": _ludo_board},
}


# Printed in the spec only (``make specs``), not by ``refimpl tables``: its JSON output has a published schema
# (refimpl/schemas/output/tables.schema.json) that does not list these tables.
SPEC_TABLES: dict[str, dict[str, Callable[[], Table]]] = {
    "conquest-king": {"map": _conquest_map, "castles": _conquest_castles, "lobby": _conquest_lobby},
    "ludo": {"streams": _ludo_streams},
    "lantern-quay": {"odds": _lantern_odds},
}


ALIASES = {"conquest": "conquest-king"}


def get_tables(game: str) -> dict[str, Callable[[], Table]]:
    """The tables of ``game``. Raises BadSetup (``unknown-game``) for a game without tables."""
    game = ALIASES.get(game, game)
    if game not in TABLES:
        raise BadSetup("unknown-game", f"no tables for {game!r} (games with tables: {', '.join(TABLES)})")
    return TABLES[game]


def markdown(table: Table) -> str:
    head, rows = table.head, table.rows
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def text(table: Table) -> str:
    head, rows = table.head, table.rows
    widths = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]
    fmt = lambda r: "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip()  # noqa: E731
    return "\n".join([fmt(head), fmt(["-" * w for w in widths])] + [fmt(r) for r in rows]) + "\n"


def as_json(table: Table) -> list[dict[str, Any]]:
    """The table's rows for machines (schema: refimpl/schemas/output/tables.schema.json)."""
    return table.records


BLOCK = re.compile(r"(<!-- table:(?P<name>[a-z-]+) -->\n)(?P<body>.*?)(<!-- /table -->)", re.S)


def sync_spec(game: str, text_: str) -> str:
    """``text_`` with every table block of ``game``'s spec re-rendered from the data."""
    tables = {**get_tables(game), **SPEC_TABLES.get(ALIASES.get(game, game), {})}

    def fill(m: re.Match[str]) -> str:
        return m.group(1) + markdown(tables[m.group("name")]()) + m.group(4)

    return BLOCK.sub(fill, text_)


def write_specs(root: str = ".") -> list[str]:
    """Re-render the table blocks of every spec under ``root``; return the files that changed."""
    from pathlib import Path

    changed = []
    for game in TABLES:
        path = Path(root) / GAMES[game].info.spec
        old = path.read_text(encoding="utf-8")
        new = sync_spec(game, old)
        if new != old:
            path.write_text(new, encoding="utf-8")
            changed.append(str(path))
    return changed


if __name__ == "__main__":  # `make specs`
    for name in write_specs():
        print(f"updated {name}")
