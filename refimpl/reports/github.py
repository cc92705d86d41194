"""A verify run as GitHub workflow annotations (``verify --format github``, and after the text report under GitHub
Actions): one per failure, broken check and unexpected pass, shown on the run and on the file."""

# No ``from __future__ import annotations`` here: it binds the name ``annotations``, this module's function, and
# type checkers then see the import's feature object where callers use the function.
from ..status import Status
from .model import Report
from .safetext import printable


def _escape(text: str, prop: bool = False) -> str:
    """GitHub's escaping of a workflow command's message (and property values), after the build's text in it is
    made printable: no raw control character (ESC, NUL, BEL, C1) reaches the log as itself."""
    text = printable(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if prop else text


def annotations(report: Report) -> str:
    """One GitHub workflow annotation (``::error file=F,line=L,title=T::message``) per failure, broken check and
    xpass: GitHub shows them on the run and on the file."""
    out = []
    for c in report.checks:
        if c.status not in (Status.FAILED, Status.BROKE, Status.XPASS):
            continue
        f = c.failure
        where = ""
        if f is not None and f.file:
            where = f"file={_escape(f.file, True)}" + (f",line={f.line}" if f.line else "")
        title = _escape(f"{c.status} {c.kind} {c.name} [{', '.join(c.credited)}]", True)
        message = f.message if f is not None and f.message else c.detail
        out.append(f"::error {where + ',' if where else ''}title={title}::{_escape(message or c.status)}")
    return "\n".join(out) + ("\n" if out else "")
