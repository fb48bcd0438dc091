"""The options the cross round (:mod:`bazar.games.cross.round`) reads: the spinner and the
cross, closing doubles, the draw, and when the target is checked. The games of the family
that take one name it in their defaults; the others list :data:`CROSS_ROUND` in their
``Variant.options``, which fixes it at its default.
"""

from __future__ import annotations

from typing import Any

from bazar.core.rules import Option

__all__ = [
    "CLOSING",
    "CROSS",
    "CROSS_ROUND",
    "DRAW_MODE",
    "EXACT_TARGET",
    "LEAD_MAY_BE_CLOSED",
    "SEALED_LAYOUT_ENDS_ROUND",
    "SPINNER",
    "SPINNER_COUNT",
    "WIN_CHECK",
]

SPINNER: Option[bool] = Option(
    "spinner", "bool", "the first double played is a spinner (a cross)", False
)

SPINNER_COUNT: Option[str] = Option(
    "spinner_count",
    "enum",
    "how an uncovered spinner counts once both its sides are covered",
    "covered_only",
    values=("covered_only", "open_arms"),
)

WIN_CHECK: Option[str] = Option(
    "win_check",
    "enum",
    "when the target is checked",
    "end_of_hand",
    values=("immediate", "end_of_hand"),
)

EXACT_TARGET: Option[bool] = Option(
    "exact_target",
    "bool",
    "the target must be hit exactly; an overshooting score is not taken",
    False,
)

CROSS: Option[str] = Option(
    "cross",
    "enum",
    "the first double left open branches four ways, or there is no cross",
    "none",
    values=("first_open_double", "none"),
)

CLOSING: Option[bool] = Option(
    "closing", "bool", "a player who lays a double may close it (the move close)", False
)

LEAD_MAY_BE_CLOSED: Option[bool] = Option(
    "lead_may_be_closed", "bool", "the lead tile may be closed", False
)

SEALED_LAYOUT_ENDS_ROUND: Option[bool] = Option(
    "sealed_layout_ends_round",
    "bool",
    "a move that leaves no open end ends the round as a fish",
    False,
)

DRAW_MODE: Option[str] = Option(
    "draw_mode",
    "enum",
    "draw until a playable tile appears, or one tile per turn",
    "until_playable",
    values=("until_playable", "one_per_turn"),
)

#: every option the cross round reads
CROSS_ROUND: tuple[Option[Any], ...] = (
    SPINNER,
    SPINNER_COUNT,
    WIN_CHECK,
    EXACT_TARGET,
    CROSS,
    CLOSING,
    LEAD_MAY_BE_CLOSED,
    SEALED_LAYOUT_ENDS_ROUND,
    DRAW_MODE,
)
