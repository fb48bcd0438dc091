"""The Kozel family's score state (``kozel.md`` §8.1, §8.4): remembered points, opened
accounts and the fish pot ("eggs"), kept by the ledger beside each side's score.

A round's award under ``open_threshold`` (13 in the club's Kozel) is remembered; the first
award that reaches it opens the side's account and puts the remembered points on the score
with it; going out wipes the out side's remembered points. A tied fish's points wait in the
pot for the next single top loser.

>>> import bazar
>>> r = bazar.rules("kozel", players=3)
>>> out = bazar.Outcome("out", out_seat=0, remaining=[[], ["4-3"], ["6-5", "2-0"]])
>>> after = bazar.Ledger(r).settle(out)
>>> after.scores, after.state
((0, 0, 13), KozelScores(remembered=(0, 7, 0), opened=(False, False, True), pot=0))
>>> after.state.standing(after.scores)
(0.0, 4.2, 13.0)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bazar.core.score_state import Accounts, PublicScores

if TYPE_CHECKING:
    from bazar.core.rules import Rules

__all__ = ["REMEMBERED_WEIGHT", "KozelScores"]

#: what a remembered point (not yet recorded) weighs against a recorded one in a match's
#: standing: it is recorded when the account opens, or wiped by going out, a debt of about
#: half its face value
REMEMBERED_WEIGHT = 0.6


@dataclass(frozen=True)
class KozelScores:
    """Each side's remembered points and whether its account is open, and the fish pot."""

    remembered: tuple[int, ...]
    opened: tuple[bool, ...]
    pot: int = 0

    @classmethod
    def start(cls, rules: Rules) -> KozelScores:
        """Nothing remembered, every account closed, an empty pot."""
        return cls((0,) * rules.sides, (False,) * rules.sides)

    @classmethod
    def from_public(cls, rules: Rules, public: PublicScores) -> KozelScores:
        remembered = public.get("remembered")
        opened = public.get("opened")
        return cls(
            tuple(remembered) if remembered is not None else (0,) * rules.sides,
            tuple(opened) if opened is not None else (False,) * rules.sides,
            int(public.get("pot", 0)),
        )

    def accounts(self, sides: int) -> Accounts:
        return {"remembered": list(self.remembered), "opened": list(self.opened), "pot": self.pot}

    def standing(self, scores: tuple[int, ...]) -> tuple[float, ...]:
        """The scores with the remembered points at :data:`REMEMBERED_WEIGHT`."""
        return tuple(
            s + REMEMBERED_WEIGHT * held for s, held in zip(scores, self.remembered, strict=True)
        )
