"""Tables printed from the games' data files: by ``refimpl tables`` and inside the specs.

The spec files hold these tables between ``<!-- table:NAME -->`` and ``<!-- /table -->`` markers;
a test checks that each block equals what this module renders, so the numbers are typed once.
"""

from __future__ import annotations

import math
import re
from typing import Any, Callable

from .games import GAMES, BadSetup

Table = tuple[list[str], list[list[str]]]


def _beacon_adjacency() -> Table:
    engine: Any = GAMES["beacon-lines"]
    data = engine.data
    v0, v1 = engine.boards["v0"], engine.boards["v1"]
    rows = []
    for region in data["regions"]:
        rid = region["id"]
        neighbours = ", ".join(v1.names[n] for n in v1.regions if n in v1.neighbours[rid])
        start = f"permanently {region['owner'].capitalize()}" if region["kind"] == "home" else "neutral"
        rows.append([f"{region['name']} (`{rid}`)", region["kind"], neighbours, start,
                     str(v0.values[rid]), str(v1.values[rid])])
    return ["region (id)", "kind", "adjacent to", "at start", "value v0", "value v1"], rows


def _lantern_faces() -> Table:
    t: Any = GAMES["lantern-quay"].tables
    rows = []
    for face in range(1, t.faces + 1):
        forge = t.forge[face]
        forge_text = "nothing" if forge is None else f"pay {forge[0]} brass, make {forge[1]} module(s)"
        install = (f"spend {t.install_modules} module, light {t.install_lenses} lens"
                   if face >= t.install_min_face else "nothing")
        rows.append([str(face), f"+{t.salvage[face]} brass", forge_text, install])
    return ["face", "Salvage", "Forge (all or nothing)", "Install (needs a module)"], rows


def _ludo_board() -> Table:
    b: Any = GAMES["ludo"].board
    sits = ["bottom", "left", "opposite", "right"]
    home = f"{b.last_track_step + 1}–{b.goal - 1}"
    rows = [[f"`{seat}`", sits[k], str(b.starts[k]), str((b.starts[k] + GAMES["ludo"].data["star_offset"]) % b.track),
             home, str(b.goal)] for k, seat in enumerate(b.seats)]
    return ["seat", "sits", "start square", "star square", "home column (steps)", "goal (steps)"], rows


def attacker_wins(difference: int) -> int:
    """Of the 36 throws of the two dice, how many the attacker wins at this base difference
    (attack base minus defence base; a tie goes to the attacker)."""
    return sum(1 for a in range(1, 7) for d in range(1, 7) if difference + a >= d)


def _conquest_dice() -> Table:
    rows = []
    for diff in range(5, -7, -1):
        wins = attacker_wins(diff)
        label = "±0" if diff == 0 else f"{diff:+d}".replace("-", "−")
        rows.append([label, f"{wins}/36", f"{math.floor(100 * wins / 36 + 0.5)}%"])
    return ["base difference", "attacker wins", "chance"], rows


def _conquest_units() -> Table:
    data: Any = GAMES["conquest-king"].data
    return ["unit", "attack", "movement", "price"], [
        [f"`{k}`", str(r["attack"]), str(r["move"]), "—" if r["price"] is None else f"{r['price']}G"]
        for k, r in data["units"].items()]


def _conquest_terrain() -> Table:
    data: Any = GAMES["conquest-king"].data
    return ["terrain", "letter", "movement cost", "attack modifier"], [
        [name, f"`{t['letter']}`", "impassable" if t["cost"] is None else str(t["cost"]), f"{t['modifier']:+d}"]
        for name, t in data["terrain"].items()]


TABLES: dict[str, dict[str, Callable[[], Table]]] = {
    "conquest-king": {"dice": _conquest_dice, "units": _conquest_units, "terrain": _conquest_terrain},
    "beacon-lines": {"adjacency": _beacon_adjacency},
    "lantern-quay": {"faces": _lantern_faces},
    "ludo": {"board": _ludo_board},
}


ALIASES = {"conquest": "conquest-king"}


def get_tables(game: str) -> dict[str, Callable[[], Table]]:
    """The tables of ``game``. Raises BadSetup (``unknown-game``) for a game without tables."""
    game = ALIASES.get(game, game)
    if game not in TABLES:
        raise BadSetup("unknown-game", f"no tables for {game!r} (games with tables: {', '.join(TABLES)})")
    return TABLES[game]


def markdown(table: Table) -> str:
    head, rows = table
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def text(table: Table) -> str:
    head, rows = table
    widths = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]
    fmt = lambda r: "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip()  # noqa: E731
    return "\n".join([fmt(head), fmt(["-" * w for w in widths])] + [fmt(r) for r in rows]) + "\n"


def as_json(table: Table) -> list[dict[str, str]]:
    head, rows = table
    return [dict(zip(head, row)) for row in rows]


BLOCK = re.compile(r"(<!-- table:(?P<name>[a-z-]+) -->\n)(?P<body>.*?)(<!-- /table -->)", re.S)


def sync_spec(game: str, text_: str) -> str:
    """``text_`` with every table block of ``game``'s spec re-rendered from the data."""
    tables = get_tables(game)

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
