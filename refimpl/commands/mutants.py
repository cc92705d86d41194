"""``refimpl mutants``: the kit's power, measured on single-point mutants of the engines."""

from __future__ import annotations

import json
import sys

import click

from ..errors import Exit
from ..harness.executor import ExecutorError
from ..reports.campaigns import mutant_list
from .options import check_out_folder, cluster_option, fail


@click.command("mutants")
@click.option("--sample", "size", type=click.IntRange(min=0), default=400, show_default=True,
              help="Mutants to run, spread over the games in proportion to their code (0: every mutant).")
@click.option("--seed", type=int, default=1, show_default=True, help="The same seed gives the same sample.")
@click.option("--game", "games", multiple=True, help="Only mutants of this game (repeatable; 'shared' too).")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True, help="Mutants run at once.")
@click.option("--out", default="mutants-out", show_default=True,
              help="Folder for results.jsonl; a run resumes from what is there.")
@click.option("--fresh", is_flag=True, help="Forget earlier results in --out and run every mutant again.")
@click.option("--timeout", type=click.FloatRange(min=0.1), default=5.0, show_default=True,
              help="Seconds a mutant may take to answer one request.")
@click.option("--min-score", type=click.FloatRange(0, 100), default=None,
              help="Exit 1 when any game's score (percent) is below this.")
@click.option("--id", "ids", multiple=True, help="Only the mutant with this id (repeatable; overrides --sample).")
@click.option("--judge", type=click.Choice(["verify", "fuzz"]), default="verify", show_default=True,
              help="What judges each mutant: verify (stops at the first failure) or a default-settings fuzz "
                   "(records time to find and reproducer length).")
@click.option("--skip-equivalent", is_flag=True,
              help="Leave out the mutants a review judged equivalent (they cannot be found; a long fuzz each).")
@click.option("--list", "list_only", is_flag=True, help="List the sampled mutants; run nothing.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--quiet", is_flag=True, help="No progress lines on stderr.")
@cluster_option
def mutants_cmd(size: int, seed: int, games: tuple[str, ...], jobs: int, out: str, fresh: bool, timeout: float,
                min_score: float | None, ids: tuple[str, ...], judge: str, skip_equivalent: bool, list_only: bool,
                fmt: str, quiet: bool, cluster: str | None) -> None:
    """Measure the kit's power: serve single-point mutants of the reference engines as outside builds and
    count how many verify tells apart (killed), sees crash (broke), or misses (survived).

    Exit 0 when every game reaches --min-score, 1 when one does not, 2 bad usage or a stale
    equivalents file.
    """
    from ..campaigns import mutants as meter

    everything = meter.population()
    known = sorted({meter.game_of(s.file) for s in everything})
    unknown = [g for g in games if g not in known]
    if unknown:
        fail(f"unknown game {unknown[0]!r} (known: {', '.join(known)})")
    try:
        judgements = meter.load_equivalents()
    except meter.MutantsError as exc:
        fail(str(exc))
    stale = meter.stale_judgements(judgements, everything)
    if stale:
        fail("refimpl/campaigns/mutants/equivalents.yaml no longer fits the code; review these entries:\n  "
             + "\n  ".join(stale))
    if ids:
        unknown_ids = sorted(set(ids) - {s.id for s in everything})
        if unknown_ids:
            fail(f"no mutant with id {unknown_ids[0]!r} (refimpl mutants --list shows them)")
        chosen = [s for s in everything if s.id in ids]
    else:
        chosen = [s for s in meter.sample(everything, size, seed) if not games or meter.game_of(s.file) in games]
    if skip_equivalent:
        chosen = [s for s in chosen if meter.equivalence(s, judgements) is None]
    if list_only:
        click.echo(mutant_list(chosen), nl=False)
        return

    def progress(done: int, total: int, record: dict) -> None:
        if not quiet:
            click.echo(f"[{done}/{total}] {record['status']:8} {record['file']}:{record['line']} "
                       f"{record['before']} -> {record['after']} ({record['seconds']} s)", err=True)

    from pathlib import Path

    from ..harness.processes import Terminated, acknowledge, scope

    check_out_folder(out, "--out", out)

    try:
        with scope():
            records = meter.run_campaign(chosen, Path(out), jobs, timeout, fresh, progress, judge, cluster)
    except ExecutorError as exc:
        fail(f"{exc}; the results so far are kept in {out}/results.jsonl")
    except KeyboardInterrupt as exc:
        acknowledge()
        word = "SIGTERM" if isinstance(exc, Terminated) else "Ctrl-C"
        click.echo(f"INTERRUPTED ({word}): the results so far are kept in {out}/results.jsonl; "
                   f"the same command resumes from them", err=True)
        sys.exit(Exit.TERMINATED if word == "SIGTERM" else Exit.INTERRUPTED)
    result = meter.score(records, chosen, judgements)
    header = (f"Mutants: {len(chosen)} of {len(everything)} (sample {size or 'all'}, seed {seed}), judged by {judge}; "
              f"results in {out}/results.jsonl\n")
    if fmt == "json":
        click.echo(json.dumps(meter.score_json(result), indent=2))
    else:
        click.echo(meter.score_text(result, header), nl=False)
    low = [g for g, t in result.by_game.items() if min_score is not None and t.score is not None
           and 100 * t.score < min_score]
    sys.exit(Exit.DOES_NOT_CONFORM if low else Exit.CONFORMS)
