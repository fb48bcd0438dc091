"""Accounts: guests by name, registered players by an argon2 password hash; the session is a
signed cookie (Starlette's ``SessionMiddleware``) holding only the user id."""

from __future__ import annotations

import re
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from .errors import ServerError
from .storage import Storage, User

__all__ = ["AuthError", "check_name", "current_user", "guest", "login", "register"]

NAME = re.compile(r"^[\w .\-]{1,24}$")
_hasher = PasswordHasher()


class AuthError(ServerError):
    """A login or registration that cannot be accepted, with the reason."""


def check_name(name: Any) -> str:
    if not isinstance(name, str) or not NAME.match(name.strip()):
        raise AuthError("name_form")
    return name.strip()


def guest(storage: Storage, name: Any) -> User:
    return storage.add_user(check_name(name), None)


def register(storage: Storage, name: Any, password: Any) -> User:
    name = check_name(name)
    if not isinstance(password, str) or not 6 <= len(password) <= 200:
        raise AuthError("password_form")
    if storage.registered(name) is not None:
        raise AuthError("name_taken", name=name)
    return storage.add_user(name, _hasher.hash(password))


def login(storage: Storage, name: Any, password: Any) -> User:
    user = storage.registered(check_name(name))
    if user is None or user.password_hash is None or not isinstance(password, str):
        raise AuthError("wrong_login")
    try:
        _hasher.verify(user.password_hash, password)
    except (VerificationError, InvalidHashError):
        raise AuthError("wrong_login") from None
    return user


def current_user(storage: Storage, session: dict[str, Any]) -> User | None:
    user_id = session.get("user")
    return storage.user(user_id) if isinstance(user_id, int) else None
