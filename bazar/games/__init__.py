"""Every game, one folder or module per family. Importing this package registers them all,
in the order ``bazar.rules.names()`` lists them."""

from __future__ import annotations

from bazar.core.rules import rules

from . import cross, gamecolony, kolbasa, line, poker, trains, trick

rules.notation = gamecolony

__all__ = ["cross", "gamecolony", "kolbasa", "line", "poker", "trains", "trick"]
