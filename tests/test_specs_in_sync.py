"""The tables inside the specs are rendered from the data files: typed once (``make specs`` rewrites them)."""

from pathlib import Path

import pytest

from refimpl.games import GAMES
from refimpl.rulebook import tables

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("game", sorted(GAMES))
def test_spec_tables_match_the_data(game: str) -> None:
    """Every game's spec (each has a generated table: its data's, or its variants') is in step with the data."""
    text = (ROOT / GAMES[game].info.spec).read_text(encoding="utf-8")
    blocks = tables.BLOCK.findall(text)
    assert blocks, "the spec holds no generated table"
    assert tables.sync_spec(game, text) == text, "spec tables are stale: run `make specs`"


def test_a_changed_number_makes_the_spec_stale() -> None:
    text = (ROOT / GAMES["lantern-quay"].info.spec).read_text(encoding="utf-8")
    edited = text.replace("| 5 | +3 brass |", "| 5 | +4 brass |")
    assert edited != text
    assert tables.sync_spec("lantern-quay", edited) == text


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_variant_is_in_its_specs_variants_table(game: str) -> None:
    """A variant a designer may try is listed in the spec's Variants section (issue 45), one row a field."""
    from refimpl.rulebook.profiles import fields_of

    text = (ROOT / GAMES[game].info.spec).read_text(encoding="utf-8")
    variants = [f.path for f in fields_of(game) if f.variant]
    block = next((m.group("body") for m in tables.BLOCK.finditer(text) if m.group("name") == "variants"), "")
    assert [row.split("`")[1] for row in block.splitlines() if row.startswith("| `")] == variants
