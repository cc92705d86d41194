"""Ludo variant (spec: specs/ludo.md): four seats, 52-square loop, no blockades, no capture bonus."""

from .engine import INFO, Cpu, Ludo, Move, Roll, State

__all__ = ["INFO", "Cpu", "Ludo", "Move", "Roll", "State"]
