"""Conquest King's unit: everything the kit knows of the game, as its rooms read it (games/registry.py). The parts
named here live beside this file and are imported when a room first asks for one."""

from __future__ import annotations

from ...registry import GameKit, load_data, parts_of
from ..engine import INFO, ConquestKing

part = parts_of(__name__)

KIT = GameKit(
    engine=ConquestKing(load_data(INFO.name)),
    picture=part("picture", "draw"),
    simulate=part("simulate", "SIMULATION"),
    steps=part("steps"),
    profile_fields=part("profile", "FIELDS"),
    tables=part("tables", "TABLES"),
    spec_tables=part("tables", "SPEC_TABLES"),
    own_chance=part("chance", "judge_own"),
    explore=part("explore", "HINTS"),
    # Verify judges every step whole (each player's view, every legal list), and a Conquest King step, with its
    # lists of about 900 deployments, costs about 13 times a Ludo or Beacon Lines one (node example build and
    # refimpl serve, 2026-12-03, each trace replayed with the oracle: 1.05 and 0.67 ms a step, against 0.08 and
    # 0.06). A trace in its deployment costs up to 18 times one played from a set-up a step: the shards still
    # differ by up to 0.2 s, which the scenario shards, taken by whichever worker is free first, make up.
    step_cost=13,
    aliases=("conquest",),
)
