"""pytest plugin (entry point ``refimpl``): a guest in every pytest of an environment the kit is installed in.

It does nothing, imports nothing but this module, and adds no option unless the command line names a build
(``--impl`` or ``--driver``); then it loads the kit's checks (refimpl/pytest_suite.py) and, with no paths
given, runs the bundled suite from whatever folder pytest was started in:

    pytest --impl "node adapter/main.js"

So installing the kit never changes, slows down or breaks a pytest run that did not ask for it.
"""

from __future__ import annotations

from typing import Any

SUITE = "refimpl.pytest_suite"
_ASKED = ("--impl", "--driver")


def _asks_for_kit(args: list[str]) -> bool:
    return any(a in _ASKED or a.startswith(tuple(f"{o}=" for o in _ASKED)) for a in args if isinstance(a, str))


def pytest_load_initial_conftests(early_config: Any, parser: Any, args: list[str]) -> None:
    """With ``--impl`` or ``--driver`` on the command line, register the kit's checks (their options first)."""
    manager = early_config.pluginmanager
    if _asks_for_kit(list(args)) and manager.get_plugin(SUITE) is None:
        import importlib

        manager.register(importlib.import_module(SUITE), SUITE)
