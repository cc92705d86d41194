"""Conquest King read the other way at each ruling (specs/conquest-king.md, Rulings)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from refimpl.games import IllegalAction, load_data
from refimpl.games.conquest_king import ConquestKing
from refimpl.games.conquest_king.model import State, Unit, adjacent


def _data(**changes: Any) -> dict[str, Any]:
    return {**load_data("conquest-king"), **changes}


class _Base(ConquestKing):
    def __init__(self, **changes: Any) -> None:
        super().__init__(_data(**changes))


class OtherCorners(_Base):
    """CK-R1 the other way: the castles in the other two corners."""

    def __init__(self) -> None:
        data = load_data("conquest-king")
        super().__init__(map={**data["map"], "castles": {"sparkia": [0, 7], "gaias": [15, 0]}})


class OtherPrices(_Base):
    """CK-R2 the other way: another choice for a lost number (archers cost 30G)."""

    def __init__(self) -> None:
        units = load_data("conquest-king")["units"]
        super().__init__(units={**units, "archers": {**units["archers"], "price": 30}})


class GaiasFirst(_Base):
    """CK-R3 the other way: Gaias moves first."""

    def __init__(self) -> None:
        super().__init__(first="gaias")


class EveryoneEntersItsCastle(_Base):
    """CK-R4 the other way: every unit may enter its own side's castle."""

    def _closed(self, state: State, unit: Unit) -> set[tuple[int, int]]:
        return super()._closed(state, unit) - {self.p.castles[unit.side]} | {
            u.at for u in state.units if not u.hidden and u.side != unit.side}


class FriendsBlock(_Base):
    """CK-R5 the other way: a unit cannot pass through its own units either."""

    def _closed(self, state: State, unit: Unit) -> set[tuple[int, int]]:
        return super()._closed(state, unit) | {u.at for u in state.units if not u.hidden and u.id != unit.id}


class AnyMoveBesideTriggers(_Base):
    """CK-R6 the other way: any move that ends beside the ambush triggers it, even from a neighbouring square."""

    def _triggers(self, ambush: tuple[int, int], before: tuple[int, int], after: tuple[int, int]) -> bool:
        return adjacent(ambush, after)


class OneThrowAMove(_Base):
    """CK-R7 the other way: one throw of the dice settles every fight of a move."""

    def _dice(self, state: State, a: dict) -> State:
        after = super()._dice(state, a)
        while after.phase == "combat":
            after = super()._dice(after, a)
        return after


class TimeoutResets(_Base):
    """CK-R8 the other way: a phase that runs out of time resets the game."""

    def deadlines(self, state: State) -> list[tuple[int, str]]:
        return [(t, "reset" if e == "phase-timeout" else e) for t, e in super().deadlines(state)]


class OpenDeployment(_Base):
    """CK-R9 the other way: during deployment each side sees the other's placements."""

    def view(self, state: State, observer: str | None = None) -> dict:
        seen = super().view(state, observer)
        if state.phase == "deploy" and observer not in (None, "referee"):
            seen["units"] = super().view(state, "referee")["units"]
        return seen


class VictoryAtPhaseEnd(_Base):
    """CK-R10 the other way: victory is checked when a phase ends, not after each move or reveal."""

    def _after(self, state: State) -> State:
        return replace(state, phase="play") if state.phase == "combat" and not state.fights else state

    def _end_phase(self, state: State, a: dict) -> State:
        return ConquestKing._after(self, super()._end_phase(state, a))


class ResetBeforeDeletion(_Base):
    """CK-R11 the other way: at the same minute a reset comes before a deletion."""

    def deadlines(self, state: State) -> list[tuple[int, str]]:
        order_ = {"reset": 0, "deleted": 1, "phase-timeout": 2, "archived": 3}
        return sorted(super().deadlines(state), key=lambda e: (e[0], order_[e[1]]))


class FacingSouth(_Base):
    """CK-R12 the other way: kings and units without a facing face south."""

    def _default_facing(self, side: Any) -> str:
        return "s"


class RevealUnderAFriend(_Base):
    """CK-R13 the other way: an ambush may appear under a friend."""

    def _reveal(self, state: State, a: dict) -> State:
        lurking = self.unit_at(state, tuple(a["at"]), hidden=True)
        if state.phase == "play" and (lurking is None or lurking.side != self.p.sides[state.side]):
            raise IllegalAction("not-hidden", f"no hidden ambush of yours at {a['at']}")
        unit = self._mover(state, a["at"], hidden=True)
        units = tuple(replace(u, hidden=False, moved=False) if u.id == unit.id else u for u in state.units)
        return self._after(replace(state, units=units))


class DiagonalsAreAdjacent(_Base):
    """CK-R14 the other way: the ambush's trigger counts diagonal neighbours as adjacent too."""

    def _triggers(self, ambush: tuple[int, int], before: tuple[int, int], after: tuple[int, int]) -> bool:
        def near(p: tuple[int, int], q: tuple[int, int]) -> bool:
            return max(abs(p[0] - q[0]), abs(p[1] - q[1])) == 1

        return near(ambush, after) and not near(ambush, before)


class StrikerTakesTheBonus(_Base):
    """CK-R15 the other way: figure 2's +2 is the striking unit's, so the direction bonus is the striker's alone
    and a supporter brings only its attack and terrain (the figure's rear unit would then have struck)."""

    def bases(self, state: State, fight: Any) -> tuple[int, int]:
        attack, defence = super().bases(state, fight)
        attackers, target = self.participants(state, fight)
        for u in attackers[1:]:
            attack -= self.p.directions[self._side_of(target, u.at)]
        return attack, defence


MISREADINGS: dict[str, Any] = {
    "CK-R1": OtherCorners,
    "CK-R2": OtherPrices,
    "CK-R3": GaiasFirst,
    "CK-R4": EveryoneEntersItsCastle,
    "CK-R5": FriendsBlock,
    "CK-R6": AnyMoveBesideTriggers,
    "CK-R7": OneThrowAMove,
    "CK-R8": TimeoutResets,
    "CK-R9": OpenDeployment,
    "CK-R10": VictoryAtPhaseEnd,
    "CK-R11": ResetBeforeDeletion,
    "CK-R12": FacingSouth,
    "CK-R13": RevealUnderAFriend,
    "CK-R14": DiagonalsAreAdjacent,
    "CK-R15": StrikerTakesTheBonus,
}
