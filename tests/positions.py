"""Positions set up by hand that the tests of more than one bot play from."""

from __future__ import annotations

import bazar
from bazar.core.view import View


def own_train_position() -> View:
    """Seat 0 to move in a double-six Mexican Train: its train ends on 2 and its hand runs
    2-5, 5-3 from there; 6-0 fits nothing of that plan."""
    rules = bazar.rules("mexican-train", players=2, set_max=6, hand_size=5)
    hands = [["6-2", "2-5", "5-3", "6-0", "1-1"], ["6-4", "4-1", "2-2", "5-5", "0-2"]]
    used = {bazar.Tile.parse(t) for t in [*hands[0], *hands[1], "6-6"]}
    rest = [t for t in bazar.tile_set(6) if t not in used]
    rnd = bazar.Round(rules, hands=hands, bazar=rest, leader=1)
    for move in ("6-4:1", "stop", "6-2:0", "stop", "4-1:1"):
        rnd.push(move)
    view = rnd.view(0)
    return view
