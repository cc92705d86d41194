"""The seeded streams' jump ahead: ``after_faces`` lands where throwing face after face lands, also when the die
throws an output away (a path no seeded game in the kit reaches by chance: 4 outputs in 2^64)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from refimpl.games import streams


def _face_by_face(state: int, n: int) -> tuple[int, int]:
    """(the stream after n faces, how many outputs were thrown away on the way)."""
    thrown = 0
    for _ in range(n):
        after, _face = streams.next_face(state)
        thrown += (after - state) * pow(streams.GOLDEN, -1, 1 << 64) % (1 << 64) - 1
        state = after
    return state, thrown


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=streams.MASK), st.integers(min_value=0, max_value=300))
def test_after_faces_is_next_face_n_times(state: int, n: int) -> None:
    assert streams.after_faces(state, n) == _face_by_face(state, n)[0]


def test_the_thrown_away_states_give_the_outputs_the_die_refuses() -> None:
    outputs = sorted(streams.splitmix64((bad - streams.GOLDEN) & streams.MASK)[1] for bad in streams.THROWN_AWAY_6)
    assert outputs == list(range(streams.LIMIT_6, 1 << 64))


@pytest.mark.parametrize("bad", streams.THROWN_AWAY_6)
@pytest.mark.parametrize("at", [1, 2, 5])
def test_after_faces_counts_an_output_the_die_threw_away(bad: int, at: int) -> None:
    start = (bad - at * streams.GOLDEN) & streams.MASK  # the stream's output number ``at`` is thrown away
    for n in range(0, 9):
        state, thrown = _face_by_face(start, n)
        assert thrown == (1 if n >= at else 0)
        assert streams.after_faces(start, n) == state
