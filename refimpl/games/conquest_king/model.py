"""Conquest King's values: units, fights, the state, the ruleset profile, and the geometry every phase uses."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..base import JSON, GameInfo

STEPS = {"n": (0, -1), "e": (1, 0), "s": (0, 1), "w": (-1, 0)}
OBSERVERS = ("referee", "sparkia", "gaias")
MAX_TURN = 9_999  # the highest turn a set-up may begin at (chosen; specs/conquest-king.md "Start and set-up")
PRECEDENCE = {"deleted": 0, "reset": 1, "phase-timeout": 2, "archived": 3}  # same-minute order (ruling CK-R11)
Square = tuple[int, int]


@dataclass(frozen=True)
class Unit:
    id: str
    side: str
    kind: str
    at: tuple[int, int]
    facing: str
    moved: bool = False
    hidden: bool = False  # an ambush that has not appeared (once it has, never again: CK-AMB-8)
    ambush: bool = False  # designated as the ambush at deployment

    def json(self) -> dict[str, JSON]:
        return {"id": self.id, "side": self.side, "kind": self.kind, "at": list(self.at), "facing": self.facing,
                "moved": self.moved, "ambush": self.ambush, "hidden": self.hidden}


@dataclass(frozen=True)
class Fight:
    """A combat waiting for its dice: ``kind`` attack (a unit's own attack) or ambush (an ambush striking)."""

    kind: str
    attacker: str
    target: str


@dataclass(frozen=True)
class State:
    ruleset: str
    phase: str  # deploy | play | combat | over
    turn: int
    side: int  # the side to move in play
    units: tuple[Unit, ...]
    gold: tuple[int, ...]
    complete: tuple[int, ...]  # deployment: 0 placing, 1 asked to confirm, 2 done
    serial: tuple[int, ...]  # units placed so far per side (for ids)
    fights: tuple[Fight, ...]
    last_combat: tuple[tuple[str, Any], ...] | None
    result: tuple[str | None, str] | None  # (winner or None, how)
    terrain: tuple[str, ...]
    field: str  # normal | realtime
    clock: int  # minutes since the field opened
    registered: tuple[int | None, ...]  # minute of each side's registration
    phase_started: int
    finished_at: int | None
    archived: bool = False


@dataclass
class Profile:
    """The ruleset profile, read once: the two sides (CK-SIDE-1) and the one that moves first (ruling CK-R3),
    the budget (CK-ARMY-1), the map and its castles (ruling CK-R1), terrain costs and modifiers (CK-TERRAIN-1),
    the units' numbers, mostly chosen (ruling CK-R2), and the lobby's deadlines; ``gates``: the squares
    adjacent to each castle, whose holding wins (CK-WIN-2, ruling CK-R14)."""

    sides: tuple[str, ...]
    first: int
    budget: int
    deploy_columns: int
    width: int
    height: int
    castles: dict[str, tuple[int, int]]
    terrain_rows: tuple[str, ...]
    letters: dict[str, str]  # letter -> terrain name
    cost: dict[str, int | None]
    modifier: dict[str, int]
    units: dict[str, dict[str, Any]]
    directions: dict[str, int]
    lobby: dict[str, Any]
    ties: str  # who wins equal totals: attacker (the seed, CK-ATK-4), or a variant's defender or again
    gates: dict[str, tuple[tuple[int, int], ...]] = field(default_factory=dict)

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Profile:
        m = data["map"]
        p = cls(sides=tuple(data["sides"]), first=list(data["sides"]).index(data["first"]), budget=int(data["budget"]),
                deploy_columns=int(data["deploy_columns"]), width=int(m["width"]), height=int(m["height"]),
                castles={s: tuple(xy) for s, xy in m["castles"].items()}, terrain_rows=tuple(m["terrain"]),
                letters={t["letter"]: name for name, t in data["terrain"].items()},
                cost={name: t["cost"] for name, t in data["terrain"].items()},
                modifier={name: int(t["modifier"]) for name, t in data["terrain"].items()},
                units=dict(data["units"]), directions=dict(data["directions"]), lobby=dict(data["lobby"]),
                ties=str(data["ties"]))
        for side, (cx, cy) in p.castles.items():
            p.gates[side] = tuple(sorted((cx + dx, cy + dy) for dx, dy in STEPS.values()
                                         if 0 <= cx + dx < p.width and 0 <= cy + dy < p.height))
        return p


def public(u: Unit) -> dict[str, JSON]:
    """An enemy unit as a side sees it: whether it was the ambush shows only once it has appeared."""
    data = u.json()
    data["ambush"] = u.ambush and not u.hidden  # (a hidden enemy ambush is not shown at all)
    return data


def order(u: Unit) -> tuple[str, int]:
    side, _, rest = u.id.partition("-")
    return side, 0 if rest == "king" else int(rest)


def set_at(values: tuple, index: int, value: Any) -> tuple:
    return values[:index] + (value,) + values[index + 1:]


def adjacent(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether two squares share a side, never a corner: the one meaning of adjacent (ruling CK-R14)."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def direction(src: tuple[int, int], dst: tuple[int, int]) -> str:
    """The facing from ``src`` towards an orthogonally adjacent (or straight-line) ``dst``."""
    dx, dy = dst[0] - src[0], dst[1] - src[1]
    if abs(dx) >= abs(dy):
        return "e" if dx > 0 else "w"
    return "s" if dy > 0 else "n"


class Rules(Protocol):
    """What the rules' steps read of the engine (``ConquestKing``, passed in as ``game``: no topic module imports
    the engine). The steps call one another through it, so a variant engine that overrides one step (a
    misreading) changes every step that uses it."""

    p: Profile
    data: Mapping[str, Any]

    @property
    def info(self) -> GameInfo: ...

    def _after(self, state: State) -> State: ...
    def _closed(self, state: State, unit: Unit) -> set[Square]: ...
    def _default_facing(self, side: Any) -> str: ...
    def _deploy_area(self, terrain: tuple[str, ...], side: str) -> tuple[tuple[int, int], ...]: ...
    def _deploy_index(self, terrain: tuple[str, ...], side: str) -> dict[tuple[int, int], int]: ...
    def _deploy_squares(self, state: State, side: str) -> list[tuple[int, int]]: ...
    def _deploying(self, state: State, side: str) -> int: ...
    def _entries(self, terrain: tuple[str, ...]) -> dict[Square, tuple[tuple[Square, int], ...]]: ...
    def _faced(self, at: tuple[int, int], facing: str) -> tuple[int, int] | None: ...
    def _finish(self, state: State, winner: str | None, how: str) -> State: ...
    def _mover(self, state: State, at: list[int], hidden: bool = False) -> Unit: ...
    def _next_phase(self, state: State) -> State: ...
    def _numbered(self, units: tuple[Unit, ...]) -> tuple[tuple[Unit, ...], tuple[int, ...]]: ...
    def _on_map(self, at: tuple[int, ...]) -> bool: ...
    def _reachable(self, state: State, unit: Unit) -> dict[Square, int]: ...
    def _side_of(self, target: Unit, at: tuple[int, int]) -> str: ...
    def _taken(self, state: State) -> set[tuple[int, int]]: ...
    def _triggers(self, ambush: tuple[int, int], before: tuple[int, int], after: tuple[int, int]) -> bool: ...
    def bases(self, state: State, fight: Fight) -> tuple[int, int]: ...
    def deadlines(self, state: State) -> list[tuple[int, str]]: ...
    def participants(self, state: State, fight: Fight) -> tuple[list[Unit], Unit]: ...
    def terrain_at(self, state: State, at: tuple[int, int]) -> str: ...
    def unit(self, state: State, uid: str) -> Unit: ...
    def unit_at(self, state: State, at: tuple[int, ...], hidden: bool = False) -> Unit | None: ...
