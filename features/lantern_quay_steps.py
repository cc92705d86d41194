"""Step definitions of lantern-quay.feature (Lantern Quay): they talk to a driver only, never to an engine."""

from __future__ import annotations

import re

from pytest_bdd import parsers, then, when

from features.stepkit import Play, ints, slug

def _place(play: Play, slot: str, face: int) -> None:
    play.act({"type": "place", "slot": slug(slot), "face": face})


@when(parsers.re(r"^the (?:dice (?P<dice>[\d, ]+) are rolled|roll (?P<roll>[\d, ]+) is made)$"))
def roll(play: Play, dice: str | None, roll: str | None) -> None:
    play.act({"type": "roll", "dice": ints(dice or roll or "")})


@when(parsers.re(r"^the dice (?P<dice>[\d, ]+) are placed (?P<placements>(?:[A-Za-z]+ \d+(?:, )?)+)$"))
def roll_and_place(play: Play, dice: str, placements: str) -> None:
    roll(play, dice, None)
    placed_in_order(play, placements)


@when(parsers.re(r"^the (?P<face>\d+) is placed on (?P<slot>[A-Za-z]+)$"))
def place_one(play: Play, face: str, slot: str) -> None:
    _place(play, slot, int(face))


@when(parsers.re(r"^they are placed in the order (?P<placements>.+)$"))
def placed_in_order(play: Play, placements: str) -> None:
    for slot, face in re.findall(r"([A-Za-z]+) (\d+)", placements):
        _place(play, slot, int(face))


@then(parsers.re(r"^the stock is brass (?P<brass>\d+), modules (?P<modules>\d+), lenses (?P<lenses>\d+)$"))
def stock(play: Play, brass: str, modules: str, lenses: str) -> None:
    view = play.current()
    assert {k: view[k] for k in ("brass", "modules", "lenses")} == \
        {"brass": int(brass), "modules": int(modules), "lenses": int(lenses)}


@then(parsers.re(r"^the game waits for the roll of round (?P<n>\d+)$"))
def waits_for_roll(play: Play, n: str) -> None:
    view = play.current()
    assert (view["phase"], view["round"]) == ("roll", int(n))


@then(parsers.re(r"^no dice are left from round \d+$"))
def no_dice_left(play: Play) -> None:
    view = play.current()
    assert view["dice"] == [] and all(v is None for v in view["placed"].values()), view
