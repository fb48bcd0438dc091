"""The spinner games: a line whose first double may grow four arms. The Fives family,
Telephone, Osel (closing doubles) and Bergen."""

from __future__ import annotations

# the listing order: the Fives family, Telephone, Osel, Bergen
from . import board, round, fives, telephone, osel, bergen  # isort: skip

__all__ = ["bergen", "board", "fives", "osel", "round", "telephone"]
