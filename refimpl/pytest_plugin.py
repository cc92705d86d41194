"""pytest plugin (entry point ``refimpl``): a guest in every pytest of an environment the kit is installed in.

It does nothing, imports nothing but this module, and adds no option unless the command line names a build
(``--impl``, ``--page`` or ``--driver``); then it loads the kit's checks (refimpl/pytest_suite.py) and, with no paths
given, runs the bundled suite from whatever folder pytest was started in:

    pytest --impl "node adapter/main.js"

So installing the kit never changes, slows down or breaks a pytest run that did not ask for it, nor one whose
own conftest defines an ``--impl`` or ``--driver`` of its own (the kit then stays out of it).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import pytest

SUITE = "refimpl.pytest_suite"
_ASKED = ("--impl", "--driver", "--page")


def _asks_for_kit(args: list[str]) -> bool:
    return any(a in _ASKED or a.startswith(tuple(f"{o}=" for o in _ASKED)) for a in args if isinstance(a, str))


@pytest.hookimpl(hookwrapper=True)
def pytest_load_initial_conftests(early_config: Any, parser: Any, args: list[str]) -> Generator[None, None, None]:
    """With ``--impl`` or ``--driver`` on the command line, register the kit's checks (their options first),
    once the project's own conftest files are loaded, and only if none of them defines ``--impl`` or
    ``--driver`` itself: a project whose pytest has an ``--impl`` of its own keeps it and its run stays its own
    (``refimpl verify`` judges a build there)."""
    yield
    manager = early_config.pluginmanager
    if not _asks_for_kit(list(args)) or manager.get_plugin(SUITE) is not None:
        return
    if _taken(parser):
        return
    import importlib

    manager.register(importlib.import_module(SUITE), SUITE)


def _taken(parser: Any) -> bool:
    """Whether an option the kit would add (``--impl``, ``--driver``) is already defined (by a conftest)."""
    groups = [getattr(parser, "_anonymous", None), *getattr(parser, "_groups", [])]
    names = {n for g in groups if g is not None for o in getattr(g, "options", []) for n in o.names()}
    return any(option in names for option in _ASKED)
