"""Invariants of the games played on a line or a cross, over random deals and random play.

Every such variant of ``bazar.rules.names()`` at every player count it allows (four players
with the team option flipped too) is dealt from a seed that Hypothesis draws and played with
moves picked by ``random.Random(line)``, ``line`` drawn too: games are long, and a failure is
reproduced from its numbers. The checks shared with the other round families live in
``tests/invariants.py``; the families with moves of their own (trains, Chicken Foot,
Kolbasa, poker, the trick game) call them from their own test modules.

These properties cut across the modules (each holds of the rules, the round, its views and
its records at once), so they stay together here rather than in each module's test file.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st
from invariants import (
    from_view_plays_on_alike,
    legal_is_what_push_accepts,
    matches_end,
    play_out,
    pop_and_copy_are_exact,
    records_round_trip,
    same_views_while_legal,
    seats,
    snapshot,
    views_show_only,
    walk,
)

import bazar
from bazar import Match, Move, Outcome, Round, View
from bazar.bots.sampler import sample_deal
from bazar.core import record as records
from bazar.core.errors import InconsistentDeal
from bazar.core.tiles import Tile, tile_set

#: the layout families these properties speak for
LAYOUTS = ("line", "cross")


def layout_games() -> list[tuple[str, int, tuple[tuple[str, Any], ...]]]:
    """(variant, players, options) for every game on a line or a cross and player count."""
    games: list[tuple[str, int, tuple[tuple[str, Any], ...]]] = []
    for name in bazar.rules.names():
        variant = bazar.rules.variant(name)
        if variant.family not in LAYOUTS:
            continue
        low, high = variant.players
        games += [(name, players, ()) for players in range(low, high + 1)]
        if low <= 4 <= high:
            flipped = (("teams", not bazar.rules(name, players=4).teams),)
            try:
                bazar.rules(name, players=4, **dict(flipped))
            except ValueError:
                continue  # no team option, or only one way to seat four
            games.append((name, 4, flipped))
    return games


GAMES = layout_games()
games = st.sampled_from(GAMES).map(lambda g: bazar.rules(g[0], players=g[1], **dict(g[2])))
seeds = st.integers(0, 2**32 - 1)
some = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
few = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: the ends of a line, in the order legal moves list them; a cross adds its arms and free slot
END_ORDER = {None: 0, "L": 1, "R": 2, "U": 3, "D": 4, "S": 5}
#: the most moves a round of a double-six preset takes (observed: under 60)
MOVES_PER_ROUND = 200


def may_know(rnd: Round, seat: int | None) -> set[Tile]:
    """The tiles ``seat`` may see: the table, once the round is over every hand it shows, and
    the seat's own hand and draws."""
    public = set(rnd.played())
    outcome = rnd.outcome()
    if outcome is not None:
        public |= {t for hand in outcome.remaining if hand is not None for t in hand}
    if seat is None:
        return public
    drawn = {t for s, _, t in rnd.history() if s == seat and t is not None}
    return public | set(rnd.hands[seat]) | drawn


def line_moves(rnd: Round) -> list[Move]:
    """Every play of every tile of the set on every end id of a line or a cross, a close of
    every double on each, and every bare move and a few bets."""
    tiles = tile_set(rnd.rules.set_max)
    plays = [Move.play(t, end) for t in tiles for end in END_ORDER]
    closes = [Move("close", t, end) for t in tiles if t.is_double for end in END_ORDER]
    bare = [Move(kind) for kind in ("draw", "pass", "stop", "fold", "call", "check")]
    bets = [Move(kind, value=30) for kind in ("bid", "bet", "raise")]
    return [*plays, *closes, *bare, *bets]


# -- tiles -----------------------------------------------------------------------------------


@some
@given(games, seeds, seeds)
def test_every_tile_is_in_one_hand_the_bazar_or_on_the_table(
    rules: bazar.Rules, seed: int, line: int
) -> None:
    rnd = Round(rules, seed=seed)
    full = set(tile_set(rules.set_max))
    dealt = [*(t for hand in rnd.hands for t in hand), *rnd.bazar]
    out_of_play = full - set(dealt)

    def conserved() -> None:
        places = [*(t for hand in rnd.hands for t in hand), *rnd.bazar, *rnd.played()]
        assert sorted(places) == sorted(dealt)
        assert not set(places) & out_of_play
        assert rnd.bazar_size == len(rnd.bazar)
        assert 0 <= rnd.drawable <= rnd.bazar_size

    for _ in walk(rnd, line):
        conserved()
    while rnd.moves:
        rnd.pop()
        conserved()


# -- legal moves -----------------------------------------------------------------------------


@few
@given(games, seeds, seeds)
def test_legal_moves_are_exactly_the_moves_push_accepts(
    rules: bazar.Rules, seed: int, line: int
) -> None:
    legal_is_what_push_accepts(Round(rules, seed=seed), line_moves, line)


@some
@given(games, seeds, seeds)
def test_legal_moves_list_each_tile_as_lead_then_by_end_then_stop_else_draw_else_pass(
    rules: bazar.Rules, seed: int, line: int
) -> None:
    for rnd in walk(Round(rules, seed=seed), line):
        if rnd.is_over():
            break
        legal = rnd.legal_moves()
        assert legal == rnd.copy().legal_moves()
        tiled = [m for m in legal if m.tile is not None]
        others = [str(m) for m in legal if m.tile is None]
        assert legal[: len(tiled)] == tiled
        # each play is followed by the close of the same double on the same end (osel)
        keys = [(m.tile.index, END_ORDER[m.end], m.kind != "play") for m in tiled]  # type: ignore[union-attr]
        assert keys == sorted(set(keys))
        assert all(m.tile in rnd.hands[rnd.turn] for m in tiled)  # type: ignore[index]
        assert {m.end is None for m in tiled} <= {not rnd.ends()}
        if tiled:
            # a player who can play must: no draw, no knock; ``stop`` ends a turn that holds
            # several moves (common.md §3.4, §4)
            assert others in ([], ["stop"])
        else:
            assert others in (["draw"], ["pass"], ["stop"])
            if others == ["draw"]:
                assert rnd.drawable > 0 and rules.draw


# -- push, pop and copy ----------------------------------------------------------------------


@some
@given(games, seeds, seeds)
def test_pop_takes_back_each_push_exactly_and_a_copy_is_independent(
    rules: bazar.Rules, seed: int, line: int
) -> None:
    pop_and_copy_are_exact(Round(rules, seed=seed), line)


# -- what a seat may know --------------------------------------------------------------------


@some
@given(games, seeds, seeds)
def test_a_view_names_only_the_table_its_own_tiles_and_its_own_draws(
    rules: bazar.Rules, seed: int, line: int
) -> None:
    views_show_only(Round(rules, seed=seed), line, may_know)


@some
@given(games, seeds, seeds)
def test_a_view_shows_the_public_state_and_the_seats_own_draws_only(
    rules: bazar.Rules, seed: int, line: int
) -> None:
    for rnd in walk(Round(rules, seed=seed), line):
        history = rnd.history()
        for seat in seats(rnd):
            view = rnd.view(seat)
            assert view.hand == (None if seat is None else rnd.hands[seat])
            assert view.seat == seat and view.rules == rules
            assert (view.bazar_size, view.drawable) == (rnd.bazar_size, rnd.drawable)
            assert view.ends == rnd.ends() and view.outcome == rnd.outcome()
            assert [(s, m) for s, m, _ in view.history] == [(s, m) for s, m, _ in history]
            for (s, _, shown), (_, _, tile) in zip(view.history, history, strict=True):
                assert shown == (tile if s == seat else None)
            assert not set(rnd.bazar) & {t for _, _, t in view.history}


def hidden_tiles_reshuffled(
    rnd: Round, seat: int, moves: list[Move], rng: random.Random
) -> tuple[list[list[Tile]], list[Tile]]:
    """The deal of ``rnd`` with the tiles ``seat`` never learns shuffled among their places:
    those in the other hands and the bazar that nobody plays in ``moves`` and ``seat`` never
    draws."""
    game = rnd.copy()
    for move in moves:
        game.push(move)
    history = game.history()
    fixed = {m.tile for s, m, _ in history if s != seat and m.tile is not None}
    fixed |= {t for s, _, t in history if s == seat and t is not None}
    hands = [list(h) for h in rnd.hands]
    pool = list(rnd.bazar)
    places = [(h, i) for s, h in enumerate(hands) if s != seat for i in range(len(h))]
    places += [(pool, i) for i in range(len(pool))]
    free = [(where, i) for where, i in places if where[i] not in fixed]
    tiles = [where[i] for where, i in free]
    rng.shuffle(tiles)
    for (where, i), tile in zip(free, tiles, strict=True):
        where[i] = tile
    return hands, pool


@some
@given(games, seeds, seeds, st.integers(0, 3))
def test_a_view_does_not_change_with_tiles_the_seat_cannot_see(
    rules: bazar.Rules, seed: int, line: int, pick: int
) -> None:
    seat = pick % rules.players
    deal = Round(rules, seed=seed).deal()
    a = Round(rules, **deal)
    moves = play_out(a.copy(), line).moves
    hands, pool = hidden_tiles_reshuffled(a, seat, moves, random.Random(line))
    b = Round(rules, **{**deal, "hands": hands, "bazar": pool})
    assert same_views_while_legal(a, b, moves, seat) >= 1


@some
@given(games, seeds, seeds, st.integers(0, 400))
def test_a_match_view_carries_the_ledger_and_survives_json(
    rules: bazar.Rules, seed: int, line: int, moves: int
) -> None:
    match = play_out(Match(rules, seed=seed), line, moves)
    for seat in seats(match.round):
        view = match.view(seat)
        assert view.scores == match.ledger.public()
        assert View.from_json(json.loads(json.dumps(view.to_json()))) == view


# -- a round from a view ---------------------------------------------------------------------


@some
@given(games, seeds, seeds, st.integers(1, 60))
def test_a_round_from_a_view_and_the_true_hidden_tiles_plays_on_like_the_real_one(
    rules: bazar.Rules, seed: int, line: int, moves: int
) -> None:
    rnd = play_out(Round(rules, seed=seed), line, moves)
    while rnd.is_over():
        rnd.pop()
    if not rnd.moves:
        reject()
    from_view_plays_on_alike(rnd, line)


@some
@given(games, seeds, seeds, st.integers(1, 600))
def test_a_round_from_a_match_view_plays_on_like_the_real_one_in_every_round(
    rules: bazar.Rules, seed: int, line: int, moves: int
) -> None:
    # a later round reads the rounds before it (Sea Kozel's hundred, a Bergen target reached
    # with this round's points): its view carries the round's number and the match's scores.
    # Before the first move only the mover's view shows what he must lead (see the test above).
    match = play_out(Match(rules, seed=seed), line, moves)
    if match.is_over():
        reject()
    from_view_plays_on_alike(match.round, line, match, only_mover=not match.round.moves)


@some
@given(games, seeds)
def test_before_the_lead_the_leaders_view_rebuilds_his_choice_of_lead(
    rules: bazar.Rules, seed: int
) -> None:
    # Only the leader's view says which tile the rules force him to lead (see the report on
    # Round.from_view): a round rebuilt from another seat's view lets him lead any tile.
    rnd = Round(rules, seed=seed)
    search = Round.from_view(rnd.view(rnd.turn), hands=rnd.hands, bazar=rnd.bazar)
    assert search.legal_moves() == rnd.legal_moves()
    for move in rnd.legal_moves():
        search.push(move)
        rnd.push(move)
        assert search.view(rnd.turn) == rnd.view(rnd.turn)
        search.pop()
        rnd.pop()


# -- deals and records -----------------------------------------------------------------------


@some
@given(games, seeds, seeds, st.one_of(st.just(10**6), st.integers(0, 300)))
def test_a_record_round_trips_and_replays_to_the_same_position(
    rules: bazar.Rules, seed: int, line: int, moves: int
) -> None:
    records_round_trip(rules, seed, line, moves)
    match = play_out(Match(rules, seed=seed), line, moves)
    loaded = records.loads(records.dumps(match))
    assert (loaded.legal_moves(), loaded.turn, loaded.is_over()) == (
        match.legal_moves(),
        match.turn,
        match.is_over(),
    )
    assert [r.outcome() for r in loaded.rounds] == [r.outcome() for r in match.rounds]
    for seat in seats(match.round):
        assert loaded.view(seat) == match.view(seat)


@some
@given(games, seeds, seeds, st.integers(0, 200))
def test_an_unfinished_round_record_loads_to_the_same_position(
    rules: bazar.Rules, seed: int, line: int, moves: int
) -> None:
    rnd = play_out(Round(rules, seed=seed), line, moves)
    while rnd.is_over():
        rnd.pop()
    text = records.dumps(rnd)
    loaded = records.loads(text)
    assert records.dumps(loaded) == text
    assert snapshot(loaded.round) == snapshot(rnd)


# -- games end -------------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(games, seeds, seeds)
def test_random_matches_of_every_preset_end(rules: bazar.Rules, seed: int, line: int) -> None:
    match = matches_end(rules, seed, line, MOVES_PER_ROUND)
    assert len(match.rounds) <= 100
    result = match.result()
    assert result is not None and result.losers


@st.composite
def optioned_rules(draw: st.DrawFn) -> bazar.Rules:
    """A game with options drawn from their glossary values; what rules() refuses is
    rejected."""
    name, players, _ = draw(st.sampled_from(GAMES))
    chosen: dict[str, Any] = {}
    for key in bazar.rules.variant(name).defaults:
        option = bazar.rules.variant(name).option(key)
        if key in ("players", "set_max") or not draw(st.booleans()):
            continue
        if option.kind == "bool":
            chosen[key] = draw(st.booleans())
        elif option.values:
            chosen[key] = draw(st.sampled_from(option.values))
        elif option.kind == "hand_size":
            chosen[key] = draw(st.integers(1, 9))
        elif option.kind == "pair_or_none":
            chosen[key] = draw(st.sampled_from([None, (50, 25), (10, 5)]))
        elif key.startswith("redeal_"):
            # a low threshold redeals every deal forever (see the report): the spec's values
            chosen[key] = draw(st.sampled_from([None, 5, 6, 7]))
        elif option.low is not None and option.high is not None:
            chosen[key] = draw(st.integers(option.low, option.high))
        else:
            chosen[key] = draw(st.sampled_from([None, 1, 30, 100, 150]))
    defaults = bazar.rules.variant(name).defaults
    if chosen.get("later_lead") == "winner" and "after_tie_lead" not in defaults:
        # known bug (see the report): without after_tie_lead, a tied fish leaves no winner to
        # lead the next round and dealing it fails
        reject()
    try:
        return bazar.rules(name, players=players, **chosen)
    except ValueError:
        reject()


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(optioned_rules(), seeds, seeds)
def test_every_option_a_game_accepts_deals_plays_and_records(
    rules: bazar.Rules, seed: int, line: int
) -> None:
    # Not every option ends a random match: with fives' losers_subtract every side may sink
    # below zero for ever (fives.md §7 allows negative scores).
    match = play_out(Match(rules, seed=seed), line, 3_000)
    for rnd in match.rounds[:-1]:
        assert rnd.is_over() and len(rnd.moves) <= MOVES_PER_ROUND
    text = records.dumps(match)
    assert records.dumps(records.loads(text)) == text


# -- settling --------------------------------------------------------------------------------


def rebuilt(outcome: Outcome) -> Outcome:
    """The same outcome built by hand, from text as a person would write it."""
    return Outcome(
        reason=outcome.reason,
        out_seat=outcome.out_seat,
        remaining=[None if h is None else [str(t) for t in h] for h in outcome.remaining],
        points=list(outcome.points),
        fisher=outcome.fisher,
        leader=outcome.leader,
        lead=None if outcome.lead is None else str(outcome.lead),
        last_turn=[str(t) for t in outcome.last_turn],
        scoring=[tuple(e) for e in outcome.scoring],
        extra=outcome.extra,
    )


@some
@given(games, seeds, seeds, st.integers(0, 3))
def test_settling_is_pure_and_a_hand_built_outcome_settles_alike(
    rules: bazar.Rules, seed: int, line: int, rounds_before: int
) -> None:
    match = Match(rules, seed=seed)
    rng = random.Random(line)
    while len(match.rounds) <= rounds_before and not match.is_over():
        match.push(rng.choice(match.legal_moves()))
    if match.is_over():
        return
    ledger = match.ledger
    before = (ledger.scores, ledger.rounds, ledger.result, ledger.public())
    outcome = play_out(match.round.copy(), line).outcome()
    assert outcome is not None
    settled = ledger.settle(outcome)
    assert (ledger.scores, ledger.rounds, ledger.result, ledger.public()) == before
    by_hand = rebuilt(outcome)
    assert by_hand == outcome
    assert ledger.settle(by_hand) == settled == ledger.settle(outcome)
    assert Outcome.from_json(json.loads(json.dumps(outcome.to_json()))) == outcome
    if rules.variant.settle is None and getattr(rules, "scoring", None) == "positive":
        # only the winner scores a round of the classic games (classic-draw-block.md §6)
        gains = [after - now for after, now in zip(settled.scores, ledger.scores, strict=True)]
        assert min(gains) >= 0 and sum(1 for g in gains if g) <= 1


def test_hidden_tiles_that_block_a_table_still_in_play_are_not_the_views_deal() -> None:
    rules = bazar.rules("block")
    rnd = Round(rules, hands=[["6-4", "1-1", "2-2"], ["4-3", "6-6", "5-5"]], bazar=[], leader=0)
    rnd.push("6-4")
    view = rnd.view(0)
    # another deal of seat 0's view: seat 1 holds nothing for a 6 or a 4 either, so the
    # round would be over (a fish) where the view shows it going on
    blocked = [[Tile.parse(t) for t in h] for h in (["1-1", "2-2"], ["3-3", "5-0", "5-5"])]
    with pytest.raises(InconsistentDeal):
        Round.from_view(view, hands=blocked, bazar=[])
    real = Round.from_view(view, hands=rnd.hands, bazar=[])
    assert not real.is_over() and real.legal_moves() == rnd.legal_moves()
    with pytest.raises(InconsistentDeal):
        real.redealt(blocked, [])
    # nothing to draw and seat 0 holds no 6 and no 4: the sampler deals seat 1 one
    assert type(rnd).pips_to_go_on(view) == frozenset({6, 4})
    for s in range(30):
        hands, pile = sample_deal(view, random.Random(s))
        assert any(t.has(6) or t.has(4) for t in hands[1])
        assert Round.from_view(view, hands=hands, bazar=pile).turn == view.turn
