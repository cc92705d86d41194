"""The fuzzer's one source of choices.

Every choice the fuzzer makes (the length of a game, which action, which fault, which set-up) is a whole
number drawn here. A campaign searches with a seeded generator (fast: no Hypothesis engine between cases) and
keeps the numbers a case drew; Hypothesis then replays them and shrinks them, so shrinking them shrinks the game:
every number shrinks toward 0, and 0 is always the plainest choice (a legal action, no fault, no set-up).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

from hypothesis import strategies as st

T = TypeVar("T")
_BELOW: dict[int, st.SearchStrategy[int]] = {}


class Draw:
    """Choices from Hypothesis's ``data`` (``st.data()``), or from a seeded generator (``seed``) where no
    shrinking is wanted."""

    def __init__(self, data: Any = None, seed: int | None = None) -> None:
        self.data = data
        self.rng = random.Random(seed) if data is None else None
        self.choices: list[int] = []  # with a seeded generator: every number drawn, for Hypothesis to replay
        # Hypothesis's choice-level draw is five times cheaper than ``data.draw(st.integers(...))`` and
        # records the same choice; the public call is the fallback for versions without it.
        conjecture = getattr(data, "conjecture_data", None)
        self._integer = getattr(conjecture, "draw_integer", None)

    def below(self, n: int) -> int:
        """A number from 0 to n - 1 (0 when n <= 1)."""
        if n <= 1:
            return 0
        if self.rng is not None:
            x = self.rng.randrange(n)
            self.choices.append(x)
            return x
        if self._integer is not None:
            return int(self._integer(0, n - 1))
        strategy = _BELOW.get(n)
        if strategy is None:
            strategy = _BELOW[n] = st.integers(0, n - 1)
        return int(self.data.draw(strategy))

    def one_in(self, n: int) -> bool:
        """True once in ``n`` draws (shrinks to False)."""
        return self.below(n) == n - 1

    def pick(self, items: Sequence[T]) -> T:
        """One of ``items`` (shrinks toward the first)."""
        return items[self.below(len(items))]

    def weighted(self, table: Sequence[tuple[T, int]]) -> T:
        """One of the table's values, each as often as its weight (shrinks toward the first)."""
        x = self.below(sum(w for _, w in table))
        for value, weight in table:
            if x < weight:
                return value
            x -= weight
        raise AssertionError("unreachable")


class _Fails(Exception):
    """The test ``shrink_choices`` hands Hypothesis failed."""


FOUND_KEY = b"refimpl fuzz"  # where the found case's numbers wait for Hypothesis (an in-memory database)


def shrink_choices(choices: Sequence[int], fails: Callable[[Any], bool], seed: int) -> bool:
    """Let Hypothesis replay ``choices`` (the numbers a seeded ``Draw`` drew for a failing case) through
    ``fails`` (called with Hypothesis's ``data``, true while the case it draws still fails) and shrink them,
    repeatably for one ``seed``. False when it cannot: a Hypothesis without ``choices_to_bytes`` (before the
    choice sequences of 6.12x), or one that no longer reads what is set here; the fuzzer's own shrinking
    passes still run.

    The numbers are handed over as a saved example under the database's secondary key (a primary one is taken
    as shrunk already, and not shrunk again), and the test is given a ``seed`` for repeatable shrinking, which
    drops the database; the settings that carry it are put back on the test (Hypothesis internals, as
    ``same_draws_everywhere``)."""
    import unittest

    from hypothesis import HealthCheck, Phase, Verbosity, given, seed as with_seed, settings
    from hypothesis.errors import HypothesisException

    try:
        from hypothesis.database import InMemoryExampleDatabase, choices_to_bytes
    except ImportError:
        return False
    saved = InMemoryExampleDatabase()
    saved.save(FOUND_KEY + b".secondary", choices_to_bytes(list(choices)))
    config = settings(database=saved, deadline=None, max_examples=1, verbosity=Verbosity.quiet,
                      suppress_health_check=list(HealthCheck), phases=[Phase.reuse, Phase.shrink],
                      report_multiple_bugs=False)

    @given(st.data())
    def test(data: Any) -> None:
        if fails(data):
            raise _Fails

    test = with_seed(seed)(test)
    # ignore: Hypothesis's own attributes on its test function (see the docstring)
    test._hypothesis_internal_use_settings = config  # type: ignore[attr-defined]
    test._hypothesis_internal_database_key = FOUND_KEY  # type: ignore[attr-defined]
    try:
        test()
    except _Fails:
        return True
    except (HypothesisException, unittest.SkipTest):
        return False  # the numbers no longer fail (a build answering otherwise), or Hypothesis gave up
    return False


@contextmanager
def same_draws_everywhere() -> Iterator[None]:
    """Hypothesis biases some draws toward literals it finds in the modules loaded so far, so the same seed
    would give another run under pytest than under the CLI. Inside this block it finds none. (It reaches
    into Hypothesis's internals; where they differ, the block does nothing and runs stay the same for the
    same entry point.)"""
    try:
        from hypothesis.internal.conjecture import providers

        empty = providers.Constants(integers=providers.SortedSet(),
                                    floats=providers.SortedSet(key=providers.float_to_int),
                                    bytes=providers.SortedSet(), strings=providers.SortedSet())
        original, cache = providers._get_local_constants, providers.CONSTANTS_CACHE
        fresh = type(cache)(1024)
    except (ImportError, AttributeError, TypeError):
        yield
        return
    providers._get_local_constants, providers.CONSTANTS_CACHE = (lambda: empty), fresh
    try:
        yield
    finally:
        providers._get_local_constants, providers.CONSTANTS_CACHE = original, cache
