"""``refimpl profile``: a game's default ruleset profile, as YAML to edit."""

from __future__ import annotations

import click

from ..games import GAMES
from .options import fail


@click.command("profile")
@click.argument("game")
@click.option("--ruleset", default=None, help="The ruleset the profile is written for (default: the game's).")
def profile_cmd(game: str, ruleset: str | None) -> None:
    """Print GAME's default ruleset profile as YAML: every value its spec chose, with its meaning, range and
    rules. Edit it, then pass it to verify, fuzz or serve with --profile FILE."""
    from ..rulebook.profiles import default_yaml

    if game not in GAMES:
        fail(f"unknown game {game!r} (known: {', '.join(sorted(GAMES))})")
    if ruleset is not None and ruleset not in GAMES[game].info.rulesets:
        fail(f"{game} has no ruleset {ruleset!r} (known: {', '.join(GAMES[game].info.rulesets)})")
    click.echo(default_yaml(game, ruleset), nl=False)
