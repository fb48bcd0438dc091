"""What every round class must keep, checked over random games of one variant.

``tests/test_properties.py`` checks the layout games with the moves of a line; the games with
moves of their own (Kolbasa's cuts, the bids and bets of Texas 42 and poker) call these with
the universe of moves their rules can name and with what each seat may see.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import bazar
from bazar import IllegalMove, Match, Move, Round, View
from bazar.core import record as records
from bazar.core.tiles import Tile

#: a tile as the notation writes it ("6-4") or as a board draws it ("6|4")
TILE_TEXT = re.compile(r"(?<!\d)(\d{1,2})[-|](\d{1,2})(?!\d)")


def walk(rnd: Round, line: int) -> Iterator[Round]:
    """``rnd`` at every position of a random game; the caller leaves each as it found it."""
    rng = random.Random(line)
    while True:
        yield rnd
        if rnd.is_over():
            return
        rnd.push(rng.choice(rnd.legal_moves()))


def play_out(game: Any, line: int, moves: int = 100_000) -> Any:
    """``game`` (a Round or a Match) after up to ``moves`` random moves."""
    rng = random.Random(line)
    for _ in range(moves):
        if game.is_over():
            break
        game.push(rng.choice(game.legal_moves()))
    return game


def finished(game: Any, seed: int = 0) -> Any:
    """``game`` (a Round or a Match) played to its end by random moves."""
    return play_out(game, seed, 1_000_000)


def knocked_between(
    rules: bazar.Rules, hand: list[str], knocker: list[str], lead: str, turns: list[list[str]]
) -> Round:
    """Seat 1 leads ``lead`` (dealt to him with ``knocker``); seat 0, holding ``hand``, plays
    each list of ``turns`` as one turn while seat 1, with no bazar to draw from, knocks in
    between: a position where a player's turns are split by nothing but knocks."""
    rnd = Round(rules, hands=[hand, [lead, *knocker]], bazar=[], leader=1)
    rnd.push(lead)
    for i, turn in enumerate(turns):
        if i:
            assert [str(m) for m in rnd.legal_moves()] == ["pass"]
            rnd.push("pass")
        for move in turn:
            rnd.push(move)
    return rnd


def seats(rnd: Round) -> list[int | None]:
    return [None, *range(rnd.players)]


def snapshot(rnd: Round) -> tuple[Any, ...]:
    """Everything observable about a round, every seat's view included."""
    return (
        rnd.hands,
        rnd.bazar,
        rnd.ends(),
        rnd.moves,
        rnd.history(),
        rnd.board,
        rnd.turn,
        rnd.legal_moves(),
        rnd.is_over(),
        rnd.outcome(),
        rnd.deal(),
        [json.dumps(rnd.view(s).to_json()) for s in seats(rnd)],
    )


def position(rnd: Round) -> tuple[Any, ...]:
    """The state an illegal move must leave alone (cheaper than a snapshot, which follows)."""
    return (rnd.hands, rnd.board, rnd.ends(), rnd.turn, len(rnd.moves), rnd.bazar_size)


def tiles_named(view: View) -> set[Tile]:
    text = json.dumps(view.to_json())
    return {Tile.of(int(a), int(b)) for a, b in TILE_TEXT.findall(text)}


def perft(rnd: Round, depth: int) -> int:
    """The number of move sequences of length ``depth`` (a finished round ends one early)."""
    if depth == 0 or rnd.is_over():
        return 1
    count = 0
    for move in rnd.legal_moves():
        rnd.push(move)
        count += perft(rnd, depth - 1)
        rnd.pop()
    return count


def legal_is_what_push_accepts(
    rnd: Round, universe: Callable[[Round], Iterable[Move]], line: int
) -> None:
    """At every position of a random game: each legal move is accepted (as a Move and as
    text) and popped back exactly, every other move of ``universe(position)`` raises
    IllegalMove and changes nothing; the legal moves come in the same order every time."""
    for _ in walk(rnd, line):
        every = list(universe(rnd))
        legal = rnd.legal_moves()
        assert legal == rnd.legal_moves()
        assert (legal == []) == rnd.is_over() == (rnd.turn is None)
        assert len(set(legal)) == len(legal)
        before = snapshot(rnd)
        state = position(rnd)
        for move in [*legal, *every]:
            if move in legal:
                for form in (move, str(move)):
                    rnd.push(form)
                    assert rnd.moves[-1] is move
                    assert rnd.pop() is move
                    assert position(rnd) == state
                continue
            try:
                rnd.push(move)
            except IllegalMove:
                pass
            else:
                raise AssertionError(f"push accepted {move}, not in {legal}")
            assert position(rnd) == state
        assert snapshot(rnd) == before


def pop_and_copy_are_exact(rnd: Round, line: int) -> None:
    """Popping a whole game returns to the deal; a copy is independent of its original."""
    start = snapshot(rnd)
    half = play_out(rnd.copy(), line, 10**6)
    middle = play_out(rnd, line, len(half.moves) // 2)
    here = snapshot(middle)
    twin = middle.copy()
    assert snapshot(twin) == here
    play_out(twin, line + 1)
    assert snapshot(middle) == here
    while len(twin.moves) > len(middle.moves):
        twin.pop()
    assert snapshot(twin) == here
    played = list(middle.moves)
    assert [middle.pop() for _ in played] == played[::-1]
    assert snapshot(middle) == start


def views_show_only(
    rnd: Round, line: int, allowed: Callable[[Round, int | None], set[Tile]]
) -> None:
    """At every position each view names only tiles of ``allowed(round, seat)``, survives
    JSON, and agrees with the round on the public state."""
    for pos in walk(rnd, line):
        for seat in seats(pos):
            view = pos.view(seat)
            named = tiles_named(view)
            extra = named - allowed(pos, seat)
            assert not extra, f"seat {seat} sees {sorted(map(str, extra))}"
            assert View.from_json(json.loads(json.dumps(view.to_json()))) == view
            assert view.turn == pos.turn and view.board == pos.board
            assert view.hand_sizes == tuple(len(h) for h in pos.hands)
            mine = seat is not None and seat == pos.turn
            assert list(view.legal) == (pos.legal_moves() if mine else [])


def same_views_while_legal(a: Round, b: Round, moves: list[Move], seat: int) -> int:
    """Push ``moves`` into two rounds that differ only in tiles ``seat`` cannot see, while
    they stay legal in both and neither is over: the views of ``seat`` and of a spectator
    must not differ. Returns how many moves were compared."""
    compared = 0
    for move in moves:
        if a.is_over() or b.is_over() or move not in b.legal_moves():
            break
        for viewer in (seat, None):
            assert a.view(viewer) == b.view(viewer)
            assert a.view(viewer).to_json() == b.view(viewer).to_json()
        a.push(move)
        b.push(move)
        compared += 1
    return compared


def from_view_plays_on_alike(
    rnd: Round, line: int, match: Match | None = None, only_mover: bool = False
) -> None:
    """A round rebuilt from a seat's view (the mover's, seat 0's and a spectator's; only the
    mover's where ``only_mover``) and the true hidden tiles plays on like the real one, view
    for view, each move pushed and popped first (a search's undo), to the same outcome and
    extra. The views are those of ``match``, whose current round ``rnd`` is, where given."""
    if rnd.is_over():
        return
    for seat in dict.fromkeys([rnd.turn] if only_mover else [rnd.turn, 0, None]):
        view = rnd.view(seat) if match is None else match.view(seat)
        search = type(rnd).from_view(view, hands=rnd.hands, bazar=rnd.bazar)
        real = rnd.copy()
        rng = random.Random(line)
        while True:
            assert search.view(seat) == real.view(seat)
            assert search.legal_moves() == real.legal_moves()
            if real.is_over():
                break
            move = rng.choice(real.legal_moves())
            search.push(move)
            search.pop()
            assert search.legal_moves() == real.legal_moves(), f"{move} pushed and popped"
            real.push(move)
            search.push(move)
        outcome, rebuilt = real.outcome(), search.outcome()
        assert outcome is not None and rebuilt is not None
        assert rebuilt == outcome and rebuilt.extra == outcome.extra


def records_round_trip(rules: bazar.Rules, seed: int, line: int, moves: int) -> None:
    """A match record loads to the same position, writes back the same text, and both
    play on alike; a seed deals the same round every time."""
    match = play_out(Match(rules, seed=seed), line, moves)
    text = records.dumps(match)
    loaded = records.loads(text)
    assert records.dumps(loaded) == text
    for game in (match, loaded):
        play_out(game, line + 1)
    assert records.dumps(loaded) == records.dumps(match)
    assert loaded.ledger == match.ledger and loaded.result() == match.result()
    first = Round(rules, seed=seed)
    again = Round(rules, **first.deal())
    assert snapshot(again) == snapshot(first) == snapshot(Round(rules, seed=seed))


def matches_end(rules: bazar.Rules, seed: int, line: int, most_moves: int) -> Match:
    """A random match ends, every round within ``most_moves``, with a result that means what
    :class:`~bazar.MatchResult` says."""
    match = play_out(Match(rules, seed=seed), line)
    assert match.is_over()
    for rnd in match.rounds:
        assert rnd.is_over() and len(rnd.moves) <= most_moves
    result_means_what_it_says(match)
    return match


def result_means_what_it_says(match: Match) -> None:
    """The finished match's winners and losers as :class:`~bazar.MatchResult` defines them:
    sorted seats of whole sides, disjoint; where a mark is reached to win, or a side wins or
    loses outright, every side wins or loses; at a limit exactly the sides at or past it
    lose and the fewest points below it win; where the totals alone decide, the best total
    wins and the worst loses (nobody, when all are equal)."""
    rules = match.rules
    result = match.result()
    assert result is not None
    for seats_ in (result.winners, result.losers):
        assert list(seats_) == sorted(set(seats_))
    assert not set(result.winners) & set(result.losers)
    won = {rules.side_of(s) for s in result.winners}
    lost = {rules.side_of(s) for s in result.losers}
    assert result.winners == tuple(s for s in range(rules.players) if rules.side_of(s) in won)
    assert result.losers == tuple(s for s in range(rules.players) if rules.side_of(s) in lost)
    if rules.teams:
        assert (result.winning_teams, result.losing_teams) == (
            tuple(sorted(won)),
            tuple(sorted(lost)),
        )
    ledger = match.ledger
    scores = ledger.scores
    sides = set(range(rules.sides))
    target, limit = getattr(rules, "target", None), getattr(rules, "limit", None)
    if target is not None or ledger.get("general") is not None:
        assert won and won | lost == sides
    elif limit is not None and max(scores) >= limit:
        assert lost == {side for side, s in enumerate(scores) if s >= limit}
        fewest = min(scores)
        assert won == {side for side, s in enumerate(scores) if s == fewest < limit}
    else:
        ranked = [rules.better_sign * s for s in scores]
        best, worst = max(ranked), min(ranked)
        assert won == {side for side, s in enumerate(ranked) if s == best}
        assert lost == {side for side, s in enumerate(ranked) if s == worst != best}
