"""The animal movement phase of Black Fog (specs/black-fog.md, "The animal movement phase"; ruling BF-R15).

The wild animals move one after another in set-up order, each step decided afresh: toward feed when feed is
in reach (the players choosing when several tokens are), else by a die, a chance action given explicitly or
drawn from the seeded stream. Functions of the engine (``game``: its profile and its steps) and a state.
"""

from __future__ import annotations

from typing import Any

from .. import streams
from ..base import IllegalAction, evolve
from . import hexes
from .hexes import Hex
from .model import Animal, Rules, State


def step(game: Rules, state: State, animal: Animal, to: Hex) -> Animal:
    """``animal`` after a move onto ``to`` (by die, toward feed or to a whistle); into fog it is lost
    (BF-ANIMAL-5, BF-WHISTLE-3, BF-FOG-4). Onto the house it is not saved (ruling BF-R10)."""
    if to in state.fog:
        return evolve(animal, at=None, status="lost")
    return evolve(animal, at=to)


def moving(game: Rules, state: State) -> Animal | None:
    """The animal whose turn it is in the animal phase, in set-up order (BF-ANIMAL-6, ruling BF-R15), or None
    after the last."""
    return state.animals[state.mover] if state.mover < len(state.animals) else None


def feed_options(game: Rules, state: State) -> list[Hex | None]:
    """The feed tokens the moving animal may head for at this step, by the tokens within 2 tiles when it begins
    (ruling BF-R15): [] when a die is wanted, one it walks to without asking, several the players choose among
    (BF-ANIMAL-3). On a token, None (it stays) comes first, and it stays unasked when no other is near
    (BF-ANIMAL-4). Implements BF-ANIMAL-2, BF-ANIMAL-3, BF-ANIMAL-4."""
    animal = game._moving(state)
    if animal is None or animal.status != "wild":
        return []
    # ignore: a wild animal stands on a tile (at is None only once carried, saved or lost)
    near = sorted(f for f in state.feed if hexes.distance(f, animal.at) <= int(game.data["feed_range"]))  # type: ignore[arg-type]
    if animal.at in state.feed:
        others = [f for f in near if f != animal.at]
        return [None] + others if others else [None]  # None: it stays on its feed
    return near  # type: ignore[return-value]  # the tiles are options too (a list's item type is invariant)


def run_animals(game: Rules, state: State) -> State:
    """Move animals until a die or a choice is needed, or the phase is over (then the fog phase). Implements
    BF-ANIMAL-6 (set-up order, each to the end of its steps; carried, saved and lost animals skipped),
    BF-ANIMAL-1 (a small animal's two steps, one for the others) and ruling BF-R16 (as many steps toward feed
    as it would throw dice)."""
    while True:
        animal = game._moving(state)
        if animal is None:
            return game._fog_phase(evolve(state, phase="fog", mover=0, steps_left=0))
        if animal.status != "wild":
            state = evolve(state, mover=state.mover + 1, steps_left=0)
            continue
        if state.steps_left == 0:
            state = evolve(state, steps_left=int(game.data["sizes"][animal.size]["rolls"]))
        options = game._feed_options(state)
        if len(options) > 1:
            return state  # BF-ANIMAL-3: the players choose
        if len(options) == 1:
            state = game._walk(state, animal, options[0])  # BF-ANIMAL-2, BF-ANIMAL-4: no die
            continue
        return state  # BF-ANIMAL-1: a die is wanted


def walk(game: Rules, state: State, animal: Animal, target: Hex | None) -> State:
    """One step of the moving animal toward ``target`` (ruling BF-R3; None: it stays, BF-ANIMAL-4), then on to
    its next step. Implements BF-ANIMAL-2."""
    moved = animal
    if target is not None:
        # ignore: the moving animal is wild, and stands on a tile (at is None only once carried, saved or lost)
        moved = game._land(state, animal, hexes.toward(animal.at, target))  # type: ignore[arg-type]
    return game._advance(game._set_animals(state, {animal.id: moved}), moved)


def land(game: Rules, state: State, animal: Animal, to: Hex) -> Animal:
    """``animal`` after a step of the animal phase onto ``to``: off the map or onto water (fogged water too:
    ruling BF-R5, water wins) it does not move; into fog it is lost. Implements BF-ANIMAL-5."""
    if to not in game.tiles or to in state.water:
        return animal  # off the map or onto water: no move
    return game._step(state, animal, to)


def advance(game: Rules, state: State, animal: Animal) -> State:
    """The moving animal's step is used up: on to its next step, or to the next animal after its last or once
    it is lost (BF-ANIMAL-6, ruling BF-R15)."""
    left = state.steps_left - 1
    if left <= 0 or animal.status != "wild":
        return evolve(state, mover=state.mover + 1, steps_left=0)
    return evolve(state, steps_left=left)


def roll(game: Rules, state: State, face: Any) -> State:
    """A die for the moving animal's step: ``face`` 1-6, or None for the seeded stream's throw (ruling BF-R6);
    the animal steps in the face's direction (ruling BF-R2), or stays where it cannot (BF-ANIMAL-5), then the
    phase goes on. Implements BF-ANIMAL-1. Raises IllegalAction ``bad-face``."""
    if face is None:
        state, face = game._seeded_face(state)
    elif type(face) is not int or not 1 <= face <= 6:
        raise IllegalAction("bad-face", f"a die shows 1 to 6, got {face!r}")
    animal = game._moving(state)
    assert animal is not None and animal.at is not None
    moved = game._land(state, animal, hexes.neighbour(animal.at, face))
    return game._run_animals(game._advance(game._set_animals(state, {animal.id: moved}), moved))


def choose_feed(game: Rules, state: State, feed: Any) -> State:
    """The players' choice of feed token for the moving animal's step (None: it stays on its token), then the
    phase goes on. Implements BF-ANIMAL-3 and BF-ANIMAL-4. Raises IllegalAction ``not-an-option``."""
    options = game._feed_options(state)
    try:
        target = None if feed is None else game._tile(feed)
    except ValueError:
        target = "not a tile"  # type: ignore[assignment]  # never among the options: refused below
    if target not in options:
        raise IllegalAction("not-an-option", f"choose one of {[hexes.name(o) if o else None for o in options]}")
    animal = game._moving(state)
    assert animal is not None
    return game._run_animals(game._walk(state, animal, target))


def seeded_face(game: Rules, state: State) -> tuple[State, int]:
    """The state after the seeded stream throws a die (one draw over 6, counted in ``draws``), and its face
    (ruling BF-R6)."""
    stream, k, used = streams.draw(state.stream, 6)
    return evolve(state, stream=stream, draws=state.draws + used), k + 1
