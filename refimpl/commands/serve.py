"""``refimpl serve``: the reference speaking the build protocol on stdin and stdout."""

from __future__ import annotations

import sys

import click

from ..games import GAMES
from .options import load_profiles, profile_option


@click.command("serve")
@profile_option
def serve_cmd(profile_files: tuple[str, ...]) -> None:
    """Speak the build protocol on stdin/stdout with the reference implementation (specs/protocol.md); with
    --profile, the reference plays that game under the profile's chosen values."""
    from ..harness.serve import serve
    from ..rulebook.profiles import by_game

    engines = {game: p.engine() for game, p in by_game(load_profiles(profile_files)).items()}
    serve(sys.stdin, sys.stdout, {**GAMES, **engines})
