"""Beacon Lines: a seven-region territory game with simultaneous claims (spec: specs/beacon-lines.md).

A round is one joint action: one claim per faction, both chosen from the control snapshot taken at
the start of the round, then revealed together. Claims add permanent markers; control of a non-Home
region is recomputed by strict majority after every round, then the factions score.

The seed's worked routes (BL-ROUTE-1, BL-ROUTE-2, BL-ROUTE-3) are not coded anywhere: they follow from the
rules below, and the traces replay them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from typing import Any

from ..base import JSON, Game, GameInfo, IllegalAction, MalformedAction, evolve, expect_mapping

INFO = GameInfo(
    name="beacon-lines",
    title="Beacon Lines",
    source="000_513e53902abb04a8.txt",
    rule_prefix="BL",
    players=("red", "blue"),
    rulesets=("v0", "v1"),
    default_ruleset="v1",
    results=("red", "blue", "draw"),
    typical_length=12,
    field_rules={  # the rules that decide each view field (and rejections, refusals, legal lists)
        "game": ("BL-VIEW-1",),
        "ruleset": ("BL-VIEW-1", "BL-SCORE-2"),
        "round": ("BL-R2", "BL-WIN-2", "BL-WIN-1", "BL-RESTART-1", "BL-R7"),
        "markers": ("BL-TURN-5", "BL-CTRL-1", "BL-MAP-4", "BL-RESTART-1", "BL-R5"),
        "control": ("BL-CTRL-2", "BL-CTRL-3", "BL-MAP-4", "BL-RESTART-1", "BL-MAP-1", "BL-ROUTE-1", "BL-ROUTE-2",
                    "BL-ROUTE-3"),
        "scores": ("BL-SCORE-1", "BL-SCORE-2", "BL-CTRL-2", "BL-RESTART-1", "BL-ROUTE-1", "BL-ROUTE-2",
                   "BL-ROUTE-3"),
        "result": ("BL-WIN-1", "BL-WIN-2", "BL-R4", "BL-WIN-3", "BL-R7", "BL-ROUTE-1", "BL-ROUTE-2", "BL-ROUTE-3"),
        "rejected": ("BL-FORM-1", "BL-FORM-2", "BL-TURN-2", "BL-TURN-4", "BL-TURN-1", "BL-TURN-3", "BL-TURN-6",
                     "BL-MAP-2", "BL-MAP-3", "BL-CTRL-3", "BL-R1", "BL-R6"),
        "error": ("BL-START-1",),
        "legal": ("BL-LEGAL-1", "BL-MAP-2", "BL-TURN-2", "BL-TURN-6", "BL-TURN-3", "BL-MAP-3", "BL-TURN-1",
                  "BL-CTRL-3", "BL-R1"),
    },
)


@dataclass(frozen=True)
class Claim:
    """The joint action of one round: the region each faction claims (``targets[faction]``).

    A faction's entry may hold more than one region only so that a build which accepts a second
    claim can be asked about it; the rules reject it (``one-claim-per-round``). Both factions' claims are
    inputs: the kit has no built-in opponent script (ruling BL-R5).
    """

    targets: tuple[tuple[str, tuple[str, ...]], ...]

    @classmethod
    def of(cls, **targets: str) -> Claim:
        return cls(tuple((f, (r,)) for f, r in targets.items()))

    def to_json(self) -> JSON:
        return {"type": "claim",
                "claims": {f: (rs[0] if len(rs) == 1 else list(rs)) for f, rs in self.targets}}


@dataclass(frozen=True)
class Board:
    """The map and numbers of one ruleset, read from data/beacon-lines.yaml.

    Implements BL-MAP-1, BL-MAP-2, BL-MAP-3 (the seven regions and the ten edges of the data table, made
    symmetric, and nothing else), BL-SCORE-2 (the values of the ruleset) and the thresholds of BL-WIN-1 and
    BL-WIN-2."""

    factions: tuple[str, ...]
    regions: tuple[str, ...]
    names: Mapping[str, str]
    homes: Mapping[str, str]  # home region -> owning faction
    neighbours: Mapping[str, frozenset[str]]
    values: Mapping[str, int]
    rounds: int
    min_score: int
    min_lead: int

    @classmethod
    def from_data(cls, data: Mapping[str, Any], ruleset: str) -> Board:
        regions = tuple(r["id"] for r in data["regions"])
        neighbours: dict[str, set[str]] = {r: set() for r in regions}
        for a, b in data["edges"]:
            neighbours[a].add(b)
            neighbours[b].add(a)
        values = {r["id"]: int(r["value"]) for r in data["regions"]}
        values.update(data["rulesets"][ruleset].get("values", {}))
        return cls(
            factions=tuple(data["factions"]),
            regions=regions,
            names={r["id"]: r["name"] for r in data["regions"]},
            homes={r["id"]: r["owner"] for r in data["regions"] if r["kind"] == "home"},
            neighbours={r: frozenset(n) for r, n in neighbours.items()},
            values=values,
            rounds=int(data["rounds"]),
            min_score=int(data["win"]["min_score"]),
            min_lead=int(data["win"]["min_lead"]),
        )

    @property
    def contested(self) -> tuple[str, ...]:
        """The non-Home regions, in table order: the only regions that carry markers and the only possible
        targets (BL-CTRL-3)."""
        return tuple(r for r in self.regions if r not in self.homes)


@dataclass(frozen=True)
class State:
    ruleset: str
    round: int  # the round being played; once the game is over, the round it ended in
    markers: tuple[tuple[str, tuple[int, ...]], ...]  # region -> markers per faction (board order)
    result: str | None = None

    def marker_counts(self) -> dict[str, tuple[int, ...]]:
        return dict(self.markers)


@dataclass(frozen=True)
class _Position:
    control: Mapping[str, str | None]
    scores: Mapping[str, int]
    targets: Mapping[str, tuple[str, ...]]


class BeaconLines(Game[State, Claim]):
    info = INFO

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = data
        self.boards = {rs: Board.from_data(data, rs) for rs in INFO.rulesets}

    # --- creating ----------------------------------------------------------------------------
    def new_state(self, ruleset: str | None = None, seed: int | None = None,
                  setup: Mapping[str, JSON] | None = None) -> State:
        """The start state: round 1, the five non-Home regions neutral with no markers (BL-MAP-4); restart
        comes back here (BL-RESTART-1, BL-R5). No set-up, and the seed is ignored (BL-START-1)."""
        name = self._ruleset(ruleset)
        self._no_setup(setup)
        board = self.boards[name]
        empty = tuple(0 for _ in board.factions)
        return State(ruleset=name, round=1, markers=tuple((r, empty) for r in board.contested))

    # --- rules -------------------------------------------------------------------------------
    @lru_cache(maxsize=4096)  # noqa: B019 - engines live as long as the process; keys are small tuples
    def _position(self, ruleset: str, markers: tuple[tuple[str, tuple[int, ...]], ...]) -> _Position:
        """Everything that follows from the markers alone, worked out once per distinct position: control
        (BL-CTRL-2, BL-CTRL-3), scores (BL-SCORE-1) and each faction's targets (BL-TURN-2, BL-TURN-6, ruling
        BL-R1)."""
        board = self.boards[ruleset]
        counts = dict(markers)
        control: dict[str, str | None] = {}
        for region in board.regions:
            if region in board.homes:  # Homes are their owner's, never decided by markers (BL-CTRL-3)
                control[region] = board.homes[region]
                continue
            per = counts[region]
            top = max(per)
            leaders = [f for f, n in zip(board.factions, per) if n == top]
            control[region] = leaders[0] if top > 0 and len(leaders) == 1 else None  # strict majority (BL-CTRL-2)
        scores = {f: 0 for f in board.factions}
        for region, owner in control.items():
            if owner is not None:
                scores[owner] += board.values[region]
        targets = {}  # adjacent to a region controlled now; controlling a region is not enough (BL-TURN-6, BL-R1)
        for faction in board.factions:
            reachable = set().union(*(board.neighbours[r] for r, o in control.items() if o == faction))
            targets[faction] = tuple(r for r in board.contested if r in reachable)
        return _Position(control, scores, targets)

    def control(self, state: State) -> dict[str, str | None]:
        """Who controls each region: Homes by ownership, others by strict marker majority (BL-CTRL-2,
        BL-CTRL-3)."""
        return dict(self._position(state.ruleset, state.markers).control)

    def scores(self, state: State) -> dict[str, int]:
        """Each faction's score: the sum of the values of the regions it controls (BL-SCORE-1)."""
        return dict(self._position(state.ruleset, state.markers).scores)

    def targets(self, state: State, faction: str) -> list[str]:
        """Legal claims for ``faction``: non-Home regions adjacent to a region it controls now (BL-TURN-2; at
        the start, BL-TURN-3), and none once the game is over (BL-WIN-3)."""
        if state.result is not None:
            return []
        return list(self._position(state.ruleset, state.markers).targets.get(faction, ()))

    def legal_actions(self, state: State, observer: str | None = None) -> list[Claim]:
        """Every joint claim of the round: a Red target with a Blue target; none once over. Implements
        BL-LEGAL-1."""
        board = self.boards[state.ruleset]
        per_faction = [self.targets(state, f) for f in board.factions]
        if not all(per_faction):
            return []
        return [Claim(tuple((f, (r,)) for f, r in zip(board.factions, combo)))
                for combo in product(*per_faction)]

    def parse_action(self, data: JSON) -> Claim:
        """The claim ``data`` writes, checked for form only. Implements BL-FORM-1. Raises MalformedAction."""
        if type(data) is not dict or "type" not in data:
            raise MalformedAction("malformed-action", f"an action must be a mapping with a type, got {data!r}")
        if data["type"] != "claim":
            raise MalformedAction("unknown-action",
                                  f"Beacon Lines has one action type, 'claim'; got {data['type']!r}")
        claims = expect_mapping(data, ("type", "claims"), "a claim")["claims"]
        if type(claims) is not dict or not all(type(f) is str for f in claims):
            raise MalformedAction("malformed-action", f"claims must map faction to region, got {claims!r}")
        targets = []
        for faction, value in claims.items():
            regions = value if type(value) is list else [value]
            if not regions or not all(type(r) is str for r in regions):
                raise MalformedAction("malformed-action",
                                      f"the claim of {faction!r} must be a region name, got {value!r}")
            targets.append((faction, tuple(regions)))
        return Claim(tuple(targets))

    def apply(self, state: State, action: Claim) -> State:
        """Play one round's joint claim. The checks come in the order of the spec's "Actions" (BL-FORM-2), with
        the kit's codes (ruling BL-R6): game over (BL-WIN-3, ruling BL-R3), then each faction in turn: one
        claim (BL-TURN-4), a legal target (BL-TURN-2, BL-CTRL-3). Raises IllegalAction."""
        board = self.boards[state.ruleset]
        if state.result is not None:
            raise IllegalAction("game-over", f"the game ended in round {state.round}")
        claims = dict(action.targets)
        for faction in claims:
            if faction not in board.factions:
                raise IllegalAction("unknown-faction", f"no faction {faction!r} (factions: "
                                    f"{', '.join(board.factions)})")
        chosen: dict[str, str] = {}
        for faction in board.factions:
            if faction not in claims:
                raise IllegalAction("missing-claim", f"{faction} made no claim this round")
            regions = claims[faction]
            if len(regions) != 1:
                raise IllegalAction("one-claim-per-round",
                                    f"{faction} claimed {len(regions)} regions; exactly one claim per round")
            region = regions[0]
            if region not in board.names:
                raise IllegalAction("unknown-region", f"{faction} claimed {region!r}, which is not a region")
            # Every faction's legality is judged on the same start-of-round snapshot: ``state`` (BL-TURN-1; a
            # region claimed this round opens no target before the next round, BL-TURN-4).
            if region not in self.targets(state, faction):
                raise IllegalAction("illegal-target",
                                    f"{faction} cannot claim {board.names[region]}: it is a Home or not "
                                    f"adjacent to a region {faction} controls at the start of round "
                                    f"{state.round}")
            chosen[faction] = region
        # Both claims land together, one permanent marker each, the same region or not (BL-TURN-5, BL-CTRL-1).
        counts = state.marker_counts()
        for i, faction in enumerate(board.factions):
            per = list(counts[chosen[faction]])
            per[i] += 1
            counts[chosen[faction]] = tuple(per)
        after = evolve(state, markers=tuple((r, counts[r]) for r in board.contested))
        return self._finish_round(after)

    def _finish_round(self, state: State) -> State:
        """Score, then the win check; move on to the next round or end the game. Implements BL-WIN-1 (4 or
        more and a lead of 1: level scores never win early, ruling BL-R4), BL-WIN-2 (after round 3, the higher
        score or a draw), ruling BL-R7 (fewer than 3 rounds and no winner: play on) and ruling BL-R2 (a
        finished game keeps the round it ended in)."""
        board = self.boards[state.ruleset]
        scores = self.scores(state)
        ranked = sorted(scores.values(), reverse=True)
        best = max(scores, key=scores.__getitem__)
        lead = ranked[0] - ranked[1]
        if scores[best] >= board.min_score and lead >= board.min_lead:
            return evolve(state, result=best)
        if state.round >= board.rounds:
            return evolve(state, result=best if lead > 0 else "draw")
        return evolve(state, round=state.round + 1)

    def outcome(self, state: State) -> str | None:
        return state.result

    # --- views -------------------------------------------------------------------------------
    def view(self, state: State, observer: str | None = None) -> dict[str, JSON]:
        """The state view of the spec's "State view". Implements BL-VIEW-1."""
        board = self.boards[state.ruleset]
        return {
            "game": INFO.name,
            "ruleset": state.ruleset,
            "round": state.round,
            "markers": {r: dict(zip(board.factions, per)) for r, per in state.markers},
            "control": self.control(state),
            "scores": self.scores(state),
            "result": state.result,
        }

