"""Bind the beacon-lines feature (one test module per game, so `-k beacon` and the node ids name the game).
The driver fixture is requested statically (usefixtures), so pytest-bdd sees it for every scenario."""

import pytest
from pytest_bdd import scenarios

pytestmark = pytest.mark.usefixtures("driver")

scenarios("beacon-lines.feature")
