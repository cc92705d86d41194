"""Step definitions of ludo.feature (Ludo): they talk to a driver only, never to an engine."""

from __future__ import annotations

import json
from typing import Any

from ....harness.driver import Rejected
from ....scenarios.registry import expect, fixture, given, regex, skip, then, when
from ....scenarios.steps.play import Play, ints, names

LUDO_SEATS = ["human", "cpu1", "cpu2", "cpu3"]


@given(regex(r"^a new Ludo game with seed (?P<seed>\d+)$"))
def new_ludo(play: Play, seed: str) -> None:
    if not play.driver.supports("ludo", None):
        skip("the build does not declare ludo")
    play.view = play.driver.start("ludo", None, int(seed), {})
    play.not_started = ""


@given(regex(r"^a Ludo game with seed (?P<seed>\d+)(?: after (?P<throws>\d+) throws)? "
                  r"where it is (?P<seat>\w+)'s turn:$"))
def ludo_position(play: Play, seed: str, throws: str | None, seat: str, datatable: list[list[str]]) -> None:
    if not play.driver.supports("ludo", None):
        skip("the build does not declare ludo")
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
    expect("turn", view["turn"], seat, f"{seat} to {phase}")
    expect("phase", view["phase"], phase, f"{seat} to {phase}")


@when(regex(r"^(?P<seat>\w+) throws a (?P<face>\d+)$"))
def throws_a(play: Play, seat: str, face: str) -> None:
    _turn(play, seat, "roll")
    play.act({"type": "roll", "face": int(face)})


@when(regex(r"^(?P<seat>\w+) moves piece (?P<piece>\d+)$"))
def moves_piece(play: Play, seat: str, piece: str) -> None:
    _turn(play, seat, "move")
    play.act({"type": "move", "piece": int(piece)})


@when(regex(r"^(?P<seat>\w+) sends the action (?P<action>\{.*\})$"))
def sends_action(play: Play, seat: str, action: str) -> None:
    """An action written out as JSON (one the rules may not know), sent on the seat's turn."""
    play.act(json.loads(action))


@when(regex(r"^the (?P<level>easy|normal|hard) CPU moves for (?P<seat>\w+)$"))
def cpu_moves(play: Play, level: str, seat: str) -> None:
    _turn(play, seat, "move")
    play.act({"type": "cpu", "level": level})


@when(regex(r"^(?P<n>\d+) throws come from the seed, each face played by the (?P<level>\w+) CPU$"))
def seeded_throws(play: Play, n: str, level: str, faces: list[int]) -> None:
    for _ in range(int(n)):
        play.act({"type": "roll"})
        if isinstance(play.outcome, Rejected):
            expect("rejected", play.outcome.code, None, f"a seeded throw was rejected: {play.outcome.message}")
        faces.append(play.outcome["last_face"])
        if play.outcome["phase"] == "move":
            play.act({"type": "cpu", "level": level})


@fixture
def faces() -> list[int]:
    """The faces the seeded throws of a scenario showed."""
    return []


def _ludo_stats(play: Play) -> dict[str, int]:
    """The build's Ludo record (protocol ``stats``); not run for a build without the capability."""
    if "stats" not in getattr(play.driver, "capabilities", {"stats"}):
        skip("the build does not keep statistics (capability stats)")
    record = play.driver.stats().get("ludo")
    if not isinstance(record, dict):
        raise AssertionError(f"stats holds no Ludo record: {record!r}")
    return record


@given("the build's Ludo record so far", target_fixture="ludo_record")
def ludo_record_so_far(play: Play) -> dict[str, int]:
    return _ludo_stats(play)


@then(regex(r"^the build's Ludo record has grown by (?P<played>\d+) played, (?P<won>\d+) won, "
            r"(?P<lost>\d+) lost$"))
def record_grown(play: Play, ludo_record: dict[str, int], played: str, won: str, lost: str) -> None:
    now = _ludo_stats(play)
    grown = {k: now.get(k, 0) - ludo_record.get(k, 0) for k in ("played", "won", "lost")}
    expect("stats.ludo", grown, {"played": int(played), "won": int(won), "lost": int(lost)},
           "what the scenario's games added to the record")


@then(regex(r"^the seats are (?P<seats>.+)$"))
def seats_are(play: Play, seats: str) -> None:
    expect("pieces", list(play.current()["pieces"]), names(seats), "the seats, in turn order")


@then("every piece of every seat is in its yard")
def all_in_yard(play: Play) -> None:
    for seat, pieces in play.current()["pieces"].items():
        expect(f"pieces.{seat}", pieces, [-1, -1, -1, -1])


@then(regex(r"^it is (?P<seat>\w+)'s turn to throw$"))
def turn_to_throw(play: Play, seat: str) -> None:
    _turn(play, seat, "roll")


@then(regex(r"^(?P<seat>\w+) may move exactly pieces (?P<pieces>[\d, ]+)$"))
def may_move(play: Play, seat: str, pieces: str) -> None:
    _turn(play, seat, "move")
    actions = play.driver.legal_actions()
    if actions is None:
        skip("the build does not list legal actions")
    expect("legal", sorted(a["piece"] for a in actions if a["type"] == "move"), ints(pieces),
           "the pieces that may move, sorted")


@then(regex(r"^(?P<seat>\w+)'s pieces are at (?P<pieces>[-\d, ]+)$"))
def pieces_at(play: Play, seat: str, pieces: str) -> None:
    expect(f"pieces.{seat}", play.current()["pieces"][seat], ints(pieces))


@then(regex(r"^(?P<n>\d+) throws have been made$"))
def throws_made(play: Play, n: str) -> None:
    expect("throws", play.current()["throws"], int(n))


@then(regex(r"^(?P<n>\d+) numbers have been drawn from the decision stream$"))
def decisions_drawn(play: Play, n: str) -> None:
    expect("decisions", play.current()["decisions"], int(n))


@then(regex(r"^the view shows (?P<fields>\w+ .+)$"))
def view_shows(play: Play, fields: str) -> None:
    """``the view shows phase "move", roll 6, sixes 1``: view fields and their JSON values."""
    view = play.current()
    for part in fields.split(", "):
        name, _, value = part.partition(" ")
        expect(name, view.get(name), json.loads(value))


@then(regex(r"^the game is over and (?P<seat>\w+) has won$"))
def won(play: Play, seat: str) -> None:
    view = play.current()
    expect("phase", view["phase"], "over")
    expect("result", view["result"], seat)


@then("the game is over with no result")
def capped(play: Play) -> None:
    view = play.current()
    expect("phase", view["phase"], "over")
    expect("result", view["result"], "capped")


@then(regex(r"^the faces were (?P<faces_>[\d, ]+)$"))
def faces_were(faces: list[int], faces_: str) -> None:
    expect("last_face", faces, ints(faces_), "the faces of the seeded throws, in order")
