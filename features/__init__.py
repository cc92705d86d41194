"""Installed as refimpl.suite.features (pyproject.toml); this file only lets an editable install map the folder."""
