"""A game is one registered unit (games/registry.py, issue 44): every registered game's unit is whole, an incomplete
one is told apart naming what it lacks, and no room outside ``refimpl/games`` keeps a table keyed by game name."""

from __future__ import annotations

import ast
import copy
import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from refimpl.games import GAMES, kit_of, kits
from refimpl.games.registry import REQUIRED, GameKit, Part, engine_files, problems, register_game

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "refimpl"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_registered_unit_is_whole(name: str) -> None:
    kit = kit_of(name)
    assert problems(kit) == []
    assert kit.engine is GAMES[name] or type(kit.engine) is type(GAMES[name])  # a profile swaps it for a run
    assert callable(kit.picture.load())
    for part in ("own_chance", "seed_chance"):
        value = getattr(kit, part)
        assert value is None or callable(value.load())


@pytest.mark.parametrize("piece", REQUIRED[1:])
def test_an_incomplete_unit_is_named_with_what_it_lacks(piece: str) -> None:
    kit = dataclasses.replace(kit_of("ludo"), **{piece: None})
    assert problems(kit) == [f"ludo: {piece}: missing"]


def test_a_part_that_does_not_load_is_named_with_where_it_was_looked_for() -> None:
    kit = dataclasses.replace(kit_of("beacon-lines"), picture=Part("refimpl.games.beacon_lines.kit.picture", "drew"))
    [problem] = problems(kit)
    assert problem.startswith("beacon-lines: picture: refimpl.games.beacon_lines.kit.picture:drew does not load")
    kit = dataclasses.replace(kit_of("beacon-lines"), tables=Part("refimpl.games.beacon_lines.kit.no_such_module"))
    assert [p.split(" does not")[0] for p in problems(kit)] == \
        ["beacon-lines: tables: refimpl.games.beacon_lines.kit.no_such_module"]


def test_a_game_with_seeded_chance_needs_a_judge_of_a_builds_own() -> None:
    """Ludo's dice come from a seeded stream; a build may draw from its own source, and only own_chance judges it."""
    assert GAMES["ludo"].info.stream_fields
    assert problems(dataclasses.replace(kit_of("ludo"), own_chance=None)) == ["ludo: own_chance: missing"]
    assert not GAMES["beacon-lines"].info.stream_fields
    assert kit_of("beacon-lines").own_chance is None and problems(kit_of("beacon-lines")) == []


def test_a_name_or_alias_is_registered_once() -> None:
    with pytest.raises(ValueError, match="'ludo' is registered already"):
        register_game(kit_of("ludo"))
    chess = copy.copy(GAMES["ludo"])
    chess.info = dataclasses.replace(chess.info, name="chess")  # type: ignore[misc]
    with pytest.raises(ValueError, match="'conquest' is registered already"):
        register_game(dataclasses.replace(kit_of("ludo"), engine=chess, aliases=("conquest",)))
    assert [kit.name for kit in kits()].count("chess") == 0
    assert kit_of("conquest") is kit_of("conquest-king")
    with pytest.raises(KeyError):
        kit_of("chess")


def test_every_game_folder_is_a_registered_unit() -> None:
    """Adding a game is one folder and one registration: a folder with an engine nobody registered is found."""
    folders = {p.parent.name for p in (PACKAGE / "games").glob("*/__init__.py")}
    registered = {type(kit.engine).__module__.split(".")[2] for kit in kits()}
    assert folders == registered
    for kit in kits():
        assert isinstance(kit, GameKit)
        assert type(kit.engine).__module__.startswith(f"refimpl.games.{kit.name.replace('-', '_')}.")


def test_the_engines_files_leave_the_units_out() -> None:
    """The power meter mutates, and rule reach counts, the engines alone (not a unit's picture or steps)."""
    files = [p.relative_to(PACKAGE).as_posix() for p in engine_files()]
    assert "games/ludo/engine.py" in files and "games/data/ludo.yaml" in files
    assert "games/beacon_lines/engine.py" in files
    assert not [f for f in files if "/kit/" in f or f == "games/registry.py"]


def _keyed_by_game(path: Path) -> list[str]:
    """``file:line`` of every dict literal in ``path`` with a registered game's name among its keys."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Dict) and set(GAMES) & {k.value for k in node.keys if isinstance(k, ast.Constant)}:
            found.append(f"{path.name}:{node.lineno}")
    return found


def test_no_room_keeps_a_table_keyed_by_game_name() -> None:
    outside = [p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts
               and not p.is_relative_to(PACKAGE / "games")]
    assert [hit for p in outside for hit in _keyed_by_game(p)] == []


def test_the_check_sees_such_a_table(tmp_path: Path) -> None:
    source = tmp_path / "rooms.py"
    source.write_text('OTHER = {"red": 1}\nCOST = {"conquest-king": 13, "black-fog": 2}\n', encoding="utf-8")
    assert _keyed_by_game(source) == ["rooms.py:2"]


def test_importing_the_engines_imports_no_other_room() -> None:
    """The units' parts are imported when a room asks for one, not with the engines."""
    code = ("import sys, refimpl.games; print(sorted({m.split('.')[1] for m in sys.modules "
            "if m.startswith('refimpl.')} - {'games'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    assert out.strip() == "[]"
