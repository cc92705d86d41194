"""Ludo's tables (``refimpl tables ludo``, specs/ludo.md): the board, and the canonical streams' check values."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from ....rulebook.tables import Table
from ... import GAMES
from ..engine import INFO, Ludo


def _ludo() -> Ludo:
    return cast(Ludo, GAMES[INFO.name])


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
    from ... import streams

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



TABLES: dict[str, Callable[[], Table]] = {"board": _ludo_board}
SPEC_TABLES: dict[str, Callable[[], Table]] = {"streams": _ludo_streams}  # the spec's only (see lantern_quay)
