"""Conquest King in ``refimpl simulate``: ``greedy`` plays what its documented rating puts first, beats ``random``,
and sides with a policy each deploy one after the other, each from its own list (kit/simulate.py)."""

from __future__ import annotations

import random

from hypothesis import given, settings, strategies as st

from refimpl.campaigns.simulate import simulate
from refimpl.campaigns.simulate.output import summary_json
from refimpl.games import GAMES
from refimpl.games.conquest_king.kit.simulate import _rating, greedy, together, worth

CK = GAMES["conquest-king"]


def _reached(seed: int, steps: int, policy=None):  # type: ignore[no-untyped-def]
    state, rng = CK.new_state(None, seed=seed), random.Random(seed)
    for _ in range(steps):
        if CK.outcome(state) is not None:
            break
        state = CK.apply(state, (policy or (lambda e, s, r: r.choice(e.legal_actions(s))))(CK, state, rng))
    return state


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 120))
def test_greedy_plays_an_action_its_rating_puts_first(seed: int, steps: int) -> None:
    state = _reached(seed, steps, greedy if seed % 2 else None)
    if CK.outcome(state) is not None or state.phase == "combat":
        return
    legal = CK.legal_actions(state)
    chosen = greedy(CK, state, random.Random(1))
    assert chosen in legal

    def rated(a: dict) -> float:  # type: ignore[type-arg]
        side = a.get("side") or CK.p.sides[state.side]
        return _rating(CK, state, a, side, worth(CK, state, side))

    assert rated(chosen) == max(rated(a) for a in legal)


def test_an_attack_is_rated_by_its_fights_averaged_over_every_throw() -> None:
    """An attack's rating is the mean worth after its fight's 36 throws less the worth now (single fights)."""
    checked = 0
    for seed in range(20):
        state, rng = CK.new_state(None, seed=seed), random.Random(seed)
        while CK.outcome(state) is None and checked < 5:
            if state.phase == "play":
                side = CK.p.sides[state.side]
                now = worth(CK, state, side)
                for a in (a for a in CK.legal_actions(state) if a.get("attack")):
                    fought = CK.apply(state, a)
                    after = [CK.apply(fought, t) for t in CK.legal_actions(fought)] if fought.phase == "combat" else []
                    if len(after) == 36 and all(s.phase != "combat" for s in after):
                        want = sum(worth(CK, s, side) for s in after) / 36 - now
                        assert abs(_rating(CK, state, a, side, now) - want) < 1e-9
                        checked += 1
            state = CK.apply(state, greedy(CK, state, rng))
    assert checked >= 5, "fewer than five single-fight attacks in 20 greedy games"


def test_greedy_beats_random_from_either_side() -> None:
    for seats in (["greedy", "random"], ["random", "greedy"]):
        doc = summary_json(simulate("conquest-king", 6, seats, 2))
        wins = {r["result"]: r["count"] for r in doc["results"]}
        greedy_side = CK.p.sides[seats.index("greedy")]
        assert wins.get(greedy_side, 0) == 6, doc["results"]


def test_sides_with_a_policy_each_deploy_in_turn_from_their_own_list() -> None:
    state, rng = CK.new_state(None, seed=3), random.Random(3)
    sides = []
    while state.phase == "deploy":
        action = together(CK, state, {"sparkia": "greedy", "gaias": "random"}, rng)
        sides.append(action["side"])
        state = CK.apply(state, action)
    assert sides == sorted(sides, key=CK.p.sides.index) and set(sides) == {"sparkia", "gaias"}


def test_greedy_plays_under_every_tie_rule() -> None:
    """Under ``ties: again`` a tie leaves the same fight waiting: the greedy mean leaves those throws out."""
    from refimpl.rulebook.profiles import Profile

    for ties in ("defender", "again"):
        doc = summary_json(simulate("conquest-king", 3, ["greedy", "greedy"], 1, profile=Profile("conquest-king", ties,
                                                                                       {"ties": ties})))
        assert sum(r["count"] for r in doc["results"] if r["result"] in ("sparkia", "gaias")) == 3
