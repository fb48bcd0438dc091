"""«Осёл» ("Donkey"): Kozel scored on a cross where doubles may be closed
(``closing-doubles.md``).

The first double left open becomes the cross, open on every free side. A player may lay up to
four doubles in one turn, each on another end, and may close any double he lays (``close``):
nothing more is put on that end. A move that leaves no open end ends the round as a fish.
Everything else, the scoring above all, is the online club's Kozel (``kozel.md``).

>>> import bazar
>>> rnd = bazar.Round(bazar.rules("osel", players=2), hands=[["5-2", "1-0"], ["2-2", "5-5", "4-3"]],
...                   bazar=[], leader=0)
>>> rnd.push("5-2"); [str(m) for m in rnd.legal_moves()]
['2-2:R', 'close 2-2:R', '5-5:L', 'close 5-5:L']
>>> rnd.push("close 5-5:L"); rnd.push("close 2-2:R")
>>> rnd.ends(), rnd.outcome().reason, rnd.outcome().fisher
({}, 'fish', 1)
"""

from __future__ import annotations

from typing import Any

from bazar.core.rules import Traits, Variant, register
from bazar.games.cross.round import CrossRound
from bazar.games.line.accounts import KozelScores
from bazar.games.line.kozel import KOZEL, _kozel, decide, settle
from bazar.games.line.kozel import _check as _kozel_check

from .options import CROSS_ROUND

__all__: list[str] = []


def _check(o: dict[str, Any]) -> None:
    # Kozel's own checks; only its bound on doubles_per_turn (two ends of a line) is not ours
    _kozel_check({**o, "doubles_per_turn": 1})


register(
    Variant(
        "osel",
        "Osel (Donkey): Kozel on a cross, up to four doubles a turn, a double may be closed",
        "closing-doubles.md",
        (2, 4),
        4,
        _kozel(
            rating=True,
            early_fish="standard",
            doubles_per_turn=4,
            cross="first_open_double",
            closing=True,
            lead_may_be_closed=False,
            sealed_layout_ends_round=True,
        ),
        family="cross",
        settle=settle,
        decide=decide,
        score_state=KozelScores,
        checks=(_check,),
        aliases=("осёл", "осел", "donkey"),
        traits=Traits(
            russian=True, ends_branch=True, club_rating="kozel", goat=True, loser="donkey"
        ),
        round=CrossRound,
        options=(*KOZEL, *CROSS_ROUND),
        title="Osyol",
    )
)
