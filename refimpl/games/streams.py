"""The canonical seeded streams (specs/ludo.md ruling LD-R5, specs/black-fog.md): SplitMix64 and an unbiased draw.

Pure functions of a 64-bit state, so any language can reproduce them bit for bit.
"""

from __future__ import annotations

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def splitmix64(state: int) -> tuple[int, int]:
    """One step: (next state, 64-bit output)."""
    state = (state + GOLDEN) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


_LIMITS = [0] + [(1 << 64) - (1 << 64) % n for n in range(1, 17)]


def draw(state: int, n: int) -> tuple[int, int, int]:
    """An unbiased whole number in [0, n): outputs at or above the largest multiple of n below 2^64
    are thrown away and the next one is taken (rejection sampling).

    Returns (next state, number, outputs used: 1 unless an output was thrown away)."""
    limit = _LIMITS[n] if n < len(_LIMITS) else (1 << 64) - (1 << 64) % n
    used = 0
    while True:
        state = (state + GOLDEN) & MASK  # splitmix64, written out: this runs on every CPU choice
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        z ^= z >> 31
        used += 1
        if z < limit:
            return state, z % n, used


LIMIT_6 = (1 << 64) - (1 << 64) % 6  # draw(state, 6) keeps the outputs below this


def next_face(state: int) -> tuple[int, int]:
    """(next state, face 1-6): ``draw(state, 6)`` written out, as it runs once a throw."""
    nxt = (state + GOLDEN) & MASK
    z = ((nxt ^ (nxt >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    z ^= z >> 31
    if z < LIMIT_6:
        return nxt, z % 6 + 1
    state, k, _used = draw(nxt, 6)
    return state, k + 1


def faces(seed: int, count: int, xor: int = 0) -> list[int]:
    """The first ``count`` die faces (1-6) of the dice stream of ``seed``."""
    state, out = (seed ^ xor) & MASK, []
    for _ in range(count):
        state, face = next_face(state)
        out.append(face)
    return out


# Jumping ahead. SplitMix64's state only ever grows by GOLDEN, and its output is a bijection of the state, so
# the four outputs the die throws away (at or above LIMIT_6) come from four states only: output k after a
# state s is thrown away exactly when s + k * GOLDEN is one of them. So where a stream stands after n faces is
# worked out at once: n steps, plus one for each thrown-away output among them.
_C1, _C2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB


def _unshift(value: int, shift: int) -> int:
    """The x with x ^ (x >> shift) == value."""
    x = value
    for _ in range(64 // shift + 1):
        x = value ^ (x >> shift)
    return x


def _state_of(output: int) -> int:
    """The state whose SplitMix64 output (after its GOLDEN step) is ``output``: the mix run backwards."""
    z = _unshift(output, 31)
    z = (z * pow(_C2, -1, 1 << 64)) & MASK
    z = _unshift(z, 27)
    z = (z * pow(_C1, -1, 1 << 64)) & MASK
    return _unshift(z, 30)


THROWN_AWAY_6 = tuple(_state_of(z) for z in range(LIMIT_6, 1 << 64))  # the states behind outputs >= LIMIT_6
_GOLDEN_INVERSE = pow(GOLDEN, -1, 1 << 64)


def after_faces(state: int, n: int) -> int:
    """The dice stream after ``n`` faces from ``state``: ``next_face`` ``n`` times, in constant time."""
    steps = n
    for k in sorted(((bad - state) * _GOLDEN_INVERSE) & MASK for bad in THROWN_AWAY_6):
        if 1 <= k <= steps:
            steps += 1  # output k is thrown away: the face takes the next one
    return (state + steps * GOLDEN) & MASK
