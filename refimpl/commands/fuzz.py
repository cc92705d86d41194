"""``refimpl fuzz``: random cases sent to a build and to the reference; the first difference shrunk."""

from __future__ import annotations

import sys
from typing import Any

import click

from ..errors import Exit
from ..games import GAMES
from ..harness.driver import BuildBroke, DriverError
from ..harness.executor import ExecutorError
from ..reports.campaigns import broke_text, fuzz_text
from ..reports.jsondoc import fuzz_json
from ..status import Status
from .many import ManyOptions, is_many, many_options
from .options import (
    build_command,
    check_out_folder,
    cluster_option,
    fail,
    isolate_env_option,
    level_option,
    load_profiles,
    page_option,
    profile_option,
    read_every_answer_option,
)


@click.command("fuzz")
@click.option("--impl", "commands", multiple=True,
              help="Shell command of the build (default: the reference). Twice or more, or with --builds: each "
                   "build fuzzed in turn, one table (docs/many-builds.md).")
@click.option("--game", required=True, help="The game to fuzz.")
@click.option("--ruleset", default=None, help="The ruleset (default: the game's default).")
@click.option("--examples", type=click.IntRange(min=1), default=None,
              help="Cases per campaign before it gives up (default: search for --max-time seconds).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="The same seed (and --jobs) gives the same run.")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True,
              help="Independent campaigns, one process each, with seeds derived from --seed.")
@click.option("--max-steps", type=click.IntRange(min=1), default=None,
              help="Longest case, in requests after the start (default: the game's typical length).")
@click.option("--shrink-time", type=click.FloatRange(min=0), default=20.0, show_default=True,
              help="Seconds to spend shrinking a finding (the report says when this cut it short).")
@click.option("--max-time", type=click.FloatRange(min=0.1), default=None,
              help="Seconds a campaign searches (default: 30, or until --examples when that is given).")
@click.option("--out", default="fuzz-out", show_default=True,
              help="Where the reproducer trace goes: a file when it ends with .yaml or .yml (and is no folder), "
                   "else a folder, where it is GAME-RULESET-seedSEED.yaml.")
@click.option("--timeout", type=click.FloatRange(min=0.1), default=5.0, show_default=True,
              help="Seconds the build may take to answer one request.")
@click.option("--twice", is_flag=True, help="Send every case twice and report answers that differ.")
@read_every_answer_option
@click.option("--quiet", is_flag=True, help="No progress on stderr.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@page_option(multiple=True)
@level_option
@profile_option
@isolate_env_option
@cluster_option
@many_options(verify=False)
def fuzz_cmd(commands: tuple[str, ...], pages: tuple[str, ...], many: ManyOptions, level: str, game: str,
             ruleset: str | None,
             examples: int | None, seed: int, jobs: int,
             max_steps: int | None, shrink_time: float, max_time: float | None, out: str, timeout: float,
             twice: bool, read_all: bool, quiet: bool, fmt: str, profile_files: tuple[str, ...],
             cluster: str | None) -> None:
    """Send random cases to a build and to the reference and compare every answer; shrink the first
    difference to a short trace.

    A case starts from the opening, from a position reached by play or from a drawn set-up, then sends
    legal actions, actions with one or several faults, malformed ones, restarts, new starts (valid or
    not) and other requests. Exit 0 no divergence, 1 a divergence (reproducer written), 2 bad usage,
    3 the build broke (crashed, hung, or answered out of protocol; reproducer written when it can be).
    """
    from ..campaigns.fuzz import fuzz

    if game not in GAMES:
        fail(f"unknown game {game!r} (known: {', '.join(sorted(GAMES))})")
    if ruleset is not None and ruleset not in GAMES[game].info.rulesets:
        fail(f"{game} has no ruleset {ruleset!r} (known: {', '.join(GAMES[game].info.rulesets)})")
    if not is_many(commands, pages, many):
        command = build_command(commands[0] if commands else None, pages[0] if pages else None, timeout)
    from ..campaigns.fuzz.run import reproducer_path

    if is_many(commands, pages, many):
        from .fuzzmany import fuzz_many

        fuzz_many(commands, pages, many, fuzz_settings(game, ruleset, examples, seed, max_steps, shrink_time,
                                                       max_time, timeout, twice, jobs, profile_files), out,
                  {"level": level, "known_answers": not read_all}, quiet, fmt)
    check_out_folder(reproducer_path(out, game, ruleset or "", seed).parent, "--out", out)  # file or folder, as fuzz
    from ..harness.processes import Terminated, acknowledge, scope
    from ..harness.protocol import Build

    settings = fuzz_settings(game, ruleset, examples, seed, max_steps, shrink_time, max_time, timeout, twice, jobs,
                             profile_files)

    def progress(line: str) -> None:
        click.echo(f"fuzz {game}: {line}", err=True)

    try:
        with scope():
            result = fuzz(Build(command, timeout, known_answers=not read_all, level=level), settings, out,
                          None if quiet else progress, cluster)
    except KeyboardInterrupt as exc:
        acknowledge()
        word = "SIGTERM" if isinstance(exc, Terminated) else "Ctrl-C"
        click.echo(f"INTERRUPTED ({word}): fuzz stopped before it found anything; no reproducer was written")
        sys.exit(Exit.TERMINATED if word == "SIGTERM" else Exit.INTERRUPTED)
    except BuildBroke as exc:
        click.echo(broke_text(exc), nl=False)
        sys.exit(Exit.BUILD_BROKE)
    except (DriverError, ExecutorError) as exc:
        fail(str(exc))
    finding = result.finding
    click.echo(fuzz_json(result) if fmt == "json" else fuzz_text(result, game), nl=False)
    if result.interrupted is not None:
        sys.exit(Exit.TERMINATED if result.interrupted == "SIGTERM" else Exit.INTERRUPTED)
    if finding is None:
        sys.exit(Exit.CONFORMS)
    sys.exit(Exit.BUILD_BROKE if finding.kind == Status.BROKE else Exit.DOES_NOT_CONFORM)


def fuzz_settings(game: str, ruleset: str | None, examples: int | None, seed: int, max_steps: int | None,
                  shrink_time: float, max_time: float | None, timeout: float, twice: bool, jobs: int,
                  profile_files: tuple[str, ...]) -> Any:
    """The run's FuzzSettings; exit 2 for a profile of another game."""
    from ..campaigns.fuzz import FuzzSettings

    profiles = [p for p in load_profiles(profile_files) if p.game == game]
    if len(profiles) != len(profile_files):
        fail(f"--profile: only a profile of {game} applies to fuzz --game {game}")
    return FuzzSettings(game, ruleset, examples, seed, max_steps, shrink_time, max_time, timeout, twice, jobs,
                        profiles[0] if profiles else None)
