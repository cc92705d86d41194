"""Project-wide pytest options: which build the features and trace tests drive.

``--driver module:factory`` loads a Python callable that returns a Driver (used to aim the Gherkin
features at a deliberately wrong engine variant). Without it, the reference implementation runs.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from typing import Callable, Iterator

import pytest

from refimpl.driver import Driver, ReferenceDriver


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("conformance kit")
    group.addoption("--driver", default=None, metavar="MODULE:FACTORY",
                    help="Python factory returning the Driver that features drive (default: the reference)")


def pytest_configure(config: pytest.Config) -> None:
    """Register every rule-ID tag of the features as a marker, so ``-m BL-WIN-1`` selects by rule."""
    features = Path(__file__).parent / "features"
    tags = {t for f in features.glob("*.feature") for t in re.findall(r"@([A-Z]{2}-[A-Z]+-\d+)", f.read_text())}
    for tag in sorted(tags):
        config.addinivalue_line("markers", f"{tag}: scenarios exercising rule {tag}")


def _load_factory(spec: str) -> Callable[[], Driver]:
    module, _, name = spec.partition(":")
    if not name:
        raise pytest.UsageError(f"--driver wants MODULE:FACTORY, got {spec!r}")
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as exc:
        raise pytest.UsageError(f"--driver {spec}: {exc}") from None


@pytest.fixture(scope="session")
def driver_factory(request: pytest.FixtureRequest) -> Callable[[], Driver]:
    spec = request.config.getoption("--driver")
    return ReferenceDriver if spec is None else _load_factory(spec)


@pytest.fixture
def driver(driver_factory: Callable[[], Driver]) -> Iterator[Driver]:
    """A fresh driver for one scenario or test."""
    d = driver_factory()
    try:
        yield d
    finally:
        d.close()
