"""Keep track of every process a run starts, and end them all however the run ends.

A build runs in its own process group, but what it starts may leave the group or the session (``setsid``,
a daemon), clear its environment (``env -i``), and a job of a parallel campaign can be killed before it
closes its own builds. Each build is therefore kept in a ``Box``, the strongest one the machine allows:

1. **cgroup** (Linux with cgroup v2, where the kit may make a cgroup below its own, as root in most
   containers): the build joins a cgroup of its own before it runs, and every process it ever starts stays
   in it, whatever it does; ending the build ends the cgroup's processes (``cgroup.kill`` where the kernel
   has it) and removes the cgroup.
2. **subreaper** (any other Linux): the build's first process is made a child subreaper
   (``PR_SET_CHILD_SUBREAPER``), so a descendant whose parent exits is adopted by the build, not by init,
   and is found among the build's descendants while the build runs.
3. **tag** (everywhere, macOS included, and on top of the two above): every process the kit starts carries
   a tag in its environment, which its children inherit: each build its own (``REFIMPL_BUILD_TAG``), and each
   run of a command a list (``REFIMPL_RUN_TAGS``, one more per nested run), found with psutil.

Ending a build or a run signals its process group, the box's processes and every process whose environment
carries its tag, SIGTERM first and SIGKILL after a grace period. What escapes: on macOS a process that both
leaves the group and clears its environment; under the subreaper, such a process once the build's first
process has exited.

``scope()`` wraps a command: on a normal end, an error, Ctrl-C or SIGTERM (turned into ``Terminated``)
everything started inside it is ended before the command returns.
"""

from __future__ import annotations

import errno
import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psutil

BUILD_TAG = "REFIMPL_BUILD_TAG"
RUN_TAGS = "REFIMPL_RUN_TAGS"
ISOLATE = "REFIMPL_ISOLATE_ENV"  # "1" (verify --isolate-env, fuzz --isolate-env): builds get ALLOWED_ENV alone
# What a build keeps of the kit's environment under --isolate-env: where programs are, who and where it runs,
# its language and time zone, its temporary folder (docs/verify.md "The environment a build gets").
ALLOWED_ENV = ("PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "LANG", "LANGUAGE", "TZ", "TMPDIR", "TEMP",
               "TMP", "SYSTEMROOT")


def build_environment(isolate: bool = False) -> dict[str, str]:
    """The environment a build starts with: the kit's whole environment, or, under ``REFIMPL_ISOLATE_ENV=1`` or
    ``isolate`` (a many-builds run), ALLOWED_ENV and the locale's LC_* alone (no tokens, no CI file-command
    paths); the kit's tags are added by the caller."""
    if not isolate and os.environ.get(ISOLATE) != "1":
        return dict(os.environ)
    return {k: v for k, v in os.environ.items() if k in ALLOWED_ENV or k.startswith("LC_") or k == RUN_TAGS}
GRACE = 1.0  # seconds between SIGTERM and SIGKILL


class Terminated(KeyboardInterrupt):
    """The run got SIGTERM (a CI job cancelled): ends the run like Ctrl-C, with exit 143."""


def new_tag() -> str:
    return f"{os.getpid()}-{secrets.token_hex(6)}"


def _tagged_by(proc: psutil.Process, name: str, tag: str) -> bool:
    try:
        value = proc.environ().get(name)
        return bool(value and tag in value.split(":") and proc.status() != psutil.STATUS_ZOMBIE)
    except (psutil.Error, OSError):  # gone, a zombie, or another user's: not ours to end
        return False


def tagged(name: str, tag: str) -> list[int]:
    """Live processes (not this one) whose environment carries ``tag`` under ``name``."""
    me = os.getpid()
    return [proc.pid for proc in psutil.process_iter() if proc.pid != me and _tagged_by(proc, name, tag)]


# --- boxes -------------------------------------------------------------------------------------------------

def _load_prctl() -> Any:
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


_PRCTL = _load_prctl()  # loaded here: the child between fork and exec must not import
PR_SET_PDEATHSIG, PR_SET_CHILD_SUBREAPER = 1, 36
CGROUP_PREFIX = "refimpl-"


_GUARD_PIPES: set[int] = set()  # the write ends of the open watchdogs' pipes (Box.guard)


def _forget_guards() -> None:
    """In a process just forked from the kit (a ``--jobs`` worker): close its copies of the watchdogs' pipes, so
    that a watchdog reads the end when the kit closes its box or dies, not when the last worker does."""
    for fd in list(_GUARD_PIPES):
        try:
            os.close(fd)
        except OSError:
            pass
    _GUARD_PIPES.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_guards)


def killed_with_parent() -> bool:
    """Ask the kernel to SIGKILL this process when its parent ends, even by SIGKILL (Linux's parent-death
    signal); False where there is none (then the caller watches its parent itself: executor.die_with)."""
    if _PRCTL is None:
        return False
    return bool(_PRCTL(PR_SET_PDEATHSIG, signal.SIGKILL) == 0)


def _cgroup_base() -> Path | None:
    """The kit's own cgroup v2 folder, where it may make a child cgroup; None when there is none to use."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        own = next((line[3:].strip() for line in Path("/proc/self/cgroup").read_text().splitlines()
                    if line.startswith("0::")), None)
        mount = next((fields[4] for fields in (line.split() for line in Path("/proc/self/mountinfo").read_text()
                                                .splitlines())
                      if "-" in fields and fields[fields.index("-") + 1] == "cgroup2"), None)
    except OSError:
        return None
    if own is None or mount is None:
        return None
    base = Path(mount) / own.lstrip("/")
    return base if os.access(base, os.W_OK) else None


_BASE: Path | None | bool = False  # worked out once: False not yet, None no cgroup to use


def _base() -> Path | None:
    global _BASE
    if _BASE is False:
        _BASE = _cgroup_base()
        if _BASE is not None:
            _sweep(_BASE)
    return _BASE  # type: ignore[return-value]  # no longer False once worked out


def _sweep(base: Path) -> None:
    """Remove the empty cgroups of earlier kit processes that are gone (a kit killed with SIGKILL)."""
    try:
        entries = [e for e in base.iterdir() if e.name.startswith(CGROUP_PREFIX)]
    except OSError:
        return
    for entry in entries:
        owner = entry.name[len(CGROUP_PREFIX):].split("-", 1)[0]
        if owner.isdigit() and not psutil.pid_exists(int(owner)):
            try:
                entry.rmdir()
            except OSError:
                pass


class Box:
    """Where one build's processes are kept (see the module docstring); ``kind`` says which box it got:
    ``cgroup``, ``subreaper`` or ``tag``."""

    def __init__(self, tag: str) -> None:
        self.cgroup: Path | None = None
        weakest = os.environ.get("REFIMPL_BOX", "")  # "subreaper" or "tag": a weaker box, to test the fallbacks
        base = _base() if weakest not in ("subreaper", "tag") else None
        if base is not None:
            try:
                path = base / f"{CGROUP_PREFIX}{tag}"
                path.mkdir()
                if os.access(path / "cgroup.procs", os.W_OK):
                    self.cgroup = path
                else:
                    path.rmdir()
            except OSError:
                self.cgroup = None
        self._procs = os.fspath(self.cgroup / "cgroup.procs") if self.cgroup is not None else None
        self._reaper = _PRCTL is not None and weakest != "tag"
        self.kind = "cgroup" if self.cgroup is not None else "subreaper" if self._reaper else "tag"
        self.root: int | None = None  # the build's first process, once started
        self._known: dict[int, float] = {}  # descendants seen (pid -> start time, so a reused pid is not one)
        self._watchdog: Any = None  # the process that ends the build if the kit dies (guard)

    def preexec(self) -> None:
        """In the build's child process before exec (no imports here): be killed if the kit dies (Linux, even
        by SIGKILL), become a subreaper, and join the box's cgroup."""
        if _PRCTL is not None:
            _PRCTL(PR_SET_PDEATHSIG, signal.SIGKILL)
        if self._reaper:
            _PRCTL(PR_SET_CHILD_SUBREAPER, 1)
        if self._procs is not None:
            try:
                fd = os.open(self._procs, os.O_WRONLY)
                try:
                    os.write(fd, b"0")
                finally:
                    os.close(fd)
            except OSError:
                pass  # not allowed after all: the subreaper and the tag still hold

    def guard(self, pgid: int) -> None:
        """Start the build's watchdog: a shell that waits on a pipe only this process writes to, and when it
        reads the end (this process closed the box, or died, SIGKILL included), SIGKILLs the build's process
        group and its cgroup. The build's first process dies with the kit by itself (``preexec``), but what it
        started does not (``/bin/sh -c`` forks the command): a kit killed by its CI runner leaves no build
        running (issue 43). Nothing is guarded where no shell can be started."""
        cgroup = os.fspath(self.cgroup) if self.cgroup is not None else ""
        script = 'read _; kill -KILL -- "-$1" 2>/dev/null; [ -z "$2" ] || echo 1 > "$2/cgroup.kill" 2>/dev/null; :'
        try:
            self._watchdog = subprocess.Popen(["/bin/sh", "-c", script, "refimpl-watchdog", str(pgid), cgroup],
                                              stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                              stderr=subprocess.DEVNULL, start_new_session=True)
        except OSError:
            self._watchdog = None
            return
        _GUARD_PIPES.add(self._watchdog.stdin.fileno())

    def _release(self) -> None:
        """End the watchdog: the pipe closed, it signals a group that has ended already, and exits."""
        dog, self._watchdog = self._watchdog, None
        if dog is None:
            return
        try:
            _GUARD_PIPES.discard(dog.stdin.fileno())
            dog.stdin.close()
            dog.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            dog.kill()
            dog.wait()

    def members(self) -> list[int]:
        """The live processes in the box: the cgroup's, and the descendants of the build's first process."""
        pids: set[int] = set()
        if self.cgroup is not None:
            try:
                pids.update(int(p) for p in (self.cgroup / "cgroup.procs").read_text().split())
            except (OSError, ValueError):
                pass
        self.remember()
        pids.update(pid for pid, born in self._known.items() if _alive(pid, born))
        pids.discard(os.getpid())
        return [p for p in pids if _alive(p)]

    def remember(self) -> None:
        """Note the build's descendants now (the subreaper keeps them below its first process only while that
        process lives): call it before the build is asked to quit."""
        if self.root is None or self.kind == "tag":
            return
        try:
            root = psutil.Process(self.root)
            for proc in [root, *root.children(recursive=True)]:
                self._known.setdefault(proc.pid, proc.create_time())
        except psutil.Error:
            pass

    def kill_all(self) -> None:
        """SIGKILL everything in the cgroup at once (``cgroup.kill``), where the kernel has it."""
        if self.cgroup is not None:
            try:
                (self.cgroup / "cgroup.kill").write_text("1")
            except OSError:
                pass

    def close(self) -> None:
        """End the watchdog and remove the cgroup (once empty; a few tries while the last processes are
        reaped)."""
        self._release()
        if self.cgroup is None:
            return
        for _ in range(50):
            try:
                self.cgroup.rmdir()
                break
            except OSError as exc:
                if exc.errno != errno.EBUSY:
                    break
                time.sleep(0.01)
        self.cgroup = None
        self._procs = None


def _alive(pid: int, born: float | None = None) -> bool:
    """Whether ``pid`` runs (not a zombie) and, with ``born``, is still the process that started then."""
    try:
        proc = psutil.Process(pid)
        return proc.status() != psutil.STATUS_ZOMBIE and (born is None or proc.create_time() == born)
    except psutil.Error:
        return False


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


def end(pgid: int | None, name: str, tag: str, grace: float = GRACE, box: Box | None = None) -> None:
    """End process group ``pgid``, every process in ``box`` and every process tagged ``tag``: SIGTERM, then
    SIGKILL after ``grace`` seconds for what is still there. Returns when none runs (or after a last SIGKILL)."""

    def left() -> tuple[list[int], bool]:
        pids = set(tagged(name, tag)) | set(box.members() if box is not None else ())
        return sorted(pids), pgid is not None and _group_alive(pgid)

    pids, group = left()
    if pids or group:
        _signal(pgid if group else None, pids, signal.SIGTERM)
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline:
            time.sleep(0.02)
            pids, group = left()
            if not pids and not group:
                break
        else:
            _kill(pgid, left, box)
    if box is not None:
        box.close()


def kill_now(pgid: int, name: str, tag: str, box: Box | None = None) -> None:
    """SIGKILL group ``pgid``, everything in ``box`` and everything tagged ``tag`` at once (a build that broke:
    no grace)."""

    def left() -> tuple[list[int], bool]:
        return sorted(set(tagged(name, tag)) | set(box.members() if box is not None else ())), _group_alive(pgid)

    _kill(pgid, left, box)
    if box is not None:
        box.close()


def _kill(pgid: int | None, left: Any, box: Box | None) -> None:
    for _ in range(50):
        pids, group = left()
        if not pids and not group:
            return
        if box is not None:
            box.kill_all()
        _signal(pgid if group else None, pids, signal.SIGKILL)
        time.sleep(0.01)


_asked: list[int] = []  # the signals that asked the run in this process to stop, not yet acknowledged


def _on_signal(signum: int, frame: object) -> None:
    _asked.append(signum)
    raise Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()


def _unraisable(hook: Any) -> Any:
    """An unraisable-exception hook that stays quiet about the interruption a signal asked for (raised inside a
    callback, where it cannot propagate: ``check_stop`` raises it again), and passes on everything else."""

    def quiet(unraisable: Any) -> None:
        if _asked and isinstance(unraisable.exc_value, KeyboardInterrupt):
            return
        hook(unraisable)
    return quiet


def check_stop() -> None:
    """Raise the interruption a signal asked for, once more. A signal handler's exception is lost when the
    signal arrives while a garbage-collector or weakref callback runs (Hypothesis registers gc callbacks), so
    loops that may run long call this between their steps."""
    if _asked:
        raise Terminated() if _asked[0] == signal.SIGTERM else KeyboardInterrupt()


def acknowledge() -> str | None:
    """The signal that interrupted the run (``SIGINT`` or ``SIGTERM``), forgotten from now on, so the code that
    reports an interruption can finish; None when no signal came."""
    if not _asked:
        return None
    name = "SIGTERM" if _asked[0] == signal.SIGTERM else "SIGINT"
    _asked.clear()
    return name


@contextmanager
def scope() -> Iterator[str]:
    """Run a command's work inside a tagged scope (see the module docstring); yields the run's tag.

    SIGTERM raises ``Terminated`` and SIGINT ``KeyboardInterrupt`` in the main thread while inside, so
    ``finally`` blocks run, and ``check_stop`` raises them again where a callback swallowed them; on leaving,
    every process started inside and still running is ended.
    """
    tag = new_tag()
    before = os.environ.get(RUN_TAGS)
    os.environ[RUN_TAGS] = f"{before}:{tag}" if before else tag
    previous: dict[signal.Signals, Any] = {}
    try:
        for signum in (signal.SIGTERM, signal.SIGINT):
            previous[signum] = signal.signal(signum, _on_signal)
    except ValueError:  # not the main thread
        pass
    _asked.clear()
    hook = sys.unraisablehook
    sys.unraisablehook = _unraisable(hook)
    try:
        yield tag
    finally:
        try:
            end(None, RUN_TAGS, tag)
        finally:
            sys.unraisablehook = hook
            if before is None:
                os.environ.pop(RUN_TAGS, None)
            else:
                os.environ[RUN_TAGS] = before
            for signum, handler in previous.items():
                signal.signal(signum, handler)
