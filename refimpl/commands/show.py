"""``refimpl show``: a trace's position before and after one step, drawn."""

from __future__ import annotations

import click

from ..errors import Exit
from ..harness.driver import BuildBroke
from ..harness.trace import TraceError
from ..harness.tracefile import load_traces
from ..util import yamlsafe
from .options import fail, write_text


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
def show_cmd(trace_path: str, number: int | None, observer: str | None, command: str | None, timeout: float,
             out: str | None) -> None:
    """Draw a trace's position before and after one step (a bundled trace or a fuzz reproducer)."""
    from ..harness.processes import scope
    from ..harness.protocol import Build
    from ..reports.show import ShowError, render, svg

    try:
        trace = load_traces([trace_path])[0]
        step = len(trace.steps) if number is None else number
        if out is not None and out.endswith(".svg"):
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
