"""The families' score states (``bazar.core.score_state``, ``bazar.games.line.accounts``): the
ledger keeps each family's own state beside the points, writes it in the one public form, and
a bot reads the same ledger back from any seat's view."""

from __future__ import annotations

import json

import pytest

import bazar
from bazar import Ledger, Outcome, bots
from bazar.bots import sampler as search
from bazar.core.score_state import Points
from bazar.core.view import View
from bazar.games.line.accounts import REMEMBERED_WEIGHT, KozelScores

# hands worth the values the examples name (tests/test_kozel.py)
WORTH = {0: [], 3: ["2-1"], 5: ["4-1"], 7: ["4-3"], 12: ["6-6"], 13: ["6-5", "2-0"]}


def hands_worth(*values: int) -> list[list[str]]:
    return [list(WORTH[v]) for v in values]


def test_each_family_names_its_state_and_a_ledger_holds_one() -> None:
    kozel, block = bazar.rules("kozel"), bazar.rules("block")
    for name in ("kozel", "kozel-team", "kozel-goat25", "kozel-traditional", "osel"):
        assert bazar.rules.variant(name).score_state is KozelScores
    for name in ("block", "fives", "sea-kozel", "mexican-train", "poker", "texas-42"):
        assert bazar.rules.variant(name).score_state is Points
    assert Ledger.new(kozel).state == KozelScores((0,) * 4, (False,) * 4, 0)
    assert Ledger.new(block).state == Points()
    with pytest.raises(TypeError):
        Ledger(kozel, state=Points())
    with pytest.raises(TypeError):
        Ledger(kozel, remembered=[1, 0, 0, 0], state=KozelScores.start(kozel))


def test_the_accounts_given_to_a_ledger_are_its_state() -> None:
    rules = bazar.rules("kozel", players=3)
    ledger = Ledger(rules, scores=[20, 0, 0], remembered=[0, 7, 4], opened=[True, False, False])
    assert ledger.state == KozelScores((0, 7, 4), (True, False, False), 0)
    assert (ledger.remembered, ledger.opened, ledger.pot) == ((0, 7, 4), (True, False, False), 0)
    assert Ledger(rules, pot=9).state == KozelScores((0, 0, 0), (False, False, False), 9)
    # a game that keeps no accounts: none, whatever is given
    block = Ledger(bazar.rules("block", players=3), opened=[True] * 3)
    assert (block.remembered, block.opened, block.pot) == ((0, 0, 0), (False,) * 3, 0)
    with pytest.raises(ValueError, match="remembered"):
        Ledger(rules, remembered=[1, 2])
    # replace takes them too: the other accounts stay, and it is one round later
    later = ledger.replace(pot=5, opened=[True, True, False])
    assert later.state == KozelScores((0, 7, 4), (True, True, False), 5) and later.rounds == 1
    assert later.scores == ledger.scores


def test_remembered_points_under_13_are_kept_and_a_round_of_13_puts_them_on_the_score() -> None:
    """kozel.md: up to 12 points are remembered; a round worth 13 or more opens the account,
    that round and the remembered points written down together; from then on every point
    counts; going out wipes the remembered points."""
    rules = bazar.rules("kozel", players=4)
    ledger = Ledger.new(rules)
    # Masha goes out: Alex 7, Olya 12 remembered, Serg 5
    ledger = ledger.settle(Outcome("out", out_seat=0, remaining=hands_worth(0, 7, 12, 5)))
    assert ledger.state == KozelScores((0, 7, 12, 5), (False,) * 4, 0)
    assert ledger.scores == (0, 0, 0, 0)
    # Alex goes out (his 7 wiped); Olya's 13 opens her account with her 12; Masha's 3 kept
    ledger = ledger.settle(Outcome("out", out_seat=1, remaining=hands_worth(3, 0, 13, 5)))
    assert ledger.state == KozelScores((3, 0, 0, 10), (False, False, True, False), 0)
    assert ledger.scores == (0, 0, 25, 0)
    # an open account takes every point, however small; Serg's 13 opens his with his 10
    ledger = ledger.settle(Outcome("out", out_seat=0, remaining=hands_worth(0, 7, 3, 13)))
    assert ledger.state == KozelScores((0, 7, 0, 0), (False, False, True, True), 0)
    assert ledger.scores == (0, 0, 28, 23)
    assert ledger.public() == {
        "scores": [0, 0, 28, 23],
        "remembered": [0, 7, 0, 0],
        "opened": [False, False, True, True],
        "pot": 0,
        "rounds": 3,
    }


def test_a_tied_fish_for_one_puts_its_points_in_the_pot() -> None:
    """kozel.md: in a fish for one the heaviest hand takes all; tied, the points wait in the
    pot for the next round's single top loser."""
    rules = bazar.rules("kozel", players=3, fish_mode="for_one")
    tied = Ledger.new(rules).settle(Outcome("fish", fisher=0, remaining=hands_worth(5, 7, 7)))
    assert tied.state == KozelScores((0, 0, 0), (False, False, False), 19)
    taken = tied.settle(Outcome("out", out_seat=0, remaining=hands_worth(0, 3, 12)))
    assert taken.state == KozelScores((0, 3, 0), (False, False, True), 0)
    assert taken.scores == (0, 0, 31)


def test_the_standing_counts_remembered_points_at_their_weight() -> None:
    rules = bazar.rules("kozel", players=3)
    ledger = Ledger(rules, scores=[20, 0, 3], remembered=[0, 10, 4], opened=[True, False, True])
    assert ledger.standing() == (20.0, REMEMBERED_WEIGHT * 10, 3 + REMEMBERED_WEIGHT * 4)
    assert Ledger(bazar.rules("block", players=3), scores=[5, 0, 9]).standing() == (5.0, 0.0, 9.0)


def test_the_public_form_keeps_its_keys_in_every_game() -> None:
    """The protocol's ``Scores``: scores, remembered, opened, pot, rounds, then the family's
    own, in every game (zeros and closed accounts where the family keeps none)."""
    for name in bazar.rules.names():
        ledger = Ledger.new(bazar.rules(name))
        public = ledger.public()
        assert list(public)[:5] == ["scores", "remembered", "opened", "pot", "rounds"], name
        sides = ledger.rules.sides
        assert (public["remembered"], public["opened"]) == ([0] * sides, [False] * sides), name
        assert Ledger.from_public(ledger.rules, public) == ledger, name


# the variants whose matches the bots' standing follows: the Kozel family (the accounts and
# the pot), Sea Kozel (the record in extra), a limit without accounts, a target, the trains,
# the chips
STANDING_GAMES = [
    ("kozel", 4, {}),
    ("kozel", 3, {"fish_mode": "for_one"}),
    ("kozel-team", 4, {}),
    ("kozel-goat25", 3, {}),
    ("osel", 3, {}),
    ("sea-kozel", 2, {}),
    ("classic-penalty", 3, {}),
    ("fives", 2, {}),
    ("mexican-train", 3, {}),
    ("poker", 3, {}),
]


@pytest.mark.parametrize(("name", "players", "options"), STANDING_GAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_the_bots_standing_from_a_view_is_the_true_ledgers_at_every_round(
    name: str, players: int, options: dict[str, object], seed: int
) -> None:
    rules = bazar.rules(name, players=players, **options)
    match = bazar.Match(rules, seed=seed)
    players_ = [bots.make("random", seed=seed * 10 + s) for s in range(rules.players)]
    rounds_seen = set()
    moves = 0
    while not match.is_over() and match.ledger.rounds < 8 and moves < 20_000:
        if match.ledger.rounds not in rounds_seen:
            rounds_seen.add(match.ledger.rounds)
            truth = match.ledger
            for seat in (*range(rules.players), None):
                view = match.view(seat)
                wired = View.from_json(json.loads(json.dumps(view.to_json())))
                for shown in (view, wired):
                    ledger = search.ledger_of(shown)
                    assert ledger == truth, (seat, truth.rounds)
                    assert ledger is not None and ledger.standing() == truth.standing()
                    assert search.match_standing(ledger) == search.match_standing(truth)
        turn = match.turn
        assert turn is not None
        view = match.view(turn)
        match.push(players_[turn].choose(view, view.legal))
        moves += 1
    assert len(rounds_seen) >= 2
