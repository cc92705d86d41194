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


_LIMIT_6 = (1 << 64) - (1 << 64) % 6


def next_face(state: int) -> tuple[int, int]:
    """(next state, face 1-6): ``draw(state, 6)`` written out, as it runs once a throw."""
    nxt = (state + GOLDEN) & MASK
    z = ((nxt ^ (nxt >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    z ^= z >> 31
    if z < _LIMIT_6:
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
