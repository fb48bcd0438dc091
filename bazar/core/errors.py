"""The errors bazar raises. Every one is a ValueError whose message says what was wrong and
what is allowed. They are shown as ``bazar.IllegalMove`` and so on, the names users import.

An error raised by bazar carries a ``code`` and its ``params`` beside the English message, so
a program that speaks another language says it from its own catalogue, by the code (the
command line and the club do, from :mod:`bazar.i18n`); the library itself speaks English:

>>> error = UnknownVariant.of("unknown_variant_near", name="kozle", near=Names(["kozel"]),
...                           known=Names(["block", "kozel"]))
>>> str(error)
"unknown variant 'kozle' (did you mean kozel?); known variants: block, kozel"
>>> error.code, error.params["name"]
('unknown_variant_near', 'kozle')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Self

__all__ = [
    "MESSAGES",
    "BadRecord",
    "BazarError",
    "IllegalMove",
    "InconsistentDeal",
    "MatchOver",
    "Names",
    "UnknownBot",
    "UnknownOption",
    "UnknownVariant",
    "code_of",
    "invalid",
]

#: code: the English message, ``str.format`` fields by name. A field may hold another error
#: (the reason a record is refused), said in the same language as the message around it.
MESSAGES: dict[str, str] = {
    # variants and options
    "unknown_variant": "unknown variant {name!r}; known variants: {known}",
    "unknown_variant_near": (
        "unknown variant {name!r} (did you mean {near:or}?); known variants: {known}"
    ),
    "unknown_option": "{game} has no option {name!r}; its options: {known}",
    "unknown_option_near": (
        "{game} has no option {name!r} (did you mean {near:or}?); its options: {known}"
    ),
    "players_range": "{game} takes {low} to {high} players, not {players!r}",
    "option_bool": "option {name} takes True or False, not {value!r}",
    "option_choice": "option {name} takes one of {allowed}; not {value!r}",
    "option_whole": "option {name} takes a whole number, not {value!r}",
    "option_between": "option {name} takes a number from {low} to {high}; not {value!r}",
    "option_from": "option {name} takes a number from {low} up; not {value!r}",
    "option_pair": "option {name} takes a pair of numbers such as (50, 25) or None",
    "teams_players": "teams are played by 4 players, not {players}",
    "hand_size_tiles": (
        "hand_size {size} for {players} players needs {needed} tiles; double-{high} has {tiles}"
    ),
    "hand_size_players": "hand_size gives no size for {players} players: {sizes}",
    "hand_size_form": "option hand_size takes a number of tiles from 1 up, not {value!r}",
    "reserve_needs_draw": "bazar_reserve needs draw=True",
    # the games' own checks of their options
    "positive_target": "positive scoring needs a target",
    "penalty_limit": "penalty scoring needs a limit",
    "penalty_block_award": "penalty scoring records own pips in a fish: block_award=own_pips",
    "own_pips_penalty": "block_award=own_pips goes with scoring=penalty",
    "target_or_limit": "a game has a target (reaching it wins) or a limit, not both",
    "needs_target": "{game} needs a target",
    "fives_target": "the fives games need a target",
    "fives_limit": "the fives games are won at a target; they have no limit",
    "telephone_block_award": "telephone: block_award takes opponents_total or difference",
    "lowest_wins_scoring": "fish_mode=lowest_wins is positive scoring: it needs a target, no limit",
    "fish_mode_penalty": "fish_mode={mode} is penalty scoring: it needs a limit, no target",
    "side_more_teams": "fish_mode=side_more_takes_all is played by teams (teams=True)",
    "kozel_doubles": "doubles_per_turn takes 1 or 2 in Kozel (a line has two ends)",
    "sea_kozel_doubles": "doubles_per_turn takes 1 or 2 in Sea Kozel (a line has two ends)",
    "team_rule": "{name} is a rule of the team game (teams=True)",
    "lead_order": "unknown lead order {order!r}",
    "lead_rule": "lead rule {rule!r} is not played by {game}",
    "set_only": "{game} is played with double-{only}, not double-{high}",
    "cut_piece_to": (
        "with 3 or 4 players the cut-off part goes to the next player: cut_piece_to=next_player"
    ),
    "poker_players": "poker deals 5 tiles each from 20: at most 4 players, not {players}",
    "poker_set": "poker is played with the 20 tiles of double-6, not double-{high}",
    "bet_range": "bet_min {low} is above bet_max {high}",
    "texas_players": "texas-42 is played by 4 players in two sides (teams=True)",
    "hand_size_table": (
        "{game} deals from double-{table} by its table; with double-{high} give hand_size"
    ),
    "hand_size_unknown": (
        "no hand size is known for {players} players on double-{high}: give hand_size"
    ),
    "engine_source": "{game} takes engine_source holder or pre_placed",
    "engine_arms": (
        "the engine takes engine_arms_required <= engine_arms_max <= {high} arms "
        "(double-{high} has {high} tiles to start them); not {required} and {most}"
    ),
    "trains_required": (
        "trains_required runs from the number of players ({players}) to 8, not {value}"
    ),
    "limit_match_end": "a limit ends the match only with match_end=limit or either",
    "match_end_limit": "match_end={match_end} needs a limit (no default is given)",
    "deal_size": (
        "{players} hands of {size} need {need} tiles; double-{high} leaves {tiles} to deal"
    ),
    # tiles and moves
    "no_tile": "no tile {a}-{b}: pips run from 0 to {high}",
    "no_set": "no double-{n} set: bazar has double-{sizes}",
    "malformed_tile": (
        "malformed tile {text!r}: write it as '6-4', '4-6', '6|4', '[6|4]' or '[6-4]' "
        "with pips 0 to 18"
    ),
    "malformed_move": (
        "malformed move {text!r}: write a move as TILE[:END] ('6-4', '6-4:R') "
        "or KIND [ARG] ('draw', 'pass', 'bid 30')"
    ),
    "move_not_text": "a move is written as text such as '6-4:R' or 'draw', not {text!r}",
    "move_kind": "unknown move kind {kind!r}; kinds: {kinds}",
    "move_end": "malformed end {end!r}: an end id is letters and digits such as 'L'",
    "move_needs_tile": "a {kind} move needs a tile",
    "move_bare": "a {kind} move takes no tile, end or value",
    "move_needs_value": "a {kind} move needs a value",
    # rounds and matches
    "illegal_move": "illegal move {move} for seat {seat}; legal moves: {legal}",
    "illegal_move_tile": (
        "illegal move {move} for seat {seat} (no tile {tile} in double-{high}); "
        "legal moves: {legal}"
    ),
    "illegal_move_over": "illegal move {move}: the round is over",
    "seat": "no seat {seat}: seats run from 0 to {last}",
    "hands_with_bazar": "give hands with bazar, or a seed alone",
    "hands_count": "{game} with {players} players needs {players} hands, not {hands}",
    "tile_not_in_set": "tile {tile} is not in double-{high}",
    "tile_twice": "tile {tile} is dealt twice",
    "leader_seat": "leader must be a seat from 0 to {last}, not {leader!r}",
    "leader_empty": "seat {seat} leads but holds no tile",
    "seat_of": "{name} must be a seat from 0 to {last}, not {seat!r}",
    "lead_needs_leader": "a forced lead needs a leader",
    "no_lead_tile": "nobody holds a tile to lead",
    "fisher_needed": "the previous round's fisher is needed to choose the leader",
    "redeal_rejected": (
        "the redeal rule (redeal_min_doubles / redeal_min_suit) rejected {tries} deals in a "
        "row: it can hardly ever be met"
    ),
    "kolbasa_lead": "kolbasa has no forced lead: the first double starts the sausage",
    "poker_lead": "poker has no forced lead",
    "texas_lead": "texas-42 has no forced lead: the bidder leads any tile",
    "first_to_act": "seat {leader} cannot act first when seat {dealer} deals",
    "first_to_bid": "seat {leader} cannot bid first when seat {dealer} deals",
    "ante": "seat {seat} holds {chips} chips and cannot pay the ante of {ante}",
    "empty_row": "seat {seat} has an empty row: every row needs a tile",
    "poker_hand": "a poker hand is five different tiles, not {tiles}",
    "poker_tile": "no tile {tile} in the 20-tile poker set (no blanks, no 1-1)",
    "poker_hand_size": (
        "a poker hand is 5 tiles (or none for a player out of the deal); seat {seat} holds {size}"
    ),
    "hand_sizes_equal": (
        "every hand holds the same number of tiles (7 in a full deal), not {sizes}"
    ),
    "round_number": "rounds are numbered from 1, not {number}",
    "engine_not_in_set": "the engine {engine} is not in double-{high}",
    "engine_lead": "the engine (lead) is one double, not {tiles}",
    "missing_engine": (
        "nobody holds {engine} or a lower double: with missing_engine={missing} the round is "
        "dealt again; give a deal with it"
    ),
    "match_over": "the match is over; no move {move} can follow",
    "match_decided": "the match is already decided",
    "ledger_sides": "{name} needs {sides} entries (one per side), not {given}",
    # a round rebuilt from a view (a bot's search)
    "view_hands": "the view has {players} seats; {given} hands were given",
    "view_rows": "the view has {players} seats; {given} rows were given",
    "view_bazar": "the view's bazar holds {size} tiles, not {given}",
    "view_aside": "the view sets {size} tiles aside, not {given}",
    "view_own_hand": "the hands given do not hold the viewer's own hand",
    "view_hand_size": "seat {seat} holds {size} tiles in the view, not {given}",
    "view_row_front": "the row of seat {seat} must start with {tile}",
    "redealt_view": "redealt() needs a round from from_view, at its view's position",
    "redealt_sizes": "redealt() keeps every hand's size",
    # boards in their JSON form
    "malformed_laid": "malformed laid tile {text!r}: write it as 'a|b' with pips 0 to {high}",
    "board_kind": "no board of kind {kind!r}: the kinds are {known}",
    # GameColony's table listings (bazar.games.gamecolony)
    "listing_form": (
        "malformed table listing {text!r}: write a listing such as '200pt/Drw', '100pt/Blk*' "
        "or '125pt/5+O'"
    ),
    "listing_points": "table listing {text!r}: the points run from 100 to 500, not {points}",
    "listing_flag_twice": "table listing {text!r}: a flag is repeated",
    "listing_spinner": "table listing {text!r}: Draw and Block have no spinner ('+')",
    "listing_game": "{game} has no GameColony listing; only Five-up, Draw and Block do",
    "listing_target": "a GameColony listing has a target from 100 to 500, not {target}",
    # records
    "record_nests": "not a bazar record: its JSON nests too deeply",
    "record_json": "not a bazar record: malformed JSON ({why})",
    "record_digits": "not a bazar record: a number has {digits} digits (at most {most})",
    "record_format": "not a bazar record: 'format' must be {format!r}",
    "record_version": "record version {version!r} is not supported (only {only})",
    "record_seed_form": "record seed must be a whole number or null, not {seed!r}",
    "record_seed_range": "record seed must be within ±2**63, not {seed}",
    "record_no_rounds": "record has no rounds",
    "record_rounds": "record has {rounds} rounds, more than the {most} accepted",
    "record_moves": "record has {moves} moves, more than the {most} accepted",
    "record_rules_form": 'record \'rules\' must be {{"name": ..., "options": {{...}}}}',
    "record_options_form": "record rules: 'options' must be an object, not {options!r}",
    "record_rules": "record rules: {reason}",
    "record_match_over": "round {round}: the match was already over",
    "record_moves_form": "round {round}: 'moves' must be a list",
    "record_round_over": "round {round}, move {move} ({text!r}): the round was already over",
    "record_move": "round {round}, move {move} ({text!r}): {reason}",
    "record_unfinished": "round {round} is unfinished but another round follows it",
    "record_round_form": "round {round}: each round needs a 'deal' and 'moves'",
    "record_numbered": "round {round}: numbered {number!r}, expected {round}",
    "record_deal": "round {round}: bad deal: {reason}",
    "record_altered": (
        "round {round}: the deal is not the one seed {seed} deals (the record was altered)"
    ),
    # bots
    "unknown_bot": "unknown bot {name!r}; bots: {known}",
    "bot_budget": "bot {bot!r} takes no budget: {name!r}",
    "bot_bad_budget": "bad budget in {name!r}: {reason}",
    "budget_form": "expected PLAYOUTS/TIME, such as 200/50ms, not {text!r}",
    "budget_positive": "a budget must be positive, not {text!r}",
    "bot_command": "cmd: needs a program to run",
    # tournaments (bazar.tournament)
    "unknown_format": "unknown tournament format {format!r}; formats: {known}",
    "rounds_needed": "a {format} tournament needs a number of rounds from 1 up, not {rounds!r}",
    "duration_needed": "an arena needs a duration in seconds above 0, not {duration!r}",
    "rounds_unused": "a {format} tournament has no number of rounds to set: its bracket or"
    " its clock decides them",
    "duration_unused": "only an arena is played for a time; a {format} tournament is played"
    " in rounds",
    "tournament_game": "the tournament's game: {reason}",
    "no_teams": "{game} has no teams: a 2x2 event needs a game played by two teams",
    "place_points": "place points are {sides} numbers, the best place's first; not {given!r}",
    "team_members": "an entry of a 2x2 event is a team of two players, not {members!r}",
    "closed": "the tournament has started: nobody can join or withdraw now",
    "no_entry": "no entry {entry}: entries run from 0 to {last}",
    "withdrawn": "entry {entry} has withdrawn",
    "too_few": "a table of {game} needs {sides} entries; the tournament has {entries}",
    "started": "the tournament has already started",
    "not_started": "the tournament has not started",
    "round_unfinished": "round {round} is not finished: {left} of its games have no result",
    "over": "the tournament is over",
    "pair_format": "a {format} tournament is paired with {method}()",
    "not_pairing": "round {round}, board {board} is not a pairing of this tournament",
    "reported": "round {round}, board {board} already has its result",
    "bye_report": "round {round}, board {board} is a bye: it has no result to report",
    "places_count": "a table of {sides} sides needs {sides} places, not {given}",
    "places_range": "places run from 1 to {sides}, not {places}",
    "forfeit_entry": "entry {entry} does not play at round {round}, board {board}",
    "match_unfinished": "the match has not finished: it has no places yet",
    "places_sides": (
        "a match of {game} has places for {sides} sides or {players} seats, not {given}"
    ),
    "bad_file": "not a bazar tournament file: {reason}",
    "file_json": "malformed JSON ({why})",
    "file_version": "it has no {key!r}: {version}",
    "file_field": "a field is missing or malformed ({why})",
    "file_entries": "its entries are not numbered 0, 1, 2 ...",
    "file_record_game": "round {round}, board {board}: a record of {game}, not of {expected}",
    "file_record_places": (
        "round {round}, board {board}: the record gives the places {record}, not {reported}"
    ),
    # the arena on a Ray cluster
    "ray_extra": "ray={address!r} needs Ray, which is not installed: pip install 'bazar[ray]'",
    "ray_unreachable": "ray={address!r}: no Ray cluster can be joined there ({reason})",
}


class Names(tuple[str, ...]):
    """Names listed in a message: ``{known}`` separates them with commas, ``{near:or}`` offers
    them as alternatives (``kozel or kozel-team``), in the word of the template's language.

    >>> f"{Names(['a', 'b']):or}", f"{Names(['a', 'b'])}"
    ('a or b', 'a, b')
    """

    def __new__(cls, names: Iterable[object] = ()) -> Self:
        return super().__new__(cls, map(str, names))

    def __format__(self, spec: str) -> str:
        return f" {spec} ".join(self) if spec else ", ".join(self)


def invalid(code: str, /, **params: object) -> ValueError:
    """A plain ValueError (a value out of range, a malformed tile) with a code: the errors
    that are no kind of their own stay ValueErrors, as API.md says.

    >>> error = invalid("no_tile", a=7, b=1, high=6)
    >>> type(error).__name__, str(error), code_of(error)
    ('ValueError', 'no tile 7-1: pips run from 0 to 6', ('no_tile', {'a': 7, 'b': 1, 'high': 6}))
    """
    error = ValueError(MESSAGES[code].format(**params))
    vars(error).update(code=code, params=params)
    return error


def code_of(error: BaseException) -> tuple[str, dict[str, object]] | None:
    """The code and parameters of an error bazar raised, or None for one without a code."""
    code, params = vars(error).get("code"), vars(error).get("params")
    return (code, params) if isinstance(code, str) and isinstance(params, dict) else None


class BazarError(ValueError):
    """A ValueError with a ``code`` (a key of :data:`MESSAGES`) and the ``params`` its message
    is made of; ``code`` is None for an error raised with a bare message."""

    def __init__(
        self,
        message: str = "",
        *,
        code: str | None = None,
        params: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.params = dict(params or {})

    @classmethod
    def of(cls, code: str, **params: object) -> Self:
        """The error ``code``, its English message made of ``params``."""
        return cls(MESSAGES[code].format(**params), code=code, params=params)

    @classmethod
    def from_error(cls, error: ValueError) -> Self:
        """``error`` (its message, and its code where it has one) as this kind of error."""
        coded = code_of(error)
        if coded is None:
            return cls(str(error))
        return cls(str(error), code=coded[0], params=coded[1])


class UnknownVariant(BazarError):
    """No variant has that name; the message names the known ones."""

    __module__ = "bazar"


class UnknownOption(BazarError):
    """The game has no option of that name; the message names the game's options."""

    __module__ = "bazar"


class IllegalMove(BazarError):
    """A move that is not legal in the position; the position is unchanged."""

    __module__ = "bazar"


class InconsistentDeal(BazarError):
    """Hidden hands that contradict what a view shows: a round cannot be rebuilt from them
    (:meth:`bazar.Round.from_view`; a trick the view shows was not a legal play with
    them), or no hands at all fit the view's tiles. A searching bot deals such a view
    again; every other error of a rebuild is a bug, and it propagates."""


class BadRecord(BazarError):
    """A record that is malformed, illegal or tampered with; names the round and move."""

    __module__ = "bazar"


class MatchOver(BazarError):
    """A move pushed into a match that has ended."""

    __module__ = "bazar"


class UnknownBot(BazarError):
    """No bot has that name, or its budget is malformed."""

    __module__ = "bazar.bots"
