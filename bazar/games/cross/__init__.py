"""The spinner games: a line whose first double may grow four arms. The Fives family,
Telephone, Osel (closing doubles) and Bergen."""

from __future__ import annotations

from . import bergen, fives, osel, round, telephone

__all__ = ["bergen", "fives", "osel", "round", "telephone"]
