"""Ratings: the Kozel club rating of the seeds (``kozel.md`` §10, ``online-club.md`` §3).

>>> kozel_delta(25)
8
>>> kozel_delta(30, timed_out_points=32), kozel_delta(13, timed_out_points=32)
(1, 2)
"""

from __future__ import annotations

from .core.scoring import round_half_away

__all__ = ["kozel_delta"]


def kozel_delta(points: int, timed_out_points: int | None = None) -> int:
    """The rating change of a player who ends a Kozel match with ``points`` recorded.

    Normal finish: ``(100 - points) / 10`` rounded half away from zero (the goat's is zero or
    negative). When a player timed out with ``timed_out_points``, every other player gets
    ``(T - points) / 10`` rounded, and at least 1 (the timed-out player's own rating does not
    change: do not call this for him).
    """
    if timed_out_points is None:
        return round_half_away(100 - points, 10)
    return max(1, round_half_away(timed_out_points - points, 10))
