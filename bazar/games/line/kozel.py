"""Kozel («Козёл»): the penalty game of the Russian yards, and its relatives (``kozel.md``).

Whoever collects too many points becomes the goat. Five presets: ``kozel`` (the online
club's rules: remembered points, the open account, fish for everyone or for one, the eggs),
``kozel-team`` (2x2, bonuses for 6-6 and 0-0), ``kozel-goat25``, ``kozel-traditional`` and
``kozel-beginner`` (positive scoring to 300). Every house rule is an option.

>>> import bazar
>>> r = bazar.rules("kozel")
>>> ledger = bazar.Ledger(r, remembered=[19, 0, 7, 4])
>>> out = bazar.Outcome("out", out_seat=0, remaining=[[], ["2-1"], ["6-5", "2-0"], ["4-1"]])
>>> after = ledger.settle(out)
>>> after.scores, after.remembered, after.opened
((0, 0, 20, 0), (0, 3, 0, 9), (False, False, True, False))

The remembered points, opened accounts and fish pot are the family's score state
(:class:`~bazar.games.line.accounts.KozelScores`, the ledger's ``state``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bazar.core.errors import invalid
from bazar.core.options import HAND
from bazar.core.rules import SCORING, Family, Option, Traits, Variant, register
from bazar.core.scoring import award, hand_value
from bazar.games.line.round import LineRound

from .accounts import KozelScores
from .options import LINE

if TYPE_CHECKING:
    from bazar.core.ledger import Ledger, MatchResult
    from bazar.core.outcome import Outcome
    from bazar.core.rules import Rules

__all__ = [
    "EGGS",
    "FINISH_BONUS",
    "FINISH_BONUS_ON_FISH",
    "FISH_MODE",
    "GENERAL_EFFECT",
    "KOZEL",
    "LEAD_BONUS",
    "OPEN_THRESHOLD",
    "RATING",
    "decide",
    "record_award",
    "settle",
]

OPEN_THRESHOLD: Option[int | None] = Option(
    "open_threshold",
    "int_or_none",
    "the smallest single-round award that opens an account; smaller awards are remembered",
    13,
    low=1,
)
FISH_MODE: Option[str] = Option(
    "fish_mode",
    "enum",
    "how a fish is scored",
    "for_everyone",
    values=("for_everyone", "for_one", "side_more_takes_all", "lowest_wins"),
)
EGGS: Option[bool] = Option(
    "eggs", "bool", "the points of a tied fish go to a later round's single top loser", True
)
LEAD_BONUS: Option[tuple[int, int] | None] = Option(
    "lead_bonus",
    "pair_or_none",
    "added to the losing side when the round was led with 6-6 / 0-0",
    None,
)
FINISH_BONUS: Option[tuple[int, int] | None] = Option(
    "finish_bonus",
    "pair_or_none",
    "added to the losing side when the round-ending tile is 6-6 / 0-0",
    None,
)
FINISH_BONUS_ON_FISH: Option[bool] = Option(
    "finish_bonus_on_fish", "bool", "the bonus for the last tile counts the fisher's tile too", True
)
GENERAL_EFFECT: Option[str] = Option(
    "general_effect",
    "enum",
    "what a General finish does",
    "match_win",
    values=("match_win", "title_only"),
)
RATING: Option[bool] = Option("rating", "bool", "the online club's rating formulas apply", False)

#: every option the Kozel family reads: the line engine's, the hand count's, and its own
#: (``scoring`` is fixed: the award it records is the others' pips)
KOZEL: tuple[Option[Any], ...] = (
    *LINE,
    *HAND,
    SCORING,
    OPEN_THRESHOLD,
    FISH_MODE,
    EGGS,
    LEAD_BONUS,
    FINISH_BONUS,
    FINISH_BONUS_ON_FISH,
    GENERAL_EFFECT,
    RATING,
)


# -- settlement (kozel.md §8) -------------------------------------------------------------------


def record_award(
    rules: Rules,
    scores: list[int],
    remembered: list[int],
    opened: list[bool],
    side: int,
    points: int,
) -> None:
    """Record ``points`` for ``side``: into an open account, or opening it with the remembered
    points when one round's award reaches ``open_threshold``, else remembered (§8.1)."""
    threshold = rules[OPEN_THRESHOLD]
    if opened[side]:
        scores[side] += points
    elif threshold is None or points >= threshold:
        opened[side] = True
        scores[side] += remembered[side] + points
        remembered[side] = 0
    else:
        remembered[side] += points


def _side_totals(rules: Rules, outcome: Outcome, skip_side: int | None = None) -> list[int]:
    totals = [0] * rules.sides
    for seat, hand in enumerate(outcome.remaining):
        side = rules.side_of(seat)
        if side != skip_side:
            totals[side] += hand_value(rules, hand or ())
    return totals


def _bonus(rules: Rules, outcome: Outcome) -> int:
    """The team bonuses for 6-6 / 0-0 led or ending the round (§8.2)."""
    total = 0
    specials = {"6-6": 0, "0-0": 1}
    lead = str(outcome.lead) if outcome.lead is not None else None
    lead_bonus, finish_bonus = rules[LEAD_BONUS], rules[FINISH_BONUS]
    if lead_bonus and lead in specials:
        total += lead_bonus[specials[lead]]
    ends_it = outcome.reason == "out" or (outcome.reason == "fish" and rules[FINISH_BONUS_ON_FISH])
    if finish_bonus and ends_it and outcome.last_turn:
        last = str(outcome.last_turn[-1])
        if last in specials:
            total += finish_bonus[specials[last]]
    return total


def _single_top(awards: Sequence[int | None]) -> int | None:
    present = [a for a in awards if a is not None]
    if not present:
        return None
    best = max(present)
    return awards.index(best) if present.count(best) == 1 else None


def _given(award: int | None) -> int:
    """An award :func:`_single_top` picked: one of those given, never None."""
    assert award is not None
    return award


def settle(ledger: Ledger[KozelScores], outcome: Outcome) -> Ledger[KozelScores]:
    """The Kozel settlement of one round (§8.1–8.4), pure: the scores and the family's
    :class:`~bazar.games.line.accounts.KozelScores`."""
    rules = ledger.rules
    if rules[FISH_MODE] == "lowest_wins":
        gains = award(rules, outcome)
        scores = [s + g for s, g in zip(ledger.scores, gains, strict=True)]
        return _titled(ledger, outcome, ledger.replace(scores=scores))
    state = ledger.state
    scores, remembered = list(ledger.scores), list(state.remembered)
    opened, pot = list(state.opened), state.pot
    eggs = rules[EGGS]
    bonus = _bonus(rules, outcome)
    awards: list[int | None]
    if outcome.reason == "out":
        assert outcome.out_seat is not None  # a round won by going out names its seat
        out_side = rules.side_of(outcome.out_seat)
        totals = _side_totals(rules, outcome, skip_side=out_side)
        awards = [None if side == out_side else t for side, t in enumerate(totals)]
        remembered[out_side] = 0
        if bonus:
            loser = _single_top(awards)
            if loser is not None:
                awards[loser] = _given(awards[loser]) + bonus
    else:
        totals = _side_totals(rules, outcome)
        mode = rules[FISH_MODE]
        if mode == "for_everyone":
            awards = list(totals)
        else:
            total = sum(totals) + bonus
            top = _single_top(totals)
            if top is None:
                if eggs:
                    pot += total
                after = ledger.replace(state=KozelScores(state.remembered, state.opened, pot))
                return _titled(ledger, outcome, after)
            awards = [total if side == top else None for side in range(rules.sides)]
            if mode == "for_one":
                for side in range(rules.sides):
                    if side != top:
                        remembered[side] = 0
    top = _single_top(awards)
    if pot and top is not None:
        awards[top] = _given(awards[top]) + pot
        pot = 0
    for side, points in enumerate(awards):
        if points is not None:
            record_award(rules, scores, remembered, opened, side, points)
    state = KozelScores(tuple(remembered), tuple(opened), pot)
    return _titled(ledger, outcome, ledger.replace(scores=scores, state=state))


def _titled(
    before: Ledger[KozelScores], outcome: Outcome, after: Ledger[KozelScores]
) -> Ledger[KozelScores]:
    """Note a General or Officer finish (§11); a General may end the match."""
    title = (outcome.extra or {}).get("title")
    if title is None or outcome.out_seat is None:
        return after
    extra = dict(after.extra)
    extra["title"] = [outcome.out_seat, title]
    if title == "general" and after.rules[GENERAL_EFFECT] == "match_win":
        extra["general"] = after.rules.side_of(outcome.out_seat)
    return after.replace(extra=extra, rounds=after.rounds)


def decide(ledger: Ledger) -> MatchResult | None:
    """The goats (§9): every side at or over ``limit`` loses, the fewest points win (the
    others neither win nor lose); a General's side wins outright."""
    general = ledger.get("general")
    if general is not None:
        return ledger.decided([general])
    return ledger._decide()


# -- the presets (kozel.md §12) -------------------------------------------------------------------


def _check(o: dict[str, Any]) -> None:
    mode = o["fish_mode"]
    if mode == "lowest_wins":
        if o["target"] is None or o["limit"] is not None:
            raise invalid("lowest_wins_scoring")
    elif o["limit"] is None or o["target"] is not None:
        raise invalid("fish_mode_penalty", mode=mode)
    if mode == "side_more_takes_all" and not o["teams"]:
        raise invalid("side_more_teams")
    if o["doubles_per_turn"] > 2:
        raise invalid("kozel_doubles")
    for name in ("lead_bonus", "finish_bonus"):
        if o[name] is not None and not o["teams"]:
            raise invalid("team_rule", name=name)


def _kozel(**overrides: Any) -> dict[str, Any]:
    options: dict[str, Any] = {
        "players": 4,
        "teams": False,
        "set_max": 6,
        "hand_size": 7,
        "draw": True,
        "bazar_reserve": 0,
        "redeal_min_doubles": 5,
        "redeal_min_suit": 6,
        "first_lead": "kozel",
        "zero_zero_may_lead": True,
        "later_lead": "winner_or_fisher",
        "later_lead_must_double": False,
        "doubles_per_turn": 1,
        "early_fish": "dead_layout",
        "hand_values": "lone_00_10",
        "open_threshold": 13,
        "fish_mode": "for_everyone",
        "block_award": "opponents_total",
        "eggs": True,
        "lead_bonus": None,
        "finish_bonus": None,
        "finish_bonus_on_fish": True,
        "limit": 101,
        "target": None,
        "general_officer": False,
        "general_effect": "match_win",
        "rating": False,
    }
    options.update(overrides)
    return options


#: what the Kozel family plugs into each of its presets
_FAMILY: Family = {
    "round": LineRound,
    "score_state": KozelScores,
    "settle": settle,
    "decide": decide,
    "checks": (_check,),
    "traits": Traits(russian=True, club_rating="kozel", goat=True, loser="goat"),
    "options": KOZEL,
}

register(
    Variant(
        "kozel",
        "Kozel, the online club's rules: 7 tiles, 1-1 leads, small scores are remembered, "
        "101 = goat",
        "kozel.md (kozel.online)",
        (2, 4),
        4,
        _kozel(rating=True),
        aliases=("козёл", "козел", "коза"),
        **_FAMILY,
        title="Kozel",
    )
)
register(
    Variant(
        "kozel-team",
        "Team Kozel 2x2: 1-1 leads, the partner of the winner leads next, 6-6 and 0-0 cost extra",
        "kozel.md (kozel.team)",
        (4, 4),
        4,
        _kozel(
            teams=True,
            redeal_min_suit=None,
            first_lead="one_one",
            later_lead="partner_of_winner_or_fisher",
            later_lead_must_double=True,
            early_fish="standard",
            hand_values="lone_66_50_00_25",
            open_threshold=None,
            fish_mode="side_more_takes_all",
            lead_bonus=(50, 25),
            finish_bonus=(50, 25),
        ),
        aliases=("козёл 2x2", "козел 2x2", "козёл-пара"),
        **_FAMILY,
        title="Kozel, two against two",
    )
)
register(
    Variant(
        "kozel-goat25",
        "Goat-25: 7/5/5 deal, the last bazar tile stays, scores from 25 up are recorded, "
        "125 = goat",
        "kozel.md (kozel.goat25)",
        (2, 4),
        4,
        _kozel(
            hand_size={2: 7, 3: 5, 4: 5},
            bazar_reserve=1,
            redeal_min_doubles=None,
            redeal_min_suit=None,
            first_lead="high",
            hand_values="face",
            open_threshold=25,
            fish_mode="for_one",
            limit=125,
        ),
        aliases=("коза-25",),
        **_FAMILY,
        title="Goat, recorded from 25",
    )
)
register(
    Variant(
        "kozel-traditional",
        "Traditional Kozel: 7/5/5 deal, the highest double leads, two doubles a turn, 0-0 = 25",
        "kozel.md (kozel.traditional_deal)",
        (2, 4),
        4,
        _kozel(
            hand_size={2: 7, 3: 5, 4: 5},
            redeal_min_doubles=None,
            redeal_min_suit=None,
            first_lead="high",
            doubles_per_turn=2,
            hand_values="00_25",
        ),
        aliases=("традиционный козёл",),
        **_FAMILY,
        title="Kozel, the yard's deal",
    )
)
register(
    Variant(
        "kozel-beginner",
        "Kozel for beginners: the winner takes the losers' pips, 0-0 = 25, 6-6 = 50, first to 300",
        "kozel.md (kozel.beginner)",
        (2, 4),
        2,
        _kozel(
            players=2,
            hand_size={2: 7, 3: 5, 4: 5},
            redeal_min_doubles=None,
            redeal_min_suit=None,
            first_lead="low",
            later_lead="same_rule",
            early_fish="standard",
            hand_values="00_25_66_50",
            open_threshold=None,
            fish_mode="lowest_wins",
            eggs=False,
            limit=None,
            target=300,
        ),
        aliases=("козёл для начинающих",),
        **_FAMILY,
        title="Kozel for beginners",
    )
)
