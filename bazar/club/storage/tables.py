"""The club's tables: their rows, their moves, and the leases that say which process runs
each (a tournament's lease too: ``TOURNAMENT_LEASE`` and its id).

Every move is appended here before a client hears of it, so a table can be rebuilt after a
restart by replaying its moves from its seed. A match's last move is stored with its end, and
with what the other stores add to that transaction (its record, its ratings): a crash leaves
either all of them or none (:meth:`SqlTables.finish_match`)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

from sqlalchemy import delete, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from .models import Lease, MoveRow, TableRow
from .store import Store, storable

__all__ = ["TOURNAMENT_LEASE", "Fence", "LeaseLost", "SqlTables", "TableStore", "fenced"]


#: what a tournament's lease is named by, before its id (a table's is its id alone)
TOURNAMENT_LEASE = "t:"

#: a write's fence: (node, lease seconds): made only while that node holds the table's lease
Fence = tuple[str, float]


class LeaseLost(Exception):
    """A table's write refused: its process no longer holds the table's lease (it let it
    expire, and another process has taken the table over). Nothing of the write is made."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"table {table_id} is no longer leased to this process")
        self.table_id = table_id


def fenced(connection: Any, table_id: str, fence: Fence) -> None:
    """Renew ``fence``'s node's lease of ``table_id`` in the transaction of ``connection``;
    :class:`LeaseLost` when that node does not hold it, another process having taken it (the
    transaction is then rolled back, whatever else it held). A lease that expired and that
    nobody took is still the node's: an expiry only lets another process take it."""
    node, lease_s = fence
    now = time.time()
    renewed = connection.execute(
        update(Lease)
        .where(Lease.table_id == table_id, Lease.node == node)
        .values(expires=now + lease_s)
    )
    if not renewed.rowcount:
        raise LeaseLost(table_id)


class TableStore(Protocol):
    """The tables as the club, its table actors and its router use them (:class:`SqlTables`)."""

    def add_table(self, row: TableRow, node: str | None = None, lease_s: float = 0.0) -> None: ...

    def add_leased(self, db: Session, row: TableRow, node: str | None, lease_s: float) -> None: ...

    def add_rematch(
        self, row: TableRow, of: str, node: str | None = None, lease_s: float = 0.0
    ) -> TableRow: ...

    def table(self, table_id: str) -> TableRow | None: ...

    def update_table(
        self, table_id: str, fence: Fence | None = None, **changes: Any
    ) -> TableRow: ...

    def tables(self, status: str | None = None, limit: int = 200) -> list[TableRow]: ...

    def lobby(self, limit: int = 200) -> list[TableRow]: ...

    def owned(self, owner: int) -> int: ...

    def delete_table(self, table_id: str) -> None: ...

    def append_move(
        self, table_id: str, n: int, seat: int, move: str, fence: Fence | None = None
    ) -> None: ...

    def append_moves(self, moves: Sequence[tuple[Any, ...]]) -> None: ...

    def moves(self, table_id: str) -> list[str]: ...

    def finish_match(
        self,
        table_id: str,
        ending: dict[str, Any],
        last: tuple[int, int, str] | None = None,
        settle: Callable[[Session], dict[str, Any] | None] | None = None,
        fence: Fence | None = None,
    ) -> TableRow: ...

    def lease(self, table_id: str, node: str, lease_s: float) -> bool: ...

    def renew(self, node: str, lease_s: float) -> set[str]: ...

    def release(self, node: str, table_ids: Iterable[str]) -> None: ...

    def owners(self, table_ids: Iterable[str]) -> dict[str, str]: ...

    def orphans(self, limit: int = 500) -> list[str]: ...


class SqlTables(Store):
    """The tables in the club's database: the ``tables``, ``moves`` and ``leases`` tables."""

    def add_table(self, row: TableRow, node: str | None = None, lease_s: float = 0.0) -> None:
        """Store the new table ``row``, leased to ``node`` for ``lease_s`` (the process that
        made it runs it), in one transaction."""
        with self.session() as db:
            self.add_leased(db, row, node, lease_s)
            db.commit()

    def add_leased(self, db: Session, row: TableRow, node: str | None, lease_s: float) -> None:
        """Add the new table ``row`` to the transaction ``db``, leased to ``node`` for
        ``lease_s`` (unless ``node`` is None): a tournament adds its round's tables so."""
        db.add(row)
        if node is not None:
            db.add(Lease(table_id=row.id, node=node, expires=time.time() + lease_s))

    def add_rematch(
        self, row: TableRow, of: str, node: str | None = None, lease_s: float = 0.0
    ) -> TableRow:
        """Store the table ``row``, the rematch of the finished table ``of``, and name it in
        that one's ending, in one transaction (``row`` leased to ``node`` as
        :meth:`add_table` leases it): the row of ``of``."""
        with self.session() as db:
            self.add_leased(db, row, node, lease_s)
            old = db.get(TableRow, of)
            assert old is not None
            old.ending = {**(old.ending or {}), "rematch": row.id}
            db.commit()
            return old

    def table(self, table_id: str) -> TableRow | None:
        if not storable(table_id):
            return None
        with self.session() as db:
            return db.get(TableRow, table_id)

    def update_table(self, table_id: str, fence: Fence | None = None, **changes: Any) -> TableRow:
        """Change the row of ``table_id``; with a ``fence`` (node, lease seconds), only
        while that node holds the table's lease (:class:`LeaseLost` else), renewed in the
        same transaction."""
        with self.session() as db:
            if fence is not None:
                fenced(db.connection(), table_id, fence)
            row = db.get(TableRow, table_id)
            assert row is not None
            for key, value in changes.items():
                setattr(row, key, value)
            db.commit()
            return row

    def tables(self, status: str | None = None, limit: int = 200) -> list[TableRow]:
        with self.session() as db:
            query = select(TableRow).order_by(TableRow.created.desc()).limit(limit)
            if status is not None:
                query = query.where(TableRow.status == status)
            return list(db.scalars(query))

    def lobby(self, limit: int = 200) -> list[TableRow]:
        """The newest open-access tables that wait for players or are being played (the
        finished ones, however many, never push a live one out of the lobby)."""
        with self.session() as db:
            query = (
                select(TableRow)
                .where(TableRow.access == "open", TableRow.status.in_(("open", "playing")))
                .order_by(TableRow.created.desc())
                .limit(limit)
            )
            return list(db.scalars(query))

    def owned(self, owner: int) -> int:
        """How many tables ``owner`` has open or playing."""
        with self.session() as db:
            query = select(func.count()).where(
                TableRow.owner == owner, TableRow.status.in_(("open", "playing"))
            )
            return int(db.scalar(query) or 0)

    def delete_table(self, table_id: str) -> None:
        """Forget a table that never started (it has no moves, no record), and its lease."""
        with self.session() as db:
            row = db.get(TableRow, table_id)
            if row is not None:
                db.delete(row)
            db.execute(delete(Lease).where(Lease.table_id == table_id))
            db.commit()

    def append_move(
        self, table_id: str, n: int, seat: int, move: str, fence: Fence | None = None
    ) -> None:
        """Store move ``n`` of a table; with a ``fence``, only while its node holds the
        table's lease, which the same transaction renews (:class:`LeaseLost` else: a process
        that lost a table can never write one more move of it)."""
        # the hot path of every move: Core statements, without the ORM's unit of work
        with self.engine.begin() as connection:
            if fence is not None:
                fenced(connection, table_id, fence)
            connection.execute(
                insert(MoveRow), {"table_id": table_id, "n": n, "seat": seat, "move": move}
            )

    def append_moves(self, moves: Sequence[tuple[Any, ...]]) -> None:
        """Store the moves of several tables in one transaction, each as :meth:`append_move`
        takes it (table, number, seat, move, fence): all of them, or none. The club's writer
        threads store the moves that come at once so (:class:`Writers`): two statements and
        a commit for them all, whatever their number."""
        rows: list[dict[str, Any]] = []
        fenced: dict[Fence, set[str]] = {}
        for table_id, n, seat, move, *fence in moves:
            rows.append({"table_id": table_id, "n": n, "seat": seat, "move": move})
            if fence and fence[0] is not None:
                fenced.setdefault(fence[0], set()).add(table_id)
        with self.engine.begin() as connection:
            for (node, lease_s), tables in fenced.items():
                now = time.time()
                renewed = connection.execute(
                    update(Lease)
                    .where(Lease.table_id.in_(tables), Lease.node == node)
                    .values(expires=now + lease_s)
                )
                if renewed.rowcount != len(tables):
                    raise LeaseLost(", ".join(sorted(tables)))
            connection.execute(insert(MoveRow), rows)

    def lease(self, table_id: str, node: str, lease_s: float) -> bool:
        """Take the lease of ``table_id`` for ``node`` (or renew it), for ``lease_s``
        seconds: whether ``node`` holds it now. It is taken only when nobody holds it or its
        holder let it expire; two processes asking at once cannot both have it."""
        now = time.time()
        with self.engine.begin() as connection:
            taken = connection.execute(
                update(Lease)
                .where(Lease.table_id == table_id, or_(Lease.node == node, Lease.expires < now))
                .values(node=node, expires=now + lease_s)
            )
            if taken.rowcount:
                return True
        try:
            with self.engine.begin() as connection:
                connection.execute(
                    insert(Lease), {"table_id": table_id, "node": node, "expires": now + lease_s}
                )
        except IntegrityError:
            # another process holds it (or took it just now)
            return False
        return True

    def renew(self, node: str, lease_s: float) -> set[str]:
        """Renew every lease ``node`` holds: the tables it still holds. One it let expire is
        still its own until another process takes it (a busy process that renews late keeps
        its tables); one another process took is not among them."""
        now = time.time()
        with self.engine.begin() as connection:
            connection.execute(
                update(Lease).where(Lease.node == node).values(expires=now + lease_s)
            )
            held = connection.execute(select(Lease.table_id).where(Lease.node == node))
            return {table_id for (table_id,) in held}

    def release(self, node: str, table_ids: Iterable[str]) -> None:
        """Give up ``node``'s leases of ``table_ids`` (its tables left it, or it stops):
        another process may take them over at once."""
        ids = list(table_ids)
        if not ids:
            return
        with self.engine.begin() as connection:
            connection.execute(delete(Lease).where(Lease.node == node, Lease.table_id.in_(ids)))

    def owners(self, table_ids: Iterable[str]) -> dict[str, str]:
        """The node that holds each of ``table_ids`` now (a table nobody holds, or whose
        lease expired, is left out)."""
        ids = [i for i in table_ids if storable(i)]
        if not ids:
            return {}
        with self.session() as db:
            rows = db.execute(
                select(Lease.table_id, Lease.node).where(
                    Lease.table_id.in_(ids), Lease.expires >= time.time()
                )
            )
            return {table_id: node for table_id, node in rows}

    def orphans(self, limit: int = 500) -> list[str]:
        """The matches being played that no process runs: no lease, or one let expire (its
        process died), oldest first."""
        with self.session() as db:
            rows = db.scalars(
                select(TableRow.id)
                .outerjoin(Lease, Lease.table_id == TableRow.id)
                .where(
                    TableRow.status == "playing",
                    or_(Lease.table_id.is_(None), Lease.expires < time.time()),
                )
                .order_by(TableRow.created)
                .limit(limit)
            )
            return list(rows)

    def finish_match(
        self,
        table_id: str,
        ending: dict[str, Any],
        last: tuple[int, int, str] | None = None,
        settle: Callable[[Session], dict[str, Any] | None] | None = None,
        fence: Fence | None = None,
    ) -> TableRow:
        """Store the end of a match in one transaction: its ``last`` move (number, seat,
        notation; None when it was interrupted or its last move is stored already), the
        table's status and ``ending``, and whatever ``settle`` adds (the record, the players'
        ratings: it returns the ratings' changes, kept in the ending); with a ``fence``, as
        :meth:`append_move` stores a move."""
        with self.session() as db:
            if fence is not None:
                fenced(db.connection(), table_id, fence)
            if last is not None:
                n, seat, move = last
                db.add(MoveRow(table_id=table_id, n=n, seat=seat, move=move))
            ratings = settle(db) if settle is not None else None
            row = db.get(TableRow, table_id)
            assert row is not None
            row.status = "finished"
            row.ending = {**ending, "ratings": ratings} if ratings else ending
            db.commit()
            return row

    def moves(self, table_id: str) -> list[str]:
        with self.session() as db:
            rows = db.scalars(
                select(MoveRow).where(MoveRow.table_id == table_id).order_by(MoveRow.n)
            )
            return [r.move for r in rows]
