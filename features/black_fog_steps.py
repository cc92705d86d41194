"""Step definitions of black-fog.feature (Black Fog): they talk to a driver only, never to an engine."""

from __future__ import annotations

import re
from typing import Any

import pytest
from pytest_bdd import given, parsers, then, when

from features.stepkit import Play

def _tiles(text: str) -> list[str]:
    return [t.strip().replace(" ", "") for t in text.split(";") if t.strip()]


def _bf_start(play: Play, seed: int | None, setup: dict[str, Any]) -> None:
    if not play.driver.supports("black-fog", None):
        pytest.skip("the build does not declare black-fog")
    play.view = play.driver.start("black-fog", None, seed, setup)
    play.not_started = ""


@given(parsers.re(r"^a new Black Fog game with seed (?P<seed>\d+)$"))
def bf_new(play: Play, seed: str) -> None:
    _bf_start(play, int(seed), {})


@given("a Black Fog game with:")
def bf_game(play: Play, datatable: list[list[str]]) -> None:
    setup: dict[str, Any] = {"map": {"apple": [], "water": []}, "animals": [], "keepers": {}, "fog": [], "feed": []}
    for thing, where in (r for r in datatable[1:]):
        thing, where = thing.strip(), where.strip()
        if thing in ("apple", "water"):
            setup["map"][thing] += _tiles(where)
        elif thing in ("fog", "feed"):
            setup[thing] += _tiles(where)
        elif thing == "round":
            setup["round"] = int(where)
        elif re.fullmatch(r"k\d", thing):
            setup["keepers"][thing] = where
        else:
            setup["animals"].append({"species": thing, "at": where})
    _bf_start(play, 1, setup)


def _names(text: str) -> list[str]:
    return [n for n in re.split(r",\s*|\s+and\s+", text.strip()) if n]


@when(parsers.re(r"^(?P<k>k\d) whistles$"))
def bf_whistle(play: Play, k: str) -> None:
    play.act({"type": "whistle", "keeper": k})


@when(parsers.re(r"^(?P<k>k\d) tames (?P<animals>.+)$"))
def bf_tame(play: Play, k: str, animals: str) -> None:
    play.act({"type": "tame", "keeper": k, "animals": _names(animals)})


@when(parsers.re(r"^(?P<k>k\d) moves to (?P<to>-?\d+,-?\d+)$"))
def bf_move(play: Play, k: str, to: str) -> None:
    play.act({"type": "move", "keeper": k, "to": to})


@when(parsers.re(r"^(?P<k>k\d) feeds$"))
def bf_feed(play: Play, k: str) -> None:
    play.act({"type": "feed", "keeper": k})


@when(parsers.re(r"^(?P<k>k\d) releases (?P<animals>.+)$"))
def bf_release(play: Play, k: str, animals: str) -> None:
    play.act({"type": "release", "keeper": k, "animals": _names(animals)})


@when(parsers.re(r"^(?P<k>k\d) collects the feed$"))
def bf_collect(play: Play, k: str) -> None:
    play.act({"type": "collect", "keeper": k})


@when("the actions end")
def bf_end_actions(play: Play) -> None:
    play.act({"type": "end-actions"})


@when(parsers.re(r"^the die shows (?P<face>\d|-)$"))
def bf_die(play: Play, face: str) -> None:
    if face != "-":  # "-": no die wanted (a medium or large animal rolls once)
        play.act({"type": "roll", "face": int(face)})


@when(parsers.re(r"^the players choose the feed at (?P<tile>-?\d+,-?\d+)$"))
def bf_choose(play: Play, tile: str) -> None:
    play.act({"type": "choose-feed", "feed": tile})


@when(parsers.re(r"^fog appears on (?P<tiles>.+)$"))
def bf_fog(play: Play, tiles: str) -> None:
    play.act({"type": "fog", "tiles": _tiles(tiles)})


def _ring(tile: str) -> int:
    q, r = map(int, tile.split(","))
    return (abs(q) + abs(r) + abs(q + r)) // 2 + 1


@then(parsers.re(r"^rings 2, 3, 4, 5 hold 3 apple trees each and none elsewhere$"))
def bf_apples(play: Play) -> None:
    rings = [_ring(t) for t in play.current()["map"]["apple"]]
    assert sorted(rings) == [2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5]


@then(parsers.re(r"^rings 2, 3, 4, 5, 6 hold 1, 2, 3, 4, 5 water tiles$"))
def bf_water(play: Play) -> None:
    rings = [_ring(t) for t in play.current()["map"]["water"]]
    assert [rings.count(n) for n in range(1, 7)] == [0, 1, 2, 3, 4, 5]


@then("no tile is both apple tree and water, and the house is neither")
def bf_disjoint(play: Play) -> None:
    m = play.current()["map"]
    assert not set(m["apple"]) & set(m["water"]) and "0,0" not in m["apple"] + m["water"]


@then(parsers.re(r"^the keepers are (?P<keepers>.+)$"))
def bf_keepers(play: Play, keepers: str) -> None:
    assert sorted(play.current()["keepers"]) == _names(keepers)


@then(parsers.re(r"^it is the action phase of round (?P<n>\d+)$"))
def bf_action_phase(play: Play, n: str) -> None:
    view = play.current()
    assert (view["phase"], view["round"]) == ("actions", int(n))


@then("the game is over")
def bf_over(play: Play) -> None:
    assert play.current()["phase"] == "over"


@then("the fog phase has begun")
def bf_fog_phase(play: Play) -> None:
    assert play.current()["phase"] == "fog"


@then(parsers.re(r"^(?P<k>k\d) is at (?P<tile>-?\d+,-?\d+)$"))
def bf_keeper_at(play: Play, k: str, tile: str) -> None:
    assert play.current()["keepers"][k]["at"] == tile


@then(parsers.re(r"^(?P<k>k\d) is lost$"))
def bf_keeper_lost(play: Play, k: str) -> None:
    assert play.current()["keepers"][k]["lost"] is True


@then(parsers.re(r"^(?P<k>k\d) carries (?P<animals>.+)$"))
def bf_carries(play: Play, k: str, animals: str) -> None:
    assert sorted(play.current()["keepers"][k]["carrying"]) == sorted(_names(animals))


@then(parsers.re(r"^(?P<a>a\d+) is at (?P<tile>-?\d+,-?\d+)$"))
def bf_animal_at(play: Play, a: str, tile: str) -> None:
    animal = play.current()["animals"][a]
    assert (animal["status"], animal["at"]) == ("wild", tile), animal


@then(parsers.re(r"^(?P<a>a\d+) is (?P<status>lost|saved)$"))
def bf_animal_status(play: Play, a: str, status: str) -> None:
    assert play.current()["animals"][a]["status"] == status


@then(parsers.re(r"^the score counts (?P<n>\d+) (?P<size>small |medium |large )?animals? (?P<what>saved|lost)$"))
def bf_score_counts(play: Play, n: str, size: str | None, what: str) -> None:
    view = play.current()
    counted = [a for a in view["animals"].values() if a["status"] == what
               and (size is None or a["size"] == size.strip())]
    assert len(counted) == int(n)
    part = view["score"]["saved" if what == "saved" else "lost_animals"]
    assert (part > 0) if what == "saved" else (part < 0), view["score"]


@then(parsers.re(r"^there is (?P<no>no )?feed at (?P<tile>-?\d+,-?\d+)$"))
def bf_feed_at(play: Play, no: str | None, tile: str) -> None:
    assert (tile in play.current()["map"]["feed"]) is (no is None)


@then(parsers.re(r"^(?P<tile>-?\d+,-?\d+) is (?P<what>fog|a withered apple tree)$"))
def bf_tile_is(play: Play, tile: str, what: str) -> None:
    m = play.current()["map"]
    assert tile in (m["fog"] if what == "fog" else m["withered"]), m


@then(parsers.re(r"^the animal phase waits for (?:a die|a (?P<feed>feed) choice) for (?P<a>a\d+)$"))
def bf_waits(play: Play, feed: str | None, a: str) -> None:
    pending = play.current()["pending"]
    assert pending is not None and pending["animal"] == a
    assert pending["needs"] == ("feed" if feed else "roll"), pending
