"""``refimpl play GAME``: a game played by hand in the terminal, recorded as a trace (campaigns/simulate/hand.py).

The position and the numbered legal actions are printed with rich; the player answers with a number, ``u`` to
take the last choice back (where the game allows it) or ``q`` to stop. From a terminal the answer is asked with
rich's prompt; otherwise one answer is read a line from standard input, so a session can be scripted. Whatever
ends the session (the game over, ``q``, the end of the input, Ctrl-C) writes the route so far as a valid trace.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from ..errors import Exit
from ..util import yamlsafe
from .options import fail, load_profiles, write_text


@click.command("play")
@click.argument("game")
@click.option("--ruleset", default=None, help="The ruleset (default: the game's).")
@click.option("--profile", "profile_file", type=click.Path(dir_okay=False), default=None,
              help="Play under this profile of the game (its chosen values and variants).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="The game's seed, and the dice the kit throws for you and the other seats' choices.")
@click.option("--as", "seats", default=None, metavar="SEAT[,SEAT]",
              help="The seats you play, where seats take turns (Ludo; default: the first). Elsewhere you choose "
                   "from the whole legal list.")
@click.option("--others", default=None,
              help="The policy of the seats you do not play (simulate's: random, greedy, a CPU level...).")
@click.option("--out", "out", type=click.Path(dir_okay=False), default=None,
              help="Where the trace goes (default: play-GAME-seedN.yaml).")
def play_cmd(game: str, ruleset: str | None, profile_file: str | None, seed: int, seats: str | None,
             others: str | None, out: str | None) -> None:
    """Play a game by hand: the position and the legal actions, numbered; answer with a number, u (undo) or q.
    The route is written as a trace with every expected state, which refimpl replay accepts as it is."""
    from ..campaigns.simulate import SimulateError
    from ..campaigns.simulate.hand import sit
    from ..games import kit_of

    try:
        name = kit_of(game).name
    except KeyError:
        from ..games import GAMES

        fail(f"unknown game {game!r} (games: {', '.join(sorted(GAMES))})")
    profile = load_profiles([profile_file])[0] if profile_file else None
    try:
        table = sit(name, ruleset, seed, seats.split(",") if seats else None, others, profile)
    except SimulateError as exc:
        fail(str(exc))
    path = out or _fresh(f"play-{name}-seed{seed}")
    code = Exit.CONFORMS
    try:
        _session(table)
    except KeyboardInterrupt:
        code = Exit.INTERRUPTED
    _save(table, path)
    sys.exit(code)


def _session(table: Any) -> None:
    """The game until it is over or the player stops (``q`` or the end of the input)."""
    from rich.console import Console

    console = Console(highlight=False)
    reading = not sys.stdin.isatty()
    while True:
        for step in table.run_others():
            console.print(f"[dim]played:[/dim] {_compact(step['action'])}", markup=True)
        _show(console, table)
        if table.over:
            console.print(f"game over: {table.engine.outcome(table.state)}")
            return
        answer = _ask(console, reading, len(table.choices()))
        if answer is None or answer == "q":
            return
        if answer == "u":
            console.print("taken back" if table.undo() else "no undo here")
            continue
        table.choose(int(answer))


def _ask(console: Any, reading: bool, count: int) -> str | None:
    """The player's answer: a number 1 to ``count``, u or q; None at the end of the input."""
    from rich.prompt import Prompt

    while True:
        if reading:
            line = sys.stdin.readline()
            if not line:
                return None
            answer = line.strip()
        else:
            answer = Prompt.ask(f"your move (1-{count}, u undo, q stop)", console=console).strip()
        if answer in ("u", "q") or answer.isdigit() and 1 <= int(answer) <= count:
            return answer
        console.print(f"answer 1 to {count}, u or q (got {answer[:40]!r})", markup=False)


def _show(console: Any, table: Any) -> None:
    """The position (Black Fog's as a hex map) and the numbered actions, for the player's eyes."""
    from rich.table import Table

    from ..games import kit_of

    view = table.view()
    board = kit_of(table.game).board_text
    if board is not None:
        console.print(board.load()(view), markup=False, highlight=False)
    console.print(_compact({k: v for k, v in view.items() if k not in ("tiles", "game")}), markup=False)
    if table.over:
        return
    choices = Table(show_header=False, box=None, pad_edge=False)
    for i, action in enumerate(table.choices(), 1):
        choices.add_row(str(i), _compact(action))
    console.print(choices)


def _fresh(stem: str) -> str:
    """``STEM.yaml``, or ``STEM-2.yaml``, ``STEM-3.yaml``... the first that is not there: a route recorded
    before is never replaced unless ``--out`` names it."""
    from pathlib import Path

    n, path = 1, Path(f"{stem}.yaml")
    while path.exists() or path.is_symlink():
        n += 1
        path = Path(f"{stem}-{n}.yaml")
    return str(path)


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _save(table: Any, path: str) -> None:
    from ..harness.tracefile import dump_trace

    try:
        write_text(path, dump_trace(table.trace()))
    except OSError as exc:
        fail(f"cannot write {path}: {yamlsafe.os_reason(exc)}")
    click.echo(f"wrote {path} ({len(table.steps)} steps)", err=True)
