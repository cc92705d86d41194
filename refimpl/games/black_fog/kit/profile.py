"""The values Black Fog's spec leaves to a builder, each a profile field (specs/black-fog.md, rulebook/profiles.py),
and the variants a designer may try: the map's apple trees and water, the keepers' actions and what they carry."""

from __future__ import annotations

from ....rulebook.profiles import Field, int_range

_TILE = {"type": "string", "pattern": r"^(0|-?[1-9][0-9]*),(0|-?[1-9][0-9]*)$"}

FIELDS: tuple[Field, ...] = (
    *(Field(f"score.{k}", int_range(0, 20), meaning, ("BF-R11", "BF-SCORE-1")) for k, meaning in (
        ("a", "points for each small animal saved"), ("b", "points for each medium animal saved"),
        ("c", "points for each large animal saved"), ("d", "bonus when every small species is saved"),
        ("e", "bonus when every medium species is saved"), ("f", "bonus when every large species is saved"),
        ("g", "points taken for each keeper lost"), ("h", "points taken for each animal lost"))),
    Field("species", {"type": "object", "minProperties": 1, "maxProperties": 20,
                      "propertyNames": {"pattern": "^[a-z][a-z-]{0,19}$"},
                      "additionalProperties": {"enum": ["small", "medium", "large"]}},
          "each species and its size", ("BF-R11", "BF-R13")),
    Field("animals", {"type": "array", "minItems": 1, "maxItems": 40,
                      "items": {"type": "object", "required": ["species", "at"], "additionalProperties": False,
                                "properties": {"species": {"type": "string"}, "at": _TILE}}},
          "the animals at the start and their tiles (q,r)", ("BF-R11",)),
    Field("keeper_start", _TILE, "the tile every keeper starts on (q,r)", ("BF-R11",)),
    Field("apple_trees_per_ring", int_range(0, 6), "apple trees in every ring but the house and the outer ring",
          ("BF-MAP-2",), variant=True),
    Field("water_per_tiles", int_range(3, 60), "one water tile per this many tiles of a ring (more: less water)",
          ("BF-MAP-3",), variant=True),
    Field("actions_per_keeper", int_range(1, 9), "main actions each keeper takes a round", ("BF-ACT-1",),
          variant=True),
    Field("tame_capacity", int_range(1, 9), "what a keeper may hold, in animal sizes (small 1, medium 2, large 3)",
          ("BF-TAME-1",), variant=True),
)
