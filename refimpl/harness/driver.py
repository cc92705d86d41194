"""Drivers: the one way scenarios and replay talk to a build. Never to engine internals.

A driver starts a game, applies actions, restarts, shows state views and lists legal actions. Both
drivers speak the protocol's requests and answers (specs/protocol.md): ``ReferenceDriver`` hands them to
the reference's protocol session in this process (``refimpl serve``'s own code, optionally with other
engines, such as a deliberately wrong variant); ``ProtocolDriver`` (protocol.py) sends them to an outside
build. So both answer every request the same way, refusals included.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from ..errors import ExitCode, KitError
from ..games import GAMES, JSON, Game
from .requests import Apply, Legal, Op, Restart, Start, State, Stats, answer_key


@dataclass(frozen=True)
class Rejected:
    """The rules refused an action (``rejected`` in the protocol); the state must be unchanged."""

    code: str
    message: str = ""


@dataclass(frozen=True)
class Refused:
    """The build refused a request (``error`` in the protocol: ``bad-request``, ``unsupported``, ...)."""

    code: str
    message: str = ""


# The outcome of a request: a view, a Rejected, a Refused, a list of legal actions or the records (stats).
Outcome = dict[str, JSON] | Rejected | Refused | list[JSON]


def refusal_words(outcome: Any, message: bool = False) -> str | None:
    """A rejection or refusal in words, ``rejected CODE`` or ``error CODE`` (``: message`` after it with
    ``message``); None for an answer that is neither."""
    if isinstance(outcome, (Rejected, Refused)):
        said = f"{'rejected' if isinstance(outcome, Rejected) else 'error'} {outcome.code}"
        return f"{said}: {outcome.message}" if message else said
    return None


class DriverError(KitError):
    """The driver could not do what was asked (no such game in the build, a refused start...)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code, self.message = code, message


class BuildBroke(KitError):
    """The build under test crashed, hung or broke the protocol (exit code 3).

    ``cause`` is a stable word: crashed-at-start, exited, hung, not-json, partial-line, line-too-long,
    bad-response, wrong-protocol.
    """

    exit_code = ExitCode.BUILD_BROKE

    def __init__(self, cause: str, message: str, stderr_tail: str = "") -> None:
        super().__init__(f"{cause}: {message}")
        self.cause, self.message, self.stderr_tail = cause, message, stderr_tail
        self.where = ""  # filled in by callers: the trace and step, or the scenario
        self.request: dict[str, Any] | None = None  # the request whose answer broke, where known

    def __str__(self) -> str:
        where = f" at {self.where}" if self.where else ""
        return f"build broke ({self.cause}){where}: {self.message}"

    def __reduce__(self) -> tuple[Any, ...]:  # from a verify --jobs worker, with where and request
        return (type(self), (self.cause, self.message, self.stderr_tail), self.__dict__)


class Driver(Protocol):
    """What a scenario or a replay may ask of a build."""

    name: str
    lists_legal: bool  # the build answers ``legal``

    def supports(self, game: str, ruleset: str | None) -> bool: ...  # None: the default ruleset
    def start(self, game: str, ruleset: str | None = None, seed: Any = None,
              setup: Any = None) -> dict[str, JSON]: ...
    def apply(self, action: JSON) -> dict[str, JSON] | Rejected: ...
    def view_then_apply(self, action: JSON) -> tuple[dict[str, JSON], dict[str, JSON] | Rejected]: ...
    def restart(self) -> dict[str, JSON]: ...
    def view(self, observer: str | None = None) -> dict[str, JSON]: ...
    def stats(self) -> dict[str, dict[str, int]]:
        """The records the build keeps over its session (protocol op ``stats``). Raises DriverError when the
        build refuses it."""
        ...

    def legal_actions(self, observer: str | None = None) -> list[JSON] | None: ...  # None: not listed
    def batch(self, ops: Iterable[Op]) -> Generator[Outcome, None, None]: ...  # outcomes in order; may pipeline
    def close(self) -> None: ...


# --- the protocol's requests and answers, for every driver ----------------------------------------

def default_ruleset(game: str, ruleset: str | None) -> str | None:
    """The ruleset a start names: the kit names one, the game's default when none is given (only a trace's
    start step may send ``null``, to check that a build takes it for the default)."""
    if ruleset is None and game in GAMES:
        return GAMES[game].info.default_ruleset
    return ruleset


class BadAnswer(Exception):
    """An answer that is not what the protocol says this request gets (a broken build)."""


def outcome(op: Op, message: Mapping[str, JSON]) -> Outcome:
    """The outcome of ``op`` from the build's answer. Raises BadAnswer for an answer of the wrong shape."""
    if message.get("ok") is True:
        key = answer_key(op)
        if key == "actions":
            actions = message.get("actions")
            if not isinstance(actions, list) or not all(isinstance(a, dict) and "type" in a for a in actions):
                raise BadAnswer("the answer to legal has no list of actions (objects with a type)")
            return actions
        if key == "stats":
            stats = message.get("stats")
            if not isinstance(stats, dict) or not all(isinstance(r, dict) for r in stats.values()):
                raise BadAnswer("the answer to stats has no object of records by game")
            return stats
        state = message.get("state")
        if not isinstance(state, dict) or "game" not in state or "ruleset" not in state:
            raise BadAnswer(f"the answer to {op.name} has no state object")
        return state
    if isinstance(message.get("rejected"), dict):
        rej = message["rejected"]
        if op.name != "apply":
            raise BadAnswer(f"{op.name} answered with a rejection; only apply is rejected")
        return Rejected(str(rej.get("code")), _said(rej.get("message", "")))
    error = message.get("error")
    if not isinstance(error, dict):
        raise BadAnswer("an answer with ok false holds neither rejected nor error")
    return Refused(str(error.get("code")), _said(error.get("message", "")))


MESSAGE_LIMIT = 2000  # characters of a build's rejection or error message the kit keeps (it judges the code)


def _said(message: JSON) -> str:
    """A build's message, as the kit keeps it: at most MESSAGE_LIMIT characters, the cut said."""
    text = str(message)
    return text if len(text) <= MESSAGE_LIMIT else f"{text[:MESSAGE_LIMIT]}... ({len(text)} characters)"


def expect_state(outcome_: Outcome, what: str) -> dict[str, JSON] | Rejected:
    """A single call's view (or rejection). Raises DriverError when the build refused the request."""
    if isinstance(outcome_, Refused):
        raise DriverError(outcome_.code, f"{what} refused: {outcome_.message}")
    return outcome_  # type: ignore[return-value]  # the caller asked for a view, which is a dict or a rejection


class CallsByBatch:
    """The single-call methods of a Driver, written once on top of ``batch``.

    ``transcript``: None, or a list the driver appends every exchange to, as ``{"request": ...}`` when a
    request is sent and ``{"response": ...}`` when its answer is read (the raw protocol messages, ids
    included): what ``verify --transcript`` writes for a failing check.
    """

    lists_legal = True
    transcript: list[dict[str, Any]] | None = None

    def batch(self, ops: Iterable[Op]) -> Generator[Outcome, None, None]:
        raise NotImplementedError

    def _one(self, op: Op) -> Outcome:
        return next(iter(self.batch([op])))

    def start(self, game: str, ruleset: str | None = None, seed: Any = None,
              setup: Any = None) -> dict[str, JSON]:
        op = Start(game, default_ruleset(game, ruleset), seed, {} if setup is None else setup)
        return expect_state(self._one(op), f"start {game}")  # type: ignore[return-value]  # a start's answer is a view

    def apply(self, action: JSON) -> dict[str, JSON] | Rejected:
        return expect_state(self._one(Apply(action)), "apply")

    def view_then_apply(self, action: JSON) -> tuple[dict[str, JSON], dict[str, JSON] | Rejected]:
        """(the full view now, the answer to ``action``): ``view`` then ``apply``, sent together (pipelined where
        the driver pipelines), as a scenario's action asks them."""
        view, answer = self.batch([State(None), Apply(action)])
        # ignore: a state request's answer is a view
        return expect_state(view, "state"), expect_state(answer, "apply")  # type: ignore[return-value]

    def restart(self) -> dict[str, JSON]:
        # ignore: a restart's answer is a view
        return expect_state(self._one(Restart()), "restart")  # type: ignore[return-value]

    def view(self, observer: str | None = None) -> dict[str, JSON]:
        # ignore: a state request's answer is a view
        return expect_state(self._one(State(observer)), "state")  # type: ignore[return-value]

    def stats(self) -> dict[str, dict[str, int]]:
        """The records the build keeps over its session (protocol op ``stats``). Raises DriverError when the
        build refuses it."""
        answer = self._one(Stats())
        if isinstance(answer, (Refused, Rejected)):
            raise DriverError(answer.code, f"stats refused: {answer.message}")
        return answer  # type: ignore[return-value]  # refusals raised above, the rest is the op's own answer

    def legal_actions(self, observer: str | None = None) -> list[JSON] | None:
        if not self.lists_legal:
            return None
        answer = self._one(Legal(observer))
        if isinstance(answer, Refused):
            raise DriverError(answer.code, f"legal refused: {answer.message}")
        return answer  # type: ignore[return-value]  # refusals raised above, the rest is the op's own answer


class ReferenceDriver(CallsByBatch):
    """The reference in this process: ``refimpl serve``'s protocol session without the pipes.
    ``engines`` replaces registry entries (the deliberately wrong variants use it)."""

    capabilities = frozenset({"legal", "stats"})  # as ``refimpl serve`` declares them

    def __init__(self, engines: Mapping[str, Game[Any, Any]] | None = None, name: str = "reference") -> None:
        from .serve import Session

        self.engines: dict[str, Game[Any, Any]] = {**GAMES, **(engines or {})}
        self.name = name
        self.session = Session(self.engines, name)

    def supports(self, game: str, ruleset: str | None) -> bool:
        if game not in self.engines:
            return False
        info = self.engines[game].info
        return (info.default_ruleset if ruleset is None else ruleset) in info.rulesets

    def batch(self, ops: Iterable[Op]) -> Generator[Outcome, None, None]:
        for op in ops:
            body = op.body()
            answer = self.session.handle(body)
            if self.transcript is not None:
                self.transcript += [{"request": body}, {"response": answer}]
            yield outcome(op, answer)

    def close(self) -> None:
        self.session.game = self.session.state = None


__all__ = ["BadAnswer", "BuildBroke", "CallsByBatch", "Driver", "DriverError", "Outcome",
           "ReferenceDriver", "Refused", "Rejected", "default_ruleset", "outcome", "refusal_words"]
