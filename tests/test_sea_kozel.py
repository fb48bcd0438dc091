"""Sea Kozel (sea-kozel.md): the worked examples of §7."""

from __future__ import annotations

import random

import pytest
from invariants import knocked_between

import bazar
from bazar import Ledger, Outcome, Round
from bazar.core.scoring import hand_value
from bazar.core.tiles import parse_tiles

P, Q, R = 0, 1, 2


def sea(**options: object) -> bazar.Rules:
    options.setdefault("players", 2)
    return bazar.rules("sea-kozel", **options)  # type: ignore[arg-type]


def holding(points: int, holder: int | None = P, rules: bazar.Rules | None = None) -> Ledger:
    rules = rules or sea()
    scores = [0] * rules.sides
    if holder is not None:
        scores[holder] = points
    extra = {} if holder is None else {"record_holder": holder, "first_recorded": holder}
    return Ledger(rules, scores=scores, extra=extra)


def out(seat: int, *hands: list[str], last: list[str] | None = None, **extra: object) -> Outcome:
    remaining = [[] if s == seat else h for s, h in enumerate(hands)]
    return Outcome(
        "out", out_seat=seat, remaining=remaining, last_turn=last or ["4-1"], extra=extra or None
    )


def test_1_below_25_with_nobody_on_record_nothing_is_recorded() -> None:
    after = Ledger(sea()).settle(out(P, [], ["6-6", "4-2"]))
    assert after.scores == (0, 0) and after.get("record_holder") is None


def test_2_from_25_the_winner_starts_the_record() -> None:
    after = Ledger(sea()).settle(out(P, [], ["6-6", "6-5", "3-1"]))
    assert after.scores == (27, 0) and after.get("record_holder") == P


def test_3_the_holder_adds_any_award() -> None:
    after = holding(27).settle(out(P, [], ["4-3"]))
    assert after.scores == (34, 0)


def test_4_another_entry_wipes_the_record_or_replaces_it() -> None:
    outcome = out(Q, ["6-6", "6-5", "4-3"], [])
    wiped = holding(34).settle(outcome)
    assert wiped.scores == (0, 0) and wiped.get("record_holder") is None
    replaced = holding(34, rules=sea(knock_off="replace")).settle(outcome)
    assert replaced.scores == (0, 30) and replaced.get("record_holder") == Q


def test_5_a_small_award_against_the_holder_changes_nothing() -> None:
    after = holding(34).settle(out(Q, ["6-4", "1-1"], []))
    assert after.scores == (34, 0) and after.get("record_holder") == P


def test_6_lone_tile_values() -> None:
    rules = sea()
    assert hand_value(rules, parse_tiles(["0-0"])) == 25
    assert hand_value(rules, parse_tiles(["6-6"])) == 50
    assert hand_value(rules, parse_tiles(["0-0", "6-6"])) == 75
    assert hand_value(rules, parse_tiles(["0-0", "2-1"])) == 3


def test_7_going_out_with_0_0_wins_the_match() -> None:
    after = Ledger(sea()).settle(out(P, [], ["2-1"], last=["0-0"]))
    assert after.result is not None and after.result.winners == (P,)


def test_8_going_out_with_6_6_wins_or_under_a_needs_a_loser_over_25() -> None:
    outcome = out(P, [], ["6-4", "5-5"], last=["6-6"])
    assert Ledger(sea()).settle(outcome).result is not None
    strict = Ledger(sea(six_six_needs_loser_over_25=True)).settle(outcome)
    assert strict.result is None and strict.scores == (0, 0)


def test_9_both_doubles_in_one_turn_win() -> None:
    rules = sea()
    p_hand, q_hand = ["6-6", "0-0"], ["6-0", "5-1", "4-1"]
    rest = [t for t in bazar.tile_set(6) if str(t) not in p_hand + q_hand]
    rnd = Round(rules, hands=[p_hand, q_hand], bazar=rest, leader=Q)
    rnd.push("6-0")
    rnd.push("0-0:R")
    assert [str(m) for m in rnd.legal_moves()] == ["6-6:L", "stop"]
    rnd.push("6-6:L")
    outcome = rnd.outcome()
    assert outcome is not None and outcome.reason == "out"
    after = Ledger(rules).settle(outcome)
    assert after.result is not None and after.result.winners == (P,)


def test_a_double_laid_turns_before_going_out_does_not_win_sea_kozel() -> None:
    rules = sea()
    rnd = knocked_between(rules, ["6-6", "1-2"], ["5-3", "4-3"], "6-1", [["6-6:L"], ["1-2:R"]])
    outcome = rnd.outcome()
    assert outcome is not None and outcome.out_seat == P
    assert [str(t) for t in outcome.last_turn] == ["2-1"], "the 6-6 was an earlier turn"
    after = Ledger(rules).settle(outcome)
    assert after.result is None and after.scores == (0, 0), "15 is below 25: nothing recorded"


def test_the_double_of_the_final_turn_still_wins_when_the_other_seat_knocked_before() -> None:
    rules = sea()
    rnd = knocked_between(rules, ["6-6", "1-2"], ["5-3", "4-3"], "6-1", [["1-2:R"], ["6-6:L"]])
    outcome = rnd.outcome()
    assert outcome is not None and [str(t) for t in outcome.last_turn] == ["6-6"]
    after = Ledger(rules).settle(outcome)
    assert after.result is not None and after.result.winners == (P,)


def hundred_round(p_hand: list[str], q_hand: list[str], ledger: Ledger) -> Round:
    rest = [t for t in bazar.tile_set(6) if str(t) not in p_hand + q_hand]
    previous = Outcome("out", out_seat=Q, remaining=[["1-0"], []])
    return Round(
        ledger.rules, hands=[p_hand, q_hand], bazar=rest, number=2, previous=previous, ledger=ledger
    )


def test_10_and_14_the_holder_dealt_6_6_opens_with_a_hundred_or_stop() -> None:
    ledger = holding(60)
    rnd = hundred_round(["6-6", "5-2", "4-0"], ["3-1", "2-1", "1-0"], ledger)
    assert rnd.leader == Q, "Q went out, so Q would lead"
    assert rnd.turn == P
    assert [str(m) for m in rnd.legal_moves()] == ["6-6", "stop"]
    rnd.push("stop")
    assert rnd.turn == Q and len(rnd.legal_moves()) == 3
    rnd.pop()
    rnd.push("6-6")
    assert rnd.turn == Q


def test_10_the_hundred_maker_out_first_wins() -> None:
    won = holding(60).settle(out(P, [], ["3-1"], hundred=P))
    assert won.result is not None and won.result.winners == (P,)


def test_10_a_failed_hundred_resets_the_record() -> None:
    failed = holding(60).settle(out(Q, ["6-5", "2-1"], [], hundred=P))
    assert failed.scores == (0, 0) and failed.get("record_holder") is None
    assert failed.result is None


def test_10_under_lose_if_25_the_maker_with_25_or_more_loses() -> None:
    rules = sea(hundred_failure="lose_if_25")
    heavy = holding(60, rules=rules).settle(out(Q, ["6-5", "6-4", "5-5"], [], hundred=P))
    assert heavy.result is not None and heavy.result.losers == (P,)
    light = holding(60, rules=rules).settle(out(Q, ["6-5", "2-1"], [], hundred=P))
    assert light.result is None and light.scores == (60, 0)


def test_a_6_6_lead_by_the_privileged_leader_is_a_hundred() -> None:
    ledger = holding(60)
    rest = [t for t in bazar.tile_set(6) if str(t) not in ["6-6", "1-0", "5-4", "3-2"]]
    previous = Outcome("out", out_seat=P, remaining=[[], ["1-0"]])
    rnd = Round(
        ledger.rules,
        hands=[["6-6", "1-0"], ["5-4", "3-2"]],
        bazar=rest,
        number=2,
        previous=previous,
        ledger=ledger,
    )
    assert rnd.turn == P and len(rnd.legal_moves()) == 2
    rnd.push("6-6")
    rnd.push("draw")
    while not rnd.is_over():
        rnd.push(rnd.legal_moves()[0])
    outcome = rnd.outcome()
    assert outcome is not None and outcome.extra is not None
    assert outcome.extra.get("hundred") == P


def test_10_a_round_rebuilt_from_a_view_keeps_the_hundred_through_push_and_pop() -> None:
    # The pimc and ismcts bots crashed here: their search pushed 6-6 on a round rebuilt from
    # the holder's view, popped it, and then could not say stop (every tile led instead).
    rnd = hundred_round(["6-6", "5-2", "4-0"], ["3-1", "2-1", "1-0"], holding(60))
    search = Round.from_view(rnd.view(P), hands=rnd.hands, bazar=rnd.bazar)
    for move in ["6-6", "stop"]:
        search.push(move)
        search.pop()
        assert [str(m) for m in search.legal_moves()] == ["6-6", "stop"]
    search.push("stop")
    rnd.push("stop")
    assert search.turn == Q and search.legal_moves() == rnd.legal_moves()
    # past the decision, a lead taken back leaves it declined: Q leads again
    after = Round.from_view(rnd.view(Q), hands=rnd.hands, bazar=rnd.bazar)
    after.push(after.legal_moves()[0])
    after.pop()
    assert after.turn == Q and after.legal_moves() == rnd.legal_moves()


def test_10_a_hundred_played_on_in_a_round_rebuilt_from_a_view_is_one() -> None:
    rnd = hundred_round(["6-6", "5-2", "4-0"], ["3-1", "2-1", "1-0"], holding(60))
    rnd.push("6-6")
    search = Round.from_view(rnd.view(Q), hands=rnd.hands, bazar=rnd.bazar)
    while not rnd.is_over():
        move = rnd.legal_moves()[0]
        rnd.push(move)
        search.push(move)
    real, rebuilt = rnd.outcome(), search.outcome()
    assert real is not None and rebuilt is not None
    assert real.extra == rebuilt.extra == {"hundred": P}


def test_11_reaching_125_wins() -> None:
    after = holding(110).settle(out(P, [], ["6-5", "4-0"]))
    assert after.scores == (125, 0)
    assert after.result is not None and after.result.winners == (P,)


def test_12_team_award_ignores_the_partner() -> None:
    rules = sea(players=4)
    assert rules.teams
    outcome = Outcome(
        "out", out_seat=1, remaining=[["6-5", "1-0"], [], ["6-5", "5-0"], ["6-6", "6-4", "4-4"]]
    )
    after = Ledger(rules).settle(outcome)
    assert after.scores == (0, 28) and after.get("record_holder") == 1


def test_13_fish_the_lowest_wins_the_fisher_leads() -> None:
    fish = Outcome("fish", fisher=Q, remaining=[["5-4"], ["6-5", "2-1"]], leader=P)
    after = Ledger(sea()).settle(fish)
    assert after.scores == (0, 0), "14 is below 25 and P is not on record"
    on_record = holding(30).settle(fish)
    assert on_record.scores == (44, 0)
    nxt = Round(sea(), seed=2, number=2, previous=fish)
    assert nxt.leader == Q


def test_15_only_the_holder_side_may_make_a_hundred() -> None:
    rules = sea(players=3)
    ledger = Ledger(rules, scores=[0, 40, 0], extra={"record_holder": Q})
    hands = [["5-4", "3-2"], ["5-5", "2-1"], ["6-6", "1-0"]]
    dealt = {t for hand in hands for t in hand}
    rest = [t for t in bazar.tile_set(6) if str(t) not in dealt]
    previous = Outcome("out", out_seat=R, remaining=[["1-1"], ["1-0"], []])
    rnd = Round(rules, hands=hands, bazar=rest, number=2, previous=previous, ledger=ledger)
    assert rnd.turn == R and "stop" not in [str(m) for m in rnd.legal_moves()]
    rnd.push("6-6")
    while not rnd.is_over():
        rnd.push(rnd.legal_moves()[0])
    outcome = rnd.outcome()
    assert outcome is not None and not (outcome.extra or {}).get("hundred")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_matches_end(players: int) -> None:
    rules = sea(players=players)
    for seed in range(20):
        match = bazar.Match(rules, seed=seed)
        rng = random.Random(seed)
        while not match.is_over():
            match.push(rng.choice(match.legal_moves()))
        assert match.result() is not None
