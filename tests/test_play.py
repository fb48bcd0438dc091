"""The one seat loop (core/play.py): who is asked, what is pushed, what is told."""

from __future__ import annotations

import ast
import asyncio
from collections.abc import Sequence
from pathlib import Path

import pytest

import bazar
from bazar import arena, bots
from bazar.core.play import (
    Event,
    MatchEnded,
    Moved,
    RoundEnded,
    RoundStarted,
    answer,
    forced,
    play,
    play_async,
    turn,
)
from bazar.core.round import deal_seed


class Asked:
    """A bot that writes down what it was asked."""

    def __init__(self, bot: bots.Bot) -> None:
        self.bot = bot
        self.asked: list[tuple[bazar.View, Sequence[bazar.Move]]] = []

    def choose(self, view: bazar.View, legal: Sequence[bazar.Move]) -> bazar.Move:
        self.asked.append((view, legal))
        return self.bot.choose(view, legal)


def greedy_seats(rules: bazar.Rules, seed: int = 0) -> list[bots.Bot]:
    return [bots.make("greedy", seed=seed * 16 + s) for s in range(rules.players)]


def by_hand(match: bazar.Match, seats: Sequence[bots.Bot]) -> None:
    """The turn loop as every user wrote it before core/play.py."""
    while not match.is_over():
        seat = match.turn
        assert seat is not None
        view = match.view(seat)
        match.push(seats[seat].choose(view, view.legal))


@pytest.mark.parametrize("variant", ["kozel", "fives", "mexican-train", "poker", "texas-42"])
def test_the_loop_plays_the_match_a_hand_written_loop_plays(variant: str) -> None:
    rules = bazar.rules(variant)
    ours, theirs = bazar.Match(rules, seed=3), bazar.Match(rules, seed=3)
    result = play(ours, greedy_seats(rules))
    by_hand(theirs, greedy_seats(rules))
    assert bazar.record.dumps(ours) == bazar.record.dumps(theirs)
    assert result is ours.result() and ours.is_over()


def test_the_seat_loop_is_on_the_package_face() -> None:
    assert bazar.play is play and "play" in bazar.__all__


def test_each_seat_is_asked_only_on_its_turn_with_its_own_view_and_legal_moves() -> None:
    rules = bazar.rules("kozel", players=4)
    match = bazar.Match(rules, seed=5)
    seats = [Asked(bot) for bot in greedy_seats(rules)]
    play(match, seats)
    moves = sum(len(rnd.moves) for rnd in match.rounds)
    assert sum(len(seat.asked) for seat in seats) == moves
    for s, seat in enumerate(seats):
        assert seat.asked
        for view, legal in seat.asked:
            assert view.seat == view.turn == s
            assert tuple(legal) == view.legal and legal


def test_an_arena_game_is_the_loop_with_the_arena_s_bots_and_seeds() -> None:
    rules, names = bazar.rules("kozel", players=4), ["random", "greedy"]
    game = arena.play_game(rules, names, game=1, seed=9)
    places = arena.units(rules, len(names))
    order = arena.lineup(len(names), len(places), 1)
    made = {e: bots.make(names[e], seed=deal_seed("arena:9:1", e)) for e in set(order)}
    at_seat = {seat: order[i] for i, place in enumerate(places) for seat in place}
    match = bazar.Match(rules, seed=deal_seed("arena:9", 0))
    result = play(match, [made[at_seat[seat]] for seat in range(rules.players)])
    assert len(match.rounds) == game.rounds
    won = {rules.side_of(seat) for seat in result.winners}
    assert game.wins == tuple(1.0 if rules.side_of(p[0]) in won else 0.0 for p in places)
    made_by = [at_seat[s] for rnd in match.rounds for s, _, _ in rnd.history()]
    assert {e: len(ms) for e, ms in game.ms.items()} == {e: made_by.count(e) for e in made}


def test_a_seat_that_raises_ends_the_loop_with_its_error_and_the_match_as_it_was() -> None:
    class Leaves:
        def choose(self, view: bazar.View, legal: Sequence[bazar.Move]) -> bazar.Move:
            raise KeyboardInterrupt

    rules = bazar.rules("block")
    match = bazar.Match(rules, seed=1)
    seats = [bots.make("greedy", seed=1), Leaves()]
    with pytest.raises(KeyboardInterrupt):
        play(match, seats)
    assert match.turn == 1 and not match.is_over()
    before = bazar.record.dumps(match)
    with pytest.raises(KeyboardInterrupt):
        play(match, seats)
    assert bazar.record.dumps(match) == before


def test_an_illegal_answer_raises_illegal_move_and_changes_nothing() -> None:
    class Cheats:
        def choose(self, view: bazar.View, legal: Sequence[bazar.Move]) -> bazar.Move:
            return bazar.Move.parse("stop") if view.history else legal[0]

    match = bazar.Match(bazar.rules("block"), seed=2)
    told: list[Event] = []
    with pytest.raises(bazar.IllegalMove, match="illegal move stop"):
        play(match, [Cheats(), Cheats()], told.append)
    assert len(match.round.moves) == 1 and len(told) == 1


def test_events_follow_each_move_in_order_moved_round_ended_round_started_match_ended() -> None:
    rules = bazar.rules("kozel", players=4)
    match = bazar.Match(rules, seed=7)
    told: list[Event] = []
    play(match, greedy_seats(rules), told.append)
    kinds = [type(event) for event in told]
    assert kinds.count(Moved) == sum(len(rnd.moves) for rnd in match.rounds)
    assert kinds.count(RoundEnded) == len(match.rounds) > 1
    assert kinds.count(RoundStarted) == len(match.rounds) - 1
    assert kinds[-2:] == [RoundEnded, MatchEnded] and kinds.count(MatchEnded) == 1
    for i, event in enumerate(told):
        if isinstance(event, RoundEnded):
            moved = told[i - 1]
            assert isinstance(moved, Moved) and moved.round is event.round
            assert event.outcome == event.round.outcome()
            assert event.before is event.round.ledger
        if isinstance(event, RoundStarted):
            ended = told[i - 1]
            assert isinstance(ended, RoundEnded)
            assert event.round.number == ended.round.number + 1
            assert event.round.ledger == ended.after
    end = told[-1]
    assert isinstance(end, MatchEnded) and end.result is match.result()


def test_a_moved_event_holds_the_view_it_was_chosen_from_and_the_points_it_scored() -> None:
    rules = bazar.rules("fives")
    match = bazar.Match(rules, seed=4)
    told: list[Event] = []
    play(match, greedy_seats(rules), told.append)
    moved = [event for event in told if isinstance(event, Moved)]
    for event in moved:
        assert event.view.seat == event.seat and event.move in event.view.legal
    scored = [points for event in moved for points in event.scored]
    assert scored and scored == [points for rnd in match.rounds for points in rnd.scoring()]


def test_a_lone_draw_or_pass_is_made_for_the_auto_seats_and_asked_of_the_others() -> None:
    rules = bazar.rules("draw", players=3)
    match = bazar.Match(rules, seed=6)
    seats = [Asked(bot) for bot in greedy_seats(rules)]
    play(match, seats, auto={0})
    assert not [legal for _, legal in seats[0].asked if forced(legal) is not None]
    others = [legal for seat in seats[1:] for _, legal in seat.asked]
    assert [legal for legal in others if forced(legal) is not None]
    made = [m for rnd in match.rounds for s, m, _ in rnd.history() if s == 0]
    assert len(made) > len(seats[0].asked)


def test_forced_is_a_lone_draw_or_pass_only() -> None:
    draw, stop, play_ = (bazar.Move.parse(m) for m in ("draw", "stop", "6-6"))
    assert forced([draw]) is draw and forced([bazar.Move.parse("pass")]) is not None
    assert forced([stop]) is None and forced([play_]) is None and forced([draw, play_]) is None


def test_turn_is_none_once_the_match_is_over() -> None:
    rules = bazar.rules("block")
    match = bazar.Match(rules, seed=1)
    asked = turn(match)
    assert asked is not None and asked.seat == match.turn and asked.forced is None
    play(match, greedy_seats(rules))
    assert turn(match) is None
    with pytest.raises(bazar.MatchOver):
        answer(match, asked, asked.legal[0])


class Waits:
    """An async seat: a bot that has no move yet each first time it is asked."""

    def __init__(self, bot: bots.Bot) -> None:
        self.bot = bot
        self.calls = 0

    async def choose(self, view: bazar.View, legal: Sequence[bazar.Move]) -> bazar.Move | None:
        await asyncio.sleep(0)
        self.calls += 1
        return None if self.calls % 2 else self.bot.choose(view, legal)


def test_the_async_loop_plays_the_same_match_stopping_whenever_a_seat_has_no_move() -> None:
    rules = bazar.rules("kozel", players=4)
    ours, theirs = bazar.Match(rules, seed=8), bazar.Match(rules, seed=8)
    seats = [Waits(bot) for bot in greedy_seats(rules)]
    stops = 0
    while (result := asyncio.run(play_async(ours, seats))) is None:
        stops += 1
    play(theirs, greedy_seats(rules))
    assert bazar.record.dumps(ours) == bazar.record.dumps(theirs)
    assert result is ours.result()
    assert stops == sum(len(rnd.moves) for rnd in ours.rounds)


# no other turn loop

ROOT = Path(__file__).resolve().parent.parent

#: what a turn loop reaches for to have a move chosen: a seat's or a bot's ``choose`` (called
#: or handed to an executor), a random ``choice`` of the legal moves, a person's ``input``
ASKS = {"choose", "choose_round", "choice", "input"}

#: loops that ask and push but are no seat loops: one round of bazar mirrored move by move
#: with a peer's own game (the ``dominoes`` package's, OpenSpiel's ``python_block_dominoes``),
#: whose players are not seats of a match
MIRRORS = {"benchmarks/dominoes_adapter.py", "benchmarks/vs_openspiel.py"}

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _names(nodes: list[ast.stmt]) -> set[str]:
    """The attributes and the functions by name that ``nodes`` use, nested definitions
    aside (a function defined in a loop is not the loop's body)."""
    found: set[str] = set()
    stack: list[ast.AST] = list(nodes)
    while stack:
        node = stack.pop()
        if isinstance(node, _DEFS):
            continue
        if isinstance(node, ast.Attribute):
            found.add(node.attr)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            found.add(node.func.id)
        stack.extend(ast.iter_child_nodes(node))
    return found


def turn_loops(source: str) -> list[int]:
    """The lines of the loops in ``source`` that, themselves or through the module's own
    functions and methods they call, have a move chosen and push it."""
    tree = ast.parse(source)
    uses: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            uses.setdefault(node.name, set()).update(_names(node.body))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.For | ast.While | ast.AsyncFor):
            continue
        reached: set[str] = set()
        todo = _names(node.body)
        while todo:
            name = todo.pop()
            reached.add(name)
            todo |= uses.get(name, set()) - reached
        if "push" in reached and reached & ASKS:
            found.append(node.lineno)
    return found


def test_the_turn_loop_finder_finds_a_loop_asking_and_pushing_even_through_methods() -> None:
    by_hand = (
        "def f(match, seats):\n"
        "    while not match.is_over():\n"
        "        view = match.view(match.turn)\n"
        "        match.push(seats[match.turn].choose(view, view.legal))\n"
    )
    actor = (
        "class Table:\n"
        "    async def loop(self):\n"
        "        while self.live:\n"
        "            await self.step()\n"
        "    async def step(self):\n"
        "        move = await run_in_executor(None, self.bot.choose, view, legal)\n"
        "        self.apply(move)\n"
        "    def apply(self, move):\n"
        "        self.match.push(move)\n"
    )
    assert turn_loops(by_hand) == [2] and turn_loops(actor) == [3]
    assert turn_loops("for move in record:\n    rnd.push(move)\n") == []


def test_no_turn_loop_exists_outside_core_play() -> None:
    files = [*ROOT.glob("bazar/**/*.py"), *ROOT.glob("benchmarks/*.py")]
    found = [
        f"{name}:{line}"
        for path in files
        if (name := str(path.relative_to(ROOT))) not in {"bazar/core/play.py", *MIRRORS}
        for line in turn_loops(path.read_text())
    ]
    assert not found


@pytest.mark.parametrize(
    ("path", "runs"),
    [
        ("bazar/arena.py", "play"),
        ("bazar/tournament/play.py", "play"),
        ("bazar/cli/play.py", "play"),
        ("bazar/cli/bench.py", "playout"),
        # the club steps the loop: a command pushes one move through turn() and answer()
        ("bazar/club/tablestate.py", "answer"),
        ("benchmarks/peers.py", "playout"),
    ],
)
def test_the_arena_the_terminal_the_club_and_the_benchmarks_run_core_play(
    path: str, runs: str
) -> None:
    imported = {
        alias.name
        for node in ast.walk(ast.parse((ROOT / path).read_text()))
        if isinstance(node, ast.ImportFrom) and node.module in ("bazar.core.play", "core.play")
        for alias in node.names
    }
    assert runs in imported
