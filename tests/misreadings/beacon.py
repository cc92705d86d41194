"""Beacon Lines read another way, rule by rule and at each ruling (specs/beacon-lines.md).

Each class is a build whose author read one rule (or one of the seed's passages behind it) another plausible way,
and otherwise follows the reference. Its docstring says how that author reads it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from refimpl.games import JSON, BadSetup, IllegalAction, MalformedAction, load_data
from refimpl.games.base import evolve
from refimpl.games.beacon_lines import BeaconLines, Claim, State

from .restart import RestartAware


def _data(**changes: Any) -> dict[str, Any]:
    return {**load_data("beacon-lines"), **changes}


@dataclass(frozen=True)
class _State(State):
    """The reference's state with what a misreading needs to remember."""

    held: tuple[tuple[str, str | None], ...] = ()  # control at the snapshot of the round last played
    latest: tuple[tuple[str, str | None], ...] = ()  # region -> the faction whose claim on it came last
    banked: tuple[int, ...] = ()  # points scored so far, round by round
    beacon_held: str | None = None  # who controlled the Beacon at the snapshot of the round last played


class _Base(BeaconLines):
    def __init__(self, data: Mapping[str, Any] | None = None) -> None:
        super().__init__(load_data("beacon-lines") if data is None else data)

    def new_state(self, ruleset: str | None = None, seed: int | None = None,
                  setup: Mapping[str, JSON] | None = None) -> State:
        return _State(**super().new_state(ruleset, seed, setup).__dict__)

    def _kinds(self) -> dict[str, str]:
        return {r["id"]: r["kind"] for r in self.data["regions"]}


class _Claims(_Base):
    """The reference's claim, written out with two hooks: how one faction's entry is judged (``judge``) and where
    the markers go (``place``). Without overrides it is the reference."""

    def judge(self, state: State, faction: str, regions: tuple[str, ...], chosen: dict[str, tuple[str, ...]]) -> None:
        board = self.boards[state.ruleset]
        if len(regions) != 1:
            raise IllegalAction("one-claim-per-round", f"{faction} claimed {len(regions)} regions")
        if regions[0] not in board.names:
            raise IllegalAction("unknown-region", f"{faction} claimed {regions[0]!r}, which is not a region")
        if regions[0] not in self.targets(state, faction):
            raise IllegalAction("illegal-target", f"{faction} cannot claim {regions[0]}")

    def place(self, state: State, chosen: dict[str, tuple[str, ...]]) -> dict[str, tuple[int, ...]]:
        board = self.boards[state.ruleset]
        counts = state.marker_counts()
        for faction, regions in chosen.items():
            for region in regions:
                per = list(counts[region])
                per[board.factions.index(faction)] += 1
                counts[region] = tuple(per)
        return counts

    def apply(self, state: State, action: Claim) -> State:
        board = self.boards[state.ruleset]
        if state.result is not None:
            raise IllegalAction("game-over", f"the game ended in round {state.round}")
        claims = dict(action.targets)
        for faction in claims:
            if faction not in board.factions:
                raise IllegalAction("unknown-faction", f"no faction {faction!r}")
        chosen: dict[str, tuple[str, ...]] = {}
        for faction in board.factions:  # all of Red's checks before any of Blue's
            if faction not in claims:
                raise IllegalAction("missing-claim", f"{faction} made no claim this round")
            self.judge(state, faction, claims[faction], chosen)
            chosen[faction] = claims[faction]
        counts = self.place(state, {f: chosen[f] for f, _ in action.targets})  # in the order written
        return self._finish_round(evolve(state, markers=tuple((r, counts[r]) for r in board.contested)))


class _RestartAware(RestartAware, _Base):
    """Tells a restart from a start (restart.RestartAware)."""


# --- the map ------------------------------------------------------------------------------------------------

class HomesAreNotRegions(_Base):
    """BL-MAP-1: reads "two permanent Homes are the starting points" (§1) as the Homes standing off the board:
    the board is the five contested regions, so `control` lists those five (each Home still scores 1)."""

    def view(self, state: State, observer: str | None = None) -> dict[str, JSON]:
        view = super().view(state, observer)
        view["control"] = {r: o for r, o in view["control"].items() if r not in self.boards[state.ruleset].homes}
        return view


class ObjectivesSideBySide(_Base):
    """BL-MAP-2, an extra edge: draws the map from the concept art, where the two objectives stand side by side
    in the east (§1 "東側の目標2つ"), and joins Beacon and Depot, which the table does not."""

    def __init__(self) -> None:
        data = load_data("beacon-lines")
        super().__init__({**data, "edges": [*data["edges"], ["beacon", "depot"]]})


class EdgesRunOneWay(_Base):
    """BL-MAP-2, adjacency not symmetric: takes the brief's connection list (§5 "Red Home—North Pass/Crossroads,
    …, each middle region—Beacon/Depot") as one-way roads, Home to middle to objective, so holding an objective
    opens nothing."""

    def __init__(self) -> None:
        super().__init__()
        forward: dict[str, set[str]] = {r: set() for r in self.boards["v1"].regions}
        for a, b in self.data["edges"]:
            forward[a].add(b)
        self.boards = {rs: replace(board, neighbours={r: frozenset(n) for r, n in forward.items()})
                       for rs, board in self.boards.items()}


class PassesFormAFrontLine(_Base):
    """BL-MAP-3: reads "the three middle regions make the fronts" (§1) as one front line, North Pass–
    Crossroads–South Pass, so Crossroads leads to each Pass (the wrong build §5 names: Crossroads→North Pass)."""

    def __init__(self) -> None:
        data = load_data("beacon-lines")
        super().__init__({**data, "edges": [*data["edges"], ["north-pass", "crossroads"],
                                            ["crossroads", "south-pass"]]})


class HomeFlagsAreMarkers(_Base):
    """BL-MAP-4: reads the Home flags (§2 "Homeの旗は恒久所有を示します") as a first marker of its owner: at the
    start each Home already holds one marker, which `markers` shows with the five neutral regions."""

    def view(self, state: State, observer: str | None = None) -> dict[str, JSON]:
        view = super().view(state, observer)
        board = self.boards[state.ruleset]
        flags = {home: {f: int(f == owner) for f in board.factions} for home, owner in board.homes.items()}
        view["markers"] = {**flags, **view["markers"]}
        return view


# --- a round ------------------------------------------------------------------------------------------------

class RedResolvesFirst(_Claims):
    """BL-TURN-1: processes the claims one after the other, as written: Red's marker goes down first and
    Blue's claim is judged on the map that leaves (not on the round's start-of-round snapshot)."""

    def judge(self, state: State, faction: str, regions: tuple[str, ...], chosen: dict[str, tuple[str, ...]]) -> None:
        if chosen and len(regions) == 1:
            counts = self.place(state, chosen)
            board = self.boards[state.ruleset]
            state = evolve(state, markers=tuple((r, counts[r]) for r in board.contested))
        super().judge(state, faction, regions, chosen)


class NoReinforcing(_Base):
    """BL-TURN-2: reads a claim as taking new ground: a region the faction already controls is not a target
    (only neutral, tied and enemy regions are)."""

    def targets(self, state: State, faction: str) -> list[str]:
        control = self.control(state)
        return [r for r in super().targets(state, faction) if control[r] != faction]


class MarkersOpenFronts(_Base):
    """BL-TURN-2, presence for control: reads "adjacent to a region the faction holds" as any region where it
    has a marker, so a tied region opens its neighbours to both factions."""

    def targets(self, state: State, faction: str) -> list[str]:
        if state.result is not None:
            return []
        board = self.boards[state.ruleset]
        i = board.factions.index(faction)
        present = {r for r, o in self.control(state).items() if o == faction}
        present |= {r for r, per in state.markers if per[i] > 0}
        reach = set().union(*(board.neighbours[r] for r in present))
        return [r for r in board.contested if r in reach]


class AnyPassToOpen(_Base):
    """BL-TURN-3: reads §2 "Beacon and Depot are not legal first claims" as the whole opening rule: in round 1
    either faction may claim any of the three middle regions."""

    def targets(self, state: State, faction: str) -> list[str]:
        found = super().targets(state, faction)
        if state.round != 1 or state.result is not None:
            return found
        middles = {r for r, k in self._kinds().items() if k == "middle"}
        return [r for r in self.boards[state.ruleset].contested if r in set(found) | middles]


class SecondClaimFromTheFirst(_Claims):
    """BL-TURN-4: lets a faction name a second region in a round, reached from the first (the wrong build §5
    names, "同一ラウンドに2つ目を置く"): North Pass then Beacon in one round."""

    def judge(self, state: State, faction: str, regions: tuple[str, ...], chosen: dict[str, tuple[str, ...]]) -> None:
        board = self.boards[state.ruleset]
        for n, region in enumerate(regions):
            counts = self.place(state, {faction: regions[:n]})
            super().judge(evolve(state, markers=tuple((r, counts[r]) for r in board.contested)), faction,
                          (region,), chosen)


class SameRegionClaimsBounce(_Claims):
    """BL-TURN-5: reads simultaneous claims as a stand-off when both name one region: the two claims cancel
    and neither marker is placed."""

    def place(self, state: State, chosen: dict[str, tuple[str, ...]]) -> dict[str, tuple[int, ...]]:
        regions = [rs for rs in chosen.values()]
        if len(regions) == 2 and regions[0] == regions[1]:
            return state.marker_counts()
        return super().place(state, chosen)


class FirstWrittenTakesTheRegion(_Claims):
    """BL-TURN-5, order matters: processes the claims in the order written; when both name one region the
    first claim takes it and the second finds it taken (no marker)."""

    def place(self, state: State, chosen: dict[str, tuple[str, ...]]) -> dict[str, tuple[int, ...]]:
        first, *others = chosen
        taken = set(chosen[first])
        return super().place(state, {first: chosen[first],
                                     **{f: tuple(r for r in chosen[f] if r not in taken) for f in others}})


class OwnMarkersKeepARegionOpen(_Base):
    """BL-TURN-6: reads "own regions are valid targets" (§3 stage 2) as any region the faction has a marker on:
    it may reinforce it whatever it holds around it (controlled or tied)."""

    def targets(self, state: State, faction: str) -> list[str]:
        found = super().targets(state, faction)
        if state.result is not None:
            return found
        i = self.boards[state.ruleset].factions.index(faction)
        own = {r for r, per in state.markers if per[i] > 0}
        return [r for r in self.boards[state.ruleset].contested if r in set(found) | own]


# --- markers and control ------------------------------------------------------------------------------------

class ClaimsKnockOffMarkers(_Claims):
    """BL-CTRL-1: reads a claim on a region the other faction controls as an attack: it removes one of that
    faction's markers instead of adding one of its own."""

    def place(self, state: State, chosen: dict[str, tuple[str, ...]]) -> dict[str, tuple[int, ...]]:
        board = self.boards[state.ruleset]
        control = self.control(state)
        counts = super().place(state, {f: tuple(r for r in rs if control[r] in (None, f)) for f, rs in chosen.items()})
        for faction, regions in chosen.items():
            for region in regions:
                owner = control[region]
                if owner not in (None, faction):
                    per = list(counts[region])
                    per[board.factions.index(owner)] -= 1
                    counts[region] = tuple(per)
        return counts


class _Control(_Base):
    """Control, scores and targets worked out from ``control_of`` rather than from the markers alone."""

    def control_of(self, state: State) -> dict[str, str | None]:
        return super().control(state)

    def control(self, state: State) -> dict[str, str | None]:
        return self.control_of(state)

    def scores(self, state: State) -> dict[str, int]:
        board = self.boards[state.ruleset]
        totals = {f: 0 for f in board.factions}
        for region, owner in self.control(state).items():
            if owner is not None:
                totals[owner] += board.values[region]
        return totals

    def targets(self, state: State, faction: str) -> list[str]:
        if state.result is not None:
            return []
        board = self.boards[state.ruleset]
        reach = set().union(*(board.neighbours[r] for r, o in self.control(state).items() if o == faction))
        return [r for r in board.contested if r in reach]


class TieKeepsTheHolder(_Control):
    """BL-CTRL-2: reads "equal counts leave it neutral" as being about regions nobody held: a region that goes
    level stays with the faction that controlled it when the round began."""

    def control_of(self, state: State) -> dict[str, str | None]:
        control = super().control_of(state)
        held = dict(getattr(state, "held", ()))
        for region, per in state.markers:
            if control[region] is None and per[0] == per[1] > 0:
                control[region] = held.get(region)
        return control

    def apply(self, state: State, action: Claim) -> State:
        return super().apply(evolve(state, held=tuple(self.control(state).items())), action)


class HomesAreTargets(_Claims):
    """BL-CTRL-3: reads "enemy-controlled regions are valid targets" (§3 stage 2) as taking in the Homes: a
    Home next to a region the faction controls may be claimed, though the claim cannot change its owner."""

    def targets(self, state: State, faction: str) -> list[str]:
        if state.result is not None:
            return []
        board = self.boards[state.ruleset]
        reach = set().union(*(board.neighbours[r] for r, o in self.control(state).items() if o == faction))
        return [r for r in board.regions if r in reach]

    def place(self, state: State, chosen: dict[str, tuple[str, ...]]) -> dict[str, tuple[int, ...]]:
        homes = self.boards[state.ruleset].homes
        return super().place(state, {f: tuple(r for r in rs if r not in homes) for f, rs in chosen.items()})


# --- scoring and the end ------------------------------------------------------------------------------------

class TiedBeaconScoresForBoth(_Base):
    """BL-SCORE-1: the wrong build §5 names ("同点Beaconに点を与える"): a Beacon both factions have markers on in
    equal numbers is shared, and scores its value for each."""

    def scores(self, state: State) -> dict[str, int]:
        totals = super().scores(state)
        per = state.marker_counts()["beacon"]
        if per[0] == per[1] > 0:
            for faction in totals:
                totals[faction] += self.boards[state.ruleset].values["beacon"]
        return totals


class RunningTotal(_Base):
    """BL-SCORE-1, points banked: reads "score the controlled regions after each round" (§3 stage 5) as adding
    each round's points to a running total, from 0, which the win check then reads."""

    def _round_points(self, state: State) -> dict[str, int]:
        return super().scores(state)

    def scores(self, state: State) -> dict[str, int]:
        factions = self.boards[state.ruleset].factions
        banked = getattr(state, "banked", ()) or tuple(0 for _ in factions)
        return dict(zip(factions, banked))

    def _finish_round(self, state: State) -> State:
        points = self._round_points(state)
        factions = self.boards[state.ruleset].factions
        before = self.scores(state)
        return super()._finish_round(evolve(state, banked=tuple(before[f] + points[f] for f in factions)))


class DepotIsALandmarkToo(_Base):
    """BL-SCORE-2: reads the landmark bonus of the final rule as the objectives' (§1 "the two objectives"):
    under v1 Depot is worth 2 as well as Beacon."""

    def __init__(self) -> None:
        data = load_data("beacon-lines")
        v1 = data["rulesets"]["v1"]
        super().__init__({**data, "rulesets": {**data["rulesets"],
                                               "v1": {**v1, "values": {**v1["values"], "depot": 2}}}})


class LeadOfMoreThanOne(_Base):
    """BL-WIN-1: reads "4点以上かつ1点以上リード" as a lead of more than one point (以上 read as "more than"): a
    4–3 is no win."""

    def __init__(self) -> None:
        data = load_data("beacon-lines")
        super().__init__({**data, "win": {**data["win"], "min_lead": 2}})


class MoreThanFour(_Base):
    """BL-WIN-1, the threshold: reads "4点以上" as more than 4 points, so a win needs 5."""

    def __init__(self) -> None:
        data = load_data("beacon-lines")
        super().__init__({**data, "win": {**data["win"], "min_score": 5}})


class NoWinnerBelowTheThreshold(_Base):
    """BL-WIN-2: reads the win condition (4 or more and a lead) as the only way to win: a game that reaches the
    end of round 3 without it is a draw, whatever the scores."""

    def _finish_round(self, state: State) -> State:
        after = super()._finish_round(state)
        scores = self.scores(state)
        board = self.boards[state.ruleset]
        if (after.result not in (None, "draw") and state.round >= board.rounds
                and max(scores.values()) < board.min_score):
            return evolve(after, result="draw")
        return after


class ClaimAfterTheEndStartsAgain(_Base):
    """BL-WIN-3: a claim once the game is over begins a new game (a rematch on the same ruleset) with that claim
    as its round 1, instead of being refused."""

    def apply(self, state: State, action: Claim) -> State:
        if state.result is not None:
            state = self.new_state(state.ruleset)
        return super().apply(state, action)


class RestartClearsTheMarkersOnly(_RestartAware):
    """BL-RESTART-1: does what §3's restart sentence says first, "非Homeマーカーを消し", and no more: the markers go,
    the round and the result stay as they were."""

    def restarted(self, last: State, fresh: State) -> State:
        return evolve(last, markers=fresh.markers)


# --- what a build answers -----------------------------------------------------------------------------------

class SetUpIgnored(_Base):
    """BL-START-1: reads "no set-up" as nothing to set up, so a set-up sent with start is ignored, not refused."""

    def new_state(self, ruleset: str | None = None, seed: int | None = None,
                  setup: Mapping[str, JSON] | None = None) -> State:
        return super().new_state(ruleset, seed, None)


class SeedRefused(_Base):
    """BL-START-1, the seed: reads "no chance" (§5 "ランダム性…を加えない") as a start with a seed being wrong: only
    a start without a seed (null) is accepted."""

    def new_state(self, ruleset: str | None = None, seed: int | None = None,
                  setup: Mapping[str, JSON] | None = None) -> State:
        if seed is not None:
            raise BadSetup("bad-seed", "Beacon Lines has no chance: start it without a seed")
        return super().new_state(ruleset, seed, setup)


class TargetsInTheView(_Base):
    """BL-VIEW-1: shows the legal targets in the state view (§5 "合法対象と所有権表示を見えるようにする"), as a field
    `targets` beside `control`."""

    def view(self, state: State, observer: str | None = None) -> dict[str, JSON]:
        return {**super().view(state, observer),
                "targets": {f: self.targets(state, f) for f in self.boards[state.ruleset].factions}}


class TargetsListedPerFaction(_Base):
    """BL-LEGAL-1: lists each faction's legal targets on their own (§5 "the legal targets"), one one-faction claim
    per target, instead of every joint claim."""

    def legal_actions(self, state: State, observer: str | None = None) -> list[Claim]:
        return [Claim(((f, (r,)),)) for f in self.boards[state.ruleset].factions for r in self.targets(state, f)]


class LegalAfterTheEnd(_Base):
    """BL-LEGAL-1, after the end: the list shows the joint claims of the final position even once the game is
    over (the targets are still on the map)."""

    def legal_actions(self, state: State, observer: str | None = None) -> list[Claim]:
        return super().legal_actions(evolve(state, result=None), observer)


class OneItemListMalformed(_Base):
    """BL-FORM-1: reads a faction's entry as a region id or a list of several (the second-claim case), so a
    one-item list is not a claim at all: malformed-action."""

    def parse_action(self, data: JSON) -> Claim:
        action = super().parse_action(data)
        if any(type(v) is list and len(v) == 1 for v in data["claims"].values()):
            raise MalformedAction("malformed-action", "a claim is a region id")
        return action


class ExtraKeysIgnored(_Base):
    """BL-FORM-1, lenient form: reads a claim as the keys it needs, so an action with a further key (a `round`,
    an `extra`) is taken as the claim it holds."""

    def parse_action(self, data: JSON) -> Claim:
        if type(data) is dict and data.get("type") == "claim" and "claims" in data:
            data = {"type": "claim", "claims": data["claims"]}
        return super().parse_action(data)


class ChecksByKind(_Claims):
    """BL-FORM-2: checks one kind of problem for both factions before the next kind (every missing claim, then
    every second region, every unknown region, every illegal target), not all of Red's before Blue's."""

    def apply(self, state: State, action: Claim) -> State:
        board = self.boards[state.ruleset]
        claims = dict(action.targets)
        if state.result is None and all(f in board.factions for f in claims):
            checks = [(lambda f: f not in claims, "missing-claim"),
                      (lambda f: len(claims[f]) != 1, "one-claim-per-round"),
                      (lambda f: claims[f][0] not in board.names, "unknown-region"),
                      (lambda f: claims[f][0] not in self.targets(state, f), "illegal-target")]
            for broken, code in checks:
                for faction in board.factions:
                    if broken(faction):
                        raise IllegalAction(code, f"{faction}: {code}")
        return super().apply(state, action)


@dataclass(frozen=True)
class _NotAClaim:
    error: MalformedAction


class GameOverFirst(_Base):
    """BL-FORM-2, the end first: once the game is over every action is answered game-over, a malformed one too
    (the state is looked at before the form)."""

    def parse_action(self, data: JSON) -> Any:
        try:
            return super().parse_action(data)
        except MalformedAction as exc:
            return _NotAClaim(exc)

    def apply(self, state: State, action: Any) -> State:
        if isinstance(action, _NotAClaim):
            if state.result is not None:
                raise IllegalAction("game-over", f"the game ended in round {state.round}")
            raise action.error
        return super().apply(state, action)


# --- the worked routes --------------------------------------------------------------------------------------

class BonusForHoldingTheBeacon(_Base):
    """BL-ROUTE-1: reads the landmark bonus (§4 "Beaconを追加ボーナス付き合計2点") as paid for holding the Beacon
    through a round: a Beacon taken this round scores its base 1, so the v1 replay is 3–3 after round 2 and
    goes on."""

    def scores(self, state: State) -> dict[str, int]:
        totals = super().scores(state)
        owner = self.control(state)["beacon"]
        if owner is not None and getattr(state, "beacon_held", None) != owner:
            totals[owner] -= self.boards[state.ruleset].values["beacon"] - 1
        return totals

    def apply(self, state: State, action: Claim) -> State:
        return super().apply(evolve(state, beacon_held=self.control(state)["beacon"]), action)


class NewestClaimTakesATie(_Control):
    """BL-ROUTE-2: reads the v0 round 3 (Red claims Depot, Blue claims Beacon) as each taking the other's
    objective: a region that goes level belongs to the faction whose claim on it came last, so the route ends
    3–3, not 2–2."""

    def control_of(self, state: State) -> dict[str, str | None]:
        control = super().control_of(state)
        latest = dict(getattr(state, "latest", ()))
        for region, per in state.markers:
            if control[region] is None and per[0] == per[1] > 0:
                control[region] = latest.get(region)
        return control

    def apply(self, state: State, action: Claim) -> State:
        chosen = {f: rs[0] for f, rs in action.targets if rs}
        latest = dict(getattr(state, "latest", ()))
        for faction, region in chosen.items():
            latest[region] = None if list(chosen.values()).count(region) > 1 else faction
        return super().apply(evolve(state, latest=tuple(latest.items())), action)


class TiedBeaconKeepsItsBase(_Base):
    """BL-ROUTE-3: reads "中立地域にボーナスはなく" (no bonus for a neutral region, §4 failed route) as withholding
    the landmark bonus only: a tied Beacon still scores its base point for each faction there, so the failed
    route ends 3–3."""

    def scores(self, state: State) -> dict[str, int]:
        totals = super().scores(state)
        per = state.marker_counts()["beacon"]
        if per[0] == per[1] > 0:
            for faction in totals:
                totals[faction] += 1
        return totals


# --- the rulings --------------------------------------------------------------------------------------------

class OwnRegionsAlwaysTargets(_Base):
    """BL-R1 the other way: a region the faction controls is a target whatever its neighbours."""

    def targets(self, state: State, faction: str) -> list[str]:
        found = super().targets(state, faction)
        if state.result is not None:
            return found
        own = [r for r, o in self.control(state).items() if o == faction and r not in self.boards[state.ruleset].homes]
        board = self.boards[state.ruleset]
        return [r for r in board.contested if r in set(found) | set(own)]


class RoundCountsOnAfterTheEnd(_Base):
    """BL-R2 the other way: ``round`` counts the rounds scored, so it moves on when the game ends too."""

    def _finish_round(self, state: State) -> State:
        after = super()._finish_round(state)
        return evolve(after, round=after.round + 1) if after.result is not None else after


class PlaysOnAfterTheEnd(_Base):
    """BL-R3 the other way: a claim after the end is played (markers added), the result stands."""

    def apply(self, state: State, action: Claim) -> State:
        if state.result is None:
            return super().apply(state, action)
        played = super().apply(evolve(state, result=None), action)
        return evolve(played, result=state.result, round=state.round)


class FourWinsWithoutLead(_Base):
    """BL-R4 the other way: 4 points win even when level (the first faction takes it)."""

    def _finish_round(self, state: State) -> State:
        scores = self.scores(state)
        best = max(scores, key=scores.__getitem__)
        if scores[best] >= self.boards[state.ruleset].min_score:
            return evolve(state, result=best)
        return super()._finish_round(state)


class BlueFollowsTheScript(_Base):
    """BL-R5 the other way: the "opponent script" is built in; Blue plays South Pass, Depot, Beacon
    whenever that is legal, whatever Blue claimed."""

    SCRIPT = ("south-pass", "depot", "beacon")

    def apply(self, state: State, action: Claim) -> State:
        scripted = self.SCRIPT[state.round - 1] if state.round <= len(self.SCRIPT) else None
        if state.result is None and scripted in self.targets(state, "blue"):
            action = Claim(tuple((f, (scripted,) if f == "blue" else rs) for f, rs in action.targets))
        return super().apply(state, action)


class OwnCodes(_Base):
    """BL-R6 the other way: a build with codes of its own (``not-adjacent`` for an illegal target)."""

    def apply(self, state: State, action: Claim) -> State:
        try:
            return super().apply(state, action)
        except IllegalAction as exc:
            if exc.code == "illegal-target":
                raise IllegalAction("not-adjacent", exc.message) from None
            raise


class V0StopsAtALevelRoundTwo(_Base):
    """BL-R7 the other way: under v0, 3–3 after round 2 is where the players stop: a draw."""

    def _finish_round(self, state: State) -> State:
        after = super()._finish_round(state)
        scores = self.scores(state)
        if state.ruleset == "v0" and after.result is None and state.round == 2 and len(set(scores.values())) == 1:
            return evolve(state, result="draw")
        return after


# --- wrong builds the kit's own tests serve by name (tests/builds/wrong.py), written before the catalogue: each
# breaks one rule plainly ----------------------------------------------------------------------------------------


class CrossroadsToNorthPass(BeaconLines):
    """Breaks BL-MAP-2/BL-MAP-3: an extra edge Crossroads—North Pass."""

    def __init__(self) -> None:
        data = dict(load_data("beacon-lines"))
        data["edges"] = list(data["edges"]) + [["crossroads", "north-pass"]]
        super().__init__(data)


class ListsAClaimTwice(BeaconLines):
    """Breaks BL-LEGAL-1: the legal list names its first claim twice (a set would hide it)."""

    def __init__(self) -> None:
        super().__init__(load_data("beacon-lines"))

    def legal_actions(self, state: State, observer: str | None = None) -> list[Any]:
        found = super().legal_actions(state, observer)
        return found[:1] + found if found else found


class V0TieGoesToTheBeacon(BeaconLines):
    """Breaks BL-WIN-2 (under v0 only): a game level after round 3 goes to whoever controls the Beacon, read
    as the paper rule's tie-break ("the Beacon decides"); a draw only when the Beacon is neutral."""

    # No trace or scenario reaches a level v0 game after round 3 with the Beacon held: this entry measures the
    # exploration (tests/test_explore.py), and the catalogue test holds it to that.
    explored_only = True

    def __init__(self) -> None:
        super().__init__(load_data("beacon-lines"))

    def _finish_round(self, state: State) -> State:
        after = super()._finish_round(state)
        if after.ruleset == "v0" and after.result == "draw":
            holder = self.control(after).get("beacon")
            if holder is not None:
                return replace(after, result=holder)
        return after


MISREADINGS: dict[str, Any] = {
    "BL-MAP-1": HomesAreNotRegions,
    "BL-MAP-2": ObjectivesSideBySide,
    "BL-MAP-2#one-way": EdgesRunOneWay,
    "BL-MAP-3": PassesFormAFrontLine,
    "BL-MAP-4": HomeFlagsAreMarkers,
    "BL-TURN-1": RedResolvesFirst,
    "BL-TURN-2": NoReinforcing,
    "BL-TURN-2#markers-open-fronts": MarkersOpenFronts,
    "BL-TURN-3": AnyPassToOpen,
    "BL-TURN-4": SecondClaimFromTheFirst,
    "BL-TURN-5": SameRegionClaimsBounce,
    "BL-TURN-5#first-written": FirstWrittenTakesTheRegion,
    "BL-TURN-6": OwnMarkersKeepARegionOpen,
    "BL-CTRL-1": ClaimsKnockOffMarkers,
    "BL-CTRL-2": TieKeepsTheHolder,
    "BL-CTRL-3": HomesAreTargets,
    "BL-SCORE-1": TiedBeaconScoresForBoth,
    "BL-SCORE-1#running-total": RunningTotal,
    "BL-SCORE-2": DepotIsALandmarkToo,
    "BL-WIN-1": LeadOfMoreThanOne,
    "BL-WIN-1#more-than-four": MoreThanFour,
    "BL-WIN-2": NoWinnerBelowTheThreshold,
    "BL-WIN-3": ClaimAfterTheEndStartsAgain,
    "BL-RESTART-1": RestartClearsTheMarkersOnly,
    "BL-START-1": SetUpIgnored,
    "BL-START-1#seed-refused": SeedRefused,
    "BL-VIEW-1": TargetsInTheView,
    "BL-LEGAL-1": TargetsListedPerFaction,
    "BL-LEGAL-1#after-the-end": LegalAfterTheEnd,
    "BL-FORM-1": OneItemListMalformed,
    "BL-FORM-1#extra-keys-ignored": ExtraKeysIgnored,
    "BL-FORM-2": ChecksByKind,
    "BL-FORM-2#game-over-first": GameOverFirst,
    "BL-ROUTE-1": BonusForHoldingTheBeacon,
    "BL-ROUTE-2": NewestClaimTakesATie,
    "BL-ROUTE-3": TiedBeaconKeepsItsBase,
    "BL-R1": OwnRegionsAlwaysTargets,
    "BL-R2": RoundCountsOnAfterTheEnd,
    "BL-R3": PlaysOnAfterTheEnd,
    "BL-R4": FourWinsWithoutLead,
    "BL-R5": BlueFollowsTheScript,
    "BL-R6": OwnCodes,
    "BL-R7": V0StopsAtALevelRoundTwo,
    "BL-MAP-2#crossroads-to-north-pass": CrossroadsToNorthPass,
    "BL-LEGAL-1#a-claim-twice": ListsAClaimTwice,
    "BL-WIN-2#v0-beacon-decides": V0TieGoesToTheBeacon,
}
