"""Fair deals you can check: before each round the table publishes the sha256 of the round's
deal seed; when the round ends it reveals the seed, and anyone can recompute the deal.

>>> seed_hash(7) == hashlib.sha256(b"7").hexdigest()
True
"""

from __future__ import annotations

import hashlib
from typing import Any

from bazar.core import record
from bazar.core.match import Match
from bazar.core.round import deal_seed

__all__ = ["deals", "seed_hash", "verify"]


def seed_hash(seed: int) -> str:
    """The commitment published before a round: sha256 of the decimal deal seed."""
    return hashlib.sha256(str(seed).encode()).hexdigest()


def deals(match: Match) -> list[dict[str, Any]]:
    """Each round of a match loaded from its record (or played at a table) with its deal seed,
    the seed's hash, and whether its deal is the one that seed deals: loading a record replays
    it move by move, which rejects any deal that differs from its seed's."""
    out: list[dict[str, Any]] = []
    for rnd in match.rounds:
        if match.seed is None:
            out.append({"number": rnd.number, "seed": None, "seed_hash": None, "confirmed": False})
            continue
        seed = deal_seed(match.seed, rnd.number)
        out.append(
            {"number": rnd.number, "seed": seed, "seed_hash": seed_hash(seed), "confirmed": True}
        )
    return out


def verify(text: str) -> list[dict[str, Any]]:
    """The :func:`deals` of a record; raises BadRecord for a broken record."""
    return deals(record.loads(text))
