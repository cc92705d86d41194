"""Beacon Lines (spec: specs/beacon-lines.md): seven regions, simultaneous claims, two rulesets. The engine is
``engine.py``; ``kit/`` holds what the kit's other rooms need of the game (its unit: ``KIT``)."""

from .engine import INFO, BeaconLines, Board, Claim, State

__all__ = ["INFO", "Board", "BeaconLines", "Claim", "State"]
