"""A build as a child process (issue 44: process handling, in a module of its own): ``BuildProcess`` starts the
command in its own process group and box (processes.py), moves bytes to and from its pipes with ``select`` (so a
build that floods a pipe or stops reading can never block the kit), reads its answers as JSON Lines within the
protocol's limits, and kills everything it started on close."""

from __future__ import annotations

import json
import os
import re
import selectors
import subprocess
import time
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any

try:
    import resource

    _RLIMIT_DATA: int | None = resource.RLIMIT_DATA
except (ImportError, AttributeError):  # Windows: no resource limits
    _RLIMIT_DATA = None

from ..games import JSON
from ..util import jsonio
from . import processes
from .driver import BuildBroke
from .known import Known

MAX_LINE = 1 << 20  # bytes in one response line
SEND_CHUNK = 1 << 12  # bytes of pipelined requests written together
DEFAULT_TIMEOUT = 5.0
# Requests are written exactly as json.dumps(message, separators=(",", ":")) writes them (ASCII escapes, the
# standard float spelling, NaN), with one encoder made once rather than one per request.
_encode = json.JSONEncoder(separators=(",", ":")).encode


class BuildProcess:
    """One running build, driven from a single thread with ``select``.

    Requests wait in an output buffer and are written as the pipe accepts them; stdout is read into a
    line buffer and stderr into a bounded tail whenever the kit waits, so a build that floods either
    pipe, or stops reading, can never block the kit. ``receive`` raises BuildBroke when the build
    misbehaves.
    """

    def __init__(self, command: str, timeout: float = DEFAULT_TIMEOUT, cwd: str | None = None,
                 env: Mapping[str, str] | None = None, isolate: bool = False, memory: int | None = None) -> None:
        self.command, self.timeout = command, timeout
        self.tag = processes.new_tag()
        self.box = processes.Box(self.tag)
        self.memory = memory
        environment = {**processes.build_environment(isolate), **(env or {}), processes.BUILD_TAG: self.tag}
        try:
            self.proc = subprocess.Popen(["/bin/sh", "-c", command], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd,
                                         start_new_session=True, bufsize=0,
                                         env=environment,
                                         preexec_fn=self._preexec)
        except OSError as exc:
            self.box.close()
            raise BuildBroke("crashed-at-start", f"cannot run {command!r}: {exc}") from None
        self.box.root = self.proc.pid
        self.box.guard(self.proc.pid)  # its own session: the group is the build's first process's pid
        assert self.proc.stdin and self.proc.stdout and self.proc.stderr
        self._in, self._out, self._err = (self.proc.stdin.fileno(), self.proc.stdout.fileno(),
                                          self.proc.stderr.fileno())
        for fd in (self._in, self._out, self._err):
            os.set_blocking(fd, False)
        self._pending = bytearray()  # requests not yet taken by the build's stdin
        self._waiting = False  # the pipe took only part of them at the last try: the pump writes the rest
        self._ready: deque[bytes] = deque()  # whole lines read from stdout, not yet consumed
        self._lines = bytearray()  # the start of the next line (no newline yet)
        self._stderr: deque[bytes] = deque(maxlen=64)
        self._stderr_partial = b""
        self._out_eof = self._err_eof = self._in_closed = False
        self.broken = False
        self.cause = ""  # how it broke, once it has
        self._closed = False
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._out, selectors.EVENT_READ, "out")
        self._selector.register(self._err, selectors.EVENT_READ, "err")
        # Work the kit can do while it waits for an answer (the fuzzer draws its next case): called, a unit at a
        # time, whenever an answer is due and none has arrived and every request is written; returns False when
        # there is nothing left to do. Its time counts toward the answer's timeout like any other wait.
        self.idle: Callable[[], bool] | None = None

    def _preexec(self) -> None:
        """In the child before exec: the box's guards, then the memory bound (RLIMIT_DATA, which every process
        the build starts inherits; a platform without it keeps the time and output bounds alone)."""
        self.box.preexec()
        if self.memory is not None and _RLIMIT_DATA is not None:
            limit, hard = self.memory << 20, resource.getrlimit(_RLIMIT_DATA)[1]
            if hard != resource.RLIM_INFINITY:
                limit = min(limit, hard)  # never above what the kit itself may have
            resource.setrlimit(_RLIMIT_DATA, (limit, limit))

    # --- the pump ------------------------------------------------------------------------------
    def _watch_stdin(self) -> None:
        want = bool(self._pending) and not self._in_closed
        try:
            self._selector.get_key(self._in)
            if not want:
                self._selector.unregister(self._in)
        except KeyError:
            if want:
                self._selector.register(self._in, selectors.EVENT_WRITE, "in")

    def _write_some(self) -> None:
        try:
            written = os.write(self._in, self._pending)
        except BlockingIOError:
            self._waiting = True
            return
        except (BrokenPipeError, OSError):
            self._in_closed = True  # the build is gone; reading its stdout tells how
            self._pending.clear()
            self._waiting = False
            return
        del self._pending[:written]
        self._waiting = bool(self._pending)

    def _end_input(self) -> None:
        """Close the build's stdin (everything sent has been taken)."""
        self._in_closed = True
        self._watch_stdin()
        try:
            self.proc.stdin.close()  # type: ignore[union-attr]  # started with stdin=PIPE: never None
        except OSError:
            pass

    def _read(self, fd: int) -> bytes:
        try:
            return os.read(fd, 1 << 16)
        except BlockingIOError:
            return b"-"  # nothing after all; never taken for end of file
        except OSError:
            return b""

    def _pump(self, until: float) -> None:
        """Move bytes between the kit and the build until something arrives on stdout or ``until``."""
        while True:
            self._watch_stdin()
            left = until - time.monotonic()
            if left <= 0 or not self._selector.get_map():
                return
            for key, _ in self._selector.select(left):
                if key.data == "in":
                    self._write_some()
                    continue
                chunk = self._read(key.fd)
                if chunk == b"-":
                    continue
                if key.data == "out":
                    if chunk:
                        self._take(chunk)
                    else:
                        self._out_eof = True
                        self._selector.unregister(self._out)
                elif chunk:
                    self._keep_stderr(chunk)
                else:
                    self._err_eof = True
                    self._selector.unregister(self._err)
            if self._ready or self._out_eof or len(self._lines) > MAX_LINE:
                return

    def _take(self, chunk: bytes) -> None:
        """Add what stdout gave: whole lines to the ready queue, the rest to the partial line."""
        if b"\n" not in chunk:
            self._lines += chunk
            return
        first, *rest = chunk.split(b"\n")
        self._lines += first
        self._ready.append(bytes(self._lines))
        self._lines = bytearray(rest.pop())
        self._ready.extend(rest)

    def _read_ready(self) -> bool:
        """Read stdout at once when it has something (one system call where ``select`` and a read take two).
        Only while no request waits to be written, so the build is never kept waiting for its input."""
        if self._pending or self._out_eof:
            return False
        chunk = self._read(self._out)
        if chunk == b"-":
            return False
        if chunk:
            self._take(chunk)
        else:
            self._out_eof = True
            self._selector.unregister(self._out)
        return True

    def _read_stderr(self) -> None:
        """Read what stderr has now, without waiting."""
        if self._err_eof:
            return
        chunk = self._read(self._err)
        if chunk == b"-":
            return
        if chunk:
            self._keep_stderr(chunk)
        else:
            self._err_eof = True
            self._selector.unregister(self._err)

    def _keep_stderr(self, chunk: bytes) -> None:
        lines = (self._stderr_partial + chunk).split(b"\n")
        self._stderr_partial = lines.pop()[-4096:]
        self._stderr.extend(line[:4096] for line in lines)

    def stderr_tail(self, lines: int = 20) -> str:
        raw = list(self._stderr) + ([self._stderr_partial] if self._stderr_partial else [])
        text = [b.decode("utf-8", "replace") for b in raw[-lines:]]
        return "\n".join(t if len(t) <= 240 else t[:240] + "…" for t in text)

    # --- talking -------------------------------------------------------------------------------
    def send(self, message: Mapping[str, JSON], more: bool = False) -> None:
        """Queue one request and write it, or, when ``more`` follow at once, write once SEND_CHUNK bytes are
        queued (a write costs a system call, and wakes the build for one line)."""
        self.send_text(_encode(message).encode(), more)

    def send_text(self, text: bytes, more: bool = False) -> None:
        """``send`` of a request already written as JSON (one line, without its newline)."""
        waiting = self._waiting  # the pipe was full at the last try: the pump writes when it has room
        self._pending += text + b"\n"
        if not self._in_closed and not waiting and not (more and len(self._pending) < SEND_CHUNK):
            self._write_some()

    def flush(self) -> None:
        """Write what ``send(..., more=True)`` left queued (as much as the pipe takes; the pump writes the rest)."""
        if self._pending and not self._in_closed and not self._waiting:
            self._write_some()

    def _broke(self, cause: str, message: str) -> BuildBroke:
        """A BuildBroke for this build; the stream is out of step from now on."""
        self.broken = True
        self.cause = cause
        return BuildBroke(cause, message, self.stderr_tail())

    def _next_line(self, expected_id: int) -> bytes:
        deadline = time.monotonic() + self.timeout
        processes.check_stop()
        while True:
            if self._ready:
                line = self._ready.popleft()
                if len(line) > MAX_LINE:
                    break
                return line
            if len(self._lines) > MAX_LINE:
                break
            if self._out_eof:
                if self._lines:
                    raise self._broke("partial-line", f"output ended in the middle of a line: {_clip(self._lines)}")
                code = self._wait_exit(1.0)
                if code is None:
                    raise self._broke("closed-output", f"the build closed its output before answering request "
                                      f"{expected_id}, and is still running")
                raise self._broke("exited", f"the build closed its output before answering request "
                                  f"{expected_id} (exit status {code})")
            if self._read_ready():
                continue
            if self.idle is not None and not self._pending and time.monotonic() < deadline:
                self._read_stderr()  # (a build that fills its stderr pipe waits for the kit to read it)
                if self.idle():
                    continue
            if time.monotonic() >= deadline:
                code = self.proc.poll()
                if code is not None:  # the build's own process is gone; something it started holds the pipe
                    raise self._broke("exited", f"the build exited (status {code}) and nothing answered request "
                                      f"{expected_id} within {self.timeout:g} s (a process it started still "
                                      f"holds its output open)")
                raise self._broke("hung", f"no answer to request {expected_id} within {self.timeout:g} s")
            self._pump(deadline)
        raise self._broke("line-too-long", f"a response line longer than {MAX_LINE} bytes")

    def _wait_exit(self, grace: float) -> int | None:
        """The build's exit status, reading what it still says on stderr meanwhile (its last words)."""
        deadline = time.monotonic() + grace
        while not self._err_eof and time.monotonic() < deadline:
            self._pump(deadline)
        try:
            return self.proc.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            return None

    def receive(self, expected_id: int, known: Known | None = None) -> dict[str, JSON]:
        """The next response, checked against the protocol. ``known``: a line the caller expects and the
        message it stands for (a valid one), which is returned as it is, unread, when the line is exactly it.
        Raises BuildBroke."""
        if self._closed:
            raise BuildBroke("closed", f"the kit closed the build before reading answer {expected_id}")
        line = self._next_line(expected_id)
        if known is not None and known.answers(line):
            return known.message
        try:
            message = jsonio.loads(line)
        except RecursionError:
            raise self._broke("bad-response", f"response {expected_id} is JSON nested too deeply to read: "
                              f"{_clip(line)}") from None
        except ValueError:
            raise self._broke("not-json", f"printed a line that is not JSON: {_clip(line)}") from None
        if not isinstance(message, dict):
            raise self._broke("not-json", f"printed JSON that is not an object: {_clip(line)}")
        if message.get("id") != expected_id:
            raise self._broke("bad-response", f"answered id {_short(message.get('id'))} "
                              f"where {expected_id} was due")
        if not response_is_valid(message):
            raise self._broke("bad-response", f"response {expected_id} breaks the protocol: "
                              f"{response_problem(message)} ({_clip(line)})")
        return message

    def close(self, quit_id: int | None = None) -> None:
        """Ask the build to quit (when it is still in step), then kill its whole process group. Closing
        twice does nothing more."""
        if self._closed:
            return
        self._closed = True
        self.box.remember()  # the build's descendants, while its first process still holds them
        if quit_id is not None and self.proc.poll() is None and not self.broken:
            self.send({"id": quit_id, "op": "quit"})
            deadline = time.monotonic() + 2
            while self.proc.poll() is None and time.monotonic() < deadline and not self._out_eof:
                if not self._pending and not self._in_closed:
                    self._end_input()  # a build that reads until end of input ends here too
                self._pump(deadline)
                self._lines.clear()
                self._ready.clear()
        if self.proc.poll() is None or self.broken:
            processes.kill_now(self.proc.pid, processes.BUILD_TAG, self.tag, self.box)
        else:  # it quit as asked: end only what it left behind
            processes.end(self.proc.pid, processes.BUILD_TAG, self.tag, box=self.box)
        try:
            self.proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            pass
        self._selector.close()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                if stream:
                    stream.close()
            except OSError:
                pass


_CODE = re.compile(r"^[a-z][a-z0-9-]*$")
_ERRORS = {"unsupported", "no-game", "bad-request", "unknown-op"}


def response_is_valid(m: Mapping[str, Any]) -> bool:
    """The protocol schema's ``response`` rule, written out by hand because it runs on every message
    (jsonschema costs ~300 µs a message, this ~1 µs); tests/test_protocol.py checks that both agree.
    What each op's answer must hold (a state, a list of actions) is checked where the op is known."""
    rid, ok = m.get("id"), m.get("ok")
    if ok is True:
        return type(rid) is int and rid >= 0
    if ok is not False:
        return False
    if "rejected" in m and type(rid) is int and rid >= 0:
        rej = m["rejected"]
        if isinstance(rej, dict) and isinstance(rej.get("code"), str) and _CODE.match(rej["code"]) \
                and isinstance(rej.get("message", ""), str):
            return True
    if "error" in m and (rid is None or (type(rid) is int and rid >= 0)):
        err = m["error"]
        return isinstance(err, dict) and err.get("code") in _ERRORS and isinstance(err.get("message", ""), str)
    return False


def response_problem(m: Mapping[str, Any]) -> str:
    """What makes ``m`` not a response of the protocol, in a few words naming the field."""
    if "ok" not in m:
        return "the response has no 'ok' field"
    ok = m["ok"]
    if type(ok) is not bool:
        return f"'ok' is {_short(ok)}, not true or false"
    rid = m.get("id")
    if ok is True or "rejected" in m:
        if not (type(rid) is int and rid >= 0):
            return f"'id' is {_short(rid)}, not a request's id"
    if ok is True:
        return "not a response of protocol 1"
    if "rejected" in m:
        rej = m["rejected"]
        if not isinstance(rej, dict) or not isinstance(rej.get("code"), str):
            return "'rejected' is not an object with a 'code'"
        if not _CODE.match(rej["code"]):
            return f"the rejection code {_short(rej['code'])} is not a lowercase word (a-z, 0-9, -)"
        return "'rejected.message' is not a string"
    if "error" in m:
        err = m["error"]
        if not isinstance(err, dict) or "code" not in err:
            return "'error' is not an object with a 'code'"
        if err.get("code") not in _ERRORS:
            return f"the error code {_short(err.get('code'))} is not one of {', '.join(sorted(_ERRORS))}"
        return "'error.message' is not a string"
    return "'ok' is false but there is neither 'rejected' nor 'error'"


def _short(value: Any, size: int = 40) -> str:
    """A JSON value the build sent, as JSON, cut short."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= size else text[:size] + "…"


def _clip(line: bytes | bytearray, size: int = 120) -> str:
    text = line.decode("utf-8", "replace").rstrip("\n")
    return repr(text if len(text) <= size else text[:size] + "…")
