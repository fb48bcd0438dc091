"""The club's records of finished and uploaded matches, and each person's seats in them
(``played``: what his history, his profile and his rating chart read)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from sqlalchemy import Integer, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from .models import AnalysisRow, Played, RecordRow, TableRow
from .store import Store, storable

__all__ = ["RecordStore", "SqlRecords"]


class RecordStore(Protocol):
    """The records as the club's matches, its record pages and its tournaments use them
    (:class:`SqlRecords`)."""

    def add_record(self, row: RecordRow) -> None: ...

    def add_match(self, db: Session, row: RecordRow, played: Iterable[Played]) -> None: ...

    def record(self, record_id: str) -> RecordRow | None: ...

    def texts(self, record_ids: Iterable[str]) -> dict[str, str]: ...

    def records(
        self, limit: int = 100, offset: int = 0, player: int | None = None
    ) -> list[RecordRow]: ...

    def seats_in(self, user_id: int, record_ids: Iterable[str]) -> dict[str, list[int]]: ...

    def played(self, user_id: int) -> list[tuple[str, int, int]]: ...

    def rating_history(self, user_id: int, limit: int = 2000) -> list[Played]: ...

    def analysis(self, record_id: str, seats: str, deals: int, version: int) -> str | None: ...

    def add_analysis(
        self, record_id: str, seats: str, deals: int, version: int, text: str
    ) -> None: ...


class SqlRecords(Store):
    """The records in the club's database: the ``records`` and ``played`` tables."""

    def add_record(self, row: RecordRow) -> None:
        with self.session() as db:
            db.add(row)
            db.commit()

    def add_match(self, db: Session, row: RecordRow, played: Iterable[Played]) -> None:
        """Add the record ``row`` of a match the club played, and each person's seat in it,
        to ``db``: the transaction that ends the match (:meth:`SqlTables.finish_match`)."""
        db.add(row)
        # the record first: its seats name it
        db.flush()
        db.add_all(played)

    def analysis(self, record_id: str, seats: str, deals: int, version: int) -> str | None:
        """The text of the analysis of ``record_id`` kept for ``seats`` at ``deals`` deals by
        the coach of ``version``, or None."""
        if not storable(record_id):
            return None
        with self.session() as db:
            row = db.get(AnalysisRow, (record_id, seats, deals, version))
            return None if row is None else row.text

    def add_analysis(self, record_id: str, seats: str, deals: int, version: int, text: str) -> None:
        """Keep an analysis of ``record_id``; one another process kept first stays (it is
        the same: an analysis is the same for the same record, seats, deals and coach)."""
        with self.session() as db:
            db.add(
                AnalysisRow(
                    record_id=record_id, seats=seats, deals=deals, version=version, text=text
                )
            )
            try:
                db.commit()
            except IntegrityError:
                db.rollback()

    def texts(self, record_ids: Iterable[str]) -> dict[str, str]:
        """The text of each of the records ``record_ids`` that is stored."""
        ids = [i for i in record_ids if storable(i)]
        if not ids:
            return {}
        with self.session() as db:
            rows = db.execute(select(RecordRow.id, RecordRow.text).where(RecordRow.id.in_(ids)))
            return {record_id: text for record_id, text in rows}

    def record(self, record_id: str) -> RecordRow | None:
        if not storable(record_id):
            return None
        with self.session() as db:
            return db.get(RecordRow, record_id)

    def records(
        self, limit: int = 100, offset: int = 0, player: int | None = None
    ) -> list[RecordRow]:
        """The newest records from ``offset`` on; with ``player``, only the matches that
        player sat in."""
        query = select(RecordRow)
        if player is not None:
            query = query.where(
                RecordRow.id.in_(select(Played.record_id).where(Played.user_id == player))
            )
        with self.session() as db:
            order = (RecordRow.created.desc(), RecordRow.id)
            return list(db.scalars(query.order_by(*order).offset(offset).limit(limit)))

    def seats_in(self, user_id: int, record_ids: Iterable[str]) -> dict[str, list[int]]:
        """The seats a player sat in, in each of the records ``record_ids`` he played."""
        out: dict[str, list[int]] = {}
        with self.session() as db:
            rows = db.execute(
                select(Played.record_id, Played.seat)
                .where(Played.user_id == user_id, Played.record_id.in_(list(record_ids)))
                .order_by(Played.seat)
            )
            for record_id, seat in rows:
                out.setdefault(record_id, []).append(seat)
        return out

    def played(self, user_id: int) -> list[tuple[str, int, int]]:
        """How many stored matches a player sat in, and won, per game: (game, games, wins)."""
        with self.session() as db:
            rows = db.execute(
                select(Played.game, func.count(), func.sum(Played.won.cast(Integer)))
                .where(Played.user_id == user_id)
                .group_by(Played.game)
                .order_by(func.count().desc(), Played.game)
            )
            return [(game, int(games), int(wins or 0)) for game, games, wins in rows]

    def rating_history(self, user_id: int, limit: int = 2000) -> list[Played]:
        """A player's rated matches, oldest first (the last ``limit``): the points of his
        rating chart."""
        with self.session() as db:
            rows = db.scalars(
                select(Played)
                .where(Played.user_id == user_id, Played.rating.is_not(None))
                .order_by(Played.created.desc())
                .limit(limit)
            )
            return list(reversed(list(rows)))

    def note_seats(self) -> None:
        """Note the people's seats of the matches stored before the played table was (a
        table's record whose seats have none noted): from the table's seats, the record's
        winners and the ratings the table's ending kept."""
        with self.session() as db:
            noted = select(Played.record_id)
            rows = db.execute(
                select(RecordRow, TableRow)
                .join(TableRow, TableRow.id == RecordRow.table_id)
                .where(RecordRow.id.not_in(noted))
            )
            for record, table in rows:
                winners = record.summary.get("winners", [])
                skill = ((table.ending or {}).get("ratings") or {}).get("skill") or {}
                for seat, who in enumerate(table.seats):
                    if who and who.get("user"):
                        rating = skill.get(str(seat))
                        db.add(
                            Played(
                                record_id=record.id,
                                seat=seat,
                                user_id=int(who["user"]),
                                game=record.game,
                                won=seat in winners,
                                rating=None if rating is None else float(rating),
                                created=record.created,
                            )
                        )
            try:
                db.commit()
            except IntegrityError:
                # another server on the same database noted them first
                db.rollback()
