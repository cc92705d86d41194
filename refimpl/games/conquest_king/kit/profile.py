"""The values Conquest King's spec leaves to a builder, each a profile field (specs/conquest-king.md,
rulebook/profiles.py), and its variants, the seed's own numbers a designer may try otherwise: who wins a tie (the
seed: the attacker), the budget, the deployment columns, the two attack strengths and two terrain modifiers of §7's
figures, and the side and rear bonuses."""

from __future__ import annotations

from ....rulebook.profiles import Field, int_range

_UNITS = ("king", "light-infantry", "heavy-infantry", "cavalry", "spearmen", "archers")
_ATTACK_FROM_SEED = ("light-infantry", "heavy-infantry")  # §7 figures 1 and 2: variants, not chosen

FIELDS: tuple[Field, ...] = (
    Field("first", {"enum": ["sparkia", "gaias"]}, "the side that deploys and moves first", ("CK-R3",)),
    Field("ties", {"enum": ["attacker", "defender", "again"]},
          "who wins a fight whose totals are equal: the attacker, the defender, or nobody (thrown again)",
          ("CK-ATK-4", "CK-DICE-1"), variant=True),
    Field("budget", int_range(20, 2000), "gold each side may spend on its army", ("CK-ARMY-1",), variant=True),
    Field("deploy_columns", int_range(0, 15), "how many columns from its castle a side may place units in",
          ("CK-DEPLOY-1",), variant=True),
    *(Field(f"units.{u}.attack", int_range(1, 12), f"attack strength of {u}", ("CK-ATK-3",), variant=True)
      for u in _ATTACK_FROM_SEED),
    *(Field(f"terrain.{t}.modifier", int_range(-3, 3), f"attack modifier of a unit standing on {t}",
            ("CK-TERRAIN-1", "CK-ATK-3"), variant=True) for t in ("plain", "river")),
    *(Field(f"directions.{d}", int_range(0, 6), f"what an attack from the {d} adds", ("CK-ATK-3",), variant=True)
      for d in ("side", "rear")),
    Field("map.width", int_range(4, 40), "columns of the map", ("CK-R1",)),
    Field("map.height", int_range(4, 40), "rows of the map", ("CK-R1",)),
    Field("map.castles.sparkia", {"type": "array", "prefixItems": [int_range(0, 39), int_range(0, 39)], "minItems": 2,
                                  "maxItems": 2}, "Sparkia's castle square [x, y]", ("CK-R1", "CK-R4")),
    Field("map.castles.gaias", {"type": "array", "prefixItems": [int_range(0, 39), int_range(0, 39)], "minItems": 2,
                                "maxItems": 2}, "Gaias's castle square [x, y]", ("CK-R1", "CK-R4")),
    Field("map.terrain", {"type": "array", "minItems": 4, "maxItems": 40,
                          "items": {"type": "string", "pattern": "^[.fhrm]{4,40}$"}},
          "the default map, one string a row, top to bottom: . plain, f forest, h hill, r river, m mountain "
          "(a start without terrain uses it)", ("CK-R1", "CK-START-1")),
    *(Field(f"units.{u}.attack", int_range(1, 12), f"attack strength of {u}", ("CK-R2", "CK-ATK-3"))
      for u in _UNITS if u not in _ATTACK_FROM_SEED),
    *(Field(f"units.{u}.move", int_range(1, 12), f"movement points of {u}", ("CK-R2", "CK-MOVE-1"))
      for u in _UNITS),
    *(Field(f"units.{u}.price", int_range(1, 500), f"price of {u} in G", ("CK-R2", "CK-ARMY-1"))
      for u in _UNITS if u != "king"),
    *(Field(f"terrain.{t}.cost", {"type": ["integer", "null"], "minimum": 1, "maximum": 12},
            f"movement points to enter {t} (null: impassable)", ("CK-R2", "CK-TERRAIN-1"))
      for t in ("plain", "forest", "hill", "river", "mountain")),
    *(Field(f"terrain.{t}.modifier", int_range(-3, 3), f"attack modifier of a unit standing on {t}",
            ("CK-R2", "CK-TERRAIN-1"))
      for t in ("forest", "hill", "mountain")),
)
