"""``refimpl verify``: a build checked against every bundled trace and scenario, and the reports written."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import click

from ..errors import Exit
from ..harness.trace import TraceError
from ..reports import jsondoc, text as textreport
from ..reports.model import Report
from ..reports.safetext import printable
from ..reports.terminal import echo_text
from ..util import yamlsafe
from .many import ManyOptions, is_many, many_options, verify_many
from .options import (
    JOBS,
    append_nonblocking,
    build_command,
    check_report_paths,
    fail,
    isolate_env_option,
    level_option,
    load_profiles,
    page_option,
    profile_option,
    read_every_answer_option,
    reproducer_folder,
    write_text,
)


@click.command("verify")
@click.option("--impl", "commands", multiple=True,
              help="Shell command that starts the build under test (it speaks specs/protocol.md). "
                   "Default: the reference, refimpl serve. Twice or more: the builds side by side in one matrix "
                   "(docs/many-builds.md).")
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
@read_every_answer_option
@click.option("--max-time", type=click.FloatRange(min=0.1), default=None,
              help="Seconds the whole run may take; what has not run by then is reported as not run.")
@click.option("--jobs", type=JOBS, default="1", show_default=True, envvar="REFIMPL_JOBS",
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
@click.option("--explore", "explore", type=click.IntRange(min=0), default=None, envvar="REFIMPL_EXPLORE",
              help="Cases of the exploration per game and ruleset: a seeded search against the reference after the "
                   "traces and scenarios, the same cases on every machine (default: 40; 0 or --no-explore: none; "
                   "also the REFIMPL_EXPLORE variable).")
@click.option("--no-explore", is_flag=True, help="Skip the exploration.")
@click.option("--coverage", is_flag=True,
              help="Also count how often the reference runs each rule's cited code, by kind of check (slower).")
@click.option("--reproducers", "reproducer_dir", type=click.Path(file_okay=False),
              help="Write each exploration finding's reproducer trace into this folder "
                   "(explore-GAME-RULESET.yaml; replay it with --traces).")
@click.option("--screenshots", "screens_dir", type=click.Path(file_okay=False),
              help="With --page: the page before and after the failing step of the first failing checks, as PNG "
                   "files here (default: beside the --html or --json report, as NAME.screens/), shown in the HTML "
                   "report and named in the JSON.")
@click.option("--transcript", "transcript_dir", type=click.Path(file_okay=False),
              help="Write the raw requests and responses of every failing check into this folder, as JSON Lines.")
@page_option(multiple=True)
@level_option
@profile_option
@isolate_env_option
@many_options
def verify_cmd(commands: tuple[str, ...], pages: tuple[str, ...], many: ManyOptions, level: str,
               games: tuple[str, ...], rulesets: tuple[str, ...], keyword: str | None,
               expect_fail: str | None, timeout: float, trace_paths: tuple[str, ...], no_scenarios: bool,
               lock_step: bool, perft_depth: int, twice: bool, no_oracle: bool, fail_fast: bool,
               max_time: float | None, quiet: bool, fmt: str, junit_xml: str | None, json_path: str | None,
               html_path: str | None, badge_dir: str | None, transcript_dir: str | None,
               profile_files: tuple[str, ...], no_color: bool, list_only: bool, record_path: str | None,
               jobs: int, explore: int | None, no_explore: bool, reproducer_dir: str | None,
               coverage: bool, read_all: bool, screens_dir: str | None) -> None:
    """Check a build against every bundled trace and Gherkin scenario, through the protocol.

    Prints a conformance matrix per game and rule ID. Exit 0 conforms, 1 does not conform,
    2 bad usage or input, 3 the build crashed, hung or broke the protocol, 4 a bug in the kit (nothing
    said of the build), 130 interrupted (Ctrl-C), 143 terminated (SIGTERM). Several builds (--builds FILE,
    --impl twice): side by side in one matrix, exit 3 if a gated build broke, else 1 if one does not conform.
    """
    from ..harness.preflight import BadChecks
    from ..harness.processes import scope
    from ..harness.protocol import Build
    from ..verify import VerifyError, VerifySettings, verify
    from ..verify.settings import DEFAULT_EXPLORE

    settings = VerifySettings(traces=trace_paths, games=games, rulesets=rulesets, keyword=keyword,
                              expect_fail=expect_fail, timeout=timeout, scenarios=not no_scenarios,
                              pipeline=not lock_step, perft_depth=perft_depth, twice=twice, fail_fast=fail_fast,
                              oracle=not no_oracle, max_time=max_time,
                              transcripts=transcript_dir is not None,
                              jobs=jobs, explore=0 if no_explore else DEFAULT_EXPLORE if explore is None else explore,
                              coverage=coverage)
    if list_only:
        list_and_exit(settings, fmt)
    if is_many(commands, pages, many):
        refuse_with_many(record_path, screens_dir, transcript_dir, reproducer_dir, badge_dir, fmt)
        verify_many(commands, pages, many, replace(settings, profiles=tuple(load_profiles(profile_files))),
                    {"level": level, "known_answers": not read_all},
                    {"json": json_path, "junit": junit_xml, "html": html_path}, jobs, quiet, fmt)
    page = pages[0] if pages else None
    command = build_command(commands[0] if commands else None, page, timeout)
    screens_dir = screens_folder(page, screens_dir, html_path, json_path)
    settings = replace(settings, transcripts=settings.transcripts or screens_dir is not None)  # (screens_folder)
    check_report_paths(badge_dir, transcript_dir, reproducer_dir, (junit_xml, json_path, html_path))
    settings = replace(settings, profiles=tuple(load_profiles(profile_files)))
    from ..verify.screens import NOTES, notes_file, refused

    notes = notes_file() if page is not None else None
    build = Build(command, settings.timeout, known_answers=not read_all, level=level,
                  env={NOTES: notes} if notes else {})
    try:
        with scope():
            result = verify(build, settings, None if quiet else progress_printer())
    except (TraceError, VerifyError, BadChecks) as exc:
        fail(str(exc))
    except KeyboardInterrupt:  # while the report was being made: nothing ran to print
        sys.exit(Exit.INTERRUPTED)
    if notes:
        result.warnings += refused(notes)
    if screens_dir is not None and result.count("failed"):
        take_screens(build, result, screens_dir)
    from ..reports import github, markdown

    if "-" in (junit_xml, json_path, html_path):
        pass  # a report written to stdout (``--json -``) is stdout's one document: no text report beside it
    elif fmt == "json":
        click.echo(jsondoc.verify_json(result), nl=False)
    elif fmt == "github":
        click.echo(github.annotations(result), nl=False)
    else:
        echo_text(textreport.verify_text(result), color=not no_color)
        if os.environ.get("GITHUB_ACTIONS") == "true":
            click.echo(github.annotations(result), nl=False)
    write_reports(result, junit_xml, json_path, html_path, badge_dir, transcript_dir, reproducer_dir)
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary:
        try:
            append_nonblocking(summary, markdown.markdown(result))  # GitHub's file, appended to as it asks
        except OSError as exc:
            click.echo(f"refimpl: cannot append the step summary to {summary}: {yamlsafe.os_reason(exc)}", err=True)
    if record_path:
        record_expect_fail(result, record_path)
    sys.exit(result.exit_code)


def list_and_exit(settings: Any, fmt: str) -> None:
    """``--list``: the checks that would run, with their rules; exit 0 (2 for bad input)."""
    from ..harness.preflight import BadChecks
    from ..verify import VerifyError, list_checks

    try:
        found = list_checks(settings)
    except (TraceError, VerifyError, BadChecks) as exc:
        fail(str(exc))
    click.echo(jsondoc.checks_json(found) if fmt == "json" else textreport.checks_text(found), nl=False)
    sys.exit(Exit.CONFORMS)


def refuse_with_many(record_path: str | None, screens_dir: str | None, transcript_dir: str | None,
                     reproducer_dir: str | None, badge_dir: str | None, fmt: str) -> None:
    """Exit 2 for an option a many-builds run does not take, saying what to use instead."""
    given = [name for name, value in (("--write-expect-fail", record_path), ("--screenshots", screens_dir),
                                      ("--transcript", transcript_dir), ("--reproducers", reproducer_dir),
                                      ("--badges", badge_dir), ("--format github", fmt == "github")) if value]
    if given:
        fail(f"{given[0]} judges one build: with several, judge that build alone (its badges and pages are in "
             f"--site)")


def record_expect_fail(result: Report, record_path: str) -> None:
    """``--write-expect-fail``: this run's failures as an expect-fail file; exit 2 if it cannot be written."""
    from ..verify import write_expect_fail

    try:
        n = write_expect_fail(result, record_path)
    except OSError as exc:
        fail(f"cannot write {record_path}: {yamlsafe.os_reason(exc)}")
    click.echo(f"wrote {n} expect-fail entries to {record_path} (recorded, not reviewed)", err=True)


PROGRESS_STEPS = 10  # off a terminal: a line at each tenth of the run (and one for each problem as it happens)


def progress_printer() -> Callable[[Any, int, int], None]:
    """Progress on stderr: a bar redrawn in place on a terminal; elsewhere (a CI log) a line for each check that
    failed, broke or passed unexpectedly, as it ends, and a count at each tenth of the run, so a log of 350 checks
    gets a dozen lines, not 350 (issue 43)."""
    tty = sys.stderr.isatty()
    counts: dict[str, int] = {}
    shown = [0]  # the last tenth a count was printed for

    def show(check: Any, done: int, total: int) -> None:
        if tty:
            filled = 30 * min(done, total) // max(total, 1)
            click.echo(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} checks ({check.kind}s) ",
                       err=True, nl=False)
            return
        counts[str(check.status)] = counts.get(str(check.status), 0) + 1
        if str(check.status) in ("failed", "broke", "xpass"):
            click.echo(f"[{done}/{total}] {check.status:8} {check.kind} {printable(check.name)}", err=True)
        tenth = PROGRESS_STEPS * done // max(total, 1)
        if tenth > shown[0] or done == total:
            shown[0] = tenth
            tally = ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
            click.echo(f"[{done}/{total}] checks done: {tally}", err=True)

    return show


def screens_folder(page: str | None, given: str | None, html_path: str | None, json_path: str | None) -> str | None:
    """Where a page's screenshots go: ``--screenshots``, else beside the HTML or JSON report (NAME.screens), else
    nowhere (the text report shows no pictures). Exits 2 for ``--screenshots`` without ``--page``, or a folder
    holding PNG files the kit did not write."""
    if page is None:
        if given is not None:
            fail("--screenshots pictures a web page: give --page too")
        return None
    # The pictures play a failing check's requests again: a run that takes them keeps every check's transcript.
    report = next((p for p in (html_path, json_path) if p and p != "-"), None)
    where = given or (str(Path(report).with_suffix(".screens")) if report else None)
    if where is not None:
        from ..verify.screens import folder

        try:
            folder(where).check()
        except OSError as exc:
            fail(f"cannot write {where}: {yamlsafe.os_reason(exc)}")
    return where


def take_screens(build: Any, result: Report, where: str) -> None:
    """The page's own screen beside the first failures (verify/screens.py); exit 2 if the folder cannot be
    written."""
    from ..harness.processes import scope
    from ..verify.screens import take

    try:
        with scope():
            written = take(build, result, where)
    except OSError as exc:
        fail(f"cannot write {where}: {yamlsafe.os_reason(exc)}")
    if written:
        click.echo(f"refimpl: the page's own screen before and after {len(written) // 2} failing steps: {where}",
                   err=True)


def write_reports(result: Report, junit_xml: str | None, json_path: str | None, html_path: str | None,
                  badge_dir: str | None, transcript_dir: str | None, reproducer_dir: str | None = None) -> None:
    """Write the report files asked for; a file that cannot be written is exit 2, naming it. In the badge and
    transcript folders the kit removes the badges and transcripts it wrote there before (and only those), so
    nothing from an earlier run looks current."""
    from ..reports import badges, htmlpage as html_report, junit, transcript

    where: str | None = ""
    try:
        for where, render in ((junit_xml, junit.junit_xml), (json_path, jsondoc.verify_json),
                              (html_path, html_report.render)):
            if where:
                write_text(where, render(result))
        if badge_dir:
            where = badge_dir
            badges.write_badges(result, badge_dir)
        if transcript_dir:
            where = transcript_dir
            transcript.write_all(transcript_dir, ((c.name, list(c.transcript)) for c in result.checks
                                                  if c.transcript))
        if reproducer_dir:
            where = reproducer_dir
            reproducer_folder(reproducer_dir).replace_all((c.file, c.reproducer.encode("utf-8")) for c in result.checks
                                                          if c.reproducer)
    except OSError as exc:
        fail(f"cannot write {where}: {yamlsafe.os_reason(exc)}")
