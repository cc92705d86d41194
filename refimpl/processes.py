"""Keep track of every process a run starts, and end them all however the run ends.

A build runs in its own process group, but what it starts may leave the group or the session (``setsid``,
a daemon), and a job of a parallel campaign can be killed before it closes its own builds. So every
process the kit starts carries a tag in its environment, which its children inherit: each build its own
(``REFIMPL_BUILD_TAG``), and each run of a command a list (``REFIMPL_RUN_TAGS``, one more per nested
run). Ending a build or a run kills its process group and then every process whose environment carries
its tag, wherever it moved, SIGTERM first and SIGKILL after a grace period. Processes are found with psutil,
so this holds on Linux and macOS alike (a process that clears its environment, ``env -i``, escapes the scan).

``scope()`` wraps a command: on a normal end, an error, Ctrl-C or SIGTERM (turned into ``Terminated``)
everything started inside it is ended before the command returns.
"""

from __future__ import annotations

import os
import secrets
import signal
import time
from contextlib import contextmanager
from typing import Iterator

import psutil

BUILD_TAG = "REFIMPL_BUILD_TAG"
RUN_TAGS = "REFIMPL_RUN_TAGS"
GRACE = 1.0  # seconds between SIGTERM and SIGKILL


class Terminated(KeyboardInterrupt):
    """The run got SIGTERM (a CI job cancelled): ends the run like Ctrl-C, with exit 143."""


def new_tag() -> str:
    return f"{os.getpid()}-{secrets.token_hex(6)}"


def _tagged_by(proc: psutil.Process, name: str, tag: str) -> bool:
    try:
        value = proc.environ().get(name)
        return bool(value) and tag in value.split(":") and proc.status() != psutil.STATUS_ZOMBIE
    except (psutil.Error, OSError):  # gone, a zombie, or another user's: not ours to end
        return False


def tagged(name: str, tag: str) -> list[int]:
    """Live processes (not this one) whose environment carries ``tag`` under ``name``."""
    me = os.getpid()
    return [proc.pid for proc in psutil.process_iter() if proc.pid != me and _tagged_by(proc, name, tag)]


def _group_alive(pgid: int) -> bool:
    """Whether a process of group ``pgid`` still runs (a zombie does not count)."""
    for proc in psutil.process_iter():
        try:
            if os.getpgid(proc.pid) == pgid and proc.status() != psutil.STATUS_ZOMBIE:
                return True
        except (psutil.Error, OSError):
            continue
    return False


def _signal(pgid: int | None, pids: list[int], sig: int) -> None:
    if pgid is not None:
        try:
            os.killpg(pgid, sig)
        except (ProcessLookupError, PermissionError):
            pass
    for pid in pids:
        try:
            os.kill(pid, sig)
        except (ProcessLookupError, PermissionError):
            pass


def end(pgid: int | None, name: str, tag: str, grace: float = GRACE) -> None:
    """End process group ``pgid`` and every process tagged ``tag``: SIGTERM, then SIGKILL after ``grace``
    seconds for what is still there. Returns when none runs (or after a last SIGKILL)."""
    pids = tagged(name, tag)
    group = pgid is not None and _group_alive(pgid)
    if not pids and not group:
        return
    _signal(pgid if group else None, pids, signal.SIGTERM)
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        time.sleep(0.02)
        pids = tagged(name, tag)
        group = pgid is not None and _group_alive(pgid)
        if not pids and not group:
            return
    for _ in range(50):
        _signal(pgid if group else None, pids, signal.SIGKILL)
        time.sleep(0.01)
        pids = tagged(name, tag)
        group = pgid is not None and _group_alive(pgid)
        if not pids and not group:
            return


def kill_now(pgid: int, name: str, tag: str) -> None:
    """SIGKILL group ``pgid`` and everything tagged ``tag`` at once (a build that broke: no grace)."""
    for _ in range(50):
        pids = tagged(name, tag)
        group = _group_alive(pgid)
        if not pids and not group:
            return
        _signal(pgid if group else None, pids, signal.SIGKILL)
        time.sleep(0.01)


def _on_sigterm(signum: int, frame: object) -> None:
    raise Terminated()


@contextmanager
def scope() -> Iterator[str]:
    """Run a command's work inside a tagged scope (see the module docstring); yields the run's tag.

    SIGTERM raises ``Terminated`` in the main thread while inside, so ``finally`` blocks run as for
    Ctrl-C; on leaving, every process started inside and still running is ended.
    """
    tag = new_tag()
    before = os.environ.get(RUN_TAGS)
    os.environ[RUN_TAGS] = f"{before}:{tag}" if before else tag
    try:
        previous = signal.signal(signal.SIGTERM, _on_sigterm)
    except ValueError:  # not the main thread
        previous = None
    try:
        yield tag
    finally:
        try:
            end(None, RUN_TAGS, tag)
        finally:
            if before is None:
                os.environ.pop(RUN_TAGS, None)
            else:
                os.environ[RUN_TAGS] = before
            if previous is not None:
                signal.signal(signal.SIGTERM, previous)
