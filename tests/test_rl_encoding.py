"""The fixed encoding of bazar.rl: every legal move has one action id and back, the
observation is the seat's view and nothing more, read alike from the view and the round,
and docs/encoding.md lists the code's layout."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bazar
from bazar.bots.sampler import determinize
from bazar.core.round import Round
from bazar.rl.encoding import Encoding, IllegalAction, document

DOCS = Path(__file__).resolve().parent.parent / "docs" / "encoding.md"

#: every variant at its default players, and some other tables
TABLES = [(name, None) for name in bazar.VARIANTS] + [
    ("block", 3),
    ("block", 4),
    ("fives", 4),
    ("mexican-train", 2),
    ("mexican-train", 8),
    ("chicken-foot", 2),
    ("chicken-foot", 6),
    ("kolbasa", 3),
]


def _played(name: str, players: int | None, seed: int, **options: object) -> Round:
    """A round of the game dealt from ``seed`` and played by random moves to its end."""
    rules = bazar.rules(name, players=players, **options)
    rnd = Round(rules, seed=seed)
    rng = random.Random(seed)
    while not rnd.is_over():
        rnd.push(rng.choice(rnd.legal_moves()))
    return rnd


def _positions(rnd: Round) -> list[Round]:
    """The round at each of its positions, from the deal to its end (replayed)."""
    out = []
    replay = Round(rnd.rules, **rnd.deal(), seed=rnd.seed)
    out.append(replay.copy())
    for move in rnd.moves:
        replay.push(move)
        out.append(replay.copy())
    return out


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_every_legal_move_has_one_action_and_back(name: str, players: int | None) -> None:
    for seed in range(4):
        rnd = _played(name, players, seed)
        enc = Encoding.of(rnd.rules)
        for position in _positions(rnd):
            legal = position.legal_moves()
            ids = [enc.action(m, position) for m in legal]
            assert len(set(ids)) == len(ids) == len(legal)
            assert all(0 <= i < enc.num_actions for i in ids)
            assert enc.legal_actions(position) == sorted(ids)
            for move, action in zip(legal, ids, strict=True):
                assert enc.move(action, position) is move
            mask = enc.mask(position)
            assert mask.dtype == np.int8 and mask.shape == (enc.num_actions,)
            assert sorted(np.flatnonzero(mask).tolist()) == sorted(ids)
            if position.turn is not None:
                view = position.view(position.turn)
                assert enc.legal_actions(view) == sorted(ids)


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_the_round_and_the_view_give_the_same_observation(name: str, players: int | None) -> None:
    for seed in range(3):
        rnd = _played(name, players, seed)
        enc = Encoding.of(rnd.rules)
        # one round followed move by move, as an environment does
        live = Round(rnd.rules, **rnd.deal(), seed=rnd.seed)
        for move in [*rnd.moves, None]:
            for seat in range(rnd.rules.players):
                obs = enc.observe_round(live, seat)
                assert obs.dtype == np.float32 and obs.shape == enc.observation_shape
                assert np.array_equal(obs, enc.observe(live.view(seat)))
                assert obs.min() >= -1.0 and obs.max() <= 1.0
            if move is not None:
                live.push(move)


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(sorted(bazar.VARIANTS)),
    seed=st.integers(0, 10_000),
    back=st.integers(1, 6),
    data=st.data(),
)
def test_a_round_taken_back_and_played_on_is_observed_afresh(
    name: str, seed: int, back: int, data: st.DataObject
) -> None:
    """Pops and other moves pushed after them: the observer notices what it read is gone."""
    rnd = _played(name, None, seed)
    enc = Encoding.of(rnd.rules)
    live = Round(rnd.rules, **rnd.deal(), seed=rnd.seed)
    stop = data.draw(st.integers(0, len(rnd.moves)))
    for move in rnd.moves[:stop]:
        live.push(move)
        enc.observe_round(live, 0)
    rng = random.Random(seed)
    for _ in range(min(back, live.ply)):
        live.pop()
    while not live.is_over() and rng.random() < 0.8:
        live.push(rng.choice(live.legal_moves()))
    for seat in range(live.players):
        assert np.array_equal(enc.observe_round(live, seat), enc.observe(live.view(seat)))


#: the games whose hidden tiles a view lets one deal anew (not Kolbasa's blind rows)
DEALABLE = sorted(n for n in bazar.VARIANTS if bazar.rules(n).variant.determinizable)


@settings(max_examples=80, deadline=None)
@given(name=st.sampled_from(DEALABLE), seed=st.integers(0, 10_000))
def test_an_observation_shows_nothing_the_seat_may_not_know(name: str, seed: int) -> None:
    """The hidden tiles dealt anew, as the view allows: the seat's observation is the same,
    in the round it saw and in every round it cannot tell from it."""
    rules = bazar.rules(name)
    full = _played(name, None, seed)
    rng = random.Random(seed)
    position = _positions(full)[rng.randrange(full.ply + 1)]
    if position.is_over():
        return
    seat = rng.randrange(rules.players)
    view = position.view(seat)
    enc = Encoding.of(rules)
    seen = enc.observe(view)
    assert np.array_equal(enc.observe_round(position, seat), seen)
    for _ in range(3):
        # a deal the view allows, which the view's moves replay on (Texas 42's follow)
        other = determinize(view, rng)
        if other is not None:
            assert np.array_equal(enc.observe_round(other, seat), seen)


def test_a_worked_block_position() -> None:
    """Seat 0 leads 6-6, seat 1 holds no six and passes, seat 0 plays 6-4 on the right."""
    rules = bazar.rules("block")
    rnd = Round(rules, hands=[["6-6", "6-4", "1-0"], ["4-1", "3-3"]], bazar=["2-2"], leader=0)
    enc = Encoding.of(rules)
    tiles = rules.tiles
    at = {s.name: s for s in enc.sections()}
    # the lead's ids: tile × 3 ends (no end first), the tiles in index order
    assert [enc.action_name(a) for a in enc.legal_actions(rnd)] == ["1-0", "6-4", "6-6"]
    assert enc.action_name(tiles.index(bazar.Tile.parse("6-6")) * 3) == "6-6"
    for move in ("6-6", "pass", "6-4:R"):
        rnd.push(move)
    obs = enc.observe_round(rnd, 1)
    hand = obs[at["hand"].start : at["hand"].start + len(tiles)]
    assert [str(tiles[i]) for i in np.flatnonzero(hand)] == ["3-3", "4-1"]
    laid = obs[at["laid"].start : at["laid"].start + at["laid"].size].reshape(2, len(tiles))
    # row 1 is the seat after seat 1: seat 0, who laid both tiles
    assert [str(tiles[i]) for i in np.flatnonzero(laid[1])] == ["6-4", "6-6"]
    assert not laid[0].any()
    ends = obs[at["ends"].start : at["ends"].start + at["ends"].size].reshape(2, 7)
    assert [int(np.flatnonzero(row)[0]) for row in ends] == [6, 4]  # L shows 6, R shows 4
    sizes = obs[at["sizes"].start : at["sizes"].start + 2]
    assert sizes.tolist() == pytest.approx([2 / 28, 1 / 28])
    turn = obs[at["turn"].start : at["turn"].start + 2]
    assert turn.tolist() == [1.0, 0.0]  # seat 1 moves: itself
    # seat 0 sees that seat 1 passed at the six: no six in its hand
    mine = enc.observe_round(rnd, 0)
    voids = mine[at["voids"].start : at["voids"].start + at["voids"].size].reshape(2, 7)
    assert np.flatnonzero(voids[1]).tolist() == [6] and not voids[0].any()
    # and seat 1's own pass proves nothing to itself
    voids = obs[at["voids"].start : at["voids"].start + at["voids"].size].reshape(2, 7)
    assert not voids.any()
    moves = obs[at["moves"].start : at["moves"].start + at["moves"].size].reshape(2, 3)
    assert moves[0].tolist() == [0.0, 1.0, 0.0]  # seat 1 itself passed


def test_a_draw_undoes_what_the_passes_proved() -> None:
    rules = bazar.rules("draw")
    rnd = Round(
        rules,
        hands=[["6-6", "6-4", "2-0"], ["4-1", "3-3", "1-0"]],
        bazar=["6-5", "5-5"],
        leader=0,
    )
    enc = Encoding.of(rules)
    voids = next(s for s in enc.sections() if s.name == "voids")
    rnd.push("6-6")
    rnd.push("draw")  # seat 1 had no six: it drew 6-5 and may now hold one
    row = enc.observe_round(rnd, 0)[voids.start + 7 : voids.start + 14]
    assert not row.any()
    assert np.array_equal(enc.observe_round(rnd, 0), enc.observe(rnd.view(0)))


def test_an_illegal_action_names_the_legal_ones() -> None:
    rules = bazar.rules("block")
    rnd = Round(rules, hands=[["6-6", "6-4"], ["4-1", "3-3"]], bazar=["2-2"], leader=0)
    enc = Encoding.of(rules)
    with pytest.raises(IllegalAction, match=r"action 85 is not legal here.*\[75, 81\]"):
        enc.move(85, rnd)
    with pytest.raises(ValueError, match="spectator"):
        enc.observe(rnd.view(None))


def test_chicken_foot_ends_are_places_in_the_order_of_the_open_ends() -> None:
    rnd = _played("chicken-foot", None, 11)
    enc = Encoding.of(rnd.rules)
    assert enc.space.positional
    for position in _positions(rnd):
        ends = list(position.ends())
        assert len(ends) <= len(enc.space.ends)
        for move in position.legal_moves():
            if move.tile is not None:
                name = enc.action_name(enc.action(move, position))
                assert name.endswith(f"@{ends.index(move.end or '') + 1}")


def test_the_sections_tile_the_vector() -> None:
    for name in bazar.VARIANTS:
        enc = Encoding.of(bazar.rules(name))
        start = 0
        for section in enc.sections():
            assert section.start == start and section.size == int(np.prod(section.shape))
            start += section.size
        assert start == enc.observation_shape[0]


def test_the_docs_list_the_codes_encoding() -> None:
    text = DOCS.read_text(encoding="utf-8")
    assert document() in text, (
        "docs/encoding.md is not the code's: write its tables anew with "
        "python -c 'from bazar.rl.encoding import document; print(document())'"
    )


def test_bazar_alone_imports_none_of_the_research_libraries() -> None:
    import subprocess
    import sys

    code = (
        "import sys, bazar, bazar.games, bazar.bots, bazar.arena\n"
        "bad = [m for m in ('numpy', 'pettingzoo', 'gymnasium', 'pyspiel', 'bazar.rl')"
        " if m in sys.modules]\n"
        "print(bad)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_points_scored_in_play_are_seen_by_every_seat() -> None:
    """All Fives scores as the tiles are laid: each seat sees both sides' points of the
    round so far, its own side first."""
    rules = bazar.rules("fives")
    enc = Encoding.of(rules)
    points = next(s for s in enc.sections() if s.name == "points")
    scale = float(rules.target or rules.limit or 100)
    for seed in range(40):
        rnd = Round(rules, seed=seed)
        rng = random.Random(seed)
        while not rnd.is_over() and not rnd.scoring():
            rnd.push(rng.choice(rnd.legal_moves()))
        if not rnd.scoring():
            continue
        won = [0, 0]
        for seat, scored in rnd.scoring():
            won[seat] += scored
        for seat in (0, 1):
            obs = enc.observe_round(rnd, seat)
            seen = obs[points.start : points.start + 2].tolist()
            assert seen == pytest.approx([won[seat] / scale, won[1 - seat] / scale])
            assert np.array_equal(obs, enc.observe(rnd.view(seat)))
        return
    pytest.fail("no deal of 40 scored in play")
