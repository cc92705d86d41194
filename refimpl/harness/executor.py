"""Run many independent jobs (mutants, fuzz campaigns, simulated games) and hand back each result as it
finishes: in this process, in local processes (``jobs``), or on a Dask cluster (``cluster``, the address of
a running scheduler). This is the one seam the three campaign commands share.

A job is a picklable function and one picklable item; the function must not rely on anything but its
argument, so the same job gives the same result wherever it runs. On a cluster every worker needs the kit
installed (and, for fuzz and mutants, the build under test on its PATH); a job lost with a worker that died
is run again on another, so no result is lost (Dask's scheduler reschedules it, up to its
``allowed-failures`` setting, default 3 deaths per job).
"""

from __future__ import annotations

import os
import threading
import time
import uuid
from collections.abc import Callable, Generator, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, TypeVar

from ..errors import KitError
from .processes import killed_with_parent

T = TypeVar("T")
R = TypeVar("R")

CONNECT_TIMEOUT = 10.0  # seconds to reach a cluster's scheduler before giving up


class ExecutorError(KitError):
    """The jobs could not be run: no cluster engine installed, no scheduler at the address, or a job that
    failed on every worker it was given to."""


def run_jobs(fn: Callable[[T], R], items: Iterable[T], jobs: int = 1, cluster: str | None = None,
             initializer: Callable[..., None] | None = None,
             initargs: tuple[Any, ...] = ()) -> Generator[tuple[T, R], None, None]:
    """``(item, fn(item))`` for every item, in the order they finish; ``jobs`` processes at once (1: in
    this process, in order), or on the Dask cluster whose scheduler is at ``cluster``
    (``tcp://host:port``). Stopping the iteration (or Ctrl-C) cancels the jobs not yet started. Local worker
    processes run ``initializer(*initargs)`` first (not in this process, not on a cluster). Raises
    ExecutorError (cluster only). Locally, ``items`` is drawn from as jobs are started (it may be a generator)."""
    if cluster:
        yield from _on_cluster(fn, list(items), cluster)
        return
    if jobs <= 1:
        for item in items:
            yield item, fn(item)
        return
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_worker_start,
                               initargs=(os.getpid(), initializer, initargs))
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
    except BaseException:  # Ctrl-C, SIGTERM or a stop: end the workers now, not after their running jobs
        workers = list(getattr(pool, "_processes", {}).values())
        for process in workers:
            process.kill()
        for process in workers:  # reaped before the caller goes on: nothing of the run is left running
            process.join(timeout=5)
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True, cancel_futures=True)


ORPHAN_POLL = 0.5  # seconds between a worker's looks at its parent, where no parent-death signal is to be had


def _worker_start(parent: int, initializer: Callable[..., None] | None, initargs: tuple[Any, ...]) -> None:
    """A local worker's first act: die with the process that started it, then the caller's ``initializer``."""
    die_with(parent)
    if initializer is not None:
        initializer(*initargs)


def die_with(parent: int) -> None:
    """End this process when ``parent`` ends, however it ends (issue 43: a CI runner SIGKILLs the kit after its
    grace period, and workers left behind went on starting builds): Linux's parent-death signal (SIGKILL), else a
    thread watching the parent. A parent already gone ends it at once. The builds this process starts die with it
    in turn (processes.Box.preexec)."""
    if not killed_with_parent():
        def watch() -> None:
            while os.getppid() == parent:
                time.sleep(ORPHAN_POLL)
            os._exit(1)

        threading.Thread(target=watch, name="refimpl-orphan-watch", daemon=True).start()
    if os.getppid() != parent:  # the parent died before the signal was asked for
        os._exit(1)


def _on_cluster(fn: Callable[[T], R], items: list[T], address: str) -> Iterator[tuple[T, R]]:
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise ExecutorError("--cluster needs Dask distributed: pip install 'refimpl[cluster]' "
                            "(or pip install distributed)") from None
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as exc:
        raise ExecutorError(f"no Dask scheduler answers at {address}: {exc}") from None
    run = uuid.uuid4().hex[:8]  # keys of their own, so two runs on one cluster never share a result
    futures: list[Any] = []
    try:
        index = {}
        for i, item in enumerate(items):
            future = client.submit(fn, item, key=f"refimpl-{run}-{i}", pure=False)
            futures.append(future)
            index[future.key] = item
        for future in as_completed(futures):
            try:
                result = future.result()
            except Exception as exc:
                if type(exc).__name__ == "KilledWorker":
                    raise ExecutorError(f"a job was lost with every worker it was given to ({exc}); "
                                        "see the workers' logs") from None
                raise
            yield index[future.key], result
    finally:
        client.cancel(futures)
        client.close()
