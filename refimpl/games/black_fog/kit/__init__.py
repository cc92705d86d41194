"""Black Fog's unit: everything the kit knows of the game, as its rooms read it (games/registry.py). The parts
named here live beside this file and are imported when a room first asks for one."""

from __future__ import annotations

from ...registry import GameKit, Part, load_data, parts_of
from ..engine import INFO, BlackFog

part = parts_of(__name__)

KIT = GameKit(
    engine=BlackFog(load_data(INFO.name)),
    picture=part("picture", "draw"),
    simulate=part("simulate", "SIMULATION"),
    board_text=Part("refimpl.reports.hexmap", "draw"),
    steps=part("steps"),
    profile_fields=part("profile", "FIELDS"),
    own_chance=part("chance", "judge_own"),
    seed_chance=part("chance", "judge_seeded"),
    explore=part("explore", "HINTS"),
    step_cost=2,  # a step costs about twice a Ludo one (measured as Conquest King's was)
)
