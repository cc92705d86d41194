"""Conquest King's hidden information (issue 12; CK-HIDE-1, ruling CK-R9): a side's own `legal` list and its
view never depend on what the enemy hid (its ambush, where it lies, units it took back), and unit ids never
tell that a hidden unit exists. Positions come from random deployments and random legal play, and from random
set-ups, through the engine's public surface only."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, event, given, settings, strategies as st

from refimpl.games import GAMES, BadSetup, IllegalAction

CK = GAMES["conquest-king"]
SIDES = ("sparkia", "gaias")
KINDS = ("light-infantry", "heavy-infantry", "cavalry", "spearmen", "archers")
PLAIN = ["." * 16] * 8
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ID = re.compile(r'"(?:sparkia|gaias)-(?:king|\d+)"')

Square = tuple[int, int]


def act(state: Any, action: dict) -> Any:
    """``state`` after ``action`` sent as JSON, as a build's adapter would."""
    return CK.apply(state, CK.parse_action(CK.action_json(action)))


def zone(side: str) -> list[Square]:
    """The squares where ``side`` may place a unit at the start (read off its own legal list)."""
    start = CK.new_state()
    return sorted({tuple(a["at"]) for a in CK.legal_actions(start, side)
                   if a["type"] == "deploy" and a["kind"] == "archers" and "ambush" not in a})


ZONES = {side: zone(side) for side in SIDES}
CASTLES = {tuple(u["at"]) for u in CK.view(CK.new_state())["units"]}  # the kings start in them


def enemy_of(side: str) -> str:
    return SIDES[1 - SIDES.index(side)]


def own(state: Any, side: str) -> tuple[dict, list[dict]]:
    """What ``side`` is given: its view and its own legal list."""
    return CK.view(state, side), [CK.action_json(a) for a in CK.legal_actions(state, side)]


def skeleton(state: Any, enemy: str) -> str:
    """The referee's view less what ``enemy`` hid (its hidden units, its deployment record) and less every id:
    two states with the same skeleton differ only in what the enemy hid."""
    view = CK.view(state)
    view["units"] = sorted((u for u in view["units"] if not (u["side"] == enemy and u["hidden"])),
                           key=lambda u: json.dumps({k: v for k, v in u.items() if k != "id"}, sort_keys=True))
    view["deployment"].pop(enemy)
    return ID.sub('"?"', json.dumps(view, sort_keys=True))


def assert_same_for(side: str, states: list[Any]) -> None:
    """``side`` gets the same view and the same own legal list in every state."""
    first = own(states[0], side)
    for other in states[1:]:
        view, legal = own(other, side)
        assert view == first[0]
        assert legal == first[1]


def play_alike(data: st.DataObject, states: list[Any], side: str, steps: int) -> int:
    """Play the same random legal actions in every state while they differ only in what the enemy hid, and
    check after each that ``side`` is told the same. The enemy never reveals its ambush (that is no longer
    hiding). Returns how many positions were compared."""
    enemy, compared = enemy_of(side), 0
    for _ in range(steps):
        if len({skeleton(s, enemy) for s in states}) != 1:
            event("the enemy's ambush was found")
            break
        assert_same_for(side, states)
        compared += 1
        legal = [a for a in CK.legal_actions(states[0]) if a["type"] != "reveal" or CK.view(states[0])["side"] == side]
        if not legal:
            break
        action = data.draw(st.sampled_from(legal))
        states[:] = [act(s, action) for s in states]
    return compared


# --- deployments that differ only in what the enemy hid ---------------------------------------------------

@st.composite
def deployments(draw: st.DrawFn) -> tuple[str, list[list[dict]], list[dict]]:
    """(side, the enemy's placements in three games, the side's own placements). Game 0: the enemy's visible
    units with an ambush placed among them and units placed and taken back; game 1: the visible units only;
    game 2: another ambush on another square, placed at another moment."""
    side = draw(st.sampled_from(SIDES))
    enemy = enemy_of(side)
    shown = draw(st.integers(1, 5))
    taken = draw(st.integers(0, 2))
    squares = draw(st.lists(st.sampled_from(ZONES[enemy]), min_size=shown + taken + 2, max_size=shown + taken + 2,
                            unique=True))
    kinds = draw(st.lists(st.sampled_from(KINDS), min_size=shown + taken + 2, max_size=shown + taken + 2))

    def deploy(i: int, ambush: bool = False) -> dict:
        a = {"type": "deploy", "side": enemy, "kind": kinds[i], "at": list(squares[i])}
        return {**a, "ambush": True} if ambush else a

    visible = [deploy(i) for i in range(shown)]
    first = list(visible)
    first.insert(draw(st.integers(0, shown)), deploy(shown, ambush=True))
    for t in range(taken):
        first.insert(draw(st.integers(0, len(first))), deploy(shown + 2 + t))
    first += [{"type": "undeploy", "side": enemy, "at": list(squares[shown + 2 + t])} for t in range(taken)]
    other = list(visible)
    other.insert(draw(st.integers(0, shown)), deploy(shown + 1, ambush=True))
    mine = draw(st.lists(st.sampled_from(ZONES[side]), min_size=1, max_size=4, unique=True))
    ambush_at = draw(st.one_of(st.none(), st.integers(0, len(mine) - 1)))
    placed = [{"type": "deploy", "side": side, "kind": draw(st.sampled_from(KINDS)), "at": list(at)}
              | ({"ambush": True} if i == ambush_at else {}) for i, at in enumerate(mine)]
    return side, [first, visible, other], placed


def deployed(enemy_actions: list[dict], mine: list[dict]) -> Any:
    """A deployment: the side's placements, then the enemy's; nobody has completed yet."""
    state = CK.new_state()
    for action in mine + enemy_actions:
        state = act(state, action)
    return state


def completed(state: Any, order: tuple[str, ...]) -> Any:
    for s in order:
        state = act(act(state, {"type": "complete", "side": s}), {"type": "complete", "side": s})
    return state


@SETTINGS
@given(deployments(), st.data())
def test_a_side_is_told_the_same_whatever_the_enemy_hid_at_deployment(deal, data) -> None:
    """CK-HIDE-1, CK-R9: during deployment (even against an enemy that placed nothing) and through random play
    after it, a side's view and own legal list are the same whether the enemy hid an ambush, where, and
    whether it took units back."""
    side, enemy_games, mine = deal
    enemy = enemy_of(side)
    games = [deployed(e, mine) for e in enemy_games]
    assert_same_for(side, games + [deployed([], mine)])
    games = [completed(g, (enemy,)) for g in games]
    assert_same_for(side, games)
    games = [completed(g, (side,)) for g in games]
    assert len({skeleton(g, enemy) for g in games}) == 1, "the three games differ in more than the hidden"
    assert play_alike(data, games, side, steps=60) >= 1


# --- set-up positions that differ only in the enemy's ambush ----------------------------------------------

def neighbours(at: Square) -> list[Square]:
    return [(at[0] + dx, at[1] + dy) for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0))
            if 0 <= at[0] + dx < 16 and 0 <= at[1] + dy < 8]


@st.composite
def positions(draw: st.DrawFn) -> tuple[str, list[dict]]:
    """(side, set-ups of the same position with the enemy's ambush on two squares, listed at two places, and
    without it). The ambush is often placed beside or under the side's units, or under the enemy's own."""
    side = draw(st.sampled_from(SIDES))
    enemy = enemy_of(side)
    terrain = draw(st.sampled_from([PLAIN, list(CK.p.terrain_rows)]))
    squares = [(x, y) for x in range(16) for y in range(8) if terrain[y][x] != "m" and (x, y) not in CASTLES]
    spots = draw(st.lists(st.sampled_from(squares), min_size=2, max_size=9, unique=True))
    units = [{"side": draw(st.sampled_from(SIDES)), "kind": draw(st.sampled_from(KINDS)), "at": list(at),
              "facing": draw(st.sampled_from("nesw"))} for at in spots]
    near = [n for u in units for n in neighbours(tuple(u["at"])) if n in squares]
    near += [tuple(u["at"]) for u in units if u["side"] == enemy]
    hide = st.one_of(st.sampled_from(squares), st.sampled_from(near))
    setups = []
    for where, kind in ((draw(hide), draw(st.sampled_from(KINDS))), (draw(hide), draw(st.sampled_from(KINDS)))):
        listed = list(units)
        listed.insert(draw(st.integers(0, len(listed))),
                      {"side": enemy, "kind": kind, "at": list(where), "facing": draw(st.sampled_from("nesw")),
                       "ambush": True})
        setups.append(listed)
    setups.append(list(units))
    common = {"terrain": terrain, "turn": draw(st.integers(1, 3)), "side": draw(st.sampled_from(SIDES))}
    return side, [{**common, "units": u} for u in setups]


@SETTINGS
@given(positions(), st.data())
def test_a_side_is_told_the_same_wherever_the_enemy_ambush_lies(deal, data) -> None:
    """CK-HIDE-1, ruling CK-R5: with the enemy's ambush beside the side's units, on squares they can reach or
    under the enemy's own units, or absent, the side's view and own legal list (moves onto the ambush's
    square included, no attack at it) are the same, and stay so through random play until it is found."""
    side, setups = deal
    try:
        games = [CK.new_state(setup=s) for s in setups]
    except BadSetup:
        assume(False)
    assert len({skeleton(g, enemy_of(side)) for g in games}) == 1
    assert play_alike(data, games, side, steps=25) >= 1


# --- ids -------------------------------------------------------------------------------------------------

def numbers(view: dict, side: str) -> list[int]:
    return [int(u["id"].rpartition("-")[2]) for u in view["units"] if u["side"] == side and u["kind"] != "king"]


@SETTINGS
@given(deployments(), st.data())
def test_ids_never_tell_that_a_hidden_unit_exists(deal, data) -> None:
    """Ruling CK-R9: when play begins each side's units are numbered 1 to n, visible units in placement order
    and then the ambush, so the enemy sees its visible units numbered 1 to k with no gap (take-backs leave
    none either); through play an id never changes, an ambush keeps its number when it appears, and a hidden
    ambush's number is above every number the enemy sees of its side."""
    side, enemy_games, mine = deal
    enemy = enemy_of(side)
    for enemy_actions in enemy_games:
        state = completed(deployed(enemy_actions, mine), SIDES)
        referee = CK.view(state)
        for s, placed in ((enemy, enemy_actions), (side, mine)):
            gone = {tuple(a["at"]) for a in placed if a["type"] == "undeploy"}
            kept = [a for a in placed if a["type"] == "deploy" and tuple(a["at"]) not in gone]
            kept.sort(key=lambda a: a.get("ambush", False))  # the ambush last, the rest in placement order
            units = [u for u in referee["units"] if u["side"] == s and u["kind"] != "king"]
            assert [(u["id"], u["kind"], u["at"]) for u in units] == \
                [(f"{s}-{n}", a["kind"], a["at"]) for n, a in enumerate(kept, 1)]
        seen = numbers(CK.view(state, side), enemy)
        assert seen == list(range(1, len(seen) + 1))
    state = completed(deployed(enemy_games[0], mine), SIDES)
    known: dict[str, tuple[str, str]] = {}
    for _ in range(40):
        referee = CK.view(state)
        for u in referee["units"]:
            assert known.setdefault(u["id"], (u["side"], u["kind"])) == (u["side"], u["kind"])
        for s in SIDES:
            hidden = [int(u["id"].rpartition("-")[2]) for u in referee["units"] if u["side"] == s and u["hidden"]]
            shown = numbers(CK.view(state, enemy_of(s)), s)
            assert all(h > n for h in hidden for n in shown)
        legal = CK.legal_actions(state)
        if not legal:
            break
        state = act(state, data.draw(st.sampled_from(legal)))


@SETTINGS
@given(positions())
def test_a_set_up_numbers_its_units_as_a_game_start_does(deal) -> None:
    """Ruling CK-R9: a set-up's ambush is numbered after its side's other units wherever it is listed, so the
    enemy's view holds the same ids with the ambush, without it, or elsewhere in the list."""
    side, setups = deal
    try:
        views = [CK.view(CK.new_state(setup=s), side) for s in setups]
    except BadSetup:
        assume(False)
    enemy = enemy_of(side)
    assert views[0]["units"] == views[1]["units"] == views[2]["units"]
    assert numbers(views[0], enemy) == list(range(1, len(numbers(views[0], enemy)) + 1))


# --- examples ---------------------------------------------------------------------------------------------

def test_the_ambush_placed_between_two_units_leaves_no_gap() -> None:
    """Gaias places light infantry, its ambush, light infantry, and takes a fourth unit back: Sparkia sees
    gaias-1 and gaias-2; the ambush is gaias-3 and keeps that id when it appears."""
    state = CK.new_state()
    for action in ({"type": "deploy", "side": "gaias", "kind": "light-infantry", "at": [11, 1]},
                   {"type": "deploy", "side": "gaias", "kind": "archers", "at": [12, 3], "ambush": True},
                   {"type": "deploy", "side": "gaias", "kind": "light-infantry", "at": [11, 5]},
                   {"type": "deploy", "side": "gaias", "kind": "cavalry", "at": [13, 5]},
                   {"type": "undeploy", "side": "gaias", "at": [13, 5]}):
        state = act(state, action)
    assert [u["id"] for u in CK.view(state, "gaias")["units"]] == ["gaias-king", "gaias-1", "gaias-2", "gaias-3"]
    state = completed(state, SIDES)
    assert [u["id"] for u in CK.view(state, "sparkia")["units"]] == ["gaias-king", "gaias-1", "gaias-2",
                                                                     "sparkia-king"]
    assert [(u["id"], u["at"]) for u in CK.view(state)["units"] if u["hidden"]] == [("gaias-3", [12, 3])]
    state = act(act(state, {"type": "end-phase"}), {"type": "reveal", "at": [12, 3]})
    assert ("gaias-3", "archers", [12, 3]) in [(u["id"], u["kind"], u["at"])
                                               for u in CK.view(state, "sparkia")["units"]]


def test_the_referee_list_is_not_a_sides_list() -> None:
    """CK-LEGAL-1: the referee's list holds both sides' deployment and, in play, the hidden ambush's reveal;
    a side's list holds its own actions only, and nothing when it is not its phase."""
    state = act(CK.new_state(), {"type": "deploy", "side": "gaias", "kind": "archers", "at": [12, 3],
                                 "ambush": True})
    referee = CK.legal_actions(state)
    assert {a["side"] for a in referee} == set(SIDES)
    assert all(a["side"] == "sparkia" for a in CK.legal_actions(state, "sparkia"))
    state = act(completed(state, SIDES), {"type": "end-phase"})
    assert {"type": "reveal", "at": [12, 3]} in CK.legal_actions(state)
    assert CK.legal_actions(state, "sparkia") == []
    assert CK.legal_actions(state, "gaias") == CK.legal_actions(state)


@pytest.mark.parametrize("friend_on_it, listed", [(True, False), (False, True)])
def test_a_reveal_is_listed_only_when_it_is_legal(friend_on_it: bool, listed: bool) -> None:
    """Ruling CK-R13: an ambush under a friend cannot appear, so its reveal is not listed; otherwise it is,
    and every listed reveal is accepted."""
    friend = [4, 4] if friend_on_it else [4, 5]
    state = CK.new_state(setup={"terrain": PLAIN, "units": [
        {"side": "sparkia", "kind": "light-infantry", "at": [4, 4], "ambush": True},
        {"side": "sparkia", "kind": "heavy-infantry", "at": friend}]})
    reveals = [a for a in CK.legal_actions(state, "sparkia") if a["type"] == "reveal"]
    assert reveals == ([{"type": "reveal", "at": [4, 4]}] if listed else [])
    for action in reveals:
        assert CK.view(act(state, action))["units"][-1]["hidden"] is False
    if not listed:
        with pytest.raises(IllegalAction) as info:
            act(state, {"type": "reveal", "at": [4, 4]})
        assert info.value.code == "square-occupied"


def test_the_two_deployment_zones_share_no_square() -> None:
    """Why a side's deployment squares never depend on the enemy's placements (spec, "Legal actions")."""
    assert ZONES["sparkia"] and ZONES["gaias"] and not set(ZONES["sparkia"]) & set(ZONES["gaias"])
