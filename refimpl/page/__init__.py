"""A web page as a build (issue 46): the kit speaks the protocol to a page through its in-page contract,
``window.refimpl.handle(request)``, in the system's headless Chromium.

The page is driven by a bridge process, ``python -m refimpl.page TARGET`` (bridge.py), which the kit starts as it
starts any build: it reads the protocol's JSON Lines on its standard input, hands each request to the page and
writes the page's answers, so every check, report, timeout and clean-up of a process build holds for a page (its
browser is one of the bridge's processes, ended with it). ``page_command`` writes that command; a local file or
folder is served by a static server on 127.0.0.1 for the run (server.py), and nothing outside the page's own
origin is fetched."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from urllib.parse import urlparse

from ..errors import KitError


class PageError(KitError):
    """A ``--page`` the kit cannot open: a path that does not exist, a folder without index.html, a URL of
    another scheme (exit 2)."""


def resolve(target: str) -> str:
    """``target`` as the bridge takes it: an http(s) URL as given, a local file or folder (``file://`` too) as
    an absolute path. Raises PageError."""
    parsed = urlparse(target)
    if parsed.scheme in ("http", "https"):
        if not parsed.netloc:
            raise PageError(f"--page {target}: a URL needs a host")
        return target
    if parsed.scheme == "file":
        target = parsed.path
    elif parsed.scheme and len(parsed.scheme) > 1:
        raise PageError(f"--page {target}: a page is a local file or folder, or an http(s) URL")
    path = Path(target).expanduser()
    if path.is_dir():
        if not (path / "index.html").is_file():
            raise PageError(f"--page {target}: the folder has no index.html (name the page's file)")
    elif not path.is_file():
        raise PageError(f"--page {target}: no such file or folder")
    return str(path.resolve())


def page_command(target: str, timeout: float) -> str:
    """The shell command of the bridge to the page ``target`` (resolved), whose first answer is due within
    ``timeout`` seconds: the page gets what is left of them once Chromium has started, and the bridge says why
    when it is not ready in time. Raises PageError."""
    return shlex.join([sys.executable, "-m", "refimpl.page", "--within", f"{timeout:g}", resolve(target)])


__all__ = ["PageError", "page_command", "resolve"]
