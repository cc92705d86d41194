"""Step definitions of conquest-king.feature (Conquest King): they talk to a driver only, never to an engine."""

from __future__ import annotations

import json
import re
from typing import Any

from ....harness.driver import Rejected
from ....scenarios.registry import Mismatch, expect, given, regex, skip, then, when
from ....scenarios.steps.play import Play, ints

CK_WIDTH, CK_HEIGHT = 16, 8  # the profile's map (the battle steps lay plain ground over all of it)


def square(text: str) -> list[int]:
    x, y = ints(text)
    return [x, y]


def _ck_start(play: Play, setup: dict[str, Any]) -> None:
    if not play.driver.supports("conquest-king", None):
        skip("the build does not declare conquest-king")
    play.view = play.driver.start("conquest-king", None, None, setup)
    play.not_started = ""


@given("a new Conquest King game")
def new_ck(play: Play) -> None:
    _ck_start(play, {})


@given("a new Conquest King game on a real-time field with nobody registered")
def new_ck_realtime(play: Play) -> None:
    _ck_start(play, {"field": "realtime", "registered": []})


@given(regex(r"^a Conquest King battle on plain ground(?: with river at (?P<river>[\d,; ]+))?"
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


@when(regex(r"^(?P<side>sparkia|gaias) places an? (?P<kind>[a-z-]+) at (?P<at>\d+,\d+)(?P<ambush> as the ambush)?$"))
def ck_place(play: Play, side: str, kind: str, at: str, ambush: str | None) -> None:
    action: dict[str, Any] = {"type": "deploy", "side": side, "kind": kind, "at": square(at)}
    if ambush:
        action["ambush"] = True
    play.act(action)


@when(regex(r"^(?P<side>sparkia|gaias) places (?P<n>\d+) (?P<kind>[a-z-]+)$"))
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
    if placed != int(n):
        raise AssertionError(f"only {placed} squares took a unit")


@when(regex(r"^(?P<side>sparkia|gaias) takes back the unit at (?P<at>\d+,\d+)$"))
def ck_undeploy(play: Play, side: str, at: str) -> None:
    play.act({"type": "undeploy", "side": side, "at": square(at)})


@when(regex(r"^(?P<side>sparkia|gaias) declares deployment complete$"))
def ck_complete(play: Play, side: str) -> None:
    play.act({"type": "complete", "side": side})


@when("both sides complete their deployment")
def ck_both_complete(play: Play) -> None:
    for side in ("sparkia", "gaias", "sparkia", "gaias"):
        play.act({"type": "complete", "side": side})
        _accepted(play)


@when(regex(r"^the unit at (?P<src>\d+,\d+) moves to (?P<dst>\d+,\d+) "
            r"facing (?P<facing>[nesw])(?P<attack> and attacks)?$"))
def ck_move(play: Play, src: str, dst: str, facing: str, attack: str | None) -> None:
    action: dict[str, Any] = {"type": "move", "from": square(src), "to": square(dst), "facing": facing}
    if attack:
        action["attack"] = True
    play.act(action)


@when(regex(r"^the dice show (?P<a>\d) for the attacker and (?P<d>\d) for the defender$"))
def ck_dice(play: Play, a: str, d: str) -> None:
    play.act({"type": "dice", "attacker": int(a), "defender": int(d)})


@when(regex(r"^(?P<side>sparkia|gaias) ends its phase$"))
def ck_end_phase(play: Play, side: str) -> None:
    expect("side", play.current()["side"], side, "whose phase it is")
    play.act({"type": "end-phase"})


@when(regex(r"^(?P<side>sparkia|gaias) reveals its ambush at (?P<at>\d+,\d+)$"))
def ck_reveal(play: Play, side: str, at: str) -> None:
    play.act({"type": "reveal", "at": square(at)})


@when(regex(r"^(?P<side>sparkia|gaias) registers$"))
def ck_register(play: Play, side: str) -> None:
    play.act({"type": "register", "side": side})


@when(regex(r"^(?P<n>\d+) minutes pass$"))
def ck_wait(play: Play, n: str) -> None:
    play.act({"type": "wait", "minutes": int(n)})


@when(regex(r"^the kit enumerates the 36 throws at a base difference of (?P<diff>-?\d+)$"),
      target_fixture="enumerated")
def ck_enumerate(diff: str) -> int:
    from .tables import attacker_wins

    return attacker_wins(int(diff))[0]


@then(regex(r"^the attacker wins (?P<wins>\d+) of 36, (?P<percent>\d+)%$"))
def ck_enumerated(enumerated: int, wins: str, percent: str) -> None:
    expect("wins", enumerated, int(wins), "throws of 36 the attacker wins")
    expect("percent", int(100 * enumerated / 36 + 0.5), int(percent))


def _observed(play: Play, observer: str) -> dict[str, Any]:
    return play.driver.view(observer)


def _unit(play: Play, uid: str, observer: str = "referee") -> dict[str, Any] | None:
    return next((u for u in _observed(play, observer)["units"] if u["id"] == uid), None)


def _accepted(play: Play) -> None:
    if isinstance(play.outcome, Rejected):
        raise AssertionError(f"rejected: {play.outcome.code}: {play.outcome.message}")


@then("the action is accepted")
def ck_accepted(play: Play) -> None:
    _accepted(play)


@then(regex(r"^the sides are (?P<a>\w+) and (?P<b>\w+)$"))
def ck_sides(play: Play, a: str, b: str) -> None:
    expect("lobby.registered", sorted(play.current()["lobby"]["registered"]), sorted([a, b]), "sorted")


@then(regex(r"^(?P<uid>[a-z]+-(?:king|\d+)) stands at (?P<at>\d+,\d+)(?: facing (?P<facing>[nesw]))?$"))
def ck_stands(play: Play, uid: str, at: str, facing: str | None) -> None:
    unit = _unit(play, uid)
    if unit is None:
        raise AssertionError(f"{uid} is not on the map")
    expect(f"units[{uid}].at", unit["at"], square(at))
    if facing:
        expect(f"units[{uid}].facing", unit["facing"], facing)


@then(regex(r"^(?P<side>sparkia|gaias) has (?P<gold>\d+)G to spend$"))
def ck_gold(play: Play, side: str, gold: str) -> None:
    expect(f"view[{side}].deployment.{side}.gold", _observed(play, side)["deployment"][side]["gold"], int(gold))


@then(regex(r"^(?:the )?(?P<observer>referee|sparkia|gaias) sees no unit at (?P<at>\d+,\d+)$"))
def ck_sees_nothing(play: Play, observer: str, at: str) -> None:
    expect(f"view[{observer}].units", [u for u in _observed(play, observer)["units"] if u["at"] == square(at)], [],
           f"the units seen at {at}")


@then(regex(r"^(?P<observer>sparkia|gaias) sees the (?P<side>sparkia|gaias) unit at (?P<at>\d+,\d+)$"))
def ck_sees(play: Play, observer: str, side: str, at: str) -> None:
    seen = [u for u in _observed(play, observer)["units"] if u["at"] == square(at) and u["side"] == side
            and not u["hidden"]]
    expect(f"view[{observer}].units", len(seen), 1, f"visible {side} units seen at {at}")


@then(regex(r"^(?P<side>sparkia|gaias) sees its hidden ambush at (?P<at>\d+,\d+)$"))
def ck_sees_own_ambush(play: Play, side: str, at: str) -> None:
    mine = [u for u in _observed(play, side)["units"] if u["side"] == side and u["hidden"]]
    expect(f"view[{side}].units", [u["at"] for u in mine], [square(at)], "where its hidden units stand")


@then(regex(r"^nothing in (?P<observer>\w+)'s view marks the square (?P<at>\d+,\d+)$"))
def ck_no_mark(play: Play, observer: str, at: str) -> None:
    text = json.dumps(_observed(play, observer), separators=(",", ":"))
    x, y = square(at)
    if f"[{x},{y}]" in text:
        raise AssertionError(f"{observer}'s view mentions the hidden square {at}")


@then(regex(r"^(?P<uid>[a-z]+-(?:king|\d+)) is destroyed$"))
def ck_destroyed(play: Play, uid: str) -> None:
    if _unit(play, uid) is not None:
        raise AssertionError(f"{uid} is still on the map")


@then(regex(r"^(?P<uid>[a-z]+-\d+) has appeared at (?P<at>\d+,\d+)$"))
def ck_appeared(play: Play, uid: str, at: str) -> None:
    unit = _unit(play, uid)
    if unit is None:
        raise AssertionError(f"{uid} is not on the map")
    expect(f"units[{uid}].at", unit["at"], square(at))
    expect(f"units[{uid}].hidden", unit["hidden"], False)


@then(regex(r"^a fight waits: (?P<attacker>[a-z]+-(?:king|\d+)) attacks (?P<target>[a-z]+-(?:king|\d+)), "
                 r"(?P<attack>\d+) against (?P<defence>\d+)$"))
def ck_fight(play: Play, attacker: str, target: str, attack: str, defence: str) -> None:
    combat = play.current()["combat"]
    if combat is None:
        raise AssertionError("no fight waits")
    expect("combat.attackers[0]", combat["attackers"][0], attacker)
    expect("combat.target", combat["target"], target)
    expect("combat.attack", combat["attack"], int(attack))
    expect("combat.defence", combat["defence"], int(defence))


@then(regex(r"^the attack is made by (?P<units>.+)$"))
def ck_attackers(play: Play, units: str) -> None:
    combat = play.current()["combat"]
    if combat is None:
        raise AssertionError("no fight waits")
    expect("combat.attackers", sorted(combat["attackers"]), sorted(re.split(r",\s*|\s+and\s+", units)), "sorted")


@then("no fight waits")
def ck_no_fight(play: Play) -> None:
    view = play.current()
    expect("combat", view["combat"], None)
    expect("phase", view["phase"], "play")


@then("the game is still being deployed")
def ck_deploying(play: Play) -> None:
    expect("phase", play.current()["phase"], "deploy")


@then("the game goes on")
def ck_goes_on(play: Play) -> None:
    phase = play.current()["phase"]
    if phase not in ("play", "combat"):
        raise Mismatch("phase", "play or combat", phase)


@then(regex(r"^it is (?P<side>sparkia|gaias)'s phase of turn (?P<turn>\d+)$"))
def ck_phase(play: Play, side: str, turn: str) -> None:
    view = play.current()
    expect("phase", view["phase"], "play")
    expect("side", view["side"], side)
    expect("turn", view["turn"], int(turn))


@then(regex(r"^the game is over: (?P<side>sparkia|gaias) wins by (?P<how>king|gates)$"))
def ck_won(play: Play, side: str, how: str) -> None:
    view = play.current()
    expect("phase", view["phase"], "over")
    expect("result", view["result"], {"winner": side, "by": how})


@then(regex(r"^the game is over: (?P<how>deleted|reset)$"))
def ck_ended(play: Play, how: str) -> None:
    view = play.current()
    expect("phase", view["phase"], "over")
    expect("result", view["result"], {"winner": None, "by": how})


@then(regex(r"^the game is (?P<neg>not )?archived(?: yet)?$"))
def ck_archived(play: Play, neg: str | None) -> None:
    expect("lobby.archived", play.current()["lobby"]["archived"], neg is None)


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


@given(regex(r"^a fight of (?P<attack>\d+) against (?P<defence>\d+) between light and heavy infantry$"))
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
            _accepted(play)
            won += play.current()["last_combat"]["winner"] == "attacker"
    return won


@then(regex(r"^the attacker wins (?P<wins>\d+) of the 36 throws$"))
def ck_won_throws(attacker_won: int, wins: str) -> None:
    expect("last_combat.winner", attacker_won, int(wins), "throws of 36 the attacker won")
