"""Lantern Quay's profile fields (rulebook/profiles.py): every number comes from its seed, so every field is a
variant a designer may try (specs/lantern-quay.md, "Variants"): the rounds, the lenses that restore the
lighthouse, the brass at the start and the face Install needs."""

from __future__ import annotations

from ....rulebook.profiles import Field, int_range

FIELDS: tuple[Field, ...] = (
    Field("rounds", int_range(1, 9), "rounds a game lasts", ("LQ-END-1", "LQ-START-1"), variant=True),
    Field("lenses", int_range(1, 9), "lenses lit that restore the lighthouse", ("LQ-END-1",), variant=True),
    Field("start.brass", int_range(0, 9), "brass at the start", ("LQ-START-1",), variant=True),
    Field("install.min_face", int_range(1, 6), "the lowest face that installs a lens", ("LQ-INST-1", "LQ-INST-2"),
          variant=True),
)
