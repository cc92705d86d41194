"""A verify run as GitHub workflow annotations (``verify --format github``, and after the text report under GitHub
Actions): one per failure, broken check and unexpected pass, shown on the run and on the file."""

# No ``from __future__ import annotations`` here: it binds the name ``annotations``, this module's function, and
# type checkers then see the import's feature object where callers use the function.
import os

from ..status import Status
from .model import Report
from .safetext import printable


def _escape(text: str, prop: bool = False) -> str:
    """GitHub's escaping of a workflow command's message (and property values), after the build's text in it is
    made printable: no raw control character (ESC, NUL, BEL, C1) reaches the log as itself."""
    text = printable(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if prop else text


MAX_ERRORS = 10  # error annotations GitHub shows for one step; the rest are counted in one notice


def annotations(report: Report) -> str:
    """One GitHub workflow annotation (``::error file=F,line=L,title=T::message``) per failure, broken check and
    xpass, the likeliest first cause first (reports.text.likeliest_first): GitHub shows MAX_ERRORS of a step, so
    past them one notice says how many more there are and where they are listed. ``file=`` names a file only
    where it exists under the working folder (a user's own trace): a bundled trace of the kit is not in the
    user's repository, where GitHub would drop the annotation, so its place stays in the message and the
    annotation goes on the build command's file (``command_file``), where there is one."""
    from .text import likeliest_first

    bad = likeliest_first([c for c in report.checks if c.status in (Status.FAILED, Status.BROKE, Status.XPASS)])
    out = []
    build_file = command_file(report.command)
    for c in bad[:MAX_ERRORS]:
        f = c.failure
        where = ""
        if f is not None and f.file and in_working_folder(f.file):
            where = f"file={_escape(f.file, True)}" + (f",line={f.line}" if f.line else "")
        elif build_file is not None:  # a bundled check: the annotation goes on the build it judged
            where = f"file={_escape(build_file, True)}"
        title = _escape(f"{c.status} {c.kind} {c.name} [{', '.join(c.credited)}]", True)
        message = f.message if f is not None and f.message else c.detail
        out.append(f"::error {where + ',' if where else ''}title={title}::{_escape(message or c.status)}")
    if len(bad) > MAX_ERRORS:
        out.append(f"::notice title={_escape('refimpl verify', True)}::{len(bad) - MAX_ERRORS} more failures than "
                   f"the {MAX_ERRORS} annotated: the text report above and the JSON and JUnit reports list them all")
    return "\n".join(out) + ("\n" if out else "")


def command_file(command: str) -> str | None:
    """The first word of a build command that is a file under the working folder (``adapter/main.js`` of
    ``node adapter/main.js``): where an annotation of a bundled check goes, so GitHub shows it on the user's
    build rather than dropping it. None when no word is."""
    import shlex

    try:
        words = shlex.split(command)
    except ValueError:
        return None
    return next((w for w in words if not w.startswith("-") and in_working_folder(w)), None)


def in_working_folder(path: str) -> bool:
    """Whether ``path`` is a file inside the working folder (where GitHub resolves an annotation's file)."""
    try:
        return os.path.isfile(path) and not os.path.relpath(path).startswith("..")
    except ValueError:  # another drive (Windows)
        return False
