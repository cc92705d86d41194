"""The board as every phase reads it: squares, terrain, who stands where, and which way is which."""

from __future__ import annotations

from typing import Any

from .model import STEPS, Rules, State, Unit


def _default_facing(game: Rules, side: Any) -> str:
    """Units face the enemy's half of the map unless told otherwise: east from a western castle (ruling
    CK-R12)."""
    castle = game.p.castles.get(side, (0, 0))
    return "e" if castle[0] < game.p.width / 2 else "w"


def _on_map(game: Rules, at: tuple[int, ...]) -> bool:
    return len(at) == 2 and 0 <= at[0] < game.p.width and 0 <= at[1] < game.p.height


def terrain_at(game: Rules, state: State, at: tuple[int, int]) -> str:
    return game.p.letters[state.terrain[at[1]][at[0]]]


def unit_at(game: Rules, state: State, at: tuple[int, ...], hidden: bool = False) -> Unit | None:
    """The unit on a square; a hidden ambush only when ``hidden`` (its square may also hold a friend). ``at`` as
    an action gives it: a tuple of another length is no square, and no unit stands on it."""
    return next((u for u in state.units if u.at == at and u.hidden == hidden), None)


def unit(game: Rules, state: State, uid: str) -> Unit:
    return next(u for u in state.units if u.id == uid)


def _faced(game: Rules, at: tuple[int, int], facing: str) -> tuple[int, int] | None:
    dx, dy = STEPS[facing]
    square = (at[0] + dx, at[1] + dy)
    return square if game._on_map(square) else None
