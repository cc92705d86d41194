"""What the commands share: the options several of them take (``--profile``, ``--cluster``, ``--jobs``), bad input
said as one line and exit 2 (``fail``, which the error boundary in cli.py uses too), and a text written safely."""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import click

from ..errors import Exit
from ..reports.safetext import printable


def fail(message: str, code: Exit = Exit.BAD_INPUT) -> NoReturn:
    """``refimpl: MESSAGE`` on stderr (made printable), then exit ``code`` (2 unless told)."""
    click.echo(f"refimpl: {printable(message)}", err=True)
    sys.exit(code)


def reference_command() -> str:
    """The shell command that serves the reference (the build a command judges when none is named)."""
    return f"{shlex.quote(sys.executable)} -m refimpl serve"


def page_option(func: Callable[..., Any] | None = None, *, multiple: bool = False) -> Any:
    """``--page PATH|URL``: a web page as the build (refimpl/page: the kit speaks to ``window.refimpl`` in the
    system's headless Chromium); ``multiple`` (verify): repeatable, passed as ``pages``."""
    def decorate(f: Callable[..., Any]) -> Callable[..., Any]:
        return click.option("--page", "pages" if multiple else "page", multiple=multiple,
                            default=None, metavar="PATH|URL",
                            help="A web page as the build: a local HTML file or folder (served from 127.0.0.1) or "
                                 "an http(s) URL, whose window.refimpl.handle(request) answers the protocol "
                                 "(docs/page.md). Needs Chromium and the browser extra."
                                 + (" Twice or more, or with --impl: the builds side by side." if multiple else ""))(f)
    return decorate if func is None else decorate(func)


def level_option(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--level full|play``: what the verdict judges (harness.protocol.Build.level; docs/page.md)."""
    return click.option("--level", type=click.Choice(["full", "play"]), default="full", show_default=True,
                        help="full: every answer whole; play: the rules only (states, views, legal lists, results "
                             "and whether an illegal action is refused, not which code or form check refuses it). "
                             "Every report names the level.")(func)


def build_command(command: str | None, page: str | None, timeout: float) -> str:
    """The shell command of the build a command judges: ``--impl``, the bridge to ``--page``, or the reference.
    Exits 2 for both at once, a page that cannot be opened, or a browser that is not installed."""
    if page is None:
        return command if command is not None else reference_command()
    if command is not None:
        fail("give --impl or --page, not both")
    from ..page import PageError, page_command
    from ..util.browser import BrowserMissing, chromium, playwright

    try:
        playwright()
        chromium()
        return page_command(page, timeout)
    except (PageError, BrowserMissing) as exc:
        fail(str(exc))


def profile_option(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--profile FILE`` (repeatable, one per game): the builder's own chosen values (refimpl profile GAME)."""
    return click.option("--profile", "profile_files", multiple=True, type=click.Path(dir_okay=False),
                        help="A ruleset profile (YAML: refimpl profile GAME prints the defaults): judge the "
                             "game under these chosen values. Repeatable, one per game.")(func)


def isolate_env_option(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--isolate-env``: builds start with a documented allow-list of the environment alone (no tokens, no CI
    file-command paths); set for this process and the workers it starts (processes.build_environment)."""
    def isolate(ctx: click.Context, param: click.Parameter, value: bool) -> None:
        if value:
            from ..harness.processes import ISOLATE

            os.environ[ISOLATE] = "1"

    return click.option("--isolate-env", is_flag=True, expose_value=False, callback=isolate,
                        help="Start builds with a short allow-list of the environment (PATH, HOME, the locale, "
                             "TMPDIR...: docs/verify.md), not the whole of it: no tokens or CI paths reach a "
                             "build you did not write.")(func)


def read_every_answer_option(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--read-every-answer``: the build is read without the fast path (harness/known.py), every answer parsed and
    compared in full; passed to the command as ``read_all`` (it makes the Build with ``known_answers=False``)."""
    return click.option("--read-every-answer", "read_all", is_flag=True,
                        help="Read and compare every answer in full, even one written byte for byte as the "
                             "reference's (slower, the same verdict: for when you doubt the kit's fast path).")(func)


def load_profiles(files: tuple[str, ...] | list[str], one_per_game: bool = True) -> list[Any]:
    """The profiles in ``files`` (at most one a game unless ``one_per_game`` is off: a what-if compares
    several); a file the kit cannot use is exit 2, naming it and the line."""
    from ..rulebook.profiles import ProfileError, by_game, load_profile

    try:
        found = [load_profile(f) for f in files]
        if one_per_game:
            by_game(found)
    except ProfileError as exc:
        fail(str(exc))
    return found


def cluster_option(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--cluster ADDRESS``: run the jobs on a Dask cluster instead of local processes."""
    return click.option("--cluster", default=None, metavar="tcp://HOST:PORT",
                        help="Run the jobs on the Dask cluster whose scheduler is here (needs the 'cluster' "
                             "extra; docs/cluster.md). Same results as a local run.")(func)


class Jobs(click.ParamType):
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


JOBS = Jobs()


def write_text(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` safely (refimpl/util/files.py). Raises OSError."""
    from ..util.files import write_file

    write_file(path, text.encode("utf-8", "replace"))  # the renderers leave nothing to replace


def check_out_folder(folder: str | Path, option: str, given: str) -> None:
    """Exit 2, naming ``option`` and the ``given`` path, when the output ``folder`` cannot be one: a file stands
    there, or where one of its parent folders would go. Found before any work is done."""
    from ..util.files import dangling

    parent = Path(folder)
    while not parent.exists() and parent != parent.parent:
        said = dangling(parent)  # a dangling link: the kit makes nothing where it points
        if said is not None:
            fail(f"{option} {given}: {parent} is {said}")
        parent = parent.parent
    if parent.exists() and not parent.is_dir():
        what = "a file" if parent.is_file() else "not a folder (a FIFO, a device or a socket)"
        fail(f"{option} {given}: {parent} is {what}, where a folder is due")


def reproducer_folder(path: str) -> Any:
    """The reproducer folder: the kit writes ``explore-*.yaml`` there and replaces only the ones it wrote."""
    from ..util.files import OwnedFolder

    return OwnedFolder(path, "reproducer traces (explore-*.yaml)",
                       lambda name: name.startswith("explore-") and name.endswith(".yaml"))



def check_report_paths(badge_dir: str | None, transcript_dir: str | None, reproducer_dir: str | None = None,
                       files: tuple[str | None, ...] = ()) -> None:
    """Before a run: refuse (exit 2) a badge, transcript or reproducer folder holding files of the kit's kind
    that the kit did not write, and a report file that is a folder or a dangling link, so nothing of the user's
    is replaced, nothing is made where a link points, and no run is wasted."""
    from ..reports import badges, transcript
    from ..util import yamlsafe
    from ..util.files import dangling

    for path in files:
        if path and path != "-":
            said = dangling(path)
            if said is not None:
                fail(f"cannot write {path}: {said}")
            if Path(path).is_dir():
                fail(f"cannot write {path}: a folder, not a file")

    for where, owned in ((badge_dir, badges.folder), (transcript_dir, transcript.folder),
                         (reproducer_dir, reproducer_folder)):
        if where:
            try:
                owned(where).check()
            except OSError as exc:
                fail(f"cannot write {where}: {yamlsafe.os_reason(exc)}")


def append_nonblocking(path: str, text: str) -> None:
    """Append ``text`` to the file at ``path`` (made if missing), never waiting: a FIFO no one reads fails at once
    (ENXIO) instead of holding the run after its verdict. Raises OSError."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NONBLOCK", 0), 0o666)
    with os.fdopen(fd, "a", encoding="utf-8") as out:
        out.write(text)
