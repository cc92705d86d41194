"""Installed as refimpl.suite.specs (pyproject.toml); this file only lets an editable install map the folder."""
