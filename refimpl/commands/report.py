"""``refimpl report``: a saved verify report rendered again, in any of the forms verify writes."""

from __future__ import annotations

import sys

import click

from ..errors import Exit
from ..reports import jsondoc, text as textreport
from ..reports.terminal import echo_text
from .options import fail


@click.command("report")
@click.argument("path", metavar="FILE.json")
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "html", "json", "github"]), default="text",
              show_default=True)
@click.option("--no-color", is_flag=True, help="No colour in the text report (also: the NO_COLOR variable).")
def report_cmd(path: str, fmt: str, no_color: bool) -> None:
    """Render a saved verify report (verify --json FILE) again: as text, markdown, HTML, JSON or GitHub
    annotations. Exit: the saved run's own code (0 it conformed, 1 it did not, 3 the build broke), 2 a file
    that is no such report."""
    from ..reports import github, htmlpage as html_report, markdown, runs

    try:
        saved = runs.load_report(path)
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
