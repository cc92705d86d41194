"""The ``refimpl`` command: a thin layer over the library, and its one error boundary (KitGroup.invoke). Exit
codes live in refimpl/errors.py."""

from __future__ import annotations

import json
import os
import shlex
import signal
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, NoReturn

import click

from .reports import jsondoc, text as textreport
from .reports.model import Report
from .reports.safetext import printable
from .rulebook import tables
from .util import yamlsafe
from .harness.driver import BuildBroke, DriverError, ReferenceDriver
from .harness.executor import ExecutorError
from .errors import Exit, KitError
from .games import GAMES, BadSetup
from .harness.replay import MISMATCH, replay as replay_trace
from .harness.trace import TraceError
from .harness.tracefile import load_traces


def _echo_text(text: str, color: bool = True) -> None:
    """A text report on stdout: coloured on a terminal (verdict words and statuses), plain otherwise, with
    ``--no-color`` or with NO_COLOR set (rich honours it)."""
    from rich.console import Console
    from rich.highlighter import RegexHighlighter
    from rich.theme import Theme

    class Statuses(RegexHighlighter):
        base_style = "status."
        highlights = [r"(?P<bad>\b(?:FAILED|BROKE|XPASS|MISMATCH|DOES NOT CONFORM|BUILD BROKE|INTERRUPTED)\b)",
                      r"(?P<good>\b(?:CONFORMS|conforms)\b)", r"(?P<warn>\b(?:XFAIL|NOT RUN|not run|Warning)\b)"]

    console = Console(highlighter=Statuses(), theme=Theme({"status.bad": "bold red", "status.good": "bold green",
                                                           "status.warn": "yellow"}), soft_wrap=True)
    if not color or not console.is_terminal or console.no_color:
        click.echo(text, nl=False)
        return
    console.print(text, end="", markup=False, highlight=True, emoji=False)


def _fail(message: str, code: Exit = Exit.BAD_INPUT) -> NoReturn:
    click.echo(f"refimpl: {printable(message)}", err=True)
    sys.exit(code)


def _profile_option(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--profile FILE`` (repeatable, one per game): the builder's own chosen values (refimpl profile GAME)."""
    return click.option("--profile", "profile_files", multiple=True, type=click.Path(dir_okay=False),
                        help="A ruleset profile (YAML: refimpl profile GAME prints the defaults): judge the "
                             "game under these chosen values. Repeatable, one per game.")(func)


def _profiles(files: tuple[str, ...] | list[str]) -> list[Any]:
    """The profiles in ``files``; a file the kit cannot use is exit 2, naming it and the line."""
    from .rulebook.profiles import ProfileError, by_game, load_profile

    try:
        found = [load_profile(f) for f in files]
        by_game(found)
    except ProfileError as exc:
        _fail(str(exc))
    return found


def _cluster_option(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--cluster ADDRESS``: run the jobs on a Dask cluster instead of local processes."""
    return click.option("--cluster", default=None, metavar="tcp://HOST:PORT",
                        help="Run the jobs on the Dask cluster whose scheduler is here (needs the 'cluster' "
                             "extra; docs/cluster.md). Same results as a local run.")(func)


class _Jobs(click.ParamType):
    """A count of worker processes: a whole number of at least 1, or ``auto`` (one a usable core)."""

    name = "N|auto"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int):
            return value
        if str(value).strip().lower() == "auto":
            return usable_cores()
        try:
            jobs = int(str(value).strip())
        except ValueError:
            jobs = 0
        if jobs < 1:
            self.fail(f"{value!r} is neither a whole number of at least 1 nor 'auto'", param, ctx)
        return jobs


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the platform tells it, else every core)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # macOS has no affinity call
        return max(1, os.cpu_count() or 1)


_JOBS = _Jobs()


def _progress_printer() -> Callable[[Any, int, int], None]:
    """Progress on stderr: a bar redrawn in place on a terminal, else a plain line per check."""
    tty = sys.stderr.isatty()

    def show(check: Any, done: int, total: int) -> None:
        if tty:
            filled = 30 * min(done, total) // max(total, 1)
            click.echo(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} checks ({check.kind}s) ",
                       err=True, nl=False)
        else:
            click.echo(f"[{done}/{total}] {check.status:8} {check.kind} {printable(check.name)}", err=True)

    return show


def _print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        from . import suite

        click.echo(suite.describe())
        ctx.exit()


def _internal_error(exc: BaseException) -> NoReturn:
    """A bug of the kit escaped a command: say so (not a verdict on the build), keep the traceback in a file
    the message names, exit INTERNAL_ERROR."""
    import tempfile
    import traceback

    from . import __version__

    text = "".join(traceback.format_exception(exc))
    try:
        fd, name = tempfile.mkstemp(prefix="refimpl-internal-error-", suffix=".txt")
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(f"refimpl {__version__}, Python {sys.version.split()[0]}, {sys.platform}\n")
            out.write(f"command: {shlex.join(sys.argv)}\n\n{text}")
        where = f"the traceback is in {name}"
    except OSError:
        where = "the traceback follows:\n" + text
    first = str(exc).splitlines()[0] if str(exc) else ""
    click.echo(printable(f"refimpl: internal error, a bug in the kit (not a verdict on your build): "
                                f"{type(exc).__name__}: {first}".rstrip(": ")), err=True)
    click.echo(f"refimpl: {where}; please report it with that text", err=True)
    sys.exit(Exit.INTERNAL_ERROR)


class KitGroup(click.Group):
    """The one error boundary of every command. A KitError is one line on stderr and its exit code; anything
    else that escapes is a bug of the kit: exit 4 (INTERNAL_ERROR), the traceback kept in a file, never read as
    "does not conform". Interrupted, a command keeps the documented codes: 130 for Ctrl-C, 143 for SIGTERM
    (click alone would print "Aborted!" and exit 1); commands that have something to report (verify, fuzz,
    simulate, mutants) print it first."""

    def invoke(self, ctx: click.Context) -> Any:
        from .harness.processes import Terminated

        def terminated(signum: int, frame: object) -> None:
            raise Terminated()

        try:
            previous = signal.signal(signal.SIGTERM, terminated)
        except ValueError:  # not the main thread
            previous = None
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt as exc:
            word = "SIGTERM" if isinstance(exc, Terminated) else "Ctrl-C"
            click.echo(f"refimpl: interrupted ({word})", err=True)
            sys.exit(Exit.TERMINATED if word == "SIGTERM" else Exit.INTERRUPTED)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise  # usage errors and --help: click's own, exit 2 and 0
        except KitError as exc:
            _fail(str(exc), exc.exit_code)
        except Exception as exc:  # noqa: BLE001 - the boundary: a bug of the kit, said as one
            _internal_error(exc)
        finally:
            if previous is not None:
                signal.signal(signal.SIGTERM, previous)


@click.group(cls=KitGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_print_version,
              help="Print the kit's version and the digest of the suite it judges by, then exit.")
def main() -> None:
    """Conformance kit for the five tabletop rule specs.

    Exit codes: 0 conforms, 1 does not conform, 2 bad usage or input, 3 the build under test broke, 4 a bug in
    the kit (internal error: the message names a file with the traceback), 130/143 interrupted.
    """


@main.command("games")
def games_cmd() -> None:
    """List the registered games and their rulesets."""
    for name, engine in GAMES.items():
        info = engine.info
        rulesets = ", ".join(f"{r}{' (default)' if r == info.default_ruleset else ''}" for r in info.rulesets)
        click.echo(f"{name:14} {info.title:16} rulesets: {rulesets}   spec: {info.spec}")


@main.command("replay")
@click.argument("paths", nargs=-1, required=True)
@click.option("--ruleset", help="Replay every trace under this ruleset instead of its own.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--no-color", is_flag=True, help="No colour in the text report (also: the NO_COLOR variable).")
def replay_cmd(paths: tuple[str, ...], ruleset: str | None, fmt: str, no_color: bool) -> None:
    """Replay traces (files or folders) against the reference implementation.

    Each trace stops at its first mismatch; the report names the step, field path, expected and actual.
    """
    from .harness.preflight import BadChecks, check_start, explain_failure

    try:
        traces = load_traces(paths)
    except TraceError as exc:
        _fail(str(exc))
    if ruleset is not None:
        for t in traces:
            if ruleset not in GAMES[t.game].info.rulesets:
                _fail(f"{t.path}: {t.game} has no ruleset {ruleset!r} "
                      f"(known: {', '.join(GAMES[t.game].info.rulesets)})")
    # What no build could even be judged on is bad input; a value the reference answers otherwise is the
    # mismatch replay exists to show. Each trace is read and replayed in one pass, up to its first mismatch,
    # which is then explained (a trace of a million steps is never held whole).
    bad = [b for t in traces for b in check_start(t)]
    if bad:
        _fail(str(BadChecks(bad)))
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
        _fail(str(exc))
    except TraceError as exc:  # a bad step of a long trace, found where the replay reached it
        _fail(str(exc))
    if bad:
        _fail(str(BadChecks(bad)))
    if fmt == "json":
        click.echo(jsondoc.json_report(results), nl=False)
    else:
        _echo_text(textreport.text_report(results), color=not no_color)
    sys.exit(Exit.DOES_NOT_CONFORM if any(r.status == MISMATCH for r in results) else Exit.CONFORMS)


@main.command("verify")
@click.option("--impl", "command", default=None,
              help="Shell command that starts the build under test (it speaks specs/protocol.md). "
                   "Default: the reference, refimpl serve.")
@click.option("--game", "games", multiple=True, help="Only this game (repeatable).")
@click.option("--ruleset", "rulesets", multiple=True, help="Only this ruleset (repeatable).")
@click.option("-k", "keyword", help="Only traces and scenarios whose name contains this text.")
@click.option("--expect-fail", type=click.Path(dir_okay=False), help="YAML list of the build's known deviations.")
@click.option("--timeout", type=click.FloatRange(min=0.1), default=5.0, show_default=True,
              help="Seconds the build may take to answer one request.")
@click.option("--traces", "trace_paths", multiple=True, help="Trace files or folders (default: the bundled ones).")
@click.option("--no-scenarios", is_flag=True, help="Run the traces only, not the Gherkin scenarios.")
@click.option("--lock-step", is_flag=True, help="Wait for each answer before sending the next request.")
@click.option("--perft", "perft_depth", type=click.IntRange(min=0, max=6), default=0,
              help="Also walk the build's legal-action lists to this depth against the golden perft counts.")
@click.option("--twice", is_flag=True, help="Also send every trace twice and report answers that differ.")
@click.option("--no-oracle", is_flag=True,
              help="Judge traces by their own expectations only, not also against the reference's whole answers.")
@click.option("--fail-fast", is_flag=True, help="Stop at the first check that fails or breaks.")
@click.option("--max-time", type=click.FloatRange(min=0.1), default=None,
              help="Seconds the whole run may take; what has not run by then is reported as not run.")
@click.option("--jobs", type=_JOBS, default="1", show_default=True, envvar="REFIMPL_JOBS",
              help="Worker processes, each with build processes of its own ('auto': one a usable core; also "
                   "the REFIMPL_JOBS variable). The report is the one a single job gives.")
@click.option("--quiet", is_flag=True, help="No progress on stderr.")
@click.option("--no-color", is_flag=True, help="No colour in the text report (also: the NO_COLOR variable).")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "github"]), default="text", show_default=True,
              help="github: one workflow annotation a failure (under GitHub Actions they follow the text report "
                   "anyway).")
@click.option("--list", "list_only", is_flag=True, help="Print the checks that would run, with their rules, and exit.")
@click.option("--write-expect-fail", "record_path", type=click.Path(dir_okay=False),
              help="Write this run's failures as an expect-fail file here (reasons: recorded, not reviewed).")
@click.option("--junit-xml", type=click.Path(dir_okay=False), help="Also write a JUnit XML report here.")
@click.option("--json", "json_path", type=click.Path(dir_okay=False),
              help="Also write the JSON report (as --format json prints it) here.")
@click.option("--html", "html_path", type=click.Path(dir_okay=False),
              help="Also write a self-contained HTML report here (the matrix, each failure with its ledger and "
                   "pictures of the position).")
@click.option("--badges", "badge_dir", type=click.Path(file_okay=False),
              help="Also write a Shields endpoint badge (JSON) per game and one for all games into this folder.")
@click.option("--transcript", "transcript_dir", type=click.Path(file_okay=False),
              help="Write the raw requests and responses of every failing check into this folder, as JSON Lines.")
@_profile_option
def verify_cmd(command: str | None, games: tuple[str, ...], rulesets: tuple[str, ...], keyword: str | None,
               expect_fail: str | None, timeout: float, trace_paths: tuple[str, ...], no_scenarios: bool,
               lock_step: bool, perft_depth: int, twice: bool, no_oracle: bool, fail_fast: bool,
               max_time: float | None, quiet: bool, fmt: str, junit_xml: str | None, json_path: str | None,
               html_path: str | None, badge_dir: str | None, transcript_dir: str | None,
               profile_files: tuple[str, ...], no_color: bool, list_only: bool, record_path: str | None,
               jobs: int) -> None:
    """Check a build against every bundled trace and Gherkin scenario, through the protocol.

    Prints a conformance matrix per game and rule ID. Exit 0 conforms, 1 does not conform,
    2 bad usage or input, 3 the build crashed, hung or broke the protocol.
    """
    from .harness.preflight import BadChecks
    from .harness.processes import scope
    from .verify import VerifyError, VerifySettings, verify

    settings = VerifySettings(traces=trace_paths, games=games, rulesets=rulesets, keyword=keyword,
                              expect_fail=expect_fail, timeout=timeout, scenarios=not no_scenarios,
                              pipeline=not lock_step, perft_depth=perft_depth, twice=twice, fail_fast=fail_fast,
                              oracle=not no_oracle, max_time=max_time, transcripts=transcript_dir is not None,
                              jobs=jobs)
    if list_only:
        from .verify import list_checks

        try:
            found = list_checks(settings)
        except (TraceError, VerifyError, BadChecks) as exc:
            _fail(str(exc))
        if fmt == "json":
            click.echo(json.dumps([{"kind": k, "game": g, "name": n, "rules": list(r)} for k, g, n, r in found],
                                  indent=1, ensure_ascii=True))
        else:
            click.echo("".join(f"{k:9} {n} [{', '.join(r)}]\n" for k, _g, n, r in found)
                       + f"{len(found)} checks (a build with its own random source also gets checks of its own "
                         f"chance)")
        return
    if command is None:
        command = f"{shlex.quote(sys.executable)} -m refimpl serve"
    _check_report_paths(badge_dir, transcript_dir)
    settings = replace(settings, profiles=tuple(_profiles(profile_files)))
    try:
        with scope():
            result = verify(command, settings, None if quiet else _progress_printer())
    except (TraceError, VerifyError, BadChecks) as exc:
        _fail(str(exc))
    except KeyboardInterrupt:  # while the report was being made: nothing ran to print
        sys.exit(Exit.INTERRUPTED)
    from .reports import github, markdown

    if fmt == "json":
        click.echo(jsondoc.verify_json(result), nl=False)
    elif fmt == "github":
        click.echo(github.annotations(result), nl=False)
    else:
        _echo_text(textreport.verify_text(result), color=not no_color)
        if os.environ.get("GITHUB_ACTIONS") == "true":
            click.echo(github.annotations(result), nl=False)
    _write_reports(result, junit_xml, json_path, html_path, badge_dir, transcript_dir)
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary:
        try:
            with open(summary, "a", encoding="utf-8") as out:  # GitHub's file, appended to as it asks
                out.write(markdown.markdown(result))
        except OSError as exc:
            click.echo(f"refimpl: cannot append the step summary to {summary}: {yamlsafe.os_reason(exc)}", err=True)
    if record_path:
        from .verify import write_expect_fail

        try:
            n = write_expect_fail(result, record_path)
        except OSError as exc:
            _fail(f"cannot write {record_path}: {yamlsafe.os_reason(exc)}")
        click.echo(f"wrote {n} expect-fail entries to {record_path} (recorded, not reviewed)", err=True)
    sys.exit(result.exit_code)


@main.command("report")
@click.argument("path", metavar="FILE.json")
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "html", "json", "github"]), default="text",
              show_default=True)
@click.option("--no-color", is_flag=True, help="No colour in the text report (also: the NO_COLOR variable).")
def report_cmd(path: str, fmt: str, no_color: bool) -> None:
    """Render a saved verify report (verify --json FILE) again: as text, markdown, HTML, JSON or GitHub
    annotations. Exit: the saved run's own code (0 it conformed, 1 it did not, 3 the build broke), 2 a file
    that is no such report."""
    from .reports import github, htmlpage as html_report, markdown, runs

    try:
        saved = runs.load_report(path)
    except runs.SavedReportError as exc:
        _fail(str(exc))
    render = {"text": textreport.verify_text, "markdown": markdown.markdown, "html": html_report.render,
              "json": jsondoc.verify_json, "github": github.annotations}[fmt]
    if fmt == "text":
        _echo_text(render(saved), color=not no_color)
    else:
        click.echo(render(saved), nl=False)
    sys.exit(saved.exit_code if saved.exit_code in (Exit.CONFORMS, Exit.DOES_NOT_CONFORM, Exit.BUILD_BROKE)
             else Exit.DOES_NOT_CONFORM)


@main.command("diff")
@click.argument("old", metavar="OLD.json")
@click.argument("new", metavar="NEW.json")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def diff_cmd(old: str, new: str, fmt: str) -> None:
    """Compare two saved verify reports: the regressions (a check that passed, or failed as expected, now fails,
    breaks or passes unexpectedly), the fixes, the checks new and gone. Exit 1 when there is a regression, 0
    otherwise, 2 for a file that is no such report."""
    from .reports import runs

    try:
        before, after = runs.load_report(old), runs.load_report(new)
    except runs.SavedReportError as exc:
        _fail(str(exc))
    changes = runs.diff(before, after)
    if fmt == "json":
        click.echo(json.dumps({k: [vars(c) for c in v] for k, v in changes.items()}, indent=1, ensure_ascii=True))
    else:
        click.echo(runs.diff_text(changes, before, after), nl=False)
    sys.exit(Exit.DOES_NOT_CONFORM if changes["regressions"] else Exit.CONFORMS)


def _write_text(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` safely (refimpl/util/files.py). Raises OSError."""
    from .util.files import write_file

    write_file(path, text.encode("utf-8", "replace"))  # the renderers leave nothing to replace


def _check_report_paths(badge_dir: str | None, transcript_dir: str | None) -> None:
    """Before a run: refuse (exit 2) a badge or transcript folder holding files of the kit's kind that the kit
    did not write, so nothing of the user's is replaced and no run is wasted."""
    from .reports import badges, transcript

    for where, owned in ((badge_dir, badges.folder), (transcript_dir, transcript.folder)):
        if where:
            try:
                owned(where).check()
            except OSError as exc:
                _fail(f"cannot write {where}: {yamlsafe.os_reason(exc)}")


def _write_reports(result: Report, junit_xml: str | None, json_path: str | None, html_path: str | None,
                   badge_dir: str | None, transcript_dir: str | None) -> None:
    """Write the report files asked for; a file that cannot be written is exit 2, naming it. In the badge and
    transcript folders the kit removes the badges and transcripts it wrote there before (and only those), so
    nothing from an earlier run looks current."""
    from .reports import badges, htmlpage as html_report, junit, transcript

    where: str | None = ""
    try:
        for where, render in ((junit_xml, junit.junit_xml), (json_path, jsondoc.verify_json),
                              (html_path, html_report.render)):
            if where:
                _write_text(where, render(result))
        if badge_dir:
            where = badge_dir
            badges.write_badges(result, badge_dir)
        if transcript_dir:
            where = transcript_dir
            transcript.write_all(transcript_dir, ((c.name, list(c.transcript)) for c in result.checks
                                                  if c.transcript))
    except OSError as exc:
        _fail(f"cannot write {where}: {yamlsafe.os_reason(exc)}")


@main.command("show")
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
    from .harness.processes import scope
    from .harness.protocol import ProtocolDriver
    from .reports.show import ShowError, render, svg

    try:
        trace = load_traces([trace_path])[0]
        step = len(trace.steps) if number is None else number
        if out is not None and out.endswith(".svg"):
            if command is not None:
                _fail("--impl draws the build beside the reference: write an HTML page (-o FILE.html)")
            text = svg(trace, step, observer)
        elif command is None:
            text = render(trace, step, observer)
        else:
            with scope():
                build = ProtocolDriver(command, timeout)
                try:
                    text = render(trace, step, observer, build)
                finally:
                    build.close()
    except (TraceError, ShowError) as exc:
        _fail(str(exc))
    except BuildBroke as exc:
        _fail(str(exc), Exit.BUILD_BROKE)
    if out is None:
        click.echo(text, nl=False)
        return
    try:
        _write_text(out, text)
    except OSError as exc:
        _fail(f"cannot write {out}: {yamlsafe.os_reason(exc)}")
    click.echo(f"wrote {out}")


@main.command("fuzz")
@click.option("--impl", "command", default=None, help="Shell command of the build (default: the reference).")
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
@click.option("--quiet", is_flag=True, help="No progress on stderr.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@_profile_option
@_cluster_option
def fuzz_cmd(command: str | None, game: str, ruleset: str | None, examples: int | None, seed: int, jobs: int,
             max_steps: int | None, shrink_time: float, max_time: float | None, out: str, timeout: float,
             twice: bool, quiet: bool, fmt: str, profile_files: tuple[str, ...], cluster: str | None) -> None:
    """Send random cases to a build and to the reference and compare every answer; shrink the first
    difference to a short trace.

    A case starts from the opening, from a position reached by play or from a drawn set-up, then sends
    legal actions, actions with one or several faults, malformed ones, restarts, new starts (valid or
    not) and other requests. Exit 0 no divergence, 1 a divergence (reproducer written), 2 bad usage,
    3 the build broke (crashed, hung, or answered out of protocol; reproducer written when it can be).
    """
    from .campaigns.fuzz import BROKE, DIVERGES, FuzzSettings, fuzz

    if game not in GAMES:
        _fail(f"unknown game {game!r} (known: {', '.join(sorted(GAMES))})")
    if ruleset is not None and ruleset not in GAMES[game].info.rulesets:
        _fail(f"{game} has no ruleset {ruleset!r} (known: {', '.join(GAMES[game].info.rulesets)})")
    command = command or f"{shlex.quote(sys.executable)} -m refimpl serve"
    from .harness.processes import Terminated, acknowledge, scope

    profiles = [p for p in _profiles(profile_files) if p.game == game]
    if len(profiles) != len(profile_files):
        _fail(f"--profile: only a profile of {game} applies to fuzz --game {game}")
    settings = FuzzSettings(game, ruleset, examples, seed, max_steps, shrink_time, max_time, timeout, twice, jobs,
                            profiles[0] if profiles else None)

    def progress(line: str) -> None:
        click.echo(f"fuzz {game}: {line}", err=True)

    try:
        with scope():
            result = fuzz(command, settings, out, None if quiet else progress, cluster)
    except KeyboardInterrupt as exc:
        acknowledge()
        word = "SIGTERM" if isinstance(exc, Terminated) else "Ctrl-C"
        click.echo(f"INTERRUPTED ({word}): fuzz stopped before it found anything; no reproducer was written")
        sys.exit(Exit.TERMINATED if word == "SIGTERM" else Exit.INTERRUPTED)
    except BuildBroke as exc:
        click.echo(printable(f"BUILD BROKE: {exc}"))
        if exc.stderr_tail:
            click.echo("build stderr (last lines):\n" + "\n".join("  | " + printable(s)
                                                                 for s in exc.stderr_tail.splitlines()))
        sys.exit(Exit.BUILD_BROKE)
    except (DriverError, ExecutorError) as exc:
        _fail(str(exc))
    finding = result.finding
    if fmt == "json":
        click.echo(json.dumps(result.json(), indent=2))
    else:
        from .suite import describe

        click.echo(f"fuzzed {game} {result.ruleset} against {printable(result.build)} with {describe()}: "
                   f"{result.cases} cases, "
                   f"{result.requests} requests, {len(result.campaigns)} campaign(s), "
                   f"{max(c.seconds for c in result.campaigns):.1f} s")
        rate = result.rate()
        click.echo(f"{rate['cases_per_second']:g} cases and {rate['requests_per_second']:g} requests a second of "
                   f"search; shrinking and confirming took {rate['shrink_share']:.0%} of the time")
        if result.interrupted is not None:
            click.echo(f"INTERRUPTED ({result.interrupted}): fuzz stopped before it finished; what it found so "
                       f"far is written below, shrunk as far as it got")
        if finding is None:
            timed = any(c.timed_out for c in result.campaigns)
            click.echo("no divergence found" + (" (the search used its time budget)" if timed else ""))
        else:
            div = result.divergence
            what = {DIVERGES: "DIVERGES", BROKE: "BUILD BROKE"}.get(finding.kind, "NOT DETERMINISTIC")
            click.echo(f"{what}: first {'found' if finding.kind != BROKE else 'broke'} after "
                       f"{finding.found_after:.1f} s; shrunk from "
                       f"{finding.first_steps} to {finding.steps()} steps in {finding.shrink_seconds:.1f} s"
                       + (" (--shrink-time cut shrinking short)" if finding.shrink_cut else ""))
            if finding.kind == BROKE:
                click.echo(f"the build broke: {finding.cause}")
                if finding.stderr:
                    click.echo("build stderr (last lines):\n" + "\n".join("  | " + printable(s) for s in
                                                                             finding.stderr.splitlines()))
            if div is not None:
                click.echo(f"at step {div.step}: {div.headline}")
                for line in result.explanation:
                    click.echo("  " + line)
            if result.trace_path:
                click.echo(f"reproducer: {result.trace_path} ({result.replays}; "
                           f"refimpl verify --impl ... --traces {result.trace_path})")
    if result.interrupted is not None:
        sys.exit(Exit.TERMINATED if result.interrupted == "SIGTERM" else Exit.INTERRUPTED)
    if finding is None:
        sys.exit(Exit.CONFORMS)
    sys.exit(Exit.BUILD_BROKE if finding.kind == BROKE else Exit.DOES_NOT_CONFORM)


@main.command("mutants")
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
@_cluster_option
def mutants_cmd(size: int, seed: int, games: tuple[str, ...], jobs: int, out: str, fresh: bool, timeout: float,
                min_score: float | None, ids: tuple[str, ...], judge: str, skip_equivalent: bool, list_only: bool,
                fmt: str, quiet: bool, cluster: str | None) -> None:
    """Measure the kit's power: serve single-point mutants of the reference engines as outside builds and
    count how many verify tells apart (killed), sees crash (broke), or misses (survived).

    Exit 0 when every game reaches --min-score, 1 when one does not, 2 bad usage or a stale
    equivalents file.
    """
    from .campaigns.mutants import (MutantsError, equivalence, game_of, load_equivalents, population, run_campaign,
                                    sample, score, score_json, score_text, stale_judgements)

    everything = population()
    known = sorted({game_of(s.file) for s in everything})
    unknown = [g for g in games if g not in known]
    if unknown:
        _fail(f"unknown game {unknown[0]!r} (known: {', '.join(known)})")
    try:
        judgements = load_equivalents()
    except MutantsError as exc:
        _fail(str(exc))
    stale = stale_judgements(judgements, everything)
    if stale:
        _fail("refimpl/campaigns/mutants/equivalents.yaml no longer fits the code; review these entries:\n  "
              + "\n  ".join(stale))
    if ids:
        unknown_ids = sorted(set(ids) - {s.id for s in everything})
        if unknown_ids:
            _fail(f"no mutant with id {unknown_ids[0]!r} (refimpl mutants --list shows them)")
        chosen = [s for s in everything if s.id in ids]
    else:
        chosen = [s for s in sample(everything, size, seed) if not games or game_of(s.file) in games]
    if skip_equivalent:
        chosen = [s for s in chosen if equivalence(s, judgements) is None]
    if list_only:
        for s in chosen:
            click.echo(f"{s.id}  {s.operator:9} {s.describe()}")
        return

    def progress(done: int, total: int, record: dict) -> None:
        if not quiet:
            click.echo(f"[{done}/{total}] {record['status']:8} {record['file']}:{record['line']} "
                       f"{record['before']} -> {record['after']} ({record['seconds']} s)", err=True)

    from pathlib import Path

    from .harness.processes import Terminated, acknowledge, scope

    try:
        with scope():
            records = run_campaign(chosen, Path(out), jobs, timeout, fresh, progress, judge, cluster)
    except ExecutorError as exc:
        _fail(f"{exc}; the results so far are kept in {out}/results.jsonl")
    except KeyboardInterrupt as exc:
        acknowledge()
        word = "SIGTERM" if isinstance(exc, Terminated) else "Ctrl-C"
        click.echo(f"INTERRUPTED ({word}): the results so far are kept in {out}/results.jsonl; "
                   f"the same command resumes from them", err=True)
        sys.exit(Exit.TERMINATED if word == "SIGTERM" else Exit.INTERRUPTED)
    result = score(records, chosen, judgements)
    header = (f"Mutants: {len(chosen)} of {len(everything)} (sample {size or 'all'}, seed {seed}), judged by {judge}; "
              f"results in {out}/results.jsonl\n")
    if fmt == "json":
        click.echo(json.dumps(score_json(result), indent=2))
    else:
        click.echo(score_text(result, header), nl=False)
    low = [g for g, t in result.by_game.items() if min_score is not None and t.score is not None
           and 100 * t.score < min_score]
    sys.exit(Exit.DOES_NOT_CONFORM if low else Exit.CONFORMS)


@main.command("perft")
@click.argument("game")
@click.option("--ruleset", default=None)
@click.option("--depth", type=click.IntRange(min=0, max=12), default=3, show_default=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def perft_cmd(game: str, ruleset: str | None, depth: int, fmt: str) -> None:
    """Count the action sequences from the start to each depth, and the finished games by result."""
    from .harness.perft import perft

    if game not in GAMES:
        _fail(f"unknown game {game!r} (known: {', '.join(sorted(GAMES))})")
    if ruleset is not None and ruleset not in GAMES[game].info.rulesets:
        _fail(f"{game} has no ruleset {ruleset!r}")
    counts = perft(game, ruleset, depth)
    if fmt == "json":  # schema: refimpl/schemas/output/perft.schema.json
        click.echo(jsondoc.dumps({
            "game": game, "ruleset": ruleset or GAMES[game].info.default_ruleset, "depth": depth,
            "nodes": list(counts.nodes),
            "finished": [{"depth": d, "result": r, "count": n} for d, per in enumerate(counts.results) for r, n in per],
            "totals": [{"result": r, "count": n} for r, n in counts.totals().items()]}), nl=False)
        return
    for d, (n, finished) in enumerate(zip(counts.nodes, counts.results)):
        ended = ", ".join(f"{r} {k}" for r, k in finished)
        click.echo(f"depth {d}: {n}" + (f"  (finished: {ended})" if ended else ""))
    for result, n in counts.totals().items():
        click.echo(f"finished, {result}: {n}")


@main.command("serve")
@_profile_option
def serve_cmd(profile_files: tuple[str, ...]) -> None:
    """Speak the build protocol on stdin/stdout with the reference implementation (specs/protocol.md); with
    --profile, the reference plays that game under the profile's chosen values."""
    from .rulebook.profiles import by_game
    from .harness.serve import serve

    engines = {game: p.engine() for game, p in by_game(_profiles(profile_files)).items()}
    serve(sys.stdin, sys.stdout, {**GAMES, **engines})


@main.command("profile")
@click.argument("game")
@click.option("--ruleset", default=None, help="The ruleset the profile is written for (default: the game's).")
def profile_cmd(game: str, ruleset: str | None) -> None:
    """Print GAME's default ruleset profile as YAML: every value its spec chose, with its meaning, range and
    rules. Edit it, then pass it to verify, fuzz or serve with --profile FILE."""
    from .rulebook.profiles import default_yaml

    if game not in GAMES:
        _fail(f"unknown game {game!r} (known: {', '.join(sorted(GAMES))})")
    if ruleset is not None and ruleset not in GAMES[game].info.rulesets:
        _fail(f"{game} has no ruleset {ruleset!r} (known: {', '.join(GAMES[game].info.rulesets)})")
    click.echo(default_yaml(game, ruleset), nl=False)


@main.command("simulate")
@click.argument("game", type=click.Choice(["ludo"]))
@click.option("--games", "n", type=click.IntRange(min=1), default=1000, show_default=True)
@click.option("--seats", default="easy,easy,easy,easy", show_default=True,
              help="CPU level of each seat, in turn order (human, cpu1, cpu2, cpu3).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True,
              help="Worker processes; the result depends only on --seed and --games.")
@click.option("--rotate", is_flag=True,
              help="Rotate the levels through the seats (game i shifts --seats by i), so each level sits in "
                   "each seat equally often; adds a row per level (its wins whatever seat it sat in).")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "csv"]), default="text", show_default=True,
              help="csv: a header, a row per seat (and with --rotate per level, its seat empty; a seat's level "
                   "is empty then): seat, level, games, wins, win_rate, ci95_low, ci95_high, and the run's "
                   "capped and average_throws repeated on every row.")
@click.option("--plot", type=click.Path(dir_okay=False), default=None, metavar="FILE.svg",
              help="Also write a chart of the win rates with their 95% intervals as SVG (SVG only: no PNG).")
@click.option("--quiet", is_flag=True, help="No progress on stderr (else: a bar on a terminal, a line every "
                                            "10% of the games otherwise).")
@_cluster_option
def simulate_cmd(game: str, n: int, seats: str, seed: int, jobs: int, rotate: bool, fmt: str, plot: str | None,
                 quiet: bool, cluster: str | None) -> None:
    """Play full games between CPU levels and print each seat's win rate with a 95% confidence interval."""
    from .util.files import write_file
    from .campaigns.simulate import (Interrupted, SimulateError, simulate, summary_csv, summary_json, summary_svg,
                                     summary_text)

    if plot is not None and not plot.lower().endswith(".svg"):
        _fail(f"--plot {plot}: the chart is written as SVG only; give a file name ending in .svg")
    logged = True  # stderr is a terminal, or a log: a pipe or a file the process holds
    try:
        os.fstat(sys.stderr.fileno())
    except (OSError, ValueError, AttributeError):
        logged = False  # an in-memory stream (a test's runner): no progress
    bar = None
    if quiet or not logged:
        pass
    elif sys.stderr.isatty():
        def bar(done: int, total: int) -> None:
            filled = 30 * done // total
            click.echo(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} games", err=True, nl=done == total)
    else:  # a CI log: a plain line each time another tenth of the games is done
        tenths = [0]

        def bar(done: int, total: int) -> None:
            if done * 10 // total > tenths[0] or done == total:
                tenths[0] = done * 10 // total
                click.echo(f"simulate {game}: {done}/{total} games ({done / total:.0%})", err=True)
    from .harness.processes import scope

    code = Exit.CONFORMS
    try:
        with scope():  # SIGTERM ends the run like Ctrl-C, and the job processes with it
            summary = simulate(n, seats.split(","), seed, jobs, bar, cluster, rotate)
    except (SimulateError, ExecutorError) as exc:
        _fail(str(exc))
    except Interrupted as exc:
        summary = exc.summary
        code = Exit.TERMINATED if exc.signal == "SIGTERM" else Exit.INTERRUPTED
        if bar is not None and sys.stderr.isatty():
            click.echo("", err=True)
        if fmt == "csv":  # CSV has no place to say it
            click.echo(f"refimpl: interrupted ({exc.signal}) after {summary.games} of {n} games: the figures "
                       f"are of the games played", err=True)
    if plot is not None:
        try:
            write_file(plot, summary_svg(summary).encode("utf-8"))
        except OSError as exc:
            _fail(f"--plot {plot}: {exc.strerror or exc}")
    if fmt == "json":
        click.echo(jsondoc.dumps(summary_json(summary)), nl=False)
    else:
        click.echo(summary_csv(summary) if fmt == "csv" else summary_text(summary), nl=False)
    sys.exit(code)


@main.command("map")
@click.option("--seed", type=int, default=0, show_default=True, help="The game seed the map is generated from.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def map_cmd(seed: int, fmt: str) -> None:
    """Print the Black Fog map generated from a seed, as a hex picture (or its tiles as JSON)."""
    from .reports.hexmap import draw

    engine = GAMES["black-fog"]
    view = engine.view(engine.new_state(seed=seed))
    if fmt == "json":  # schema: refimpl/schemas/output/map.schema.json; tiles as axial coordinates
        from .games.black_fog import hexes

        tiles = {kind: [dict(zip(("q", "r"), hexes.parse(t))) for t in view["map"][kind]] for kind in view["map"]}
        click.echo(jsondoc.dumps({"seed": seed, **tiles}), nl=False)
        return
    click.echo(draw(view), nl=False)


@main.command("tables")
@click.argument("game")
@click.argument("name", required=False)
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "json"]), default="text",
              show_default=True)
def tables_cmd(game: str, name: str | None, fmt: str) -> None:
    """Print a game's tables (all of them, or the one called NAME) from its data file."""
    try:
        available = tables.get_tables(game)
    except BadSetup as exc:
        _fail(exc.message)
    if name is not None and name not in available:
        _fail(f"{game} has no table {name!r} (tables: {', '.join(available)})")
    chosen = {n: f() for n, f in available.items() if name in (None, n)}
    if fmt == "json":  # schema: refimpl/schemas/output/tables.schema.json
        click.echo(jsondoc.dumps({n: tables.as_json(t) for n, t in chosen.items()}), nl=False)
        return
    render = tables.markdown if fmt == "markdown" else tables.text
    click.echo("\n".join(f"{n}\n\n{render(t)}" if len(chosen) > 1 else render(t) for n, t in chosen.items()),
               nl=False)


@main.command("rule")
@click.argument("rule_id", metavar="ID")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def rule_cmd(rule_id: str, fmt: str) -> None:
    """Print what the kit holds about rule or ruling ID (case ignored): its spec text, the code that cites it,
    the scenarios tagged with it, the traces that name it and the misreadings that target it."""
    from .rulebook.lookup import UnknownRule, as_json, as_text, lookup
    from .scenarios.gherkin import FeatureError

    try:
        entry = lookup(rule_id)
    except (UnknownRule, FeatureError, TraceError) as exc:  # the last two: a broken install's suite
        _fail(str(exc))
    if fmt == "json":  # schema: refimpl/schemas/output/rule.schema.json
        click.echo(jsondoc.dumps(as_json(entry)), nl=False)
        return
    click.echo(printable(as_text(entry)), nl=False)


if __name__ == "__main__":  # pragma: no cover
    main()
