"""The kit's side of the build protocol (specs/protocol.md): start a build, speak JSON Lines, judge it.

``BuildProcess`` owns the child process: it starts the command in its own process group, feeds stdin
from a writer thread, reads stdout lines and the stderr tail from reader threads (so a build that
floods either pipe can never block the kit), and kills the whole group on close. ``ProtocolDriver``
is a Driver on top of it; its ``batch`` pipelines a trace's requests ahead of reading the answers.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import threading
import time
from collections import deque
from importlib import resources
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping

import jsonschema

from .driver import BuildBroke, DriverError, Op, Outcome, Rejected
from .games import GAMES, JSON

PROTOCOL_VERSION = 1
MAX_LINE = 1 << 20  # bytes in one response line
DEFAULT_TIMEOUT = 5.0
_SCHEMA = json.loads(resources.files(__package__).joinpath("schemas", "protocol-v1.schema.json").read_text())
_RESPONSE = jsonschema.Draft202012Validator({**_SCHEMA, "$ref": "#/$defs/response"})
_EOF, _TOO_LONG = object(), object()


class BuildProcess:
    """One running build. Raises BuildBroke from ``receive`` when the build misbehaves."""

    def __init__(self, command: str, timeout: float = DEFAULT_TIMEOUT, cwd: str | None = None) -> None:
        self.command, self.timeout = command, timeout
        try:
            self.proc = subprocess.Popen(["/bin/sh", "-c", command], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd,
                                         start_new_session=True, bufsize=0)
        except OSError as exc:
            raise BuildBroke("crashed-at-start", f"cannot run {command!r}: {exc}") from None
        self._lines: queue.Queue[Any] = queue.Queue()
        self._outbox: queue.Queue[bytes | None] = queue.Queue()
        self._stderr: deque[bytes] = deque(maxlen=64)
        self._stderr_bytes = 0
        self.broken = False
        self._threads = [threading.Thread(target=f, daemon=True)
                         for f in (self._read_stdout, self._read_stderr, self._write_stdin)]
        for t in self._threads:
            t.start()

    # --- threads -------------------------------------------------------------------------------
    def _read_stdout(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            line = out.readline(MAX_LINE + 1)
            if not line:
                self._lines.put(_EOF)
                return
            if len(line) > MAX_LINE:
                self._lines.put(_TOO_LONG)
                return
            self._lines.put(line)

    def _read_stderr(self) -> None:
        err = self.proc.stderr
        assert err is not None
        for chunk in iter(lambda: err.readline(4096), b""):
            self._stderr.append(chunk)
            self._stderr_bytes += len(chunk)

    def _write_stdin(self) -> None:
        pipe = self.proc.stdin
        assert pipe is not None
        while (data := self._outbox.get()) is not None:
            try:
                pipe.write(data)
                pipe.flush()
            except (BrokenPipeError, OSError):
                return  # the build is gone; the reader reports it
        try:
            pipe.close()
        except OSError:
            pass

    # --- talking -------------------------------------------------------------------------------
    def stderr_tail(self, lines: int = 20) -> str:
        text = b"".join(self._stderr).decode("utf-8", "replace")
        return "\n".join(s if len(s) <= 240 else s[:240] + "…" for s in text.splitlines()[-lines:])

    def send(self, message: Mapping[str, JSON]) -> None:
        self._outbox.put((json.dumps(message, separators=(",", ":")) + "\n").encode())

    def _broke(self, cause: str, message: str) -> BuildBroke:
        """A BuildBroke for this build; the stream is out of step from now on."""
        self.broken = True
        return BuildBroke(cause, message, self.stderr_tail())

    def receive(self, expected_id: int) -> dict[str, JSON]:
        """The next response, checked against the protocol. Raises BuildBroke."""
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            raise self._broke("hung", f"no answer to request {expected_id} within {self.timeout:g} s") from None
        if line is _EOF:
            try:
                code = self.proc.wait(timeout=1)
            except subprocess.TimeoutExpired:
                code = None
            self._threads[1].join(timeout=1)  # the last words on stderr usually say why
            raise self._broke("exited", f"the build closed its output before answering request "
                              f"{expected_id} (exit status {code})")
        if line is _TOO_LONG:
            raise self._broke("line-too-long", f"a response line longer than {MAX_LINE} bytes")
        if not line.endswith(b"\n"):
            raise self._broke("partial-line", f"output ended in the middle of a line: {_clip(line)}")
        try:
            message = json.loads(line)
        except ValueError:
            raise self._broke("not-json", f"printed a line that is not JSON: {_clip(line)}") from None
        if not isinstance(message, dict):
            raise self._broke("not-json", f"printed JSON that is not an object: {_clip(line)}")
        if message.get("id") != expected_id:
            raise self._broke("bad-response", f"answered id {message.get('id')!r} where {expected_id} was due")
        error = next(iter(_RESPONSE.iter_errors(message)), None)
        if error is not None:
            raise self._broke("bad-response", f"response {expected_id} breaks the protocol schema: "
                              f"{error.message} ({_clip(line)})")
        return message

    def close(self, quit_id: int | None = None) -> None:
        """Ask the build to quit, give it a moment, then kill its whole process group."""
        if quit_id is not None and self.proc.poll() is None:
            self.send({"id": quit_id, "op": "quit"})
        self._outbox.put(None)
        try:
            self.proc.wait(timeout=2 if quit_id is not None else 0.2)
        except subprocess.TimeoutExpired:
            pass
        _kill_group(self.proc)
        for t in self._threads:
            t.join(timeout=1)
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream:
                stream.close()


def _live_members(pgid: int) -> list[int] | None:
    """Pids in process group ``pgid`` that are not zombies, from /proc; None where there is no /proc."""
    proc = Path("/proc")
    if not (proc / "self" / "stat").exists():
        return None
    live = []
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()  # after "pid (comm) ": state ppid pgrp ...
        if int(fields[2]) == pgid and fields[0] != "Z":
            live.append(int(entry.name))
    return live


def _kill_group(proc: subprocess.Popen[bytes], grace: float = 2.0) -> None:
    """SIGKILL every process in the build's group (what it started, too) and wait until none runs.

    Orphaned members are reaped by init, sometimes late; a zombie no longer runs, so it counts as gone.
    """
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    proc.wait()
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        live = _live_members(proc.pid)
        if live == []:
            return
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            return
        time.sleep(0.01)


def _clip(line: bytes, size: int = 120) -> str:
    text = line.decode("utf-8", "replace").rstrip("\n")
    return repr(text if len(text) <= size else text[:size] + "…")


class ProtocolDriver:
    """A Driver for an outside build: one process, spoken to over the protocol.

    Raises BuildBroke when the build misbehaves (from any method) and DriverError for a game or
    ruleset the build did not declare.
    """

    def __init__(self, command: str, timeout: float = DEFAULT_TIMEOUT, pipeline: bool = True) -> None:
        self.command, self.timeout, self.pipeline = command, timeout, pipeline
        self._next_id = 0
        self.process = BuildProcess(command, timeout)
        try:
            hello = self._call({"op": "hello", "protocol": PROTOCOL_VERSION})
        except BuildBroke as exc:
            self.process.close()
            if exc.cause in ("exited", "hung"):
                exc.cause = "crashed-at-start"
            raise
        if hello.get("protocol") != PROTOCOL_VERSION or not hello.get("ok"):
            self.process.close()
            raise BuildBroke("wrong-protocol", f"the build speaks protocol {hello.get('protocol')!r}; "
                             f"the kit speaks {PROTOCOL_VERSION}", self.process.stderr_tail())
        self.name = str(hello["build"].get("name", command))
        self.version = str(hello["build"].get("version", ""))
        self.games: dict[str, list[str]] = hello["games"]
        self.capabilities: set[str] = set(hello["capabilities"])
        self._game: str | None = None

    # --- plumbing ------------------------------------------------------------------------------
    def _request(self, body: Mapping[str, JSON]) -> int:
        rid = self._next_id
        self._next_id += 1
        self.process.send({"id": rid, **body})
        return rid

    def _call(self, body: Mapping[str, JSON]) -> dict[str, JSON]:
        return self.process.receive(self._request(body))

    def _body(self, op: Op) -> dict[str, JSON]:
        kind = op[0]
        if kind == "start":
            _, game, ruleset, seed, setup = op
            if ruleset is None and game in GAMES:
                ruleset = GAMES[game].info.default_ruleset
            if not self.supports(game, ruleset):
                raise DriverError("unsupported", f"{self.name} does not declare {game} {ruleset}")
            self._game = game
            return {"op": "start", "game": game, "ruleset": ruleset, "seed": seed, "setup": dict(setup or {})}
        if kind == "apply":
            return {"op": "apply", "action": op[1]}
        if kind == "view":
            return {"op": "state", "observer": op[1]}
        if kind == "legal":
            return {"op": "legal"}
        if kind == "restart":
            return {"op": "restart"}
        raise ValueError(f"unknown op {kind!r}")

    def _outcome(self, op: Op, message: dict[str, JSON]) -> Outcome:
        if message["ok"]:
            if op[0] == "legal":
                return list(message["actions"])
            if "state" not in message:
                raise self.process._broke("bad-response", f"answer to {op[0]} has no state")
            return dict(message["state"])
        if "rejected" in message and op[0] == "apply":
            rej = message["rejected"]
            return Rejected(str(rej["code"]), str(rej.get("message", "")))
        error = message.get("error") or message.get("rejected") or {}
        if op[0] == "start" and error.get("code") == "unsupported":
            raise DriverError("unsupported", str(error.get("message", "")))
        raise self.process._broke("bad-response", f"{op[0]} answered with error {error.get('code')!r}: "
                                  f"{error.get('message', '')}")

    # --- the Driver surface ---------------------------------------------------------------------
    def supports(self, game: str, ruleset: str | None) -> bool:
        if ruleset is None and game in GAMES:
            ruleset = GAMES[game].info.default_ruleset
        return ruleset in self.games.get(game, [])

    def batch(self, ops: Iterable[Op]) -> Iterator[Outcome]:
        """Send every request first (when pipelining), then yield the outcomes in order.

        Closing the iterator early still reads the remaining answers, so the stream stays in step.
        """
        if not self.pipeline:
            for op in ops:
                yield self._outcome(op, self._call(self._body(op)))
            return
        sent = [(op, self._request(self._body(op))) for op in ops]
        done = 0
        try:
            for op, rid in sent:
                message = self.process.receive(rid)
                done += 1
                yield self._outcome(op, message)
        except GeneratorExit:
            # The caller stopped early (a mismatch): read the answers still due to stay in step.
            for _, rid in sent[done:]:
                self.process.receive(rid)
            raise

    def _one(self, op: Op) -> Outcome:
        return self._outcome(op, self._call(self._body(op)))

    def start(self, game: str, ruleset: str | None = None, seed: int | None = None,
              setup: Mapping[str, JSON] | None = None) -> dict[str, JSON]:
        return self._one(("start", game, ruleset, seed, setup))  # type: ignore[return-value]

    def apply(self, action: JSON) -> dict[str, JSON] | Rejected:
        return self._one(("apply", action))  # type: ignore[return-value]

    def restart(self) -> dict[str, JSON]:
        return self._one(("restart",))  # type: ignore[return-value]

    def view(self, observer: str | None = None) -> dict[str, JSON]:
        return self._one(("view", observer))  # type: ignore[return-value]

    def legal_actions(self) -> list[JSON] | None:
        if "legal" not in self.capabilities:
            return None
        return self._one(("legal",))  # type: ignore[return-value]

    @property
    def alive(self) -> bool:
        return self.process.proc.poll() is None

    def close(self) -> None:
        self.process.close(quit_id=self._next_id if self.alive else None)
