"""Bots (``bazar.bots``: the registry, ``make`` and the contract every level keeps): each plays
every game to the end, seeing only views, the same seed plays alike, and a bot chooses alike
whatever the tiles it cannot see. The levels' own tests are in ``test_simple.py``,
``test_heuristic.py``, ``test_mcts.py`` and ``test_external.py``."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hidden import reshuffled

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


@pytest.mark.parametrize("level", ["heuristic", "pimc@8", "ismcts@16"])
@pytest.mark.parametrize(
    ("variant", "players"),
    [("block", 2), ("kozel-team", 4), ("fives", 2), ("draw", 3), ("mexican-train", 4)],
)
def test_a_bot_chooses_alike_whatever_the_tiles_it_cannot_see(
    level: str, variant: str, players: int
) -> None:
    """The same view from deals that differ only in hidden tiles: the same move."""
    compared = 0
    for seed in range(12):
        base = bazar.Round(bazar.rules(variant, players=players), seed=seed)
        game = base.copy()
        rng = random.Random(seed)
        moves = []
        for _ in range(rng.randrange(1, 8)):
            if game.is_over():
                break
            legal = game.legal_moves()
            move = legal[int(rng.random() * len(legal))]
            game.push(move)
            moves.append(move)
        if game.is_over():
            continue
        seat = game.turn
        assert seat is not None
        hands, pile = reshuffled(base, seat, moves, random.Random(seed + 1))
        twin = bazar.Round(base.rules, hands=hands, bazar=pile, leader=base.leader, **_extra(base))
        try:
            for move in moves:
                twin.push(move)
        except bazar.IllegalMove:
            continue  # the other deal makes a pass or a draw illegal: not the same view
        view, other = game.view(seat), twin.view(seat)
        if view.to_json() != other.to_json():
            continue
        if [t for t in game.hands] == [t for t in twin.hands]:
            continue  # the very same deal: the same move would prove nothing
        a = bots.make(level, seed=seed).choose(view, view.legal)
        b = bots.make(level, seed=seed).choose(other, other.legal)
        assert a == b
        compared += 1
    assert compared >= 3


def _extra(rnd: bazar.Round) -> dict[str, object]:
    deal = rnd.deal()
    return {k: v for k, v in deal.items() if k not in ("hands", "bazar", "leader")}


def test_only_the_random_and_the_greedy_bot_are_asked_on_the_server_s_loop() -> None:
    """The club asks a quick bot on its event loop (a thread's round trip would cost a
    hundred times its answer); any other would hold up every table while it thinks."""
    quick = sorted(name for name in bots.names() if bots.make(name).quick)
    assert quick == ["greedy", "random"]


def test_omniscient_given_only_a_view_plays_as_pimc_with_its_budget() -> None:
    """``omniscient`` is a ``pimc`` (96 playouts) where it is given a view, not the round."""
    for seed in range(4):
        rnd = bazar.Round(bazar.rules("kozel-team"), seed=seed)
        for _ in range(3 + seed):
            rnd.push(rnd.legal_moves()[0])
        seat = rnd.turn
        assert seat is not None
        view = rnd.view(seat)
        seer = bots.make("omniscient", seed=seed).choose(view, view.legal)
        assert seer == bots.make("pimc@96", seed=seed).choose(view, view.legal)
