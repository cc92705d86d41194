"""A page build's own screen beside a failure (issue 46): for the first failing checks of a ``--page`` run, the
page before and after the failing step, as PNG files, taken once the run is over by playing the check's requests
again on a fresh page (so the run itself pays nothing for them).

A check keeps its requests (its transcript, which ``verify`` keeps for a page build); the failing step is the
first of them that is the failure's request. The bridge (refimpl/page) takes each picture on its own request,
``x-refimpl-screenshot``, which never reaches the page."""

from __future__ import annotations

import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..harness.driver import BuildBroke
from ..harness.protocol import Build
from ..reports.model import Report
from ..status import Status
from ..util.files import OwnedFolder

SCREENSHOT = "x-refimpl-screenshot"
NOTES = "REFIMPL_PAGE_NOTES"  # the variable naming the file a page's bridge notes each refused request in
LIMIT = 5  # failing checks pictured at most


def notes_file(where: str | None = None) -> str:
    """A new empty file (in the folder ``where``, else the system's temporary one) the page's bridge notes each
    request it refused in (refimpl/page/bridge.py, through the NOTES variable)."""
    import os

    fd, path = tempfile.mkstemp(prefix="refimpl-page-notes-", suffix=".txt", dir=where)
    os.close(fd)
    return path


def refused(notes: str) -> list[str]:
    """The requests a page made outside its origin, as a report's warnings (at most ten, then how many more);
    the notes file removed."""
    import os

    try:
        with open(notes, encoding="utf-8", errors="replace") as f:
            urls = list(dict.fromkeys(line.strip() for line in f if line.strip()))
        os.unlink(notes)
    except OSError:
        return []
    out = [f"the page asked for {url}, outside its own origin: refused (nothing outside the page's origin is "
           f"fetched)" for url in urls[:10]]
    return out + ([f"... and {len(urls) - 10} more requests outside the page's origin, refused"]
                  if len(urls) > 10 else [])


def folder(path: str | Path) -> OwnedFolder:
    """The screenshots' folder: the kit writes ``*.png`` there and replaces only the ones it wrote."""
    return OwnedFolder(path, "page screenshots (*.png)", lambda name: name.endswith(".png"))


def _requests(transcript: tuple[dict[str, Any], ...]) -> list[dict[str, Any]]:
    """The requests of a transcript, without their ids (and without the hello a fresh page is greeted with)."""
    out = []
    for entry in transcript:
        request = entry.get("request")
        if isinstance(request, dict) and request.get("op") != "hello":
            out.append({k: v for k, v in request.items() if k != "id"})
    return out


def take(build: Build, report: Report, out: str | Path) -> list[Path]:
    """Picture the first LIMIT failing checks of ``report`` on the page ``build`` opens, into ``out``; each check
    pictured gets ``screens`` (before, after). Returns the files written. A page that breaks while pictured
    leaves that check without pictures. Raises OSError for a folder it may not write."""
    target = folder(out)
    target.check()
    shots: list[tuple[str, bytes]] = []
    with tempfile.TemporaryDirectory(prefix="refimpl-screens-") as scratch:
        for index, check in enumerate(report.checks):
            if len(shots) >= 2 * LIMIT:
                break
            if check.status != Status.FAILED or check.failure is None or not check.transcript:
                continue
            requests = _requests(check.transcript)
            if check.failure.request not in requests:
                continue
            k = requests.index(check.failure.request)
            names = (f"{index:03d}-before.png", f"{index:03d}-after.png")
            try:
                _picture(build, requests[:k], requests[k], [str(Path(scratch) / n) for n in names])
            except BuildBroke:
                continue
            shots += [(n, (Path(scratch) / n).read_bytes()) for n in names]
            report.checks[index] = replace(check, screens=tuple(str(target.path / n) for n in names))
    return target.replace_all(shots)


def _picture(build: Build, before: list[dict[str, Any]], step: dict[str, Any], paths: list[str]) -> None:
    """Play ``before`` on a fresh page, picture it, play ``step``, picture it again. Raises BuildBroke."""
    driver = build.start(pipeline=False)
    try:
        for body in before:
            driver.exchange(body)
        driver.exchange({"op": SCREENSHOT, "path": paths[0]})
        driver.exchange(step)
        driver.exchange({"op": SCREENSHOT, "path": paths[1]})
    finally:
        driver.close()
