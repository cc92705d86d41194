"""``refimpl simulate GAME``: whole games of any game between policies, and what they add up to; with two
rulesets or profiles or more, the same games under each, side by side (a what-if)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

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
@click.option("--ruleset", "rulesets", multiple=True,
              help="The ruleset the games are played under (default: the game's). Twice or more: a what-if, the "
                   "same games under each, compared.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True,
              help="Worker processes; the result depends only on --seed and --games.")
@click.option("--rotate", is_flag=True,
              help="Rotate the policies through the seats (game i shifts --seats by i), so each sits in each "
                   "seat equally often; adds a row per policy (its wins whatever seat it sat in).")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "csv"]), default="text", show_default=True,
              help="csv: row (seat, policy, result or figure), name, policy, seats_taken, games, count, value "
                   "(a share, or a figure's mean), ci95_low, ci95_high; for a what-if, the differences "
                   "(docs/simulate.md).")
@click.option("--plot", type=click.Path(dir_okay=False), default=None, metavar="FILE.svg|FILE.png",
              help="Also write a chart of the win rates (or results; for a what-if, each variant's) with their 95% "
                   "intervals: SVG, or PNG drawn by the system's Chromium (the browser extra).")
@click.option("--until-decided", "until", default=None, metavar="MEASURE:DELTA",
              help="A what-if of two variants: stop once a sequential test (SPRT) decides whether MEASURE (e.g. "
                   "result=red) differs by DELTA or not at all; --games is the most it plays.")
@click.option("--quiet", is_flag=True, help="No progress on stderr (else: a bar on a terminal, a line every "
                                            "10% of the games otherwise).")
@profile_option
@cluster_option
def simulate_cmd(game: str, n: int, seats: str | None, rulesets: tuple[str, ...], seed: int, jobs: int,
                 rotate: bool, fmt: str, plot: str | None, until: str | None, quiet: bool,
                 profile_files: tuple[str, ...], cluster: str | None) -> None:
    """Play whole games between policies (uniform random, or the game's CPU levels) and print who won, every
    result and the game's figures, each with a 95% confidence interval. Two --ruleset or --profile or more (each
    ruleset under each profile): the same games under each, every figure side by side and each difference from
    the first with a paired test that says whether it is real."""
    from ..campaigns.simulate import Interrupted, SimulateError
    from ..games import GAMES
    from ..harness.processes import scope

    policies = None if seats is None else tuple(p.strip() for p in seats.split(","))
    if policies is not None and len(policies) == 1 and len(GAMES[game].info.players) > 1:
        policies *= len(GAMES[game].info.players)  # one name: every seat
    profiles = load_profiles(profile_files, one_per_game=False)
    if any(p.game != game for p in profiles):
        fail(f"--profile: only a profile of {game} applies to simulate {game}")
    if plot is not None and not plot.lower().endswith((".svg", ".png")):
        fail(f"--plot {plot}: the chart is written as SVG or PNG; give a file name ending in .svg or .png")
    if plot is not None and plot.lower().endswith(".png"):
        from ..util.browser import BrowserMissing, chromium, playwright

        try:  # found before any game is played
            playwright(), chromium()
        except BrowserMissing as exc:
            fail(f"--plot {plot}: {exc}")
    variants = [(r, p) for r in (rulesets or (None,)) for p in (profiles or [None])]
    test = None
    if until is not None:
        from ..campaigns.simulate.sequential import parse

        try:
            test = parse(until)
        except ValueError as exc:
            fail(str(exc))
        if len(variants) != 2:
            fail("--until-decided is for a what-if of two variants: give --ruleset or --profile twice")
    bar = _progress(game, quiet)
    code, result = Exit.CONFORMS, None
    try:
        with scope():  # SIGTERM ends the run like Ctrl-C, and the job processes with it
            result = _run(game, n, policies, seed, jobs, bar, cluster, rotate, variants, test)
    except (SimulateError, ExecutorError) as exc:
        fail(str(exc))
    except Interrupted as exc:
        result = exc.comparison if exc.comparison is not None else exc.summary
        code = Exit.TERMINATED if exc.signal == "SIGTERM" else Exit.INTERRUPTED
        if bar is not None and sys.stderr.isatty():
            click.echo("", err=True)
        if fmt == "csv":  # CSV has no place to say it
            click.echo(f"refimpl: interrupted ({exc.signal}) after {exc.summary.games} of {n} games: the figures "
                       f"are of the games played", err=True)
    _write(result, fmt, plot)
    sys.exit(code)


def _run(game: str, n: int, policies: tuple[str, ...] | None, seed: int, jobs: int,
         bar: Callable[[int, int], None] | None, cluster: str | None, rotate: bool,
         variants: list[tuple[str | None, Any]], test: Any = None) -> Any:
    """A summary of one variant's run, or a comparison of several (until ``test`` decides, if given)."""
    from ..campaigns.simulate import compare, simulate

    if len(variants) == 1:
        ruleset, profile = variants[0]
        return simulate(game, n, policies, seed, jobs, bar, cluster, rotate, ruleset, profile)
    return compare.compare(game, n, variants, policies, seed, jobs, bar, cluster, rotate, until=test)


def _write(result: Any, fmt: str, plot: str | None) -> None:
    """Print ``result`` (a Summary or a Comparison) as asked, and write its chart to ``plot``."""
    from ..campaigns.simulate import compare, output
    from ..util.files import write_file

    what = compare if isinstance(result, compare.Comparison) else output
    if plot is not None:
        svg = compare.comparison_svg(result) if what is compare else output.summary_svg(result)
        try:
            if plot.lower().endswith(".png"):
                from ..util.browser import svg_to_png

                write_file(plot, svg_to_png(svg))
            else:
                write_file(plot, svg.encode("utf-8"))
        except OSError as exc:
            fail(f"--plot {plot}: {exc.strerror or exc}")
    if fmt == "json":
        doc = compare.comparison_json(result) if what is compare else output.summary_json(result)
        click.echo(jsondoc.dumps(doc), nl=False)
    elif fmt == "csv":
        click.echo(compare.comparison_csv(result) if what is compare else output.summary_csv(result), nl=False)
    else:
        click.echo(compare.comparison_text(result) if what is compare else output.summary_text(result), nl=False)


def _progress(game: str, quiet: bool) -> Callable[[int, int], None] | None:
    """Progress on stderr: a bar on a terminal, a plain line each tenth of the games in a log, nothing when
    ``quiet`` or when stderr is no file (a test's runner)."""
    try:
        os.fstat(sys.stderr.fileno())
    except (OSError, ValueError, AttributeError):
        return None
    if quiet:
        return None
    if sys.stderr.isatty():
        def bar(done: int, total: int) -> None:
            filled = 30 * done // total
            click.echo(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} games", err=True, nl=done == total)
        return bar
    tenths = [0]

    def line(done: int, total: int) -> None:
        if done * 10 // total > tenths[0] or done == total:
            tenths[0] = done * 10 // total
            click.echo(f"simulate {game}: {done}/{total} games ({done / total:.0%})", err=True)
    return line
