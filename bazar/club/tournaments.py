"""The club's tournaments: their entries, and the director that plays each one through.

A tournament's whole state (its entries, its pairings and their results: the library's
:meth:`~bazar.tournament.Tournament.to_json`) is kept in its row, and every change of it is
one transaction that reads the row for update and writes it again, whichever process makes
it: an entry joining, a round paired with its tables, a match's result.

Once it plays, one process runs it, the one that holds its lease (``"t:" + id``, renewed and
taken over by the club's keeper as a table's is): its :class:`Director`. The director learns
a match's end from the database (a table may live in any process, and one that ended while
nobody ran the tournament is found the same way), woken at once when the table ended here.
Each turn it reports the ended matches (their places from their records; a player who
timed out, or never came within the grace, loses his), pairs the next round or, in an arena,
whoever waits, and makes the new tables, all in that one transaction: a restart finds either
all of it or none, and the tables it made resume themselves.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy.orm import Session

from bazar.core import record
from bazar.core.errors import UnknownOption, UnknownVariant
from bazar.core.rules import rules as make_rules
from bazar.tournament import FILLER_BOT, Pairing, Tournament, TournamentError, dumps, loads, places

from .errors import ServerError
from .lobby import Watcher
from .protocol import TournamentForm
from .settings import Settings
from .storage import (
    TOURNAMENT_LEASE,
    LeaseLost,
    RecordRow,
    Stores,
    TableRow,
    TournamentRow,
    TournamentStore,
    User,
    stored,
)
from .tablestate import TableError

if TYPE_CHECKING:
    from .table import Table


class Host(Protocol):
    """What the tournaments need of the club: its process's name, settings and storage, the
    bounds of the options it plays, and a table made live from a row stored for it."""

    node: str
    settings: Settings
    storage: Stores

    def bounded(self, game: str, options: dict[str, Any]) -> None: ...

    def place(self, row: TableRow) -> Table: ...


__all__ = ["MAX_ENTRIES", "Director", "Tournaments", "describe"]

log = logging.getLogger("bazar.club")

#: the most entries a tournament takes
MAX_ENTRIES = 128
#: the most bots one request enters
MAX_BOTS = 32
#: the most tournaments one player organises at once (taking entries or playing)
OWNED = 5
#: seconds between two looks of a director at its tables in the database (a table that
#: ended in this process wakes it at once)
POLL_S = 1.0
#: the longest arena (minutes)
MAX_DURATION_MIN = 24 * 60


def _refused(error: TournamentError) -> ServerError:
    """The club's refusal of what the library refuses: its code, its English reason."""
    return ServerError.passing_on("tournament_refused", error)


class Tournaments:
    """What the HTTP API asks of the club's tournaments, and their directors in this
    process."""

    def __init__(self, club: Host) -> None:
        self.club = club
        self.storage = club.storage
        self.settings = club.settings
        #: the directors of the tournaments this process runs
        self.directors: dict[str, Director] = {}
        #: the pages watching each tournament from this process, and whose each is
        self.watchers: dict[str, dict[Watcher, User | None]] = {}
        #: what a tournament's table says of it: {table: {"id", "name", "round", "board"}}
        self.badges: dict[str, dict[str, Any]] = {}

    # creating and entering

    async def create(self, owner: User, form: TournamentForm) -> TournamentRow:
        """A new tournament from the form; nothing is stored before all of it is accepted."""
        self.club.bounded(form.game, form.options or {})
        try:
            rules = make_rules(form.game, players=form.players, **(form.options or {}))
            if form.teams and not rules.teams and "teams" in rules.options():
                # a 2x2 event of a game that may be played in teams plays it so
                rules = rules.replace(teams=True)
        except (UnknownVariant, UnknownOption, ValueError, TypeError) as error:
            raise TableError.passing_on("rules", error) from None
        if form.rated and owner.guest:
            raise ServerError("rated_guest")
        if len(form.name) > 80:
            raise ServerError("tournament_name_form")
        duration_s = None
        if form.duration_min is not None:
            if not 0 < form.duration_min <= MAX_DURATION_MIN:
                raise ServerError("tournament_duration_form")
            duration_s = float(form.duration_min) * 60
        if form.rounds is not None and not 1 <= form.rounds <= 50:
            raise ServerError("tournament_rounds_form")
        now = time.time()
        if form.starts_at is not None and not now - 60 <= form.starts_at <= now + 30 * 86400:
            raise ServerError("starts_at_form")
        given = rules.options()
        given.pop("players", None)
        try:
            tournament = Tournament(
                form.game,
                players=rules.players,
                options=given,
                format=form.format,
                rounds=form.rounds,
                duration_s=duration_s,
                teams=form.teams,
                seed=secrets.randbelow(2**62),
                name=form.name or form.game,
            )
        except TournamentError as error:
            raise _refused(error) from None
        row = TournamentRow(
            id=secrets.token_urlsafe(8),
            name=form.name or form.game,
            game=form.game,
            options={"players": rules.players, **given},
            format=form.format,
            rounds=form.rounds,
            duration_s=duration_s,
            teams=form.teams,
            rated=form.rated,
            access=form.access,
            invite=secrets.token_urlsafe(12),
            owner=owner.id,
            status="open",
            starts_at=form.starts_at,
            move_time_s=form.move_time_s,
            state=tournament.to_json(),
            created=now,
        )
        if (
            await stored(self.settings, self.storage.tournaments.owned_tournaments, owner.id)
            >= OWNED
        ):
            raise ServerError("too_many_tournaments", 429, limit=OWNED)
        await stored(self.settings, self.storage.tournaments.add_tournament, row)
        if row.starts_at is not None:
            await self.direct(row.id)
        return row

    async def change(
        self, tournament_id: str, change: Callable[[TournamentRow, Tournament, Session], Any]
    ) -> tuple[TournamentRow, Any]:
        """Make ``change`` of a tournament's state in one transaction (see
        :meth:`~bazar.club.storage.SqlTournaments.change_tournament`), its pages told; ServerError
        for what it refuses. While this process runs the tournament, its director's changes
        wait for it (and its turns for this one)."""

        def made(row: TournamentRow, db: Session) -> Any:
            tournament = Tournament.from_json(row.state)
            try:
                said = change(row, tournament, db)
            except TournamentError as error:
                raise _refused(error) from None
            row.state = tournament.to_json()
            return said

        director = self.directors.get(tournament_id)
        lock = director.lock if director is not None else contextlib.nullcontext()
        async with lock:
            try:
                row, said = await stored(
                    self.settings, self.storage.tournaments.change_tournament, tournament_id, made
                )
            except KeyError:
                raise ServerError("no_tournament", 404, tournament=tournament_id) from None
        self.changed(row.id)
        return row, said

    async def join(
        self, tournament_id: str, user: User, partner: str | None, invite: str | None
    ) -> int:
        """Enter ``user`` (with his ``partner`` in a 2x2 event): his entry's id."""
        mate = None
        if partner is not None:
            mate = await stored(self.settings, self.storage.accounts.registered, partner)
            if mate is None:
                raise ServerError("no_partner", name=partner)
            if mate.id == user.id:
                raise ServerError("partner_self")
        rating = await stored(self.settings, self._seeding, user, mate, tournament_id)

        def enter(row: TournamentRow, tournament: Tournament, db: Session) -> int:
            if row.access == "invite" and invite != row.invite and user.id != row.owner:
                raise ServerError("invitation")
            if row.rated and user.guest:
                raise ServerError("rated_guest")
            if row.teams and mate is None:
                raise ServerError("partner_needed")
            if not row.teams and mate is not None:
                raise ServerError("partner_alone")
            people = [user] if mate is None else [user, mate]
            for entry in tournament.entries:
                if entry.withdrawn:
                    continue
                for person in people:
                    if person.id in entry.data.get("users", ()):
                        raise ServerError("tournament_entered", name=person.name)
            if len([e for e in tournament.entries if not e.withdrawn]) >= MAX_ENTRIES:
                raise ServerError("tournament_full", limit=MAX_ENTRIES)
            entry = tournament.add(
                user.name if mate is None else f"{user.name} & {mate.name}",
                members=() if mate is None else (user.name, mate.name),
                rating=rating,
                data={"users": [p.id for p in people], "guests": [p.guest for p in people]},
            )
            return entry.id

        _, entry_id = await self.change(tournament_id, enter)
        return int(entry_id)

    def _seeding(self, user: User, mate: User | None, tournament_id: str) -> float:
        """The rating a player (a team: the mean of its two) is seeded by: his skill in the
        tournament's game, 0 with none."""
        row = self.storage.tournaments.tournament(tournament_id)
        if row is None:
            raise ServerError("no_tournament", 404, tournament=tournament_id)
        people = [user] if mate is None else [user, mate]
        skills = self.storage.ratings.skills(row.game, [p.id for p in people])
        found = [skills.get(person.id, 0.0) for person in people]
        return round(sum(found) / len(found), 2)

    async def withdraw(self, tournament_id: str, user: User) -> None:
        def leave(row: TournamentRow, tournament: Tournament, db: Session) -> None:
            entry = _entry_of(tournament, user.id)
            if entry is None:
                raise ServerError("not_entered")
            tournament.withdraw(entry)

        await self.change(tournament_id, leave)

    async def bots(self, tournament_id: str, user: User, level: str, count: int) -> None:
        """The organiser enters ``count`` bots of ``level``."""
        if not 1 <= count <= MAX_BOTS:
            raise ServerError("bots_count_form", limit=MAX_BOTS)

        def enter(row: TournamentRow, tournament: Tournament, db: Session) -> None:
            if row.owner != user.id:
                raise ServerError("tournament_owner")
            if len([e for e in tournament.entries if not e.withdrawn]) + count > MAX_ENTRIES:
                raise ServerError("tournament_full", limit=MAX_ENTRIES)
            taken = {e.name for e in tournament.entries}
            n = 0
            for _ in range(count):
                n += 1
                while f"{level}#{n}" in taken:
                    n += 1
                tournament.add(f"{level}#{n}", bot=level)

        await self.change(tournament_id, enter)

    async def start(self, tournament_id: str, user: User | None) -> None:
        """Start the tournament (its organiser asks; None: its start time came): it is
        played from now on, in this process."""

        def begin(row: TournamentRow, tournament: Tournament, db: Session) -> None:
            if user is not None and row.owner != user.id:
                raise ServerError("tournament_owner")
            if row.status != "open":
                raise ServerError("tournament_started")
            tournament.start(time.time())
            row.status = "playing"

        await self.change(tournament_id, begin)
        await self.direct(tournament_id)

    # the directors

    async def direct(self, tournament_id: str) -> bool:
        """Run the tournament here if no process runs it (its lease taken): whether it runs
        here now."""
        if tournament_id in self.directors:
            return True
        lease = self.storage.tables.lease
        node, lease_s = self.club.node, self.settings.lease_s
        if not await asyncio.to_thread(lease, TOURNAMENT_LEASE + tournament_id, node, lease_s):
            return False
        if tournament_id in self.directors:
            return True
        director = self.directors[tournament_id] = Director(self, tournament_id)
        director.run()
        return True

    def wake(self, table: TableRow) -> None:
        """A table of a tournament changed (it ended): its director looks at once."""
        if table.tournament is not None and table.tournament in self.directors:
            self.directors[table.tournament].wake.set()

    async def keep(self, held: set[str]) -> None:
        """The keeper's turn: stop the directors whose lease another process took, and run
        the tournaments nobody runs."""
        for tournament_id, director in list(self.directors.items()):
            if TOURNAMENT_LEASE + tournament_id not in held:
                log.warning("tournament %s was taken over by another process", tournament_id)
                director.stop()
        for tournament_id in await asyncio.to_thread(self.storage.tournaments.tournament_orphans):
            if await self.direct(tournament_id):
                log.warning("tournament %s run here from now on", tournament_id)

    def resume(self) -> None:
        """Run the tournaments that no process runs (after a restart)."""
        for tournament_id in self.storage.tournaments.tournament_orphans():
            if self.storage.tables.lease(
                TOURNAMENT_LEASE + tournament_id, self.club.node, self.settings.lease_s
            ):
                director = self.directors[tournament_id] = Director(self, tournament_id)
                director.run()

    async def close(self) -> None:
        """Stop every director and give its lease up (another process goes on at once)."""
        directors = list(self.directors.values())
        for director in directors:
            director.stop()
        tasks = [d.task for d in directors if d.task is not None]
        if tasks:
            await asyncio.wait(tasks)
        self.directors.clear()
        leases = [TOURNAMENT_LEASE + d.id for d in directors]
        with contextlib.suppress(Exception):
            await asyncio.to_thread(self.storage.tables.release, self.club.node, leases)

    # what the pages see

    def changed(self, tournament_id: str) -> None:
        """The tournament changed: its pages in this process hear it soon."""
        if not self.watchers.get(tournament_id):
            return
        with contextlib.suppress(RuntimeError):
            asyncio.get_running_loop().create_task(self._tell(tournament_id))

    async def _tell(self, tournament_id: str) -> None:
        if not self.watchers.get(tournament_id):
            return
        found = await stored(self.settings, self._read, tournament_id)
        if found is None:
            return
        row, tables = found
        tournament = Tournament.from_json(row.state)
        for watcher, user in list(self.watchers.get(tournament_id, {}).items()):
            said = describe(row, tournament, tables, user)
            watcher.put({"type": "tournament", "tournament": said})

    async def message(self, tournament_id: str, user: User | None = None) -> dict[str, Any]:
        return {"type": "tournament", "tournament": await self.info(tournament_id, user)}

    async def info(self, tournament_id: str, user: User | None = None) -> dict[str, Any]:
        """The tournament as the API shows it (``T`` of docs/protocol.md)."""
        found = await stored(self.settings, self._read, tournament_id)
        if found is None:
            raise ServerError("no_tournament", 404, tournament=tournament_id)
        row, tables = found
        return describe(row, Tournament.from_json(row.state), tables, user)

    def _read(self, tournament_id: str) -> tuple[TournamentRow, dict[str, str]] | None:
        row = self.storage.tournaments.tournament(tournament_id)
        if row is None:
            return None
        return row, {t.id: t.status for t in self.storage.tournaments.tournament_tables(row.id)}

    async def listing(self) -> list[dict[str, Any]]:
        rows = await stored(self.settings, self.storage.tournaments.tournaments)
        return [short(row, Tournament.from_json(row.state)) for row in rows]

    # the file of a tournament

    async def export(self, tournament_id: str) -> str:
        """The tournament as one file: its state, each finished match's record inside."""
        found = await stored(self.settings, self._with_records, tournament_id)
        if found is None:
            raise ServerError("no_tournament", 404, tournament=tournament_id)
        return found

    def _with_records(self, tournament_id: str) -> str | None:
        row = self.storage.tournaments.tournament(tournament_id)
        if row is None:
            return None
        tournament = Tournament.from_json(row.state)
        wanted = [
            p for p in tournament.pairings if p.table is not None and p.record is None and p.done
        ]
        texts = self.storage.records.texts(p.table for p in wanted if p.table is not None)
        for pairing in wanted:
            pairing.record = texts.get(pairing.table or "", pairing.record)
        return dumps(tournament)

    async def import_file(self, owner: User, text: str) -> TournamentRow:
        """Store the finished tournament of a file (its records replayed and checked)."""
        try:
            # every record replayed: off the event loop
            tournament = await asyncio.to_thread(loads, text)
        except TournamentError as error:
            raise _refused(error) from None
        except ValueError as error:
            raise ServerError.passing_on("tournament_file", error) from None
        if not tournament.over:
            raise ServerError("tournament_unfinished")
        row = TournamentRow(
            id=secrets.token_urlsafe(8),
            name=tournament.name or tournament.game,
            game=tournament.game,
            options={"players": tournament.rules.players, **tournament.options},
            format=tournament.format,
            rounds=tournament.rounds,
            duration_s=tournament.duration_s,
            teams=tournament.teams,
            rated=False,
            access="open",
            invite=secrets.token_urlsafe(12),
            owner=owner.id,
            status="finished",
            starts_at=None,
            move_time_s=30,
            state=tournament.to_json(),
            created=time.time(),
        )
        await stored(self.settings, self.storage.tournaments.add_tournament, row)
        return row


class Director:
    """Plays one tournament through, in the process that holds its lease (see the module)."""

    def __init__(self, tournaments: Tournaments, tournament_id: str) -> None:
        self.tournaments = tournaments
        self.club = tournaments.club
        self.id = tournament_id
        #: set to look at once (a table of the tournament ended here)
        self.wake = asyncio.Event()
        #: this process's changes of the tournament, one at a time
        self.lock = asyncio.Lock()
        self.task: asyncio.Task[None] | None = None
        self._stopping = False

    def run(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._loop())

    def stop(self) -> None:
        self._stopping = True
        if self.task is not None:
            self.task.cancel()

    async def _loop(self) -> None:
        try:
            while not self._stopping:
                try:
                    if await self.turn():
                        break
                except LeaseLost:
                    log.warning("tournament %s is run by another process now", self.id)
                    return
                except Exception:
                    log.exception("tournament %s: a turn failed, tried again", self.id)
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(POLL_S):
                        await self.wake.wait()
                self.wake.clear()
            await asyncio.to_thread(
                self.club.storage.tables.release, self.club.node, [TOURNAMENT_LEASE + self.id]
            )
        finally:
            if self.tournaments.directors.get(self.id) is self:
                del self.tournaments.directors[self.id]

    async def turn(self) -> bool:
        """One look at the tournament: start it when its time came, report the matches that
        ended, pair what is to be paired and start its tables. Whether it is over (or gone)."""
        row = await stored(self.club.settings, self.club.storage.tournaments.tournament, self.id)
        if row is None or row.status == "finished":
            return True
        if row.status == "open":
            if row.starts_at is not None and time.time() >= row.starts_at:
                try:
                    await self.tournaments.start(self.id, None)
                except ServerError as error:
                    log.warning("tournament %s did not start: %s", self.id, error)
                    await self._cancel()
                    return True
            return False
        fence = (self.club.node, self.club.settings.lease_s)
        async with self.lock:
            after, (made, news) = await stored(
                self.club.settings,
                self.club.storage.tournaments.change_tournament,
                self.id,
                self._advance,
                fence,
            )
        for table_row in made:
            self.tournaments.badges[table_row.id] = _badge(after, table_row)
            self.club.place(table_row)
        if news:
            self.tournaments.changed(self.id)
        return after.status == "finished"

    async def _cancel(self) -> None:
        """A tournament whose start time came with too few entries: it is finished unplayed."""

        def cancel(row: TournamentRow, db: Session) -> None:
            row.status = "finished"

        await stored(
            self.club.settings, self.club.storage.tournaments.change_tournament, self.id, cancel
        )
        self.tournaments.changed(self.id)

    def _advance(self, row: TournamentRow, db: Session) -> tuple[list[TableRow], bool]:
        """In the tournament's transaction: report each ended match, pair the next round (an
        arena: whoever waits), store the new tables, leased to this process; the new
        tables, to be started, and whether anything changed."""
        tournament = Tournament.from_json(row.state)
        reported = False
        for pairing in tournament.pairings:
            if pairing.done or pairing.bye or pairing.table is None:
                continue
            table = db.get(TableRow, pairing.table)
            if table is None or table.status != "finished":
                continue
            kept = db.get(RecordRow, pairing.table)
            side_places, forfeit = _result(tournament, pairing, table, kept)
            tournament.report(
                pairing, side_places, forfeit=forfeit, table=pairing.table, now=time.time()
            )
            reported = True
        new: list[Pairing] = []
        if not tournament.over:
            if tournament.format == "arena":
                new = tournament.pair_arena(time.time())
            elif all(p.done for p in tournament.pairings) and self._paused_enough(tournament):
                new = tournament.pair()
        tables = [self._table_of(row, tournament, p) for p in new if not p.bye and not p.done]
        for table in tables:
            self.club.storage.tables.add_leased(
                db, table, self.club.node, self.club.settings.lease_s
            )
        if tournament.over:
            row.status = "finished"
        news = reported or bool(new) or tournament.over
        if news:
            row.state = tournament.to_json()
        return tables, news

    def _paused_enough(self, tournament: Tournament) -> bool:
        """Whether the pause after the last round is over (the first round has none)."""
        ends = [p.finished for p in tournament.pairings if p.finished is not None]
        if not ends:
            return True
        return time.time() - max(ends) >= self.club.settings.tournament_pause_s

    def _table_of(self, row: TournamentRow, tournament: Tournament, pairing: Pairing) -> TableRow:
        """The table of ``pairing``: each entry's people (a team's two on its side's seats),
        or its bot; rated as the tournament when people alone sit there. ``pairing`` names it."""
        seats: list[Any] = []
        # the how-manieth seat of its entry each seat is: a team's players in their order
        taken: dict[int, int] = {}
        for seat, entry_id in enumerate(tournament.seats(pairing)):
            if entry_id is None:
                seats.append({"bot": FILLER_BOT, "name": f"{FILLER_BOT} bot {seat + 1}"})
                continue
            entry = tournament.entries[entry_id]
            k = taken[entry_id] = taken.get(entry_id, -1) + 1
            if entry.bot is not None:
                seats.append({"bot": entry.bot, "name": entry.name})
                continue
            users = entry.data["users"]
            names = entry.members or (entry.name,)
            guests = entry.data.get("guests", [False] * len(users))
            i = k % len(users)
            seats.append({"user": users[i], "name": names[i], "guest": guests[i]})
        table = TableRow(
            id=secrets.token_urlsafe(8),
            game=row.game,
            options=dict(row.options),
            owner=row.owner,
            move_time_s=row.move_time_s,
            access="open",
            invite=secrets.token_urlsafe(12),
            seed=secrets.randbelow(2**62),
            tournament=row.id,
            created=time.time(),
            seats=seats,
            # every seat is taken: it plays at once, rated where people alone sit there
            status="playing",
            rated=row.rated and all(s.get("user") for s in seats),
        )
        pairing.table = table.id
        return table


def _result(
    tournament: Tournament, pairing: Pairing, table: TableRow, kept: RecordRow | None
) -> tuple[list[int], list[int]]:
    """Each side's place in the ended match of ``pairing`` (the sides a knock-out's filler
    bots played included) and the entries that lost by not playing: a player who timed
    out, or never came (or left) within the grace, is last; the others are placed by their
    scores so far, as a finished match would place them."""
    sides = tournament.sides
    ending = table.ending or {}
    rules = tournament.rules
    match = None if kept is None else record.loads(kept.text)
    if "timeout" not in ending and match is not None and match.is_over():
        return list(places(match, sides)), []
    out = {rules.side_of(int(ending["timeout"]))} if "timeout" in ending else set()
    sign = rules.better_sign
    scores = match.ledger.scores if match is not None else [0] * sides
    staying = sorted({-sign * scores[s] for s in range(sides) if s not in out})
    placed = [len(staying) + 1] * sides
    for s in range(sides):
        if s not in out:
            placed[s] = 1 + staying.index(-sign * scores[s])
    # the entries that lost so (a filler bot's side is nobody's)
    lost = [pairing.entries[s] for s in sorted(out) if s < len(pairing.entries)]
    return placed, lost


def _entry_of(tournament: Tournament, user_id: int) -> int | None:
    """The entry ``user_id`` plays in (not withdrawn), or None."""
    for entry in tournament.entries:
        if not entry.withdrawn and user_id in entry.data.get("users", ()):
            return entry.id
    return None


def _badge(row: TournamentRow, table: TableRow) -> dict[str, Any]:
    """What a table of a tournament says of it: the tournament, the round and the board."""
    tournament = Tournament.from_json(row.state)
    for pairing in tournament.pairings:
        if pairing.table == table.id:
            return {"id": row.id, "name": row.name, "round": pairing.round, "board": pairing.board}
    return {"id": row.id, "name": row.name, "round": None, "board": None}


def badge_of(tournaments: TournamentStore, table: TableRow) -> dict[str, Any] | None:
    """:func:`_badge` read from the database (a table rebuilt after a restart)."""
    if table.tournament is None:
        return None
    row = tournaments.tournament(table.tournament)
    return None if row is None else _badge(row, table)


def short(row: TournamentRow, tournament: Tournament) -> dict[str, Any]:
    """A tournament as the list shows it."""
    return {
        "id": row.id,
        "name": row.name,
        "game": row.game,
        "players": row.options.get("players"),
        "format": row.format,
        "rounds": row.rounds,
        "duration_s": row.duration_s,
        "teams": row.teams,
        "rated": row.rated,
        "access": row.access,
        "status": row.status,
        "owner": row.owner,
        "starts_at": row.starts_at,
        "started_at": tournament.started_at,
        "round": tournament.round_number(),
        "entries": len([e for e in tournament.entries if not e.withdrawn]),
    }


def describe(
    row: TournamentRow, tournament: Tournament, tables: dict[str, str], user: User | None
) -> dict[str, Any]:
    """The tournament ``T`` of docs/protocol.md: its entries, its rounds' pairings (each
    table's id, and its record's once the match is stored), its standings; ``you``, the
    entry of ``user``; ``invite``, for its organiser."""
    rounds: dict[int, list[dict[str, Any]]] = {}
    for p in tournament.pairings:
        finished = p.table is not None and tables.get(p.table) == "finished"
        rounds.setdefault(p.round, []).append(
            {
                "board": p.board,
                "entries": list(p.entries),
                "bye": p.bye,
                "places": None if p.places is None else list(p.places),
                "points": None if p.points is None else list(p.points),
                "table": p.table,
                # a finished table's record is stored under its id
                "record": p.table if finished else None,
                "forfeit": list(p.forfeit),
            }
        )
    out = {
        **short(row, tournament),
        "entries": [
            {
                "id": e.id,
                "name": e.name,
                "members": list(e.members),
                "bot": e.bot,
                "withdrawn": e.withdrawn,
                **({"user": e.data["users"][0]} if e.data.get("users") else {}),
            }
            for e in tournament.entries
        ],
        "options": row.options,
        "move_time_s": row.move_time_s,
        "rounds_played": [{"round": n, "pairings": ps} for n, ps in sorted(rounds.items())],
        "standings": [s.to_json() for s in tournament.standings()],
    }
    if user is not None:
        mine = _entry_of(tournament, user.id)
        if mine is not None:
            out["you"] = mine
        if row.owner == user.id:
            out["invite"] = row.invite
    return out
