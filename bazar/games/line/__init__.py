"""The line games: one line of tiles with two ends. Block, Draw and the classic games,
Kozel and its presets, Sea Kozel."""

from __future__ import annotations

from . import board, classic, kozel, round, sea_kozel

__all__ = ["board", "classic", "kozel", "round", "sea_kozel"]
