"""``refimpl perft``: the action sequences from the start to each depth, counted."""

from __future__ import annotations

import click

from ..games import GAMES
from ..reports import jsondoc, text as textreport
from .options import fail, load_profiles


@click.command("perft")
@click.argument("game")
@click.option("--ruleset", default=None)
@click.option("--depth", type=click.IntRange(min=0, max=12), default=3, show_default=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--profile", "profile_file", type=click.Path(dir_okay=False), default=None,
              help="Count under this profile of the game (its chosen values and variants).")
def perft_cmd(game: str, ruleset: str | None, depth: int, fmt: str, profile_file: str | None) -> None:
    """Count the action sequences from the start to each depth, and the finished games by result."""
    from ..harness.perft import perft
    from ..rulebook.profiles import using

    if game not in GAMES:
        fail(f"unknown game {game!r} (known: {', '.join(sorted(GAMES))})")
    if ruleset is not None and ruleset not in GAMES[game].info.rulesets:
        fail(f"{game} has no ruleset {ruleset!r}")
    profile = load_profiles([profile_file])[0] if profile_file else None
    if profile is not None and profile.game != game:
        fail(f"--profile: a profile of {profile.game}, not {game}")
    with using({game: profile} if profile is not None else None):
        counts = perft(game, ruleset, depth)
    if fmt == "json":
        click.echo(jsondoc.perft_json(game, ruleset or GAMES[game].info.default_ruleset, depth, counts), nl=False)
        return
    click.echo(textreport.perft_text(counts), nl=False)
