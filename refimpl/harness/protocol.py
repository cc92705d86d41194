"""The kit's side of the build protocol (specs/protocol.md): ``ProtocolDriver``, a Driver that speaks JSON
Lines to a build and judges the shape of its answers. The child process is ``BuildProcess``
(buildprocess.py); an answer the kit knows in advance is taken from its bytes (known.py); what a transcript
keeps is recording.py's. ``batch`` pipelines requests ahead of reading the answers.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from importlib import resources
from typing import Any

import jsonschema

from .. import PROTOCOL_VERSION
from ..games import JSON
from . import processes, recording
from .buildprocess import DEFAULT_TIMEOUT, BuildProcess, _encode
from .chance import CAPABILITY, Rewriter
from .driver import (
    BadAnswer,
    BuildBroke,
    CallsByBatch,
    Outcome,
    ReferenceDriver,
    Refused,
    Rejected,
    default_ruleset,
    outcome,
)
from .known import Known, known_answer
from .requests import Legal, Op, Restart, State, Stats

LEVELS = ("full", "play")  # what a verdict judges (docs/page.md, "Levels of conformance")
WINDOW = 1024  # pipelined requests in flight at most (their planned checks wait in memory for the answers)
_FIXED = (State, Legal, Restart, Stats)  # requests that are the same every time but for their id
_NAMES = (str, type(None))  # an observer of these types keeps a fixed request hashable and one of a kind
_SCHEMA = json.loads(resources.files("refimpl").joinpath("schemas", "protocol-v1.schema.json").read_text())
_HELLO = jsonschema.Draft202012Validator({**_SCHEMA, "$ref": "#/$defs/helloResponse"})


@dataclass(frozen=True)
class Build:
    """A build as the kit starts it, made once where a command names it (verify, fuzz, show) and passed down:
    its ``command`` (run by ``/bin/sh -c``), the seconds it gets for each answer, the folder it starts in
    (None: the kit's own) and the variables ``env`` sets for it on top of the run's environment
    (processes.build_environment: the kit's, or the allow-list under ``--isolate-env``). ``start`` starts one
    process of it. ``known_answers``: how the kit reads it, with the fast path (known.py: a line that is the
    reference's answer byte for byte is that answer, unread) or, False, every answer read and compared in full
    (``--read-every-answer``; the verdict is the same). ``level``: ``full`` judges every answer whole; ``play``
    judges the rules alone, so a refusal is as good as the reference's refusal of the same request whatever its
    kind and code (``ProtocolDriver.level``). ``isolate`` and ``memory``: what a build nobody trusts is held to
    (issue 47: processes.build_environment, buildprocess.BuildProcess). Raises ValueError for an ``env`` that
    names a variable the kit keeps for itself (its process tags: a build that set them could hide its children
    from the clean-up), or an unknown level."""

    command: str
    timeout: float = DEFAULT_TIMEOUT
    cwd: str | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    known_answers: bool = True
    level: str = "full"
    isolate: bool = False  # the environment's allow-list alone, whatever the kit's (a many-builds run)
    memory: int | None = None  # MiB of data each process of the build may hold (RLIMIT_DATA; None: no bound)

    def __post_init__(self) -> None:
        kept = sorted(set(self.env) & {processes.BUILD_TAG, processes.RUN_TAGS})
        if kept:
            raise ValueError(f"a build's environment may not set {', '.join(kept)}: the kit's own")
        if self.level not in LEVELS:
            raise ValueError(f"no level {self.level!r} (levels: {', '.join(LEVELS)})")

    def start(self, pipeline: bool = True, transcript: list[dict[str, JSON]] | None = None) -> ProtocolDriver:
        """One process of the build, greeted (hello). Raises BuildBroke when it does not start or answer."""
        return ProtocolDriver(self, pipeline=pipeline, transcript=transcript)

    def within(self, timeout: float) -> Build:
        """The same build with at most ``timeout`` seconds an answer."""
        return replace(self, timeout=min(self.timeout, timeout))


def as_build(build: Build | str, timeout: float | None = None) -> Build:
    """``build``, or the build a command names (with ``timeout``, or the default)."""
    return build if isinstance(build, Build) else Build(build, DEFAULT_TIMEOUT if timeout is None else timeout)


class ProtocolDriver(CallsByBatch):
    """A Driver for an outside build: one process, spoken to over the protocol.

    Raises BuildBroke when the build misbehaves (from any method); a single call that the build refuses
    (``start`` of a game it did not declare...) raises DriverError.
    """

    def __init__(self, build: Build | str, timeout: float | None = None, pipeline: bool = True,
                 transcript: list[dict[str, JSON]] | None = None) -> None:
        self.build = as_build(build, timeout)
        self.command, self.timeout, self.pipeline = self.build.command, self.build.timeout, pipeline
        self.known_answers = self.build.known_answers  # the fast path (known.py), or every answer read in full
        # --level play: a reference session sent every request the build is sent, whose refusal stands for the
        # build's where both refuse (``_at_level``)
        self.level_reference = ReferenceDriver() if self.build.level == "play" else None
        self.transcript = transcript  # every exchange from the hello on (see CallsByBatch)
        self._noted: tuple[Any, int] = (None, 0)  # (the transcript list, bytes noted in it): _note's bound
        self._next_id = 0
        self._fixed: dict[Op, bytes] = {}  # op -> its request as written, less the id (_send)
        self.process = BuildProcess(self.build.command, self.build.timeout, self.build.cwd, self.build.env,
                                    isolate=self.build.isolate, memory=self.build.memory)
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
        self.name = str(hello["build"].get("name", self.command))
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
        if not isinstance(op, _FIXED) or type(getattr(op, "observer", None)) not in _NAMES:
            return self._request(op.body(), more)  # (an observer that is no name: 1 and true are one key)
        rest = self._fixed.get(op)
        if rest is None:
            rest = self._fixed[op] = _encode(op.body()).encode()[1:]  # (what follows the opening brace)
        rid = self._next_id
        self._next_id += 1
        self._note({"request": {"id": rid, **op.body()}})
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

    def exchange(self, body: Mapping[str, JSON]) -> dict[str, JSON]:
        """Send one request as written (``body`` without its id) and return the build's answer as it came, not
        judged (a page's pictures are taken so: verify/screens.py). Raises BuildBroke."""
        return self._call(body)

    def _answer(self, op: Op, rid: int, expected: Outcome | None, any_order: bool) -> Outcome:
        """The outcome of request ``rid`` (for ``op``): ``expected`` itself where the build's line is that
        answer (``Known.answers``), else the line read and checked. Raises BuildBroke."""
        known = None if expected is None or not self.known_answers else known_answer(op, rid, expected, any_order)
        message = self._receive(rid, known)
        answer = known.answer if known is not None and message is known.message else self._outcome(op, message)
        return answer if self.level_reference is None else self._at_level(op, answer)

    def _at_level(self, op: Op, answer: Outcome) -> Outcome:
        """Level play: the build's refusal of ``op`` replaced by the reference's, where the reference refuses it
        too (a rejection or an error, whatever the code); every other answer as the build gave it, so a refusal
        of what the rules allow, and an acceptance of what they forbid, still differ."""
        assert self.level_reference is not None
        reference = next(iter(self.level_reference.batch([op])))
        refusals = (Rejected, Refused)
        return reference if isinstance(answer, refusals) and isinstance(reference, refusals) else answer

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
        own ``serve`` would (``known_answer``), or, with ``any_order``, a legal list of the very same actions in
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
