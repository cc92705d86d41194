"""``refimpl verify`` with several builds (``--impl`` or ``--page`` more than once, or ``--builds FILE``): each
build judged as a run of its own (verify/many.py), the builds side by side in one matrix (reports/matrix.py),
and the matrix's reports written (docs/many-builds.md)."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import click

from ..errors import Exit
from .options import append_nonblocking, build_command, check_report_paths, fail, write_text

DEFAULT_MEMORY = 2048  # MiB of data each process of a build may hold in a many-builds run (--memory)
DEFAULT_BUILD_TIME = 1800.0  # seconds a build's whole run may take in a many-builds run (--build-time)
# What of the kit's environment the kit's own helpers of a build get beside the allow-list (docs/many-builds.md)
PAGE_ENV = ("REFIMPL_CHROMIUM", "PLAYWRIGHT_BROWSERS_PATH", "PYTHONPATH", "DISPLAY")
ENGINE_ENV = ("DOCKER_HOST", "DOCKER_CONFIG", "DOCKER_CONTEXT", "DOCKER_CERT_PATH", "DOCKER_TLS_VERIFY",
              "CONTAINER_HOST", "CONTAINERS_CONF", "XDG_RUNTIME_DIR")


class Finite(click.ParamType):
    """Seconds: a finite number of at least 1."""

    name = "SECONDS"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        import math

        try:
            seconds = float(value)
        except (TypeError, ValueError):
            seconds = float("nan")
        if not math.isfinite(seconds) or seconds < 1:
            self.fail(f"{value!r} is not a number of seconds of at least 1", param, ctx)
        return seconds


FINITE = Finite()


@dataclass(frozen=True)
class ManyOptions:
    """What only a many-builds run is told: the builds file, the gate, the variables passed on, the bounds and
    where the matrix's reports go."""

    builds_file: str | None
    gate: tuple[str, ...]
    pass_env: tuple[str, ...]
    memory: int
    build_time: float
    cluster: str | None
    site: str | None


def many_options(func: Callable[..., Any] | None = None, *, verify: bool = True) -> Any:
    """The options of a many-builds run, handed to ``func`` as one ``many`` argument (ManyOptions); ``verify``
    off (fuzz, which has its own --cluster): no --cluster, --site or --build-time."""
    def decorate(f: Callable[..., Any]) -> Callable[..., Any]:
        return _many_options(f, verify)
    return decorate if func is None else decorate(func)


def _many_options(func: Callable[..., Any], verify: bool) -> Callable[..., Any]:
    @functools.wraps(func)
    def gathered(*args: Any, builds_file: str | None, gate: tuple[str, ...], pass_env: tuple[str, ...], memory: int,
                 build_time: float = DEFAULT_BUILD_TIME, site: str | None = None, **kwargs: Any) -> Any:
        cluster = kwargs.pop("cluster") if verify else kwargs.get("cluster")
        many = ManyOptions(builds_file, gate, pass_env, memory, build_time, cluster, site)
        return func(*args, many=many, **kwargs)

    options = [
        click.option("--builds", "builds_file", type=click.Path(dir_okay=False),
                     help="A YAML file of builds to judge side by side (docs/many-builds.md; schema "
                          "builds-v1.schema.json): each a name and a command, page or image."),
        click.option("--gate", multiple=True, metavar="NAME",
                     help="With several builds: only these builds' verdicts decide the exit code (repeatable)."),
        click.option("--pass-env", multiple=True, metavar="NAME",
                     help="With several builds: also pass this variable of the kit's environment to every build "
                          "(they get an allow-list otherwise; repeatable)."),
        click.option("--memory", type=click.IntRange(min=64), default=DEFAULT_MEMORY, show_default=True,
                     help="With several builds: MiB of data each process of a build may hold."),
        click.option("--build-time", type=FINITE, default=DEFAULT_BUILD_TIME, show_default=True,
                     help="With several builds: seconds one build's whole run may take (the rest is not run)."),
        click.option("--cluster", default=None, metavar="tcp://HOST:PORT",
                     help="With several builds: judge them on the Dask cluster whose scheduler is here (the "
                          "'cluster' extra; docs/cluster.md). The same matrix as a local run."),
        click.option("--site", "site", type=click.Path(file_okay=False),
                     help="With several builds: add this run to a static site in this folder (an index of runs, "
                          "a page and badge a build, a page a rule: docs/many-builds.md)."),
    ]
    if not verify:
        options = options[:4]
    wrapped: Callable[..., Any] = gathered
    for option in reversed(options):
        wrapped = option(wrapped)
    return wrapped


def is_many(commands: tuple[str, ...], pages: tuple[str, ...], many: ManyOptions) -> bool:
    """Whether a verify run judges several builds."""
    return many.builds_file is not None or len(commands) + len(pages) > 1


def start_of(spec: Any, builds: Any, many: ManyOptions, timeout: float,
             common: dict[str, Any]) -> tuple[Any, tuple[str, str] | None]:
    """How the kit starts one build of a many-builds run: its Build (the command, a page's bridge or an image's
    container; the environment's allow-list with what is passed on and its own ``env``; the memory bound), and
    for an image (the engine, the job's label). Exits 2 for what cannot be started (no browser, no engine)."""
    from ..harness.protocol import Build

    container = None
    if spec.image is not None:
        from ..verify.containers import NoEngine, engine, ensure_image, run_command

        try:
            found = engine()
            ensure_image(found, spec.image)
        except NoEngine as exc:
            fail(f"{spec.where}: {exc}")
        command, label = run_command(found, spec.image, spec.memory or many.memory)
        container = (found, label)
    else:
        command = build_command(spec.command, spec.page, timeout)
    # the kit's own helpers get what they need of the kit's environment: a page's bridge (the kit's process that
    # drives the browser; the page itself gets nothing of it) and an image's engine client (not the container)
    kit_own = PAGE_ENV if spec.page is not None else ENGINE_ENV if spec.image is not None else ()
    passed = {k: os.environ[k] for k in (*builds.pass_env, *many.pass_env, *kit_own) if k in os.environ}
    try:
        return Build(command, timeout, cwd=spec.cwd, env={**passed, **spec.env}, level=spec.level or common["level"],
                     known_answers=common["known_answers"], isolate=True, memory=spec.memory or many.memory), container
    except ValueError as exc:
        fail(f"{spec.where}: {exc}")


def jobs_for(builds: Any, settings: Any, common: dict[str, Any], many: ManyOptions) -> list[Any]:
    """One verify job a build: its Build (the command, a page's bridge or an image's container; the
    environment's allow-list, the memory bound), and its settings (its games, rulesets, profiles, expect-fail,
    timeout and time). Exits 2 for what cannot be started (no browser, no container engine)."""
    from ..verify.many import Job
    from .options import load_profiles

    out: list[Any] = []
    for spec in builds.builds:
        games = narrowed(spec, settings)
        if games == ():
            click.echo(f"refimpl: {spec.name} left out: its games ({', '.join(spec.games)}) are none of --game "
                       f"({', '.join(settings.games)})", err=True)
            continue
        timeout = spec.timeout or settings.timeout
        mine = replace(settings, games=games, rulesets=spec.rulesets or settings.rulesets,
                       profiles=tuple(load_profiles(spec.profiles)) if spec.profiles else settings.profiles,
                       expect_fail=spec.expect_fail or settings.expect_fail, timeout=timeout,
                       max_time=min(spec.time or many.build_time, settings.max_time or float("inf")), jobs=1)
        checked(spec, mine)
        build, container = start_of(spec, builds, many, timeout, common)
        out.append(Job(len(out), spec, build, mine, page_notes=spec.page is not None, container=container))
    return out


def narrowed(spec: Any, settings: Any) -> tuple[str, ...] | None:
    """The games a build judges: its ``games:`` within ``--game`` (None: every game; (): none in common)."""
    if not spec.games:
        return settings.games
    return tuple(g for g in spec.games if not settings.games or g in settings.games)


def checked(spec: Any, settings: Any) -> None:
    """Before anything runs: exit 2, naming the build, for a ruleset none of its games has or an expect-fail file
    the kit cannot use."""
    from ..verify.expectations import load_expect_fail
    from ..verify.selection import check_selection
    from ..verify.settings import VerifyError

    try:
        check_selection(settings)
        if settings.expect_fail:
            load_expect_fail(settings.expect_fail)
    except VerifyError as exc:
        fail(f"{spec.where}: {exc}")


def verify_many(commands: tuple[str, ...], pages: tuple[str, ...], many: ManyOptions, settings: Any,
                common: dict[str, Any], reports: dict[str, str | None], jobs: int, quiet: bool, fmt: str) -> None:
    """Judge every build, print the matrix (text or JSON), write its reports, append the step summary, exit
    with the matrix's code. Ctrl-C ends every build and prints what had finished."""
    from ..harness.executor import ExecutorError
    from ..reports.matrix import matrix_json, matrix_text
    from ..verify.builds import BuildsError, gather
    from ..verify.many import run_many
    from ..verify.selection import check_selection
    from ..verify.settings import VerifyError

    try:
        builds = gather(many.builds_file, commands, pages)
        gate = builds.gated(many.gate) if (builds.gate or many.gate) else ()
        check_selection(settings)
    except (BuildsError, VerifyError) as exc:
        fail(str(exc))
    check_outputs(reports, many.site)
    job_list = jobs_for(builds, settings, common, many)
    heard = None if quiet else _progress(len(job_list))
    from ..harness.processes import Terminated, scope

    try:
        with scope():  # every build process of this run is ended on leaving, however it is left
            matrix = run_many(job_list, gate, jobs, many.cluster, heard)
    except ExecutorError as exc:
        fail(str(exc))
    except KeyboardInterrupt as exc:
        finished: Any = getattr(exc, "done", None)
        if finished is None:
            sys.exit(Exit.TERMINATED if isinstance(exc, Terminated) else Exit.INTERRUPTED)
        matrix = finished
        matrix.interrupted = "SIGTERM" if isinstance(exc, Terminated) else "Ctrl-C"
    if "-" not in reports.values():  # a report written to stdout is stdout's one document
        click.echo(matrix_json(matrix) if fmt == "json" else matrix_text(matrix), nl=False)
        if fmt != "json" and os.environ.get("GITHUB_ACTIONS") == "true":
            from ..reports.matrix import matrix_annotations

            click.echo(matrix_annotations(matrix), nl=False)
    write_matrix_reports(matrix, reports, many.site)
    sys.exit(matrix.exit_code)


def _progress(total: int) -> Callable[[Any, Any], None]:
    count = [0]

    def heard(job: Any, judged: Any) -> None:
        import json

        count[0] += 1
        verdict = json.loads(judged.report).get("verdict", "?")
        click.echo(f"[{count[0]}/{total}] {job.spec.name}: {verdict.replace('_', ' ')} ({judged.seconds:.1f} s)",
                   err=True)
    return heard


def check_outputs(reports: dict[str, str | None], site: str | None) -> None:
    """Before any build starts: refuse (exit 2) a report path that is a folder or a dangling link, and a site
    folder holding files the kit did not write."""
    check_report_paths(None, None, None, tuple(reports.values()))
    if site:
        from ..reports.site import site_folder

        try:
            site_folder(site).check()
        except OSError as exc:
            from ..util import yamlsafe

            fail(f"cannot write {site}: {yamlsafe.os_reason(exc)}")


def write_matrix_reports(matrix: Any, reports: dict[str, str | None], site: str | None) -> None:
    """The matrix's JSON, JUnit and HTML files, the site, and the step summary (GITHUB_STEP_SUMMARY)."""
    from ..reports.matrix import matrix_json, matrix_junit, matrix_markdown
    from ..util import yamlsafe

    forms = {"json": matrix_json, "junit": matrix_junit}
    for kind, path in reports.items():
        if not path:
            continue
        try:
            if kind == "html":
                from ..reports.matrixhtml import render

                text = render(matrix)
            else:
                text = forms[kind](matrix)
            if path == "-":
                click.echo(text, nl=False)
            else:
                write_text(path, text)
        except OSError as exc:
            fail(f"cannot write {path}: {yamlsafe.os_reason(exc)}")
    if site and matrix.interrupted:
        click.echo(f"refimpl: an interrupted run is not added to the site {site}", err=True)
    elif site:
        from ..reports.site import add_run

        try:
            add_run(site, matrix)
        except OSError as exc:
            fail(f"cannot write {site}: {yamlsafe.os_reason(exc)}")
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary:
        try:
            append_nonblocking(summary, matrix_markdown(matrix))
        except OSError as exc:
            click.echo(f"refimpl: cannot append the step summary to {summary}: {yamlsafe.os_reason(exc)}", err=True)
