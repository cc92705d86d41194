"""The Conquest King and Black Fog board pictures: every position of every bundled trace draws as valid SVG
(each observer's view for Conquest King), units are drawn one element each and a side's picture holds no
more than its view, marks land on the elements that show them (or in the caption), and garbage views
still give a picture quickly."""

from __future__ import annotations

import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from refimpl.games import GAMES
from refimpl.games.black_fog.kit import picture as black_fog
from refimpl.games.conquest_king.kit import picture as conquest_king
from refimpl.harness.driver import ReferenceDriver
from refimpl.harness.plan import step_op
from refimpl.harness.requests import Start, State
from refimpl.harness.tracefile import load_traces
from refimpl.reports import pictures

TRACES = Path(__file__).resolve().parent.parent / "traces"
GAMES_B = ("conquest-king", "black-fog")


def _views(d: ReferenceDriver, observers: tuple[str | None, ...]) -> dict[str | None, dict[str, Any]]:
    """Each observer's view of the current position (none when no game is running)."""
    found = {o: next(iter(d.batch([State(o)]))) for o in observers}
    return {o: v for o, v in found.items() if isinstance(v, dict)}


@cache
def positions(game: str) -> list[tuple[str, dict[str | None, dict[str, Any]]]]:
    """(label, views by observer) for each ruleset's start and every step of every bundled trace."""
    info = GAMES[game].info
    observers = (None, *info.players) if game == "conquest-king" else (None,)
    out = []
    d = ReferenceDriver()
    for ruleset in info.rulesets:
        for seed in (0, 7):
            d.start(game, ruleset, seed)
            out.append((f"start {ruleset} seed {seed}", _views(d, observers)))
    for trace in load_traces([TRACES / game]):
        if trace.ruleset not in info.rulesets:
            continue
        outcome = next(iter(d.batch([Start(game, trace.ruleset, trace.seed, dict(trace.setup))])))
        out.append((f"{trace.name} start", _views(d, observers) if isinstance(outcome, dict) else {}))
        for step in trace.steps:
            next(iter(d.batch([step_op(trace, step)])))
            out.append((f"{trace.name} step {step.number}", _views(d, observers)))
    return out


def parse(picture: str) -> ET.Element:
    assert picture.startswith("<svg"), picture[:80]
    return ET.fromstring(picture)


def by_path(root: ET.Element, path: str) -> list[ET.Element]:
    return [el for el in root.iter() if el.get("data-path") == path]


def units_drawn(root: ET.Element) -> list[ET.Element]:
    return [el for el in root.iter() if el.get("data-role") == "unit"]


def texts(root: ET.Element) -> Iterator[str]:
    return ("".join(el.itertext()) for el in root.iter() if el.tag.endswith("text"))


@pytest.mark.parametrize("game", GAMES_B)
def test_every_position_of_every_trace_draws_as_a_board(game: str) -> None:
    drawn = 0
    for label, views in positions(game):
        for observer, view in views.items():
            picture = pictures.draw(game, view, (), label)
            assert "not drawn as a board" not in picture, (label, observer, picture[:300])
            assert parse(picture).find("{http://www.w3.org/2000/svg}title").text == label
            drawn += 1
    assert drawn > 200


def test_a_referee_picture_has_one_unit_element_per_unit() -> None:
    for label, views in positions("conquest-king"):
        if None in views:
            units = views[None]["units"]
            root = parse(conquest_king.draw(views[None], frozenset()))
            paths = sorted(el.get("data-path") or "" for el in units_drawn(root))
            assert paths == sorted(f"units[{i}]" for i in range(len(units))), label


def test_a_players_picture_shows_no_more_than_the_players_view() -> None:
    fewer = 0
    for label, views in positions("conquest-king"):
        for side in GAMES["conquest-king"].info.players:
            if side not in views:
                continue
            view = views[side]
            root = parse(conquest_king.draw(view, frozenset()))
            shown = units_drawn(root)
            assert len(shown) == len(view["units"]) <= len(views[None]["units"]), (label, side)
            ids = {u["id"] for u in view["units"]}
            titles = {"".join(el.find("{http://www.w3.org/2000/svg}title").itertext()).split()[0] for el in shown}
            assert titles <= ids, (label, side)
            fewer += len(view["units"]) < len(views[None]["units"])
            if view["phase"] == "deploy":
                assert any("placements are hidden" in t for t in texts(root)), (label, side)
    assert fewer > 10  # the traces do reach positions where a side cannot see every unit


def _ck_view() -> dict[str, Any]:
    return next(v[None] for label, v in positions("conquest-king")
                if None in v and v[None]["combat"] is not None and len(v[None]["units"]) >= 3)


def _bf_view() -> dict[str, Any]:
    return next(v[None] for label, v in positions("black-fog")
                if v and v[None]["map"]["apple"] and v[None]["map"]["water"])


@pytest.mark.parametrize("game, marked, unmarked", [  # marked: (the mark, the path of an element that shows it)
    ("conquest-king", [("units[1].at", "units[1]"), ("terrain[2]", "terrain[2]"), ("lobby.clock", "lobby.clock"),
                       ("combat", "combat"), ("result", "result"), ("deployment.gaias.gold", "deployment.gaias")],
     ["units[0]", "terrain[3]", "lobby.field", "last_combat"]),
    ("black-fog", [("map.apple[0]", "map.apple[0]"), ("keepers.k2.at", "keepers.k2"), ("animals.a1", "animals.a1"),
                   ("score.total", "score.total"), ("map.water", "map.water[0]"), ("round", "round")],
     ["map.apple[1]", "keepers.k1", "animals.a2", "score.saved", "phase"]),
])
def test_a_marked_path_is_outlined_on_its_element(game: str, marked: list[tuple[str, str]],
                                                   unmarked: list[str]) -> None:
    view = _ck_view() if game == "conquest-king" else _bf_view()
    draw = conquest_king.draw if game == "conquest-king" else black_fog.draw
    root = parse(draw(view, frozenset(mark for mark, _ in marked)))
    for mark, path in marked:
        elements = by_path(root, path)
        assert elements, f"no element for {path}"
        assert all(el.get("class") == "marked" for el in elements), path
        assert f"differs: {mark}" in set(texts(root)), mark
    for path in unmarked:
        elements = by_path(root, path)
        assert elements and all(el.get("class") is None for el in elements), path


@pytest.mark.parametrize("game", GAMES_B)
def test_a_marked_path_without_an_element_is_in_the_caption(game: str) -> None:
    view = _ck_view() if game == "conquest-king" else _bf_view()
    draw = conquest_king.draw if game == "conquest-king" else black_fog.draw
    marks = frozenset({"no_such_field.deep[3]", "map.feed[7]", "units[99]"})
    root = parse(draw(view, marks))
    for mark in marks:
        assert not by_path(root, mark)
        assert f"differs: {mark}" in set(texts(root))


GARBAGE: list[Any] = [
    {}, {"units": 5}, {"board": [[1] * 100000]}, [1, 2], "view", None,
    {"terrain": ["." * 10**6] * 10**5, "units": [{"at": [10**9, 3]}] * 10**5},
    {"units": [{"at": [1, 1], "side": [1], "kind": {}, "facing": [], "id": 5, "hidden": "x"}] * 9,
     "deployment": {"sparkia": {"complete": [1]}}, "observer": [1], "combat": {"attackers": [[1]], "target": [2]},
     "lobby": {"registered": {str(i): i for i in range(10**5)}}, "result": {"winner": [1]}, "phase": "deploy"},
    {"map": {"fog": ["1,1"] * 10**6, "apple": [None, "a,b", "1,2,3", "99,0", "-0,0", "\x00,1"], "water": 3},
     "keepers": {str(i): {"at": "0,0"} for i in range(10**5)}, "animals": {"a1": {"at": "1,0", "size": [1]}, "a2": 5},
     "pending": {"needs": "feed", "options": ["1,0", None, 5], "ring": 10**9}, "score": [1], "round": "\x07"},
    {"observer": "gaias", "phase": "play", "terrain": [5, None, "\x01\x02"], "pending": {"needs": "fog", "ring": 6}},
]


@pytest.mark.parametrize("game", GAMES_B)
def test_garbage_views_still_give_a_picture_quickly(game: str) -> None:
    module = conquest_king if game == "conquest-king" else black_fog
    for view in GARBAGE:
        began = time.perf_counter()
        marks = frozenset({"units[0]", "map.fog[3]", "odd\x00path", "keepers.0"})
        picture = pictures.draw(game, view, marks, "garbage")
        if isinstance(view, dict):
            assert "not drawn as a board" not in picture
            parse(module.draw(view, marks))  # the drawer itself does not raise
        assert time.perf_counter() - began < 1.0, str(view)[:80]
        parse(picture)
