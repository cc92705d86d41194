"""``refimpl games``: the registered games, their rulesets and specs."""

from __future__ import annotations

import click

from ..reports.text import games_text


@click.command("games")
def games_cmd() -> None:
    """List the registered games and their rulesets."""
    click.echo(games_text(), nl=False)
