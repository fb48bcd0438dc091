"""Matches (``bazar.core.match``): no move follows the end of a match, and an illegal move
changes nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from invariants import finished, play_out, snapshot

import bazar
from bazar import IllegalMove, MatchOver
from bazar.core import record as records

GAMES = bazar.rules.names()


def position(match: bazar.Match) -> tuple[Any, ...]:
    """Everything observable about a match: its record, its ledger, the round's state and
    every view."""
    return records.dumps(match), match.ledger, snapshot(match.round)


@pytest.mark.parametrize("name", GAMES)
def test_no_move_follows_the_end_of_a_match(name: str) -> None:
    match = finished(bazar.Match(bazar.rules(name), seed=2))
    before = position(match)
    for move in ["6-6", "draw", "pass"]:
        with pytest.raises(MatchOver, match="the match is over"):
            match.push(move)
    assert match.legal_moves() == []
    assert position(match) == before


def test_an_illegal_move_in_a_match_changes_nothing() -> None:
    match = play_out(bazar.Match(bazar.rules("classic", players=3), seed=4), 0, 10)
    before = position(match)
    with pytest.raises(IllegalMove):
        match.push("bid 30")
    assert position(match) == before


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["kozel", "fives", "mexican-train", "poker"]))
def test_back_to_takes_back_one_move_across_the_end_of_a_round(seed: int, game: str) -> None:
    """The table takes back a move the database refused: the rounds it ended and dealt and
    the ledger it settled go with it, and the views are those of the position before."""
    options = {"set_max": 6, "hand_size": 7} if game == "mexican-train" else {}
    match = bazar.Match(bazar.rules(game, players=2, **options), seed=seed)
    rng = random.Random(seed)
    while not match.is_over():
        before, view = records.dumps(match), match.view(match.turn).to_json()
        point, move = match.point(), rng.choice(match.legal_moves())
        match.push(move)
        assert match.back_to(point) == move
        assert records.dumps(match) == before
        assert match.view(match.turn).to_json() == view
        match.push(move)
