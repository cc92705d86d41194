"""``refimpl simulate GAME``: whole games of any game between policies, and what they add up to."""

from __future__ import annotations

import os
import sys

import click

from ..errors import Exit
from ..games import kits
from ..harness.executor import ExecutorError
from ..reports import jsondoc
from .options import cluster_option, fail, load_profiles, profile_option


@click.command("simulate")
@click.argument("game", type=click.Choice([kit.name for kit in kits() if kit.simulate is not None]))
@click.option("--games", "n", type=click.IntRange(min=1), default=1000, show_default=True)
@click.option("--seats", default=None,
              help="The policy of each seat, in the game's player order, comma-separated: random (uniform over "
                   "the legal list) or one of the game's own (Ludo: easy, normal, hard); one name for every "
                   "seat also works (default: the game's, Ludo easy, the others random).")
@click.option("--ruleset", default=None, help="The ruleset the games are played under (default: the game's).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True,
              help="Worker processes; the result depends only on --seed and --games.")
@click.option("--rotate", is_flag=True,
              help="Rotate the policies through the seats (game i shifts --seats by i), so each sits in each "
                   "seat equally often; adds a row per policy (its wins whatever seat it sat in).")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "csv"]), default="text", show_default=True,
              help="csv: row (seat, policy, result or figure), name, policy, seats_taken, games, count, value "
                   "(a share, or a figure's mean), ci95_low, ci95_high (docs/simulate.md).")
@click.option("--plot", type=click.Path(dir_okay=False), default=None, metavar="FILE.svg",
              help="Also write a chart of the win rates (or results) with their 95% intervals as SVG (SVG only).")
@click.option("--quiet", is_flag=True, help="No progress on stderr (else: a bar on a terminal, a line every "
                                            "10% of the games otherwise).")
@profile_option
@cluster_option
def simulate_cmd(game: str, n: int, seats: str | None, ruleset: str | None, seed: int, jobs: int, rotate: bool,
                 fmt: str, plot: str | None, quiet: bool, profile_files: tuple[str, ...], cluster: str | None) -> None:
    """Play whole games between policies (uniform random, or the game's CPU levels) and print who won, every
    result and the game's figures, each with a 95% confidence interval."""
    from ..campaigns import simulate as campaign
    from ..games import GAMES
    from ..util.files import write_file

    policies = None if seats is None else tuple(p.strip() for p in seats.split(","))
    players = GAMES[game].info.players
    if policies is not None and len(policies) == 1 and len(players) > 1:
        policies *= len(players)  # one name: every seat
    profiles = [p for p in load_profiles(profile_files) if p.game == game]
    if len(profiles) != len(profile_files):
        fail(f"--profile: only a profile of {game} applies to simulate {game}")

    if plot is not None and not plot.lower().endswith(".svg"):
        fail(f"--plot {plot}: the chart is written as SVG only; give a file name ending in .svg")
    logged = True  # stderr is a terminal, or a log: a pipe or a file the process holds
    try:
        os.fstat(sys.stderr.fileno())
    except (OSError, ValueError, AttributeError):
        logged = False  # an in-memory stream (a test's runner): no progress
    bar = None
    if quiet or not logged:
        pass
    elif sys.stderr.isatty():
        def bar(done: int, total: int) -> None:
            filled = 30 * done // total
            click.echo(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} games", err=True, nl=done == total)
    else:  # a CI log: a plain line each time another tenth of the games is done
        tenths = [0]

        def bar(done: int, total: int) -> None:
            if done * 10 // total > tenths[0] or done == total:
                tenths[0] = done * 10 // total
                click.echo(f"simulate {game}: {done}/{total} games ({done / total:.0%})", err=True)
    from ..harness.processes import scope

    code = Exit.CONFORMS
    try:
        with scope():  # SIGTERM ends the run like Ctrl-C, and the job processes with it
            summary = campaign.simulate(game, n, policies, seed, jobs, bar, cluster, rotate, ruleset,
                                        profiles[0] if profiles else None)
    except (campaign.SimulateError, ExecutorError) as exc:
        fail(str(exc))
    except campaign.Interrupted as exc:
        summary = exc.summary
        code = Exit.TERMINATED if exc.signal == "SIGTERM" else Exit.INTERRUPTED
        if bar is not None and sys.stderr.isatty():
            click.echo("", err=True)
        if fmt == "csv":  # CSV has no place to say it
            click.echo(f"refimpl: interrupted ({exc.signal}) after {summary.games} of {n} games: the figures "
                       f"are of the games played", err=True)
    if plot is not None:
        try:
            write_file(plot, campaign.summary_svg(summary).encode("utf-8"))
        except OSError as exc:
            fail(f"--plot {plot}: {exc.strerror or exc}")
    if fmt == "json":
        click.echo(jsondoc.dumps(campaign.summary_json(summary)), nl=False)
    else:
        click.echo(campaign.summary_csv(summary) if fmt == "csv" else campaign.summary_text(summary), nl=False)
    sys.exit(code)
