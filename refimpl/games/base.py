"""The one engine surface every game implements, and the typed errors it raises.

An engine is pure: no I/O, no clock, no random generator. States are immutable values; ``apply``
returns a new state, so an illegal action can never leave a half-changed state behind. Dice and
other chance events are ordinary actions chosen by the caller.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

_RULING = re.compile(r"-R\d+$")  # a ruling's ID (BL-R4), as against a rule's (BL-WIN-1)
JSON = Any  # a JSON-compatible value: dict, list, str, int, bool or None
# The largest integer every JSON parser reads exactly (specs/protocol.md "Numbers"): a game whose numbers
# can grow (a clock) keeps them within it.
SAFE_INTEGER = 2 ** 53 - 1


class RuleViolation(Exception):
    """An action or request the rules do not allow. ``code`` is stable and documented in the spec."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class IllegalAction(RuleViolation):
    """A well-formed action that the rules forbid in this state (e.g. ``illegal-target``)."""


class MalformedAction(RuleViolation):
    """An action that is not an action of this game at all (wrong shape, unknown type or name)."""


class BadSetup(RuleViolation):
    """A game cannot be created: unknown ruleset, bad seed or bad setup."""


@dataclass(frozen=True)
class GameInfo:
    """The declarative metadata block at the top of every game module."""

    name: str  # registry key, also the folder name under specs/, features/ and traces/
    title: str
    source: str  # the seed document in ../shared/seeds/
    rule_prefix: str  # every rule ID of this game starts with it, e.g. "BL"
    players: tuple[str, ...]
    rulesets: tuple[str, ...]
    default_ruleset: str
    results: tuple[str, ...]  # every value ``outcome`` can return once the game is over
    hidden_information: bool = False  # views differ by observer (the players in ``players``)
    typical_length: int = 100  # actions in a whole game, roughly: how long the fuzzer's games may be
    # The rules a builder should read when a view field (a top-level key), a rejection ("rejected"), a refused
    # start ("error") or the legal list ("legal") differs: what the kit's messages cite.
    field_rules: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # Seeded chance (specs/protocol.md "Chance: seeded or given"): the view fields that count what the
    # canonical stream gave, and the rules only the streams can show. For a build with its own random source
    # (capability explicit-chance) the first are judged by the reference alone, the second are not run.
    stream_fields: tuple[str, ...] = ()
    stream_rules: tuple[str, ...] = ()
    # The record the game keeps over the games of a session (the protocol's ``stats``), or () for none.
    statistics: tuple[str, ...] = ()

    def rules_of(self, path: str) -> tuple[str, ...]:
        """The rules that decide the field at ``path`` (``pieces.human[2]``, ``view[gaias].units``, ``legal``,
        ``unchanged-after-rejection.turn``), in the order ``field_rules`` lists them."""
        if path.startswith("view["):
            path = path.partition("].")[2] or path
        top = path.split(".")[0].split("[")[0]
        top = {"unchanged-after-rejection": "rejected", "start": "error", "state": "error"}.get(top, top)
        # a field no view has (a build's extra key) breaks the rule that says what a view holds: game's
        return self.field_rules.get(top, self.field_rules.get("game", ()))

    @property
    def spec(self) -> str:
        return f"specs/{self.name}.md"

    @property
    def feature(self) -> str:
        return f"features/{self.name}.feature"

    @property
    def traces(self) -> str:
        return f"traces/{self.name}"


def owners(rules: Sequence[str], *tagged: Sequence[str]) -> tuple[str, ...]:
    """The rules among ``rules`` (those that decide a field) that a failure of it is credited to: every one
    of them in the most particular group of ``tagged`` that holds any (a step's rules, then the check's), a
    ruling before a rule (it decides a narrower point), else the first of ``rules``; () for none. The check
    says which of the field's rules it exercises; among those, the kit cannot tell which one a build broke,
    so each is credited and none shows as passed."""
    for group in tagged:
        found = [r for r in rules if r in group]
        if found:
            return tuple(sorted(found, key=lambda r: (_RULING.search(r) is None, rules.index(r))))
    return tuple(rules[:1])


S = TypeVar("S")
A = TypeVar("A")


class Game(Generic[S, A]):
    """Base class of every engine. Subclasses fill in the rules; the harness only uses this surface."""

    info: ClassVar[GameInfo]

    # --- creating ------------------------------------------------------------------------------
    def new_state(self, ruleset: str | None = None, seed: int | None = None,
                  setup: Mapping[str, JSON] | None = None) -> S:
        """The start state. Raises BadSetup for an unknown ruleset or a setup this game cannot use."""
        raise NotImplementedError

    # --- actions -----------------------------------------------------------------------------
    def parse_action(self, data: JSON) -> A:
        """Turn the JSON form of an action into an action value. Raises MalformedAction."""
        raise NotImplementedError

    def action_json(self, action: A) -> JSON:
        """The JSON form of an action (the inverse of ``parse_action``)."""
        # ignore: the engines using this default have action classes with to_json
        return action.to_json()  # type: ignore[attr-defined]

    def legal_actions(self, state: S, observer: str | None = None) -> list[A]:
        """Every action the rules allow now, chance actions included, in a stable order: the referee's
        list. In a game with hidden information, ``observer`` (a player) asks for the actions that player
        may take now, which never depend on what it cannot see; other games ignore it."""
        raise NotImplementedError

    def actions_json(self, actions: list[A]) -> list[JSON]:
        """The JSON forms of ``actions`` (``action_json`` of each). An engine whose ``legal_actions`` and
        ``extra_actions`` make each action afresh as JSON gives the list itself (Conquest King lists 922
        deployments: copying them was a twentieth of a fuzz campaign)."""
        return [self.action_json(a) for a in actions]

    def observer_legal(self, state: S, observer: str | None, actions: list[A]) -> list[A]:
        """``legal_actions(state, observer)`` for a caller that has the referee's list of ``state`` already
        (``actions``), so a game that can pick the observer's actions out of it need not work the list out
        again. Raises what ``legal_actions`` raises."""
        return actions if observer is None else self.legal_actions(state, observer)

    def apply(self, state: S, action: A) -> S:
        """The state after ``action``. Raises IllegalAction (state untouched: states are immutable)."""
        raise NotImplementedError

    def extra_actions(self, state: S) -> list[A]:
        """Actions the rules accept now that ``legal_actions`` leaves out on purpose: a CPU's choice, a
        seeded throw, time passing. Fuzzers try them too."""
        return []

    def explicit(self, state: S, action: A) -> A:
        """``action`` with the chance outcome the game would draw from its seeded stream in ``state`` given
        explicitly (a throw's face, a CPU's pick, fog tiles); any other action unchanged."""
        return action

    def explicit_setup(self, ruleset: str | None, seed: int | None,
                       setup: Mapping[str, JSON]) -> Mapping[str, JSON]:
        """``setup`` with what the game would draw from the seed at the start (a map) given explicitly;
        unchanged when nothing is drawn or the set-up is refused (the refusal is the build's to give)."""
        return setup

    def record(self, record: Mapping[str, int], result: str | None) -> dict[str, int]:
        """``record`` (counts named by ``info.statistics``) with one more game: ``result`` is its outcome, or
        None for a game left before it ended. Games without statistics keep none."""
        return dict(record)

    def setup_of(self, state: S) -> dict[str, JSON] | None:
        """A ``setup`` for ``start`` that builds the position of ``state`` (as near as the game's set-ups can
        say it), or None when the game has no set-ups or cannot express this position. The fuzzer starts
        reproducers from it when that is shorter than the moves that reach the position."""
        return None

    def describe(self, before: Mapping[str, JSON], after: Mapping[str, JSON]) -> str | None:
        """What changed from view ``before`` to view ``after``, in the game's words ("cpu1 moved piece 2 from
        13 to 17"), for messages; None when the views say it well enough."""
        return None

    # --- looking at a state ------------------------------------------------------------------
    def view(self, state: S, observer: str | None = None) -> dict[str, JSON]:
        """The canonical JSON view of ``state`` (as the spec and traces write it)."""
        raise NotImplementedError

    def outcome(self, state: S) -> str | None:
        """None while the game goes on, else one of ``info.results``."""
        raise NotImplementedError

    def outcome_of_view(self, view: Mapping[str, JSON]) -> str | None:
        """The outcome a state view shows (as ``outcome`` would give it): what the kit reads off a build's
        view, so it can count finished games without the build's state. The views of most games carry it in
        ``result``."""
        result = view.get("result")
        return result if isinstance(result, str) else None

    # --- helpers shared by the engines -------------------------------------------------------
    def _ruleset(self, ruleset: str | None) -> str:
        name = self.info.default_ruleset if ruleset is None else ruleset
        if name not in self.info.rulesets:
            raise BadSetup("unknown-ruleset",
                           f"{self.info.name} has no ruleset {name!r} (known: {', '.join(self.info.rulesets)})")
        return name

    def _no_setup(self, setup: Mapping[str, JSON] | None) -> None:
        if setup:
            raise BadSetup("bad-setup", f"{self.info.name} takes no setup, got keys {sorted(setup)}")


def evolve(state: S, **changes: Any) -> S:
    """``state`` with some fields changed: ``dataclasses.replace`` for plain frozen value classes,
    without its per-call field checks (3x faster; every apply makes a few of these)."""
    return type(state)(**{**state.__dict__, **changes})


def expect_mapping(data: JSON, keys: Sequence[str], what: str) -> Mapping[str, JSON]:
    """Check that ``data`` is a mapping with exactly ``keys``. Raises MalformedAction."""
    if type(data) is not dict:
        raise MalformedAction("malformed-action", f"{what} must be a mapping, got {data!r}")
    if len(data) == len(keys) and all(k in data for k in keys):
        return data
    missing = [k for k in keys if k not in data]
    extra = sorted(k for k in data if k not in keys)
    if missing or extra:
        raise MalformedAction("malformed-action",
                              f"{what} needs keys {list(keys)}; missing {missing}, unexpected {extra}")
    return data
