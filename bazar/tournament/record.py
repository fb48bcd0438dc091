"""A tournament as one file, every match's bazar record inside, and the places a finished
match gives its sides.

>>> import bazar
>>> m = bazar.Match(bazar.rules("block"), seed=3)
>>> while not m.is_over():
...     m.push(m.legal_moves()[0])
>>> places(m)
(2, 1)
"""

from __future__ import annotations

import json

from bazar.core import record as records
from bazar.core.match import Match

from .model import Pairing, TournamentError
from .tournament import Tournament

__all__ = ["FORMAT_KEY", "dumps", "loads", "places"]

#: the key (and version) that marks a tournament file
FORMAT_KEY = "bazar_tournament"
VERSION = 1


def places(match: Match, sides: int | None = None) -> tuple[int, ...]:
    """Each side's place in a finished match: 1 = best. The winners share the first place,
    the losers the last; the sides between are placed by their score (the fewer points the
    better where the game is lost at a limit or won by the fewest); equal ones share.
    ``sides`` may ask for the places seat by seat in a team game (partners share theirs)."""
    result = match.result()
    rules = match.rules
    if result is None:
        raise TournamentError.of("match_unfinished")
    if sides is not None and sides not in (rules.sides, rules.players):
        raise TournamentError.of(
            "places_sides", game=rules.name, sides=rules.sides, players=rules.players, given=sides
        )
    won = {rules.side_of(s) for s in result.winners}
    lost = {rules.side_of(s) for s in result.losers}
    sign = rules.better_sign
    scores = match.ledger.scores

    def key(side: int) -> tuple[int, int]:
        group = 0 if side in won else 2 if side in lost else 1
        return (group, 0 if group != 1 else -sign * scores[side])

    keys = [key(side) for side in range(rules.sides)]
    by_side = tuple(1 + sum(other < mine for other in keys) for mine in keys)
    if sides is None or sides == rules.sides:
        return by_side
    return tuple(by_side[rules.side_of(seat)] for seat in range(rules.players))


def dumps(t: Tournament) -> str:
    """The tournament as one JSON file: ``{"bazar_tournament": 1, ...}`` and
    :meth:`Tournament.to_json`, each finished pairing's ``record`` a bazar record text."""
    data = {FORMAT_KEY: VERSION, **t.to_json()}
    return json.dumps(data, sort_keys=True, ensure_ascii=False, indent=1)


def loads(text: str) -> Tournament:
    """The tournament of a :func:`dumps` file, its records replayed: one that is no bazar
    record of the tournament's game, or does not give the places reported, is refused
    (``bad_file``, the reason in ``params["reason"]``), as is a file that is not a
    tournament's."""
    try:
        data = json.loads(text)
    except ValueError as error:
        raise _bad("file_json", why=str(error)) from error
    if not isinstance(data, dict) or data.get(FORMAT_KEY) != VERSION:
        raise _bad("file_version", key=FORMAT_KEY, version=VERSION)
    try:
        t = Tournament.from_json(data)
    except TournamentError as error:
        if error.code == "bad_file":
            raise
        raise TournamentError.of("bad_file", reason=error) from error
    except (KeyError, TypeError, ValueError, IndexError) as error:
        raise _bad("file_field", why=repr(error)) from error
    for p in t.pairings:
        if p.record is not None:
            _check(t, p)
    return t


def _bad(code: str, **params: object) -> TournamentError:
    return TournamentError.of("bad_file", reason=TournamentError.of(code, **params))


def _check(t: Tournament, pairing: Pairing) -> None:
    """A pairing's record replays to a match of the tournament's game that gives the places
    reported (a forfeited match may be unfinished: its places are the director's)."""
    assert pairing.record is not None
    try:
        match = records.loads(pairing.record)
    except ValueError as error:
        raise TournamentError.of("bad_file", reason=error) from error
    where = {"round": pairing.round, "board": pairing.board}
    # the same variant, whatever it is named by (the check is of identity, not of a name)
    if match.rules.variant is not t.rules.variant:
        raise _bad("file_record_game", **where, game=match.rules.name, expected=t.game)
    if pairing.forfeit:
        return
    got = places(match) if match.is_over() else None
    if got is None or got != pairing.places:
        raise _bad("file_record_places", **where, record=got, reported=pairing.places)
