"""The options the line engine (:mod:`bazar.games.line.round`) reads beyond the common
ones: the Kozel family's rules of the turn, the lead, the redeal and the goer-out's title.

The games that take them (Kozel, Sea Kozel, «Осёл», Telephone) name them in their
defaults; every other game played on the engine, or on the cross round built on it, lists
:data:`LINE` in its ``Variant.options``, which fixes them at their defaults.

>>> import bazar
>>> bazar.rules("sea-kozel")[DOUBLES_PER_TURN], bazar.rules("fives")[DOUBLES_PER_TURN]
(2, 1)
"""

from __future__ import annotations

from typing import Any

from bazar.core.rules import AFTER_BLOCK_LEAD, AFTER_TIE_LEAD, Option

__all__ = [
    "DOUBLES_PER_TURN",
    "EARLY_FISH",
    "GENERAL_OFFICER",
    "HUNDRED_PRIVILEGE",
    "LATER_LEAD_MUST_DOUBLE",
    "LINE",
    "REDEAL_MIN_DOUBLES",
    "REDEAL_MIN_SUIT",
    "SINGLE_RECORD",
    "ZERO_ZERO_MAY_LEAD",
]

REDEAL_MIN_DOUBLES: Option[int | None] = Option(
    "redeal_min_doubles",
    "int_or_none",
    "a hand with this many doubles forces a redeal",
    None,
    low=3,
    high=7,
)
REDEAL_MIN_SUIT: Option[int | None] = Option(
    "redeal_min_suit",
    "int_or_none",
    "a hand with this many tiles of one suit forces a redeal",
    None,
    low=4,
    high=7,
)
ZERO_ZERO_MAY_LEAD: Option[bool] = Option("zero_zero_may_lead", "bool", "0-0 may be led", True)
LATER_LEAD_MUST_DOUBLE: Option[bool] = Option(
    "later_lead_must_double",
    "bool",
    "the later leader must lead a double other than 0-0 / 6-6 if he holds one",
    False,
)
DOUBLES_PER_TURN: Option[int] = Option(
    "doubles_per_turn",
    "int",
    "the most doubles one player may lay in one turn, each on another end",
    1,
    low=1,
    high=4,
)
EARLY_FISH: Option[str] = Option(
    "early_fish",
    "enum",
    "a fish only when nobody can move, or as soon as the table proves the layout dead",
    "standard",
    values=("standard", "dead_layout"),
)
GENERAL_OFFICER: Option[bool] = Option(
    "general_officer",
    "bool",
    "laying 6-6 then 0-0 to go out is a General, 0-0 an Officer",
    False,
)

#: read by the engine only where ``hundred_privilege`` is played (Sea Kozel, which takes it)
SINGLE_RECORD: Option[bool] = Option(
    "single_record", "bool", "only one player (side) may hold points at a time", False
)
HUNDRED_PRIVILEGE: Option[bool] = Option(
    "hundred_privilege",
    "bool",
    "the record holder may open a round with 6-6 (a hundred); declining is stop",
    False,
)

#: the options the line engine reads (the games on the engine that do not take one list it
#: in ``Variant.options``, so it holds its default there)
LINE: tuple[Option[Any], ...] = (
    REDEAL_MIN_DOUBLES,
    REDEAL_MIN_SUIT,
    ZERO_ZERO_MAY_LEAD,
    LATER_LEAD_MUST_DOUBLE,
    DOUBLES_PER_TURN,
    EARLY_FISH,
    GENERAL_OFFICER,
    HUNDRED_PRIVILEGE,
    AFTER_BLOCK_LEAD,
    AFTER_TIE_LEAD,
)
