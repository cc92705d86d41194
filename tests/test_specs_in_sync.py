"""The tables inside the specs are rendered from the data files: typed once (``make specs`` rewrites them)."""

from pathlib import Path

import pytest

from refimpl.games import GAMES
from refimpl.rulebook import tables

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("game", tables.games_with_tables())
def test_spec_tables_match_the_data(game: str) -> None:
    text = (ROOT / GAMES[game].info.spec).read_text(encoding="utf-8")
    blocks = tables.BLOCK.findall(text)
    assert blocks, "the spec holds no generated table"
    assert tables.sync_spec(game, text) == text, "spec tables are stale: run `make specs`"


def test_a_changed_number_makes_the_spec_stale() -> None:
    text = (ROOT / GAMES["lantern-quay"].info.spec).read_text(encoding="utf-8")
    edited = text.replace("| 5 | +3 brass |", "| 5 | +4 brass |")
    assert edited != text
    assert tables.sync_spec("lantern-quay", edited) == text
