"""The club's accounts: its players, the names they hold, their sessions, and the values the
club keeps for itself (its session secret)."""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Iterable
from typing import Protocol

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from .. import names
from .models import NameRow, SessionRow, Setting, User
from .store import Store, storable

__all__ = ["SESSION_SEEN_S", "AccountStore", "SqlAccounts"]

#: how stale a session's "last seen" may grow before a request notes it again (seconds)
SESSION_SEEN_S = 3600.0


class AccountStore(Protocol):
    """The accounts as the club's logins, its tournaments' entries and its start use them
    (:class:`SqlAccounts`)."""

    def secret(self) -> str: ...

    def add_user(
        self, name: str, password_hash: str | None, keys: Iterable[str] = ()
    ) -> User | None: ...

    def user(self, user_id: int) -> User | None: ...

    def registered(self, name: str) -> User | None: ...

    def holder(self, keys: Iterable[str]) -> User | None: ...

    def set_password(self, user_id: int, password_hash: str) -> None: ...

    def add_session(self, user_id: int, replacing: str | None = None) -> str: ...

    def session_user(self, session_id: str) -> tuple[User, float] | None: ...

    def seen(self, session_id: str) -> None: ...

    def upgrade_legacy(self, user_id: int) -> str | None: ...

    def revoke_session(self, session_id: str) -> None: ...


class SqlAccounts(Store):
    """The accounts in the club's database: the ``users``, ``names``, ``sessions`` and
    ``settings`` tables."""

    def secret(self) -> str:
        """The club's session secret: made on first use and kept, so that a restarted server
        still knows its players' cookies."""
        with self.session() as db:
            row = db.get(Setting, "secret")
            if row is not None:
                return row.value
            db.add(Setting(key="secret", value=secrets.token_hex(32)))
            try:
                db.commit()
            except IntegrityError:
                # another server process on the same database made it first
                db.rollback()
            row = db.get(Setting, "secret")
            assert row is not None
            return row.value

    def add_user(
        self, name: str, password_hash: str | None, keys: Iterable[str] = ()
    ) -> User | None:
        """A new guest, or with a ``password_hash`` a registered player whose name holds
        ``keys``; None if one of them is another player's (the database decides, so two
        registrations at once cannot both have it)."""
        with self.session() as db:
            user = User(name=name, password_hash=password_hash, guest=password_hash is None)
            db.add(user)
            db.flush()
            db.add_all(NameRow(key=key, user_id=user.id) for key in keys)
            try:
                db.commit()
            except IntegrityError:
                db.rollback()
                return None
            return user

    def user(self, user_id: int) -> User | None:
        with self.session() as db:
            return db.get(User, user_id)

    def registered(self, name: str) -> User | None:
        if not storable(name):
            return None
        with self.session() as db:
            return db.scalars(select(User).where(User.name == name, User.guest.is_(False))).first()

    def holder(self, keys: Iterable[str]) -> User | None:
        """The registered player whose name holds one of ``keys``."""
        keys = [k for k in keys if storable(k)]
        with self.session() as db:
            return db.scalars(
                select(User).join(NameRow, NameRow.user_id == User.id).where(NameRow.key.in_(keys))
            ).first()

    def set_password(self, user_id: int, password_hash: str) -> None:
        """A player's new password; every session he had is revoked with it, in the same
        transaction (no copy of an old cookie outlives the change)."""
        with self.session() as db:
            db.execute(update(User).where(User.id == user_id).values(password_hash=password_hash))
            db.execute(update(SessionRow).where(SessionRow.user_id == user_id).values(revoked=True))
            db.commit()

    def hold_names(self) -> None:
        """Give the registered players of a database older than the names table their names'
        keys (where two names are alike, the older player keeps the key)."""
        with self.session() as db:
            holders = select(NameRow.user_id)
            players = db.scalars(
                select(User).where(User.guest.is_(False), User.id.not_in(holders)).order_by(User.id)
            )
            for user in players:
                for key in names.keys(user.name):
                    if db.get(NameRow, key) is None:
                        db.add(NameRow(key=key, user_id=user.id))
                        db.flush()
            try:
                db.commit()
            except IntegrityError:
                # another server on the same database gave them first
                db.rollback()

    def add_session(self, user_id: int, replacing: str | None = None) -> str:
        """A new session of ``user_id``: its id, for the cookie (and kept only hashed); the
        session it replaces on the same browser, if any, is revoked in the same transaction."""
        session_id = secrets.token_urlsafe(32)
        with self.session() as db:
            if replacing is not None and storable(replacing):
                db.execute(
                    update(SessionRow)
                    .where(SessionRow.id_hash == digest(replacing))
                    .values(revoked=True)
                )
            db.add(SessionRow(id_hash=digest(session_id), user_id=user_id))
            db.commit()
        return session_id

    def session_user(self, session_id: str) -> tuple[User, float] | None:
        """The player of a session that has not been revoked, and when the session was last
        seen (``time.time()``; :meth:`seen` notes it)."""
        if not storable(session_id):
            return None
        with self.session() as db:
            row = db.get(SessionRow, digest(session_id))
            if row is None or row.revoked:
                return None
            user = db.get(User, row.user_id)
            return None if user is None else (user, row.last_seen)

    def seen(self, session_id: str) -> None:
        """Note that a session is in use now."""
        with self.session() as db:
            db.execute(
                update(SessionRow)
                .where(SessionRow.id_hash == digest(session_id))
                .values(last_seen=time.time())
            )
            db.commit()

    def upgrade_legacy(self, user_id: int) -> str | None:
        """A session for the cookie of a server before sessions were revocable, which held
        ``{"user": id}`` and nothing to revoke: the first such cookie of ``user_id`` shown
        becomes a session of his (nobody is logged out by an upgrade); any other copy of it is
        refused from then on, so a copied cookie cannot outlive the logout of the first. The
        old cookies expire anyway with the signature's age (14 days)."""
        marker = digest(f"legacy:{user_id}")
        with self.session() as db:
            if db.get(SessionRow, marker) is not None or db.get(User, user_id) is None:
                return None
            db.add(SessionRow(id_hash=marker, user_id=user_id, revoked=True))
            try:
                db.commit()
            except IntegrityError:
                # another request of the same cookie upgraded it first
                return None
        return self.add_session(user_id)

    def revoke_session(self, session_id: str) -> None:
        if not storable(session_id):
            return
        with self.session() as db:
            db.execute(
                update(SessionRow)
                .where(SessionRow.id_hash == digest(session_id))
                .values(revoked=True)
            )
            db.commit()


def digest(session_id: str) -> str:
    """What the database keeps of a session's id: its sha256."""
    return hashlib.sha256(session_id.encode()).hexdigest()
