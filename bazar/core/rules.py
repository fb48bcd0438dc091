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
from typing import TYPE_CHECKING, Any, Protocol

from .errors import UnknownOption, UnknownVariant
from .tiles import SET_SIZES

if TYPE_CHECKING:
    from .round import Round

__all__ = [
    "ALIASES",
    "VARIANTS",
    "Option",
    "Rules",
    "UnknownOption",
    "UnknownVariant",
    "Variant",
    "register",
    "rules",
]


@dataclass(frozen=True)
class Option:
    """One option of the glossary (``common.md`` §10): its type and allowed values."""

    name: str
    kind: str  # "bool", "int", "enum", "hand_size", "int_or_none"
    doc: str
    values: tuple[Any, ...] = ()
    low: int | None = None
    high: int | None = None

    def check(self, value: Any) -> Any:
        """The value normalised, or a ValueError that says what is allowed."""
        name = self.name
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            raise ValueError(f"option {name} takes True or False, not {value!r}")
        if self.kind == "enum":
            if value in self.values:
                return value
            allowed = ", ".join(map(str, self.values))
            raise ValueError(f"option {name} takes one of {allowed}; not {value!r}")
        if self.kind in ("int", "int_or_none"):
            if value is None and self.kind == "int_or_none":
                return None
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"option {name} takes a whole number, not {value!r}")
            if self.values and value not in self.values:
                allowed = ", ".join(map(str, self.values))
                raise ValueError(f"option {name} takes one of {allowed}; not {value!r}")
            if (self.low is not None and value < self.low) or (
                self.high is not None and value > self.high
            ):
                raise ValueError(f"option {name} takes {self._range()}; not {value!r}")
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
            raise ValueError(f"option {name} takes a pair of numbers such as (50, 25) or None")
        raise AssertionError(self.kind)

    def _range(self) -> str:
        if self.high is None:
            return f"a number from {self.low} up"
        return f"a number from {self.low} to {self.high}"


_LEAD_ORDERS = ("kozel", "high", "low", "low_doubles_high_singles")

#: Every option bazar knows, by name (``common.md`` §10). Variants pick theirs from here.
OPTIONS: dict[str, Option] = {
    o.name: o
    for o in [
        Option("players", "int", "the number of players", low=2, high=10),
        Option("teams", "bool", "four players in two sides, partners opposite (0+2, 1+3)"),
        Option("set_max", "int", "the highest number of the set (double-N)", values=SET_SIZES),
        Option("hand_size", "hand_size", "the tiles dealt to each player"),
        Option("draw", "bool", "drawing from the bazar is allowed (False = Block)"),
        Option("bazar_reserve", "int", "undrawable tiles at the end of the bazar", low=0, high=2),
        Option(
            "first_lead",
            "enum",
            "who leads the first round",
            values=(*_LEAD_ORDERS, "one_one", "lot", "random"),
        ),
        Option(
            "later_lead",
            "enum",
            "who leads the rounds after the first",
            values=(
                "same_rule",
                "winner",
                "winner_or_fisher",
                "partner_of_winner_or_fisher",
                "rotate",
            ),
        ),
        Option(
            "after_block_lead",
            "enum",
            "who leads after a blocked round with a single winner",
            values=("same_rule", "winner", "lot", "highest_double_any_tile", "random", "rotate"),
        ),
        Option(
            "after_tie_lead",
            "enum",
            "who leads after a blocked round whose lowest count is tied",
            values=("same_rule", "lot", "highest_double_any_tile", "random", "rotate"),
        ),
        Option(
            "scoring",
            "enum",
            "positive: the winner scores the others' pips; penalty: everyone records his own",
            values=("positive", "penalty"),
        ),
        Option(
            "block_award",
            "enum",
            "the award of a blocked round (fish)",
            values=("opponents_total", "difference", "own_pips"),
        ),
        Option(
            "double_blank_value",
            "int",
            "the value of 0-0 in a hand counted at the end of a round (0 = face value)",
            values=(0, 10, 25, 50),
        ),
        Option("target", "int_or_none", "a winning mark: the first to reach it wins", low=1),
        Option("limit", "int_or_none", "a losing mark: reaching it ends the match", low=1),
    ]
}


@dataclass(frozen=True)
class Variant:
    """A named game: its description, the options it takes and how their defaults resolve.

    ``defaults`` maps each option to a value or to a function of the options resolved so far
    (``players`` first, then the options given, then the others in table order).
    """

    name: str
    description: str
    description_ru: str
    spec: str
    players: tuple[int, int]
    default_players: int
    defaults: Mapping[str, Any]
    family: str = "line"
    checks: tuple[Callable[[dict[str, Any]], None], ...] = ()
    aliases: tuple[str, ...] = ()
    #: the game's settlement, ``settle(ledger, outcome) -> Ledger`` (None: the classic one)
    settle: Callable[[Any, Any], Any] | None = None
    #: the game's match end, ``decide(ledger) -> MatchResult | None`` (None: target / limit)
    decide: Callable[[Any], Any] | None = None
    #: the points the mover scores at the end of a turn, ``score(round) -> int`` (cross games)
    score: Callable[[Any], int] | None = None
    #: whether the game is one of the Russian yards' (its terminal speaks Russian by default)
    russian: bool = False
    #: the class that plays the game, set by its family (``Round(rules)`` builds it)
    round: type[Round] | None = None


VARIANTS: dict[str, str] = {}
ALIASES: dict[str, str] = {}
_REGISTRY: dict[str, Variant] = {}


def register(variant: Variant) -> Variant:
    """Add a variant to the registry (its aliases too)."""
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
    known = ", ".join(sorted(_REGISTRY))
    names = {_normal(n): n for n in _REGISTRY} | {_normal(a): v for a, v in ALIASES.items()}
    guess = _did_you_mean(nearest(key, names))
    raise UnknownVariant(f"unknown variant {name!r}{guess}; known variants: {known}")


def nearest(key: str, names: Mapping[str, str] | Iterable[str]) -> list[str]:
    """The (at most three) ``names`` closest to the misspelt ``key``, the closest first; a
    mapping turns the spelling matched into the name to show.

    >>> nearest("kozle", ["kozel", "osel", "block"]), nearest("zzz", ["kozel"])
    (['kozel'], [])
    """
    shown = names if isinstance(names, Mapping) else {n: n for n in names}
    close = difflib.get_close_matches(key, list(shown), n=5, cutoff=0.6)
    return list(dict.fromkeys(shown[c] for c in close))[:3]


def _did_you_mean(names: list[str]) -> str:
    return f" (did you mean {' or '.join(names)}?)" if names else ""


@dataclass(frozen=True, eq=True)
class Rules:
    """Every option of one game, resolved and validated. Read options as attributes."""

    name: str
    players: int
    teams: tuple[tuple[int, ...], ...]
    _options: tuple[tuple[str, Any], ...] = field(repr=False)
    _given: tuple[tuple[str, Any], ...] = field(repr=False, compare=False)
    _lookup: dict[str, Any] = field(repr=False, compare=False, hash=False)

    def __getattr__(self, name: str) -> Any:
        try:
            return object.__getattribute__(self, "_lookup")[name]
        except KeyError:
            raise AttributeError(f"{self.name} has no option {name!r}") from None

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
            raise ValueError(f"{game.name} takes {low} to {high} players, not {players!r}")
        unknown = [k for k in options if k not in game.defaults or k == "players"]
        if unknown:
            names = [k for k in game.defaults if k != "players"]
            guess = _did_you_mean(nearest(str(unknown[0]), names))
            raise UnknownOption(
                f"{game.name} has no option {unknown[0]!r}{guess}; its options: {', '.join(names)}"
            )
        resolved: dict[str, Any] = {"players": players}
        for key, value in options.items():
            resolved[key] = OPTIONS[key].check(value)
        for key, default in game.defaults.items():
            if key not in resolved:
                resolved[key] = default(resolved) if callable(default) else default
        _check_common(game, resolved)
        for check in game.checks:
            check(resolved)
        teams = ((0, 2), (1, 3)) if resolved.get("teams") else ()
        ordered = tuple((k, resolved[k]) for k in game.defaults)
        given = (("players", players), *options.items())
        return Rules(game.name, players, teams, ordered, given, dict(ordered))

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
        raise ValueError(f"teams are played by 4 players, not {players}")
    if "hand_size" in o:
        o["hand_size"] = _resolve_hand_size(o["hand_size"], players)
        set_max = o.get("set_max", 6)
        tiles = (set_max + 1) * (set_max + 2) // 2
        if o["hand_size"] * players > tiles:
            raise ValueError(
                f"hand_size {o['hand_size']} for {players} players needs "
                f"{o['hand_size'] * players} tiles; double-{set_max} has {tiles}"
            )
    if o.get("bazar_reserve") and not o.get("draw", True):
        raise ValueError("bazar_reserve needs draw=True")


def _resolve_hand_size(value: Any, players: int) -> int:
    if isinstance(value, Mapping):
        keys = {int(k): v for k, v in value.items()}
        if players not in keys:
            raise ValueError(f"hand_size gives no size for {players} players: {dict(value)}")
        value = keys[players]
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"option hand_size takes a number of tiles from 1 up, not {value!r}")
    return value


def per_players(table: Mapping[int, Any]) -> Callable[[dict[str, Any]], Any]:
    """A default that depends on the player count."""
    return lambda o: table[o["players"]]


def option_doc(name: str) -> str:
    """The glossary line of an option."""
    return OPTIONS[name].doc
