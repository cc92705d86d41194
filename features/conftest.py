"""Step definitions for the Gherkin features. They talk to a driver only, never to an engine.

Words in the features are the spec's words ("North Pass", "Salvage"); the steps turn them into the
JSON actions and view keys of the protocol (``north-pass``, ``salvage``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import pytest
from pytest_bdd import given, parsers, then, when

from refimpl.compare import first_difference
from refimpl.driver import Driver, Rejected

OTHER_PASS = {"red": ("blue", "south-pass"), "blue": ("red", "north-pass")}
RESULTS = {"none yet": None, "Red wins": "red", "Blue wins": "blue", "a draw": "draw",
           "restored": "restored", "incomplete": "incomplete"}


def slug(words: str) -> str:
    """ "North Pass" -> "north-pass"; "Red" -> "red"."""
    return "-".join(words.strip().lower().split())


def names(text: str) -> list[str]:
    """ "A, B and C" -> ["a", "b", "c"] as slugs."""
    return [slug(p) for p in re.split(r",\s*|\s+and\s+", text.strip()) if p.strip()]


def ints(text: str) -> list[int]:
    return [int(x) for x in re.findall(r"-?\d+", text)]


@dataclass
class Play:
    """What a scenario has done so far through the driver."""

    driver: Driver
    view: dict[str, Any] = field(default_factory=dict)  # the latest accepted state
    before: dict[str, Any] = field(default_factory=dict)  # the state before the latest action
    outcome: Any = None  # the latest answer: a view or a Rejected
    not_started: str = ""  # why the game could not be started (the build lacks it); skip when used

    def ready(self) -> None:
        if self.not_started:
            pytest.skip(self.not_started)

    def act(self, action: dict[str, Any]) -> None:
        self.ready()
        self.before = self.driver.view()
        self.outcome = self.driver.apply(action)
        if not isinstance(self.outcome, Rejected):
            self.view = self.outcome

    def current(self) -> dict[str, Any]:
        self.ready()
        return self.driver.view()


@pytest.fixture
def play(driver: Driver) -> Play:
    return Play(driver)


# --- common ------------------------------------------------------------------------------------

@given(parsers.re(r"^a new (?P<title>[A-Za-z ]+?) game$"))
def new_game(play: Play, title: str) -> None:
    game = slug(title)
    if not play.driver.supports(game, None):
        # Not a skip yet: a later step may start the game under a ruleset the build has.
        play.not_started = f"the build does not declare {game} under its default ruleset"
        return
    play.view = play.driver.start(game)


@given(parsers.re(r"^a new (?P<title>[A-Za-z ]+?) game under ruleset (?P<ruleset>\S+)$"))
def new_game_ruleset(play: Play, title: str, ruleset: str) -> None:
    game = slug(title)
    if not play.driver.supports(game, ruleset):
        pytest.skip(f"the build does not declare {game} {ruleset}")
    play.not_started = ""
    play.view = play.driver.start(game, ruleset)


@when("the game is restarted")
def restart(play: Play) -> None:
    play.ready()
    play.before = play.driver.view()
    play.view = play.outcome = play.driver.restart()


@then(parsers.re(r'^the (?:claim|action) is rejected with "(?P<code>[a-z0-9-]+)"$'))
def rejected_with(play: Play, code: str) -> None:
    assert isinstance(play.outcome, Rejected), f"expected rejection {code!r}, but the build accepted it"
    assert play.outcome.code == code, f"rejected with {play.outcome.code!r}, expected {code!r}"


@then("the state is unchanged")
def state_unchanged(play: Play) -> None:
    diff = first_difference(play.before, play.current())
    assert diff is None, f"state changed after a rejected action: {diff}"


@then(parsers.re(r"^the result is (?P<result>.+)$"))
def result_is(play: Play, result: str) -> None:
    assert play.current()["result"] == RESULTS[result]


@then(parsers.re(r"^the game goes on in round (?P<n>\d+)$"))
def goes_on(play: Play, n: str) -> None:
    view = play.current()
    assert (view["round"], view["result"]) == (int(n), None)


# --- Beacon Lines ------------------------------------------------------------------------------

@when(parsers.re(r"^Red claims (?P<red>[A-Za-z ]+?) and Blue claims (?P<blue>[A-Za-z ]+)$"))
def claims(play: Play, red: str, blue: str) -> None:
    play.act({"type": "claim", "claims": {"red": slug(red), "blue": slug(blue)}})


@when(parsers.re(r"^Red claims both (?P<first>[A-Za-z ]+?) and (?P<second>[A-Za-z ]+?) "
                 r"while Blue claims (?P<blue>[A-Za-z ]+)$"))
def two_claims(play: Play, first: str, second: str, blue: str) -> None:
    play.act({"type": "claim", "claims": {"red": [slug(first), slug(second)], "blue": slug(blue)}})


@when(parsers.re(r"^only Red claims (?P<red>[A-Za-z ]+)$"))
def only_red(play: Play, red: str) -> None:
    play.act({"type": "claim", "claims": {"red": slug(red)}})


@when(parsers.re(r"^(?P<faction>Red|Blue) claims (?P<region>[A-Za-z ]+?) and the other faction "
                 r"claims its own pass$"))
def claim_against_pass(play: Play, faction: str, region: str) -> None:
    other, its_pass = OTHER_PASS[slug(faction)]
    play.act({"type": "claim", "claims": {slug(faction): slug(region), other: its_pass}})


@then("the claims were accepted")
def claims_accepted(play: Play) -> None:
    assert not isinstance(play.outcome, Rejected), f"rejected: {play.outcome}"


@then(parsers.re(r"^the board has exactly the regions: (?P<regions>.+)$"))
def board_regions(play: Play, regions: str) -> None:
    assert sorted(play.current()["control"]) == sorted(names(regions))


@then(parsers.re(r"^(?P<region>[A-Za-z ]+?) is controlled by (?P<faction>Red|Blue)$"))
def controlled_by(play: Play, region: str, faction: str) -> None:
    assert play.current()["control"][slug(region)] == slug(faction)


@then(parsers.re(r"^(?P<regions>[A-Za-z ,]+?) (?:is|are) neutral$"))
def neutral(play: Play, regions: str) -> None:
    control = play.current()["control"]
    assert {r: control[r] for r in names(regions)} == {r: None for r in names(regions)}


@then(parsers.re(r"^the score is Red (?P<red>\d+), Blue (?P<blue>\d+)$"))
def score(play: Play, red: str, blue: str) -> None:
    assert play.current()["scores"] == {"red": int(red), "blue": int(blue)}


@then(parsers.re(r"^(?P<faction>Red|Blue) may claim exactly: (?P<regions>.+)$"))
def may_claim(play: Play, faction: str, regions: str) -> None:
    play.ready()
    actions = play.driver.legal_actions()
    if actions is None:
        pytest.skip("the build does not list legal actions")
    targets = {a["claims"][slug(faction)] for a in actions}
    assert sorted(targets) == sorted(names(regions))


@then(parsers.re(r"^(?P<region>[A-Za-z ]+?) has (?P<red>\d+) Red markers? and (?P<blue>\d+) Blue markers?$"))
def markers(play: Play, region: str, red: str, blue: str) -> None:
    assert play.current()["markers"][slug(region)] == {"red": int(red), "blue": int(blue)}


@then("every non-Home region has no markers")
def no_markers(play: Play) -> None:
    counts = play.current()["markers"]
    assert all(n == 0 for per in counts.values() for n in per.values()), counts


# --- Lantern Quay ------------------------------------------------------------------------------

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


# --- Ludo ---------------------------------------------------------------------------------------

LUDO_SEATS = ["human", "cpu1", "cpu2", "cpu3"]


@given(parsers.re(r"^a new Ludo game with seed (?P<seed>\d+)$"))
def new_ludo(play: Play, seed: str) -> None:
    if not play.driver.supports("ludo", None):
        pytest.skip("the build does not declare ludo")
    play.view = play.driver.start("ludo", None, int(seed), {})
    play.not_started = ""


@given(parsers.re(r"^a Ludo game with seed (?P<seed>\d+)(?: after (?P<throws>\d+) throws)? "
                  r"where it is (?P<seat>\w+)'s turn:$"))
def ludo_position(play: Play, seed: str, throws: str | None, seat: str, datatable: list[list[str]]) -> None:
    if not play.driver.supports("ludo", None):
        pytest.skip("the build does not declare ludo")
    header, *rows = datatable
    pieces = {row[header.index("seat")].strip(): ints(row[header.index("pieces")]) for row in rows}
    setup: dict[str, Any] = {"pieces": pieces, "turn": seat}
    if throws:
        setup["throws"] = int(throws)
    play.view = play.driver.start("ludo", None, int(seed), setup)
    play.not_started = ""


def _turn(play: Play, seat: str, phase: str) -> None:
    """The step names who acts; check it is their turn (not once the game is over: that is for the
    build to refuse)."""
    view = play.current()
    if view["phase"] == "over" and phase != "over":
        return
    assert (view["turn"], view["phase"]) == (seat, phase), \
        f"expected {seat} to {phase}, but it is {view['turn']} in phase {view['phase']}"


@when(parsers.re(r"^(?P<seat>\w+) throws a (?P<face>\d+)$"))
def throws_a(play: Play, seat: str, face: str) -> None:
    _turn(play, seat, "roll")
    play.act({"type": "roll", "face": int(face)})


@when(parsers.re(r"^(?P<seat>\w+) moves piece (?P<piece>\d+)$"))
def moves_piece(play: Play, seat: str, piece: str) -> None:
    _turn(play, seat, "move")
    play.act({"type": "move", "piece": int(piece)})


@when(parsers.re(r"^the (?P<level>easy|normal|hard) CPU moves for (?P<seat>\w+)$"))
def cpu_moves(play: Play, level: str, seat: str) -> None:
    _turn(play, seat, "move")
    play.act({"type": "cpu", "level": level})


@when(parsers.re(r"^(?P<n>\d+) throws come from the seed, each face played by the (?P<level>\w+) CPU$"))
def seeded_throws(play: Play, n: str, level: str, faces: list[int]) -> None:
    for _ in range(int(n)):
        play.act({"type": "roll"})
        assert not isinstance(play.outcome, Rejected), play.outcome
        faces.append(play.outcome["last_face"])
        if play.outcome["phase"] == "move":
            play.act({"type": "cpu", "level": level})


@pytest.fixture
def faces() -> list[int]:
    return []


@pytest.fixture
def ludo_record() -> dict[str, int]:
    return {"played": 0, "won": 0, "lost": 0}


@when("the result is recorded")
def record_result(play: Play, ludo_record: dict[str, int]) -> None:
    from refimpl.simulate import tally

    tally(ludo_record, play.current()["result"])


@then(parsers.re(r"^the human seat's record is (?P<played>\d+) played, (?P<won>\d+) won, (?P<lost>\d+) lost$"))
def human_record(ludo_record: dict[str, int], played: str, won: str, lost: str) -> None:
    assert ludo_record == {"played": int(played), "won": int(won), "lost": int(lost)}


@then(parsers.re(r"^the seats are (?P<seats>.+)$"))
def seats_are(play: Play, seats: str) -> None:
    assert list(play.current()["pieces"]) == names(seats)


@then("every piece of every seat is in its yard")
def all_in_yard(play: Play) -> None:
    assert all(p == [-1, -1, -1, -1] for p in play.current()["pieces"].values())


@then(parsers.re(r"^it is (?P<seat>\w+)'s turn to throw$"))
def turn_to_throw(play: Play, seat: str) -> None:
    _turn(play, seat, "roll")


@then(parsers.re(r"^(?P<seat>\w+) may move exactly pieces (?P<pieces>[\d, ]+)$"))
def may_move(play: Play, seat: str, pieces: str) -> None:
    _turn(play, seat, "move")
    actions = play.driver.legal_actions()
    if actions is None:
        pytest.skip("the build does not list legal actions")
    assert sorted(a["piece"] for a in actions if a["type"] == "move") == ints(pieces)


@then(parsers.re(r"^(?P<seat>\w+)'s pieces are at (?P<pieces>[-\d, ]+)$"))
def pieces_at(play: Play, seat: str, pieces: str) -> None:
    assert play.current()["pieces"][seat] == ints(pieces)


@then(parsers.re(r"^(?P<n>\d+) throws have been made$"))
def throws_made(play: Play, n: str) -> None:
    assert play.current()["throws"] == int(n)


@then(parsers.re(r"^(?P<n>\d+) numbers have been drawn from the decision stream$"))
def decisions_drawn(play: Play, n: str) -> None:
    assert play.current()["decisions"] == int(n)


@then(parsers.re(r"^the game is over and (?P<seat>\w+) has won$"))
def won(play: Play, seat: str) -> None:
    view = play.current()
    assert (view["phase"], view["result"]) == ("over", seat)


@then("the game is over with no result")
def capped(play: Play) -> None:
    view = play.current()
    assert (view["phase"], view["result"]) == ("over", "capped")


@then(parsers.re(r"^the faces were (?P<faces_>[\d, ]+)$"))
def faces_were(faces: list[int], faces_: str) -> None:
    assert faces == ints(faces_)
