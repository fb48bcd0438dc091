"""What every store of the club's database shares: its engine and its sessions."""

from __future__ import annotations

from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker


class Store:
    """A store of one aggregate of the club's database (its accounts, its tables...): the
    engine and the session factory it shares with the other stores of that database."""

    def __init__(self, engine: Engine, session: sessionmaker[Session]) -> None:
        self.engine = engine
        self.session = session


def storable(text: str) -> bool:
    """Whether ``text`` may be looked for: PostgreSQL refuses a query with a NUL character in
    it where SQLite merely finds nothing (nothing stored has one).

    >>> storable("alice"), storable("al\\x00ice")
    (True, False)
    """
    return "\x00" not in text
