"""Installed as refimpl.suite.traces (pyproject.toml); this file only lets an editable install map the folder."""
