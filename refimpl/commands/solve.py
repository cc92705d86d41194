"""``refimpl solve GAME``: a small game solved exactly, from its start or from a trace's position."""

from __future__ import annotations

import click

from ..reports import jsondoc
from .options import fail, load_profiles


@click.command("solve")
@click.argument("game")
@click.option("--ruleset", default=None,
              help="The ruleset, from the start (default: the game's; a trace names its own).")
@click.option("--trace", "trace", type=click.Path(dir_okay=False), default=None,
              help="Solve from this trace's position (after its last step, or --at N).")
@click.option("--at", type=click.IntRange(min=0), default=None, help="With --trace: the position after step N.")
@click.option("--roll", default=None, metavar="A,B,C",
              help="Lantern Quay: the dice rolled at the position (in phase roll); prints the best way to place "
                   "them, each way with its chance.")
@click.option("--profile", "profile_file", type=click.Path(dir_okay=False), default=None,
              help="Solve under this profile of the game (its variants: refimpl profile GAME).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def solve_cmd(game: str, ruleset: str | None, trace: str | None, at: int | None, roll: str | None,
              profile_file: str | None, fmt: str) -> None:
    """Solve a small game exactly: Beacon Lines' value under best play and each faction's optimal first choices
    (a matrix game each round), Lantern Quay's chance to restore placing the dice the best way and at random,
    as fractions, and the best way to place a roll."""
    from ..campaigns.solve import SolveError, solution_json, solution_text, solve
    from ..games import GAMES, kit_of
    from ..harness.trace import TraceError

    if game not in GAMES:
        fail(f"unknown game {game!r} (games: {', '.join(sorted(GAMES))})")
    game = kit_of(game).name
    if at is not None and trace is None:
        fail("--at needs --trace")
    dice = None
    if roll is not None:
        try:
            dice = tuple(int(d) for d in roll.split(","))
        except ValueError:
            fail(f"--roll {roll}: the faces, comma-separated (e.g. 6,4,1)")
    profile = load_profiles([profile_file])[0] if profile_file else None
    try:
        found = solve(game, ruleset, trace, at, dice, profile)
    except (SolveError, TraceError) as exc:
        fail(str(exc))
    click.echo(jsondoc.dumps(solution_json(found)) if fmt == "json" else solution_text(found), nl=False)
