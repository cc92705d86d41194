"""Ludo's profile fields (rulebook/profiles.py): every number comes from its seed, so every field is a variant a
designer may try (specs/ludo.md, "Variants"): the sixes that void a turn, the face that enters a piece, a
capture's extra throw, blockades."""

from __future__ import annotations

from ....rulebook.profiles import Field, int_range

FIELDS: tuple[Field, ...] = (
    Field("sixes_void", int_range(2, 99), "the six in a row that is void and ends the turn (99: in effect never)",
          ("LD-ROLL-3", "LD-R4"), variant=True),
    Field("enter_face", int_range(1, 6), "the lowest face that brings a piece out of the yard", ("LD-ROLL-2",),
          variant=True),
    Field("capture_throws_again", {"type": "boolean"}, "whether a capture gives the seat another throw",
          ("LD-CAP-2",), variant=True),
    Field("blockades", {"type": "boolean"}, "whether two or more pieces of one seat on a loop square bar every "
          "enemy piece from passing or landing there", ("LD-STACK-1", "LD-MOVE-4"), variant=True),
)
