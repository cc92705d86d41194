"""Project-wide pytest set-up. The options (--impl, --driver, ...) come from the refimpl plugin
(refimpl/pytest_plugin.py), installed as a pytest entry point."""

from __future__ import annotations

from pathlib import Path

import pytest

from refimpl.rules import feature_tags, spec_rules

# Each game's step definitions live beside its feature file; loaded here so every feature finds them.
pytest_plugins = [f"features.{game}_steps" for game in ("beacon_lines", "lantern_quay", "ludo", "conquest_king",
                                                         "black_fog")]


def pytest_configure(config: pytest.Config) -> None:
    """Register every rule and ruling tag of the features as a marker, so ``-m BL-WIN-1`` selects by rule."""
    features = Path(__file__).parent / "features"
    tags = {t for f in features.glob("*.feature") for t in feature_tags(f)}
    for spec in (Path(__file__).parent / "specs").glob("*.md"):  # trace items are marked with their rules
        tags |= set(spec_rules(spec.read_text(encoding="utf-8")))
    for tag in sorted(tags):
        config.addinivalue_line("markers", f"{tag}: scenarios exercising rule {tag}")
    config.addinivalue_line("markers", "kit: checks the kit's own derivations, not a build (skipped for builds)")
