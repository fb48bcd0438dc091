"""«Осёл» (closing-doubles.md): the worked examples of §7 and the rules they illustrate."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

import bazar
from bazar import Ledger, Outcome, Round
from bazar.core.options import HAND_VALUES
from bazar.games.line.kozel import FISH_MODE, OPEN_THRESHOLD
from bazar.games.line.options import DOUBLES_PER_TURN


def deal(
    hands: list[list[str]],
    moves: Sequence[str] = (),
    leader: int = 0,
    bazar_tiles: list[str] | None = None,
    **options: object,
) -> Round:
    """An explicit deal (no bazar unless given) with ``moves`` pushed."""
    rules = bazar.rules("osel", players=len(hands), **options)
    rnd = Round(rules, hands=hands, bazar=bazar_tiles or [], leader=leader)
    for move in moves:
        rnd.push(move)
    return rnd


def legal(rnd: Round) -> list[str]:
    return [str(m) for m in rnd.legal_moves()]


# -- the variant -------------------------------------------------------------------------------


def test_the_variant_takes_every_kozel_option_with_its_own_defaults() -> None:
    rules = bazar.rules("осёл")
    kozel = bazar.rules("kozel")
    assert rules.name == "osel" and rules.players == 4
    own = {
        "early_fish": "standard",
        "doubles_per_turn": 4,
        "cross": "first_open_double",
        "closing": True,
        "lead_may_be_closed": False,
        "sealed_layout_ends_round": True,
    }
    options = rules.options()
    for name, value in kozel.options().items():
        assert options[name] == own.get(name, value), name
    assert {k: options[k] for k in own} == own
    assert (rules.limit, rules[OPEN_THRESHOLD], rules[FISH_MODE], rules[HAND_VALUES]) == (
        101,
        13,
        "for_everyone",
        "lone_00_10",
    )


def test_up_to_four_doubles_a_turn() -> None:
    assert bazar.rules("osel", doubles_per_turn=3)[DOUBLES_PER_TURN] == 3
    with pytest.raises(ValueError):
        bazar.rules("osel", doubles_per_turn=5)
    with pytest.raises(ValueError):
        bazar.rules("osel", fish_mode="side_more_takes_all")  # Kozel's checks hold too


# -- §7 -------------------------------------------------------------------------------------------


def test_7_1_closing_both_ends_seals_the_layout_and_the_closer_is_the_fisher() -> None:
    rnd = deal([["5-2", "1-0"], ["2-2", "5-5", "4-3"], ["6-1"]], ["5-2"])
    assert legal(rnd) == ["2-2:R", "close 2-2:R", "5-5:L", "close 5-5:L"]
    rnd.push("close 2-2:R")
    assert rnd.turn == 1 and legal(rnd) == ["5-5:L", "close 5-5:L", "stop"]
    rnd.push("close 5-5:L")
    outcome = rnd.outcome()
    assert rnd.ends() == {} and outcome is not None
    assert (outcome.reason, outcome.fisher) == ("fish", 1)
    assert outcome.remaining[1] == (bazar.Tile.parse("4-3"),)
    after = Ledger.new(rnd.rules).settle(outcome)
    assert after.remembered == (1, 7, 7), "fish for everyone: each remembers his own pips"
    assert list(map(str, rnd.board.line)) == ["5|5", "5|2", "2|2"]
    assert rnd.board.closed == {bazar.Tile.parse("5-5"), bazar.Tile.parse("2-2")}


def test_7_2_the_first_double_left_open_is_the_cross() -> None:
    rnd = deal([["5-2", "1-0", "2-3"], ["2-2", "5-5", "4-3"]], ["5-2", "close 5-5:L", "2-2:R"])
    assert rnd.ends() == {"R": 2}, "the 5 end is dead; the cross's free sides show 2"
    assert rnd.board.spinner == 2
    assert rnd.turn == 0
    rnd.push("2-3:R")
    assert rnd.ends() == {"R": 3, "S": 2}


def test_7_3_a_closed_double_kills_its_end_only() -> None:
    hands = [["3-3", "6-0"], ["3-1", "6-2"], ["1-1", "6-3"], ["4-2", "6-4"]]
    rnd = deal(hands, ["3-3"])
    assert rnd.ends() == {"L": 3, "R": 3} and rnd.board.spinner == 3
    rnd.push("3-1:R")
    assert rnd.ends() == {"L": 3, "R": 1}
    assert legal(rnd) == ["1-1:R", "close 1-1:R", "6-3:L"]
    rnd.push("close 1-1:R")
    assert rnd.ends() == {"L": 3}, "only the cross's free sides (3) remain open"
    assert not rnd.is_over()


CROSS = [["5-5", "5-3", "2-1"], ["5-4", "1-1"], ["5-6", "2-2"], ["4-4", "6-6", "0-0", "5-0"]]
CROSS_MOVES = ["5-5", "5-4:L", "5-6:R", "5-0:S", "5-3:S", "pass", "pass"]


@pytest.mark.parametrize(
    "kinds", [("", "", ""), ("close ", "", "close "), ("close ", "close ", "close ")]
)
def test_7_4_laying_every_double_goes_out_whichever_are_closed(kinds: tuple[str, ...]) -> None:
    rnd = deal(CROSS, CROSS_MOVES)
    assert rnd.ends() == {"L": 4, "R": 6, "U": 0, "D": 3} and rnd.turn == 3
    for kind, move in zip(kinds, ["4-4:L", "6-6:R", "0-0:U"], strict=True):
        rnd.push(kind + move)
    outcome = rnd.outcome()
    assert outcome is not None and (outcome.reason, outcome.out_seat) == ("out", 3)
    assert set(outcome.last_turn) == {bazar.Tile.parse(t) for t in ("4-4", "6-6", "0-0")}


def test_7_5_two_closed_doubles_on_a_line_end_the_round_as_a_fish() -> None:
    rnd = deal([["6-4", "1-0"], ["4-4", "6-6", "3-2"]], ["6-4", "close 4-4:R", "close 6-6:L"])
    outcome = rnd.outcome()
    assert outcome is not None and (outcome.reason, outcome.fisher) == ("fish", 1)
    assert sum(t.pips for t in outcome.remaining[1] or ()) == 5


def test_7_6_scoring_is_kozels_remembered_points_and_open_accounts() -> None:
    rules = bazar.rules("osel", players=3)
    ledger = Ledger(rules, remembered=[0, 6, 9])
    outcome = Outcome("out", out_seat=2, remaining=[["6-5", "1-0"], ["6-6", "2-0"], []])
    after = ledger.settle(outcome)
    assert after.remembered == (12, 0, 0) and after.opened == (False, True, False)
    assert after.scores == (0, 20, 0)


# -- the rules around the examples ----------------------------------------------------------------


def test_the_lead_cannot_be_closed_unless_the_option_allows_it() -> None:
    hands = [["3-3", "1-0"], ["3-1", "2-2"]]
    assert legal(deal(hands)) == ["1-0", "3-3"]
    rnd = deal(hands, lead_may_be_closed=True)
    assert legal(rnd) == ["1-0", "3-3", "close 3-3"]
    rnd.push("close 3-3")
    outcome = rnd.outcome()
    assert outcome is not None and (outcome.reason, outcome.fisher) == ("fish", 0)


def test_without_closing_a_double_is_only_played() -> None:
    rnd = deal([["5-2", "1-0"], ["2-2", "5-5", "4-3"]], ["5-2"], closing=False)
    assert legal(rnd) == ["2-2:R", "5-5:L"]


def test_without_a_cross_doubles_stay_on_the_line() -> None:
    rnd = deal([["3-3", "6-0", "3-2"], ["3-1", "6-2"]], ["3-3", "3-1:R"], cross="none")
    assert rnd.ends() == {"L": 3, "R": 1} and rnd.board.spinner is None
    rnd.push("3-2:L")
    assert rnd.ends() == {"L": 2, "R": 1}, "no free side of 3-3 is left"


def test_a_sealed_layout_may_wait_for_the_standard_fish() -> None:
    rnd = deal(
        [["6-4", "1-0"], ["4-4", "6-6", "3-2"]],
        ["6-4", "close 4-4:R", "close 6-6:L"],
        bazar_tiles=["5-0", "2-1"],
        sealed_layout_ends_round=False,
    )
    assert not rnd.is_over() and rnd.ends() == {}
    assert legal(rnd) == ["draw"]
    rnd.push("draw")
    rnd.push("draw")
    outcome = rnd.outcome()
    assert outcome is not None and (outcome.reason, outcome.fisher) == ("fish", 1)


def test_the_further_doubles_of_a_turn_go_on_ends_not_used_this_turn() -> None:
    rnd = deal(CROSS, CROSS_MOVES)
    rnd.push("close 4-4:L")
    assert legal(rnd) == ["0-0:U", "close 0-0:U", "6-6:R", "close 6-6:R", "stop"]
    rnd.push("stop")
    assert rnd.turn == 0


def test_doubles_per_turn_caps_the_doubles_of_a_turn() -> None:
    rnd = deal(CROSS, CROSS_MOVES, doubles_per_turn=2)
    rnd.push("4-4:L")
    rnd.push("6-6:R")
    assert rnd.turn == 0
    single = deal(CROSS, CROSS_MOVES, doubles_per_turn=1)
    single.push("4-4:L")
    assert single.turn == 0


# -- every preset plays ----------------------------------------------------------------------------

PRESETS: list[dict[str, object]] = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 4, "teams": True},
    {"players": 3, "early_fish": "dead_layout", "doubles_per_turn": 2},
    {"players": 2, "lead_may_be_closed": True, "sealed_layout_ends_round": False},
    {"players": 4, "cross": "none", "fish_mode": "for_one"},
]


@pytest.mark.parametrize("options", PRESETS)
def test_random_matches_end_and_replay(options: dict[str, object]) -> None:
    rules = bazar.rules("osel", **options)  # type: ignore[arg-type]
    for seed in range(6):
        match = bazar.Match(rules, seed=seed)
        rng = random.Random(seed)
        while not match.is_over():
            match.push(rng.choice(match.legal_moves()))
        result = match.result()
        assert result is not None and result.losers
        assert max(match.ledger.scores) >= rules.limit
        text = bazar.record.dumps(match)
        assert bazar.record.loads(text).ledger == match.ledger
