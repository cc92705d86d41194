"""A run's own processes, found by a mark in its environment (every build process, bridge and browser it starts
inherits it): what a test looks for once the run is over, so another test's processes are never taken for it."""

from __future__ import annotations

import psutil

MARK = "REFIMPL_TEST_MARK"


def left(mark: str) -> list[int]:
    """The processes running (not zombies) whose environment carries ``mark``."""
    found = []
    for proc in psutil.process_iter(["status"]):
        try:
            if proc.info["status"] != psutil.STATUS_ZOMBIE and proc.environ().get(MARK) == mark:
                found.append(proc.pid)
        except (psutil.AccessDenied, psutil.NoSuchProcess, psutil.ZombieProcess):
            continue
    return found
