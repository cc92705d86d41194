"""``refimpl report``: a saved verify report rendered again, in any of the forms verify writes."""

from __future__ import annotations

import sys

import click

from ..errors import Exit
from ..reports import jsondoc, text as textreport
from ..reports.model import Report
from ..reports.terminal import echo_text
from .options import fail


@click.command("report")
@click.argument("path", metavar="FILE.json")
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "html", "json", "github"]), default="text",
              show_default=True)
@click.option("--no-color", is_flag=True, help="No colour in the text report (also: the NO_COLOR variable).")
@click.option("--build", "build", metavar="NAME",
              help="Of a saved matrix of several builds: this build's own report (without it: the matrix).")
def report_cmd(path: str, fmt: str, no_color: bool, build: str | None) -> None:
    """Render a saved verify report (verify --json FILE) again: as text, markdown, HTML, JSON or GitHub
    annotations; a saved matrix of several builds as text, markdown, HTML or JSON, or one build's own report
    in it (--build). Exit: the saved run's own code (0 it conformed, 1 it did not, 3 the build broke), 2 a file
    that is no such report."""
    from ..reports import github, htmlpage as html_report, markdown, runs

    try:
        doc = runs.load_json(path)
        if runs.is_matrix(doc):
            saved = matrix_part(doc, path, build, fmt)
        elif build is not None:
            fail(f"{path}: one build's report, not a matrix of several: --build does not apply")
        else:
            saved = runs.checked_report(doc, path)
    except runs.SavedReportError as exc:
        fail(str(exc))
    render = {"text": textreport.verify_text, "markdown": markdown.markdown, "html": html_report.render,
              "json": jsondoc.verify_json, "github": github.annotations}[fmt]
    if fmt == "text":
        echo_text(render(saved), color=not no_color)
    else:
        click.echo(render(saved), nl=False)
    sys.exit(saved.exit_code if saved.exit_code in (Exit.CONFORMS, Exit.DOES_NOT_CONFORM, Exit.BUILD_BROKE)
             else Exit.DOES_NOT_CONFORM)


def matrix_part(doc: object, path: str, build: str | None, fmt: str) -> Report:
    """One build's report of a saved matrix (``--build``); without it, the matrix rendered and the run's exit.
    Raises SavedReportError."""
    from ..reports import matrix as forms, matrixdiff, runs

    m = matrixdiff.matrix_from(doc, path)
    if build is None:
        if fmt == "github":
            fail("--format github renders one build's report: add --build NAME")
        if fmt == "html":
            from ..reports.matrixhtml import render

            click.echo(render(m), nl=False)
        else:
            render_form = {"text": forms.matrix_text, "markdown": forms.matrix_markdown, "json": forms.matrix_json}
            click.echo(render_form[fmt](m), nl=False)
        sys.exit(m.exit_code if m.exit_code in (Exit.CONFORMS, Exit.DOES_NOT_CONFORM, Exit.BUILD_BROKE)
                 else Exit.DOES_NOT_CONFORM)
    found = next((e.report for e in m.entries if e.name == build), None)
    if found is None:
        raise runs.SavedReportError(f"{path}: no build {build!r} in this matrix "
                                    f"(builds: {', '.join(e.name for e in m.entries)})")
    return found
