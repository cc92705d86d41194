"""What only the kit's tests ask of the engines, kept beside them rather than in the engines (issue 44: code that
only tests call goes to the tests): a state rebuilt from its view, for the round-trip tests, and Ludo's CPU scores
one move at a time."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from refimpl.games import JSON, BadSetup, Game, streams
from refimpl.games.beacon_lines import State as BeaconState
from refimpl.games.lantern_quay import State as LanternState
from refimpl.games.ludo import State as LudoState
from refimpl.games.ludo.cpu import Position, Rules, assess


def from_view(engine: Game[Any, Any], view: Mapping[str, JSON]) -> Any:
    """The state whose full view ``view`` is, for the games whose views hold their whole state (Beacon Lines,
    Lantern Quay, Ludo). Raises BadSetup ``bad-view`` for a view that is not one of the game's, and for every view
    of Conquest King (hidden deployments, a seeded stream) and Black Fog (a seeded stream): their states are
    rebuilt by replaying their actions."""
    rebuild = {"beacon-lines": _beacon_lines, "lantern-quay": _lantern_quay, "ludo": _ludo}.get(engine.info.name)
    if rebuild is None:
        raise BadSetup("bad-view", f"{engine.info.title} states are rebuilt by replaying their actions")
    state = rebuild(engine, view)
    if engine.view(state) != dict(view):
        raise BadSetup("bad-view", "the view is not consistent (its derived fields do not match)")
    return state


def _beacon_lines(engine: Any, view: Mapping[str, JSON]) -> BeaconState:
    try:
        board = engine.boards[engine._ruleset(view["ruleset"])]
        markers = tuple((r, tuple(int(view["markers"][r][f]) for f in board.factions)) for r in board.contested)
        return BeaconState(ruleset=view["ruleset"], round=int(view["round"]), markers=markers, result=view["result"])
    except (KeyError, TypeError, ValueError) as exc:
        raise BadSetup("bad-view", f"not a Beacon Lines view: {exc!r}") from exc


def _lantern_quay(engine: Any, view: Mapping[str, JSON]) -> LanternState:
    try:
        order = [s for s in engine.tables.slots if view["placed"][s] is not None]
        return LanternState(ruleset=engine._ruleset(view["ruleset"]), round=int(view["round"]),
                            brass=int(view["brass"]), modules=int(view["modules"]), lenses=int(view["lenses"]),
                            dice=tuple(int(d) for d in view["dice"]),
                            placed=tuple((s, int(view["placed"][s])) for s in order), result=view["result"])
    except (KeyError, TypeError, ValueError) as exc:
        raise BadSetup("bad-view", f"not a Lantern Quay view: {exc!r}") from exc


def _ludo(engine: Any, view: Mapping[str, JSON]) -> LudoState:
    try:
        base = engine._position(view["ruleset"], view["seed"], {"pieces": dict(view["pieces"]), "turn": view["turn"]})
        dice = streams.after_faces(base.dice_state, int(view["throws"]))
        choice = base.choice_state
        for _ in range(int(view["decisions"])):
            choice, _out = streams.splitmix64(choice)
        return LudoState(base.ruleset, base.seed, base.turn, view["phase"], view["roll"] or 0, int(view["sixes"]),
                         int(view["throws"]), int(view["decisions"]), base.pieces, view["result"],
                         view["last_face"] or 0, dice, choice)
    except (KeyError, TypeError, ValueError, BadSetup) as exc:
        raise BadSetup("bad-view", f"not a Ludo view: {exc}") from None


def risk_216(game: Rules, pos: Position, piece: int) -> int:
    """216 x the chance that the moved piece is captured on the next turn (LD-CPU-3, ruling LD-R9, as
    ``cpu.assess`` works it out)."""
    return assess(game, pos, piece, with_risk=True)[1]


def score(game: Rules, pos: Position, piece: int, with_risk: bool) -> int:
    """One move's score: its value, or with ``with_risk`` (hard) 216 x value - 216 x risk (ruling LD-R8)."""
    value, risk = assess(game, pos, piece, with_risk)
    return 216 * value - risk if with_risk else value


def scores(game: Rules, pos: Position, level: str) -> dict[int, int]:
    """Each legal move's score for ``level`` (normal or hard)."""
    return {p: score(game, pos, p, level != "normal") for p in game.movable(pos)}
