"""The tournament: its entries, its rounds of pairings, the results reported to it.

>>> t = Tournament("block", format="round_robin")
>>> for name in ("Masha", "Petya", "Vanya"):
...     _ = t.add(name)
>>> t.start()
>>> [(p.entries, p.bye) for p in t.pair()]
[((1, 2), False), ((0,), True)]
>>> t.report(t.pairings[0], [1, 2])
>>> [(s.rank, s.entry.name, s.points, s.wins) for s in t.standings()]
[(1, 'Petya', 1.0, 1.0), (2, 'Masha', 1.0, 0.0), (3, 'Vanya', 0.0, 0.0)]
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

from bazar.core.errors import Names
from bazar.core.rules import Rules
from bazar.core.rules import rules as make_rules

from . import pairing as seat
from .model import Entry, Pairing, Standing, TournamentError
from .standings import standings

__all__ = ["FILLER_BOT", "FORMATS", "Tournament"]

FORMATS = ("round_robin", "swiss", "knockout", "arena")

#: the bot that plays the empty seats of a knock-out table short of entries
FILLER_BOT = "greedy"

#: the tie-breaks each format ranks by after the points, in order
RANKING = {
    "round_robin": ("sonneborn_berger", "wins"),
    "swiss": ("buchholz", "median_buchholz", "sonneborn_berger", "wins"),
    "knockout": (),
    "arena": ("wins", "sonneborn_berger"),
}

#: what a win is worth in an arena (a draw half, a loss nothing, before the streak doubles)
ARENA_WIN = 2.0


class Tournament:
    """A tournament of one game in one format, for players or for 2x2 teams.

    The formats (docs/tournaments.md says them in full): ``round_robin`` (everyone meets
    everyone), ``swiss`` (``rounds`` rounds paired by score), ``knockout`` (a bracket seeded
    by rating) and ``arena`` (``duration_s`` seconds, whoever finishes is paired again).
    A table's places give ``place_points`` (by default 1-0 and a draw half each between two
    sides, 2-1-0 for three, 3-2-1-0 for four; equal places share their points); a bye gives
    ``bye_points`` (by default a win's). Everything is deterministic: the same ``seed``,
    entries and results give the same pairings.
    """

    def __init__(
        self,
        game: str,
        *,
        players: int | None = None,
        options: dict[str, Any] | None = None,
        format: str = "swiss",
        rounds: int | None = None,
        duration_s: float | None = None,
        teams: bool = False,
        seed: int = 0,
        place_points: Sequence[float] | None = None,
        bye_points: float | None = None,
        name: str = "",
    ) -> None:
        if format not in FORMATS:
            raise TournamentError.of("unknown_format", format=format, known=Names(FORMATS))
        if rounds is not None and format not in ("swiss", "round_robin"):
            raise TournamentError.of("rounds_unused", format=format)
        if (format == "swiss" or rounds is not None) and not _whole(rounds):
            raise TournamentError.of("rounds_needed", format=format, rounds=rounds)
        if duration_s is not None and format != "arena":
            raise TournamentError.of("duration_unused", format=format)
        if format == "arena" and (duration_s is None or not duration_s > 0):
            raise TournamentError.of("duration_needed", duration=duration_s)
        self.options: dict[str, Any] = dict(options or {})
        try:
            given = {**self.options, **({} if players is None else {"players": players})}
            self.rules: Rules = make_rules(game, **given)
        except ValueError as error:
            raise TournamentError.of("tournament_game", reason=error) from error
        if teams and not self.rules.teams:
            raise TournamentError.of("no_teams", game=self.rules.name)
        self.game = self.rules.name
        self.players = self.rules.players
        self.format = format
        self.rounds = rounds
        self.duration_s = duration_s
        self.teams = teams
        self.seed = seed
        self.sides = self.rules.sides
        default = tuple(float(p) for p in range(self.sides - 1, -1, -1))
        chosen = tuple(float(p) for p in place_points) if place_points is not None else default
        if len(chosen) != self.sides:
            raise TournamentError.of("place_points", sides=self.sides, given=place_points)
        self.place_points = chosen
        self.bye_points = float(bye_points) if bye_points is not None else chosen[0]
        self.name = name
        self.entries: list[Entry] = []
        self.pairings: list[Pairing] = []
        self.started = False
        self.started_at: float | None = None
        #: the arena was asked to pair at or after its end: it pairs no more
        self.closed = False
        #: the pairings' indices in the order their results came (an arena's streaks)
        self.reported: list[int] = []
        self._schedule: list[list[tuple[int, ...]]] | None = None

    # -- the field ----------------------------------------------------------------------------

    def add(
        self,
        name: str,
        *,
        members: Sequence[str] = (),
        rating: float = 0.0,
        bot: str | None = None,
        data: dict[str, Any] | None = None,
    ) -> Entry:
        """A new entry. A 2x2 event's entry is a team of two ``members`` unless a bot plays
        it. Refused (``closed``) once the tournament started, but between Swiss rounds and
        while an arena runs."""
        self._open()
        if self.teams and bot is None and len(members) != 2:
            raise TournamentError.of("team_members", members=tuple(members))
        entry = Entry(len(self.entries), name, tuple(members), float(rating), bot, dict(data or {}))
        self.entries.append(entry)
        return entry

    def withdraw(self, entry_id: int) -> None:
        """The entry plays no more: before the start, between Swiss rounds, or at any time
        in an arena (a game it is playing stays to be reported). Its games stay."""
        entry = self.entry(entry_id)
        if entry.withdrawn:
            raise TournamentError.of("withdrawn", entry=entry_id)
        self._open()
        entry.withdrawn = True

    def entry(self, entry_id: int) -> Entry:
        """The entry numbered ``entry_id`` (``no_entry`` when there is none)."""
        if not 0 <= entry_id < len(self.entries):
            last = len(self.entries) - 1
            raise TournamentError.of("no_entry", entry=entry_id, last=last)
        return self.entries[entry_id]

    def _open(self) -> None:
        """Refuse a change of the field once it is closed: after the start, but between
        Swiss rounds and while an arena runs."""
        if not self.started:
            return
        if self.over:
            raise TournamentError.of("over")
        between = self.format == "swiss" and all(p.done for p in self.pairings)
        if not (between or self.format == "arena"):
            raise TournamentError.of("closed")

    def _active(self) -> list[Entry]:
        return [e for e in self.entries if not e.withdrawn]

    def start(self, now: float | None = None) -> None:
        """Close the field (at least a table's worth of entries); an arena's clock starts at
        ``now`` (the present when None)."""
        if self.started:
            raise TournamentError.of("started")
        active = len(self._active())
        if active < self.sides:
            raise TournamentError.of("too_few", game=self.game, sides=self.sides, entries=active)
        self.started = True
        self.started_at = now if now is not None or self.format != "arena" else time.time()

    # -- pairing ------------------------------------------------------------------------------

    def round_number(self) -> int:
        """The rounds paired so far (an arena: its batches of games)."""
        return self.pairings[-1].round if self.pairings else 0

    def _last_round(self) -> list[Pairing]:
        number = self.round_number()
        return [p for p in self.pairings if p.round == number]

    @property
    def over(self) -> bool:
        """Whether every round the format plays was paired and has its results."""
        if not self.started or not all(p.done for p in self.pairings):
            return False
        if self.format == "arena":
            return self.closed
        planned = self.planned_rounds()
        assert planned is not None
        return self.round_number() >= planned or len(self._active()) < self.sides

    def planned_rounds(self) -> int | None:
        """How many rounds the tournament plays: a Swiss its ``rounds``, a round-robin its
        schedule's (or ``rounds``), a knock-out its bracket's once started; None for an
        arena, which plays by the clock."""
        if self.format == "swiss" or self.rounds is not None:
            return self.rounds
        if self.format == "round_robin":
            return len(self.schedule())
        if self.format == "knockout" and self.started:
            size, rounds = len(seat.bracket(len(self.seeds()), self.sides)), 0
            while size > 1:
                size, rounds = size // self.sides, rounds + 1
            return rounds
        return None

    def seats(self, pairing: Pairing) -> tuple[int | None, ...]:
        """The entry at each seat of a pairing's table: side *i*'s entry at its seats (both
        of a team's: its ``members`` in their order), None where a filling bot plays.

        >>> t = Tournament("kozel-team", format="round_robin", teams=True)
        >>> for name in ("Masha & Petya", "Olya & Vanya"):
        ...     _ = t.add(name, members=name.split(" & "))
        >>> t.start()
        >>> t.seats(t.pair()[0])
        (0, 1, 0, 1)
        """
        entries = pairing.entries
        sides = [self.rules.side_of(seat) for seat in range(self.players)]
        return tuple(entries[side] if side < len(entries) else None for side in sides)

    def schedule(self) -> list[list[tuple[int, ...]]]:
        """A round-robin's rounds (tables of entry ids; a table of one is a bye), fixed at
        the start; a longer event plays them again, the sides turned round."""
        if self._schedule is None:
            ids = [e.id for e in self._active()]
            self._schedule = seat.round_robin(ids, self.sides, seed=self.seed)
        return self._schedule

    def pair(self) -> list[Pairing]:
        """The next round's pairings (round-robin, Swiss, knock-out), added to
        :attr:`pairings`."""
        if self.format == "arena":
            raise TournamentError.of("pair_format", format=self.format, method="pair_arena")
        if not self.started:
            raise TournamentError.of("not_started")
        unfinished = [p for p in self.pairings if not p.done]
        if unfinished:
            number = self.round_number()
            raise TournamentError.of("round_unfinished", round=number, left=len(unfinished))
        if self.over:
            raise TournamentError.of("over")
        number = self.round_number() + 1
        if self.format == "round_robin":
            schedule = self.schedule()
            tables = schedule[(number - 1) % len(schedule)]
            if (number - 1) // len(schedule) % 2:
                tables = [t[::-1] for t in tables]
        elif self.format == "swiss":
            tables = self._swiss(number)
        else:
            tables = self._knockout(number)
        if self.format != "knockout":  # a bracket keeps its order: its tables meet by it
            tables = sorted(tables, key=_byes_last)
        made = [self._pairing(number, board, t) for board, t in enumerate(tables, start=1)]
        self.pairings.extend(made)
        return made

    def _pairing(self, number: int, board: int, table: tuple[int, ...]) -> Pairing:
        if len(table) == 1:
            return Pairing(number, board, table, bye=True, points=(self.bye_points,))
        return Pairing(number, board, table)

    def _scores(self) -> dict[int, float]:
        """Each entry's points so far."""
        return {s.entry.id: s.points for s in self.standings()}

    def _order(self, points: dict[int, float]) -> list[int]:
        """The active entries by score, then rating, then the order they joined."""
        active = self._active()
        active.sort(key=lambda e: (-points.get(e.id, 0.0), -e.rating, e.id))
        return [e.id for e in active]

    def _met(self) -> seat.Met:
        met: seat.Met = Counter()
        seat.meet([p.entries for p in self.pairings if not p.bye], met)
        return met

    def _swiss(self, number: int) -> list[tuple[int, ...]]:
        points = self._scores()
        order = self._order(points)
        if number == 1:
            return seat.swiss_first(order, self.sides)
        balance: Counter[int] = Counter()
        for p in self.pairings:
            if not p.bye:
                balance[p.entries[0]] += 1
                balance[p.entries[-1]] -= 1
        return seat.swiss(
            order,
            self.sides,
            self._met(),
            score={e: points.get(e, 0.0) for e in order},
            had_bye={p.entries[0] for p in self.pairings if p.bye},
            balance=dict(balance),
        )

    def seeds(self) -> list[int]:
        """The entries by rating, best first (then in the order they joined): a knock-out's
        seeds 1, 2, 3 ..."""
        return [e.id for e in sorted(self._active(), key=lambda e: (-e.rating, e.id))]

    def _knockout(self, number: int) -> list[tuple[int, ...]]:
        seeds = self.seeds()
        if number == 1:
            order = seat.bracket(len(seeds), self.sides)
            groups = [order[i : i + self.sides] for i in range(0, len(order), self.sides)]
            return [tuple(seeds[s - 1] for s in group if s <= len(seeds)) for group in groups]
        on = [self.advancing(p) for p in self._last_round()]
        return [tuple(on[i : i + self.sides]) for i in range(0, len(on), self.sides)]

    def advancing(self, pairing: Pairing) -> int:
        """The entry a finished knock-out table sends on: the best placed of its entries
        that showed up (never a filling bot), the higher seed of those placed level."""
        if pairing.bye:
            return pairing.entries[0]
        places = pairing.places
        assert places is not None
        rank = {e: i for i, e in enumerate(self.seeds())}
        entries = pairing.entries
        return min(entries, key=lambda e: (e in pairing.forfeit, places[entries.index(e)], rank[e]))

    def pair_arena(self, now: float) -> list[Pairing]:
        """An arena's new games: the entries waiting (in no unfinished game) by near score,
        none that just met when another waits; none once the clock ran out at ``now``."""
        if self.format != "arena":
            raise TournamentError.of("pair_format", format=self.format, method="pair")
        if not self.started:
            raise TournamentError.of("not_started")
        assert self.started_at is not None and self.duration_s is not None
        if now >= self.started_at + self.duration_s:
            self.closed = True
        if self.closed:
            return []
        busy = {e for p in self.pairings if not p.done for e in p.entries}
        order = [e for e in self._order(self._scores()) if e not in busy]
        last: dict[int, set[int]] = {}
        for p in self.pairings:
            for e in p.entries:
                last[e] = set(p.entries) - {e}
        tables = seat.arena(order, self.sides, last)
        number = self.round_number() + 1
        made = [Pairing(number, b, t, started=now) for b, t in enumerate(tables, start=1)]
        self.pairings.extend(made)
        return made

    # -- results ------------------------------------------------------------------------------

    def report(
        self,
        pairing: Pairing,
        places: Sequence[int],
        *,
        forfeit: Sequence[int] = (),
        table: str | None = None,
        record: str | None = None,
        now: float | None = None,
    ) -> None:
        """The result of one table: each side's place (1 = best, equal places share), the
        entries that lost by not showing up (they score nothing), the club's table or the
        record file, the finished match's record."""
        index = self._index(pairing)
        pairing = self.pairings[index]
        where = {"round": pairing.round, "board": pairing.board}
        if pairing.bye:
            raise TournamentError.of("bye_report", **where)
        if pairing.places is not None:
            raise TournamentError.of("reported", **where)
        if len(places) != self.sides:
            raise TournamentError.of("places_count", sides=self.sides, given=len(places))
        if any(not _whole(p) or p > self.sides for p in places):
            raise TournamentError.of("places_range", sides=self.sides, places=tuple(places))
        for entry in forfeit:
            if entry not in pairing.entries:
                raise TournamentError.of("forfeit_entry", entry=entry, **where)
        ranked = tuple(1 + sum(other < mine for other in places) for mine in places)
        points = [
            0.0 if entry in forfeit else self._points(ranked, side)
            for side, entry in enumerate(pairing.entries)
        ]
        if self.format == "arena":
            points = [
                self._arena(entry, p) for entry, p in zip(pairing.entries, points, strict=True)
            ]
        pairing.places = ranked
        pairing.points = tuple(points)
        pairing.forfeit = tuple(forfeit)
        pairing.table = table if table is not None else pairing.table
        pairing.record = record
        pairing.finished = now
        self.reported.append(index)

    def _index(self, pairing: Pairing) -> int:
        for index, mine in enumerate(self.pairings):
            if mine is pairing or (
                (mine.round, mine.board, mine.entries)
                == (pairing.round, pairing.board, pairing.entries)
            ):
                return index
        raise TournamentError.of("not_pairing", round=pairing.round, board=pairing.board)

    def _points(self, places: tuple[int, ...], side: int) -> float:
        """The place points of ``side``: those of its place, shared with the sides level
        with it (the mean of the places they fill)."""
        place = places[side]
        level = places.count(place)
        return sum(self.place_points[place - 1 : place - 1 + level]) / level

    def _arena(self, entry: int, points: float) -> float:
        """An arena game's points: the place points scaled so a win is worth two, doubled
        after two wins in a row (until a game is not won)."""
        scale = ARENA_WIN / self.place_points[0] if self.place_points[0] else 1.0
        run = 0
        for index in self.reported:
            p = self.pairings[index]
            if entry in p.entries and p.places is not None:
                won = p.places[p.entries.index(entry)] == 1 and p.places.count(1) == 1
                run = run + 1 if won and entry not in p.forfeit else 0
        return points * scale * (2 if run >= 2 else 1)

    def standings(self) -> list[Standing]:
        """The standings now: by points, then the format's tie-breaks; a knock-out by the
        round each entry went out in first."""
        out: dict[int, int | None] | None = None
        left: dict[int, int] | None = None
        if self.format == "knockout":
            out, left = {}, {}
            for p in self.pairings:
                if p.bye or p.places is None:
                    continue
                on = self.advancing(p)
                for side, e in enumerate(p.entries):
                    if e != on:
                        out[e] = p.round
                        left[e] = p.places[side]
        return standings(
            self.entries, self.pairings, ranking=RANKING[self.format], out=out, left=left
        )

    # -- JSON ---------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """Everything the tournament is, JSON-safe; :meth:`from_json` makes it again."""
        return {
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "format": self.format,
            "rounds": self.rounds,
            "duration_s": self.duration_s,
            "teams": self.teams,
            "seed": self.seed,
            "place_points": list(self.place_points),
            "bye_points": self.bye_points,
            "name": self.name,
            "entries": [e.to_json() for e in self.entries],
            "started": self.started,
            "started_at": self.started_at,
            "closed": self.closed,
            "pairings": [p.to_json() for p in self.pairings],
            "reported": list(self.reported),
            # kept rather than made again: a large round-robin of tables takes seconds
            "schedule": None
            if self._schedule is None
            else [[list(table) for table in rnd] for rnd in self._schedule],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Tournament:
        """The tournament :meth:`to_json` gave, its results reported again in their order
        (so the points and standings are computed afresh, exactly as they were)."""
        t = cls(
            data["game"],
            players=data.get("players"),
            options=data.get("options"),
            format=data["format"],
            rounds=data.get("rounds"),
            duration_s=data.get("duration_s"),
            teams=bool(data.get("teams", False)),
            seed=int(data.get("seed", 0)),
            place_points=data.get("place_points"),
            bye_points=data.get("bye_points"),
            name=str(data.get("name", "")),
        )
        t.entries = [Entry.from_json(e) for e in data.get("entries", ())]
        if [e.id for e in t.entries] != list(range(len(t.entries))):
            raise TournamentError.of("bad_file", reason=TournamentError.of("file_entries"))
        t.started = bool(data.get("started", False))
        t.started_at = data.get("started_at")
        rows = list(data.get("pairings", ()))
        for row in rows:
            entries = tuple(int(e) for e in row["entries"])
            for e in entries:
                t.entry(e)
            made = t._pairing(int(row["round"]), int(row["board"]), entries)
            made.table, made.record = row.get("table"), row.get("record")
            made.started = row.get("started")
            t.pairings.append(made)
        for index in data.get("reported", ()):
            row = rows[index]
            t.report(
                t.pairings[index],
                [int(p) for p in row["places"]],
                forfeit=[int(e) for e in row.get("forfeit", ())],
                table=row.get("table"),
                record=row.get("record"),
                now=row.get("finished"),
            )
        t.closed = bool(data.get("closed", False))
        schedule = data.get("schedule")
        if schedule is not None:
            t._schedule = [
                [tuple(t.entry(e).id for e in table) for table in rnd] for rnd in schedule
            ]
        return t


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def _byes_last(table: tuple[int, ...]) -> bool:
    """The boards of a round: its games first, then its byes."""
    return len(table) == 1
