"""The standings: each entry's points, games, wins and tie-breaks from the reported pairings,
ranked.

The tie-breaks, as docs/tournaments.md works them through:

* **Buchholz**: the sum of the points of every opponent met (at a table of more than two,
  every other entry at it); a bye counts as an opponent with the entry's own points.
* **Median Buchholz**: the same without the round whose opponents scored most and the
  one whose scored least (only once there are three rounds or more).
* **Sonneborn–Berger**: over every opponent met, his points times what was scored against
  him: 1 when placed above him, half when level, nothing below.
* **wins**: first places, a shared first counting its fraction.
* **streak** (an arena): the games won in a row up to the last one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .model import Entry, Pairing, Standing

__all__ = ["standings"]


@dataclass
class _Tally:
    points: float = 0.0
    played: int = 0
    wins: float = 0.0
    #: per round played or byed: the opponents met, and what was scored against each
    rounds: list[tuple[list[int], list[float]]] = field(default_factory=list)
    byes: int = 0
    streak: int = 0


def standings(
    entries: Sequence[Entry],
    pairings: Sequence[Pairing],
    *,
    ranking: Sequence[str],
    out: Mapping[int, int | None] | None = None,
    left: Mapping[int, int] | None = None,
) -> list[Standing]:
    """The standings of ``entries`` (those withdrawn before playing left out), ranked by
    points then the tie-breaks named in ``ranking``; in a knock-out (``out``: the round each
    entry went out in, ``left``: its place at that table) by how far it went first."""
    tally = {e.id: _Tally() for e in entries}
    for pairing in pairings:
        if pairing.points is None:
            continue
        for seated, points in zip(pairing.entries, pairing.points, strict=True):
            tally[seated].points += points
        if pairing.bye:
            tally[pairing.entries[0]].byes += 1
            tally[pairing.entries[0]].rounds.append(([], []))
            continue
        assert pairing.places is not None
        firsts = pairing.places.count(1)
        for side, seated in enumerate(pairing.entries):
            mine = pairing.places[side]
            t = tally[seated]
            t.played += 1
            won = mine == 1
            t.wins += 1 / firsts if won else 0.0
            t.streak = t.streak + 1 if won and firsts == 1 else 0
            opponents = [o for o in pairing.entries if o != seated]
            scored = [_against(mine, pairing.places[pairing.entries.index(o)]) for o in opponents]
            t.rounds.append((opponents, scored))
    total = {e: t.points for e, t in tally.items()}
    rows = []
    for entry in entries:
        t = tally[entry.id]
        if entry.withdrawn and not t.rounds:
            continue
        per_round = [
            sum(total[o] for o in opponents) if opponents else total[entry.id]
            for opponents, _ in t.rounds
        ]
        buchholz = sum(per_round)
        median = buchholz - max(per_round) - min(per_round) if len(per_round) >= 3 else buchholz
        berger = sum(
            total[o] * s
            for opponents, scored in t.rounds
            for o, s in zip(opponents, scored, strict=True)
        )
        breaks = {
            "buchholz": buchholz,
            "median_buchholz": median,
            "sonneborn_berger": berger,
            "wins": t.wins,
            "streak": float(t.streak),
        }
        rows.append((entry, t, breaks))

    def key(row: tuple[Entry, _Tally, dict[str, float]]) -> tuple[float, ...]:
        entry, t, breaks = row
        far: tuple[float, ...] = ()
        if out is not None:
            went = out.get(entry.id)
            far = (-(went if went is not None else 1e9), (left or {}).get(entry.id, 0))
        return (*far, -t.points, *(-breaks[name] for name in ranking))

    rows.sort(key=lambda row: (key(row), row[0].id))
    result: list[Standing] = []
    for index, row in enumerate(rows):
        rank = result[-1].rank if index and key(rows[index - 1]) == key(row) else index + 1
        entry, t, breaks = row
        went = None if out is None else out.get(entry.id)
        result.append(Standing(rank, entry, t.points, t.played, t.wins, breaks, went))
    return result


def _against(mine: int, theirs: int) -> float:
    """What an entry placed ``mine`` scored against one placed ``theirs``."""
    return 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
