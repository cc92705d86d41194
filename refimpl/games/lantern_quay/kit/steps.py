"""Step definitions of lantern-quay.feature (Lantern Quay): they talk to a driver only, never to an engine."""

from __future__ import annotations

import re
from fractions import Fraction

from ....scenarios.registry import expect, regex, then, when
from ....scenarios.steps.play import Play, ints, slug


def _place(play: Play, slot: str, face: int) -> None:
    play.act({"type": "place", "slot": slug(slot), "face": face})


@when(regex(r"^the (?:dice (?P<dice>[\d, ]+) are rolled|roll (?P<roll>[\d, ]+) is made)$"))
def roll(play: Play, dice: str | None, roll: str | None) -> None:
    play.act({"type": "roll", "dice": ints(dice or roll or "")})


@when(regex(r"^the dice (?P<dice>[\d, ]+) are placed (?P<placements>(?:[A-Za-z]+ \d+(?:, )?)+)$"))
def roll_and_place(play: Play, dice: str, placements: str) -> None:
    roll(play, dice, None)
    placed_in_order(play, placements)


@when(regex(r"^the (?P<face>\d+) is placed on (?P<slot>[A-Za-z]+)$"))
def place_one(play: Play, face: str, slot: str) -> None:
    _place(play, slot, int(face))


@when(regex(r"^they are placed in the order (?P<placements>.+)$"))
def placed_in_order(play: Play, placements: str) -> None:
    for slot, face in re.findall(r"([A-Za-z]+) (\d+)", placements):
        _place(play, slot, int(face))


@then(regex(r"^the stock is brass (?P<brass>\d+), modules (?P<modules>\d+), lenses (?P<lenses>\d+)$"))
def stock(play: Play, brass: str, modules: str, lenses: str) -> None:
    view = play.current()
    for key, value in (("brass", brass), ("modules", modules), ("lenses", lenses)):
        expect(key, view[key], int(value))


@then(regex(r"^the game waits for the roll of round (?P<n>\d+)$"))
def waits_for_roll(play: Play, n: str) -> None:
    view = play.current()
    expect("phase", view["phase"], "roll")
    expect("round", view["round"], int(n))


@then(regex(r"^no dice are left from round \d+$"))
def no_dice_left(play: Play) -> None:
    view = play.current()
    expect("dice", view["dice"], [])
    expect("placed", view["placed"], {slot: None for slot in view["placed"]})


@when(regex(r"^the kit works out the chance of a restoration under (?P<ruleset>v\d+) with the dice placed "
            r"(?P<how>the best way|at random)$"), target_fixture="restoration")
def lq_restoration(ruleset: str, how: str) -> Fraction:
    from .tables import restoration_chance

    return restoration_chance(ruleset, "best" if how == "the best way" else "random")


@then(regex(r"^the game ends restored (?P<n>\d+) times in (?P<d>\d+)$"))
def lq_restoration_is(restoration: Fraction, n: str, d: str) -> None:
    expect("result", f"{restoration.numerator}/{restoration.denominator}", f"{int(n)}/{int(d)}",
           "the exact chance of a restoration, in lowest terms")
