"""Every game on main plays every format of tournament in the club, between bots: the
director seats each pairing at a table of the game, the tables play, and each table's
record replays to the places the standings took from it. SQLite only (the formats on
PostgreSQL are in test_server_tournaments.py): the games differ in their rules, not in how
they are stored."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from server_helpers import Person, TestClient
from test_server_tournaments import app_on, finished, made, ok, replayed

import bazar
from bazar.tournament import Tournament

GAMES = sorted(bazar.VARIANTS)
TEAM_GAMES = [game for game in GAMES if bazar.rules(game).teams]

#: each format as the form asks for it; an arena of a second or so
FORMS: list[dict[str, Any]] = [
    {"format": "round_robin"},
    {"format": "swiss", "rounds": 2},
    {"format": "knockout"},
    {"format": "arena", "duration_min": 0.02},
]


@pytest.mark.parametrize("game", GAMES)
def test_every_game_plays_every_format_in_the_club(tmp_path: Path, game: str) -> None:
    _every_format(tmp_path, game, teams=False)


@pytest.mark.parametrize("game", TEAM_GAMES)
def test_every_team_game_plays_every_format_for_2x2_teams_in_the_club(
    tmp_path: Path, game: str
) -> None:
    """Bot teams: a bot entry plays both seats of its side at every table."""
    _every_format(tmp_path, game, teams=True)


def _every_format(tmp_path: Path, game: str, teams: bool) -> None:
    # one entry more than a table seats: a bye, or a knock-out's filling bots, every round
    entries = Tournament(game, format="round_robin", teams=teams).sides + 1
    with TestClient(app_on(f"sqlite:///{tmp_path / 'club.sqlite3'}")) as client:
        masha = Person(client, "Masha")
        started = []
        for form in FORMS:
            name = f"{game} {form['format']}"
            tid = made(masha, name=name, game=game, teams=teams, **form)["id"]
            bots = {"level": "random", "count": entries}
            ok(masha.post(f"/api/tournaments/{tid}/bots", json=bots))
            ok(masha.post(f"/api/tournaments/{tid}/start"))
            started.append(tid)
        for tid in started:
            t = finished(masha, tid)
            games = [p for r in t["rounds_played"] for p in r["pairings"] if not p["bye"]]
            assert games, f"{t['format']}: no table was played"
            names = {e["id"]: e["name"] for e in t["entries"]}
            for pairing in games:
                assert replayed(client, pairing["record"]) == pairing["places"], t["format"]
                if teams:
                    seats = ok(masha.get(f"/api/tables/{pairing['table']}"))["table"]["seats"]
                    for side, entry in enumerate(pairing["entries"]):
                        held = {seats[s]["name"] for s in bazar.rules(game).teams[side]}
                        assert held == {names[entry]}
            given = sum(x for r in t["rounds_played"] for p in r["pairings"] for x in p["points"])
            assert sum(s["points"] for s in t["standings"]) == pytest.approx(given)
            assert len(t["standings"]) == entries
