"""The club's ratings, a row per player and game: his skill in the game, and on his
``"kozel"`` row the club's Kozel points (:class:`~bazar.club.storage.models.Rating`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from sqlalchemy import and_, func, select
from sqlalchemy.orm import Session

from .models import Rating, User
from .store import Store, storable

__all__ = ["KOZEL", "MU", "SIGMA", "RatingStore", "SqlRatings"]

#: the game whose row holds a player's Kozel points (those of every game that counts them)
KOZEL = "kozel"

#: a new player's skill: openskill's Plackett-Luce starts everyone there
MU = 25.0
SIGMA = MU / 3


class RatingStore(Protocol):
    """The ratings as the club's matches, its leaderboard, its profiles and its tournaments'
    seedings use them (:class:`SqlRatings`)."""

    def held(self, db: Session, user_id: int, game: str) -> Rating: ...

    def ratings_of(self, user_id: int) -> list[Rating]: ...

    def skills(self, game: str, user_ids: Iterable[int]) -> dict[int, float]: ...

    def points(self, user_id: int) -> int: ...

    def leaderboard(self, game: str, limit: int = 50) -> list[tuple[User, Rating]]: ...

    def kozel_leaderboard(self, limit: int = 50) -> list[tuple[User, int]]: ...


class SqlRatings(Store):
    """The ratings in the club's database: the ``ratings`` table."""

    def held(self, db: Session, user_id: int, game: str) -> Rating:
        """The row of ``user_id`` in ``game`` in the transaction ``db``: a new one (the
        skill every player starts with, no points) added to it where he has none."""
        row = db.get(Rating, (user_id, game))
        if row is None:
            row = Rating(user_id=user_id, game=game, mu=MU, sigma=SIGMA, games=0, points=0)
            db.add(row)
        return row

    def ratings_of(self, user_id: int) -> list[Rating]:
        """A player's skills: his rows of the games he played rated."""
        with self.session() as db:
            return list(
                db.scalars(select(Rating).where(Rating.user_id == user_id, Rating.games > 0))
            )

    def skills(self, game: str, user_ids: Iterable[int]) -> dict[int, float]:
        """The skill (mu - 3 sigma) in ``game`` of each of ``user_ids`` who played it rated."""
        ids = list(user_ids)
        with self.session() as db:
            rows = db.scalars(
                select(Rating).where(Rating.game == game, Rating.user_id.in_(ids), Rating.games > 0)
            )
            return {r.user_id: r.mu - 3 * r.sigma for r in rows}

    def points(self, user_id: int) -> int:
        """A player's Kozel points (0 before his first rated match that counts them)."""
        with self.session() as db:
            held = db.scalar(
                select(Rating.points).where(Rating.user_id == user_id, Rating.game == KOZEL)
            )
            return int(held or 0)

    def leaderboard(self, game: str, limit: int = 50) -> list[tuple[User, Rating]]:
        """The most skilled players of ``game``, best first."""
        if not storable(game):
            return []
        with self.session() as db:
            rows = db.execute(
                select(User, Rating)
                .join(Rating, Rating.user_id == User.id)
                .where(Rating.game == game, Rating.games > 0)
                .order_by((Rating.mu - 3 * Rating.sigma).desc())
                .limit(limit)
            )
            return [(u, r) for u, r in rows]

    def kozel_leaderboard(self, limit: int = 50) -> list[tuple[User, int]]:
        """The registered players, the most Kozel points first: each with his points."""
        points = func.coalesce(Rating.points, 0)
        with self.session() as db:
            rows = db.execute(
                select(User, points)
                .outerjoin(Rating, and_(Rating.user_id == User.id, Rating.game == KOZEL))
                .where(User.guest.is_(False))
                .order_by(points.desc())
                .limit(limit)
            )
            return [(u, int(p)) for u, p in rows]
