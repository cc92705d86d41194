"""Ludo's unit: everything the kit knows of the game, as its rooms read it (games/registry.py). The parts
named here live beside this file and are imported when a room first asks for one."""

from __future__ import annotations

from ...registry import GameKit, load_data, parts_of
from ..engine import INFO, Ludo

part = parts_of(__name__)

KIT = GameKit(
    engine=Ludo(load_data(INFO.name)),
    picture=part("picture", "draw"),
    simulate=part("simulate", "SIMULATION"),
    steps=part("steps"),
    profile_fields=part("profile", "FIELDS"),
    tables=part("tables", "TABLES"),
    spec_tables=part("tables", "SPEC_TABLES"),
    own_chance=part("chance", "judge_own"),
    seed_chance=part("chance", "judge_seeded"),
    explore=part("explore", "HINTS"),
)
