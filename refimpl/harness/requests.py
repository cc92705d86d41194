"""The protocol's requests as typed values (specs/protocol.md, "Requests"), named as the protocol names them:
``Start``, ``Apply``, ``State``, ``Legal``, ``Restart``, ``Stats``, and ``Written``, a request written out whole
(a trace's ``request`` step, a fuzz case's odd input), which checks the protocol itself.

Every driver takes these (``Driver.batch``); each knows its protocol ``name``, its ``body`` (the request less
its ``id``) and the key its accepted answer holds its value under (``answer_key``). They are frozen values: two
requests are equal when they are the same request, and a request of no odd value is hashable (the process
driver writes a fixed request once). ``hello`` and ``quit`` are the transport's own (buildprocess.py) and are
not here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..games import JSON


@dataclass(frozen=True, slots=True)
class Start:
    """``start``: a new game of ``game`` under ``ruleset`` (None: sent as null, the build's default), with
    ``seed`` and ``setup`` as given."""

    game: Any
    ruleset: Any = None
    seed: Any = None
    setup: Any = field(default_factory=dict)
    name: ClassVar[str] = "start"

    def body(self) -> dict[str, JSON]:
        return {"op": "start", "game": self.game, "ruleset": self.ruleset, "seed": self.seed, "setup": self.setup}


@dataclass(frozen=True, slots=True)
class Apply:
    """``apply``: play ``action`` in the game in progress."""

    action: Any
    name: ClassVar[str] = "apply"

    def body(self) -> dict[str, JSON]:
        return {"op": "apply", "action": self.action}


@dataclass(frozen=True, slots=True)
class State:
    """``state``: the view of the game in progress, as ``observer`` sees it (None: the full state)."""

    observer: Any = None
    name: ClassVar[str] = "state"

    def body(self) -> dict[str, JSON]:
        return {"op": "state", "observer": self.observer}


@dataclass(frozen=True, slots=True)
class Legal:
    """``legal``: the legal actions now (``observer``: as that player may see them; None sends no observer)."""

    observer: Any = None
    name: ClassVar[str] = "legal"

    def body(self) -> dict[str, JSON]:
        return {"op": "legal"} if self.observer is None else {"op": "legal", "observer": self.observer}


@dataclass(frozen=True, slots=True)
class Restart:
    """``restart``: the game in progress from its start again (same game, ruleset, seed and set-up)."""

    name: ClassVar[str] = "restart"

    def body(self) -> dict[str, JSON]:
        return {"op": "restart"}


@dataclass(frozen=True, slots=True)
class Stats:
    """``stats``: the records the build keeps over its session."""

    name: ClassVar[str] = "stats"

    def body(self) -> dict[str, JSON]:
        return {"op": "stats"}


@dataclass(frozen=True, slots=True)
class Written:
    """A request written out whole (``fields``, without the ``id``), sent as it is: what a trace's ``request``
    step or a fuzz case's odd input asks. Its ``name`` is its ``op`` field (None when it has no name)."""

    fields: Mapping[str, Any]

    @property
    def name(self) -> str | None:
        op = self.fields.get("op")
        return op if isinstance(op, str) else None

    def body(self) -> dict[str, JSON]:
        return dict(self.fields)


Op = Start | Apply | State | Legal | Restart | Stats | Written
"""A request a driver sends (one of the typed values above)."""

_KEYS = {"legal": "actions", "stats": "stats"}


def answer_key(op: Op) -> str:
    """The key an accepted answer to ``op`` holds its value under: ``actions`` (legal), ``stats`` (stats) or
    ``state`` (every other request)."""
    return _KEYS.get(op.name or "", "state")


def asks_records(op: Op) -> bool:
    """Whether ``op`` asks for the session's records (protocol op ``stats``, typed or written whole)."""
    return op.name == "stats"


def changes_game(op: Op) -> bool:
    """Whether ``op`` may change the game in progress: a start, an apply or a restart (typed or written)."""
    return op.name in ("start", "apply", "restart")


__all__ = ["Apply", "Legal", "Op", "Restart", "Start", "State", "Stats", "Written", "answer_key", "asks_records",
           "changes_game"]
