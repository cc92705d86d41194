"""``refimpl map``: the Black Fog map a seed generates, as a hex picture or its tiles."""

from __future__ import annotations

import click

from ..games import GAMES
from ..reports import jsondoc
from .options import fail, load_profiles


@click.command("map")
@click.option("--seed", type=int, default=0, show_default=True, help="The game seed the map is generated from.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--profile", "profile_file", type=click.Path(dir_okay=False), default=None,
              help="Draw the map under this Black Fog profile (its variants change the trees and the water).")
def map_cmd(seed: int, fmt: str, profile_file: str | None) -> None:
    """Print the Black Fog map generated from a seed, as a hex picture (or its tiles as JSON)."""
    from ..reports.hexmap import draw

    profile = load_profiles([profile_file])[0] if profile_file else None
    if profile is not None and profile.game != "black-fog":
        fail(f"--profile: a profile of {profile.game}, not black-fog")
    engine = profile.engine() if profile is not None else GAMES["black-fog"]
    view = engine.view(engine.new_state(seed=seed))
    click.echo(jsondoc.map_json(seed, view) if fmt == "json" else draw(view), nl=False)
