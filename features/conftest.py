"""Step definitions for the Gherkin features. They talk to a driver only, never to an engine.

Words in the features are the spec's words ("North Pass", "Salvage"); the steps turn them into the
JSON actions and view keys of the protocol (``north-pass``, ``salvage``).
"""

from __future__ import annotations

import json
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
    last_action: dict[str, Any] = field(default_factory=dict)

    def ready(self) -> None:
        if self.not_started:
            pytest.skip(self.not_started)

    def act(self, action: dict[str, Any]) -> None:
        self.ready()
        self.last_action = action
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


# --- Conquest King ------------------------------------------------------------------------------

CK_WIDTH, CK_HEIGHT = 16, 8  # the profile's map (the battle steps lay plain ground over all of it)


def square(text: str) -> list[int]:
    x, y = ints(text)
    return [x, y]


def _ck_start(play: Play, setup: dict[str, Any]) -> None:
    if not play.driver.supports("conquest-king", None):
        pytest.skip("the build does not declare conquest-king")
    play.view = play.driver.start("conquest-king", None, None, setup)
    play.not_started = ""


@given("a new Conquest King game")
def new_ck(play: Play) -> None:
    _ck_start(play, {})


@given("a new Conquest King game on a real-time field with nobody registered")
def new_ck_realtime(play: Play) -> None:
    _ck_start(play, {"field": "realtime", "registered": []})


@given(parsers.re(r"^a Conquest King battle on plain ground(?: with river at (?P<river>[\d,; ]+))?"
                  r"(?P<realtime> on a real-time field)? where it is (?P<side>\w+)'s phase:$"))
def ck_battle(play: Play, river: str | None, realtime: str | None, side: str, datatable: list[list[str]]) -> None:
    rows = [["."] * CK_WIDTH for _ in range(CK_HEIGHT)]
    for spot in (river or "").split(";"):
        if spot.strip():
            x, y = square(spot)
            rows[y][x] = "r"
    header, *lines = datatable
    units = []
    for line in lines:
        cell = dict(zip(header, (c.strip() for c in line)))
        units.append({"side": cell["side"], "kind": cell["kind"], "at": square(cell["at"]),
                      "facing": cell["facing"], "ambush": cell.get("ambush") == "yes"})
    setup: dict[str, Any] = {"terrain": ["".join(r) for r in rows], "units": units, "side": side}
    if realtime:
        setup["field"] = "realtime"
    _ck_start(play, setup)


@when(parsers.re(r"^(?P<side>sparkia|gaias) places an? (?P<kind>[a-z-]+) at (?P<at>\d+,\d+)(?P<ambush> as the ambush)?$"))
def ck_place(play: Play, side: str, kind: str, at: str, ambush: str | None) -> None:
    action: dict[str, Any] = {"type": "deploy", "side": side, "kind": kind, "at": square(at)}
    if ambush:
        action["ambush"] = True
    play.act(action)


@when(parsers.re(r"^(?P<side>sparkia|gaias) places (?P<n>\d+) (?P<kind>[a-z-]+)$"))
def ck_place_many(play: Play, side: str, n: str, kind: str) -> None:
    placed = 0
    columns = range(0, 6) if side == "sparkia" else range(CK_WIDTH - 6, CK_WIDTH)
    for x in columns:
        for y in range(CK_HEIGHT):
            if placed == int(n):
                return
            play.act({"type": "deploy", "side": side, "kind": kind, "at": [x, y]})
            if not isinstance(play.outcome, Rejected):
                placed += 1
            elif play.outcome.code != "illegal-square":
                raise AssertionError(f"placing {kind} number {placed + 1}: {play.outcome}")
    assert placed == int(n), f"only {placed} squares took a unit"


@when(parsers.re(r"^(?P<side>sparkia|gaias) takes back the unit at (?P<at>\d+,\d+)$"))
def ck_undeploy(play: Play, side: str, at: str) -> None:
    play.act({"type": "undeploy", "side": side, "at": square(at)})


@when(parsers.re(r"^(?P<side>sparkia|gaias) declares deployment complete$"))
def ck_complete(play: Play, side: str) -> None:
    play.act({"type": "complete", "side": side})


@when("both sides complete their deployment")
def ck_both_complete(play: Play) -> None:
    for side in ("sparkia", "gaias", "sparkia", "gaias"):
        play.act({"type": "complete", "side": side})
        assert not isinstance(play.outcome, Rejected), play.outcome


@when(parsers.re(r"^the unit at (?P<src>\d+,\d+) moves to (?P<dst>\d+,\d+) facing (?P<facing>[nesw])(?P<attack> and attacks)?$"))
def ck_move(play: Play, src: str, dst: str, facing: str, attack: str | None) -> None:
    action: dict[str, Any] = {"type": "move", "from": square(src), "to": square(dst), "facing": facing}
    if attack:
        action["attack"] = True
    play.act(action)


@when(parsers.re(r"^the dice show (?P<a>\d) for the attacker and (?P<d>\d) for the defender$"))
def ck_dice(play: Play, a: str, d: str) -> None:
    play.act({"type": "dice", "attacker": int(a), "defender": int(d)})


@when(parsers.re(r"^(?P<side>sparkia|gaias) ends its phase$"))
def ck_end_phase(play: Play, side: str) -> None:
    assert play.current()["side"] == side
    play.act({"type": "end-phase"})


@when(parsers.re(r"^(?P<side>sparkia|gaias) reveals its ambush at (?P<at>\d+,\d+)$"))
def ck_reveal(play: Play, side: str, at: str) -> None:
    play.act({"type": "reveal", "at": square(at)})


@when(parsers.re(r"^(?P<side>sparkia|gaias) registers$"))
def ck_register(play: Play, side: str) -> None:
    play.act({"type": "register", "side": side})


@when(parsers.re(r"^(?P<n>\d+) minutes pass$"))
def ck_wait(play: Play, n: str) -> None:
    play.act({"type": "wait", "minutes": int(n)})


@when(parsers.re(r"^the kit enumerates the 36 throws at a base difference of (?P<diff>-?\d+)$"),
      target_fixture="enumerated")
def ck_enumerate(diff: str) -> int:
    from refimpl.tables import attacker_wins

    return attacker_wins(int(diff))


@then(parsers.re(r"^the attacker wins (?P<wins>\d+) of 36, (?P<percent>\d+)%$"))
def ck_enumerated(enumerated: int, wins: str, percent: str) -> None:
    assert enumerated == int(wins)
    assert int(100 * enumerated / 36 + 0.5) == int(percent)


def _observed(play: Play, observer: str) -> dict[str, Any]:
    return play.driver.view(observer)


def _unit(play: Play, uid: str, observer: str = "referee") -> dict[str, Any] | None:
    return next((u for u in _observed(play, observer)["units"] if u["id"] == uid), None)


@then("the action is accepted")
def ck_accepted(play: Play) -> None:
    assert not isinstance(play.outcome, Rejected), play.outcome


@then(parsers.re(r"^the sides are (?P<a>\w+) and (?P<b>\w+)$"))
def ck_sides(play: Play, a: str, b: str) -> None:
    assert sorted(play.current()["lobby"]["registered"]) == sorted([a, b])


@then(parsers.re(r"^(?P<uid>[a-z]+-(?:king|\d+)) stands at (?P<at>\d+,\d+)(?: facing (?P<facing>[nesw]))?$"))
def ck_stands(play: Play, uid: str, at: str, facing: str | None) -> None:
    unit = _unit(play, uid)
    assert unit is not None, f"{uid} is not on the map"
    assert unit["at"] == square(at)
    if facing:
        assert unit["facing"] == facing


@then(parsers.re(r"^(?P<side>sparkia|gaias) has (?P<gold>\d+)G to spend$"))
def ck_gold(play: Play, side: str, gold: str) -> None:
    assert _observed(play, side)["deployment"][side]["gold"] == int(gold)


@then(parsers.re(r"^(?:the )?(?P<observer>referee|sparkia|gaias) sees no unit at (?P<at>\d+,\d+)$"))
def ck_sees_nothing(play: Play, observer: str, at: str) -> None:
    assert [u for u in _observed(play, observer)["units"] if u["at"] == square(at)] == []


@then(parsers.re(r"^(?P<observer>sparkia|gaias) sees the (?P<side>sparkia|gaias) unit at (?P<at>\d+,\d+)$"))
def ck_sees(play: Play, observer: str, side: str, at: str) -> None:
    seen = [u for u in _observed(play, observer)["units"] if u["at"] == square(at) and u["side"] == side
            and not u["hidden"]]
    assert len(seen) == 1, seen


@then(parsers.re(r"^(?P<side>sparkia|gaias) sees its hidden ambush at (?P<at>\d+,\d+)$"))
def ck_sees_own_ambush(play: Play, side: str, at: str) -> None:
    mine = [u for u in _observed(play, side)["units"] if u["side"] == side and u["hidden"]]
    assert [u["at"] for u in mine] == [square(at)]


@then(parsers.re(r"^nothing in (?P<observer>\w+)'s view marks the square (?P<at>\d+,\d+)$"))
def ck_no_mark(play: Play, observer: str, at: str) -> None:
    text = json.dumps(_observed(play, observer), separators=(",", ":"))
    x, y = square(at)
    assert f"[{x},{y}]" not in text, "the view mentions the hidden square"


@then(parsers.re(r"^(?P<uid>[a-z]+-(?:king|\d+)) is destroyed$"))
def ck_destroyed(play: Play, uid: str) -> None:
    assert _unit(play, uid) is None, f"{uid} is still on the map"


@then(parsers.re(r"^(?P<uid>[a-z]+-\d+) has appeared at (?P<at>\d+,\d+)$"))
def ck_appeared(play: Play, uid: str, at: str) -> None:
    unit = _unit(play, uid)
    assert unit is not None and unit["at"] == square(at) and not unit["hidden"], unit


@then(parsers.re(r"^a fight waits: (?P<attacker>[a-z]+-(?:king|\d+)) attacks (?P<target>[a-z]+-(?:king|\d+)), "
                 r"(?P<attack>\d+) against (?P<defence>\d+)$"))
def ck_fight(play: Play, attacker: str, target: str, attack: str, defence: str) -> None:
    combat = play.current()["combat"]
    assert combat is not None, "no fight waits"
    assert (combat["attackers"][0], combat["target"], combat["attack"], combat["defence"]) == \
        (attacker, target, int(attack), int(defence))


@then(parsers.re(r"^the attack is made by (?P<units>.+)$"))
def ck_attackers(play: Play, units: str) -> None:
    assert sorted(play.current()["combat"]["attackers"]) == sorted(re.split(r",\s*|\s+and\s+", units))


@then("no fight waits")
def ck_no_fight(play: Play) -> None:
    view = play.current()
    assert view["combat"] is None and view["phase"] == "play", view["combat"]


@then("the game is still being deployed")
def ck_deploying(play: Play) -> None:
    assert play.current()["phase"] == "deploy"


@then("the game goes on")
def ck_goes_on(play: Play) -> None:
    assert play.current()["phase"] in ("play", "combat")


@then(parsers.re(r"^it is (?P<side>sparkia|gaias)'s phase of turn (?P<turn>\d+)$"))
def ck_phase(play: Play, side: str, turn: str) -> None:
    view = play.current()
    assert (view["phase"], view["side"], view["turn"]) == ("play", side, int(turn))


@then(parsers.re(r"^the game is over: (?P<side>sparkia|gaias) wins by (?P<how>king|gates)$"))
def ck_won(play: Play, side: str, how: str) -> None:
    view = play.current()
    assert (view["phase"], view["result"]) == ("over", {"winner": side, "by": how})


@then(parsers.re(r"^the game is over: (?P<how>deleted|reset)$"))
def ck_ended(play: Play, how: str) -> None:
    view = play.current()
    assert (view["phase"], view["result"]) == ("over", {"winner": None, "by": how})


@then(parsers.re(r"^the game is (?P<neg>not )?archived(?: yet)?$"))
def ck_archived(play: Play, neg: str | None) -> None:
    assert play.current()["lobby"]["archived"] is (neg is None)


# (attack, defence) -> the units of a fight made only of documented numbers; the attacker at 4,3 moves to
# 5,3 facing east and attacks the target at 6,3. "r" marks a river square.
DOCUMENTED_FIGHTS: dict[tuple[int, int], tuple[list[tuple[str, str, str, str]], str]] = {
    (8, 3): ([("sparkia", "light-infantry", "7,3", "w"), ("gaias", "light-infantry", "6,3", "w")], ""),
    (7, 3): ([("sparkia", "light-infantry", "6,2", "s"), ("gaias", "light-infantry", "6,3", "w")], ""),
    (7, 4): ([("sparkia", "light-infantry", "6,2", "s"), ("gaias", "heavy-infantry", "6,3", "w")], "6,3"),
    (5, 3): ([("gaias", "light-infantry", "6,3", "e")], ""),
    (4, 3): ([("gaias", "light-infantry", "6,3", "n")], ""),
    (3, 3): ([("gaias", "light-infantry", "6,3", "w")], ""),
    (2, 3): ([("gaias", "light-infantry", "6,3", "w")], "5,3"),
    (3, 5): ([("gaias", "heavy-infantry", "6,3", "w")], ""),
    (2, 5): ([("gaias", "heavy-infantry", "6,3", "w")], "5,3"),
}


@given(parsers.re(r"^a fight of (?P<attack>\d+) against (?P<defence>\d+) between light and heavy infantry$"))
def ck_documented_fight(play: Play, attack: str, defence: str) -> None:
    others, river = DOCUMENTED_FIGHTS[(int(attack), int(defence))]
    table = [["side", "kind", "at", "facing"], ["sparkia", "light-infantry", "4,3", "e"]]
    table += [list(row) for row in others]
    ck_battle(play, river or None, None, "sparkia", table)
    ck_move(play, "4,3", "5,3", "e", " and attacks")
    ck_fight(play, "sparkia-1", "gaias-1", attack, defence)


@when("each of the 36 throws of the two dice is tried", target_fixture="attacker_won")
def ck_every_throw(play: Play) -> int:
    attack_move, won = play.last_action, 0
    for a in range(1, 7):
        for d in range(1, 7):
            play.driver.restart()
            play.act(attack_move)
            play.act({"type": "dice", "attacker": a, "defender": d})
            assert not isinstance(play.outcome, Rejected), play.outcome
            won += play.current()["last_combat"]["winner"] == "attacker"
    return won


@then(parsers.re(r"^the attacker wins (?P<wins>\d+) of the 36 throws$"))
def ck_won_throws(attacker_won: int, wins: str) -> None:
    assert attacker_won == int(wins)


# --- Black Fog ----------------------------------------------------------------------------------

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
