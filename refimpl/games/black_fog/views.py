"""What a Black Fog state shows: its score and its JSON view (specs/black-fog.md, "State view").

Functions of the engine (``game``: its profile and its steps) and a state; none changes the state.
"""

from __future__ import annotations

from ..base import JSON
from . import hexes
from .hexes import Hex
from .model import Rules, State


def score(game: Rules, state: State) -> dict[str, int]:
    """The score at any moment: a, b, c per small, medium, large animal saved; d, e, f for each size whose every
    species (as the ruleset lists them) has an animal saved (ruling BF-R13); -g per keeper lost; -h per animal
    lost (ruling BF-R8: those a lost keeper held too); and the total. Implements BF-SCORE-1 with the values of
    the profile (ruling BF-R11)."""
    s = game.data["score"]
    saved = [a for a in state.animals if a.status == "saved"]
    points = {"saved": sum(game.saved_points[a.size] for a in saved)}
    species = {a.species for a in saved}
    points["species_bonus"] = sum(bonus for kinds, bonus in game.size_bonus if kinds and kinds <= species)
    points["lost_keepers"] = -s["g"] * sum(k.lost for k in state.keepers)
    points["lost_animals"] = -s["h"] * sum(a.status == "lost" for a in state.animals)
    points["total"] = sum(points.values())
    return points


def view(game: Rules, state: State, observer: str | None = None) -> dict[str, JSON]:
    """The state view: exactly the fields of the spec's section "State view", tiles named ``"q,r"`` and listed
    sorted by q, then r. Implements BF-VIEW-1 (``pending`` as the game waits: BF-ANIMAL-3, BF-FOG-1)."""
    name = game.names.__getitem__
    names = lambda tiles: list(game._listed(tiles))  # noqa: E731
    moving = game._moving(state) if state.phase == "animals" else None
    pending = None
    if moving is not None:
        pending = {"animal": moving.id, "steps_left": state.steps_left, "needs": game.pending(state)}
        if pending["needs"] == "feed":
            pending["options"] = [hexes.name(o) if o else None for o in game._feed_options(state)]
    elif state.phase == "fog":
        pending = {"needs": "fog", "ring": int(game.data["fog_appears"][state.round])}
    return {
        "game": game.info.name,
        "ruleset": state.ruleset,
        "seed": state.seed,
        "round": state.round,
        "phase": state.phase,
        "pending": pending,
        "keepers": {k.id: {"at": name(k.at), "carrying": list(k.carrying), "lost": k.lost,
                           "actions": k.actions} for k in state.keepers},
        "animals": {a.id: {"species": a.species, "size": a.size, "at": name(a.at) if a.at else None,
                           "status": a.status} for a in state.animals},
        "map": {"apple": names(state.apple), "withered": names(state.withered), "water": names(state.water),
                "fog": names(state.fog), "feed": names(state.feed)},
        "score": game.score(state),
        "draws": state.draws,
    }


def listed(game: Rules, tiles: frozenset[Hex]) -> tuple[str, ...]:
    """The names of ``tiles`` in tile order (q, then r, as numbers), as a view lists them (BF-VIEW-1); the
    engine caches them for the sets that come back (most actions leave the trees, the water, the fog and the
    feed as they were)."""
    return tuple(game.names[t] for t in sorted(tiles))
