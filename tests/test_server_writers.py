"""The club's writer threads (``bazar/club/storage.py``, :class:`Writers`): the moves of many
tables that come at once are committed together, and still each is stored once or refused on
its own; a table whose lease another process has taken is refused its move, and only it. On
each database the ``db`` fixture gives, through the storage itself."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import event

from bazar.club.settings import Settings
from bazar.club.storage import LeaseLost, Storage, TableRow, stored

#: the process that holds the tables' leases in these tests, and how long it holds them
FENCE = ("here", 30.0)


def _tables(storage: Storage, count: int) -> list[str]:
    """``count`` new tables, each leased to the node of :data:`FENCE`."""
    ids = [f"t{i:02d}" for i in range(count)]
    for i, table_id in enumerate(ids):
        row = TableRow(
            id=table_id, game="kozel", options={}, seats=[None] * 4, owner=1, invite="x", seed=i
        )
        storage.tables.add_table(row, node=FENCE[0], lease_s=FENCE[1])
    return ids


def _commits(storage: Storage) -> list[int]:
    """A list that counts the transactions the storage commits from now on."""
    made: list[int] = []
    event.listen(storage.engine, "commit", lambda connection: made.append(1))
    return made


async def _write_at_once(storage: Storage, moves: list[tuple[Any, ...]]) -> list[Any]:
    settings = Settings()
    return await asyncio.gather(
        *(stored(settings, storage.tables.append_move, *move) for move in moves),
        return_exceptions=True,
    )


def test_moves_that_come_at_once_are_committed_together_each_stored_once(db: str) -> None:
    storage = Storage(db)
    tables = _tables(storage, 40)
    commits = _commits(storage)
    moves = [(table_id, 0, 1, "6-6", FENCE) for table_id in tables]
    assert asyncio.run(_write_at_once(storage, moves)) == [None] * 40
    assert [storage.tables.moves(table_id) for table_id in tables] == [["6-6"]] * 40
    # the first move's transaction begins at once; the others wait for it, then go together
    assert len(commits) < 40


def test_a_move_whose_lease_another_process_holds_is_refused_and_no_other(db: str) -> None:
    storage = Storage(db)
    tables = _tables(storage, 12)
    # the lease of one of them has expired and another process has taken it
    storage.tables.lease(tables[5], FENCE[0], -1.0)
    assert storage.tables.lease(tables[5], "there", 30.0)
    moves = [(table_id, 0, 1, "6-6", FENCE) for table_id in tables]
    made = asyncio.run(_write_at_once(storage, moves))
    assert isinstance(made[5], LeaseLost) and made[5].table_id == tables[5]
    assert made[:5] + made[6:] == [None] * 11
    assert [len(storage.tables.moves(table_id)) for table_id in tables] == [1] * 5 + [0] + [1] * 6


def test_moves_stored_together_are_all_stored_or_none(db: str) -> None:
    storage = Storage(db)
    tables = _tables(storage, 3)
    storage.tables.lease(tables[2], FENCE[0], -1.0)
    assert storage.tables.lease(tables[2], "there", 30.0)
    with pytest.raises(LeaseLost):
        storage.tables.append_moves([(table_id, 0, 1, "6-6", FENCE) for table_id in tables])
    assert [storage.tables.moves(table_id) for table_id in tables] == [[], [], []]
    storage.tables.append_moves([(table_id, 0, 1, "6-6", FENCE) for table_id in tables[:2]])
    storage.tables.append_moves([(tables[0], 1, 2, "6-5:R"), (tables[1], 1, 2, "draw", None)])
    stored_now = [storage.tables.moves(table_id) for table_id in tables]
    assert stored_now == [["6-6", "6-5:R"], ["6-6", "draw"], []]


def test_a_lease_is_taken_only_once_it_expired_and_stays_its_holder_s_until_then(
    db: str,
) -> None:
    """The leases of ``storage.py``: one process holds a table; another may take it only
    once its lease has expired; until then a holder that renews late (a busy process) keeps
    it and its writes go on; once taken, the old holder's writes are refused and its renewal
    no longer names the table."""
    storage = Storage(db)
    (table,) = _tables(storage, 1)
    assert storage.tables.lease(table, "here", 30.0)
    assert not storage.tables.lease(table, "there", 30.0)
    assert storage.tables.owners([table]) == {table: "here"}
    # it expires and nobody takes it: still here's, its move stored and its lease renewed
    assert storage.tables.lease(table, "here", -1.0)
    assert storage.tables.owners([table]) == {}
    storage.tables.append_move(table, 0, 1, "6-6", ("here", 30.0))
    assert storage.tables.owners([table]) == {table: "here"}
    assert storage.tables.renew("here", 30.0) == {table}
    # it expires again, and this time another process takes it
    assert storage.tables.lease(table, "here", -1.0)
    assert storage.tables.lease(table, "there", 30.0)
    with pytest.raises(LeaseLost):
        storage.tables.append_move(table, 1, 2, "6-5:R", ("here", 30.0))
    assert storage.tables.renew("here", 30.0) == set()
    storage.tables.append_move(table, 1, 2, "6-5:R", ("there", 30.0))
    assert storage.tables.moves(table) == ["6-6", "6-5:R"]
    storage.tables.release("there", [table])
    assert storage.tables.owners([table]) == {} and storage.tables.lease(table, "elsewhere", 30.0)
