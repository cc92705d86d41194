"""Two-player zero-sum matrix games solved exactly (for ``refimpl solve`` of a game whose players move at once):
the value and an optimal mixed strategy for each player, in Fractions.

By the Shapley-Snow theorem every matrix game has an optimal pair whose supports are the rows and columns of a
square submatrix on which both players' equalising equations have a unique solution; so every square pair of
supports is tried, smallest first, and the first pair whose solution is a pair of probability vectors that no
pure strategy outside its support improves on is returned. The games solved here are a few rows wide.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction


def solve_matrix(payoff: Sequence[Sequence[Fraction]]) -> tuple[Fraction, list[Fraction], list[Fraction]]:
    """(the value, the row player's optimal mix, the column player's) of the game where the row player gets
    ``payoff[i][j]`` and the column player loses it. Raises ValueError for an empty matrix."""
    m, n = len(payoff), len(payoff[0]) if payoff else 0
    if not m or not n:
        raise ValueError("a matrix game needs a row and a column at least")
    for k in range(1, min(m, n) + 1):
        for rows in itertools.combinations(range(m), k):
            for cols in itertools.combinations(range(n), k):
                found = _on_support(payoff, rows, cols)
                if found is not None:
                    return found
    raise AssertionError("no optimal pair on a square support: impossible by Shapley-Snow")  # pragma: no cover


def _on_support(a: Sequence[Sequence[Fraction]], rows: tuple[int, ...],
                cols: tuple[int, ...]) -> tuple[Fraction, list[Fraction], list[Fraction]] | None:
    """The optimal pair with these supports, or None (singular, a negative weight, or a better reply outside)."""
    k = len(rows)
    # the column mix q on cols with a[i][cols] . q = v for every i in rows, sum q = 1
    q = _solve([[a[i][j] for j in cols] + [Fraction(-1)] for i in rows] + [[Fraction(1)] * k + [Fraction(0)]],
               [Fraction(0)] * k + [Fraction(1)])
    p = _solve([[a[i][j] for i in rows] + [Fraction(-1)] for j in cols] + [[Fraction(1)] * k + [Fraction(0)]],
               [Fraction(0)] * k + [Fraction(1)])
    if q is None or p is None or any(x < 0 for x in q[:k] + p[:k]) or q[k] != p[k]:
        return None
    value = q[k]
    row_mix, col_mix = [Fraction(0)] * len(a), [Fraction(0)] * len(a[0])
    for i, x in zip(rows, p):
        row_mix[i] = x
    for j, x in zip(cols, q):
        col_mix[j] = x
    if any(sum(a[i][j] * col_mix[j] for j in range(len(a[0]))) > value for i in range(len(a))):
        return None  # a row the row player would rather play against q
    if any(sum(a[i][j] * row_mix[i] for i in range(len(a))) < value for j in range(len(a[0]))):
        return None  # a column the column player would rather play against p
    return value, row_mix, col_mix


def _solve(matrix: list[list[Fraction]], rhs: list[Fraction]) -> list[Fraction] | None:
    """The unique solution of ``matrix x = rhs`` (Gauss-Jordan in Fractions), or None when it is singular."""
    size = len(matrix)
    rows = [row[:] + [b] for row, b in zip(matrix, rhs)]
    for col in range(size):
        pivot = next((r for r in range(col, size) if rows[r][col] != 0), None)
        if pivot is None:
            return None
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [x / lead for x in rows[col]]
        for r in range(size):
            if r != col and rows[r][col] != 0:
                factor = rows[r][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col])]
    return [row[size] for row in rows]
