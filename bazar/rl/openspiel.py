"""Every bazar variant as an OpenSpiel game, so that OpenSpiel's algorithms (IS-MCTS, CFR
on small sets, its RL loops) play bazar's exact rules::

    import pyspiel
    from bazar.rl import openspiel as bos

    bos.register()
    game = pyspiel.load_game("bazar_kozel_team", {"players": 4})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    state.current_player() == state.round.leader  # True

(Not a doctest: a pyspiel game left in a doctest's namespace at the interpreter's exit
aborts the process; tests/test_rl_openspiel.py plays these games.)

A game is ``"bazar_" + variant`` with ``-`` written ``_`` (:func:`game_name`); its
parameters are ``players`` and every option of the variant whose value OpenSpiel can carry
(a whole number, a flag, a word or a real number) and whose default does not change with
the number of players (:func:`parameters`). A state is a bazar :class:`~bazar.Round`
behind OpenSpiel's interface:

* **Chance** deals the set one tile per node, uniform over the tiles not yet dealt: seat
  0's hand, then seat 1's, ..., then the bazar in draw order. Where the rules draw the
  first leader by lot (``first_lead`` ``lot`` or ``random``), one more chance node picks
  the leader, uniform over the seats. The round is then built from that explicit deal, so
  every rule that reads the hands (the holder of 1-1 leads, the engine's holder, a set-up
  draw for the engine) is bazar's own; where bazar's explicit deal fixes a lead that a
  seeded deal would draw (Kolbasa, the train and tree games, the lot of a later round),
  seat 0 leads.
* **Players** act with the ids of :class:`bazar.rl.encoding.Encoding` (one id per legal
  move, :meth:`~bazar.rl.encoding.Encoding.action_name` for the string).
* **Returns**, at the end only, are the round's value for each seat: bazar's
  :func:`~bazar.bots.sampler.round_value` of its side, relative to the other sides, so
  they sum to zero (partners share theirs).
* **Observers**: both tensors are the encoding's observation of the seat
  (:meth:`~bazar.rl.encoding.Encoding.observe_round`; zeros while the deal is under way).
  The information state string names the seat, its hand, the hand sizes and the bazar's,
  and every move in order with the tiles the seat drew: the seat's exact information
  state, which OpenSpiel's IS-MCTS keys its tree on. The observation string is shorter:
  the hand, the open ends, the table's tiles, the sizes and the last move.
* :meth:`BazarState.resample_from_infostate` deals the tiles a seat cannot see with
  bazar's own sampler (:func:`bazar.bots.sampler.sample_deal`, which keeps what passes and
  forced draws proved) and rebuilds the whole deal from it, the history rewritten so that
  replaying it gives the same state.
"""

from __future__ import annotations

import ctypes
import hashlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import pyspiel

from bazar.bots.sampler import Determinizer, round_value
from bazar.core.errors import IllegalMove
from bazar.core.round import PLACEMENTS, Round
from bazar.core.rules import VARIANTS, Rules
from bazar.core.rules import rules as make_rules
from bazar.core.tiles import Tile
from bazar.core.view import View
from bazar.rl.encoding import Encoding

__all__ = [
    "BazarGame",
    "BazarObserver",
    "BazarState",
    "Dealing",
    "game_name",
    "parameters",
    "register",
]

#: a bound on the moves of one round, for OpenSpiel's ``max_game_length``: well above the
#: longest of 100 random rounds of each variant (1,365 moves, in Kolbasa; 155 in Mexican
#: Train, under 100 elsewhere)
MAX_MOVES = 10_000
#: how many of the sampler's deals :meth:`BazarState.resample_from_infostate` tries before
#: it gives up: a deal is rejected when replaying the history from it fails
RESAMPLE_TRIES = 50
#: the lead rules decided by a lot, which bazar's explicit deal would give seat 0
LOT_LEADS = ("lot", "random")


def game_name(variant: str) -> str:
    """The OpenSpiel short name of a bazar variant.

    >>> game_name("kozel-team")
    'bazar_kozel_team'
    """
    return "bazar_" + variant.replace("-", "_")


@cache
def _player_counts(variant: str) -> list[int]:
    """The numbers of players the variant takes (those bazar.rules accepts)."""
    counts = []
    for n in range(2, 11):
        try:
            make_rules(variant, players=n)
        except ValueError:
            continue
        counts.append(n)
    return counts


@cache
def parameters(variant: str) -> dict[str, int | bool | str | float]:
    """The OpenSpiel parameters of ``variant`` with their defaults: ``players`` (the
    variant's own count) and each option whose value is a number, a flag or a word and whose
    default is the same for every player count. The options left out (a value that may be
    None or a pair, or a default that follows the player count, such as ``hand_size`` in
    the games that deal by the number of players) keep bazar's defaults.

    >>> spec = parameters("block")
    >>> spec["players"], spec["draw"], spec["set_max"]
    (2, False, 6)
    """
    base = make_rules(variant)
    counts = _player_counts(variant)
    others = [make_rules(variant, players=n).options() for n in counts]
    spec: dict[str, int | bool | str | float] = {"players": base.players}
    for name, value in base.options().items():
        if name == "players" or not isinstance(value, (int, bool, str, float)):
            continue
        if all(name in o and o[name] == value for o in others):
            spec[name] = value
    return spec


@dataclass(frozen=True)
class Dealing:
    """How the chance nodes deal a game: the hand of each seat, the bazar's size, and
    whether a last node draws the leader by lot."""

    hands: tuple[int, ...]
    bazar: int
    lot: bool

    @property
    def tiles(self) -> int:
        return sum(self.hands) + self.bazar

    @staticmethod
    def of(rules: Rules) -> Dealing:
        """The deal of ``rules``: ``hand_size`` tiles a seat and the rest of the set to the
        bazar; in the games without that option (Texas 42, poker) the hands of a seeded
        deal and its bazar."""
        size = rules.options().get("hand_size")
        lot = rules.options().get("first_lead") in LOT_LEADS
        if isinstance(size, int) and not isinstance(size, bool):
            return Dealing((size,) * rules.players, len(rules.tiles) - size * rules.players, lot)
        sample = Round(rules, seed=0).deal()
        return Dealing(tuple(len(h) for h in sample["hands"]), len(sample["bazar"]), lot)


def _bound(rules: Rules, dealing: Dealing) -> float:
    """A bound on a round's value for one seat, for OpenSpiel's utility range: where the
    winner takes the pips left in the other hands, those of the heaviest tiles the other
    seats could be left holding (the whole set less a hand where tiles may be drawn: 69 in
    Block, OpenSpiel's own bound for its block dominoes); four times the set's pips where a
    settlement, points scored in play or a match's standing count instead (a generous
    range, not a proven bound)."""
    drawing = bool(rules.options().get("draw", True)) and dealing.bazar > 0
    held = (
        dealing.tiles - min(dealing.hands) if drawing else sum(dealing.hands) - min(dealing.hands)
    )
    pips = sorted((t.pips for t in rules.tiles), reverse=True)
    bound = float(sum(pips[:held]))
    variant = rules.variant
    plain = variant.settle is None and not variant.scored_in_play and not rules.limit
    return bound if plain else 4.0 * sum(pips)


@cache
def _game_type(variant: str) -> pyspiel.GameType:
    counts = _player_counts(variant)
    return pyspiel.GameType(
        short_name=game_name(variant),
        long_name=f"bazar {variant}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        # round values are relative to the other sides: they sum to zero (tested)
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(counts),
        min_num_players=min(counts),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters(variant),
    )


# pyspiel ships no types: its classes are Any to mypy
class BazarGame(pyspiel.Game):  # type: ignore[misc]
    """One variant with its options, as an OpenSpiel game."""

    def __init__(self, variant: str, params: dict[str, Any] | None = None) -> None:
        spec = parameters(variant)
        given = dict(params or {})
        players = int(given.pop("players", spec["players"]))
        # OpenSpiel hands every parameter with its default filled in: pass bazar only the
        # options that differ, so that rules whose defaults depend on each other stay whole
        options = {k: v for k, v in given.items() if k in spec and spec[k] != v}
        rules = make_rules(variant, players=players, **options)
        encoding = Encoding.of(rules)
        dealing = Dealing.of(rules)
        deck: tuple[Tile, ...] = tuple(rules.tiles)
        bound = _bound(rules, dealing)
        info = pyspiel.GameInfo(
            num_distinct_actions=encoding.num_actions,
            max_chance_outcomes=max(len(deck), players),
            num_players=players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=dealing.tiles + int(dealing.lot) + MAX_MOVES,
        )
        # pybind11 gives the object its attributes only once the base is initialised
        super().__init__(_game_type(variant), info, {**spec, **(params or {})})
        self.variant = variant
        self.rules = rules
        self.encoding = encoding
        self.dealing = dealing
        self.deck = deck
        self.tile_index = {t: i for i, t in enumerate(deck)}

    def __deepcopy__(self, memo: dict[int, Any]) -> BazarGame:
        """The game itself: a game is immutable, and pyspiel's deep copy would lose the
        fields above."""
        return self

    def __reduce__(self) -> tuple[Callable[..., Any], tuple[Any, ...]]:
        """Pickled as its name and parameters, loaded back through pyspiel."""
        return _load, (game_name(self.variant), dict(self.get_parameters()))

    def new_initial_state(self) -> BazarState:
        return BazarState(self)

    def make_py_observer(
        self,
        iig_obs_type: pyspiel.IIGObservationType | None = None,
        params: dict[str, Any] | None = None,
    ) -> BazarObserver:
        if params:
            raise ValueError(f"bazar games take no observation parameters; got {params}")
        return BazarObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


class _Table:
    """The mutable part of a state: the chance actions so far and, once dealt, the bazar
    round. OpenSpiel clones a Python state with ``copy.deepcopy``; this copies the round
    with :meth:`Round.copy` (tiles and moves are interned: a deep copy would break them)."""

    __slots__ = ("dealt", "ends", "game", "leader", "rebuilt", "rnd")

    def __init__(self, game: BazarGame) -> None:
        #: the game, shared by every copy (a deep copy of a pyspiel game loses its fields)
        self.game = game
        self.dealt: list[int] = []
        self.leader: int | None = None
        self.rnd: Round | None = None
        #: the open ends before each move, once a resampling asked for them
        self.ends: list[frozenset[int]] | None = None
        #: whether the round was rebuilt from a view (no deal replays to it)
        self.rebuilt = False

    def __deepcopy__(self, memo: dict[int, Any]) -> _Table:
        twin = _Table(self.game)
        twin.dealt = list(self.dealt)
        twin.leader = self.leader
        twin.rnd = None if self.rnd is None else self.rnd.copy()
        twin.rebuilt = self.rebuilt
        return twin

    def __reduce__(self) -> tuple[Callable[..., Any], tuple[Any, ...]]:
        """Pickled as the deal and the moves (a round is rebuilt by replaying them)."""
        if self.rebuilt:
            raise ValueError("a state rebuilt from a view has no deal to pickle")
        moves = None if self.rnd is None else [str(m) for m in self.rnd.moves]
        return _unpickle_table, (self.game, self.dealt, self.leader, moves)


def _unpickle_table(
    game: BazarGame, dealt: list[int], leader: int | None, moves: list[str] | None
) -> _Table:
    state = BazarState(game)
    table = state._table
    table.dealt = list(dealt)
    table.leader = leader
    if moves is not None:
        state._build()
        rnd = table.rnd
        assert rnd is not None
        for move in moves:
            rnd.push(move)
    return table


# pyspiel ships no types: its classes are Any to mypy
class BazarState(pyspiel.State):  # type: ignore[misc]
    """A deal being dealt, then a bazar round being played."""

    def __init__(self, game: BazarGame) -> None:
        super().__init__(game)
        self._table = _Table(game)

    @property
    def _bgame(self) -> BazarGame:
        return self._table.game

    # -- the round -----------------------------------------------------------------------

    @property
    def round(self) -> Round | None:
        """The bazar round, once dealt (None during the deal)."""
        return self._table.rnd

    def view(self, seat: int) -> View:
        """What ``seat`` may know: the view a bazar bot chooses from."""
        rnd = self._table.rnd
        if rnd is None:
            raise ValueError("the deal is not over: no round to view yet")
        return rnd.view(seat)

    def _dealing_lot(self) -> bool:
        g = self._bgame
        return len(self._table.dealt) == g.dealing.tiles and g.dealing.lot

    def _build(self) -> None:
        """The round of the deal just completed."""
        g = self._bgame
        table = self._table
        tiles = [g.deck[i] for i in table.dealt]
        hands: list[list[Tile]] = []
        at = 0
        for size in g.dealing.hands:
            hands.append(tiles[at : at + size])
            at += size
        digest = hashlib.sha256(bytes(table.dealt)).digest()
        seed = int.from_bytes(digest[:8], "big")
        table.rnd = Round(g.rules, seed, hands=hands, bazar=tiles[at:], leader=table.leader)

    # -- OpenSpiel's interface -----------------------------------------------------------

    def current_player(self) -> int:
        rnd = self._table.rnd
        if rnd is None:
            return int(pyspiel.PlayerId.CHANCE)
        if rnd.is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        turn = rnd.turn
        assert turn is not None
        return turn

    def is_terminal(self) -> bool:
        rnd = self._table.rnd
        return rnd is not None and rnd.is_over()

    def _legal_actions(self, player: int) -> list[int]:
        rnd = self._table.rnd
        assert rnd is not None and player == rnd.turn
        return self._bgame.encoding.legal_actions(rnd)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        g = self._bgame
        if self._dealing_lot():
            n = g.rules.players
            return [(seat, 1.0 / n) for seat in range(n)]
        taken = set(self._table.dealt)
        left = [i for i in range(len(g.deck)) if i not in taken]
        p = 1.0 / len(left)
        return [(i, p) for i in left]

    def _apply_action(self, action: int) -> None:
        table = self._table
        rnd = table.rnd
        g = self._bgame
        if rnd is None:
            if self._dealing_lot():
                table.leader = action
            else:
                table.dealt.append(action)
            if len(table.dealt) == g.dealing.tiles and (
                not g.dealing.lot or table.leader is not None
            ):
                self._build()
            return
        rnd.push(g.encoding.move(action, rnd))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._dealing_lot():
                return f"lot: seat {action} leads"
            return f"deal {self._bgame.deck[action]}"
        return self._bgame.encoding.action_name(action)

    def returns(self) -> list[float]:
        rnd = self._table.rnd
        rules = self._bgame.rules
        if rnd is None or not rnd.is_over():
            return [0.0] * rules.players
        values = round_value(rnd)
        return [float(values[rules.side_of(seat)]) for seat in range(rules.players)]

    def __str__(self) -> str:
        rnd = self._table.rnd
        if rnd is None:
            return "dealing: " + " ".join(str(self._bgame.deck[i]) for i in self._table.dealt)
        hands = " | ".join(" ".join(map(str, h)) for h in rnd.hands)
        moves = " ".join(str(m) for m in rnd.moves)
        return f"hands: {hands}; bazar: {rnd.bazar_size}; moves: {moves}"

    # -- information states --------------------------------------------------------------

    def dealt_to(self, seat: int) -> list[Tile]:
        """The tiles dealt so far to ``seat`` (during the deal)."""
        g = self._bgame
        start = sum(g.dealing.hands[:seat])
        mine = self._table.dealt[start : start + g.dealing.hands[seat]]
        return [g.deck[i] for i in mine]

    def information_state_string(self, player: int | None = None) -> str:
        """``player``'s exact information state (IS-MCTS keys its tree on it)."""
        seat = self.current_player() if player is None else player
        return _info_string(self, seat)

    def observation_string(self, player: int | None = None) -> str:
        seat = self.current_player() if player is None else player
        return _observation_string(self, seat)

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[..., Any] | None = None
    ) -> BazarState:
        """A state ``player_id`` cannot tell from this one: the tiles it cannot see dealt
        by bazar's sampler from its view (so passes and forced draws are kept), the deal
        rebuilt and the moves replayed. ``probability_sampler`` (OpenSpiel's uniform
        sampler, a callable) only seeds the draw: the sampler's deals are bazar's, not
        enumerated chance outcomes.

        Where no deal of :data:`RESAMPLE_TRIES` replays from the start (the sampler's
        constraints are looser than the draws' order; the train and tree games' set-up
        draws for the engine are not in the history), the round is rebuilt from the view
        instead (:meth:`_rebuilt`). Raises ValueError in a game whose hidden tiles cannot be
        resampled from a view (Kolbasa's blind rows: ``Traits.determinizable`` is
        false)."""
        g = self._bgame
        rnd = self._table.rnd
        if rnd is None or rnd.is_over():
            raise ValueError("resampling needs a round in play")
        if not g.rules.variant.determinizable:
            raise ValueError(f"{g.rules.name} cannot be resampled from a view (blind rows)")
        seed = None
        if probability_sampler is not None:
            seed = int(probability_sampler() * 2**53)
        rng = random.Random(seed)
        view = rnd.view(player_id)
        dealer = Determinizer(view)
        for _ in range(RESAMPLE_TRIES):
            hands, pile = dealer.hands(rng)
            twin = self._replayed(view, hands, pile)
            if twin is not None:
                return twin
        return self._rebuilt(dealer, rng)

    def _rebuilt(self, dealer: Determinizer, rng: random.Random) -> BazarState:
        """The fallback of :meth:`resample_from_infostate`: a round rebuilt from the view
        (:meth:`bazar.bots.sampler.Determinizer.round`), as bazar's own searching bots play
        it. It carries no OpenSpiel history (``history()`` is empty: no deal of the set
        replays to it), so it cannot be serialised or pickled; IS-MCTS reads only the
        information state, the legal actions and the returns."""
        g = self._bgame
        seat = dealer.view.seat
        assert seat is not None
        for _ in range(RESAMPLE_TRIES):
            rebuilt = dealer.round(rng)
            if rebuilt is None:
                continue
            twin = BazarState(g)
            twin._table.rnd = rebuilt
            twin._table.rebuilt = True
            if _info_string(twin, seat) == _info_string(self, seat):
                return twin
        raise ValueError(f"no deal of {RESAMPLE_TRIES} fits the view of seat {seat}")

    def _replayed(self, view: View, hands: list[list[Tile]], pile: list[Tile]) -> BazarState | None:
        """The state of the deal that leaves ``hands`` and ``pile`` after ``view``'s
        history, or None where the history does not replay from it."""
        g = self._bgame
        rnd = self._table.rnd
        assert rnd is not None
        deal = _initial_deal(view, hands, pile, self._ends())
        if deal is None:
            return None
        first, bazar = deal
        if any(len(h) != size for h, size in zip(first, g.dealing.hands, strict=True)):
            return None
        order = [g.tile_index[t] for h in first for t in h] + [g.tile_index[t] for t in bazar]
        if len(order) != g.dealing.tiles:
            return None
        # the bazar round replayed first (cheap), OpenSpiel's state only for a deal that fits
        probe = BazarState(g)
        probe._table.dealt = order
        probe._table.leader = self._table.leader
        try:
            probe._build()
            replay = probe.round
            assert replay is not None
            if replay.leader != rnd.leader:
                return None
            for move in rnd.moves:
                replay.push(move)
        except (IllegalMove, ValueError):
            return None
        # a turn that moved on can say more than the view's constraints (a seat left with
        # no double to go on with): the replay must reach the same information state
        seat = view.seat
        assert seat is not None
        if replay.turn != rnd.turn or _info_string(probe, seat) != _info_string(self, seat):
            return None
        twin = g.new_initial_state()
        for action in [*order, *([self._table.leader] if g.dealing.lot else [])]:
            twin.apply_action(action)
        for action in self._player_actions():
            twin.apply_action(action)
        return twin

    def _ends(self) -> list[frozenset[int]]:
        """The pips of the open ends before each move of the round (public), kept for the
        state that IS-MCTS resamples many times."""
        table = self._table
        rnd = table.rnd
        assert rnd is not None
        count = len(rnd.moves)
        if table.ends is not None and len(table.ends) == count:
            return table.ends
        twin = rnd.copy()
        out: list[frozenset[int]] = [frozenset()] * count
        for i in reversed(range(count)):
            twin.pop()
            out[i] = frozenset(twin.ends().values())
        table.ends = out
        return out

    def _player_actions(self) -> list[int]:
        chance = int(pyspiel.PlayerId.CHANCE)
        return [h.action for h in self.full_history() if h.player != chance]


def _initial_deal(
    view: View,
    hands: Sequence[Sequence[Tile]],
    pile: Sequence[Tile],
    ends: Sequence[frozenset[int]],
) -> tuple[list[list[Tile]], list[Tile]] | None:
    """The deal that leaves ``hands`` and ``pile`` after ``view``'s history (``ends``: the
    pips of the open ends before each of its moves): each hand with the tiles its seat
    laid since, less those it drew; the bazar the drawn tiles in the order they were drawn,
    then ``pile``. The tiles a hidden seat drew are chosen by :func:`_draws`; None where no
    choice fits."""
    players = view.rules.players
    first = [list(h) for h in hands]
    for seat, move, _ in view.history:
        if move.kind in PLACEMENTS and move.tile is not None:
            first[seat].append(move.tile)
    chosen: dict[int, Tile] = {}
    for seat in range(players):
        if seat == view.seat:
            continue
        found = _draws(view, seat, hands[seat], ends)
        if found is None:
            return None
        chosen.update(found)
    drawn: list[Tile] = []
    for i, (seat, move, tile) in enumerate(view.history):
        if move.kind != "draw":
            continue
        tile = tile if tile is not None else chosen.get(i)
        if tile is None or tile not in first[seat]:
            return None
        first[seat].remove(tile)
        drawn.append(tile)
    return first, [*drawn, *pile]


def _draws(
    view: View, seat: int, hand: Sequence[Tile], ends: Sequence[frozenset[int]]
) -> dict[int, Tile] | None:
    """Which of its tiles hidden ``seat`` drew at each of its draws (history index ->
    tile), or None. A seat draws only when it holds no tile that fits the open ends, and
    stops when the drawn tile fits: so a tile of the seat that fits the ends of a turn it
    drew or passed in, before it laid the tile, was drawn after that moment; a draw that is
    not its turn's last took a tile that does not fit; the last draw of a turn that ends in
    a play took the tile played. The draws are filled in time order, each with the tile
    whose deadline (its play) comes first among those that must be drawn, else with a tile
    of the hand now (earliest deadline first: a matching where one exists, in the usual
    case)."""
    history = view.history
    laid: dict[Tile, int] = {}
    checks: list[int] = []  # the moments the seat showed it held no fitting tile
    slots: list[tuple[int, Tile | None, frozenset[int] | None]] = []
    i = 0
    while i < len(history):
        mover, move, _ = history[i]
        if mover != seat:
            i += 1
            continue
        if move.kind in PLACEMENTS and move.tile is not None:
            laid[move.tile] = i
            i += 1
            continue
        if move.kind == "pass":
            checks.append(i)
            i += 1
            continue
        if move.kind != "draw":
            i += 1
            continue
        start = i
        while i < len(history) and history[i][0] == seat and history[i][1].kind == "draw":
            i += 1
        checks.append(start)
        after = history[i] if i < len(history) else None
        played = (
            after[1].tile
            if after is not None and after[0] == seat and after[1].kind in PLACEMENTS
            else None
        )
        pips = ends[start]
        for d in range(start, i):
            last = d == i - 1
            if last and played is not None and (played.high in pips or played.low in pips):
                slots.append((d, played, None))
            else:
                slots.append((d, None, pips))
    tiles = [*hand, *laid]
    never = len(history)
    deadline = {t: laid.get(t, never) for t in tiles}
    earliest: dict[Tile, int] = {}
    for t in tiles:
        for c in checks:
            at = ends[c]
            if c < deadline[t] and (t.high in at or t.low in at):
                earliest[t] = c
    free = set(tiles)
    out: dict[int, Tile] = {}
    for d, fixed, before in slots:
        if fixed is not None:
            if fixed not in free or not earliest.get(fixed, -1) < d < deadline[fixed]:
                return None
            pick = fixed
        else:
            fits = [
                t
                for t in free
                if earliest.get(t, -1) < d < deadline[t]
                and not (before and (t.high in before or t.low in before))
            ]
            if not fits:
                return None
            must = [t for t in fits if t in earliest]
            pool = must or fits
            pick = min(pool, key=lambda t: (deadline[t], t.index))
        free.discard(pick)
        out[d] = pick
    if any(t in earliest for t in free):
        return None
    return out


def _history_text(rnd: Round, seat: int) -> str:
    parts = []
    for mover, move, tile in rnd.history():
        if tile is not None and mover == seat:
            parts.append(f"{mover}:{move}+{tile}")
        else:
            parts.append(f"{mover}:{move}")
    return " ".join(parts)


def _hand_text(tiles: Sequence[Tile] | None) -> str:
    return "?" if tiles is None else " ".join(str(t) for t in sorted(tiles))


def _info_string(state: BazarState, seat: int) -> str:
    rnd = state.round
    if rnd is None:
        return f"p{seat} dealt: {_hand_text(state.dealt_to(seat))}"
    sizes = ",".join(str(len(h)) for h in rnd.hands)
    hand = _hand_text(rnd.seen_hand(seat))
    return (
        f"p{seat} hand: {hand}; sizes: {sizes}; bazar: {rnd.bazar_size}; "
        f"leader: {rnd.leader}; moves: {_history_text(rnd, seat)}"
    )


def _observation_string(state: BazarState, seat: int) -> str:
    rnd = state.round
    if rnd is None:
        return f"p{seat} dealt: {_hand_text(state.dealt_to(seat))}"
    sizes = ",".join(str(len(h)) for h in rnd.hands)
    ends = " ".join(f"{k}={v}" for k, v in sorted(rnd.ends().items()))
    table = " ".join(str(t) for t in sorted(rnd.board.tiles()))
    last = ""
    moves = rnd.moves
    if moves:
        last = f"; last: {rnd.history()[-1][0]}:{moves[-1]}"
    turn = rnd.turn
    return (
        f"p{seat} hand: {_hand_text(rnd.seen_hand(seat))}; ends: {ends}; table: {table}; "
        f"sizes: {sizes}; bazar: {rnd.bazar_size}; turn: {turn}{last}"
    )


class BazarObserver:
    """OpenSpiel's Python observer: the encoding's tensor of the seat, and the strings
    above (the information state's where ``perfect_recall`` is asked)."""

    def __init__(self, game: BazarGame, iig_obs_type: pyspiel.IIGObservationType) -> None:
        self._encoding = game.encoding
        self._recall = bool(iig_obs_type.perfect_recall)
        shape = tuple(game.encoding.observation_shape)
        self.tensor = np.zeros(shape, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: BazarState, player: int) -> None:
        rnd = state.round
        if rnd is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = self._encoding.observe_round(rnd, player)

    def string_from(self, state: BazarState, player: int) -> str:
        if self._recall:
            return _info_string(state, player)
        return _observation_string(state, player)


def _load(name: str, params: dict[str, Any]) -> pyspiel.Game:
    register()
    return pyspiel.load_game(name, params)


def _factory(variant: str) -> Callable[..., BazarGame]:
    def make(params: dict[str, Any] | None = None) -> BazarGame:
        return BazarGame(variant, params)

    return make


#: the factory of each registered game, by short name
_FACTORIES: dict[str, Callable[..., BazarGame]] = {}


def register() -> list[str]:
    """Register every variant with ``pyspiel.register_game`` (once; later calls do
    nothing); returns the short names."""
    names = []
    for variant in VARIANTS:
        name = game_name(variant)
        names.append(name)
        if name in _FACTORIES:
            continue
        factory = _FACTORIES[name] = _factory(variant)
        # OpenSpiel's registry is a C++ static: it lets go of the factory after the
        # interpreter has shut down, and freeing a Python object then aborts the process.
        # One reference more than Python ever gives back keeps the factory for good.
        ctypes.pythonapi.Py_IncRef(ctypes.py_object(factory))
        pyspiel.register_game(_game_type(variant), factory)
    return names
