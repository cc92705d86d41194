"""``refimpl tables``: a game's tables from its data file."""

from __future__ import annotations

import click

from ..games import BadSetup
from ..reports import jsondoc, text as textreport
from ..rulebook import tables
from .options import fail, load_profiles


@click.command("tables")
@click.argument("game")
@click.argument("name", required=False)
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "json"]), default="text",
              show_default=True)
@click.option("--profile", "profile_file", type=click.Path(dir_okay=False), default=None,
              help="Work the tables out under this profile of the game (its chosen values and variants).")
def tables_cmd(game: str, name: str | None, fmt: str, profile_file: str | None) -> None:
    """Print a game's tables (all of them, or the one called NAME) from its data file (or a profile's)."""
    from ..rulebook.profiles import using

    try:
        available = tables.get_tables(game)
    except BadSetup as exc:
        fail(exc.message)
    if name is not None and name not in available:
        fail(f"{game} has no table {name!r} (tables: {', '.join(available)})")
    profile = load_profiles([profile_file])[0] if profile_file else None
    if profile is not None and profile.game != tables.kit_of(game).name:
        fail(f"--profile: a profile of {profile.game}, not {game}")
    with using({profile.game: profile} if profile is not None else None):
        chosen = {n: f() for n, f in available.items() if name in (None, n)}
    click.echo(jsondoc.tables_json(chosen) if fmt == "json" else textreport.tables_text(chosen, fmt == "markdown"),
               nl=False)
