"""The rules of a table of the club, as a state machine: synchronous, no asyncio, no I/O.

:class:`TableState` takes typed commands (a socket opened or closed, a move sent, a seat asked
back, the round's end seen, a bot's answer, a write's result, time passing) with the time
they happen at, and answers each with typed effects for its actor to perform: a versioned
event for every audience (:class:`Emit`), a notice that is no part of the game
(:class:`Notice`), a refusal to one client (:class:`Refuse`), a write to store
(:class:`Write`), a bot to ask (:class:`Ask`), the lobby to tell (:class:`Changed`), the
table to leave memory (:class:`Close`). When it wants to be looked at again it says when
(:meth:`TableState.wake_at`). Everything online-club.md's table enforces lives here once:
the clock, the graces, take-back, the pause between rounds, the rematch window, deserted
matches, the rated interruption.

Nothing is told before it is stored: a move, a change of hands and the end of a match are a
:class:`Write` first, and only the :class:`Stored` that answers it makes them and tells of
them. While a write is out, the actor feeds nothing else but its answer (at most one write at
a time, :attr:`TableState.writing`).

The moves are pushed through the one seat loop's two steps (:func:`~bazar.core.play.turn` and
:func:`~bazar.core.play.answer`), which the arena and the terminal drive too.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bazar import bots as botlib
from bazar.core.match import Match
from bazar.core.moves import Move
from bazar.core.play import Event, MatchEnded, Moved, RoundEnded, RoundStarted, answer, forced
from bazar.core.play import turn as turn_of
from bazar.core.round import deal_seed
from bazar.core.rules import Rules
from bazar.core.rules import rules as make_rules
from bazar.core.scoring import hand_value
from bazar.core.view import View
from bazar.tournament.record import places

from .errors import ServerError
from .fairness import seed_hash
from .settings import Settings
from .storage import TableRow

__all__ = [
    "POSITION_EVENTS",
    "RELOAD_S",
    "REPLACEMENT",
    "Ask",
    "Attach",
    "Back",
    "Changed",
    "Close",
    "Command",
    "Detach",
    "Effect",
    "Emit",
    "Failed",
    "Finish",
    "Leave",
    "Next",
    "Notice",
    "Refuse",
    "Seats",
    "Start",
    "Step",
    "Stored",
    "Submit",
    "TableError",
    "TableState",
    "Thought",
    "Tick",
    "Write",
    "rules_of",
]

#: the events that change what a seat may decide: a move sent before one of them is stale
POSITION_EVENTS = ("move", "replaced", "match_end")

#: the bot that takes the seat of a casual player who timed out or is gone
REPLACEMENT = "greedy"

#: seconds a player's page may be closed during the pause between rounds and still be waited
#: for: a page reloaded comes back within them
RELOAD_S = 3.0


class TableError(ServerError):
    """A request the table refuses; it goes back to that client only."""


def rules_of(row: TableRow) -> Rules:
    options = dict(row.options)
    players = options.pop("players", len(row.seats))
    return make_rules(row.game, players=players, **options)


# -- commands ------------------------------------------------------------------------------
#
# ``client`` in a command is whoever sent it, opaque here: the refusal it earns goes back to it


@dataclass(frozen=True, slots=True)
class Start:
    """The seats are full: deal the match."""


@dataclass(frozen=True, slots=True)
class Attach:
    """A socket of ``seat`` (None: a spectator's) opened: its player is at the table.
    ``client`` is told nothing of his own return (his sync tells him)."""

    seat: int | None
    client: object = None


@dataclass(frozen=True, slots=True)
class Detach:
    """A socket of ``seat`` closed."""

    seat: int | None


@dataclass(frozen=True, slots=True)
class Submit:
    """The player of ``seat`` sends the move ``text``, chosen at version ``v`` (None: not
    checked)."""

    client: object
    seat: int
    text: str
    v: int | None = None


@dataclass(frozen=True, slots=True)
class Back:
    """The player of ``seat``, which a bot plays, asks for it back."""

    client: object
    seat: int


@dataclass(frozen=True, slots=True)
class Leave:
    """The player of ``seat`` leaves the match under way: a bot takes his seat at once."""

    client: object
    seat: int


@dataclass(frozen=True, slots=True)
class Next:
    """The player of ``seat`` has seen the round's end."""

    client: object
    seat: int


@dataclass(frozen=True, slots=True)
class Thought:
    """The bot of ``seat`` answered ``move`` to the :class:`Ask` of version ``v``; ``bot``:
    the bot as it is after thinking (its random source moved on, thought in another process),
    instead of ``asked``, or None (``asked`` itself moved on)."""

    seat: int
    v: int
    move: Move
    asked: botlib.Bot | None = None
    bot: botlib.Bot | None = None


@dataclass(frozen=True, slots=True)
class Tick:
    """Time passed: the clocks, graces and pauses are looked at."""


@dataclass(frozen=True, slots=True)
class Stored:
    """The write out was made; ``row``: the table's row as it is now stored (None: a move's
    write, which does not change it)."""

    row: TableRow | None = None


@dataclass(frozen=True, slots=True)
class Failed:
    """The write out was not made (:class:`~bazar.club.storage.NotStored`)."""

    error: ServerError


Command = Start | Attach | Detach | Submit | Back | Leave | Next | Thought | Tick | Stored | Failed


# -- effects -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Emit:
    """Tell every audience ``event``, version ``event["v"]``, with the view its seat has now."""

    event: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Notice:
    """Tell every listening client but ``but`` of a change that is no part of the game."""

    event: dict[str, Any]
    but: object = None


@dataclass(frozen=True, slots=True)
class Refuse:
    """Tell ``client`` its request was refused, and why."""

    client: object
    error: ServerError


@dataclass(frozen=True, slots=True)
class Write:
    """Store a move: the ``n``-th of the match (from 0), ``seat``'s ``text``."""

    n: int
    seat: int
    text: str


@dataclass(frozen=True, slots=True)
class Seats:
    """Store the table's ``seats`` (a change of hands recorded with its seat)."""

    seats: list[Any]


@dataclass(frozen=True, slots=True)
class Finish:
    """Store the end of ``match`` (``ending``), with its ``last`` move (n, seat, text) if it
    ended on one, its record and its ratings, in one transaction."""

    match: Match
    ending: dict[str, Any]
    last: tuple[int, int, str] | None = None


@dataclass(frozen=True, slots=True)
class Ask:
    """Ask the bot of ``seat`` for its move from ``view``; answer with :class:`Thought` of
    version ``v``."""

    seat: int
    v: int
    view: View
    legal: tuple[Move, ...]


@dataclass(frozen=True, slots=True)
class Changed:
    """What the lobby lists of the table changed (it ended, a bot took a seat)."""


@dataclass(frozen=True, slots=True)
class Close:
    """The match is over and nobody waits for a rematch any more: the table leaves memory."""


Effect = Emit | Notice | Refuse | Write | Seats | Finish | Ask | Changed | Close
Step = list[Effect]


@dataclass
class Pause:
    """The wait after a round's end: until ``until``, or until no seat of ``waiting`` (the
    seated players whose page was open) has a page open and not said next."""

    until: float
    waiting: set[int]


@dataclass
class _Out:
    """The write out, and what its :class:`Stored` makes: a move of ``seat`` (``asked``
    from ``client``, None for the table's own), a change of hands, or the end."""

    kind: str  # "move", "finish", "seats"
    seat: int = -1
    move: Move | None = None
    client: object = None
    change: tuple[str, str | None] | None = None
    #: the end of the match stored by a give-up or a desertion is told (one a restart
    #: finds unstored is not: its moves told it)
    told: bool = True
    #: what the move did, told once it is stored
    held: list[Event] = field(default_factory=list)
    #: where the match stood before the move, to take it back (:meth:`Match.back_to`)
    undo: tuple[int, Any] | None = None


@dataclass
class TableState:
    """One table: its row, its match once dealt, its log of events and who is at it."""

    row: TableRow
    settings: Settings = field(default_factory=Settings)
    bot_delay: float = 0.5
    unwatched_bot_delay: float = 0.0
    grace_s: float = 60.0
    rematch_window_s: float = 120.0
    #: the tournament whose match this is, as the table says of it, or None
    badge: dict[str, Any] | None = None
    now: float = 0.0

    def __post_init__(self) -> None:
        self.rules = rules_of(self.row)
        #: the match as it is played, and a copy made after each move: what other threads read
        self.match: Match | None = None
        self.published: Match | None = None
        self.made = 0
        self.events: list[dict[str, Any]] = []
        #: the bots at the table, a player's seat a bot plays among them: seat -> bot
        self.bots: dict[int, botlib.Bot] = {}
        #: the sockets open, by seat (None: spectators)
        self.present: Counter[int | None] = Counter()
        #: the players with no open socket: seat -> since when
        self.gone: dict[int, float] = {}
        #: the players' seats a bot plays: seat -> why ("timeout" or "gone")
        self.replaced: dict[int, str] = {}
        #: those whose player asked for them back: his again the next time they are to move
        self.returning: set[int] = set()
        #: since when a bot plays every player's seat and none of them is here
        self.deserted: float | None = None
        kept = self.row.reserved or {}
        self.reserved: dict[int, tuple[int, str]] = {
            int(seat): (int(user), str(name))
            for seat, (user, name) in kept.get("seats", {}).items()
        }
        #: (the row says when in wall-clock time: a monotonic time here)
        self.reserved_until = self.now + float(kept.get("until", 0.0)) - time.time()
        self.turn_started = self.now
        self.pause: Pause | None = None
        #: when the finished match's players may no longer ask for a rematch
        self.rematch_closes: float | None = None
        #: the write out, if any; and when a write of the table's own may be tried again
        self.writing: _Out | None = None
        self.retry_at = -math.inf
        #: the version a bot was asked at and has not answered yet
        self.asked: int | None = None
        self.closed = False
        self._out: Step = []
        #: each seat's view as JSON, with the view it was made of
        self._json: dict[int | None, tuple[View, dict[str, Any], dict[str, Any]]] = {}

    # -- reading ---------------------------------------------------------------------------

    @property
    def v(self) -> int:
        return len(self.events)

    @property
    def live(self) -> bool:
        """Whether the match is being played (dealt, not over, not interrupted)."""
        return self.match is not None and not self.match.is_over() and self.row.status == "playing"

    def seat_of(self, user_id: int) -> int | None:
        for i, s in enumerate(self.row.seats):
            if s is not None and s.get("user") == user_id:
                return i
        return None

    def reservations(self) -> dict[int, tuple[int, str]]:
        """The empty seats kept for a rematch's players while they may still accept it."""
        if self.row.status != "open" or self.now >= self.reserved_until:
            return {}
        return {i: who for i, who in self.reserved.items() if self.row.seats[i] is None}

    def graces(self) -> dict[int, float]:
        """The seconds each gone player has left to come back, by seat."""
        return {
            seat: max(0.0, self.grace_s - (self.now - since))
            for seat, since in sorted(self.gone.items())
        }

    def rematch_left(self) -> float | None:
        if self.rematch_closes is None:
            return None
        return round(max(0.0, self.rematch_closes - self.now), 1)

    def seat_info(self, seat: int) -> dict[str, Any] | None:
        s = self.row.seats[seat]
        if s is None:
            return None
        # a guest's name is not his alone: wherever it is shown, he is marked as a guest
        who = {"name": s["name"], "guest": bool(s.get("guest"))}
        if seat not in self.replaced:
            return {**who, "bot": s.get("bot")}
        # a bot plays for this player: why, and whether he asked for the seat back
        why, back = self.replaced[seat], seat in self.returning
        return {**who, "bot": REPLACEMENT, "why": why, "back": back}

    def info(self) -> dict[str, Any]:
        row = self.row
        listing = None
        with contextlib.suppress(Exception):
            listing = self.rules.notation()
        pause = self.pause
        return {
            "id": row.id,
            "game": row.game,
            "players": len(row.seats),
            "options": self.rules.options(),
            "listing": listing,
            "seats": [self.seat_info(seat) for seat in range(len(row.seats))],
            "reserved": [
                {"seat": seat, "name": name} for seat, (_, name) in self.reservations().items()
            ],
            "move_time_s": row.move_time_s,
            "rated": row.rated,
            "access": row.access,
            "status": row.status,
            "ending": row.ending,
            "away": [
                {"seat": seat, "left_s": round(left, 1)} for seat, left in self.graces().items()
            ],
            "pause": None
            if pause is None
            else {"left_s": round(self._left(pause), 1), "waiting": sorted(pause.waiting)},
            "rematch_left_s": self.rematch_left(),
            "v": self.v,
            **({"tournament": self.badge} if self.badge is not None else {}),
        }

    def clock(self) -> dict[str, Any] | None:
        if not self.live:
            return None
        assert self.match is not None
        if self.pause is not None:
            # the clock starts once the pause is over, with the whole move time
            return {
                "seat": self.match.turn,
                "left_s": self.row.move_time_s,
                "starts_in_s": round(self._left(self.pause), 1),
            }
        left = self.row.move_time_s - (self.now - self.turn_started)
        return {"seat": self.match.turn, "left_s": round(max(0.0, left), 1)}

    def round_number(self) -> int | None:
        """The number of the round the views show (the next one as soon as one ends)."""
        return None if self.match is None else self.match.round.number

    def view_json(self, seat: int | None, rules: bool = True) -> dict[str, Any] | None:
        """What ``seat`` sees now, as JSON (made once a position and seat); without its
        ``rules``, which never change (an event's view: the sync's has them)."""
        match = self.match
        if match is None:
            return None
        view = match.view(seat)
        made = self._json.get(seat)
        if made is None or made[0] is not view:
            whole = view.to_json()
            made = self._json[seat] = (
                view,
                whole,
                {k: v for k, v in whole.items() if k != "rules"},
            )
        return made[1] if rules else made[2]

    def current(self, v: object) -> bool:
        """Whether a move sent from version ``v`` saw the position as it is: no move was made
        since (the events after a round's last move -- its end, the next deal's commitment --
        change nothing a player decides on, and arrive in the same instant)."""
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= self.v:
            return False
        return all(event.get("t") not in POSITION_EVENTS for event in self.events[v:])

    def bot_pause(self) -> float:
        """How long a bot waits before its move: the club's delay, and longer while nobody
        watches (a match of bots alone for a while is no race)."""
        if self.present.total():
            return self.bot_delay
        return max(self.bot_delay, self.unwatched_bot_delay)

    def wake_at(self) -> float:
        """When the table is to be looked at again (:class:`Tick`); inf: not before a
        command comes."""
        if self.writing is not None or self.closed:
            return math.inf
        if self.match is None:
            return math.inf
        if not self.live:
            # (once the end is stored the table waits for whoever may ask for a rematch)
            if self._unfinished() or self.rematch_closes is None or not self.present.total():
                return self.now
            return self.rematch_closes
        if self.retry_at > self.now:
            return self.retry_at
        times = [since + self.grace_s for since in self.gone.values()]
        if self.deserted is not None:
            times.append(self.deserted + self.grace_s)
        if self.pause is not None:
            times.append(self.pause.until)
            times += [s + RELOAD_S for seat, s in self.gone.items() if seat in self.pause.waiting]
            return min(times)
        seat = self.match.turn
        if seat in self.bots:
            if self.asked is None:
                times.append(self.turn_started + self.bot_pause())
        else:
            times.append(self.turn_started + self.row.move_time_s)
        return min(times, default=math.inf)

    # -- the one entry ---------------------------------------------------------------------

    def step(self, command: Command, now: float) -> Step:
        """Take ``command`` at ``now`` (monotonic seconds): the effects to perform, in order.
        While a write is out (:attr:`writing`), only its :class:`Stored` or :class:`Failed`
        may come."""
        self.now = now
        out: Step = []
        self._out = out
        if self.writing is not None:
            assert isinstance(command, Stored | Failed), f"{command} while a write is out"
        match command:
            case Stored():
                self._stored(command)
            case Failed(error=error):
                self._failed(error)
            case Start():
                self.start()
            case Attach(seat=seat, client=client):
                self._attach(seat, client)
            case Detach(seat=seat):
                self.present[seat] -= 1
                if self.present[seat] <= 0:
                    del self.present[seat]
                self._look_at_seats()
            case Thought():
                self._thought(command)
            case Tick():
                pass
            case _:
                self._request(command)
        self._advance()
        self._out = []
        return out

    def _emit(self, event: dict[str, Any]) -> None:
        event["v"] = self.v + 1
        self.events.append(event)
        self._out.append(Emit(event))

    def _notify(self, event: dict[str, Any], but: object = None) -> None:
        self._out.append(Notice(event, but))

    def notice(self, event: dict[str, Any]) -> Notice:
        """A notice the club makes of the table (a rematch asked for, the table closed)."""
        return Notice(event)

    # -- starting and restoring ------------------------------------------------------------

    def start(self) -> None:
        """Deal the match (the seats are full) and announce the first round."""
        self.match = Match(self.rules, seed=self.row.seed)
        self.published = self.match.copy()
        #: the moves made in the match
        self.made = 0
        for i, s in enumerate(self.row.seats):
            if s is not None and s.get("bot"):
                self.bots[i] = botlib.make(s["bot"], seed=self.row.seed + i)
        self.turn_started = self.now
        self._emit({"t": "start", "seats": self.info()["seats"]})
        self._emit_round_start()
        self._look_at_seats()

    def restore(self, moves: list[str], now: float) -> None:
        """Rebuild the match and the event log from the stored moves (after a restart)."""
        self.now = now
        self._out = []
        self.start()
        assert self.match is not None
        # the seats' changes of hands, in the order they were announced, by the number of
        # moves made when they were (several may come between two moves)
        changes: dict[int, list[tuple[int, str, str | None]]] = {}
        for _, at, seat, kind, why in sorted(
            (c["v"], c["at"], seat, c["t"], c.get("why"))
            for seat, s in enumerate(self.row.seats)
            for c in (s or {}).get("changes", ())
        ):
            changes.setdefault(at, []).append((seat, kind, why))
        for n in range(len(moves) + 1):
            for seat, kind, why in changes.get(n, ()):
                self._hand_over(seat, kind, why)
            if n < len(moves):
                self._push(self.match_move(moves[n]), replayed=True)
        if self.row.ending is not None and self.row.status == "finished":
            self._emit({"t": "match_end", **self._result()})
            self.rematch_closes = now + self.rematch_window_s
        self.published = self.match.copy()
        # nobody watched the replay: nobody waits for the next round
        self.pause = None
        self._out = []

    def _emit_round_start(self) -> None:
        assert self.match is not None
        number = self.match.round.number
        seed = seed_hash(deal_seed(self.row.seed, number))
        self._emit({"t": "round_start", "number": number, "seed_hash": seed})

    # -- who is at the table ---------------------------------------------------------------

    def _attach(self, seat: int | None, client: object) -> None:
        self.present[seat] += 1
        self._look_at_seats(client)

    def _look_at_seats(self, newcomer: object = None) -> None:
        """Start the grace of each player whose last socket closed; end it for one back (and
        tell the others: the ``newcomer`` hears its own news in its sync)."""
        if not self.live:
            return
        for seat, s in enumerate(self.row.seats):
            if s is None or seat in self.bots:
                continue
            here = self.present[seat] > 0
            if here and seat in self.gone:
                del self.gone[seat]
                self._notify({"t": "reconnected", "seat": seat, "name": s["name"]}, newcomer)
            elif not here and seat not in self.gone:
                self.gone[seat] = self.now
                self._notify(
                    {"t": "disconnected", "seat": seat, "name": s["name"], "grace_s": self.grace_s}
                )

    # -- requests --------------------------------------------------------------------------

    def _request(self, command: Submit | Back | Leave | Next) -> None:
        try:
            if self.match is None:
                raise TableError("not_started")
            if not self.live:
                raise TableError("match_over")
            match command:
                case Leave(seat=seat):
                    # one who says he leaves is one whose grace is over now
                    if seat in self.bots:
                        raise TableError("bot_seat")
                    self._give_up(seat, "gone", command.client)
                case Back(seat=seat):
                    if seat not in self.replaced:
                        raise TableError("no_bot_for_you")
                    if seat not in self.returning:
                        self._change_hands(seat, "returning", None, command.client)
                case Next(seat=seat):
                    self._seen(seat)
                case Submit(seat=seat, text=text, v=v):
                    if seat in self.bots:
                        raise TableError("bot_seat")
                    if self.pause is not None:
                        raise TableError("round_pause", left_s=round(self._left(self.pause)))
                    if self.match.turn != seat:
                        raise TableError("not_your_turn", seat=self.match.turn)
                    if v is not None and not self.current(v):
                        raise TableError("stale", v=self.v, yours=v)
                    self._store_move(seat, self.match_move(text), command.client)
        except TableError as error:
            self._out.append(Refuse(command.client, error))

    def match_move(self, text: str) -> Move:
        """The legal move ``text`` names, or TableError."""
        assert self.match is not None
        try:
            wanted = str(Move.parse(text))
        except ValueError as error:
            raise TableError("malformed_move", move=text, reason=str(error)) from None
        legal = self.match.legal_moves()
        for move in legal:
            if str(move) == wanted:
                return move
        raise TableError("illegal_move", move=text, legal=", ".join(str(m) for m in legal))

    def _seen(self, seat: int) -> None:
        """A player has seen the round's end: the others hear who is still looking."""
        if self.pause is None or seat not in self.pause.waiting:
            return
        self.pause.waiting.discard(seat)
        name = self.row.seats[seat]["name"]
        waiting = sorted(self.pause.waiting)
        self._notify({"t": "seen", "seat": seat, "name": name, "waiting": waiting})

    def _thought(self, command: Thought) -> None:
        """A bot's answer: made if it answers the position as it is and the seat is still
        that bot's to play."""
        if command.v != self.asked:
            return
        self.asked = None
        seat = command.seat
        if command.bot is not None and self.bots.get(seat) is command.asked:
            self.bots[seat] = command.bot
        if self.live and self.match is not None and self.match.turn == seat and seat in self.bots:
            self._store_move(seat, command.move, None)

    # -- the play --------------------------------------------------------------------------

    def _advance(self) -> None:
        """Do what the table does of itself now: give up the gone, end a deserted match, end
        the pause, hand a seat back, make a forced move, give up a player out of time, ask a
        bot whose delay is over; stop at the first write (its answer goes on) or when
        everything waits for a command or for :meth:`wake_at`."""
        if self.writing is not None or self.match is None or self.closed:
            return
        if not self.live:
            self._linger()
            return
        if self.now < self.retry_at:
            return
        for away in [s for s, left in self.graces().items() if left <= 0]:
            self.gone.pop(away, None)
            self._give_up(away, "gone", None)
            return
        if self._is_deserted():
            self._finish({"deserted": True})
            return
        if self._pausing():
            return
        seat = self.match.turn
        assert seat is not None
        if seat in self.returning:
            self._change_hands(seat, "back", None, None)
            return
        elapsed = self.now - self.turn_started
        if seat in self.bots:
            if self.asked is None and elapsed >= self.bot_pause():
                asked = turn_of(self.match)
                assert asked is not None
                self.asked = self.v
                self._out.append(Ask(seat, self.v, asked.view, asked.legal))
            return
        legal = self.match.legal_moves()
        lone = forced(legal)
        if lone is not None:
            self._store_move(seat, lone, None)
        elif elapsed >= self.row.move_time_s:
            self._give_up(seat, "timeout", None)

    def _unfinished(self) -> bool:
        """Whether the stored moves end the match but its end is not stored (a crash
        between the two, before they were stored together)."""
        return self.match is not None and self.match.is_over() and self.row.status == "playing"

    def _linger(self) -> None:
        """After the end: the table waits while somebody watches and a rematch may still be
        asked for, then leaves memory."""
        if self._unfinished():
            self._finish({"normal": True}, told=False)
            return
        if self.rematch_closes is None:
            self.rematch_closes = self.now + self.rematch_window_s
        if not self.present.total() or self.now >= self.rematch_closes:
            self.closed = True
            self._out.append(Close())

    def _pausing(self) -> bool:
        """Whether the pause between rounds goes on; its end is told (with the clock, which
        starts now)."""
        pause = self.pause
        if pause is None:
            return False
        pause.waiting -= {s for s, since in self.gone.items() if self.now - since >= RELOAD_S}
        if pause.waiting and self._left(pause) > 0:
            return True
        self.pause = None
        self.turn_started = self.now
        self._notify({"t": "pause_end"})
        return False

    def _left(self, pause: Pause) -> float:
        return max(0.0, pause.until - self.now)

    def _is_deserted(self) -> bool:
        """Whether bots alone have played the match for a grace: a bot plays every player's
        seat, nobody asked for his back, and no player's socket is open."""
        people = [i for i, s in enumerate(self.row.seats) if s is not None and s.get("user")]
        if not people:
            # a tournament's match between bots: nobody was to be here
            return False
        alone = all(i in self.replaced and i not in self.returning for i in people)
        if not alone or any(self.present[i] > 0 for i in people):
            self.deserted = None
            return False
        if self.deserted is None:
            self.deserted = self.now
        return self.now - self.deserted >= self.grace_s

    def _moves_made(self) -> int:
        return self.made

    def _store_move(self, seat: int, move: Move, client: object) -> None:
        """Push ``move`` of ``seat`` through the seat loop's step, what it did held back,
        and store it: the last one with the end of the match, its record and its ratings, in
        one transaction. Its :class:`Stored` tells what it did; :class:`Failed` takes it back
        (nothing reads the match meanwhile but the write)."""
        match = self.match
        assert match is not None
        n = self._moves_made()
        asked = turn_of(match)
        assert asked is not None
        undo = match.point()
        held: list[Event] = []
        answer(match, asked, move, held.append)
        self.asked = None
        if match.is_over():
            self.writing = _Out("finish", seat, move, client, held=held, undo=undo)
            self._out.append(Finish(match, {"normal": True}, (n, seat, str(move))))
        else:
            self.writing = _Out("move", seat, move, client, held=held, undo=undo)
            self._out.append(Write(n, seat, str(move)))

    def _give_up(self, seat: int, why: str, client: object) -> None:
        """A player who ran out of time (``why`` "timeout") or stayed away past the grace
        ("gone"): rated, or in a tournament, the match is interrupted; casual, a bot plays
        the seat until he takes it back."""
        if self.row.rated or self.row.tournament is not None:
            ending: dict[str, Any] = {"timeout": seat}
            if why == "gone":
                ending["gone"] = True
            self._finish(ending, client)
            return
        self._change_hands(seat, "replaced", why, client)

    def _finish(self, ending: dict[str, Any], client: object = None, told: bool = True) -> None:
        """Store the end of the match as it is (interrupted, deserted, or ended by stored
        moves whose end was not stored); ``told``: its end is then announced."""
        assert self.match is not None
        self.writing = _Out("finish", client=client, told=told)
        self._out.append(Finish(self.match, ending))

    def _change_hands(self, seat: int, kind: str, why: str | None, client: object) -> None:
        """Store a change of hands with the seat (the database first), then make it."""
        change: dict[str, Any] = {"t": kind, "at": self._moves_made(), "v": self.v + 1}
        if why is not None:
            change["why"] = why
        seats = list(self.row.seats)
        s = seats[seat]
        seats[seat] = {**s, "changes": [*s.get("changes", ()), change]}
        self.writing = _Out("seats", seat, client=client, change=(kind, why))
        self._out.append(Seats(seats))

    def _stored(self, command: Stored) -> None:
        out, self.writing = self.writing, None
        assert out is not None
        if command.row is not None:
            self.row = command.row
        if out.kind == "seats":
            assert out.change is not None
            self._hand_over(out.seat, *out.change)
            self._out.append(Changed())
            return
        if out.kind == "finish":
            self.gone.clear()
            self.pause = None
            self.rematch_closes = self.now + self.rematch_window_s
            self._out.append(Changed())
        if out.move is not None:
            for event in out.held:
                self._told(event)
        elif out.told:
            self._emit({"t": "match_end", **self._result()})
        self.published = self.match.copy() if self.match is not None else None

    def _failed(self, error: ServerError) -> None:
        """The write was not made, so nothing is: a client's request is refused to it; what
        the table does of itself is tried again after a while."""
        out, self.writing = self.writing, None
        assert out is not None
        if out.undo is not None and self.match is not None:
            self.match.back_to(out.undo)
        if out.client is not None:
            self._out.append(Refuse(out.client, error))
        else:
            self.retry_at = self.now + self.settings.db_retry_s

    def _push(self, move: Move, replayed: bool = False) -> None:
        """Push the stored ``move`` through the seat loop's step and tell what it did."""
        assert self.match is not None
        asked = turn_of(self.match)
        assert asked is not None
        self.asked = None
        answer(self.match, asked, move, self._replayed if replayed else self._told)

    def _replayed(self, event: Event) -> None:
        """What ``restore`` replays is announced as it was, but for the end of the match,
        which its stored ending tells."""
        if not isinstance(event, MatchEnded):
            self._told(event)

    def _told(self, event: Event) -> None:
        """Announce what the seat loop did: a move, the rounds it ended and began, the end."""
        if isinstance(event, Moved):
            self.made += 1
            self.turn_started = self.now
            # what the page's log says of the move: the open ends it was laid against, and
            # whether the table made it for a player, his lone draw or pass
            told: dict[str, Any] = {"t": "move", "seat": event.seat, "move": str(event.move)}
            told["ends"] = dict(event.view.ends)
            if event.seat not in self.bots and forced(event.view.legal) is not None:
                told["forced"] = True
            self._emit(told)
        elif isinstance(event, RoundEnded):
            self.pause = self._pause_after()
            self._emit(self._round_end(event))
        elif isinstance(event, RoundStarted):
            self._emit_round_start()
        else:
            self._emit({"t": "match_end", **self._result()})

    def _round_end(self, event: RoundEnded) -> dict[str, Any]:
        outcome = event.outcome.to_json()
        seed = deal_seed(self.row.seed, event.round.number)
        return {
            "t": "round_end",
            "number": event.round.number,
            "outcome": outcome,
            # the position the round ended in, as a spectator sees it, and each hand the
            # rules turn face up at its end (None: one they keep hidden, a folded poker hand)
            "final": {
                "view": View.of(event.round, None, event.after.public()).to_json(),
                "hands": outcome["remaining"],
                # what each hand counts, its special tiles at their worth
                "values": [
                    None if hand is None else hand_value(self.rules, hand)
                    for hand in event.outcome.remaining
                ],
            },
            # the seconds the table waits before the next round (0: it does not), and the
            # seats it waits for
            "next_in_s": 0 if self.pause is None else self.settings.round_pause_s,
            "waiting": [] if self.pause is None else sorted(self.pause.waiting),
            # the scores the round was dealt with: the match's ledger has taken in the
            # points scored during play (Fives), part of this round's result
            "before": event.before.public(),
            "after": event.after.public(),
            # a string: JavaScript numbers lose the low digits of a 64-bit seed
            "seed": str(seed),
            "seed_hash": seed_hash(seed),
        }

    def _pause_after(self) -> Pause | None:
        """The pause after a round's end: none after the match's last round, nor with no
        seated player here to see it (a bot does not need to look)."""
        assert self.match is not None
        if self.match.is_over() or self.settings.round_pause_s <= 0:
            return None
        waiting = {s for s in self.present if s is not None and s not in self.bots}
        if not waiting:
            return None
        return Pause(self.now + self.settings.round_pause_s, waiting)

    def _hand_over(self, seat: int, kind: str, why: str | None) -> None:
        """Make and announce a change of hands (live, or replayed by ``restore``): a bot takes
        the seat ("replaced", ``why`` it did), its player asks for it back ("returning") or
        has it back ("back", with a full clock)."""
        if kind == "replaced":
            assert why is not None
            self.bots[seat] = botlib.make(REPLACEMENT, seed=self.row.seed + seat)
            self.replaced[seat] = why
            self.gone.pop(seat, None)
            if self.asked is not None:
                self.asked = None  # a bot asked for another seat answers in vain: ask again
        elif kind == "returning":
            self.returning.add(seat)
        else:
            del self.bots[seat]
            del self.replaced[seat]
            self.returning.discard(seat)
            self.turn_started = self.now
        event: dict[str, Any] = {"t": kind, "seat": seat, "name": self.row.seats[seat]["name"]}
        if why is not None:
            event["why"] = why
        self._emit({**event, "seats": self.info()["seats"]})
        if kind == "back":
            # a player who asked and left meanwhile: his grace begins
            self._look_at_seats()

    def _result(self) -> dict[str, Any]:
        assert self.match is not None
        result = self.match.result()
        return {
            "ending": self.row.ending,
            "winners": [] if result is None else list(result.winners),
            "losers": [] if result is None else list(result.losers),
            # each seat's place, 1 the best (partners share theirs); None without a result
            "places": None if result is None else list(places(self.match, self.rules.players)),
            "scores": self.match.ledger.public(),
            "seed": str(self.row.seed),
            "ratings": (self.row.ending or {}).get("ratings"),
        }
