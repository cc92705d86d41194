"""The kinds of action a fuzz case draws among (issue 44: out of cases.py): an action's kind (its type and true
flags), the kinds a campaign has met, the options of a position grouped by type and kind, and the pick among
them that gives every kind its turn."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import repeat
from typing import Any

from ...games import JSON, Game
from .draw import Draw


def action_kind(action: JSON) -> str:
    """An action's kind for choosing: its type and its true flags (``move+attack``, ``deploy+ambush``)."""
    if type(action) is not dict:
        return "?"
    kind = str(action.get("type"))
    if True not in action.values():  # no value equal to true (1 and 1.0 are, and go the long way): no flags
        return kind
    flags = [k for k, v in action.items() if v is True]
    return kind if not flags else "+".join([kind] + sorted(flags))


class KindsMet:
    """The kinds of the long lists' actions met so far, by the action's identity (the action kept with its
    kind), for ``Options.kinds``: an engine may list the same action objects position after position and case
    after case (Conquest King's deployments, made once per map), and working out each action's flags is most
    of sorting a long list (JSON actions are never changed once made). One per game (``met``), kept while at
    least a quarter of the actions are met again (Lantern Quay's rolls are made afresh each time: after the
    first TRIAL actions it keeps none), and begun afresh past LIMIT actions."""

    LONG = 64  # actions of one type: a list this long is worth keeping
    TRIAL = 5000  # actions kept before the share met again decides
    LIMIT = 50_000  # actions kept at most (each keeps its action alive)
    __slots__ = ("by_id", "met", "seen")

    def __init__(self) -> None:
        self.by_id: dict[int, tuple[JSON, str]] = {}
        self.met = self.seen = 0  # actions of long lists: met again, and in all

    def worth(self, count: int) -> bool:
        """Whether to keep the kinds of a list of ``count`` actions of one type."""
        if count < self.LONG or (self.seen > self.TRIAL and self.met * 4 < self.seen):
            return False
        if len(self.by_id) > self.LIMIT:
            self.by_id.clear()
        return True


_MET: dict[str, KindsMet] = {}


def met(game: str) -> KindsMet:
    """The kinds met in ``game``'s long lists in this process (``KindsMet``)."""
    found = _MET.get(game)
    if found is None:
        found = _MET[game] = KindsMet()
    return found


def _flags_kind(a: dict[str, JSON], type_: str, flagged: dict[tuple[str, ...], str]) -> str:
    """The kind (``action_kind``) of an action of ``type_`` with a value equal to true (1 and 1.0 are: its flags are
    the values that are true); ``flagged``: the kinds of the flags met so far."""
    flags = tuple([k for k, v in a.items() if v is True])
    kind = flagged.get(flags)
    if kind is None:
        kind = flagged[flags] = "+".join([type_] + sorted(flags)) if flags else type_
    return kind


class Options:
    """What can be done at one position, worked out once for every draw from it: the legal actions, those
    together with the ones ``legal`` leaves out (``every``), the types of ``every``, and the actions of a type by
    kind, worked out when a draw asks for that type. A Conquest King deployment lists 922 actions, half of them
    an ambush: sorting every one by kind took longer than the rest of the draw (380 µs), and most draws pick
    another type or no action at all. ``met``: the kinds of the long lists' actions met before (``KindsMet``)."""

    __slots__ = ("legal", "every", "_names", "_kinds", "_met")

    def __init__(self, legal: list[JSON], every: list[JSON], met: KindsMet | None = None) -> None:
        self.legal, self.every = legal, every
        self._names = type_names(every, lambda _: "?")  # (a vocabulary's bent actions may be anything)
        self._kinds: dict[str, dict[str, list[JSON]]] = {}
        self._met = met

    def types(self) -> list[str]:
        """The types of ``every``, sorted."""
        return sorted(set(self._names))

    def firsts(self) -> list[JSON]:
        """The first action of each type, in the order of ``every``."""
        names = self._names
        return [self.every[i] for i in sorted(names.index(n) for n in set(names))]

    def kinds(self, type_: str) -> dict[str, list[JSON]]:
        """The actions of ``type_`` by kind (``action_kind``), each kind in the order of ``every``."""
        found = self._kinds.get(type_)
        if found is not None:
            return found
        found = {}
        flagged: dict[tuple[str, ...], str] = {}  # true flags: the kind, worked out once
        chosen = [a for a, n in zip(self.every, self._names) if n == type_]
        met = self._met if self._met is not None and self._met.worth(len(chosen)) else None
        by_id = met.by_id if met is not None else {}
        again = 0
        for a, was in zip(chosen, map(by_id.get, map(id, chosen)) if met is not None else repeat(None)):
            if was is not None and was[0] is a:
                kind = was[1]
                again += 1
            else:
                kind = _flags_kind(a, type_, flagged) if type(a) is dict and True in a.values() else type_
                if met is not None:
                    by_id[id(a)] = (a, kind)
            same = found.get(kind)
            if same is None:
                found[kind] = [a]
            else:
                same.append(a)
        if met is not None:
            met.met += again
            met.seen += len(chosen)
        self._kinds[type_] = found
        return found


def type_names(actions: Sequence[Any], other: Callable[[Any], str]) -> list[str]:
    """Each action's type: a mapping's ``type`` as text, ``other(action)`` for anything else. An engine's JSON
    actions, all with a type that is text, take one pass in C (a Conquest King deployment lists 922)."""
    try:
        names = [a["type"] for a in actions]
        if all(type(n) is str for n in set(names)):
            return names
    except (TypeError, KeyError, IndexError):
        pass
    return [str(a.get("type")) if type(a) is dict else other(a) for a in actions]


def type_name(action: JSON) -> str:
    """An action's type as ``Options`` sorts it: ``?`` for what is not a mapping."""
    return str(action.get("type")) if type(action) is dict else "?"


def pick_action(d: Draw, options: Sequence[JSON] | Options) -> JSON:
    """A type first, then a kind of that type (its true flags: an attack, an ambush), then an action of that
    kind: a rare kind (complete deployment, reveal an ambush, attack) is as likely as a common one."""
    here = options if isinstance(options, Options) else Options([], list(options))
    by_kind = here.kinds(d.pick(here.types()))
    return d.pick(by_kind[d.pick(sorted(by_kind))])


def options(engine: Game[Any, Any], state: Any, legal: list[JSON] | None = None) -> tuple[list[JSON], list[JSON]]:
    """The legal actions now, and the legal ones together with those ``legal`` leaves out (a CPU's choice,
    a seeded throw, time passing). ``legal``: the legal actions as JSON, when the caller has them."""
    if state is None:
        return [], []
    if legal is None:
        legal = engine.actions_json(engine.legal_actions(state))
    return legal, legal + engine.actions_json(engine.extra_actions(state))
