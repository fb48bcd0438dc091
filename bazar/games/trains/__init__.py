"""The train games: every player's own train from a central engine double. Mexican Train
and Chicken Foot (whose feet branch from doubles)."""

from __future__ import annotations

from . import board, chicken_foot, round

__all__ = ["board", "chicken_foot", "round"]
