"""``refimpl diff``: two saved verify reports compared: regressions, fixes, checks new and gone."""

from __future__ import annotations

import sys

import click

from ..errors import Exit
from .options import fail


@click.command("diff")
@click.argument("old", metavar="OLD.json")
@click.argument("new", metavar="NEW.json")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def diff_cmd(old: str, new: str, fmt: str) -> None:
    """Compare two saved verify reports: the regressions (a check that passed, or failed as expected, now fails,
    breaks or passes unexpectedly), the fixes, the checks new and gone. Exit 1 when there is a regression, 0
    otherwise, 2 for a file that is no such report."""
    from ..reports import runs

    try:
        before, after = runs.load_report(old), runs.load_report(new)
    except runs.SavedReportError as exc:
        fail(str(exc))
    changes = runs.diff(before, after)
    if fmt == "json":
        click.echo(runs.diff_json(changes), nl=False)
    else:
        click.echo(runs.diff_text(changes, before, after), nl=False)
    sys.exit(Exit.DOES_NOT_CONFORM if changes["regressions"] else Exit.CONFORMS)
