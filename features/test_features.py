"""Bind every feature file in this folder. The driver fixture is requested statically (usefixtures),
so pytest-bdd sees it for every scenario."""

import pytest
from pytest_bdd import scenarios

pytestmark = pytest.mark.usefixtures("driver")

scenarios(".")
