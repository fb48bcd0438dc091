"""The Round contract (DESIGN.md): every public method and property of :class:`bazar.Round`
works on every variant, with the type it promises, and ``push`` then ``pop`` gives the
position back exactly."""

from __future__ import annotations

import inspect
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

import bazar
from bazar import Ledger, Move, Outcome, Round, Tile, View
from bazar.bots.sampler import sample_deal
from bazar.core.tiles import tiles_of

VARIANTS = bazar.rules.names()


def tiles(value: object) -> bool:
    return isinstance(value, tuple) and all(isinstance(t, Tile) for t in value)


def seat_or_none(value: object) -> bool:
    return value is None or (isinstance(value, int) and not isinstance(value, bool))


def json_safe(value: object) -> bool:
    json.dumps(value)
    return True


def entry(value: object) -> bool:
    return (
        isinstance(value, tuple)
        and len(value) == 3
        and isinstance(value[0], int)
        and isinstance(value[1], Move)
        and (value[2] is None or isinstance(value[2], Tile))
    )


def position(name: str, moves: int) -> Round:
    """A round of ``name`` dealt from a seed of its own, ``moves`` random moves in (fewer
    where it ends sooner)."""
    rng = random.Random(f"{name}:{moves}")
    rnd = Round(bazar.rules(name), seed=rng.randrange(1 << 30))
    for _ in range(moves):
        if rnd.is_over():
            break
        rnd.push(rng.choice(rnd.legal_moves()))
    return rnd


def seats(rnd: Round) -> list[int | None]:
    return [*range(rnd.players), None]


#: each public member of Round: what calling it on a position returns, checked
CONTRACT: dict[str, Callable[[Round], bool]] = {
    "rules": lambda r: isinstance(r.rules, bazar.Rules),
    "seed": lambda r: seat_or_none(r.seed),
    "number": lambda r: isinstance(r.number, int),
    "previous": lambda r: r.previous is None or isinstance(r.previous, Outcome),
    "dealer": lambda r: seat_or_none(r.dealer),
    "leader": lambda r: isinstance(r.leader, int) and 0 <= r.leader < r.players,
    "players": lambda r: r.players == r.rules.players,
    "turn": lambda r: r.turn is None or 0 <= r.turn < r.players,
    "hands": lambda r: (
        isinstance(r.hands, list) and len(r.hands) == r.players and all(map(tiles, r.hands))
    ),
    "bazar": lambda r: tiles(r.bazar),
    "bazar_size": lambda r: isinstance(r.bazar_size, int) and r.bazar_size >= len(r.bazar),
    "drawable": lambda r: isinstance(r.drawable, int) and 0 <= r.drawable <= r.bazar_size,
    "ledger": lambda r: isinstance(r.ledger, Ledger),
    "moves": lambda r: isinstance(r.moves, list) and all(isinstance(m, Move) for m in r.moves),
    "history": lambda r: [m for _, m, _ in r.history()] == r.moves and all(map(entry, r.history())),
    "played": lambda r: tiles(r.played()),
    "scoring": lambda r: all(isinstance(s, int) and isinstance(p, int) for s, p in r.scoring()),
    "lead_tiles": lambda r: r.lead_tiles() is None or tiles(r.lead_tiles()),
    "is_over": lambda r: r.is_over() is (r.turn is None),
    "outcome": lambda r: (
        (r.outcome() is None) is (not r.is_over())
        and (r.outcome() is None or isinstance(r.outcome(), Outcome))
    ),
    "legal_moves": lambda r: (
        isinstance(r.legal_moves(), list)
        and all(isinstance(m, Move) for m in r.legal_moves())
        and (not r.legal_moves()) is r.is_over()
    ),
    "push": lambda r: all(pushed_and_popped(r, m) for m in r.legal_moves()),
    "pop": lambda r: not r.moves or popped_and_pushed(r),
    "copy": lambda r: type(r.copy()) is type(r) and copy_is_independent(r),
    "view": lambda r: all(isinstance(r.view(s), View) for s in seats(r)),
    "seen_hand": lambda r: all(
        r.seen_hand(s) is None or tiles(r.seen_hand(s)) for s in range(r.players)
    ),
    "public_extra": lambda r: all(
        isinstance(r.public_extra(s), dict) and json_safe(r.public_extra(s)) for s in seats(r)
    ),
    "deal": lambda r: isinstance(r.deal(), dict) and json_safe(r.deal()) and replays(r),
    "from_view": lambda r: r.is_over() or rebuilt_from_view(r),
    "redealt": lambda r: r.is_over() or redealt_like_from_view(r),
    "pips_to_go_on": lambda r: all(goes_on_with(r, s) for s in seats(r)),
    "rewards_long_plans": lambda r: r.rewards_long_plans is r.rules.variant.own_trains,
    "ends": lambda r: (
        isinstance(r.ends(), dict)
        and all(isinstance(e, str) and isinstance(p, int) for e, p in r.ends().items())
    ),
    "board": lambda r: json_safe(r.view(None).to_json()["board"]),
    "played_by": lambda r: Round.played_by(r.rules) is type(r),
    "ply": lambda r: r.ply == len(r.history()),
    "moves_of": lambda r: (
        r.moves_of(0) == [(s, m) for s, m, _ in r.history()]
        and r.moves_of(r.ply // 2) == r.moves_of(0)[r.ply // 2 :]
    ),
    "moves_since": lambda r: (
        r.moves_since(r.ply // 2, r.stamp(r.ply // 2)) == r.moves_of(r.ply // 2)
        and (r.ply == 0 or r.moves_since(1, object()) is None)
        and r.moves_since(r.ply + 1, r.stamp()) is None
    ),
    "stamp": lambda r: stamped(r),
    "hand_sizes": lambda r: r.hand_sizes() == tuple(len(h) for h in r.hands),
    "hand_mask": lambda r: all(
        (r.hand_mask(s) is None) is (r.seen_hand(s) is None)
        and (r.hand_mask(s) is None or tiles_of(r.hand_mask(s) or 0) == r.seen_hand(s))
        for s in range(r.players)
    ),
    "move_space": lambda r: all(in_space(r, m) for m in r.legal_moves()),
}


def stamped(rnd: Round) -> bool:
    """The stamp stays while no move is made or taken back, and comes back with a pop."""
    before = rnd.stamp()
    if rnd.stamp() is not before or rnd.stamp(rnd.ply) is not before:
        return False
    for move in rnd.legal_moves()[:1]:
        rnd.push(move)
        moved = rnd.stamp() is not before and rnd.stamp(rnd.ply - 1) is before
        rnd.pop()
        if not moved:
            return False
    return rnd.stamp() is before


def in_space(rnd: Round, move: Move) -> bool:
    """Whether ``move`` is one the family declares (``Round.move_space``)."""
    space = type(rnd).move_space(rnd.rules)
    if move.tile is None:
        return move in space.others
    if move.kind not in space.kinds or move.tile not in space.tiles:
        return False
    ends = list(rnd.ends())
    if space.positional:
        return move.end in ends and ends.index(move.end) < len(space.ends)
    return move.end in space.ends


def state(rnd: Round) -> list[Any]:
    """Everything a push and a pop must leave as it was."""
    return [
        rnd.deal(),
        rnd.hands,
        rnd.legal_moves(),
        rnd.moves,
        [json.dumps(rnd.view(s).to_json(), sort_keys=True) for s in seats(rnd)],
    ]


def pushed_and_popped(rnd: Round, move: Move) -> bool:
    before = state(rnd)
    rnd.push(move)
    taken = rnd.pop()
    return taken is move and state(rnd) == before


def popped_and_pushed(rnd: Round) -> bool:
    before = state(rnd)
    move = rnd.pop()
    rnd.push(move)
    return state(rnd) == before


def copy_is_independent(rnd: Round) -> bool:
    before = state(rnd)
    twin = rnd.copy()
    if state(twin) != before:
        return False
    while not twin.is_over():
        twin.push(twin.legal_moves()[0])
    return state(rnd) == before


def replays(rnd: Round) -> bool:
    """The deal, given back to the constructor with the moves, reaches the same position."""
    inputs = {"number": rnd.number, "previous": rnd.previous, "dealer": rnd.dealer}
    again = Round(rnd.rules, **{**inputs, **rnd.deal()}, ledger=rnd.ledger)
    for move in rnd.moves:
        again.push(move)
    return state(again) == state(rnd)


def rebuilt_from_view(rnd: Round) -> bool:
    seat = rnd.turn
    view = rnd.view(seat)
    twin = Round.from_view(view, hands=rnd.hands, bazar=rnd.bazar)
    return type(twin) is type(rnd) and twin.legal_moves() == rnd.legal_moves()


def goes_on_with(rnd: Round, seat: int | None) -> bool:
    """The pips a view of a round in play asks a hand to hold a tile of (or None): the
    round's own hands hold one (it is not over)."""
    pips = rnd.pips_to_go_on(rnd.view(seat))
    if pips is None:
        return True
    return not rnd.is_over() and any(t.high in pips or t.low in pips for h in rnd.hands for t in h)


def redealt_like_from_view(rnd: Round) -> bool:
    """A round redealt from one built from a view is the round the view builds with those
    hands, move for move to the end (or None: the family rebuilds every deal); the round it
    was redealt from is left as it was."""
    view = rnd.view(rnd.turn)
    base = Round.from_view(view, hands=rnd.hands, bazar=rnd.bazar)
    before = state(base)
    rng = random.Random(rnd.ply)
    if rnd.rules.variant.determinizable:
        hands, pile = sample_deal(view, rng)
    else:  # a view that hides the seat's own tiles: the round's own deal
        hands, pile = [list(h) for h in rnd.hands], list(rnd.bazar)
    twin = base.redealt(hands, pile)
    if twin is None:
        return True
    fresh = Round.from_view(view, hands=hands, bazar=pile)
    while state(twin) == state(fresh) and not fresh.is_over():
        move = rng.choice(fresh.legal_moves())
        fresh.push(move)
        twin.push(move)
    return (
        state(twin) == state(fresh) and twin.outcome() == fresh.outcome() and state(base) == before
    )


def answers(rnd: Round, member: str) -> bool:
    """A member without a contract of its own: it may at least be read, or called with the
    leader's seat for each argument, without an error."""
    value = getattr(rnd, member)
    if callable(value):
        value(*[rnd.leader] * len(inspect.signature(value).parameters))
    return True


def attributes(rnd: Round) -> list[str]:
    """The attributes a round holds: in its ``__dict__``, or where its class is compiled
    (:mod:`bazar.hotpath`), in the slots ``__mypyc_attrs__`` names."""
    return [*getattr(type(rnd), "__mypyc_attrs__", ()), *getattr(rnd, "__dict__", ())]


#: the public members of Round and of the round it builds, as the class defines them
PUBLIC = sorted(
    {n for n in [*dir(Round), *attributes(position("block", 0))] if not n.startswith("_")}
)


def test_the_contract_names_every_public_member_of_round() -> None:
    assert sorted(CONTRACT) == PUBLIC


@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("moves", [0, 3, 10_000], ids=["dealt", "three-moves-in", "over"])
@pytest.mark.parametrize("member", PUBLIC)
def test_every_public_member_of_round_works_on_every_variant(
    name: str, moves: int, member: str
) -> None:
    rnd = position(name, moves)
    check = CONTRACT.get(member)
    if check is None:
        assert answers(rnd, member), f"{name}: Round.{member} failed"
    else:
        assert check(rnd), f"{name}: Round.{member} broke its contract"


#: a game of each family whose round the base's from_view builds (from the family's inputs)
BUILT_FROM_VIEW = ["block", "fives", "mexican-train", "chicken-foot"]


@pytest.mark.parametrize("name", BUILT_FROM_VIEW)
def test_from_view_refuses_hands_and_a_bazar_that_do_not_fit_the_view(name: str) -> None:
    rnd = position(name, 3)
    seat = rnd.turn
    assert seat is not None and rnd.bazar, f"{name}: the position needs a seat and a bazar"
    view = rnd.view(seat)
    hands, rest = [list(h) for h in rnd.hands], list(rnd.bazar)
    other = (seat + 1) % rnd.players
    with pytest.raises(ValueError, match="seats"):
        Round.from_view(view, hands=hands[:-1], bazar=rest)
    with pytest.raises(ValueError, match="bazar holds"):
        Round.from_view(view, hands=hands, bazar=rest[1:])
    not_mine = [[*h] for h in hands]
    not_mine[seat][0] = rest[0]
    with pytest.raises(ValueError, match="viewer's own hand"):
        Round.from_view(view, hands=not_mine, bazar=[hands[seat][0], *rest[1:]])
    resized = [[*h] for h in hands]
    resized[other].append(rest[0])  # checked against the view before the deal is
    with pytest.raises(ValueError, match="tiles in the view"):
        Round.from_view(view, hands=resized, bazar=rest)


#: the rounds of each seeded match the push-and-pop check walks (round 2 on: a round whose
#: lead, privileges and scores follow from the rounds before it)
ROUNDS_WALKED = 4
SEEDS_WALKED = 8


def settled(rnd: Round) -> tuple[Outcome, Any] | None:
    """The outcome and its extra (Sea Kozel's hundred, a Kozel title), which outcomes do not
    compare."""
    outcome = rnd.outcome()
    return None if outcome is None else (outcome, outcome.extra)


@pytest.mark.parametrize("name", VARIANTS)
def test_a_round_from_the_movers_view_offers_the_real_moves_through_every_push_and_pop(
    name: str,
) -> None:
    """At every position of the first rounds of seeded random matches, later rounds
    included, a round rebuilt from the mover's match view with the true hidden tiles offers
    the real round's legal moves, after each of them pushed (with the real outcome when it
    ends the round) and after it is popped back: a search's undo keeps the view's
    restrictions (Sea Kozel's hundred, a forced lead), not those of a fresh round."""
    rules = bazar.rules(name)
    later = 0
    single = True  # whether every match ended in its first round (Kolbasa is one game)
    for seed in range(SEEDS_WALKED):
        match = bazar.Match(rules, seed=seed)
        rng = random.Random(seed)
        while not match.is_over() and len(match.rounds) <= ROUNDS_WALKED:
            rnd = match.round
            later += len(match.rounds) > 1
            view = match.view(rnd.turn)
            search = Round.from_view(view, hands=rnd.hands, bazar=rnd.bazar)
            real = rnd.copy()
            legal = real.legal_moves()
            where = f"{name} seed {seed} round {len(match.rounds)} ply {rnd.ply}"
            assert search.legal_moves() == legal, where
            for move in legal:
                search.push(move)
                real.push(move)
                assert search.legal_moves() == real.legal_moves(), f"{where}: after {move}"
                assert settled(search) == settled(real), f"{where}: after {move}"
                search.pop()
                real.pop()
                assert search.legal_moves() == legal, f"{where}: {move} pushed and popped"
            match.push(rng.choice(legal))
        single = single and len(match.rounds) == 1
    assert later or single, f"{name}: no later round was walked"
