"""The club's tournaments: what each organiser asked for and the whole state of each event,
and which of them no process runs."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol, TypeVar

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from .models import Lease, TableRow, TournamentRow
from .store import Store, storable
from .tables import TOURNAMENT_LEASE, Fence, fenced

__all__ = ["SqlTournaments", "TournamentStore"]

T = TypeVar("T")


class TournamentStore(Protocol):
    """The tournaments as the club's tournament service and its directors use them
    (:class:`SqlTournaments`)."""

    def add_tournament(self, row: TournamentRow) -> None: ...

    def tournament(self, tournament_id: str) -> TournamentRow | None: ...

    def change_tournament(
        self,
        tournament_id: str,
        change: Callable[[TournamentRow, Session], T],
        fence: Fence | None = None,
    ) -> tuple[TournamentRow, T]: ...

    def owned_tournaments(self, owner: int) -> int: ...

    def tournaments(self, limit: int = 50) -> list[TournamentRow]: ...

    def tournament_tables(self, tournament_id: str) -> list[TableRow]: ...

    def tournament_orphans(self, limit: int = 100) -> list[str]: ...


class SqlTournaments(Store):
    """The tournaments in the club's database: the ``tournaments`` table (and the tables and
    leases that name a tournament)."""

    def add_tournament(self, row: TournamentRow) -> None:
        with self.session() as db:
            db.add(row)
            db.commit()

    def tournament(self, tournament_id: str) -> TournamentRow | None:
        if not storable(tournament_id):
            return None
        with self.session() as db:
            return db.get(TournamentRow, tournament_id)

    def change_tournament(
        self,
        tournament_id: str,
        change: Callable[[TournamentRow, Session], T],
        fence: Fence | None = None,
    ) -> tuple[TournamentRow, T]:
        """Change the row of ``tournament_id`` by ``change`` (which may raise to change
        nothing, and may add rows to the transaction it is given: a round's tables) in one
        transaction, the row read for update (two requests at once change it one after the
        other, neither losing the other's change): the row after it, and what ``change``
        returned. With a ``fence``, only while its node holds the tournament's lease
        (:class:`LeaseLost` else)."""
        with self.session() as db:
            if fence is not None:
                fenced(db.connection(), TOURNAMENT_LEASE + tournament_id, fence)
            row = db.get(TournamentRow, tournament_id, with_for_update=True)
            if row is None:
                raise KeyError(tournament_id)
            said = change(row, db)
            # a JSON column changed in place is not seen as changed: it is set anew
            row.state = dict(row.state)
            db.commit()
            return row, said

    def owned_tournaments(self, owner: int) -> int:
        """How many tournaments ``owner`` organises that take entries or are played."""
        with self.session() as db:
            query = select(func.count()).where(
                TournamentRow.owner == owner, TournamentRow.status.in_(("open", "playing"))
            )
            return int(db.scalar(query) or 0)

    def tournaments(self, limit: int = 50) -> list[TournamentRow]:
        """The tournaments taking entries and being played, then the ones finished last."""
        with self.session() as db:
            live = db.scalars(
                select(TournamentRow)
                .where(TournamentRow.status.in_(("open", "playing")))
                .order_by(TournamentRow.created.desc())
                .limit(limit)
            )
            over = db.scalars(
                select(TournamentRow)
                .where(TournamentRow.status == "finished")
                .order_by(TournamentRow.created.desc())
                .limit(limit)
            )
            return [*live, *over]

    def tournament_tables(self, tournament_id: str) -> list[TableRow]:
        """The tables of a tournament's matches, oldest first."""
        with self.session() as db:
            return list(
                db.scalars(
                    select(TableRow)
                    .where(TableRow.tournament == tournament_id)
                    .order_by(TableRow.created)
                )
            )

    def tournament_orphans(self, limit: int = 100) -> list[str]:
        """The tournaments to be run (taking entries with a start time, or being played)
        that no process runs: no lease, or one let expire."""
        lease = TOURNAMENT_LEASE + TournamentRow.id
        with self.session() as db:
            rows = db.scalars(
                select(TournamentRow.id)
                .outerjoin(Lease, Lease.table_id == lease)
                .where(
                    or_(
                        TournamentRow.status == "playing",
                        (TournamentRow.status == "open") & TournamentRow.starts_at.is_not(None),
                    ),
                    or_(Lease.table_id.is_(None), Lease.expires < time.time()),
                )
                .order_by(TournamentRow.created)
                .limit(limit)
            )
            return list(rows)
