"""Run many independent jobs (mutants, fuzz campaigns, simulated games) and hand back each result as it
finishes. Local processes today; this is the one seam a cluster engine plugs into.

A job is a picklable function and one picklable item; the function must not rely on anything but its
argument, so the same job gives the same result wherever it runs.
"""

from __future__ import annotations

from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Callable, Iterable, Iterator, TypeVar

T = TypeVar("T")
R = TypeVar("R")


def run_jobs(fn: Callable[[T], R], items: Iterable[T], jobs: int = 1) -> Iterator[tuple[T, R]]:
    """``(item, fn(item))`` for every item, in the order they finish; ``jobs`` processes at once (1: in
    this process, in order). Stopping the iteration (or Ctrl-C) cancels the jobs not yet started."""
    items = list(items)
    if jobs <= 1:
        for item in items:
            yield item, fn(item)
        return
    pool = ProcessPoolExecutor(max_workers=jobs)
    try:
        pending: dict[Future[R], T] = {}
        queue = iter(items)
        for item in queue:  # keep the pool just full, so a stop cancels little work
            pending[pool.submit(fn, item)] = item
            if len(pending) >= 2 * jobs:
                break
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                item = pending.pop(future)
                yield item, future.result()
                nxt = next(queue, None)
                if nxt is not None:
                    pending[pool.submit(fn, nxt)] = nxt
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
