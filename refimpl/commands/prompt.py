"""``refimpl prompt GAME``: the text a builder pastes into an AI game maker."""

from __future__ import annotations

import click

from ..games import GAMES
from .options import fail


@click.command("prompt")
@click.argument("game")
def prompt_cmd(game: str) -> None:
    """Print a prompt for an AI game maker: GAME's rules in brief with their IDs, the state view, set-up, legal
    actions and actions of its spec, and the in-page contract refimpl verify --page speaks to (the kit's
    adapter module, refimpl adapter js). Paste it, save the page beside refimpl-adapter.mjs, and verify it."""
    from ..rulebook.prompt import prompt

    if game not in GAMES:
        fail(f"unknown game {game!r} (known: {', '.join(sorted(GAMES))})")
    click.echo(prompt(game), nl=False)
