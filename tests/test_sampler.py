"""The searching bots' sampler (``bazar.bots.sampler``): the deals it samples fit the view,
what passes and draws say, the values of outcomes and match standings, and the budgets."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import bazar
from bazar import bots
from bazar.bots import sampler as search
from bazar.core.tiles import parse_tiles
from bazar.hotpath import compiled

LINE_AND_CROSS = [
    ("block", 2),
    ("block", 4),
    ("draw", 2),
    ("draw", 3),
    ("classic", 4),
    ("kozel", 4),
    ("kozel-team", 4),
    ("fives", 2),
    ("fives", 4),
    ("muggins", 3),
    ("telephone", 2),
    ("osel", 3),
    ("bergen", 2),
]
OTHERS = [("mexican-train", 4), ("chicken-foot", 3), ("poker", 3), ("texas-42", 4)]


def played_to(variant: str, players: int, seed: int, steps: int) -> bazar.Round:
    """A round of ``variant`` after ``steps`` random moves (or its last position)."""
    rnd = bazar.Round(bazar.rules(variant, players=players), seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if rnd.is_over():
            break
        moves = rnd.legal_moves()
        rnd.push(moves[int(rng.random() * len(moves))])
    if rnd.is_over():
        rnd.pop()
    return rnd


#: a position of any table and a seed to sample its hidden tiles with
POSITIONS = {
    "table": st.sampled_from(LINE_AND_CROSS + OTHERS),
    "seed": st.integers(0, 10_000),
    "steps": st.integers(0, 60),
    "sample": st.integers(0, 10_000),
}


def to_move(table: tuple[str, int], seed: int, steps: int) -> tuple[bazar.Round, int, bazar.View]:
    """The round of ``table`` after ``steps`` random moves, its seat to move and that seat's
    view."""
    variant, players = table
    rnd = played_to(variant, players, seed, steps)
    seat = rnd.turn
    assert seat is not None
    return rnd, seat, rnd.view(seat)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**POSITIONS)
# a tight fit the quick deals kept missing (they then relaxed the constraints)
@example(table=("block", 4), seed=206, steps=19, sample=0)
# nothing to draw and the viewer must pass: another hand holds a tile for the ends (a deal
# without one would be a fish, not the view's round)
@example(table=("block", 2), seed=5785, steps=10, sample=0)
def test_a_sampled_deal_fits_everything_the_view_shows(
    table: tuple[str, int], seed: int, steps: int, sample: int
) -> None:
    rnd, seat, view = to_move(table, seed, steps)
    hands, pile = search.sample_deal(view, random.Random(sample))
    # the sizes the view shows, the viewer's own hand
    assert [len(h) for h in hands] == list(view.hand_sizes)
    assert len(pile) == view.bazar_size
    assert sorted(hands[seat]) == sorted(view.hand or ())
    # no tile twice, no tile seen on the table
    dealt = [t for h in hands for t in h] + pile
    assert len(dealt) == len(set(dealt))
    on_table = {m.tile for _, m, _ in view.history if m.tile is not None}
    assert not on_table & set(dealt) - set(view.hand or ())
    assert set(dealt) <= set(view.rules.tiles)
    # what passes and forced draws say holds for the true hands and for the sample
    rules = search.constraints(view)
    assert search.satisfies(rnd.hands, rules)
    assert search.satisfies(hands, rules)
    # the family rebuilds a round from it with the same legal moves
    if table[0] != "texas-42":  # tricks replay the play: some deals break follow-suit
        rebuilt = bazar.Round.from_view(view, hands=hands, bazar=pile)
        assert sorted(map(str, rebuilt.legal_moves())) == sorted(map(str, view.legal))


def test_a_pass_means_no_tile_of_the_open_ends() -> None:
    rnd = bazar.Round(
        bazar.rules("block"), hands=[["6-6", "6-5", "1-0"], ["3-3", "6-1", "2-2"]], leader=0
    )
    rnd.push("6-6")
    rnd.push("6-1:L")
    rnd.push("1-0:L")
    rnd.push("pass")  # seat 1 has no 0 and no 6
    view = rnd.view(0)
    assert search.constraints(view) == [search.Constraint(1, frozenset({0, 6}), 0)]
    for s in range(50):
        hands, _ = search.sample_deal(view, random.Random(s))
        assert not any(t.has(0) or t.has(6) for t in hands[1])


def test_draws_after_a_pass_may_hold_its_pips() -> None:
    c = search.Constraint(1, frozenset({3}), draws=1)
    assert c.allows([bazar.Tile.of(3, 1), bazar.Tile.of(2, 1)])
    assert not c.allows([bazar.Tile.of(3, 1), bazar.Tile.of(3, 2)])


def test_outcome_values_are_relative_and_signed() -> None:
    rnd = bazar.Round(bazar.rules("block"), hands=[["6-6"], ["3-3", "2-1"]], leader=0)
    rnd.push("6-6")
    values = search.round_value(rnd)
    assert values[0] > 0 and values[0] == -values[1]


def test_budgets_parse_counts_times_and_capped_counts() -> None:
    parse = search.Budget.parse
    assert parse("200/40ms", search.Budget(1)) == search.Budget(200, 40.0)
    assert parse("1s", search.Budget(1)) == search.Budget(0, 1000.0)
    assert str(search.Budget(64, 45.0)) == "64/45ms"
    for bad in ("0", "-3", "40ms/200", "200/300", "x", "200/"):
        with pytest.raises(ValueError):
            parse(bad, search.Budget(1))
    with pytest.raises(bots.UnknownBot):
        bots.make("pimc@200/")


def test_a_capped_budget_stops_at_its_count_or_its_time() -> None:
    clock = search.Budget(3, 10_000.0).clock()
    ticks = 0
    while clock.more():
        clock.tick()
        ticks += 1
    assert ticks == 3, "the count ends it long before the cap"
    clock = search.Budget(10**9, 1.0).clock()
    while clock.more():
        clock.tick()
    assert 0 < clock.used < 10**9, "the cap ends it long before the count"


def test_a_bot_reads_the_match_ledger_from_its_view() -> None:
    rules = bazar.rules("kozel")
    match = bazar.Match(rules, seed=5)
    players = [bots.make("greedy", seed=s) for s in range(rules.players)]
    while match.ledger.rounds < 3:
        view = match.view(match.turn)
        match.push(players[match.turn].choose(view, view.legal))
    ledger = search.ledger_of(match.view(0))
    assert ledger is not None
    assert ledger.public() == match.ledger.public()
    lone = search.ledger_of(bazar.Round(rules, seed=1).view(0))
    assert lone is not None and lone.public() == bazar.Ledger.new(rules).public()


def test_the_match_standing_fears_points_more_near_the_goat() -> None:
    """kozel.md §9: 101 makes the goat. The same 10 points cost more at 85 than at 5, and a
    remembered point costs less than a recorded one."""
    rules = bazar.rules("kozel")

    def standing(scores: list[int], remembered: list[int] | None = None) -> list[float]:
        return search.match_standing(bazar.Ledger(rules, scores=scores, remembered=remembered))

    low = standing([5, 0, 0, 0])[0] - standing([15, 0, 0, 0])[0]
    high = standing([85, 0, 0, 0])[0] - standing([95, 0, 0, 0])[0]
    assert 10 <= low < high
    recorded = standing([10, 0, 0, 0])[0]
    remembered = standing([0, 0, 0, 0], [10, 0, 0, 0])[0]
    assert recorded < remembered < standing([0, 0, 0, 0])[0]
    # a game played to a target: the scores themselves
    fives = bazar.rules("fives")
    assert search.match_standing(bazar.Ledger(fives, scores=[40, 25])) == [40.0, 25.0]


def test_round_values_in_kozel_see_remembered_points() -> None:
    """A round whose awards are only remembered (kozel: under 13) is not worth nothing."""
    rules = bazar.rules("kozel", players=2)
    rnd = bazar.Round(rules, hands=[["6-6"], ["3-3", "2-1"]], leader=0)
    rnd.push("6-6")
    values = search.round_value(rnd)
    assert values[0] > 0 and values[0] == pytest.approx(-values[1])


def _choices_round() -> bazar.Round:
    rnd = bazar.Round(
        bazar.rules("block", players=2),
        hands=[["6-6", "6-5", "5-5", "1-0"], ["6-1", "6-2", "4-4", "3-2"]],
        leader=0,
    )
    for move in ("6-6", "6-2:L", "6-5:R", "3-2:L"):  # ends 6 | 6, then 2 | 5
        rnd.push(move)
    return rnd


def test_the_others_choices_are_read_with_what_they_held_then() -> None:
    view = _choices_round().view(0)
    six, two, five = 1 << 6, 1 << 2, 1 << 5
    later = 1 << bazar.Tile.parse("3-2").index
    assert search.choices(view) == [
        (1, six, bazar.Tile.parse("6-2").index, later),  # the lead is nobody's evidence
        (1, two | five, bazar.Tile.parse("3-2").index, 0),
    ]


def test_a_deal_is_as_likely_as_the_choices_it_explains() -> None:
    view = _choices_round().view(0)
    found = search.choices(view)
    tiles = parse_tiles
    blind = search.PlayModel(beta=0.0)
    # holding 6-1 too, seat 1 chose 6-2 from two sixes: half as likely under a blind choice
    assert search.likelihood(blind, found, [[], tiles(["6-1", "4-4"])], 6) == pytest.approx(0.5)
    assert search.likelihood(blind, found, [[], tiles(["3-1", "4-4"])], 6) == pytest.approx(1.0)
    # a seat that sheds heavy tiles first chose the heavier six: likelier than a blind one
    greedy = search.PlayModel(beta=0.5, double=0.0)
    p = search.likelihood(greedy, found, [[], tiles(["6-1", "4-4"])], 6)
    assert p == pytest.approx(1 / (1 + pow(2.718281828459045, -0.5)))
    # had it held the heavier 6-4, choosing 6-2 would have been the less likely choice
    assert search.likelihood(greedy, found, [[], tiles(["6-4", "4-4"])], 6) < 0.5


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**POSITIONS)
def test_every_deal_has_a_likelihood_and_the_true_one_too(
    table: tuple[str, int], seed: int, steps: int, sample: int
) -> None:
    rnd, seat, view = to_move(table, seed, steps)
    model = search.PlayModel()
    found = search.choices(view)
    top = view.rules.set_max
    assert 0.0 < search.likelihood(model, found, rnd.hands, top) <= 1.0
    dealt = search.weighted_deal(view, random.Random(sample), model)
    if dealt is not None:
        again, weight = dealt
        assert sorted(again.hands[seat]) == sorted(view.hand or ())
        assert 0.0 < weight <= 1.0
        assert weight == pytest.approx(search.likelihood(model, found, again.hands, top))
    plain = search.weighted_deal(view, random.Random(sample), None)
    assert plain is None or plain[1] == 1.0


# -- the determinizer: one a search, and only an inconsistent deal is dealt again -----------


def _block_view() -> bazar.View:
    """Seat 1 to move in a game of Block after a few moves, with a choice of tiles."""
    rnd = bazar.Round(bazar.rules("block"), seed=4)
    while len(rnd.legal_moves()) < 2 or len(rnd.history()) < 3:
        rnd.push(max(rnd.legal_moves(), key=str))
    seat = rnd.turn
    assert seat is not None
    return rnd.view(seat)


def test_a_determinizer_rebuilds_its_view_once_and_redeals_from_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bazar.games.line.round import LineRound

    view = _block_view()
    built = []
    original = LineRound.from_view  # bound to LineRound (a compiled one has no __func__)

    def counted(cls: type[LineRound], *args: object, **kwargs: object) -> LineRound:
        built.append(1)
        return original(*args, **kwargs)  # type: ignore[arg-type, return-value]

    monkeypatch.setattr(LineRound, "from_view", classmethod(counted))
    dealer = search.Determinizer(view)
    rng = random.Random(5)
    rounds = [dealer.round(rng) for _ in range(6)]
    assert all(r is not None and r.turn == view.turn for r in rounds)
    assert len(built) == 1  # the other deals were redealt from the first round rebuilt
    # a fresh determinizer of the same view deals the same rounds from the same seed
    again = search.Determinizer(view)
    rng = random.Random(5)
    for rnd in rounds:
        twin = again.round(rng)
        assert twin is not None and rnd is not None and twin.hands == rnd.hands


@pytest.mark.parametrize(
    ("level", "broken"),
    [
        ("heuristic", "from_view"),  # (it deals a Block view once: never redealt)
        *[
            (level, broken)
            for level in ("pimc@8", "ismcts@8")
            for broken in ("from_view", "redealt")
        ],
    ],
)
def test_a_broken_rebuild_fails_loudly_not_as_a_weaker_bot(
    level: str, broken: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bug in a family's ``from_view`` or ``redealt`` (here a KeyError) reaches the
    caller of ``choose``: the search never swallows it and plays on with fewer deals."""
    from bazar.games.line.round import LineRound

    def bug(*args: object, **kwargs: object) -> None:
        raise KeyError("a bug in the family")

    if broken == "redealt" and "bazar.bots.sampler" in compiled():
        pytest.skip("a compiled search calls the compiled redealt, which no patch reaches")
    patched = classmethod(bug) if broken == "from_view" else bug
    monkeypatch.setattr(LineRound, broken, patched)
    view = _block_view()
    with pytest.raises(KeyError, match="a bug in the family"):
        bots.make(level, seed=1).choose(view, view.legal)


def test_an_inconsistent_deal_is_dealt_again_and_none_left_falls_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bazar.games.line.round import LineRound

    view = _block_view()
    original = LineRound.from_view  # bound to LineRound (a compiled one has no __func__)
    refusals = [3]

    def refusing(cls: type[LineRound], *args: object, **kwargs: object) -> LineRound:
        if refusals[0]:
            refusals[0] -= 1
            raise search.InconsistentDeal("these hands break the view")
        return original(*args, **kwargs)  # type: ignore[arg-type, return-value]

    monkeypatch.setattr(LineRound, "from_view", classmethod(refusing))
    assert search.determinize(view, random.Random(1)) is not None  # the fourth deal
    refusals[0] = 10**9  # no deal fits: no round, and a searching bot plays the heuristic's
    assert search.determinize(view, random.Random(1)) is None
    heuristic = bots.make("heuristic", seed=1).choose(view, view.legal)
    assert bots.make("pimc@8", seed=1).choose(view, view.legal) == heuristic
    assert bots.make("ismcts@8", seed=1).choose(view, view.legal) == heuristic


def test_a_trick_the_dealt_hands_could_not_have_played_is_an_inconsistent_deal() -> None:
    """Texas 42 replays the view's tricks: a deal that gives a seat the suit it did not
    follow is refused as an :class:`~bazar.core.errors.InconsistentDeal` (an IllegalMove's
    code kept), which the sampler deals again."""
    refused = 0
    for seed in range(40):
        rnd = played_to("texas-42", 4, seed, 12)
        seat = rnd.turn
        assert seat is not None
        view = rnd.view(seat)
        for sample in range(10):
            hands, pile = search.sample_deal(view, random.Random(sample))
            try:
                bazar.Round.from_view(view, hands=hands, bazar=pile)
            except search.InconsistentDeal as error:
                assert error.code == "illegal_move"
                refused += 1
        if refused:
            break
    assert refused


def test_a_broken_settlement_fails_loudly_not_as_the_pips_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A playout's value is the ledger's settlement; a bug in it reaches the search's caller
    (it was once taken for the pips left in hand)."""
    from bazar.core.ledger import Ledger

    rnd = bazar.Round(bazar.rules("kozel"), seed=1)
    search.rollout(rnd, random.Random(0))
    assert rnd.outcome() is not None
    assert len(search.round_value(rnd)) == rnd.rules.sides

    def bug(self: Ledger, outcome: bazar.Outcome) -> Ledger:
        raise KeyError("a bug in the settlement")

    monkeypatch.setattr(Ledger, "settle", bug)
    with pytest.raises(KeyError, match="a bug in the settlement"):
        search.round_value(rnd)
