"""The three wrong Beacon Lines builds the seed says must be rejected (000 §5):
one that lets Crossroads lead to North Pass, one that scores a tied Beacon, one that places a second
claim in a round."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from refimpl.games import IllegalAction, load_data
from refimpl.games.beacon_lines import BeaconLines, State
from refimpl.harness.driver import ReferenceDriver


class CrossroadsToNorthPass(BeaconLines):
    """Breaks BL-MAP-2/BL-MAP-3: an extra edge Crossroads—North Pass."""

    def __init__(self) -> None:
        data = dict(load_data("beacon-lines"))
        data["edges"] = list(data["edges"]) + [["crossroads", "north-pass"]]
        super().__init__(data)


class TiedBeaconScores(BeaconLines):
    """Breaks BL-SCORE-1: a Beacon with equal markers (but at least one) scores its bonus for both."""

    def __init__(self) -> None:
        super().__init__(load_data("beacon-lines"))

    def scores(self, state: State) -> dict[str, int]:
        totals = super().scores(state)
        per = state.marker_counts()["beacon"]
        if per[0] == per[1] > 0:
            for faction in totals:
                totals[faction] += self.boards[state.ruleset].values["beacon"]
        return totals


class SecondClaim(BeaconLines):
    """Breaks BL-TURN-4: a faction may name two regions and gets a marker on each."""

    def __init__(self) -> None:
        super().__init__(load_data("beacon-lines"))

    def apply(self, state: State, action: Any) -> State:
        claims = dict(action.targets)
        extra = {f: rs[1:] for f, rs in claims.items() if len(rs) > 1}
        first = replace(action, targets=tuple((f, rs[:1]) for f, rs in action.targets))
        after = super().apply(state, first)
        counts = after.marker_counts()
        factions = self.boards[state.ruleset].factions
        for faction, regions in extra.items():
            for region in regions:
                if region not in counts:
                    raise IllegalAction("unknown-region", f"{faction} claimed {region!r}, which is not a region")
                per = list(counts[region])
                per[factions.index(faction)] += 1
                counts[region] = tuple(per)
        return replace(after, markers=tuple(counts.items()))


def crossroads_to_north_pass() -> ReferenceDriver:
    return ReferenceDriver({"beacon-lines": CrossroadsToNorthPass()}, name="wrong: Crossroads→North Pass")


def tied_beacon_scores() -> ReferenceDriver:
    return ReferenceDriver({"beacon-lines": TiedBeaconScores()}, name="wrong: tied Beacon scores")


def second_claim() -> ReferenceDriver:
    return ReferenceDriver({"beacon-lines": SecondClaim()}, name="wrong: second claim per round")


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

    def __init__(self) -> None:
        super().__init__(load_data("beacon-lines"))

    def _finish_round(self, state: State) -> State:
        after = super()._finish_round(state)
        if after.ruleset == "v0" and after.result == "draw":
            holder = self.control(after).get("beacon")
            if holder is not None:
                return replace(after, result=holder)
        return after

