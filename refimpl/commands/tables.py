"""``refimpl tables``: a game's tables from its data file."""

from __future__ import annotations

import click

from ..games import BadSetup
from ..reports import jsondoc, text as textreport
from ..rulebook import tables
from .options import fail


@click.command("tables")
@click.argument("game")
@click.argument("name", required=False)
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "json"]), default="text",
              show_default=True)
def tables_cmd(game: str, name: str | None, fmt: str) -> None:
    """Print a game's tables (all of them, or the one called NAME) from its data file."""
    try:
        available = tables.get_tables(game)
    except BadSetup as exc:
        fail(exc.message)
    if name is not None and name not in available:
        fail(f"{game} has no table {name!r} (tables: {', '.join(available)})")
    chosen = {n: f() for n, f in available.items() if name in (None, n)}
    click.echo(jsondoc.tables_json(chosen) if fmt == "json" else textreport.tables_text(chosen, fmt == "markdown"),
               nl=False)
