"""Wrong Conquest King builds: each breaks one documented rule of specs/conquest-king.md."""

from __future__ import annotations

from typing import Any

from refimpl.games import load_data
from refimpl.games.conquest_king.engine import ConquestKing, State


class LeaksTheAmbush(ConquestKing):
    """Breaks CK-HIDE-1: a side's view shows the enemy's hidden ambush (as a hidden unit at its square)."""

    def __init__(self) -> None:
        super().__init__(load_data("conquest-king"))

    def view(self, state: State, observer: str | None = None) -> dict[str, Any]:
        shown = super().view(state, observer)
        if observer in self.p.sides and state.phase != "deploy":
            seen = {u["id"] for u in shown["units"]}
            shown["units"] += [u.json() for u in state.units if u.hidden and u.id not in seen]
        return shown


class DefenderWinsTies(ConquestKing):
    """Breaks CK-ATK-4: a tie goes to the defender."""

    def __init__(self) -> None:
        super().__init__(load_data("conquest-king"))

    def _dice(self, state: State, a: dict) -> State:
        if state.phase == "combat":
            attack, defence = self.bases(state, state.fights[0])
            if attack + a["attacker"] == defence + a["defender"]:  # hand the tie to the defender
                a = {**a, "defender": a["defender"] + 1} if a["defender"] < 6 else {**a, "attacker": a["attacker"] - 1}
        return super()._dice(state, a)
