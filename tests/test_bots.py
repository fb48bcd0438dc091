"""Bots: each plays every game to the end, seeing only views, and the same seed plays alike."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bazar
from bazar import bots
from bazar.core.view import View


def every_table() -> list[tuple[str, int]]:
    tables: list[tuple[str, int]] = []
    for name in bazar.VARIANTS:
        low, high = bazar.rules.variant(name).players
        tables.extend((name, players) for players in range(low, high + 1))
    return tables


SEARCHING = [n for n in bots.names() if bots.BOTS[n].takes_budget] + ["omniscient"]
CHEAP = [n for n in bots.names() if n not in SEARCHING]


@pytest.mark.parametrize("level", CHEAP)
@pytest.mark.parametrize(("variant", "players"), every_table())
def test_every_bot_plays_every_game_to_the_end(level: str, variant: str, players: int) -> None:
    match = bazar.Match(bazar.rules(variant, players=players), seed=players)
    seats = [bots.make(level, seed=seat) for seat in range(players)]
    moves = 0
    while not match.is_over():
        seat = match.turn
        assert seat is not None
        view = match.view(seat)
        move = seats[seat].choose(view, view.legal)
        assert move in view.legal
        match.push(move)
        moves += 1
        assert moves < 20_000, "the match does not end"
    result = match.result()
    assert result is not None and result.winners


@pytest.mark.parametrize("level", [*CHEAP, "pimc@4", "ismcts@8"])
def test_a_bot_needs_nothing_but_the_view(level: str) -> None:
    """Each view goes through JSON first, so it cannot lead back to the round."""
    rnd = bazar.Round(bazar.rules("classic", players=3), seed=4)
    player = bots.make(level, seed=1)
    while not rnd.is_over():
        seat = rnd.turn
        assert seat is not None
        view = View.from_json(rnd.view(seat).to_json())
        assert isinstance(view, View) and view.seat == seat
        rnd.push(player.choose(view, view.legal))
    assert rnd.outcome() is not None


@pytest.mark.parametrize("level", [*CHEAP, "pimc@4", "ismcts@8"])
def test_the_same_seed_plays_the_same_moves(level: str) -> None:
    def play(seed: int) -> list[str]:
        rnd = bazar.Round(bazar.rules("draw"), seed=8)
        player = bots.make(level, seed=seed)
        while not rnd.is_over():
            view = rnd.view(rnd.turn)
            rnd.push(player.choose(view, view.legal))
        return [str(m) for m in rnd.moves]

    assert play(3) == play(3)


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


def test_forced_draw_and_pass_are_what_a_bot_returns() -> None:
    rnd = bazar.Round(
        bazar.rules("draw"), hands=[["6-6", "5-5"], ["1-0", "2-1"]], bazar=["3-3", "6-1"], leader=0
    )
    rnd.push("6-6")
    for level in bots.names():
        view = rnd.view(1)
        assert [str(m) for m in view.legal] == ["draw"]
        assert str(bots.make(level, seed=1).choose(view, view.legal)) == "draw"


def test_unknown_bot_names_the_known_ones() -> None:
    with pytest.raises(bots.UnknownBot, match="random, greedy") as caught:
        bots.make("wizard")
    assert isinstance(caught.value, ValueError)


def test_a_new_bot_registers_by_name() -> None:
    @bots.register
    class FirstBot(bots.Bot):
        name = "first-test"

        def choose(self, view: View, legal: Sequence[bazar.Move]) -> bazar.Move:
            return legal[0]

    try:
        assert isinstance(bots.make("first-test"), FirstBot)
    finally:
        del bots.BOTS["first-test"]


def small_tables() -> list[tuple[str, int]]:
    """Each game at its fewest and at four players (or its most, if fewer)."""
    tables = []
    for name in bazar.VARIANTS:
        low, high = bazar.rules.variant(name).players
        tables.extend((name, p) for p in sorted({low, min(high, 4)}))
    return tables


@pytest.mark.parametrize("level", ["pimc@3", "ismcts@6", "omniscient@3"])
@pytest.mark.parametrize(("variant", "players"), small_tables())
def test_every_searching_bot_plays_a_round_of_every_game_to_the_end(
    level: str, variant: str, players: int
) -> None:
    rnd = bazar.Round(bazar.rules(variant, players=players), seed=players)
    seats = [bots.make(level, seed=seat) for seat in range(players)]
    moves = 0
    while not rnd.is_over():
        seat = rnd.turn
        assert seat is not None
        player = seats[seat]
        if player.sees_all:
            legal = rnd.legal_moves()
            move = player.choose_round(rnd.copy())  # type: ignore[attr-defined]
        else:
            view = rnd.view(seat)
            legal = list(view.legal)
            move = player.choose(view, view.legal)
        assert move in legal
        rnd.push(move)
        moves += 1
        assert moves < 5_000, "the round does not end"
    assert rnd.outcome() is not None


def test_omniscient_is_never_offered_to_players() -> None:
    assert "omniscient" not in bots.names()
    assert bots.make("omniscient", seed=1).sees_all
    assert not any(bots.make(n, seed=1).sees_all for n in bots.names())


def test_a_budget_is_given_after_an_at_sign() -> None:
    assert bots.make("pimc@50ms").budget.ms == 50  # type: ignore[attr-defined]
    assert bots.make("ismcts@300").budget.playouts == 300  # type: ignore[attr-defined]
    with pytest.raises(bots.UnknownBot):
        bots.make("greedy@10")


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


def _longest_run(end: int, tiles: list[bazar.Tile]) -> int:
    """The longest run from ``end`` by trying every order (small hands only)."""
    best = 0
    for i, t in enumerate(tiles):
        if t.has(end):
            best = max(best, 1 + _longest_run(t.other(end), tiles[:i] + tiles[i + 1 :]))
    return best


@settings(max_examples=200, deadline=None)
@given(
    end=st.integers(0, 6),
    picks=st.lists(st.integers(0, 27), min_size=0, max_size=7, unique=True),
)
def test_the_planned_train_is_a_longest_run_of_the_hand(end: int, picks: list[int]) -> None:
    from bazar.bots.heuristic import plan_train

    hand = [bazar.tile_set(6)[i] for i in picks]
    run = plan_train(end, hand)
    pip = end
    for tile in run:
        assert tile in hand and tile.has(pip)
        pip = tile.other(pip)
    assert len(set(run)) == len(run)
    assert len(run) == _longest_run(end, hand)


def _own_train_position() -> View:
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


def test_mexican_train_heuristic_keeps_its_own_train_and_sheds_the_rest() -> None:
    """mexican-train.md, the seeds' advice: plan your own train. Seat 0's train ends on 2
    and its hand runs 2-5, 5-3 from there; 6-0 fits nothing of that plan, and the Mexican
    train (engine 6) takes it. Greedy plays the heavier 2-5 and breaks nothing -- but
    leaves 6-0 with nowhere planned."""
    view = _own_train_position()
    assert {str(m) for m in view.legal} == {"5-2:0", "6-0:M"}
    assert str(bots.make("heuristic", seed=1).choose(view, view.legal)) == "6-0:M"
    assert str(bots.make("greedy", seed=1).choose(view, view.legal)) == "5-2:0"


def test_ismcts_keeps_the_train_plan_unless_its_tree_clearly_beats_it() -> None:
    """In Mexican Train the heuristic's move stands unless the search shows another better
    by more than its noise: with two iterations nothing is clearly better, so ismcts plays
    the planned 6-0:M whatever its two rollouts happened to like."""
    view = _own_train_position()
    for seed in range(5):
        assert str(bots.make("ismcts@2", seed=seed).choose(view, view.legal)) == "6-0:M"


def test_a_move_is_clearly_better_only_beyond_the_noise() -> None:
    from bazar.bots.mcts import _clearly_better, _Node

    def node(rewards: list[float]) -> _Node:
        n = _Node(0)
        n.visits = len(rewards)
        n.total = sum(rewards)
        n.squares = sum(r * r for r in rewards)
        return n

    steady_high, steady_low = node([0.7, 0.8] * 20), node([0.3, 0.4] * 20)
    noisy_high, noisy_low = node([1.0, 0.0, 1.0]), node([0.0, 1.0, 0.0])
    assert _clearly_better(steady_high, steady_low, 1.0)
    assert not _clearly_better(steady_low, steady_high, 1.0)
    # means 2/3 and 1/3, standard error of the difference 0.47: within the noise
    assert not _clearly_better(noisy_high, noisy_low, 1.0)
    assert _clearly_better(noisy_high, noisy_low, 0.5)
    # an untried alternative is never clearly worse; a move tried once is never clearly better
    assert _clearly_better(steady_high, None, 1.0)
    assert not _clearly_better(node([1.0]), steady_low, 1.0)
