"""``refimpl show``: a trace's position before and after one step, drawn."""

from __future__ import annotations

import click

from ..errors import Exit
from ..harness.driver import BuildBroke
from ..harness.trace import Trace, TraceError
from ..harness.tracefile import load_traces
from ..util import yamlsafe
from .options import build_command, fail, page_option, write_text


@click.command("show")
@click.argument("trace_path", metavar="TRACE")
@click.option("--step", "number", type=click.IntRange(min=0), default=None,
              help="The step to show (0: the start; default: the last step).")
@click.option("--observer", default=None, help="Draw this player's view (games with hidden information).")
@click.option("--impl", "command", default=None,
              help="Also play the trace on this build and outline where its view differs from the reference's.")
@click.option("--timeout", type=click.FloatRange(min=0.1), default=5.0, show_default=True,
              help="Seconds the build may take to answer one request.")
@click.option("-o", "--out", "out", type=click.Path(dir_okay=False), default=None,
              help="Write here: FILE.svg the picture after the step alone, else an HTML page (default: the HTML "
                   "page on stdout).")
@click.option("--all", "whole", is_flag=True,
              help="The whole game on one HTML page: a slider and the arrow keys step through it, each step with "
                   "what moved and every observer's view (with --impl, the build's board and the fields that differ).")
@page_option
def show_cmd(trace_path: str, number: int | None, observer: str | None, command: str | None, timeout: float,
             out: str | None, whole: bool, page: str | None) -> None:
    """Draw a trace's position before and after one step (a bundled trace or a fuzz reproducer), or, with
    --all, every step of it on one page."""
    from ..harness.processes import scope
    from ..harness.protocol import Build
    from ..reports.show import ShowError, render, svg

    if whole and (number is not None or observer is not None or (out or "").endswith(".svg")):
        fail("--all shows every step and every observer on one HTML page: it takes no --step, --observer or .svg")
    if page is not None:
        command = build_command(command, page, timeout)
    try:
        trace = load_traces([trace_path])[0]
        step = len(trace.steps) if number is None else number
        if whole:
            text = _whole(trace, command, timeout)
        elif out is not None and out.endswith(".svg"):
            if command is not None:
                fail("--impl draws the build beside the reference: write an HTML page (-o FILE.html)")
            text = svg(trace, step, observer)
        elif command is None:
            text = render(trace, step, observer)
        else:
            with scope():
                build = Build(command, timeout).start()
                try:
                    text = render(trace, step, observer, build)
                finally:
                    build.close()
    except (TraceError, ShowError) as exc:
        fail(str(exc))
    except BuildBroke as exc:
        fail(str(exc), Exit.BUILD_BROKE)
    if out is None:
        click.echo(text, nl=False)
        return
    try:
        write_text(out, text)
    except OSError as exc:
        fail(f"cannot write {out}: {yamlsafe.os_reason(exc)}")
    click.echo(f"wrote {out}")


def _whole(trace: Trace, command: str | None, timeout: float) -> str:
    """The whole-game page of ``trace`` (reports/walk.py), played on the build ``command`` names too, if any.
    Raises BuildBroke, ShowError."""
    from ..harness.processes import scope
    from ..harness.protocol import Build
    from ..reports.show import ShowError
    from ..reports.walk import walk_page

    if command is None:
        return walk_page(trace)
    with scope():
        build = Build(command, timeout).start()
        try:
            if not build.supports(trace.game, trace.ruleset):
                raise ShowError(f"{build.name} does not declare {trace.game} {trace.ruleset}")
            return walk_page(trace, build)
        finally:
            build.close()
