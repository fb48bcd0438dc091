"""The options the hand count (:func:`bazar.core.scoring.hand_value`) reads beyond the
common ones: the special values of a hand. Every game that counts hands lists :data:`HAND`
in its ``Variant.options``; the games that take one name it in their defaults. The options
of one family's engine live in that family's folder (``games/line/options.py``,
``games/cross/options.py``).

>>> import bazar
>>> bazar.rules("kozel")[HAND_VALUES], bazar.rules("fives")[HAND_VALUES]
('lone_00_10', 'face')
"""

from __future__ import annotations

from typing import Any

from .rules import DOUBLE_BLANK_VALUE, Option

__all__ = ["HAND", "HAND_VALUES", "LONE_VALUES"]

HAND_VALUES: Option[str] = Option(
    "hand_values",
    "enum",
    "the special tile values of a hand",
    "face",
    values=("face", "lone_00_10", "lone_66_50_00_25", "00_25", "00_25_66_50"),
)
LONE_VALUES: Option[bool] = Option(
    "lone_values", "bool", "a hand of exactly 0-0 = 25, 6-6 = 50, both = 75", False
)

#: the options the hand count (:func:`bazar.core.scoring.hand_value`) reads: every game that
#: counts hands declares them
HAND: tuple[Option[Any], ...] = (HAND_VALUES, LONE_VALUES, DOUBLE_BLANK_VALUE)
