"""Wrong Lantern Quay builds: each breaks one documented rule of specs/lantern-quay.md."""

from __future__ import annotations

from dataclasses import replace

from refimpl.games import load_data
from refimpl.games.lantern_quay import LanternQuay, State


class DraftTimingAsV1(LanternQuay):
    """Breaks LQ-TIME-1: serves the v0 draft timing (resolve on placement) under the name v1."""

    def __init__(self) -> None:
        super().__init__(load_data("lantern-quay"))
        self.timing["v1"] = "on-placement"


class ForgeSpendsOnFailure(LanternQuay):
    """Breaks LQ-FORGE-3: an unaffordable Forge still takes the brass there is, and makes nothing."""

    def __init__(self) -> None:
        super().__init__(load_data("lantern-quay"))

    def _resolve(self, state: State, slot: str, face: int) -> State:
        deal = self.tables.forge[face] if slot == "forge" else None
        if deal is not None and state.brass < deal[0]:
            return replace(state, brass=0)
        return super()._resolve(state, slot, face)


class InstallLightsTwo(LanternQuay):
    """Breaks LQ-INST-2: Install on 5-6 with two or more modules spends two and lights two lenses."""

    def __init__(self) -> None:
        super().__init__(load_data("lantern-quay"))

    def _resolve(self, state: State, slot: str, face: int) -> State:
        if slot == "install" and face >= 5 and state.modules >= 2:
            return replace(state, modules=state.modules - 2, lenses=min(3, state.lenses + 2))
        return super()._resolve(state, slot, face)
