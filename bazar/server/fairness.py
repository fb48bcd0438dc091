"""Fair deals you can check: before each round the table publishes the sha256 of the round's
deal seed; when the round ends it reveals the seed, and anyone can recompute the deal.

>>> seed_hash(7) == hashlib.sha256(b"7").hexdigest()
True
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from .. import record
from ..round import deal_seed

__all__ = ["seed_hash", "verify"]


def seed_hash(seed: int) -> str:
    """The commitment published before a round: sha256 of the decimal deal seed."""
    return hashlib.sha256(str(seed).encode()).hexdigest()


def verify(text: str) -> list[dict[str, Any]]:
    """Each round of a record with its deal seed, the seed's hash, and whether the deal stored
    in the record is the one that seed deals (the record is replayed move by move, which
    rejects any deal that differs from its seed's). Raises BadRecord for a broken record."""
    match = record.loads(text)
    data = json.loads(text)
    out: list[dict[str, Any]] = []
    for rnd in match.rounds:
        if data.get("seed") is None:
            out.append({"number": rnd.number, "seed": None, "seed_hash": None, "confirmed": False})
            continue
        seed = deal_seed(data["seed"], rnd.number)
        out.append(
            {"number": rnd.number, "seed": seed, "seed_hash": seed_hash(seed), "confirmed": True}
        )
    return out
