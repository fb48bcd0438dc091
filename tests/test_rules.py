"""Rules, options and variants (:mod:`bazar.core.rules`): options declared once by the game
that owns them, read typed; capabilities asked instead of names and families."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

import bazar
from bazar.core import rules as rules_module
from bazar.core.rules import TARGET, Option, Traits, Variant, declared, register
from bazar.games.cross.fives import BASE
from bazar.games.line.kozel import OPEN_THRESHOLD
from bazar.games.line.options import DOUBLES_PER_TURN, HUNDRED_PRIVILEGE, LINE
from bazar.games.poker import POKER_SET, STARTING_CHIPS

PACKAGE = Path(bazar.__file__).parent


def _variant(**fields: Any) -> Variant:
    base: dict[str, Any] = {
        "name": "house",
        "description": "a house rule",
        "spec": "none",
        "players": (2, 4),
        "default_players": 2,
        "defaults": {"players": 2, "set_max": 6, "hand_size": 7},
    }
    return Variant(**{**base, **fields})


# -- typed reads ---------------------------------------------------------------------------


def test_a_game_option_reads_typed_through_its_declaration() -> None:
    assert bazar.rules("osel")[DOUBLES_PER_TURN] == 4
    assert bazar.rules("kozel", open_threshold=13)[OPEN_THRESHOLD] == 13
    assert bazar.rules("all-threes")[BASE] == 3


def test_the_common_options_read_as_properties() -> None:
    r = bazar.rules("classic", players=3)
    assert (r.hand_size, r.target, r.limit, r.set_max, r.draw) == (5, 100, None, 6, True)


def test_a_misspelt_option_attribute_fails_where_it_is_read() -> None:
    r = bazar.rules("fives")
    with pytest.raises(AttributeError):
        r.spiner  # type: ignore[attr-defined]  # noqa: B018
    with pytest.raises(AttributeError):
        r.base  # type: ignore[attr-defined]  # noqa: B018


def test_reading_an_option_the_game_does_not_take_names_its_options() -> None:
    with pytest.raises(bazar.UnknownOption, match="kolbasa has no option 'base'") as error:
        bazar.rules("kolbasa")[BASE]
    assert "its options: players, set_max, hand_size" in str(error.value)
    with pytest.raises(bazar.UnknownOption, match="poker has no option 'draw'"):
        bazar.rules("poker").draw  # noqa: B018


def test_an_option_a_game_reads_but_does_not_offer_holds_its_default_and_is_not_listed() -> None:
    fives = bazar.rules("fives")
    assert fives[DOUBLES_PER_TURN] == DOUBLES_PER_TURN.default == 1
    assert fives[HUNDRED_PRIVILEGE] is False
    assert "doubles_per_turn" not in fives.options()
    with pytest.raises(bazar.UnknownOption, match="fives has no option 'doubles_per_turn'"):
        bazar.rules("fives", doubles_per_turn=2)


def test_a_fixed_value_other_than_the_default_is_the_games() -> None:
    foot = bazar.rules("chicken-foot")
    assert foot.scoring == "penalty" != rules_module.SCORING.default
    assert "scoring" not in foot.options()


def test_every_game_has_a_target_and_a_limit_none_where_it_takes_neither() -> None:
    assert (bazar.rules("poker").target, bazar.rules("poker").limit) == (None, None)
    assert "target" not in bazar.rules("poker").options()
    with pytest.raises(bazar.UnknownOption):
        bazar.rules("poker", target=100)


def test_an_option_value_out_of_range_names_what_is_allowed() -> None:
    with pytest.raises(ValueError, match="doubles_per_turn takes a number from 1 to 4; not 5"):
        bazar.rules("osel", doubles_per_turn=5)


# -- declarations ----------------------------------------------------------------------------


def test_no_module_keeps_a_global_table_of_options() -> None:
    assert not hasattr(rules_module, "OPTIONS")
    sources = [p.read_text() for p in PACKAGE.rglob("*.py")]
    assert not any("OPTIONS[" in s for s in sources)


def test_every_option_a_game_takes_is_declared_once() -> None:
    glossary = declared()
    for name in bazar.rules.names():
        game = bazar.rules.variant(name)
        for key in bazar.rules(name).options():
            assert game.option(key) is glossary[key]


def test_a_variant_cannot_take_an_option_nobody_declares() -> None:
    with pytest.raises(ValueError, match=r"house takes options it does not declare: \['spiner'\]"):
        _variant(defaults={"players": 2, "spiner": True})


def test_a_variant_cannot_declare_one_name_twice() -> None:
    twin = Option("doubles_per_turn", "int", "another", 1)
    with pytest.raises(ValueError, match="declares option 'doubles_per_turn' twice"):
        _variant(options=(*LINE, twin))
    with pytest.raises(ValueError, match="declares option 'target' twice"):
        _variant(options=(Option("target", "int", "a mark", 100),))


def test_registering_a_second_declaration_of_a_known_option_fails() -> None:
    twin = Option("base", "int", "another base", 5)
    with pytest.raises(ValueError, match="option 'base' of house is declared elsewhere"):
        register(_variant(options=(twin,)))
    assert "house" not in bazar.rules.names()


def test_an_option_cannot_be_both_fixed_and_free() -> None:
    with pytest.raises(ValueError, match=r"options both fixed and free: \['hand_size'\]"):
        _variant(fixed={"hand_size": 5})


def test_an_option_holds_its_type_range_and_default() -> None:
    assert (TARGET.kind, TARGET.low, TARGET.default) == ("int_or_none", 1, None)
    assert (DOUBLES_PER_TURN.low, DOUBLES_PER_TURN.high, DOUBLES_PER_TURN.default) == (1, 4, 1)


# -- capabilities --------------------------------------------------------------------------


def test_the_tiles_in_play_are_the_sets_or_the_games_own() -> None:
    assert bazar.rules("poker").tiles == POKER_SET
    assert bazar.rules("mexican-train").tiles == bazar.tile_set(12)


def test_fewer_points_win_at_a_limit_and_in_the_train_and_tree_games() -> None:
    assert bazar.rules("kozel").lower_wins and bazar.rules("classic-penalty").lower_wins
    assert not bazar.rules("kozel-beginner").lower_wins
    assert bazar.rules("chicken-foot").lower_wins and bazar.rules("mexican-train").lower_wins
    assert not bazar.rules("mexican-train", scoring="positive").lower_wins
    assert not bazar.rules("fives").lower_wins


def test_capabilities_say_what_the_bots_may_rely_on() -> None:
    def v(name: str) -> Traits:
        return bazar.rules.variant(name).traits

    assert not v("kolbasa").determinizable and v("kozel").determinizable
    assert v("kozel").reads_ends and not v("poker").reads_ends and not v("texas-42").reads_ends
    assert v("osel").ends_branch and v("fives").ends_branch and not v("classic").ends_branch
    assert v("fives").scored_in_play and v("bergen").scored_in_play
    assert not v("osel").scored_in_play, "Osel scores nothing during play"
    assert v("osel").goat and v("sea-kozel").goat and not v("classic").goat
    assert v("mexican-train").own_trains and not v("chicken-foot").own_trains


SEARCHED = ("determinizable", "reads_ends", "ends_branch", "scored_in_play", "own_trains")


def test_the_variant_still_answers_the_traits_the_search_reads() -> None:
    for name in bazar.rules.names():
        game = bazar.rules.variant(name)
        for trait in (
            "determinizable",
            "reads_ends",
            "ends_branch",
            "scored_in_play",
            "own_trains",
        ):
            assert getattr(game, trait) is getattr(game.traits, trait)


def test_every_family_plugs_in_typed_hooks() -> None:
    """What mypy checks statically, at run time: each hook is there, callable, of its kind."""
    for name in bazar.rules.names():
        game = bazar.rules.variant(name)
        assert game.round is not None and issubclass(game.round, bazar.Round)
        assert isinstance(game.traits, Traits)
        for hook in (game.settle, game.decide, game.score, game.starting_score, game.lower_wins):
            assert hook is None or callable(hook)
        assert all(callable(check) for check in game.checks)


def test_the_club_rates_kozel_points_in_the_kozel_games_osel_included() -> None:
    rated = {n for n in bazar.rules.names() if bazar.rules.variant(n).traits.club_rating == "kozel"}
    assert {"kozel", "kozel-team", "osel"} <= rated
    assert "sea-kozel" not in rated and "classic" not in rated


def test_a_match_starts_from_the_games_starting_score() -> None:
    poker = bazar.rules("poker")
    assert bazar.Ledger.new(poker).scores == (poker[STARTING_CHIPS],) * poker.sides
    assert set(bazar.Ledger.new(bazar.rules("kozel")).scores) == {0}


# -- no consumer asks a game's name or family ------------------------------------------------

#: the families and the variant names that are not also ordinary words of the code
_GAME_WORDS = {bazar.rules.variant(n).family for n in bazar.rules.names()} | (
    set(bazar.rules.names()) - {"draw", "block"}
)


def _text(node: ast.AST) -> str:
    return ast.unparse(node)


def _asks_a_game(node: ast.expr) -> bool:
    """Whether ``node`` is a variant's or a game's name or family (``rules.name``,
    ``view.rules.variant.family``, ``table.row.game``)."""
    if not isinstance(node, ast.Attribute):
        return False
    owner = _text(node.value)
    if node.attr == "family":
        return True
    if node.attr == "name":
        return "rules" in owner or "variant" in owner
    return node.attr == "game" and "row" in owner


def _names_games(node: ast.expr) -> bool:
    """Whether ``node`` is a literal collection of family or variant names."""
    if not isinstance(node, (ast.Tuple, ast.List, ast.Set)) or not node.elts:
        return False
    words = [e.value for e in node.elts if isinstance(e, ast.Constant)]
    return len(words) == len(node.elts) and all(w in _GAME_WORDS for w in words)


def name_or_family_checks(source: str) -> list[str]:
    """Every place in ``source`` that compares a game's name or family."""
    return [
        f"{node.lineno}: {_text(node)}"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, (ast.Compare, ast.Call, ast.Assign)) and _checks_a_game(node)
    ]


def _checks_a_game(node: ast.Compare | ast.Call | ast.Assign) -> bool:
    if isinstance(node, ast.Compare):
        return any(_asks_a_game(s) or _names_games(s) for s in [node.left, *node.comparators])
    if isinstance(node, ast.Assign):
        return _names_games(node.value)
    func = node.func
    return (
        isinstance(func, ast.Attribute)
        and func.attr in ("startswith", "endswith")
        and _asks_a_game(func.value)
    )


def test_the_name_and_family_check_finds_what_it_forbids() -> None:
    bad = """
kozel = rules.name.startswith("kozel") or "kozel" in rules.name
if view.rules.variant.family == "cross": pass
if table.row.game.startswith("kozel"): pass
END_FAMILIES = ("line", "cross")
if rules.variant.family in {"trains"}: pass
"""
    assert len(name_or_family_checks(bad)) == 6
    fine = 'if user.name == "Masha" and move.kind in ("draw", "pass"): pass'
    assert name_or_family_checks(fine) == []


def test_no_code_outside_the_games_compares_a_variant_name_or_family() -> None:
    games = PACKAGE / "games"
    found = {
        str(path.relative_to(PACKAGE)): checks
        for path in sorted(PACKAGE.rglob("*.py"))
        if games not in path.parents
        for checks in [name_or_family_checks(path.read_text())]
        if checks
    }
    assert found == {}


def test_the_variants_are_listed_family_by_family_as_the_readme_lists_them() -> None:
    listed = [n for n in bazar.rules.names() if n != "draw-bonus"]
    assert listed == [
        *("block", "draw", "classic", "classic-penalty"),
        *("kozel", "kozel-team", "kozel-goat25", "kozel-traditional", "kozel-beginner"),
        "sea-kozel",
        *("fives", "muggins", "five-up", "domino-five", "pyaterochka", "all-threes"),
        *("telephone", "osel", "bergen", "kolbasa"),
        *("mexican-train", "chicken-foot", "chicken-foot-wiki", "chicken-foot-kz"),
        *("texas-42", "poker"),
    ]


@pytest.mark.parametrize(
    ("game", "options", "sign"),
    [
        ("kozel", {}, -1),  # played to a losing mark (101)
        ("fives", {}, 1),  # to a winning target
        ("mexican-train", {}, -1),  # the fewest penalty points over the rounds
        ("mexican-train", {"scoring": "positive"}, 1),
        ("chicken-foot", {}, -1),
        ("poker", {}, 1),  # chips
        ("texas-42", {}, 1),
    ],
)
def test_the_sign_of_a_better_score_is_the_rules_to_say(
    game: str, options: dict[str, object], sign: int
) -> None:
    """Whoever ranks scores (the bots, a tournament's standings) asks the rules which way is
    better, never a family's name."""
    assert bazar.rules(game, **options).better_sign == sign


@pytest.mark.parametrize(
    ("name", "options", "expected"),
    [
        # Kozel's accounts: an award that opens an account or is remembered
        ("kozel", {}, {"round_score": "award", "club_points": True, "end_names": "pip"}),
        ("sea-kozel", {}, {"round_score": "points", "club_points": False}),
        # a losing mark makes a round's points a penalty; a game scored in play adds a bonus
        ("classic-penalty", {}, {"round_score": "penalty"}),
        ("fives", {}, {"round_score": "bonus", "scored_in_play": True}),
        ("poker", {}, {"round_score": "chips", "seat_rows": "open", "has_bazar": False}),
        ("texas-42", {}, {"end_names": None, "seat_rows": "open", "has_bazar": False}),
        ("kolbasa", {}, {"end_names": "joint", "seat_rows": "blind", "hand_counts": "tiles"}),
        ("mexican-train", {}, {"end_names": "train", "own_trains": True}),
        ("chicken-foot", {}, {"round_score": "penalty", "end_names": "branch"}),
    ],
)
def test_the_capabilities_say_what_a_client_may_rely_on(
    name: str, options: dict[str, Any], expected: dict[str, Any]
) -> None:
    caps = bazar.rules(name, **options).capabilities().to_json()
    assert {k: caps[k] for k in expected} == expected


def test_every_game_has_every_capability_in_a_value_a_page_reads() -> None:
    allowed = {
        "round_score": {"award", "bonus", "chips", "penalty", "points"},
        "end_names": {"pip", "joint", "train", "branch", None},
        "seat_rows": {None, "open", "blind"},
        "hand_counts": {"pips", "tiles"},
    }
    for name in bazar.rules.names():
        caps = bazar.rules(name).capabilities().to_json()
        for key, value in caps.items():
            assert value in allowed.get(key, {True, False}), (name, key, value)
        assert caps["satisfies_doubles"] == (caps["end_names"] in ("train", "branch"))
