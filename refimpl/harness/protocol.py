"""The kit's side of the build protocol (specs/protocol.md): start a build, speak JSON Lines, judge it.

``BuildProcess`` owns the child process: it starts the command in its own process group, moves bytes
to and from its pipes with ``select`` (so a build that floods a pipe or stops reading can never block
the kit), and kills the whole group on close. ``ProtocolDriver`` is a Driver on top of it; its
``batch`` pipelines requests ahead of reading the answers.
"""

from __future__ import annotations

import json
import os
import re
import selectors
import subprocess
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from importlib import resources
from typing import Any

import jsonschema

from .. import PROTOCOL_VERSION
from ..games import JSON
from ..util import jsonio
from . import processes, recording
from .chance import CAPABILITY, Rewriter
from .driver import (
    BadAnswer,
    BuildBroke,
    CallsByBatch,
    Op,
    Outcome,
    Refused,
    Rejected,
    answer_key,
    default_ruleset,
    outcome,
    request,
)

MAX_LINE = 1 << 20  # bytes in one response line
SEND_CHUNK = 1 << 12  # bytes of pipelined requests written together
WINDOW = 1024  # pipelined requests in flight at most (their planned checks wait in memory for the answers)
# Requests are written exactly as json.dumps(message, separators=(",", ":")) writes them (ASCII escapes, the
# standard float spelling, NaN), with one encoder made once rather than one per request.
_encode = json.JSONEncoder(separators=(",", ":")).encode
_FIXED = frozenset({"view", "legal", "restart", "stats"})  # ops whose request is the same every time but for its id
DEFAULT_TIMEOUT = 5.0
_SCHEMA = json.loads(resources.files("refimpl").joinpath("schemas", "protocol-v1.schema.json").read_text())
_HELLO = jsonschema.Draft202012Validator({**_SCHEMA, "$ref": "#/$defs/helloResponse"})


class Known:
    """An answer the kit knows before the build gives it (``_known``): the line, the message it is, and its
    outcome; ``any_order``: a legal list that the same actions in another order answer as well."""

    __slots__ = ("line", "message", "answer", "any_order")

    def __init__(self, line: bytes, message: dict[str, JSON], answer: Outcome, any_order: bool) -> None:
        self.line, self.message, self.answer, self.any_order = line, message, answer, any_order

    def answers(self, line: bytes) -> bool:
        """Whether the build's ``line`` is this answer: byte for byte, or, for a legal list, the same actions
        byte for byte in another order, as many times each (lists are compared as multisets). A line that is
        ``[{`` + actions joined by ``},{`` + ``}]`` where each action is one of the reference's reads as exactly
        those actions, in that order."""
        if line == self.line:
            return True
        if not self.any_order or len(line) != len(self.line) or set(map(type, self.message["actions"])) != {dict}:
            return False  # (a list of objects only: a non-object beside a "},{" in a string could pass the count)
        ours = self.line
        head = ours.index(b"[") + 2  # past the list's opening and its first action's brace
        if line[:head] != ours[:head] or line[-3:] != b"}]}":
            return False
        mine, theirs = ours[head:-3].split(b"},{"), line[head:-3].split(b"},{")
        if len(mine) != len(self.message["actions"]) or len(theirs) != len(mine):  # (a "},{" within an action)
            return False
        distinct = set(mine)
        if len(distinct) == len(mine):
            return distinct == set(theirs)
        return sorted(mine) == sorted(theirs)


def _known(op: Op, rid: int, answer: Outcome, any_order: bool = True) -> Known | None:
    """The line the reference's own ``serve`` writes for request ``rid`` when its answer to ``op`` is the
    accepted ``answer`` (orjson's compact text, the id first), the message that line is, and ``answer``; None
    for a refusal or a value orjson cannot write. ``any_order``: a legal list in another order is taken too.

    A build that writes those very bytes gave that very answer: orjson writes every value its own way, but
    NaN and the infinities as ``null``, and the reference's answers hold no float (seeds and set-ups are
    checked, the engines count in integers: tests/test_fuzz.py walks the answers to drawn cases)."""
    if jsonio.orjson is None or isinstance(answer, (Rejected, Refused)):
        return None
    key = answer_key(op)
    try:
        text = jsonio.orjson.dumps(answer)
    except TypeError:
        return None
    line = b'{"id":%d,"ok":true,"%s":%s}' % (rid, key.encode(), text)
    return Known(line, {"id": rid, "ok": True, key: answer}, answer,
                 any_order and key == "actions" and len(text) > 2)


class BuildProcess:
    """One running build, driven from a single thread with ``select``.

    Requests wait in an output buffer and are written as the pipe accepts them; stdout is read into a
    line buffer and stderr into a bounded tail whenever the kit waits, so a build that floods either
    pipe, or stops reading, can never block the kit. ``receive`` raises BuildBroke when the build
    misbehaves.
    """

    def __init__(self, command: str, timeout: float = DEFAULT_TIMEOUT, cwd: str | None = None) -> None:
        self.command, self.timeout = command, timeout
        self.tag = processes.new_tag()
        self.box = processes.Box(self.tag)
        try:
            self.proc = subprocess.Popen(["/bin/sh", "-c", command], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd,
                                         start_new_session=True, bufsize=0,
                                         env={**processes.build_environment(), processes.BUILD_TAG: self.tag},
                                         preexec_fn=self.box.preexec)
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


class ProtocolDriver(CallsByBatch):
    """A Driver for an outside build: one process, spoken to over the protocol.

    Raises BuildBroke when the build misbehaves (from any method); a single call that the build refuses
    (``start`` of a game it did not declare...) raises DriverError.
    """

    def __init__(self, command: str, timeout: float = DEFAULT_TIMEOUT, pipeline: bool = True,
                 transcript: list[dict[str, JSON]] | None = None) -> None:
        self.command, self.timeout, self.pipeline = command, timeout, pipeline
        self.transcript = transcript  # every exchange from the hello on (see CallsByBatch)
        self._noted: tuple[Any, int] = (None, 0)  # (the transcript list, bytes noted in it): _note's bound
        self._next_id = 0
        self._fixed: dict[Op, bytes] = {}  # op -> its request as written, less the id (_send)
        self.process = BuildProcess(command, timeout)
        try:
            hello = self._call({"op": "hello", "protocol": PROTOCOL_VERSION})
        except BuildBroke as exc:
            self.process.close()
            if exc.cause == "hung":
                exc.cause = "hung-at-start"
            elif exc.cause in ("exited", "closed-output"):
                exc.cause = "crashed-at-start"
            raise
        problem = next(iter(_HELLO.iter_errors(hello)), None) if hello.get("ok") else None
        if problem is not None and hello.get("protocol") == PROTOCOL_VERSION:
            self.process.close()
            raise BuildBroke("bad-response", f"the answer to hello breaks the protocol schema: {problem.message}",
                             self.process.stderr_tail())
        if hello.get("protocol") != PROTOCOL_VERSION or not hello.get("ok"):
            self.process.close()
            raise BuildBroke("wrong-protocol", f"the build speaks protocol {hello.get('protocol')!r}; "
                             f"the kit speaks {PROTOCOL_VERSION}", self.process.stderr_tail())
        self.hello = ({"id": 0, "op": "hello", "protocol": PROTOCOL_VERSION}, hello)  # for transcripts
        self.name = str(hello["build"].get("name", command))
        self.version = str(hello["build"].get("version", ""))
        self.games: dict[str, list[str]] = hello["games"]
        self.capabilities: set[str] = set(hello["capabilities"])
        self.lists_legal = "legal" in self.capabilities
        # A build with its own random source is sent every chance outcome explicitly (refimpl/harness/chance.py).
        self.explicit_chance = Rewriter() if CAPABILITY in self.capabilities else None

    # --- plumbing ------------------------------------------------------------------------------
    def _request(self, body: Mapping[str, JSON], more: bool = False) -> int:
        rid = self._next_id
        self._next_id += 1
        message = {"id": rid, **body}
        self._note({"request": message})
        self.process.send(message, more)
        return rid

    def _send(self, op: Op, more: bool = False) -> int:
        """Send the request for ``op`` (``_request``). The requests that are the same but for their id (a
        view, a legal list, a restart: most of a fuzz case's) are written once per driver."""
        if op[0] not in _FIXED or not (len(op) == 1 or len(op) == 2 and (op[1] is None or type(op[1]) is str)):
            return self._request(request(op), more)  # (an observer that is no name: 1 and true are one key)
        rest = self._fixed.get(op)
        if rest is None:
            rest = self._fixed[op] = _encode(request(op)).encode()[1:]  # (what follows the opening brace)
        rid = self._next_id
        self._next_id += 1
        self._note({"request": {"id": rid, **request(op)}})
        self.process.send_text(b'{"id":%d,%s' % (rid, rest), more)
        return rid

    def _receive(self, rid: int, known: Known | None = None) -> dict[str, JSON]:
        try:
            message = self.process.receive(rid, known)
        except BuildBroke as exc:
            self._note({"broke": {"cause": exc.cause, "message": exc.message}})
            raise
        self._note({"response": message})
        return message

    def _note(self, entry: dict[str, JSON]) -> None:
        """Add ``entry`` to the transcript, if one is kept, within its bounds (recording.kept)."""
        if self.transcript is None:
            return
        if self.transcript is not self._noted[0]:
            self._noted = (self.transcript, 0)
        entry_, used = recording.kept(entry, self._noted[1])
        if entry_ is not None:
            self.transcript.append(entry_)
        self._noted = (self.transcript, used)

    def _call(self, body: Mapping[str, JSON]) -> dict[str, JSON]:
        return self._receive(self._request(body))

    def _answer(self, op: Op, rid: int, expected: Outcome | None, any_order: bool) -> Outcome:
        """The outcome of request ``rid`` (for ``op``): ``expected`` itself where the build's line is that
        answer (``Known.answers``), else the line read and checked. Raises BuildBroke."""
        known = None if expected is None else _known(op, rid, expected, any_order)
        message = self._receive(rid, known)
        return known.answer if known is not None and message is known.message else self._outcome(op, message)

    def _outcome(self, op: Op, message: dict[str, JSON]) -> Outcome:
        try:
            return outcome(op, message)
        except BadAnswer as exc:
            raise self.process._broke("bad-response", str(exc)) from None

    # --- the Driver surface ---------------------------------------------------------------------
    def supports(self, game: str, ruleset: str | None) -> bool:
        return default_ruleset(game, ruleset) in self.games.get(game, [])

    def batch(self, ops: Iterable[Op], as_written: bool = False, expect: Sequence[Outcome] | None = None,
              any_order: bool = True) -> Generator[Outcome, None, None]:
        """Send every request first (when pipelining), then yield the outcomes in order.

        Closing the iterator early still reads the remaining answers, so the stream stays in step. To an
        explicit-chance build, every seeded request goes in its explicit form, unless ``as_written`` (the
        requests that ask such a build for its own chance, refimpl/harness/ownchance.py; a driver sent those is used
        for nothing else). ``expect``: the reference's answers, the one to the i-th op there by the time that
        op is taken from ``ops`` (the fuzzer's plan); an answer the build writes exactly as the reference's
        own ``serve`` would (``_known``), or, with ``any_order``, a legal list of the very same actions in
        another order (``Known.answers``; not while a transcript is kept, which shows the build's order), is
        that answer, neither read nor checked again.
        """
        if self.explicit_chance is not None and not as_written:
            ops = map(self.explicit_chance.rewrite, ops)
        any_order = any_order and self.transcript is None
        if not self.pipeline:
            for index, op in enumerate(ops):
                yield self._answer(op, self._send(op), None if expect is None else expect[index], any_order)
            return
        # At most WINDOW requests are in flight: ops are taken (and planned) as answers come, so a trace of any
        # length is sent in bounded memory; the window is topped up by halves, so requests still go out in
        # chunks of several. The first request goes at once, so the build starts while the kit writes the rest.
        inflight: deque[tuple[Op, int, int]] = deque()
        pending = enumerate(ops)
        more = True
        first = True
        try:
            while True:
                if more and len(inflight) <= WINDOW // 2:
                    for index, op in pending:
                        inflight.append((op, self._send(op, more=not first), index))
                        first = False
                        if len(inflight) >= WINDOW:
                            break
                    else:
                        more = False
                    self.process.flush()
                if not inflight:
                    return
                op, rid, index = inflight[0]
                answer = self._answer(op, rid, None if expect is None else expect[index], any_order)
                inflight.popleft()
                yield answer
        except GeneratorExit:
            # The caller stopped early (a mismatch): read the answers still due to stay in step. A build
            # that breaks meanwhile is marked broken (the caller closes it), not reported twice.
            try:
                for _, rid, _ in inflight:
                    self._receive(rid)
            except BuildBroke:
                pass
            raise

    @property
    def alive(self) -> bool:
        return self.process.proc.poll() is None

    def close(self) -> None:
        self.process.close(quit_id=self._next_id if self.alive else None)
