"""The suite's one setting for every process it starts: ``refimpl verify`` runs without its exploration
(REFIMPL_EXPLORE=0) unless a test asks for it with ``--explore N``. The exploration is tested on its own
(tests/test_explore.py); every other test of verify judges its traces and scenarios, and would otherwise spend
several seconds a run on a search it does not look at. Set REFIMPL_EXPLORE yourself to run the suite with it."""

from __future__ import annotations

import os

os.environ.setdefault("REFIMPL_EXPLORE", "0")
