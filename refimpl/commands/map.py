"""``refimpl map``: the Black Fog map a seed generates, as a hex picture or its tiles."""

from __future__ import annotations

import click

from ..games import GAMES
from ..reports import jsondoc


@click.command("map")
@click.option("--seed", type=int, default=0, show_default=True, help="The game seed the map is generated from.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def map_cmd(seed: int, fmt: str) -> None:
    """Print the Black Fog map generated from a seed, as a hex picture (or its tiles as JSON)."""
    from ..reports.hexmap import draw

    engine = GAMES["black-fog"]
    view = engine.view(engine.new_state(seed=seed))
    click.echo(jsondoc.map_json(seed, view) if fmt == "json" else draw(view), nl=False)
