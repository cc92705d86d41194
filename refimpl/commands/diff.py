"""``refimpl diff``: two saved verify reports compared (regressions, fixes, checks new and gone), or two saved
many-builds matrices (per build, the rules regressed and fixed; builds added and gone)."""

from __future__ import annotations

import json
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
    breaks or passes unexpectedly), the fixes, the checks new and gone. Two saved matrices of several builds
    (verify --builds ... --json): per build, the rules and checks that regressed and were fixed, and the builds
    added and gone. Exit 1 when there is a regression, 0 otherwise, 2 for a file that is no such report."""
    from ..reports import matrixdiff, runs

    try:
        docs = runs.load_json(old), runs.load_json(new)
        if runs.is_matrix(docs[0]) != runs.is_matrix(docs[1]):
            fail("compare a matrix with a matrix, or one build's report with another's "
                 f"({old if runs.is_matrix(docs[0]) else new} is a matrix of several builds, the other is not)")
        if runs.is_matrix(docs[0]):
            changes = matrixdiff.diff_matrices(matrixdiff.matrix_from(docs[0], old),
                                               matrixdiff.matrix_from(docs[1], new))
            click.echo(json.dumps(changes, indent=1, ensure_ascii=True) + "\n" if fmt == "json"
                       else matrixdiff.diff_text(changes), nl=False)
            sys.exit(Exit.DOES_NOT_CONFORM if matrixdiff.regressed(changes) else Exit.CONFORMS)
        before, after = runs.checked_report(docs[0], old), runs.checked_report(docs[1], new)
    except runs.SavedReportError as exc:
        fail(str(exc))
    result = runs.diff(before, after)
    if fmt == "json":
        click.echo(runs.diff_json(result), nl=False)
    else:
        click.echo(runs.diff_text(result, before, after), nl=False)
    sys.exit(Exit.DOES_NOT_CONFORM if result["regressions"] else Exit.CONFORMS)
