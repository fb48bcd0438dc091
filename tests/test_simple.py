"""The simple bots (``bazar.bots.simple``): random reaches every legal move, greedy plays the
heaviest tile or the largest immediate score."""

from __future__ import annotations

import bazar
from bazar import bots


def test_greedy_plays_the_heaviest_tile_and_a_double_before_an_equal_single() -> None:
    rnd = bazar.Round(
        bazar.rules("block"),
        hands=[["6-6", "1-0", "6-5", "5-4"], ["3-3", "2-1"]],
        bazar=[],
        leader=0,
    )
    greedy = bots.make("greedy")
    view = rnd.view(0)
    assert str(greedy.choose(view, view.legal)) == "6-6"
    rnd.push("6-6")
    rnd.push("pass")
    view = rnd.view(0)
    assert str(greedy.choose(view, view.legal)) == "6-5:L"
    rnd = bazar.Round(bazar.rules("block"), hands=[["5-5", "6-4"], ["3-3"]], leader=0)
    view = rnd.view(0)
    assert str(greedy.choose(view, view.legal)) == "5-5"


def test_random_bot_reaches_every_legal_move() -> None:
    rnd = bazar.Round(bazar.rules("block"), hands=[["6-6", "1-0", "6-5"], ["3-3"]], leader=0)
    view = rnd.view(0)
    player = bots.make("random", seed=0)
    seen = {str(player.choose(view, view.legal)) for _ in range(200)}
    assert seen == {str(m) for m in view.legal}


def test_greedy_takes_the_largest_immediate_score_in_the_scored_games() -> None:
    rules = bazar.rules("domino-five")
    hands = [["6-6", "6-1"], ["6-4", "3-3"]]
    rest = [t for t in bazar.tile_set(6) if str(t) not in {"6-6", "6-1", "6-4", "3-3"}]
    rnd = bazar.Round(rules, hands=hands, bazar=rest, leader=1)
    rnd.push("6-4")
    view = rnd.view(0)
    move = bazar.bots.make("greedy", seed=1).choose(view, view.legal)
    assert str(move) == "6-1:L", "6 + 4 ends: 6-1 on the 6 makes 1 + 4 = 5 and scores"
    block = bazar.rules("block")
    plain = bazar.Round(block, hands=hands, bazar=[], leader=1)
    plain.push("6-4")
    view = plain.view(0)
    assert str(bazar.bots.make("greedy", seed=1).choose(view, view.legal)) == "6-6:L"
