"""Conquest King: the rules of specs/conquest-king.md as a pure engine.

Phases: ``deploy`` (both sides place units within budget, one may be the ambush, then confirm twice),
``play`` (the side to move moves each unit at most once, maybe attacking, then ends its phase),
``combat`` (a fight waits for its two dice, a chance action), ``over``. Time is an action too
(``wait``), so the lobby's deadlines are tested without a clock. Every chosen number comes from the
ruleset profile (data/conquest-king.yaml).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import JSON, BadSetup, Game, GameInfo, IllegalAction, MalformedAction
from . import battle, board, deployment, lobby, views
from .model import Profile, State, Unit, order
from .views import observer_of

INFO = GameInfo(
    name="conquest-king",
    title="Conquest King",
    source="004_46cf37fb369b2cbe.txt",
    rule_prefix="CK",
    players=("sparkia", "gaias"),
    rulesets=("v1",),
    default_ruleset="v1",
    results=("sparkia", "gaias", "deleted", "reset"),
    hidden_information=True,
    typical_length=200,
    field_rules={  # the rules that decide each view field (and rejections, refusals, legal lists)
        "game": ("CK-VIEW-1",),
        "ruleset": ("CK-VIEW-1",),
        "observer": ("CK-VIEW-1", "CK-HIDE-1"),
        "phase": ("CK-DEPLOY-3", "CK-R7", "CK-R10", "CK-R11", "CK-ATK-1", "CK-AMB-4", "CK-WIN-1", "CK-WIN-2",
                  "CK-LOBBY-1", "CK-LOBBY-3", "CK-LOBBY-4", "CK-LOBBY-6", "CK-R14"),
        "turn": ("CK-TURN-1", "CK-R3", "CK-R8", "CK-START-1", "CK-LOBBY-4"),
        "side": ("CK-TURN-1", "CK-R3", "CK-R8", "CK-START-1", "CK-LOBBY-4", "CK-SIDE-1"),
        "terrain": ("CK-R1", "CK-TERRAIN-1", "CK-START-1"),
        "units": ("CK-MOVE-1", "CK-HIDE-1", "CK-ATK-5", "CK-AMB-3", "CK-ARMY-1", "CK-VIEW-1", "CK-DEPLOY-1",
                  "CK-DEPLOY-2", "CK-AMB-2", "CK-AMB-4", "CK-AMB-5", "CK-AMB-7", "CK-AMB-8", "CK-ATK-2", "CK-ATK-6",
                  "CK-R1", "CK-R9", "CK-R12"),
        "deployment": ("CK-DEPLOY-2", "CK-DEPLOY-3", "CK-ARMY-1", "CK-R9", "CK-HIDE-1", "CK-R2"),
        "combat": ("CK-ATK-2", "CK-ATK-3", "CK-AMB-4", "CK-R6", "CK-ATK-1", "CK-R14", "CK-R15"),
        "last_combat": ("CK-ATK-4", "CK-ATK-5", "CK-AMB-3", "CK-R7", "CK-ATK-6", "CK-AMB-4"),
        "result": ("CK-WIN-1", "CK-WIN-2", "CK-R10", "CK-R11", "CK-LOBBY-1", "CK-LOBBY-3", "CK-LOBBY-6"),
        "lobby": ("CK-R11", "CK-LOBBY-2", "CK-LOBBY-5", "CK-START-1"),
        "rejected": ("CK-FORM-1", "CK-FORM-2", "CK-R13", "CK-MOVE-1", "CK-ARMY-1", "CK-DEPLOY-1", "CK-DEPLOY-2",
                     "CK-DEPLOY-3", "CK-AMB-1", "CK-AMB-5", "CK-AMB-6", "CK-AMB-7", "CK-AMB-8", "CK-TERRAIN-1",
                     "CK-ATK-1", "CK-R4", "CK-R5"),
        "error": ("CK-START-1", "CK-R12", "CK-R1", "CK-SIDE-1"),
        "legal": ("CK-LEGAL-1", "CK-HIDE-1", "CK-R11", "CK-DEPLOY-1", "CK-ARMY-1", "CK-DEPLOY-2", "CK-DEPLOY-3",
                  "CK-AMB-1", "CK-AMB-5", "CK-AMB-7", "CK-MOVE-1", "CK-TERRAIN-1", "CK-ATK-1", "CK-R4", "CK-R5"),
    },
)


# The form of each action (rule CK-FORM-1): its keys besides ``type``, the keys it may add, and the JSON type of
# each key wherever it appears.
FORMS = {"deploy": frozenset({"side", "kind", "at"}), "undeploy": frozenset({"side", "at"}),
         "complete": frozenset({"side"}), "move": frozenset({"from", "to", "facing"}), "reveal": frozenset({"at"}),
         "end-phase": frozenset(), "dice": frozenset({"attacker", "defender"}), "register": frozenset({"side"}),
         "wait": frozenset({"minutes"})}
OPTIONAL = {"deploy": frozenset({"ambush", "facing"}), "move": frozenset({"attack"})}
SQUARE_KEYS = ("at", "from", "to")  # [x, y]
TYPES = {"side": str, "kind": str, "facing": str, "attack": bool, "ambush": bool, "minutes": int,
         "attacker": int, "defender": int}


class ConquestKing(Game[State, dict]):
    """The Conquest King engine: the profile's numbers, the surface the kit uses, and the dispatch of actions to
    the rules' steps. Each step is a function of a topic module (board, battle, deployment, lobby, views), bound
    below as a method; the steps call one another through the engine, so a variant engine that overrides one
    step (a misreading) changes every step that uses it."""

    info = INFO

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = data
        self.p = Profile.from_data(data)

    # --- creating ----------------------------------------------------------------------------
    def new_state(self, ruleset: str | None = None, seed: int | None = None,
                  setup: Mapping[str, JSON] | None = None) -> State:
        """The start of deployment (the seed is not used). ``setup``: ``terrain`` (rows of letters),
        ``field`` (normal or realtime), ``registered`` (sides registered at minute 0; default both), and
        ``units`` with ``turn`` and ``side``: a position to start play from. Implements CK-START-1: each side
        has its King in its castle (CK-DEPLOY-1) and the whole budget (CK-ARMY-1), the profile's map unless
        the set-up gives one (ruling CK-R1), and the first side to move (ruling CK-R3). Raises BadSetup for
        what the spec's section "Start and set-up" refuses."""
        name = self._ruleset(ruleset)
        p = self.p
        setup = dict(setup or {})
        unknown = sorted(set(setup) - {"terrain", "field", "registered", "units", "turn", "side"})
        if unknown:
            raise BadSetup("bad-setup", f"unknown set-up keys {unknown}")
        terrain = setup.get("terrain", list(p.terrain_rows))
        if type(terrain) is not list or len(terrain) != p.height or any(
                type(r) is not str or len(r) != p.width or set(r) - set(p.letters) for r in terrain):
            raise BadSetup("bad-setup", f"terrain must be {p.height} rows of {p.width} letters "
                                        f"from {''.join(p.letters)}")
        for side, (cx, cy) in p.castles.items():
            if terrain[cy][cx] == "m":  # a King could leave its castle and never come back (ruling CK-R4)
                raise BadSetup("bad-setup", f"the {side} castle at [{cx}, {cy}] cannot be a mountain")
        field_ = setup.get("field", "normal")
        registered = setup.get("registered", list(p.sides))
        if field_ not in ("normal", "realtime") or type(registered) is not list \
                or not all(type(s) is str and s in p.sides for s in registered):
            raise BadSetup("bad-setup", "field is normal or realtime; registered lists sides")
        if ("turn" in setup or "side" in setup) and "units" not in setup:
            raise BadSetup("bad-setup", "turn and side belong to a position: give units too")
        kings = tuple(sorted((Unit(f"{s}-king", s, "king", p.castles[s], self._default_facing(s)) for s in p.sides),
                             key=order))
        state = State(name, "deploy", 1, p.first, kings, (p.budget,) * len(p.sides), (0,) * len(p.sides),
                      (0,) * len(p.sides), (), None, None, tuple(terrain), field_, 0,
                      tuple(0 if s in registered else None for s in p.sides), 0, None)
        if "units" in setup:
            state = self._position(state, setup)
        return state

    def explicit_setup(self, ruleset: str | None, seed: int | None,
                       setup: Mapping[str, JSON]) -> Mapping[str, JSON]:
        """The set-up with the profile's map given as ``terrain`` when it gives none (ruling CK-R1: the seed
        draws a map at every reset, so a build may draw its own; the kit gives a build with its own random
        source the map it judges by). A refused set-up gets it too: the map may be why it is refused (a unit on
        the profile's mountain), and a set-up refused for another reason is refused with the map as well."""
        if not isinstance(setup, Mapping) or "terrain" in setup:
            return setup
        return {**setup, "terrain": list(self.p.terrain_rows)}

    # --- actions -----------------------------------------------------------------------------
    def parse_action(self, data: JSON) -> dict:
        """The action ``data`` writes, checked for form only. Implements CK-FORM-1. Raises MalformedAction."""
        if type(data) is not dict or not isinstance(data.get("type"), str):
            raise MalformedAction("malformed-action", f"an action must be a mapping with a type, got {data!r}")
        kind = data["type"]
        if kind not in FORMS:
            raise MalformedAction("unknown-action", f"Conquest King actions are {', '.join(FORMS)}; got {kind!r}")
        keys = data.keys() - {"type"}
        needed, optional = FORMS[kind], OPTIONAL.get(kind, frozenset())
        if not needed <= keys or keys - needed - optional:
            raise MalformedAction("malformed-action", f"a {kind} action has keys {sorted(needed)}"
                                  f" (optional {sorted(optional)}): {data!r}")
        for key in SQUARE_KEYS:  # in this order, then TYPES's, so the first fault named is always the same
            if key in data:
                value = data[key]
                if not (isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value)):
                    raise MalformedAction("malformed-action", f"{key} must be [x, y], got {value!r}")
        for key, kind_ in TYPES.items():
            if key in data and type(data[key]) is not kind_:
                raise MalformedAction("malformed-action", f"{key} must be a {kind_.__name__}, got {data[key]!r}")
        return dict(data)

    def action_json(self, action: dict) -> JSON:
        return dict(action)

    def actions_json(self, actions: list[dict]) -> list[JSON]:
        """The list itself: its actions are JSON already (``_legal``, ``extra_actions``), and read-only, as
        every action a list holds (deployments are shared between lists: ``_deploy_actions``)."""
        return actions

    def legal_actions(self, state: State, observer: str | None = None) -> list[dict]:
        """The actions of the rules proper (not ``wait`` and ``register``, which are the lobby's: ruling CK-R11).
        A side (``observer``) gets its own: its deployment, or its phase's moves when it is the side to move;
        never the dice, which are chance (CK-HIDE-1). Implements CK-LEGAL-1."""
        return self.observer_legal(state, observer, self._legal(state))

    def observer_legal(self, state: State, observer: str | None, actions: list[dict]) -> list[dict]:
        """The share of the referee's list ``actions`` that ``observer`` gets (``legal_actions``). Implements
        CK-HIDE-1. Raises IllegalAction ``unknown-observer``."""
        observer = observer_of(observer)
        if observer == "referee":
            return actions
        if state.phase == "deploy":
            return [a for a in actions if a["side"] == observer]
        return actions if state.phase == "play" and self.p.sides[state.side] == observer else []

    def _legal(self, state: State) -> list[dict]:
        # A type comment rather than a new annotated statement: in the engines every statement is a mutant the power
        # meter samples, and the population stays as it was.
        p, out = self.p, []  # type: Profile, list[dict[str, Any]]
        if state.phase == "combat":
            return [{"type": "dice", "attacker": a, "defender": d} for a in range(1, 7) for d in range(1, 7)]
        if state.phase == "deploy":
            for s, side in enumerate(p.sides):
                if state.registered[s] is None or state.complete[s] == 2:
                    continue
                out.append({"type": "complete", "side": side})
                out += [{"type": "undeploy", "side": side, "at": list(u.at)} for u in state.units
                        if u.side == side and u.kind != "king"]
                free = self._free_runs(state, side)
                may_ambush = not any(u.ambush for u in state.units if u.side == side)
                per = 2 if may_ambush else 1  # a square's placements: plain, then as the ambush
                for kind, row in p.units.items():
                    if row["price"] is None or row["price"] > state.gold[s]:
                        continue
                    actions = self._deploy_actions(state.terrain, side, kind, may_ambush)
                    for start, end in free:
                        out += actions[start * per:end * per]
            return out
        if state.phase != "play":
            return []
        side = p.sides[state.side]
        visible = {u.at: u for u in state.units if not u.hidden}
        for u in state.units:
            if u.side != side:
                continue
            if u.hidden:
                if u.at not in visible:  # never under a friend (ruling CK-R13)
                    out.append({"type": "reveal", "at": list(u.at)})
                continue
            if u.moved:
                continue
            for to in self._reachable(state, u):
                for move, attack, target in self._moves(u.at, to):
                    out.append(move)
                    enemy = visible.get(target) if target else None
                    if enemy is not None and enemy.side != side and not enemy.hidden:
                        out.append(attack)
        out.append({"type": "end-phase"})
        return out

    def extra_actions(self, state: State) -> list[dict]:
        """Time passing and registering: the lobby's actions; the waits include those that end exactly at the
        next deadlines and a minute before them (the clock's edges)."""
        minutes = {30, 720}
        for when, _event in self.deadlines(state)[:2]:
            minutes |= {m for m in (when - state.clock - 1, when - state.clock) if m > 0}
        out: list[dict] = [{"type": "wait", "minutes": m} for m in sorted(minutes)]
        out += [{"type": "register", "side": s} for i, s in enumerate(self.p.sides) if state.registered[i] is None]
        return out if state.phase != "over" else []

    def apply(self, state: State, action: dict) -> State:
        """``state`` after ``action``: ``wait`` and ``register`` first (time passes even after the end), then
        game-over, then each action's own checks in the order of the spec's "Actions" (CK-FORM-2). Raises
        IllegalAction."""
        kind = action["type"]
        if kind == "wait":
            return self._wait(state, action["minutes"])
        if kind == "register":
            return self._register(state, action["side"])
        if state.phase == "over":
            raise IllegalAction("game-over", "the game is over")
        handler = {"deploy": self._deploy, "undeploy": self._undeploy, "complete": self._complete,
                   "move": self._move, "reveal": self._reveal, "end-phase": self._end_phase,
                   "dice": self._dice}[kind]
        return handler(state, action)

    def outcome_of_view(self, view: Mapping[str, JSON]) -> str | None:
        result = view.get("result")
        if not isinstance(result, dict):
            return None
        return result.get("winner") or result.get("by")

    def outcome(self, state: State) -> str | None:
        if state.result is None:
            return None
        winner, how = state.result
        return winner if winner is not None else how

    # --- the rules' steps, from the topic modules ---------------------------------------------------
    _default_facing = board._default_facing
    _on_map = board._on_map
    terrain_at = board.terrain_at
    unit_at = board.unit_at
    unit = board.unit
    _faced = board._faced

    _mover = battle._mover
    _reachable = battle._reachable
    _moves = battle._moves
    _closed = battle._closed
    _entries = battle._entries
    _move = battle._move
    _triggers = battle._triggers
    _reveal = battle._reveal
    _end_phase = battle._end_phase
    _next_phase = battle._next_phase
    participants = battle.participants
    bases = battle.bases
    _side_of = battle._side_of
    _dice = battle._dice
    _after = battle._after
    _finish = battle._finish

    _position = deployment._position
    setup_of = deployment.setup_of
    _taken = deployment._taken
    _deploy_squares = deployment._deploy_squares
    _deploy_area = deployment._deploy_area
    _deploy_actions = deployment._deploy_actions
    _deploy_index = deployment._deploy_index
    _free_runs = deployment._free_runs
    _deploying = deployment._deploying
    _deploy = deployment._deploy
    _undeploy = deployment._undeploy
    _complete = deployment._complete
    _numbered = deployment._numbered

    _register = lobby._register
    deadlines = lobby.deadlines
    _wait = lobby._wait

    view = views.view
    describe = views.describe
