"""Every game, one folder or module per family. Importing this package registers them all,
in the order ``bazar.rules.names()`` lists them."""

from __future__ import annotations

from bazar.core.rules import rules

# the order the families register in is the order their variants are listed in
from . import line, cross, kolbasa, trains, trick, poker, gamecolony  # isort: skip

rules.notation = gamecolony

__all__ = ["cross", "gamecolony", "kolbasa", "line", "poker", "trains", "trick"]
