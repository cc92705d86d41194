"""Black Fog and the Apple Trees (黒い霧とリンゴの木) (spec: specs/black-fog.md): a cooperative hex game."""

from .engine import INFO, BlackFog, State

__all__ = ["INFO", "BlackFog", "State"]
