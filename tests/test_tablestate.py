"""The table's rules as a state machine (bazar/club/tablestate.py), without a server: the
clock, the graces, take-back, the pause between rounds, the rematch window, deserted and
interrupted matches, and nothing told before it is stored. A small driver plays the actor:
it answers each write and each bot at once, or as a test says."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bazar.club import tablestate as ts
from bazar.club.errors import ServerError
from bazar.club.settings import Settings
from bazar.club.storage import TableRow
from bazar.core import record

PERSON = {"user": 1, "name": "Masha", "guest": False}
OTHER = {"user": 2, "name": "Vanya", "guest": False}


def bot(seat: int) -> dict[str, Any]:
    return {"bot": "random", "name": f"random bot {seat + 1}"}


def row(seats: list[Any], **fields: Any) -> TableRow:
    made = {"game": "kozel", "options": {"players": len(seats)}, "owner": 1}
    made |= {"move_time_s": 30, "rated": False, "access": "open", "invite": "x", "seed": 7}
    return TableRow(id="t1", seats=seats, status="playing", **(made | fields))


@dataclass
class Actor:
    """The effects of the state performed at once: a write is stored (or fails, while
    ``failing``), a bot answers with its first legal move. ``told``: every effect, in order."""

    state: ts.TableState
    now: float = 0.0
    failing: bool = False
    told: list[ts.Effect] = field(default_factory=list)
    stored: list[tuple[int, int, str]] = field(default_factory=list)
    #: moves told by a step that did not answer a write
    untimely: list[dict[str, Any]] = field(default_factory=list)

    def __call__(self, command: ts.Command) -> list[ts.Effect]:
        effects = self.state.step(command, self.now)
        if not isinstance(command, ts.Stored):
            self.untimely += emitted(effects, "move")
        done = list(effects)
        self.told += effects
        for effect in effects:
            answer: ts.Command | None = None
            if isinstance(effect, ts.Write | ts.Seats | ts.Finish):
                answer = self._write(effect)
            elif isinstance(effect, ts.Ask):
                answer = ts.Thought(effect.seat, effect.v, effect.legal[0])
            if answer is not None:
                done += self(answer)
        return done

    def _write(self, effect: ts.Write | ts.Seats | ts.Finish) -> ts.Command:
        if self.failing:
            return ts.Failed(ServerError("not_stored", 503))
        if isinstance(effect, ts.Write):
            self.stored.append((effect.n, effect.seat, effect.text))
            return ts.Stored()
        made = row(self.state.row.seats, **_fields(self.state.row))
        if isinstance(effect, ts.Seats):
            made.seats = effect.seats
        else:
            if effect.last is not None:
                self.stored.append(effect.last)
            made.status, made.ending = "finished", effect.ending
        return ts.Stored(made)

    def at(self, now: float) -> list[ts.Effect]:
        self.now = now
        return self(ts.Tick())


def _fields(r: TableRow) -> dict[str, Any]:
    keep = ("game", "options", "owner", "move_time_s", "rated", "access", "invite", "seed")
    return {k: getattr(r, k) for k in keep} | {"tournament": r.tournament}


def table(seats: list[Any], pause: float = 0.0, **fields: Any) -> Actor:
    state = ts.TableState(
        row(seats, **fields),
        Settings(round_pause_s=pause),
        bot_delay=0.5,
        grace_s=60.0,
        rematch_window_s=120.0,
    )
    actor = Actor(state)
    actor(ts.Start())
    return actor


def emitted(effects: list[ts.Effect], kind: str | None = None) -> list[dict[str, Any]]:
    return [e.event for e in effects if isinstance(e, ts.Emit) and kind in (None, e.event["t"])]


def refusals(effects: list[ts.Effect]) -> list[str]:
    return [e.error.code for e in effects if isinstance(e, ts.Refuse)]


def my_move(actor: Actor) -> str:
    """The first legal move of the seat to move."""
    match = actor.state.match
    assert match is not None
    return str(match.legal_moves()[0])


def to_my_turn(actor: Actor, seat: int = 0) -> None:
    """Let the bots move (their delay waited out) until it is ``seat``'s choice."""
    state = actor.state
    while state.live and not (state.match.turn == seat and state.pause is None):  # type: ignore[union-attr]
        actor.at(max(actor.now, state.wake_at()))
    assert state.live


# the start and a move


def test_the_start_tells_the_seats_and_the_first_round_and_the_bots_wait_their_delay() -> None:
    actor = table([PERSON, bot(1)])
    assert [e["t"] for e in emitted(actor.told)] == ["start", "round_start"]
    assert [e["v"] for e in actor.state.events] == [1, 2]
    state = actor.state
    if state.match.turn == 1:  # type: ignore[union-attr]
        assert not [e for e in actor.told if isinstance(e, ts.Ask)]
        assert state.wake_at() == 0.5
        assert [type(e) for e in actor.at(0.5)][:2] == [ts.Ask, ts.Write]
    else:
        assert state.wake_at() == 30.0  # the player's clock


def test_a_move_is_told_only_once_it_is_stored() -> None:
    actor = table([PERSON, bot(1)])
    to_my_turn(actor)
    state = actor.state
    v = state.v
    effects = state.step(ts.Submit("me", 0, my_move(actor), v), actor.now)
    # the write, nothing told: the versions have not moved
    assert [type(e) for e in effects] == [ts.Write] and state.v == v
    assert state.writing is not None
    told = state.step(ts.Stored(), actor.now)
    assert emitted(told, "move")[0]["v"] == v + 1 and emitted(told, "move")[0]["seat"] == 0


def test_a_move_the_database_refused_is_taken_back_and_refused_to_its_sender() -> None:
    actor = table([PERSON, bot(1)])
    to_my_turn(actor)
    state = actor.state
    before = record.dumps(state.match)  # type: ignore[arg-type]
    legal = [str(m) for m in state.match.legal_moves()]  # type: ignore[union-attr]
    actor.failing = True
    effects = actor(ts.Submit("me", 0, legal[0], state.v))
    assert refusals(effects) == ["not_stored"]
    assert [e.client for e in effects if isinstance(e, ts.Refuse)] == ["me"]
    assert not emitted(effects)
    assert record.dumps(state.match) == before  # type: ignore[arg-type]
    assert [str(m) for m in state.match.legal_moves()] == legal  # type: ignore[union-attr]


def test_requests_out_of_turn_stale_or_malformed_are_refused_with_their_codes() -> None:
    actor = table([PERSON, bot(1)])
    to_my_turn(actor)
    state = actor.state
    v = state.v
    assert refusals(actor(ts.Submit("me", 1, "draw", v))) == ["bot_seat"]
    assert refusals(actor(ts.Submit("me", 0, "six", v))) == ["malformed_move"]
    assert refusals(actor(ts.Submit("me", 0, "9-9:L", v))) == ["illegal_move"]
    assert refusals(actor(ts.Submit("me", 0, my_move(actor), v - 3))) == ["stale"]
    assert refusals(actor(ts.Back("me", 0))) == ["no_bot_for_you"]


def test_the_player_who_runs_out_of_time_is_replaced_by_a_bot_at_a_casual_table() -> None:
    actor = table([PERSON, bot(1)])
    to_my_turn(actor)
    started = actor.state.turn_started
    assert actor.state.wake_at() == started + 30
    actor.at(started + 29.9)
    assert 0 not in actor.state.bots
    effects = actor.at(started + 30)
    replaced = emitted(effects, "replaced")
    assert replaced and replaced[0]["why"] == "timeout" and replaced[0]["seat"] == 0
    assert actor.state.seat_info(0) == {
        "name": "Masha", "guest": False, "bot": ts.REPLACEMENT, "why": "timeout", "back": False
    }  # fmt: skip
    # stored with the seat, so that a restart rebuilds it
    assert actor.state.row.seats[0]["changes"][0]["t"] == "replaced"


def test_a_rated_player_out_of_time_interrupts_the_match() -> None:
    actor = table([PERSON, OTHER], rated=True)
    state = actor.state
    seat = state.match.turn  # type: ignore[union-attr]
    effects = actor.at(30.0)
    ends = emitted(effects, "match_end")
    assert ends and state.row.ending == {"timeout": seat} and not state.live


def test_a_player_away_past_his_grace_is_replaced_and_may_ask_his_seat_back() -> None:
    actor = table([PERSON, bot(1)])
    actor(ts.Attach(0, "socket"))
    notices = actor(ts.Detach(0))
    assert [e.event["t"] for e in notices if isinstance(e, ts.Notice)] == ["disconnected"]
    assert actor.state.graces() == {0: 60.0}
    replaced: list[dict[str, Any]] = []
    while not replaced:
        replaced = emitted(actor.at(actor.state.wake_at()), "replaced")
    assert replaced[0]["why"] in ("gone", "timeout")
    # he comes back and asks for it: his again the next time the seat is to move
    actor(ts.Attach(0, "socket"))
    assert emitted(actor(ts.Back("socket", 0)), "returning")
    back: list[dict[str, Any]] = []
    for _ in range(200):
        back += emitted(actor.at(max(actor.now, actor.state.wake_at())), "back")
        if back:
            break
    assert back and 0 not in actor.state.bots and actor.state.match.turn == 0  # type: ignore[union-attr]


def test_a_match_that_bots_alone_play_for_a_grace_is_deserted() -> None:
    actor = table([PERSON, bot(1)])
    actor(ts.Leave("me", 0))
    assert actor.state.replaced == {0: "gone"}
    ended: list[dict[str, Any]] = []
    for _ in range(2000):
        if not actor.state.live:
            break
        ended += emitted(actor.at(max(actor.now, actor.state.wake_at())), "match_end")
    # a random match may end by itself first; one not over within the grace is deserted
    ending = actor.state.row.ending
    assert ending in ({"deserted": True}, {"normal": True})
    if ending == {"deserted": True}:
        assert ended and actor.now >= 60.0


def test_the_pause_after_a_round_waits_for_the_players_here_until_each_has_seen_it() -> None:
    actor = table([PERSON, bot(1)], pause=10.0)
    actor(ts.Attach(0, "socket"))
    state = actor.state
    for _ in range(5000):
        if state.pause is not None or not state.live:
            break
        if state.match.turn == 0:  # type: ignore[union-attr]
            actor(ts.Submit("socket", 0, my_move(actor), state.v))
        else:
            actor.at(max(actor.now, state.wake_at()))
    if not state.live:
        return  # one round ended the match: no pause after the last round
    end = state.events[-2] if state.events[-1]["t"] == "round_start" else state.events[-1]
    assert end["t"] == "round_end" and end["next_in_s"] == 10.0 and end["waiting"] == [0]
    assert state.wake_at() == state.pause.until  # type: ignore[union-attr]
    if state.match.turn == 0:  # type: ignore[union-attr]
        refused = actor(ts.Submit("socket", 0, my_move(actor), state.v))
        assert refusals(refused) == ["round_pause"]
    seen = actor(ts.Next("socket", 0))
    kinds = [e.event["t"] for e in seen if isinstance(e, ts.Notice)]
    assert kinds[:2] == ["seen", "pause_end"] and state.pause is None


def test_after_the_end_the_table_waits_for_a_rematch_while_watched_then_closes() -> None:
    actor = table([PERSON, bot(1)], options={"players": 2, "limit": 1})
    actor(ts.Attach(None, "spectator"))
    state = actor.state
    for _ in range(5000):
        if not state.live:
            break
        if state.match.turn == 0:  # type: ignore[union-attr]
            actor(ts.Submit("x", 0, my_move(actor), state.v))
        else:
            actor.at(max(actor.now, state.wake_at()))
    assert state.row.status == "finished" and state.rematch_closes == actor.now + 120.0
    assert emitted(actor.told, "match_end")
    assert refusals(actor(ts.Submit("x", 0, "draw", state.v))) == ["match_over"]
    assert state.wake_at() == state.rematch_closes
    assert not [e for e in actor.at(actor.now + 60) if isinstance(e, ts.Close)]
    assert [e for e in actor(ts.Detach(None)) if isinstance(e, ts.Close)]
    assert state.closed and state.wake_at() == math.inf


# the invariants, over random commands


COMMANDS = st.lists(
    st.tuples(
        st.sampled_from(["tick", "move", "bad", "attach", "detach", "back", "leave", "next"]),
        st.integers(0, 1),
        st.floats(0, 40),
        st.booleans(),
    ),
    max_size=60,
)


@settings(max_examples=60, deadline=None)
@given(COMMANDS, st.sampled_from(["kozel", "fives", "mexican-train", "kolbasa"]))
def test_random_commands_keep_the_table_s_invariants(commands: list[Any], game: str) -> None:
    options: dict[str, Any] = {"players": 2}
    if game == "mexican-train":
        options |= {"set_max": 6, "hand_size": 7}
    actor = table([PERSON, bot(1)], pause=5.0, game=game, options=options)
    state = actor.state
    moves_told = 0
    for kind, seat, wait, fail in commands:
        actor.failing = fail and kind in ("tick", "move")
        actor.now += wait
        seat_moving = state.match.turn if state.live else None  # type: ignore[union-attr]
        if kind == "tick":
            effects = actor(ts.Tick())
        elif kind == "move":
            text = my_move(actor) if state.live else "draw"
            effects = actor(
                ts.Submit("c", seat_moving if seat_moving is not None else 0, text, state.v)
            )
        elif kind == "bad":
            effects = actor(ts.Submit("c", seat, "9-9:L", None))
        elif kind == "attach":
            effects = actor(ts.Attach(seat, "c"))
        elif kind == "detach":
            effects = actor(ts.Detach(seat)) if state.present[seat] else []
        elif kind == "back":
            effects = actor(ts.Back("c", seat))
        elif kind == "leave":
            effects = actor(ts.Leave("c", seat))
        else:
            effects = actor(ts.Next("c", seat))
        moves_told += len(emitted(effects, "move"))
        # versions are contiguous from 1
        assert [e["v"] for e in state.events] == list(range(1, state.v + 1))
        # no move is told before it is stored, and every move stored is told
        assert not actor.untimely and moves_told == len(actor.stored)
        # each seat is a person's, or a bot's (a person's seat a bot plays is a replaced one)
        for s, held in enumerate(state.row.seats):
            assert held is not None
            assert (s in state.bots) == (bool(held.get("bot")) or s in state.replaced)
        assert set(state.returning) <= set(state.replaced)
        # what is told of a hand: never another seat's tiles but at a round's end
        if state.match is not None:
            hands = state.match.round.hands if hasattr(state.match.round, "hands") else []
            for event in emitted(effects):
                if event["t"] in ("round_end", "match_end", "move"):
                    continue
                text = json.dumps(event)
                for hand in hands:
                    assert not any(f'"{t}"' in text for t in hand), event
        assert state.writing is None  # the driver answers every write at once
