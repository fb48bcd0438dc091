"""The club's stores (``bazar/club/storage``): a player's ratings and Kozel points, and the
end of a match stored with its record and ratings in one transaction. On SQLite and
PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("sqlalchemy")

from sqlalchemy.orm import Session

from bazar.club.storage import (
    KOZEL,
    Played,
    RecordRow,
    Storage,
    Stores,
    TableRow,
)
from bazar.club.storage.ratings import MU, SIGMA


def _club(db: str) -> Storage:
    """A club of Alice and Bob (registered) and Gus (a guest), and a table of Alice and Bob
    being played."""
    storage = Storage(db)
    for name, password in (("Alice", "hash"), ("Bob", "hash"), ("Gus", None)):
        assert storage.accounts.add_user(name, password) is not None
    seats = [{"user": 1, "name": "Alice"}, {"user": 2, "name": "Bob"}]
    row = TableRow(id="t1", game="kozel", options={}, seats=seats, owner=1, invite="x", seed=1)
    storage.tables.add_table(row)
    storage.tables.update_table("t1", status="playing")
    return storage


def test_a_new_rating_starts_where_openskill_starts_everyone() -> None:
    from openskill.models import PlackettLuce

    fresh = PlackettLuce().rating()
    assert (fresh.mu, fresh.sigma) == (MU, SIGMA)


def test_kozel_points_alone_are_no_skill_in_kozel(db: str) -> None:
    storage = _club(db)
    with storage.session() as session:
        storage.ratings.held(session, 1, KOZEL).points += 5
        skill = storage.ratings.held(session, 2, KOZEL)
        skill.mu, skill.games, skill.points = 30.0, 1, -2
        session.commit()
    assert [storage.ratings.points(user) for user in (1, 2, 3)] == [5, -2, 0]
    assert [r.game for r in storage.ratings.ratings_of(1)] == []
    assert [u.name for u, _ in storage.ratings.leaderboard(KOZEL)] == ["Bob"]
    assert storage.ratings.skills(KOZEL, [1, 2, 3]) == {2: pytest.approx(30.0 - 3 * SIGMA)}
    # every registered player is on the Kozel leaderboard, a guest never
    assert [(u.name, p) for u, p in storage.ratings.kozel_leaderboard()] == [
        ("Alice", 5),
        ("Bob", -2),
    ]
    storage.close()


def test_a_held_rating_is_the_players_own_once_he_has_one(db: str) -> None:
    storage = _club(db)
    with storage.session() as session:
        storage.ratings.held(session, 1, "block").games = 4
        session.commit()
    with storage.session() as session:
        held = storage.ratings.held(session, 1, "block")
        assert (held.mu, held.sigma, held.games, held.points) == (MU, SIGMA, 4, 0)
    storage.close()


def _settle(storage: Stores, fails: bool) -> Any:
    """What the club adds to the end of the match of ``t1``: its record, Alice's seat in it
    and her Kozel points; then, if ``fails``, an error."""

    def settle(db: Session) -> dict[str, Any]:
        record = RecordRow(
            id="t1", table_id="t1", game="kozel", players=["Alice", "Bob"], text="{}", summary={}
        )
        seat = Played(record_id="t1", seat=0, user_id=1, game="kozel", won=True)
        storage.records.add_match(db, record, [seat])
        storage.ratings.held(db, 1, KOZEL).points += 3
        if fails:
            raise RuntimeError("the settling failed")
        return {"kozel": {"0": 3}}

    return settle


def test_the_end_of_a_match_is_stored_whole(db: str) -> None:
    storage = _club(db)
    row = storage.tables.finish_match(
        "t1", {"normal": True}, (0, 0, "6-6"), _settle(storage, fails=False)
    )
    assert (row.status, row.ending) == (
        "finished",
        {"normal": True, "ratings": {"kozel": {"0": 3}}},
    )
    assert storage.tables.moves("t1") == ["6-6"]
    assert storage.records.record("t1") is not None
    assert storage.records.played(1) == [("kozel", 1, 1)]
    assert storage.ratings.points(1) == 3
    storage.close()


def test_the_end_of_a_match_whose_settling_fails_stores_none_of_it(db: str) -> None:
    storage = _club(db)
    with pytest.raises(RuntimeError):
        storage.tables.finish_match(
            "t1", {"normal": True}, (0, 0, "6-6"), _settle(storage, fails=True)
        )
    table = storage.tables.table("t1")
    assert table is not None and (table.status, table.ending) == ("playing", None)
    assert storage.tables.moves("t1") == []
    assert storage.records.record("t1") is None and storage.records.played(1) == []
    assert storage.ratings.points(1) == 0
    storage.close()


def test_record_texts_are_read_for_the_records_stored(db: str) -> None:
    storage = _club(db)
    storage.tables.finish_match("t1", {"normal": True}, None, _settle(storage, fails=False))
    assert storage.records.texts(["t1", "nope", "t\x00"]) == {"t1": "{}"}
    assert storage.records.texts([]) == {}
    storage.close()


def test_an_analysis_is_kept_once_by_its_record_seats_deals_and_coach(db: str) -> None:
    storage = _club(db)
    storage.tables.finish_match("t1", {"normal": True}, None, _settle(storage, fails=False))
    assert storage.records.analysis("t1", "0", 16, 1) is None
    storage.records.add_analysis("t1", "0", 16, 1, '{"first": 1}')
    # another process that computed the same analysis keeps nothing more, and fails nothing
    storage.records.add_analysis("t1", "0", 16, 1, '{"second": 2}')
    assert storage.records.analysis("t1", "0", 16, 1) == '{"first": 1}'
    # another seat, another number of deals or another coach is another analysis
    assert storage.records.analysis("t1", "0,1", 16, 1) is None
    assert storage.records.analysis("t1", "0", 32, 1) is None
    assert storage.records.analysis("t1", "0", 16, 2) is None
    assert storage.records.analysis("t\x00", "0", 16, 1) is None
    storage.close()
