"""Hypothesis properties of the reference engines over random legal games (dice chosen by Hypothesis)."""

from typing import Any

from hypothesis import given, settings, strategies as st

from refimpl.games import GAMES, load_data
from tests.engine_extras import from_view

BL, LQ = GAMES["beacon-lines"], GAMES["lantern-quay"]
BL_DATA = load_data("beacon-lines")


@st.composite
def games(draw: st.DrawFn, engine: Any) -> tuple[Any, list[Any]]:
    """A ruleset and a random sequence of legal actions to the end of the game (or a cut-off)."""
    ruleset = draw(st.sampled_from(engine.info.rulesets))
    state = engine.new_state(ruleset)
    actions = []
    for _ in range(draw(st.integers(0, 20))):
        legal = engine.legal_actions(state)
        if not legal:
            break
        action = draw(st.sampled_from(legal))
        actions.append(action)
        state = engine.apply(state, action)
    return ruleset, actions


def states(engine: Any, ruleset: str, actions: list[Any]) -> list[Any]:
    out = [engine.new_state(ruleset)]
    for action in actions:
        out.append(engine.apply(out[-1], action))
    return out


@given(games(BL))
def test_beacon_markers_never_decrease_and_homes_never_change(game) -> None:
    ruleset, actions = game
    views = [BL.view(s) for s in states(BL, ruleset, actions)]
    for before, after in zip(views, views[1:]):
        for region, per in before["markers"].items():
            assert all(after["markers"][region][f] >= n for f, n in per.items())
        assert sum(map(sum, (p.values() for p in after["markers"].values()))) == \
            sum(map(sum, (p.values() for p in before["markers"].values()))) + 2
    for view in views:
        assert (view["control"]["red-home"], view["control"]["blue-home"]) == ("red", "blue")


@given(games(BL))
def test_beacon_scores_are_the_sum_of_controlled_values(game) -> None:
    ruleset, actions = game
    values = {r["id"]: r["value"] for r in BL_DATA["regions"]}
    values.update(BL_DATA["rulesets"][ruleset]["values"])
    for state in states(BL, ruleset, actions):
        view = BL.view(state)
        for faction in ("red", "blue"):
            owned = [r for r, owner in view["control"].items() if owner == faction]
            assert view["scores"][faction] == sum(values[r] for r in owned)
        if view["result"] in ("red", "blue"):
            winner, loser = view["result"], {"red": "blue", "blue": "red"}[view["result"]]
            assert view["scores"][winner] > view["scores"][loser]


@given(games(LQ))
def test_lantern_stock_never_negative_and_one_lens_per_round(game) -> None:
    ruleset, actions = game
    views = [LQ.view(s) for s in states(LQ, ruleset, actions)]
    for view in views:
        assert min(view["brass"], view["modules"], view["lenses"]) >= 0
        assert view["lenses"] <= 3
    lit_in_round: dict[int, int] = {}
    for before, after in zip(views, views[1:]):
        lit_in_round[before["round"]] = lit_in_round.get(before["round"], 0) + after["lenses"] - before["lenses"]
    assert all(n <= 1 for n in lit_in_round.values()), lit_in_round


@given(st.sampled_from([BL, LQ]).flatmap(lambda e: st.tuples(st.just(e), games(e))))
def test_replaying_an_action_list_twice_gives_the_same_states(case) -> None:
    engine, (ruleset, actions) = case
    first = [engine.view(s) for s in states(engine, ruleset, actions)]
    again = [engine.view(s) for s in states(engine, ruleset, actions)]
    assert first == again


@given(st.sampled_from([BL, LQ]).flatmap(lambda e: st.tuples(st.just(e), games(e))))
def test_state_to_json_to_state_round_trip(case) -> None:
    import json

    engine, (ruleset, actions) = case
    for state in states(engine, ruleset, actions):
        view = json.loads(json.dumps(engine.view(state)))
        rebuilt = from_view(engine, view)
        assert rebuilt == state
        assert engine.legal_actions(rebuilt) == engine.legal_actions(state)


@settings(max_examples=50)
@given(st.sampled_from([BL, LQ]).flatmap(lambda e: st.tuples(st.just(e), games(e))), st.data())
def test_illegal_actions_leave_the_state_unchanged(case, data) -> None:
    from refimpl.games import IllegalAction

    engine, (ruleset, actions) = case
    state = states(engine, ruleset, actions)[-1]
    before = engine.view(state)
    candidate = data.draw(st.sampled_from(actions or engine.legal_actions(engine.new_state(ruleset))))
    if candidate in engine.legal_actions(state):
        return
    try:
        engine.apply(state, candidate)
    except IllegalAction:
        assert engine.view(state) == before
    else:
        raise AssertionError(f"{candidate} is not listed as legal but was accepted")


CK = GAMES["conquest-king"]


@settings(max_examples=60, deadline=None)
@given(games(CK))
def test_conquest_king_lists_each_free_deployment_square_once_per_kind(game) -> None:
    """The legal list takes a deployment's shared actions by runs of free squares (``_free_runs``): exactly
    the free squares of ``_deploy_squares`` (CK-DEPLOY-1), each with its plain placement, then its ambush while
    the side has none (CK-AMB-1), for every kind the side can afford (CK-ARMY-1)."""
    ruleset, actions = game
    state = states(CK, ruleset, actions)[-1]
    if state.phase != "deploy":
        return
    listed = [a for a in CK.legal_actions(state) if a["type"] == "deploy"]
    expected = []
    for s, side in enumerate(CK.p.sides):
        if state.registered[s] is None or state.complete[s] == 2:
            continue
        ambush = not any(u.ambush for u in state.units if u.side == side)
        for kind, row in CK.p.units.items():
            if row["price"] is not None and row["price"] <= state.gold[s]:
                for at in CK._deploy_squares(state, side):
                    expected.append({"type": "deploy", "side": side, "kind": kind, "at": list(at)})
                    if ambush:
                        expected.append({"type": "deploy", "side": side, "kind": kind, "at": list(at), "ambush": True})
    assert listed == expected
