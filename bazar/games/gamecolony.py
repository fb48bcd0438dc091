"""GameColony's table listings (``200pt/Drw``, ``125pt/5+O``): the notation behind
``bazar.rules.from_notation`` and ``Rules.notation()``.

>>> str(parse("125pt/5+O")), parse("125pt/5+O")[SPINNER]
('five-up (2 players)', True)
>>> format(parse("200pt/Drw"))
'200pt/Drw'
"""

from __future__ import annotations

import re
from typing import Any

from bazar.core.errors import invalid
from bazar.core.rules import Rules, rules

from .cross.options import SPINNER

__all__ = ["format", "parse"]

_LISTING = re.compile(r"^\s*(\d+)\s*pt\s*/\s*(5|Drw|Blk)\s*((?:[+*O]\s*)*)$")
_LISTING_GAMES = {"5": "five-up", "Drw": "draw", "Blk": "block"}


def parse(text: str) -> Rules:
    """Rules from a GameColony listing: ``<points>pt/<5|Drw|Blk>[+][*][O]``."""
    match = _LISTING.match(text) if isinstance(text, str) else None
    if match is None:
        raise invalid("listing_form", text=text)
    points, game, flags_text = int(match.group(1)), match.group(2), match.group(3)
    flags = flags_text.replace(" ", "")
    if not 100 <= points <= 500:
        raise invalid("listing_points", text=text, points=points)
    if len(set(flags)) != len(flags):
        raise invalid("listing_flag_twice", text=text)
    if "+" in flags and game != "5":
        raise invalid("listing_spinner", text=text)
    options: dict[str, Any] = {"target": points}
    if "*" in flags:
        options["first_lead"] = "random"
    if "O" in flags:
        options["later_lead"] = "rotate"
    if game == "5":
        options["spinner"] = "+" in flags
    return rules(_LISTING_GAMES[game], **options)


def format(r: Rules, spaced: bool = False) -> str:
    """The GameColony listing of ``r``; ValueError for a game GameColony does not list."""
    codes = {v: k for k, v in _LISTING_GAMES.items()}
    if r.name not in codes:
        raise invalid("listing_game", game=r.name)
    if not 100 <= (r.target or 0) <= 500:
        raise invalid("listing_target", target=r.target)
    flags = ""
    if codes[r.name] == "5" and r[SPINNER]:
        flags += "+"
    if r.first_lead == "random":
        flags += "*"
    if r.later_lead == "rotate":
        flags += "O"
    if spaced:
        return " ".join([f"{r.target}pt", "/", codes[r.name], *flags])
    return f"{r.target}pt/{codes[r.name]}{flags}"
