"""Game records: canonical JSON, replayed and validated move by move.

>>> import bazar
>>> m = bazar.Match(bazar.rules("block"), seed=3)
>>> while not m.is_over():
...     m.push(m.legal_moves()[0])
>>> text = dumps(m)
>>> loads(text).ledger.scores == m.ledger.scores and dumps(loads(text)) == text
True

A record holds the rules, the match seed and, for each round, its deal (hands, bazar in
draw order, leader) and its moves. When the seed is given, every deal must be the one the
seed deals: a record whose deals were edited is rejected.
"""

from __future__ import annotations

import json
from typing import Any

from .errors import BadRecord, IllegalMove, UnknownOption, UnknownVariant
from .ledger import Ledger
from .match import Match
from .outcome import Outcome
from .round import Round, deal_seed
from .rules import Rules
from .rules import rules as make_rules

__all__ = ["FORMAT", "VERSION", "dumps", "from_data", "loads", "to_data"]

FORMAT = "bazar-record"
VERSION = 1


def to_data(game: Match | Round) -> dict[str, Any]:
    """The record of a match or a lone round as a JSON-safe dict."""
    if isinstance(game, Match):
        rounds, seed = game.rounds, game.seed
        # a round not yet begun after a finished one is dealt again from the seed on loading
        if len(rounds) > 1 and not rounds[-1].moves and rounds[-2].is_over():
            rounds = rounds[:-1]
    else:
        rounds, seed = [game], None
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": {"name": game.rules.name, "options": game.rules.options()},
        "seed": seed,
        "rounds": [
            {"number": r.number, "deal": r.deal(), "moves": [str(m) for m in r.moves]}
            for r in rounds
        ],
    }


def dumps(game: Match | Round) -> str:
    """The canonical record text (sorted keys, no timestamps): ``dumps(loads(t)) == t``."""
    return json.dumps(to_data(game), sort_keys=True, ensure_ascii=False, separators=(",", ":"))


#: the most digits a number in a record may have (a seed has at most 19)
DIGITS = 30


def loads(text: str, *, max_rounds: int | None = None, max_moves: int | None = None) -> Match:
    """The match a record describes, replayed move by move; :class:`BadRecord` on any fault.
    A record from a stranger may be held to ``max_rounds`` rounds and ``max_moves`` moves,
    counted before any move is replayed."""
    try:
        return from_data(_parse(text), max_rounds=max_rounds, max_moves=max_moves)
    except RecursionError:
        # thousands of brackets outgrow the stack as they are parsed, or copied (the seed of
        # the next deals is the record's JSON)
        raise BadRecord.of("record_nests") from None


def _parse(text: str) -> Any:
    try:
        return json.loads(text, parse_int=_whole)
    except (TypeError, json.JSONDecodeError) as error:
        raise BadRecord.of("record_json", why=str(error)) from None


def _whole(text: str) -> int:
    # int() of thousands of digits is slow, and past 4,300 refused with a ValueError
    digits = len(text.lstrip("-"))
    if digits > DIGITS:
        raise BadRecord.of("record_digits", digits=digits, most=DIGITS)
    return int(text)


def from_data(data: Any, *, max_rounds: int | None = None, max_moves: int | None = None) -> Match:
    """The match of a record dict (see :func:`loads`)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BadRecord.of("record_format", format=FORMAT)
    if data.get("version") != VERSION:
        raise BadRecord.of("record_version", version=data.get("version"), only=VERSION)
    rules = _rules(data.get("rules"))
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise BadRecord.of("record_seed_form", seed=seed)
    if seed is not None and not -(2**63) <= seed < 2**63:
        # what the club's database holds, and more than any deal needs
        raise BadRecord.of("record_seed_range", seed=seed)
    entries = data.get("rounds")
    if not isinstance(entries, list) or not entries:
        raise BadRecord.of("record_no_rounds")
    _count(entries, max_rounds, max_moves)
    match = Match.__new__(Match)
    match.rules = rules
    match.seed = seed
    match.fallback_seed = json.dumps(data, sort_keys=True)
    match.ledger = Ledger.new(rules)
    match.rounds = []
    previous: Outcome | None = None
    for k, entry in enumerate(entries, start=1):
        if match.is_over():
            raise BadRecord.of("record_match_over", round=k)
        rnd = _round(rules, seed, k, entry, previous, match.ledger)
        match.rounds.append(rnd)
        moves = entry.get("moves")
        if not isinstance(moves, list):
            raise BadRecord.of("record_moves_form", round=k)
        for i, text in enumerate(moves, start=1):
            if rnd.is_over():
                raise BadRecord.of("record_round_over", round=k, move=i, text=text)
            try:
                rnd.push(text)
            except IllegalMove as error:
                raise BadRecord.of(
                    "record_move", round=k, move=i, text=text, reason=error
                ) from None
        if rnd.is_over():
            previous = rnd.outcome()
            assert previous is not None
            match.ledger = rnd.ledger.settle(previous)
        else:
            match._sync()
        if not rnd.is_over() and k != len(entries):
            raise BadRecord.of("record_unfinished", round=k)
    if match.round.is_over() and not match.is_over():
        match._sync()  # deals the next round (and settles any that end as they are dealt)
    return match


def _count(entries: list[Any], max_rounds: int | None, max_moves: int | None) -> None:
    if max_rounds is not None and len(entries) > max_rounds:
        raise BadRecord.of("record_rounds", rounds=len(entries), most=max_rounds)
    moves = sum(
        len(e["moves"]) for e in entries if isinstance(e, dict) and type(e.get("moves")) is list
    )
    if max_moves is not None and moves > max_moves:
        raise BadRecord.of("record_moves", moves=moves, most=max_moves)


def _rules(spec: object) -> Rules:
    if not isinstance(spec, dict) or not isinstance(spec.get("name"), str):
        raise BadRecord.of("record_rules_form")
    options = spec.get("options") or {}
    if not isinstance(options, dict):
        raise BadRecord.of("record_options_form", options=options)
    options = dict(options)
    players = options.pop("players", None)
    try:
        return make_rules(spec["name"], players=players, **options)
    except (UnknownVariant, UnknownOption, ValueError) as error:
        raise BadRecord.of("record_rules", reason=error) from None


def _round(
    rules: Rules, seed: int | None, k: int, entry: object, previous: Outcome | None, ledger: Ledger
) -> Round:
    if not isinstance(entry, dict) or not isinstance(entry.get("deal"), dict):
        raise BadRecord.of("record_round_form", round=k)
    if entry.get("number", k) != k:
        raise BadRecord.of("record_numbered", round=k, number=entry.get("number"))
    deal = entry["deal"]
    try:
        rnd = Round(rules, None, number=k, previous=previous, ledger=ledger, **deal)
    except (ValueError, TypeError) as error:
        raise BadRecord.of("record_deal", round=k, reason=error) from None
    if seed is not None:
        expected = Round(rules, deal_seed(seed, k), number=k, previous=previous, ledger=ledger)
        if expected.deal() != rnd.deal():
            raise BadRecord.of("record_altered", round=k, seed=seed)
        rnd.seed = expected.seed
    return rnd
