"""The board pictures of Beacon Lines, Lantern Quay and Ludo: every position the bundled traces pass draws as
valid SVG, pieces and marks land on the right elements, and broken views still give a picture."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from refimpl.games import GAMES
from refimpl.games.beacon_lines.kit import picture as beacon_lines
from refimpl.games.lantern_quay.kit import picture as lantern_quay
from refimpl.games.ludo.kit import picture as ludo
from refimpl.harness.driver import ReferenceDriver
from refimpl.harness.replay import replay
from refimpl.harness.tracefile import load_traces

ROOT = Path(__file__).resolve().parent.parent
DRAWERS = {"beacon-lines": beacon_lines.draw, "lantern-quay": lantern_quay.draw, "ludo": ludo.draw}
CASES = [(game, ruleset) for game in DRAWERS for ruleset in GAMES[game].info.rulesets]
NS = "{http://www.w3.org/2000/svg}"


@cache
def views(game: str, ruleset: str) -> tuple[dict[str, Any], ...]:
    """The start view of ``ruleset`` and every full view the game's traces reach when replayed under it."""
    found = [ReferenceDriver().start(game, ruleset)]
    for trace in load_traces(sorted((ROOT / "traces" / game).glob("*.yaml"))):
        for step in replay(trace, ReferenceDriver(), ruleset=ruleset).steps:
            if isinstance(step.answer, dict) and step.answer.get("game") == game:
                found.append(step.answer)
    return tuple(found)


def parse(picture: str) -> ET.Element:
    assert picture.startswith("<svg")
    root = ET.fromstring(picture)
    assert root.tag == NS + "svg"
    return root


def with_path(root: ET.Element, path: str) -> list[ET.Element]:
    return [e for e in root.iter() if e.get("data-path") == path]


def caption_text(root: ET.Element) -> str:
    return "\n".join("".join(e.itertext()) for e in root.iter(NS + "text"))


@pytest.mark.parametrize("game,ruleset", CASES)
def test_every_trace_position_draws_as_svg(game: str, ruleset: str) -> None:
    found = views(game, ruleset)
    assert len(found) > 10  # the traces were replayed, not only the start
    for view in found:
        root = parse(DRAWERS[game](view, frozenset()))
        assert not any(e.get("class") == "marked" for e in root.iter())
        assert not any(e.tag in (NS + "script", NS + "image", NS + "a") for e in root.iter())


@pytest.mark.parametrize("game,ruleset", CASES)
def test_positions_with_every_field_marked_still_draw(game: str, ruleset: str) -> None:
    view = views(game, ruleset)[-1]
    root = parse(DRAWERS[game](view, frozenset(view)))
    text = caption_text(root)
    assert all(f"differs: {field}" in text for field in view)


def test_ludo_draws_one_piece_element_per_piece() -> None:
    for view in views("ludo", "v1"):
        root = parse(ludo.draw(view, frozenset()))
        drawn = [e for e in root.iter() if e.get("data-kind") == "piece"]
        assert len(drawn) == sum(len(p) for p in view["pieces"].values())
        assert {e.get("data-path") for e in drawn} == {f"pieces.{s}[{i}]" for s in view["pieces"] for i in range(4)}


def test_ludo_pieces_stand_where_their_steps_say() -> None:
    view = ReferenceDriver().start("ludo", None, 1, {"pieces": {"human": [0, 13, 57, -1], "cpu1": [0, -1, -1, -1]}})
    root = parse(ludo.draw(view, frozenset()))

    def centre(path: str) -> tuple[float, float]:
        circle = next(e for e in with_path(root, path)[0].iter(NS + "circle"))
        return float(circle.get("cx")), float(circle.get("cy"))

    # human's step 13 is loop square 13, cpu1's start square: both pieces share that square
    (hx, hy), (cx, cy) = centre("pieces.human[1]"), centre("pieces.cpu1[0]")
    assert abs(hx - cx) < ludo.C and abs(hy - cy) < ludo.C
    # human's start square is at the bottom, its goal in the centre, its yard bottom-left
    assert centre("pieces.human[0]")[1] > 12 * ludo.C
    assert 6 * ludo.C < centre("pieces.human[2]")[0] < 9 * ludo.C + ludo.X0
    yard = centre("pieces.human[3]")
    assert yard[0] < 6 * ludo.C and yard[1] > 9 * ludo.C


@pytest.mark.parametrize("game,path", [
    ("ludo", "pieces.human[2]"), ("ludo", "roll"), ("ludo", "turn"), ("ludo", "result"),
    ("beacon-lines", "scores.red"), ("beacon-lines", "markers.beacon.blue"), ("beacon-lines", "control.depot"),
    ("beacon-lines", "round"), ("lantern-quay", "dice[1]"), ("lantern-quay", "placed.forge"),
    ("lantern-quay", "lenses"), ("lantern-quay", "brass"),
])
def test_a_marked_path_is_marked_on_its_element(game: str, path: str) -> None:
    view = next(v for v in views(game, GAMES[game].info.default_ruleset)
                if v.get("phase") != "roll" and (game != "lantern-quay" or len(v["dice"]) > 1))
    root = parse(DRAWERS[game](view, frozenset({path})))
    elements = with_path(root, path)
    assert elements and all(e.get("class") == "marked" for e in elements)
    assert f"differs: {path}" in caption_text(root)
    others = [e for e in root.iter() if e.get("class") == "marked" and e.get("data-path") != path]
    assert all(path.startswith(e.get("data-path")) for e in others)  # only the containers of the path


@pytest.mark.parametrize("game", DRAWERS)
def test_a_marked_path_with_no_element_is_listed(game: str) -> None:
    view = views(game, GAMES[game].info.default_ruleset)[0]
    marks = frozenset({"legal", "pieces.cpu9[7]", "nothing.here"})
    root = parse(DRAWERS[game](view, marks))
    text = caption_text(root)
    assert all(f"differs: {mark}" in text for mark in marks)


GARBAGE: list[Any] = [{}, {"pieces": 5}, {"dice": "x"}, [], [1, 2], {"placed": [1]}, {"markers": {"beacon": 3}},
                      {"control": {"depot": ["red"]}, "scores": "x", "round": 10 ** 5000},
                      {"pieces": {"human": [99, "a", None, 10 ** 5000, True], "cpu7": [1]}, "turn": {"x": 1}},
                      {"pieces": {"human": list(range(-1, 58)) * 100}, "sixes": 10 ** 9, "roll": 77},
                      {"dice": [0, 7, "six", None] * 1000, "brass": 10 ** 9, "modules": -3, "lenses": 99,
                       "placed": {"salvage": 6, "forge": "6", "dock": 1}},
                      {"markers": {"beacon": {"red": 10 ** 9, "blue": -1}}, "ruleset": "<&\"'>"}]


@pytest.mark.parametrize("game", DRAWERS)
@pytest.mark.parametrize("view", GARBAGE, ids=range(len(GARBAGE)))
def test_a_garbage_view_still_draws(game: str, view: Any) -> None:
    root = parse(DRAWERS[game](view, frozenset({"pieces", "dice[0]", "result"})))
    assert float(root.get("width")) <= 760
    text = caption_text(root)
    assert "differs: pieces" in text and "differs: result" in text

