"""Accounts: guests by name, registered players by an argon2 password hash, and the sessions
they log in with. The session cookie (Starlette's signed ``SessionMiddleware``) holds only a
session's id; the database says whose it is and whether it still holds (logging out, or a new
password, revokes it).

Hashing a password takes tens of milliseconds of a processor: it runs in a small pool of
threads of its own, never on the event loop the tables answer on, and wrong passwords are
counted by name and by client address (:class:`Tries`), so that a guesser gets a few tries
and then "try again in N s". The accounts' writes (a new player, a session, a password) run
in threads too, through :func:`~bazar.club.storage.stored`.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from . import names
from .errors import ServerError
from .routing import Windows
from .settings import Settings
from .storage import SESSION_SEEN_S, AccountStore, User, stored

__all__ = ["Accounts", "AuthError", "Tries", "check_name"]

log = logging.getLogger("bazar.club")

_hasher = PasswordHasher()
T = TypeVar("T")


class AuthError(ServerError):
    """A login or registration that cannot be accepted, with the reason."""


def check_name(name: Any) -> str:
    """``name`` as the club keeps it (:func:`names.normal`), or AuthError."""
    if not isinstance(name, str) or not names.NAME.match(names.normal(name)):
        raise AuthError("name_form")
    return names.normal(name)


def check_password(password: Any) -> str:
    if not isinstance(password, str) or not 6 <= len(password) <= 200:
        raise AuthError("password_form")
    return password


def _verify(password_hash: str, password: str) -> bool:
    try:
        return _hasher.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


class Tries:
    """Tries in a sliding window: a key (a name, an address) may try ``limit`` times within
    ``window_s`` seconds. Only tries still in the window are kept, so what this holds is
    bounded by what arrived in the last window.

    >>> tries = Tries(2, 60.0)
    >>> tries.take(["address:10.0.0.7"]); tries.take(["address:10.0.0.7"])
    >>> 59 < tries.wait("address:10.0.0.7") <= 60, tries.wait("address:10.0.0.8")
    (True, 0.0)
    """

    def __init__(
        self, limit: int, window_s: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.limit, self.window_s, self.clock = limit, window_s, clock
        # oldest last try first: what has left the window is at the front
        self._tries: OrderedDict[str, deque[float]] = OrderedDict()

    def wait(self, key: str) -> float:
        """Seconds until ``key`` may try again (0 if it may now)."""
        now = self.clock()
        self._forget(now)
        tries = self._tries.get(key)
        if tries is None or len(tries) < self.limit:
            return 0.0
        return max(0.0, tries[0] + self.window_s - now)

    def take(self, keys: Iterable[str]) -> None:
        """A try of each of ``keys``, counted before it is checked: guesses sent at once
        cannot all pass before the first is found wrong."""
        now = self.clock()
        for key in keys:
            tries = self._tries.pop(key, None) or deque(maxlen=self.limit)
            tries.append(now)
            self._tries[key] = tries

    def give_back(self, keys: Iterable[str]) -> None:
        """The last try of each of ``keys`` was right: it does not count."""
        for key in keys:
            tries = self._tries.get(key)
            if tries:
                tries.pop()
            if not tries:
                self._tries.pop(key, None)

    def _forget(self, now: float) -> None:
        while self._tries:
            key, tries = next(iter(self._tries.items()))
            if tries and tries[-1] > now - self.window_s:
                break
            del self._tries[key]


class Accounts:
    """The club's players: guests, registrations, logins and their sessions."""

    def __init__(self, storage: AccountStore, settings: Settings) -> None:
        self.storage = storage
        self.settings = settings
        self.tries = Tries(settings.login_tries, settings.login_window_s)
        #: the same tries counted by every process of the club alike (Redis), once the
        #: club meets its other processes: None while it is one process
        self.shared: Windows | None = None
        self.hashing = ThreadPoolExecutor(
            max_workers=settings.hash_threads, thread_name_prefix="bazar-hash"
        )

    def close(self) -> None:
        self.hashing.shutdown(wait=True, cancel_futures=True)

    async def _hash(self, work: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.hashing, work, *args)

    # who may have which name

    def _free_name(self, given: Any) -> str:
        name = check_name(given)
        if names.is_bot_name(name):
            raise AuthError("name_reserved", name=name)
        if self.storage.holder(names.keys(name)) is not None:
            raise AuthError("name_taken", name=name)
        return name

    async def guest(self, name: Any) -> User:
        """A new guest: any name that is not a registered player's or a bot's (guests may
        share one: they are marked as guests wherever they sit)."""
        user = await stored(self.settings, self.storage.add_user, self._free_name(name), None)
        assert user is not None
        return user

    async def register(self, name: Any, password: Any) -> User:
        name = self._free_name(name)
        password_hash = await self._hash(_hasher.hash, check_password(password))
        user = await stored(
            self.settings, self.storage.add_user, name, password_hash, names.keys(name)
        )
        if user is None:
            # a look-alike name was registered while this password was hashed
            raise AuthError("name_taken", name=name)
        return user

    # passwords

    async def _check(self, user: User | None, password: Any, keys: list[str]) -> bool:
        """Whether ``password`` is ``user``'s, counted as a try of each of ``keys``."""
        shared = self.shared
        if shared is not None:
            wait = max([await shared.wait(key) for key in keys])
        else:
            wait = max(self.tries.wait(key) for key in keys)
        if wait > 0:
            raise AuthError("too_many_tries", 429, retry_after=math.ceil(wait))
        if shared is not None:
            await shared.add(keys)
        else:
            self.tries.take(keys)
        right = (
            user is not None
            and user.password_hash is not None
            and isinstance(password, str)
            and await self._hash(_verify, user.password_hash, password)
        )
        if right:
            if shared is not None:
                await shared.give_back(keys)
            else:
                self.tries.give_back(keys)
        return right

    async def login(self, name: Any, password: Any, address: str) -> User:
        name = check_name(name)
        user = self.storage.registered(name)
        who = f"user:{user.id}" if user is not None else f"name:{name.casefold()}"
        if not await self._check(user, password, [who, f"address:{address}"]):
            raise AuthError("wrong_login")
        assert user is not None
        return user

    async def change_password(self, user: User, old: Any, new: Any, address: str) -> None:
        """A registered player's new password (he knows the old one); every session he had
        ends, wherever a copy of its cookie is."""
        if user.guest:
            raise AuthError("guest_password")
        new = check_password(new)
        if not await self._check(user, old, [f"user:{user.id}", f"address:{address}"]):
            raise AuthError("wrong_password")
        password_hash = await self._hash(_hasher.hash, new)
        await stored(self.settings, self.storage.set_password, user.id, password_hash)

    # sessions: what the cookie of one browser says (changed once the database has it)

    async def start(self, session: dict[str, Any], user: User) -> None:
        """Log ``user`` in on this browser, in a new session (the one it had ends)."""
        old = session.get("id")
        replacing = old if isinstance(old, str) else None
        session_id = await stored(self.settings, self.storage.add_session, user.id, replacing)
        session.clear()
        session["id"] = session_id

    async def end(self, session: dict[str, Any]) -> None:
        session_id = session.get("id")
        if isinstance(session_id, str):
            await stored(self.settings, self.storage.revoke_session, session_id)
        session.clear()

    async def current(self, session: dict[str, Any]) -> User | None:
        session_id = session.get("id")
        legacy = session.get("user")
        if session_id is None and isinstance(legacy, int) and not isinstance(legacy, bool):
            # a cookie of the server before revocable sessions: upgraded once (AccountStore)
            session_id = await stored(self.settings, self.storage.upgrade_legacy, legacy)
            session.clear()
            if session_id is None:
                return None
            session["id"] = session_id
        if not isinstance(session_id, str):
            return None
        found = self.storage.session_user(session_id)
        if found is None:
            return None
        user, seen = found
        if time.time() - seen > SESSION_SEEN_S:
            await self._note(session_id)
        return user

    async def _note(self, session_id: str) -> None:
        """Note that a session is in use (once in a while, not on every request): tried
        once, and a database too busy to take it only leaves the note for the next time."""
        try:
            await asyncio.to_thread(self.storage.seen, session_id)
        except (OperationalError, PoolTimeout) as error:
            log.warning("a session's use was not noted (%s)", error)
