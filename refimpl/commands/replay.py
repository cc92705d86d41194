"""``refimpl replay``: traces replayed against the reference, each up to its first mismatch."""

from __future__ import annotations

import sys
from typing import Any

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
from .options import fail, load_profiles


@click.command("replay")
@click.argument("paths", nargs=-1, required=True)
@click.option("--ruleset", "rulesets", multiple=True,
              help="Replay every trace under this ruleset instead of its own. Twice or more: play each trace's route "
                   "to its end under each and show where the states part (nothing expected is checked).")
@click.option("--profile", "profile_files", multiple=True, type=click.Path(dir_okay=False),
              help="Play each trace's route to its end under this profile beside the spec's values (with two "
                   "--ruleset: each ruleset under each profile), and show where the states part.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--no-color", is_flag=True, help="No colour in the text report (also: the NO_COLOR variable).")
def replay_cmd(paths: tuple[str, ...], rulesets: tuple[str, ...], profile_files: tuple[str, ...], fmt: str,
               no_color: bool) -> None:
    """Replay traces (files or folders) against the reference implementation.

    Each trace stops at its first mismatch; the report names the step, field path, expected and actual. With
    two --ruleset or --profile or more, each trace's route is played to its end under every version, and the
    report shows step by step where their states part and each version's result (exit 0).
    """
    from ..harness.preflight import BadChecks, check_start, explain_failure

    try:
        traces = load_traces(paths)
    except TraceError as exc:
        fail(str(exc))
    profiles = load_profiles(profile_files, one_per_game=False)
    if len(rulesets) * max(len(profiles), 1) > 1 or profiles:
        _side_by_side(traces, rulesets, profiles, fmt)
        return
    ruleset = rulesets[0] if rulesets else None
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


def _side_by_side(traces: list[Any], rulesets: tuple[str, ...], profiles: list[Any], fmt: str) -> None:
    """Every trace under every version: each ruleset under each profile, or, with profiles and one ruleset at
    most (the trace's own when none), that ruleset under the spec's values and then under each profile."""
    from ..harness.versions import Version, across
    from ..reports import versions as shown

    found = []
    for t in traces:
        if profiles and len(rulesets) <= 1:  # a profile against the spec's values, on the one ruleset
            ruleset = rulesets[0] if rulesets else t.ruleset
            chosen = [Version(ruleset)] + [Version(ruleset, p) for p in profiles]
        else:
            chosen = [Version(r, p) for r in (rulesets or (t.ruleset,)) for p in (profiles or [None])]
        names = [v.name for v in chosen]
        if len(chosen) < 2:
            fail("two versions or more to compare: give --ruleset twice, or --profile twice, or both")
        if len(set(names)) < len(names):
            fail(f"a version is given twice ({', '.join(names)}): a profile's name tells profiles apart")
        try:
            found.append(across(t, chosen))
        except (ValueError, TraceError) as exc:
            fail(f"{t.path}: {exc}")
    if fmt == "json":
        click.echo(jsondoc.dumps({"versions": [shown.across_json(a) for a in found]}), nl=False)
    else:
        click.echo("\n".join(shown.across_text(a) for a in found), nl=False)
