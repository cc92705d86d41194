"""Conquest King (征服王) (spec: specs/conquest-king.md): two kingdoms, facing, combined attacks, a hidden
ambush per side, and the lobby clock."""

from .engine import INFO, ConquestKing, State

__all__ = ["INFO", "ConquestKing", "State"]
