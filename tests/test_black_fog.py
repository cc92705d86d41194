"""Black Fog: hex geometry, seeded maps for many seeds, the map picture."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings, strategies as st

from refimpl.games import GAMES
from refimpl.games.black_fog import hexes
from refimpl.reports.hexmap import draw

BF = GAMES["black-fog"]
ROOT = Path(__file__).resolve().parent.parent


def test_rings_and_directions() -> None:
    assert [len(hexes.ring(n)) for n in range(1, 7)] == [1, 6, 12, 18, 24, 30]
    assert len({t for n in range(1, 7) for t in hexes.ring(n)}) == 91
    assert [hexes.neighbour((0, 0), f) for f in range(1, 7)] == [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)]
    assert all(hexes.ring_of(t) == n for n in range(1, 7) for t in hexes.ring(n))


def test_toward_takes_the_first_closer_neighbour_in_face_order() -> None:
    assert hexes.toward((2, -1), (0, 0)) == (1, 0)  # lower left before upper left
    assert hexes.toward((0, -2), (0, 0)) == (0, -1)
    assert hexes.toward((3, 3), (3, 3)) == (3, 3)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**64 - 1))
def test_seeded_maps_follow_the_draft(seed: int) -> None:
    view = BF.view(BF.new_state(seed=seed))
    apple = [hexes.parse(t) for t in view["map"]["apple"]]
    water = [hexes.parse(t) for t in view["map"]["water"]]
    assert sorted(hexes.ring_of(t) for t in apple) == [2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5]
    assert [sum(hexes.ring_of(t) == n for t in water) for n in range(1, 7)] == [0, 1, 2, 3, 4, 5]
    assert not set(apple) & set(water) and (0, 0) not in apple + water
    starts = {hexes.parse(a["at"]) for a in view["animals"].values()}
    assert not starts & set(water), "an animal starts on water"
    assert all(hexes.ring_of(t) < 6 for t in starts), "an animal starts where round 1's fog appears"
    assert BF.view(BF.new_state(seed=seed))["map"] == view["map"], "the same seed gives the same map"


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.randoms(use_true_random=False))
def test_random_games_keep_their_invariants(seed: int, rng) -> None:  # type: ignore[no-untyped-def]
    state = BF.new_state(seed=seed)
    for _ in range(400):
        if state.phase == "over":
            break
        state = BF.apply(state, rng.choice(BF.legal_actions(state)))
        view = BF.view(state)
        fog = set(view["map"]["fog"])
        assert not fog & set(view["map"]["apple"]), "fog never covers a healthy apple tree"
        for keeper in view["keepers"].values():
            assert keeper["lost"] or keeper["at"] not in fog
            assert sum(BF.data["sizes"][view["animals"][a]["size"]]["cost"] for a in keeper["carrying"]) <= 3
        for animal in view["animals"].values():
            assert (animal["at"] is None) == (animal["status"] != "wild")
            assert animal["at"] not in fog
        assert view["round"] <= 8


def test_the_map_picture() -> None:
    bare = draw(BF.view(BF.new_state(seed=3, setup={"animals": []})))  # nothing standing on the trees
    tiles = "".join(bare.splitlines()[:-2])
    assert (tiles.count("T"), tiles.count("~"), tiles.count("K")) == (12, 15, 1)
    assert len(tiles.replace(" ", "")) == 91
    picture = draw(BF.view(BF.new_state(seed=3)))
    proc = subprocess.run([sys.executable, "-m", "refimpl", "map", "--seed", "3"], cwd=ROOT, capture_output=True,
                          text=True, check=False)
    assert proc.returncode == 0 and proc.stdout.strip() == picture.strip()
