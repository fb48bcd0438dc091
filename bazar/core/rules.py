"""Rules: one frozen object holding every option of a game, and the registry of named variants.

>>> r = rules("classic", players=3)
>>> r.name, r.players, r.hand_size, r.target
('classic', 3, 5, 100)
>>> rules("домино").name
'classic'
>>> rules("block", players=4).teams
((0, 2), (1, 3))

A variant is data: a :class:`Variant` names its options' defaults, which may depend
on the player count and on the options given. ``rules(name, **options)`` validates
every option and resolves every default, so a :class:`Rules` is always complete.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Literal, Protocol, TypedDict, TypeVar

from .errors import Names, UnknownOption, UnknownVariant, invalid
from .score_state import Points, ScoreState
from .tiles import SET_SIZES, Tile, tile_set

if TYPE_CHECKING:
    from .ledger import Ledger, MatchResult
    from .outcome import Outcome
    from .round import Round

__all__ = [
    "ALIASES",
    "COMMON",
    "VARIANTS",
    "Capabilities",
    "Check",
    "Decide",
    "Family",
    "LowerWins",
    "Option",
    "Rules",
    "Score",
    "Settle",
    "StartingScore",
    "Traits",
    "UnknownOption",
    "UnknownVariant",
    "Variant",
    "declared",
    "register",
    "rules",
]


T = TypeVar("T")


@dataclass(frozen=True, eq=False)
class Option(Generic[T]):
    """One option, declared once by the game that owns it: its name, its type and allowed
    values, what it means, and ``default``, its value in a game whose code reads it but whose
    players may not choose it. Read it as ``rules[OPTION]``, typed ``T``.

    >>> DOUBLES = Option("doubles_per_turn", "int", "doubles laid in one turn", 1, low=1, high=4)
    >>> DOUBLES.check(2)
    2
    >>> DOUBLES.check(5)
    Traceback (most recent call last):
    ValueError: option doubles_per_turn takes a number from 1 to 4; not 5
    """

    name: str
    kind: str  # "bool", "int", "enum", "hand_size", "int_or_none", "pair_or_none"
    doc: str
    default: T
    values: tuple[Any, ...] = ()
    low: int | None = None
    high: int | None = None

    def check(self, value: Any) -> Any:
        """The value normalised, or a ValueError that says what is allowed."""
        name = self.name
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            raise invalid("option_bool", name=name, value=value)
        if self.kind == "enum":
            if value in self.values:
                return value
            raise invalid("option_choice", name=name, allowed=Names(self.values), value=value)
        if self.kind in ("int", "int_or_none"):
            if value is None and self.kind == "int_or_none":
                return None
            if isinstance(value, bool) or not isinstance(value, int):
                raise invalid("option_whole", name=name, value=value)
            if self.values and value not in self.values:
                raise invalid("option_choice", name=name, allowed=Names(self.values), value=value)
            if (self.low is not None and value < self.low) or (
                self.high is not None and value > self.high
            ):
                code = "option_from" if self.high is None else "option_between"
                raise invalid(code, name=name, low=self.low, high=self.high, value=value)
            return value
        if self.kind == "hand_size":
            return value  # resolved against the player count in rules()
        if self.kind == "pair_or_none":
            if value is None:
                return None
            if (
                isinstance(value, (list, tuple))
                and len(value) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
            ):
                return tuple(value)
            raise invalid("option_pair", name=name)
        raise AssertionError(self.kind)

    def __repr__(self) -> str:
        return f"Option({self.name!r})"


_LEAD_ORDERS = ("kozel", "high", "low", "low_doubles_high_singles")

# -- the common options (``common.md`` §10): every game takes some of them ----------------------

PLAYERS: Option[int] = Option("players", "int", "the number of players", 2, low=2, high=10)
TEAMS: Option[bool] = Option(
    "teams", "bool", "four players in two sides, partners opposite (0+2, 1+3)", False
)
SET_MAX: Option[int] = Option(
    "set_max", "int", "the highest number of the set (double-N)", 6, values=SET_SIZES
)
HAND_SIZE: Option[int] = Option("hand_size", "hand_size", "the tiles dealt to each player", 7)
DRAW: Option[bool] = Option(
    "draw", "bool", "a player who cannot play draws from the bazar (in Block nobody draws)", True
)
BAZAR_RESERVE: Option[int] = Option(
    "bazar_reserve", "int", "undrawable tiles at the end of the bazar", 0, low=0, high=2
)
FIRST_LEAD: Option[str] = Option(
    "first_lead",
    "enum",
    "who leads the first round",
    "random",
    values=(*_LEAD_ORDERS, "one_one", "lot", "random"),
)
LATER_LEAD: Option[str] = Option(
    "later_lead",
    "enum",
    "who leads the rounds after the first",
    "same_rule",
    values=("same_rule", "winner", "winner_or_fisher", "partner_of_winner_or_fisher", "rotate"),
)
#: None where a game has no rule of its own after a fish: ``later_lead`` applies
AFTER_BLOCK_LEAD: Option[str | None] = Option(
    "after_block_lead",
    "enum",
    "who leads after a blocked round with a single winner",
    None,
    values=("same_rule", "winner", "lot", "highest_double_any_tile", "random", "rotate"),
)
AFTER_TIE_LEAD: Option[str | None] = Option(
    "after_tie_lead",
    "enum",
    "who leads after a blocked round whose lowest count is tied",
    None,
    values=("same_rule", "lot", "highest_double_any_tile", "random", "rotate"),
)
SCORING: Option[str] = Option(
    "scoring",
    "enum",
    "who scores a round: the winner takes the others' pips, or everyone records his own",
    "positive",
    values=("positive", "penalty"),
)
BLOCK_AWARD: Option[str] = Option(
    "block_award",
    "enum",
    "the award of a blocked round (fish)",
    "opponents_total",
    values=("opponents_total", "difference", "own_pips"),
)
DOUBLE_BLANK_VALUE: Option[int] = Option(
    "double_blank_value",
    "int",
    "the value of 0-0 in a hand counted at the end of a round (0 = face value)",
    0,
    values=(0, 10, 25, 50),
)
TARGET: Option[int | None] = Option(
    "target", "int_or_none", "a winning mark: the first to reach it wins", None, low=1
)
LIMIT: Option[int | None] = Option(
    "limit", "int_or_none", "a losing mark: reaching it ends the match", None, low=1
)

#: The options of the glossary (``common.md`` §10) that every game may take without
#: declaring them; a game's own options are declared by its module (``Variant.options``).
COMMON: tuple[Option[Any], ...] = (
    PLAYERS,
    TEAMS,
    SET_MAX,
    HAND_SIZE,
    DRAW,
    BAZAR_RESERVE,
    FIRST_LEAD,
    LATER_LEAD,
    AFTER_BLOCK_LEAD,
    AFTER_TIE_LEAD,
    SCORING,
    BLOCK_AWARD,
    DOUBLE_BLANK_VALUE,
    TARGET,
    LIMIT,
)
_COMMON = {o.name: o for o in COMMON}
#: the marks of a match, which every game has (None: a game without one), since the match's
#: end, the bots and the terminal read them whatever the game
MARKS: tuple[Option[Any], ...] = (TARGET, LIMIT)


# -- what a game plugs in: its hooks, typed --------------------------------------------------

#: a check of the options resolved, which raises ValueError on a combination the game
#: does not allow (``Variant.checks``)
Check = Callable[[dict[str, Any]], None]
#: the game's settlement of a finished round, pure: ``settle(ledger, outcome) -> ledger``;
#: each family's takes the ledger of its own score state (``Variant.score_state``), which
#: a Variant's field cannot relate to its other field: the state is left open here
Settle = Callable[["Ledger[Any]", "Outcome"], "Ledger[Any]"]
#: the game's match end: the result once the ledger decides the match, else None
Decide = Callable[["Ledger"], "MatchResult | None"]
#: the points the mover scores at the end of a turn (the cross games), read off the round
Score = Callable[["Round"], int]
#: the score each side starts a match with (poker's chips)
StartingScore = Callable[["Rules"], int]
#: whether the fewest points win a match of these rules
LowerWins = Callable[["Rules"], bool]


class Family(TypedDict, total=False):
    """What a family plugs into each of its variants, given as keywords to :class:`Variant`
    (``Variant(name, ..., **FAMILY)``, Kozel's five presets): a TypedDict, so that mypy
    checks every key against the field of :class:`Variant` it sets."""

    family: str
    round: type[Round]
    settle: Settle | None
    decide: Decide | None
    score: Score | None
    starting_score: StartingScore | None
    score_state: type[ScoreState]
    lower_wins: LowerWins | None
    checks: tuple[Check, ...]
    options: tuple[Option[Any], ...]
    fixed: Mapping[str, Any]
    traits: Traits


#: how an open end is named to the players (:attr:`Traits.end_names`)
EndNames = Literal["pip", "joint", "train", "branch"]
#: how the board shows the seats' tiles, where not each holding his own hand
SeatRows = Literal["open", "blind"]
#: what a hand left at a round's end counts
HandCounts = Literal["pips", "tiles"]
#: how the club rates a match between people
ClubRating = Literal["skill", "kozel"]
#: what the yards call a side that loses the match
Loser = Literal["goat", "donkey"]


@dataclass(frozen=True)
class Traits:
    """What bots, the terminal, the club and the page may rely on about a game, asked
    instead of its name or family (``Variant.traits``); :class:`Capabilities` is what of it,
    with the rules, a client is sent.

    >>> rules("osel").variant.traits.loser, rules("fives").variant.traits.ends_branch
    ('donkey', True)
    """

    # -- the play: what bots and the search read
    #: whether a round can be rebuilt from a seat's view and a guess of the hidden tiles
    #: (``Round.from_view``), as searching bots need (not Kolbasa's blind rows)
    determinizable: bool = True
    #: whether a pass or a forced draw shows that the seat lacks every pip on the open ends
    reads_ends: bool = True
    #: whether a double may branch the layout (a spinner, a cross) or close an end, so that
    #: the open ends cannot be followed from the moves alone past one
    ends_branch: bool = False
    #: whether points are scored during play (the Fives family, Telephone, Bergen)
    scored_in_play: bool = False
    #: whether the points a seat is left holding make it the goat (the Kozel family, Sea
    #: Kozel, «Осёл»): heavy tiles are worth shedding early
    goat: bool = False
    #: whether each seat builds a train of its own (Mexican Train): a plan over many turns
    own_trains: bool = False
    #: whether a double laid stays open until tiles satisfy it (the train and tree games)
    satisfies_doubles: bool = False
    #: whether a side's score is chips staked and won (poker) rather than points
    stakes: bool = False
    # -- the table: what the terminal and the page show
    #: how an open end is named to the players: ``pip``, by the number it shows; ``joint``, the
    #: open end ``R`` by its pip and the others by number (Kolbasa's joints); ``train``, by the
    #: seat whose train it is; ``branch``, by its branch; None: the game lays no line of tiles
    end_names: EndNames | None = "pip"
    #: how the board shows the seats' tiles: None, each holds his own hand; ``open``, as rows
    #: beside the layout, which are the game itself (poker's hands, the tricks to come);
    #: ``blind``, as rows lying face down, to their owners too (Kolbasa)
    seat_rows: SeatRows | None = None
    #: what a hand left at a round's end counts: its ``pips``, or its ``tiles`` (Kolbasa's rows)
    hand_counts: HandCounts = "pips"
    #: whether tiles are left undealt, a bazar that the table counts (not where every tile of
    #: the set is dealt: poker, Texas 42)
    has_bazar: bool = True
    # -- the club: how it rates, names and speaks of the game
    #: how the club rates a match between people: ``skill`` (a skill rating per game), or
    #: ``kozel``: that and, where the rules say ``rating``, Kozel's points (``kozel.md`` §10)
    club_rating: ClubRating = "skill"
    #: what the yards call a side that loses the match (``goat`` in the Kozel family and Sea
    #: Kozel, ``donkey`` in «Осёл»); None: plain losers
    loser: Loser | None = None
    #: whether the game is one of the Russian yards' (its terminal speaks Russian by default)
    russian: bool = False


@dataclass(frozen=True)
class Variant:
    """A named game: its description, the options it takes and how their defaults resolve.

    ``defaults`` maps each option a player may set to a value or to a function of the options
    resolved so far (``players`` first, then the options given, then the others in table
    order). ``options`` declares the game's own options (its module owns them) and the common
    ones it reads without letting the players set them; an option declared there but absent
    from ``defaults`` is fixed at its ``default``, or at its value in ``fixed``. A variant
    takes a common option (:data:`COMMON`) by naming it in ``defaults``.

    Besides that data, a variant holds the hooks its family plugs in, each typed (``round``,
    ``settle``, ``decide``, ``score``, ``starting_score``, ``lower_wins``, ``checks``; a
    family that gives the same to every variant names them once, as a :class:`Family`), and
    its :class:`Traits`, what the others may rely on about the game.
    """

    name: str
    description: str
    spec: str
    players: tuple[int, int]
    default_players: int
    defaults: Mapping[str, Any]
    family: str = "line"
    checks: tuple[Check, ...] = ()
    aliases: tuple[str, ...] = ()
    #: the game's name as players say it ("Mexican Train"); the catalogue's ``title.NAME``
    #: says it in Russian
    title: str = ""
    #: the game's settlement, ``settle(ledger, outcome) -> Ledger`` (None: the classic one)
    settle: Settle | None = None
    #: the game's match end, ``decide(ledger) -> MatchResult | None`` (None: target / limit)
    decide: Decide | None = None
    #: the points the mover scores at the end of a turn, ``score(round) -> int`` (cross games)
    score: Score | None = None
    #: the class that plays the game, set by its family (``Round(rules)`` builds it)
    round: type[Round] | None = None
    #: the score each side starts a match with, ``starting_score(rules) -> int`` (None: 0)
    starting_score: StartingScore | None = None
    #: what the game keeps of a match's score beside the points, the class of the ledger's
    #: ``state`` (the Kozel family's accounts; :class:`~bazar.core.score_state.Points`: none)
    score_state: type[ScoreState] = Points
    #: the tiles in play (None: the double-``set_max`` set; poker plays a subset)
    tiles: tuple[Tile, ...] | None = None
    #: whether the fewest points win a match of these rules where no losing mark says so
    #: (the train and tree games); a match played to a ``limit`` alone is always so
    lower_wins: LowerWins | None = None
    #: what bots, the terminal, the club and the page may rely on (:class:`Traits`)
    traits: Traits = Traits()
    #: the game's own options, and the common ones it reads but players may not set
    options: tuple[Option[Any], ...] = ()
    #: the values of options the game reads but players may not set, where not their default
    fixed: Mapping[str, Any] = field(default_factory=dict)
    _declared: dict[str, Option[Any]] = field(
        init=False, repr=False, compare=False, default_factory=dict
    )

    def __post_init__(self) -> None:
        # a variant declared wrongly is its author's mistake, met as the module declaring it
        # is imported: no player's choice reaches it, so these (and register's) stay plain
        # ValueErrors in English, with no code for a catalogue to say
        declared = dict(_COMMON)
        for option in self.options:
            if declared.get(option.name, option) is not option:
                raise ValueError(f"{self.name} declares option {option.name!r} twice")
            declared[option.name] = option
        undeclared = [k for k in (*self.defaults, *self.fixed) if k not in declared]
        if undeclared:
            raise ValueError(f"{self.name} takes options it does not declare: {undeclared}")
        both = [k for k in self.fixed if k in self.defaults]
        if both:
            raise ValueError(f"{self.name}: options both fixed and free: {both}")
        object.__setattr__(self, "_declared", declared)

    # what the search bots read of the traits, kept by name on the variant for them
    @property
    def determinizable(self) -> bool:
        """:attr:`Traits.determinizable`."""
        return self.traits.determinizable

    @property
    def reads_ends(self) -> bool:
        """:attr:`Traits.reads_ends`."""
        return self.traits.reads_ends

    @property
    def ends_branch(self) -> bool:
        """:attr:`Traits.ends_branch`."""
        return self.traits.ends_branch

    @property
    def scored_in_play(self) -> bool:
        """:attr:`Traits.scored_in_play`."""
        return self.traits.scored_in_play

    @property
    def own_trains(self) -> bool:
        """:attr:`Traits.own_trains`."""
        return self.traits.own_trains

    def option(self, name: str) -> Option[Any]:
        """The declaration of the option called ``name`` (a common one or the game's)."""
        try:
            return self._declared[name]
        except KeyError:
            raise UnknownOption.of(
                "unknown_option", game=self.name, name=name, known=Names(self._declared)
            ) from None

    def fixed_values(self) -> dict[str, Any]:
        """The options the game reads but its players may not set, with their values."""
        declared = (*self.options, *MARKS)
        out = {o.name: o.default for o in declared if o.name not in self.defaults}
        out.update(self.fixed)
        return out


VARIANTS: dict[str, str] = {}
ALIASES: dict[str, str] = {}
_REGISTRY: dict[str, Variant] = {}


#: every option of the registered games by name: one declaration for each spelling
_DECLARED: dict[str, Option[Any]] = dict(_COMMON)


def register(variant: Variant) -> Variant:
    """Add a variant to the registry (its aliases and its options' declarations too)."""
    for option in variant.options:
        if _DECLARED.get(option.name, option) is not option:
            raise ValueError(f"option {option.name!r} of {variant.name} is declared elsewhere")
    _DECLARED.update((o.name, o) for o in variant.options)
    _REGISTRY[variant.name] = variant
    VARIANTS[variant.name] = variant.description
    for alias in variant.aliases:
        ALIASES[alias] = variant.name
    return variant


def _normal(name: str) -> str:
    return name.strip().lower().replace("ё", "е").replace("_", "-")


def variant(name: str) -> Variant:
    """The registered variant called ``name`` or one of its aliases."""
    if name in _REGISTRY:
        return _REGISTRY[name]
    key = _normal(name)
    for candidate, target in [*((n, n) for n in _REGISTRY), *ALIASES.items()]:
        if _normal(candidate) == key:
            return _REGISTRY[target]
    names = {_normal(n): n for n in _REGISTRY} | {_normal(a): v for a, v in ALIASES.items()}
    near = Names(nearest(key, names))
    code = "unknown_variant_near" if near else "unknown_variant"
    raise UnknownVariant.of(code, name=name, near=near, known=Names(sorted(_REGISTRY)))


def nearest(key: str, names: Mapping[str, str] | Iterable[str]) -> list[str]:
    """The (at most three) ``names`` closest to the misspelt ``key``, the closest first; a
    mapping turns the spelling matched into the name to show.

    >>> nearest("kozle", ["kozel", "osel", "block"]), nearest("zzz", ["kozel"])
    (['kozel'], [])
    """
    shown = names if isinstance(names, Mapping) else {n: n for n in names}
    close = difflib.get_close_matches(key, list(shown), n=5, cutoff=0.6)
    return list(dict.fromkeys(shown[c] for c in close))[:3]


@dataclass(frozen=True)
class Capabilities:
    """What a client may rely on about a game, sent with its rules so that a page asks these
    instead of the game's name or family (``docs/protocol.md``, "Capabilities").

    >>> caps = rules("fives").capabilities()
    >>> caps.round_score, caps.scored_in_play, caps.end_names
    ('bonus', True, 'pip')
    >>> rules("mexican-train").capabilities().round_score
    'penalty'
    """

    #: what the row of a round's change in the score table is: ``award`` (Kozel's accounts,
    #: opened or remembered), ``bonus`` (the points the round's end adds to those scored in
    #: play), ``chips``, ``penalty`` (points that count against their side) or ``points``
    round_score: str
    #: whether points are scored during play (``Traits.scored_in_play``)
    scored_in_play: bool
    #: how an open end is named (``Traits.end_names``): ``pip``, ``joint``, ``train``,
    #: ``branch``, or None where no tile is laid in a line
    end_names: str | None
    #: how the board shows the seats' tiles (``Traits.seat_rows``): None, ``open``, ``blind``
    seat_rows: str | None
    #: what a hand left at a round's end counts: ``pips`` or ``tiles``
    hand_counts: str
    #: whether there is a bazar for the table to count
    has_bazar: bool
    #: whether each seat builds a train of its own, which a marker opens to the others
    own_trains: bool
    #: whether a double laid stays open until tiles satisfy it
    satisfies_doubles: bool
    #: whether a rated match of the game also keeps the club's Kozel points (``kozel.md`` §10)
    club_points: bool

    @classmethod
    def of(cls, r: Rules) -> Capabilities:
        """The capabilities of the rules ``r``."""
        traits = r.variant.traits
        return cls(
            round_score=_round_score(r),
            scored_in_play=traits.scored_in_play,
            end_names=traits.end_names,
            seat_rows=traits.seat_rows,
            hand_counts=traits.hand_counts,
            has_bazar=traits.has_bazar,
            own_trains=traits.own_trains,
            satisfies_doubles=traits.satisfies_doubles,
            club_points=traits.club_rating == "kozel",
        )

    def to_json(self) -> dict[str, Any]:
        """A JSON-safe dict, a key per capability."""
        return dict(vars(self))


def _round_score(r: Rules) -> str:
    game = r.variant
    if r.keeps_accounts:
        return "award"
    if game.traits.scored_in_play:
        return "bonus"
    if game.traits.stakes:
        return "chips"
    # a losing mark, or a game that may count the fewest points: a round's points count against
    if r.limit is not None or game.lower_wins is not None:
        return "penalty"
    return "points"


@dataclass(frozen=True, eq=True)
class Rules:
    """Every option of one game, resolved and validated. Read a game's own option with its
    declaration, ``rules[DOUBLES_PER_TURN]``; the common options are properties.

    >>> from bazar.games.line.options import DOUBLES_PER_TURN
    >>> rules("osel")[DOUBLES_PER_TURN], rules("classic")[DOUBLES_PER_TURN], rules("kozel").limit
    (4, 1, 101)
    >>> rules("poker")[DOUBLES_PER_TURN]  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    bazar.UnknownOption: poker has no option 'doubles_per_turn'; its options: players, set_max, ...
    """

    name: str
    players: int
    teams: tuple[tuple[int, ...], ...]
    _options: tuple[tuple[str, Any], ...] = field(repr=False)
    _given: tuple[tuple[str, Any], ...] = field(repr=False, compare=False)
    _lookup: dict[str, Any] = field(repr=False, compare=False, hash=False)

    def __getitem__(self, option: Option[T]) -> T:
        """The value of ``option``; :class:`UnknownOption` where the game does not take it."""
        try:
            value: T = self._lookup[option.name]
        except KeyError:
            raise UnknownOption.of(
                "unknown_option", game=self.name, name=option.name, known=Names(self._lookup)
            ) from None
        return value

    @property
    def set_max(self) -> int:
        return self[SET_MAX]

    @property
    def hand_size(self) -> int:
        return self[HAND_SIZE]

    @property
    def draw(self) -> bool:
        return self[DRAW]

    @property
    def bazar_reserve(self) -> int:
        return self[BAZAR_RESERVE]

    @property
    def first_lead(self) -> str:
        return self[FIRST_LEAD]

    @property
    def later_lead(self) -> str:
        return self[LATER_LEAD]

    @property
    def after_block_lead(self) -> str | None:
        return self[AFTER_BLOCK_LEAD]

    @property
    def after_tie_lead(self) -> str | None:
        return self[AFTER_TIE_LEAD]

    @property
    def scoring(self) -> str:
        return self[SCORING]

    @property
    def block_award(self) -> str:
        return self[BLOCK_AWARD]

    @property
    def double_blank_value(self) -> int:
        return self[DOUBLE_BLANK_VALUE]

    @property
    def target(self) -> int | None:
        return self[TARGET]

    @property
    def limit(self) -> int | None:
        return self[LIMIT]

    @property
    def variant(self) -> Variant:
        return _REGISTRY[self.name]

    def options(self) -> dict[str, Any]:
        """Every option, resolved and JSON-safe (``players`` and ``teams`` included)."""
        return dict(self._options)

    def replace(self, **options: Any) -> Rules:
        """The same game with some options changed (the others' defaults resolve again)."""
        given = {k: v for k, v in self._given if k not in options}
        return rules(self.name, **given, **options)

    def side_of(self, seat: int) -> int:
        """The side of ``seat``: its team's index, or the seat itself without teams."""
        if not self.teams:
            return seat
        return seat % 2

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """Every tile the game is played with."""
        return self.variant.tiles or tile_set(self.set_max)

    @property
    def lower_wins(self) -> bool:
        """Whether fewer points are better in this match: it is lost at a ``limit``, or the
        game counts the fewest points over the rounds (``Variant.lower_wins``)."""
        if self.target is None and self.limit is not None:
            return True
        lower = self.variant.lower_wins
        return lower is not None and lower(self)

    @property
    def better_sign(self) -> int:
        """+1 where more points are better, -1 where fewer are (:attr:`lower_wins`): a
        score times it ranks the seats, the best the highest."""
        return -1 if self.lower_wins else 1

    @property
    def keeps_accounts(self) -> bool:
        """Whether the game keeps Kozel's accounts (``kozel.md`` §8.1): a round's award opens
        a side's account or is remembered until one does (Sea Kozel, which keeps a single
        record, does not)."""
        options = self.options()
        return "open_threshold" in options and "single_record" not in options

    def capabilities(self) -> Capabilities:
        """What a client may rely on about this game (:class:`Capabilities`)."""
        return Capabilities.of(self)

    @property
    def sides(self) -> int:
        """How many scoring units there are: teams, or players."""
        return len(self.teams) if self.teams else self.players

    def notation(self) -> str:
        """The GameColony table listing of these rules (``"200pt/Drw"``), where one exists."""
        return rules.notation.format(self)

    def __str__(self) -> str:
        return f"{self.name} ({self.players} players)"


class TableNotation(Protocol):
    """A table notation: :mod:`bazar.games.gamecolony` is the one there is."""

    def parse(self, text: str) -> Rules: ...

    def format(self, r: Rules, spaced: bool = False) -> str: ...


class _Registry:
    """``bazar.rules``: call it with a variant name and options to get a :class:`Rules`."""

    #: the notation of :meth:`from_notation` and :meth:`Rules.notation`, set by bazar.games
    notation: TableNotation

    def __call__(self, name: str, players: int | None = None, **options: Any) -> Rules:
        game = variant(name)
        if players is None:
            players = game.default_players
        low, high = game.players
        if isinstance(players, bool) or not isinstance(players, int) or not low <= players <= high:
            raise invalid("players_range", game=game.name, low=low, high=high, players=players)
        unknown = [k for k in options if k not in game.defaults or k == "players"]
        if unknown:
            names = [k for k in game.defaults if k != "players"]
            near = Names(nearest(str(unknown[0]), names))
            code = "unknown_option_near" if near else "unknown_option"
            raise UnknownOption.of(
                code, game=game.name, name=unknown[0], near=near, known=Names(names)
            )
        resolved: dict[str, Any] = {"players": players}
        for key, value in options.items():
            resolved[key] = game.option(key).check(value)
        for key, default in game.defaults.items():
            if key not in resolved:
                resolved[key] = default(resolved) if callable(default) else default
        _check_common(game, resolved)
        for check in game.checks:
            check(resolved)
        teams = ((0, 2), (1, 3)) if resolved.get("teams") else ()
        ordered = tuple((k, resolved[k]) for k in game.defaults)
        given = (("players", players), *options.items())
        lookup = {**dict(ordered), **game.fixed_values()}
        return Rules(game.name, players, teams, ordered, given, lookup)

    def names(self) -> list[str]:
        """The canonical names of every variant."""
        return list(_REGISTRY)

    def variant(self, name: str) -> Variant:
        return variant(name)

    def from_notation(self, text: str) -> Rules:
        """Rules from a GameColony table listing such as ``"200pt/Drw"`` or ``"125pt/5+O"``."""
        return self.notation.parse(text)

    def __iter__(self) -> Iterator[str]:
        return iter(_REGISTRY)


rules = _Registry()


def _check_common(game: Variant, o: dict[str, Any]) -> None:
    players = o["players"]
    if o.get("teams") and players != 4:
        raise invalid("teams_players", players=players)
    if "hand_size" in o:
        o["hand_size"] = _resolve_hand_size(o["hand_size"], players)
        set_max = o.get("set_max", 6)
        tiles = (set_max + 1) * (set_max + 2) // 2
        if o["hand_size"] * players > tiles:
            size = o["hand_size"]
            raise invalid(
                "hand_size_tiles",
                size=size,
                players=players,
                needed=size * players,
                high=set_max,
                tiles=tiles,
            )
    if o.get("bazar_reserve") and not o.get("draw", True):
        raise invalid("reserve_needs_draw")


def _resolve_hand_size(value: object, players: int) -> int:
    if isinstance(value, Mapping):
        keys = {int(k): v for k, v in value.items()}
        if players not in keys:
            raise invalid("hand_size_players", players=players, sizes=dict(value))
        value = keys[players]
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise invalid("hand_size_form", value=value)
    return value


def per_players(table: Mapping[int, Any]) -> Callable[[dict[str, Any]], Any]:
    """A default that depends on the player count."""
    return lambda o: table[o["players"]]


def declared() -> dict[str, Option[Any]]:
    """Every option of the registered games by name (the glossary, ``common.md`` §10)."""
    return dict(_DECLARED)
