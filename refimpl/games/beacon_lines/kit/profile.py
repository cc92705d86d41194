"""Beacon Lines' profile fields (rulebook/profiles.py): none of its numbers is left open by the seed, so every
field is a variant a designer may try (specs/beacon-lines.md, "Variants"): the rounds, the win threshold and lead,
the Beacon's worth under each ruleset and every other region's worth (the Beacon's own is its ruleset's)."""

from __future__ import annotations

from ....rulebook.profiles import Field, int_range

FIELDS: tuple[Field, ...] = (
    Field("rounds", int_range(1, 9), "rounds a game lasts at most", ("BL-WIN-1", "BL-WIN-2"), variant=True),
    Field("win.min_score", int_range(1, 30), "the score that wins a game before its last round",
          ("BL-WIN-1",), variant=True),
    Field("win.min_lead", int_range(0, 30), "the lead over the other faction that score must have",
          ("BL-WIN-1",), variant=True),
    *(Field(f"rulesets.{r}.values.beacon", int_range(0, 9), f"the Beacon's worth under {r}",
            ("BL-SCORE-2", "BL-SCORE-1"), variant=True) for r in ("v0", "v1")),
    *(Field(f"regions[{r}].value", int_range(0, 9), f"the worth of {name} (every ruleset)", ("BL-SCORE-1",),
            variant=True) for r, name in (("red-home", "Red Home"), ("blue-home", "Blue Home"),
                                          ("north-pass", "North Pass"), ("crossroads", "Crossroads"),
                                          ("south-pass", "South Pass"), ("depot", "Depot"))),
)
