"""Deliberately wrong engine variants: each breaks one documented rule, so tests can prove the
features and traces catch it. Each factory returns a Driver, for ``pytest --driver MODULE:FACTORY``."""
