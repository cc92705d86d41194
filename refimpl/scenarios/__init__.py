"""Gherkin scenarios, run in this process through a Driver.

``gherkin`` reads the feature files (Cucumber's own parser), ``registry`` is the vocabulary step definitions are
written in, ``steps`` the step definitions every game shares (each game's own live in its unit), ``runner`` runs a
scenario step by step and tells how it ended. ``refimpl verify`` and the pytest plugin both run scenarios through
``runner``, so a scenario judges a build the same way under either, and needs no test framework at run time.
"""

from __future__ import annotations

from .gherkin import FeatureError, Scenario, Step
from .registry import Mismatch, NotRun, UndefinedStep
from .runner import Builds, Outcome, Selected, check_steps, run_scenario


def bundled() -> list[Scenario]:
    """Every scenario of the bundled feature files, the step definitions registered. Raises FeatureError."""
    from .. import suite
    from . import gherkin, steps

    steps.register()

    return gherkin.load_folder(suite.feature_folder(), "features")


__all__ = ["Builds", "FeatureError", "Mismatch", "NotRun", "Outcome", "Scenario", "Selected", "Step", "UndefinedStep",
           "bundled", "check_steps", "run_scenario"]
