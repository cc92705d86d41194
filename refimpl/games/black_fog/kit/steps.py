"""Step definitions of black-fog.feature (Black Fog): they talk to a driver only, never to an engine."""

from __future__ import annotations

import re
from typing import Any

from ....scenarios.registry import Mismatch, expect, given, regex, skip, then, when
from ....scenarios.steps.play import Play


def _tiles(text: str) -> list[str]:
    return [t.strip().replace(" ", "") for t in text.split(";") if t.strip()]


def _bf_start(play: Play, seed: int | None, setup: dict[str, Any]) -> None:
    if not play.driver.supports("black-fog", None):
        skip("the build does not declare black-fog")
    play.view = play.driver.start("black-fog", None, seed, setup)
    play.not_started = ""


@given(regex(r"^a new Black Fog game with seed (?P<seed>\d+)$"))
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


@when(regex(r"^(?P<k>k\d) whistles$"))
def bf_whistle(play: Play, k: str) -> None:
    play.act({"type": "whistle", "keeper": k})


@when(regex(r"^(?P<k>k\d) tames (?P<animals>.+)$"))
def bf_tame(play: Play, k: str, animals: str) -> None:
    play.act({"type": "tame", "keeper": k, "animals": _names(animals)})


@when(regex(r"^(?P<k>k\d) moves to (?P<to>-?\d+,-?\d+)$"))
def bf_move(play: Play, k: str, to: str) -> None:
    play.act({"type": "move", "keeper": k, "to": to})


@when(regex(r"^(?P<k>k\d) feeds$"))
def bf_feed(play: Play, k: str) -> None:
    play.act({"type": "feed", "keeper": k})


@when(regex(r"^(?P<k>k\d) releases (?P<animals>.+)$"))
def bf_release(play: Play, k: str, animals: str) -> None:
    play.act({"type": "release", "keeper": k, "animals": _names(animals)})


@when(regex(r"^(?P<k>k\d) collects the feed$"))
def bf_collect(play: Play, k: str) -> None:
    play.act({"type": "collect", "keeper": k})


@when("the actions end")
def bf_end_actions(play: Play) -> None:
    play.act({"type": "end-actions"})


@when(regex(r"^the die shows (?P<face>\d|-)$"))
def bf_die(play: Play, face: str) -> None:
    if face != "-":  # "-": no die wanted (a medium or large animal rolls once)
        play.act({"type": "roll", "face": int(face)})


@when(regex(r"^the players choose the feed at (?P<tile>-?\d+,-?\d+)$"))
def bf_choose(play: Play, tile: str) -> None:
    play.act({"type": "choose-feed", "feed": tile})


@when(regex(r"^fog appears on (?P<tiles>.+)$"))
def bf_fog(play: Play, tiles: str) -> None:
    play.act({"type": "fog", "tiles": _tiles(tiles)})


def _ring(tile: str) -> int:
    q, r = map(int, tile.split(","))
    return (abs(q) + abs(r) + abs(q + r)) // 2 + 1


@then(regex(r"^rings 2, 3, 4, 5 hold 3 apple trees each and none elsewhere$"))
def bf_apples(play: Play) -> None:
    rings = [_ring(t) for t in play.current()["map"]["apple"]]
    expect("map.apple", sorted(rings), [2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5], "the rings of the apple trees, sorted")


@then(regex(r"^rings 2, 3, 4, 5, 6 hold 1, 2, 3, 4, 5 water tiles$"))
def bf_water(play: Play) -> None:
    rings = [_ring(t) for t in play.current()["map"]["water"]]
    expect("map.water", [rings.count(n) for n in range(1, 7)], [0, 1, 2, 3, 4, 5], "water tiles in rings 1 to 6")


@then("no tile is both apple tree and water, and the house is neither")
def bf_disjoint(play: Play) -> None:
    m = play.current()["map"]
    expect("map.water", sorted(set(m["apple"]) & set(m["water"])), [], "tiles both apple tree and water")
    expect("map.apple", "0,0" in m["apple"] + m["water"], False, "the house is a tree or water")


@then(regex(r"^the keepers are (?P<keepers>.+)$"))
def bf_keepers(play: Play, keepers: str) -> None:
    expect("keepers", sorted(play.current()["keepers"]), _names(keepers), "the keepers, sorted")


@then(regex(r"^it is the action phase of round (?P<n>\d+)$"))
def bf_action_phase(play: Play, n: str) -> None:
    view = play.current()
    expect("phase", view["phase"], "actions")
    expect("round", view["round"], int(n))


@then("the game is over")
def bf_over(play: Play) -> None:
    expect("phase", play.current()["phase"], "over")


@then("the fog phase has begun")
def bf_fog_phase(play: Play) -> None:
    expect("phase", play.current()["phase"], "fog")


@then(regex(r"^(?P<k>k\d) is at (?P<tile>-?\d+,-?\d+)$"))
def bf_keeper_at(play: Play, k: str, tile: str) -> None:
    expect(f"keepers.{k}.at", play.current()["keepers"][k]["at"], tile)


@then(regex(r"^(?P<k>k\d) is lost$"))
def bf_keeper_lost(play: Play, k: str) -> None:
    expect(f"keepers.{k}.lost", play.current()["keepers"][k]["lost"], True)


@then(regex(r"^(?P<k>k\d) carries (?P<animals>.+)$"))
def bf_carries(play: Play, k: str, animals: str) -> None:
    expect(f"keepers.{k}.carrying", sorted(play.current()["keepers"][k]["carrying"]), sorted(_names(animals)), "sorted")


@then(regex(r"^(?P<a>a\d+) is at (?P<tile>-?\d+,-?\d+)$"))
def bf_animal_at(play: Play, a: str, tile: str) -> None:
    animal = play.current()["animals"][a]
    expect(f"animals.{a}.status", animal["status"], "wild")
    expect(f"animals.{a}.at", animal["at"], tile)


@then(regex(r"^(?P<a>a\d+) is (?P<status>lost|saved)$"))
def bf_animal_status(play: Play, a: str, status: str) -> None:
    expect(f"animals.{a}.status", play.current()["animals"][a]["status"], status)


@then(regex(r"^the score counts (?P<n>\d+) (?P<size>small |medium |large )?animals? (?P<what>saved|lost)$"))
def bf_score_counts(play: Play, n: str, size: str | None, what: str) -> None:
    view = play.current()
    counted = [a for a in view["animals"].values() if a["status"] == what
               and (size is None or a["size"] == size.strip())]
    expect("animals", len(counted), int(n), f"{size or ''}animals {what}")
    part = "saved" if what == "saved" else "lost_animals"
    if not (view["score"][part] > 0 if what == "saved" else view["score"][part] < 0):
        raise Mismatch(f"score.{part}", "above 0" if what == "saved" else "below 0", view["score"][part])


@then(regex(r"^there is (?P<no>no )?feed at (?P<tile>-?\d+,-?\d+)$"))
def bf_feed_at(play: Play, no: str | None, tile: str) -> None:
    expect("map.feed", tile in play.current()["map"]["feed"], no is None, f"feed at {tile}")


@then(regex(r"^(?P<tile>-?\d+,-?\d+) is (?P<what>fog|a withered apple tree)$"))
def bf_tile_is(play: Play, tile: str, what: str) -> None:
    m = play.current()["map"]
    key = "fog" if what == "fog" else "withered"
    expect(f"map.{key}", tile in m[key], True, f"{tile} among them")


@then(regex(r"^the animal phase waits for (?:a die|a (?P<feed>feed) choice) for (?P<a>a\d+)$"))
def bf_waits(play: Play, feed: str | None, a: str) -> None:
    pending = play.current()["pending"]
    if pending is None:
        raise Mismatch("pending", {"animal": a}, None)
    expect("pending.animal", pending["animal"], a)
    expect("pending.needs", pending["needs"], "feed" if feed else "roll")
