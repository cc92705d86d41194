"""``refimpl replay``: traces replayed against the reference, each up to its first mismatch."""

from __future__ import annotations

import sys

import click

from ..errors import Exit
from ..games import GAMES
from ..harness.driver import DriverError, ReferenceDriver
from ..harness.replay import replay as replay_trace
from ..harness.trace import TraceError
from ..harness.tracefile import load_traces
from ..reports import jsondoc, text as textreport
from ..reports.terminal import echo_text
from ..status import Status
from .options import fail


@click.command("replay")
@click.argument("paths", nargs=-1, required=True)
@click.option("--ruleset", help="Replay every trace under this ruleset instead of its own.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--no-color", is_flag=True, help="No colour in the text report (also: the NO_COLOR variable).")
def replay_cmd(paths: tuple[str, ...], ruleset: str | None, fmt: str, no_color: bool) -> None:
    """Replay traces (files or folders) against the reference implementation.

    Each trace stops at its first mismatch; the report names the step, field path, expected and actual.
    """
    from ..harness.preflight import BadChecks, check_start, explain_failure

    try:
        traces = load_traces(paths)
    except TraceError as exc:
        fail(str(exc))
    if ruleset is not None:
        for t in traces:
            if ruleset not in GAMES[t.game].info.rulesets:
                fail(f"{t.path}: {t.game} has no ruleset {ruleset!r} "
                     f"(known: {', '.join(GAMES[t.game].info.rulesets)})")
    # What no build could even be judged on is bad input; a value the reference answers otherwise is the
    # mismatch replay exists to show. Each trace is read and replayed in one pass, up to its first mismatch,
    # which is then explained (a trace of a million steps is never held whole).
    bad = [b for t in traces for b in check_start(t)]
    if bad:
        fail(str(BadChecks(bad)))
    driver = ReferenceDriver()
    results = []
    try:
        for t in traces:
            result = replay_trace(t, driver, ruleset)
            if result.failure is not None and ruleset in (None, t.ruleset):  # under another ruleset: a finding
                explained = explain_failure(t, result.failure)
                if explained.kind != "value":
                    bad.append(explained)
            results.append(result)
    except DriverError as exc:
        fail(str(exc))
    except TraceError as exc:  # a bad step of a long trace, found where the replay reached it
        fail(str(exc))
    if bad:
        fail(str(BadChecks(bad)))
    if fmt == "json":
        click.echo(jsondoc.json_report(results), nl=False)
    else:
        echo_text(textreport.text_report(results), color=not no_color)
    sys.exit(Exit.DOES_NOT_CONFORM if any(r.status == Status.MISMATCH for r in results) else Exit.CONFORMS)
