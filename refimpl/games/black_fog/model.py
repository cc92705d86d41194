"""The values of a Black Fog game: keepers, animals, the state, and the form of every action.

Plain immutable data and the tables that say what an action looks like; no rule is played here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from ..base import JSON, GameInfo
from .hexes import Hex

MAIN_ACTIONS = ("whistle", "tame", "move", "feed")  # BF-ACT-1: three of these a keeper a round
FREE_ACTIONS = ("release", "collect")  # BF-ACT-2: any time in the action phase, uncounted


@dataclass(frozen=True)
class Keeper:
    """A keeper: its tile, the animals it holds in the order it tamed them, whether the fog took it, and the
    main actions it took this round."""

    id: str
    at: Hex
    carrying: tuple[str, ...] = ()
    lost: bool = False
    actions: int = 0  # main actions taken this round


@dataclass(frozen=True)
class Animal:
    """An animal of the set-up (``a1``, ``a2``, ... in set-up order) and where it is."""

    id: str
    species: str
    size: str
    at: Hex | None  # None while carried, saved or lost
    status: str = "wild"  # wild | carried | saved | lost


@dataclass(frozen=True)
class State:
    """A whole game: the round and phase, the pieces, the map's tiles by kind, the animal phase's progress
    and the seeded stream."""

    ruleset: str
    seed: int
    round: int
    phase: str  # actions | animals | fog | over
    keepers: tuple[Keeper, ...]
    animals: tuple[Animal, ...]
    apple: frozenset[Hex]
    withered: frozenset[Hex]
    water: frozenset[Hex]
    fog: frozenset[Hex]
    feed: frozenset[Hex]
    mover: int = 0  # animal phase: index of the animal moving
    steps_left: int = 0  # animal phase: steps still to take for that animal
    stream: int = 0  # the seeded chance stream's state
    draws: int = 0  # outputs taken from it


def _names(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(x, str) for x in value)


# The form of each key of an action, wherever it appears (rule BF-FORM-1), checked in this order.
CHECKS: dict[str, Callable[[object], bool]] = {
    "keeper": lambda v: isinstance(v, str), "to": lambda v: isinstance(v, str), "animals": _names,
    "tiles": _names, "face": lambda v: type(v) is int, "feed": lambda v: v is None or isinstance(v, str)}
# The keys of each action (specs/black-fog.md, "Actions"), and those it may leave out (BF-FORM-1).
FORMS: dict[str, set[str]] = {
    "whistle": {"keeper"}, "tame": {"keeper", "animals"}, "move": {"keeper", "to"}, "feed": {"keeper"},
    "release": {"keeper", "animals"}, "collect": {"keeper"}, "end-actions": set(), "roll": {"face"},
    "choose-feed": {"feed"}, "fog": {"tiles"}}
OPTIONAL: dict[str, set[str]] = {"roll": {"face"}, "fog": {"tiles"}, "release": {"animals"}}


def subsets(items: list[Any]) -> list[list[Any]]:
    """Every non-empty subset of ``items``, each in the order of ``items``."""
    return [[x for i, x in enumerate(items) if mask >> i & 1] for mask in range(1, 1 << len(items))]


class Rules(Protocol):
    """What the rules' steps read of the engine (``BlackFog``, passed in as ``game``: no topic module imports the
    engine). The steps call one another through it, so a variant engine that overrides one step (a misreading)
    changes every step that uses it."""

    @property
    def info(self) -> GameInfo: ...

    data: Mapping[str, Any]
    rings: int
    tiles: frozenset[Hex]
    names: dict[Hex, str]
    size_of: dict[str, str]
    saved_points: dict[str, int]
    size_bonus: tuple[tuple[frozenset[str], int], ...]

    def pending(self, state: State) -> str | None: ...
    def score(self, state: State) -> dict[str, int]: ...
    def _ruleset(self, ruleset: str | None) -> str: ...
    def _listed(self, tiles: frozenset[Hex]) -> tuple[str, ...]: ...
    def _mapped(self, ruleset: str | None, seed: int | None, setup: Mapping[str, JSON] | None) -> State: ...
    def _setup_tile(self, text: Any) -> Hex: ...
    def _setup_tiles(self, mapping: Mapping[str, Any], key: str) -> frozenset[Hex]: ...
    def _tile(self, text: str) -> Hex: ...
    def _pick(self, state: State, pool: list[Hex], k: int) -> tuple[State, list[Hex]]: ...
    def _generate(self, state: State) -> State: ...
    def _set_keeper(self, state: State, keeper: Keeper) -> State: ...
    def _set_animals(self, state: State, changed: Mapping[str, Animal]) -> State: ...
    def _cost(self, animal: Animal) -> int: ...
    def _load(self, state: State, keeper: Keeper) -> int: ...
    def _can_move(self, state: State, keeper: Keeper, to: Hex) -> bool: ...
    def _step(self, state: State, animal: Animal, to: Hex) -> Animal: ...
    def _moving(self, state: State) -> Animal | None: ...
    def _feed_options(self, state: State) -> list[Hex | None]: ...
    def _run_animals(self, state: State) -> State: ...
    def _walk(self, state: State, animal: Animal, target: Hex | None) -> State: ...
    def _land(self, state: State, animal: Animal, to: Hex) -> Animal: ...
    def _advance(self, state: State, animal: Animal) -> State: ...
    def _seeded_face(self, state: State) -> tuple[State, int]: ...
    def _fog_phase(self, state: State) -> State: ...
    def _fog_eligible(self, state: State) -> list[Hex]: ...
    def _fog_want(self, eligible: list[Hex]) -> int: ...
    def _spread(self, state: State) -> State: ...
    def _engulf(self, state: State, tiles: frozenset[Hex]) -> State: ...
    def _next_round(self, state: State) -> State: ...
