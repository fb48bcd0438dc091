"""bazar.tournament's files and places: a finished match's places (the Kozel goat last, a
team game's two sides), and a tournament file with its real records that loads back to the
same standings, its records replayed and a tampered one refused."""

from __future__ import annotations

import json

import pytest

import bazar
from bazar import bots
from bazar.core import record
from bazar.core.play import play
from bazar.tournament import Tournament, TournamentError, dumps, loads, places


def played(game: str, seed: int, **options: object) -> bazar.Match:
    """A match of ``game`` played out by greedy bots."""
    rules = bazar.rules(game, **options)
    match = bazar.Match(rules, seed=seed)
    play(match, [bots.make("greedy", seed=seat) for seat in range(rules.players)])
    return match


@pytest.mark.parametrize("seed", range(4))
def test_the_kozel_goat_is_placed_last_and_the_winner_first(seed: int) -> None:
    match = played("kozel", seed, players=4)
    result = match.result()
    assert result is not None
    got = places(match)
    assert len(got) == 4
    for seat in result.losers:
        assert got[seat] == max(got)  # the goat (or goats) share the last place
    for seat in result.winners:
        assert got[seat] == 1
    # the others by their points, the fewer the better
    middle = [s for s in range(4) if s not in result.winners + result.losers]
    for a in middle:
        for b in middle:
            if match.ledger.scores[a] < match.ledger.scores[b]:
                assert got[a] < got[b]


def test_a_kozel_with_two_goats_shares_the_last_place() -> None:
    match = played("kozel", 1, players=4)
    result = match.result()
    assert result is not None and len(result.losers) == 2
    assert sorted(places(match)) == [1, 2, 3, 3]


def test_block_places_its_two_players() -> None:
    match = played("block", 2)
    result = match.result()
    assert result is not None
    (winner,) = result.winners
    assert places(match)[winner] == 1 and sorted(places(match)) == [1, 2]


TEAM_GAMES = [("kozel-team", {}), ("texas-42", {}), ("block", {"players": 4, "teams": True})]


@pytest.mark.parametrize(("game", "options"), TEAM_GAMES)
def test_a_team_game_gives_two_sides_and_partners_share_a_place(
    game: str, options: dict[str, object]
) -> None:
    match = played(game, 0, **options)
    by_side = places(match)
    assert sorted(by_side) == [1, 2]
    by_seat = places(match, 4)
    assert by_seat == (by_side[0], by_side[1], by_side[0], by_side[1])
    with pytest.raises(TournamentError) as refused:
        places(match, 3)
    assert refused.value.code == "places_sides"


def test_an_unfinished_match_has_no_places() -> None:
    with pytest.raises(TournamentError) as refused:
        places(bazar.Match(bazar.rules("block"), seed=1))
    assert refused.value.code == "match_unfinished"


def swiss_with_records() -> Tournament:
    """A Swiss of five Block players over two rounds, every game played by bots."""
    t = Tournament("block", format="swiss", rounds=2, seed=4, name="the yard's Saturday")
    for i, level in enumerate(("greedy", "random", "greedy", "random", "greedy")):
        t.add(f"{level}#{i}", bot=level, data={"user": i})
    t.start()
    while not t.over:
        for p in t.pair():
            if not p.bye:
                match = played("block", 100 * p.round + p.board)
                t.report(
                    p, places(match), table=f"r{p.round}b{p.board}", record=record.dumps(match)
                )
    return t


def test_a_tournament_file_loads_back_to_the_same_standings_and_records() -> None:
    t = swiss_with_records()
    text = dumps(t)
    assert json.loads(text)["bazar_tournament"] == 1
    back = loads(text)
    assert back.standings() == t.standings()
    assert [p.record for p in back.pairings] == [p.record for p in t.pairings]
    assert back.entries == t.entries and back.name == "the yard's Saturday"
    assert dumps(back) == text


def refusal(data: object) -> object:
    """Why ``loads`` refuses the file of ``data`` (``bad_file``'s reason)."""
    with pytest.raises(TournamentError) as refused:
        loads(data if isinstance(data, str) else json.dumps(data))
    assert refused.value.code == "bad_file"
    return refused.value.params["reason"]


def test_a_record_that_does_not_give_the_reported_places_is_refused() -> None:
    data = json.loads(dumps(swiss_with_records()))
    game = next(p for p in data["pairings"] if not p["bye"])
    game["places"] = game["places"][::-1]
    reason = refusal(data)
    assert isinstance(reason, TournamentError) and reason.code == "file_record_places"
    assert reason.params["record"] == tuple(game["places"][::-1])


def test_a_tampered_record_is_refused() -> None:
    data = json.loads(dumps(swiss_with_records()))
    game = next(p for p in data["pairings"] if not p["bye"])
    altered = json.loads(game["record"])
    altered["rounds"][0]["moves"] = [*altered["rounds"][0]["moves"][:-1], "9-9"]
    game["record"] = json.dumps(altered)
    assert isinstance(refusal(data), bazar.BadRecord)


def test_a_record_of_another_game_is_refused() -> None:
    data = json.loads(dumps(swiss_with_records()))
    game = next(p for p in data["pairings"] if not p["bye"])
    game["record"] = record.dumps(played("draw", 3))
    reason = refusal(data)
    assert isinstance(reason, TournamentError) and reason.code == "file_record_game"


NOT_FILES = [
    ("", "file_json"),
    ("[]", "file_version"),
    ('{"format": "bazar-record"}', "file_version"),
    ('{"bazar_tournament": 1}', "file_field"),
    ('{"bazar_tournament": 1, "game": "block", "format": "swiss"}', "rounds_needed"),
]


@pytest.mark.parametrize(("text", "why"), NOT_FILES)
def test_what_is_no_tournament_file_is_refused(text: str, why: str) -> None:
    reason = refusal(text)
    assert isinstance(reason, TournamentError) and reason.code == why


def test_a_file_whose_entries_are_misnumbered_is_refused() -> None:
    data = json.loads(dumps(swiss_with_records()))
    data["entries"][0]["id"] = 7
    reason = refusal(data)
    assert isinstance(reason, TournamentError) and reason.code == "file_entries"


def test_a_tournament_error_is_said_in_russian_by_its_code() -> None:
    from bazar import i18n

    with pytest.raises(TournamentError) as refused:
        Tournament("block", format="swiss")
    assert i18n.say(refused.value, "ru") == "турниру «swiss» нужно число туров от 1, а не None"
    data = json.loads(dumps(swiss_with_records()))
    data["pairings"][0]["places"] = data["pairings"][0]["places"][::-1]
    with pytest.raises(TournamentError) as refused:
        loads(json.dumps(data))
    said = i18n.say(refused.value, "ru")
    assert said is not None and said.startswith("это не файл турнира bazar: тур 1, стол 1:")


@pytest.mark.parametrize("format", ["round_robin", "swiss", "knockout", "arena"])
def test_a_tournament_halfway_through_a_round_comes_back_from_its_json_as_it_was(
    format: str,
) -> None:
    """What the club keeps across a restart: a round paired, one table reported."""
    t = Tournament(
        "kozel",
        players=4,
        format=format,
        rounds=2 if format == "swiss" else None,
        duration_s=600.0 if format == "arena" else None,
    )
    for i in range(9):
        t.add(f"p{i}", rating=i)
    t.start(now=0.0)
    pairings = t.pair_arena(now=0.0) if format == "arena" else t.pair()
    game = next(p for p in pairings if not p.bye)
    t.report(game, [2, 1, 4, 3], table="t1", now=5.0)
    data = json.loads(json.dumps(t.to_json()))
    back = Tournament.from_json(data)
    assert back.to_json() == data
    assert back.standings() == t.standings()
    assert [p.done for p in back.pairings] == [p.done for p in t.pairings]
