"""Lantern Quay's profile fields (rulebook/profiles.py): every number comes from its seed, so every field is a
variant a designer may try (specs/lantern-quay.md, "Variants"): the rounds, the lenses that restore the
lighthouse, the brass at the start, and the three slots' tables: what Salvage gives for each face, what Forge pays
and makes for each face it works with, the face Install needs, what it costs and what it lights."""

from __future__ import annotations

from ....rulebook.profiles import Field, int_range

FIELDS: tuple[Field, ...] = (
    Field("rounds", int_range(1, 9), "rounds a game lasts", ("LQ-END-1", "LQ-START-1"), variant=True),
    Field("lenses", int_range(1, 9), "lenses lit that restore the lighthouse", ("LQ-END-1",), variant=True),
    Field("start.brass", int_range(0, 9), "brass at the start", ("LQ-START-1",), variant=True),
    Field("install.min_face", int_range(1, 6), "the lowest face that installs a lens", ("LQ-INST-1", "LQ-INST-2"),
          variant=True),
    Field("install.modules", int_range(0, 9), "the modules an Install uses", ("LQ-INST-2",), variant=True),
    Field("install.lenses", int_range(1, 9), "the lenses an Install lights", ("LQ-INST-2",), variant=True),
    *(Field(f"salvage.{face}", int_range(0, 9), f"the brass Salvage gives for a {face}", ("LQ-SALV-1",),
            variant=True) for face in range(1, 7)),
    *(Field(f"forge.{face}.{what}", int_range(0, 9), f"the {what} Forge {verb} for a {face}",
            ("LQ-FORGE-2", "LQ-FORGE-3"), variant=True)
      for face in range(3, 7) for what, verb in (("brass", "pays"), ("modules", "makes"))),
)
