"""The values Black Fog's spec leaves to a builder, each a profile field (specs/black-fog.md, rulebook/profiles.py)."""

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
)
