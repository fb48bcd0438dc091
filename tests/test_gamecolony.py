"""GameColony's table listings (``bazar.games.gamecolony``; online-club.md §5): the notation
of ``bazar.rules.from_notation`` and ``Rules.notation()``."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import bazar
from bazar.games.gamecolony import format as rules_notation


@pytest.mark.parametrize(
    ("listing", "name", "target", "first_lead", "later_lead"),
    [
        ("200pt/Drw", "draw", 200, "high", "winner"),
        ("100pt/Blk", "block", 100, "high", "winner"),
        ("100pt/Blk*", "block", 100, "random", "winner"),
        ("300pt/DrwO", "draw", 300, "high", "rotate"),
        ("150pt/Drw*O", "draw", 150, "random", "rotate"),
        ("500pt / Blk * O", "block", 500, "random", "rotate"),
    ],
)
def test_a_table_listing_names_the_game_its_target_and_its_lead_flags(
    listing: str, name: str, target: int, first_lead: str, later_lead: str
) -> None:
    r = bazar.rules.from_notation(listing)
    assert (r.name, r.target, r.first_lead, r.later_lead) == (name, target, first_lead, later_lead)
    assert r.notation() == listing.replace(" ", "")


def test_the_random_flag_makes_every_block_leader_random_and_rotation_continues() -> None:
    assert bazar.rules.from_notation("200pt/Drw*").after_tie_lead == "random"
    rotated = bazar.rules.from_notation("200pt/DrwO")
    assert (rotated.after_block_lead, rotated.after_tie_lead) == ("rotate", "rotate")


@given(
    st.sampled_from(["draw", "block"]),
    st.integers(100, 500),
    st.sampled_from(["high", "random"]),
    st.sampled_from(["winner", "rotate"]),
)
def test_a_listing_round_trips(name: str, target: int, first_lead: str, later_lead: str) -> None:
    r = bazar.rules(name, target=target, first_lead=first_lead, later_lead=later_lead)
    assert bazar.rules.from_notation(r.notation()) == r
    assert bazar.rules.from_notation(rules_notation(r, spaced=True)) == r


@pytest.mark.parametrize(
    ("listing", "words"),
    [
        ("xx", "malformed table listing 'xx'"),
        ("200/Drw", "malformed table listing"),
        ("200pt/Dom", "malformed table listing"),
        ("99pt/Drw", "from 100 to 500, not 99"),
        ("600pt/Blk", "from 100 to 500, not 600"),
        ("100pt/Drw+", "no spinner"),
        ("100pt/Blk**", "repeated"),
    ],
)
def test_a_bad_listing_says_what_is_wrong(listing: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        bazar.rules.from_notation(listing)


@pytest.mark.parametrize("name", ["classic", "classic-penalty"])
def test_games_that_gamecolony_does_not_list_have_no_listing(name: str) -> None:
    with pytest.raises(ValueError, match="no GameColony listing"):
        bazar.rules(name).notation()


def test_rules_from_a_bad_listing_name_the_listing_forms() -> None:
    with pytest.raises(ValueError, match="200pt/Drw"):
        bazar.rules.from_notation("200 points of draw")
