"""The records of finished and uploaded matches, the replay page's positions, the
leaderboard and the players' profiles."""

from __future__ import annotations

import functools
import json
import secrets
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import BaseRoute, Route

from bazar.analysis import Plan, plan
from bazar.club import coach, protocol
from bazar.club.club import starts
from bazar.club.errors import ServerError, refusal_code
from bazar.club.fairness import deals
from bazar.club.settings import Settings
from bazar.club.storage import RecordRow, stored
from bazar.club.summary import LISTED, results, summary
from bazar.core import record
from bazar.core.errors import BadRecord, UnknownOption, UnknownVariant, invalid
from bazar.core.rules import VARIANTS
from bazar.core.rules import rules as make_rules
from bazar.core.view import View

from .http import RouteGroup, address, api, received


class RecordRoutes(RouteGroup):
    """``/api/records/...``, ``/api/leaderboard``, ``/api/profile/{name}``."""

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/api/records", api(self.history)),
            Route("/api/records", api(self.upload), methods=["POST"]),
            Route("/api/records/{record_id}", api(self.record)),
            Route("/api/records/{record_id}/position", api(self.position)),
            Route("/api/records/{record_id}/analysis", api(self.analysis), methods=["POST"]),
            Route("/api/leaderboard", api(self.leaderboard)),
            Route("/api/profile/{name}", api(self.profile)),
        ]

    def record_of(self, request: Request) -> RecordRow:
        row = self.storage.records.record(request.path_params["record_id"])
        if row is None:
            raise ServerError("no_record", 404)
        return row

    async def history(self, request: Request) -> Any:
        """A page of the records, newest first (``offset``, ``limit``); only the matches of
        one player with ``mine=1`` (the player whose session this is; none for nobody) or
        ``player=NAME`` (a registered player), each with the seats that were his (``seats``).
        ``more`` says whether another page follows."""
        query = request.query_params
        try:
            offset = max(0, int(query.get("offset", 0)))
            limit = max(1, min(int(query.get("limit", HISTORY_PAGE)), 100))
        except ValueError:
            raise ServerError("page_form") from None
        player = None
        if query.get("mine"):
            user = await self.user_of(request)
            if user is None:
                return {"records": [], "more": False}
            player = user.id
        elif "player" in query:
            named = self.storage.accounts.registered(query["player"])
            if named is None:
                raise ServerError("no_player", 404)
            player = named.id
        rows = self.storage.records.records(limit + 1, offset, player)
        listed = [_listed(r) for r in rows[:limit]]
        if player is not None:
            # the page says how each match went for him
            seats = self.storage.records.seats_in(player, [r.id for r in rows[:limit]])
            for entry in listed:
                entry["seats"] = seats.get(entry["id"], [])
        return {"records": listed, "more": len(rows) > limit}

    async def record(self, request: Request) -> Any:
        row = self.record_of(request)
        if request.query_params.get("download"):
            return PlainTextResponse(
                row.text,
                media_type="application/json",
                headers={"Content-Disposition": f'attachment; filename="bazar-{row.id}.json"'},
            )
        return await run_in_threadpool(_record, row)

    async def position(self, request: Request) -> Any:
        """The spectators' view of a stored match after ``ply`` moves (the replay page);
        ``end=1``: where those moves finish a round, that round's final position rather than
        the next deal."""
        query = request.query_params
        return await run_in_threadpool(
            _position, self.record_of(request), query.get("ply"), bool(query.get("end"))
        )

    async def analysis(self, request: Request) -> Any:
        """The coach's analysis of a record, asked for and polled (``state``: ``queued``
        with how many are ahead, ``running`` with the positions ``done`` of ``total``, or
        ``done`` with ``analysis``). A player who sat in the match has his own moves graded
        (the others' hands were hidden from him); anyone else every seat's, all the hands
        being shown by the record. Kept with the record: it is made once."""
        row = self.record_of(request)
        user = await self.user_of(request)
        seats = tuple(range(len(row.players)))
        if user is not None and not row.uploaded:
            mine = self.storage.records.seats_in(user.id, [row.id]).get(row.id)
            if mine:
                seats = tuple(mine)
        shown = ",".join(map(str, seats))
        deals = self.settings.coach_deals
        kept = await run_in_threadpool(
            self.storage.records.analysis, row.id, shown, deals, coach.VERSION
        )
        if kept is not None:
            return {"state": "done", "seats": list(seats), "analysis": json.loads(kept)}

        def make() -> tuple[Plan, dict[int, int]]:
            match = record.loads(row.text)
            return plan(match, seats, 0, deals), starts(match)

        async def keep(text: str) -> None:
            await stored(
                self.settings,
                self.storage.records.add_analysis,
                row.id, shown, deals, coach.VERSION, text,
            )  # fmt: skip

        asker = ("user", user.id) if user is not None else ("address", address(request))
        key = ("record", row.id, shown, deals, coach.VERSION)
        return {**self.club.coach.ask(asker, key, make, keep), "seats": list(seats)}

    async def upload(self, request: Request) -> Any:
        raw = await received(request, self.settings.max_record, refusal_code("record_too_large"))
        row = await run_in_threadpool(_uploaded, raw, self.settings)
        await stored(self.settings, self.storage.records.add_record, row)
        return {"id": row.id}

    async def leaderboard(self, request: Request) -> Any:
        game = request.query_params.get("game", protocol.DEFAULT_GAME)
        return {
            "game": game,
            "skill": [
                {"name": u.name, "rating": round(r.mu - 3 * r.sigma, 2), "games": r.games}
                for u, r in self.storage.ratings.leaderboard(game)
            ],
            "kozel": [
                {"name": u.name, "rating": points}
                for u, points in self.storage.ratings.kozel_leaderboard()
            ],
        }

    async def profile(self, request: Request) -> Any:
        """A registered player: his ratings, his games and wins per game, his rating in each
        game after every rated match (``chart``: game -> [[time, rating], ...]), and whether
        he has the club's Kozel points (``kozel_rated``: points won or lost, or a rated match
        of a game that keeps them)."""
        user = self.storage.accounts.registered(request.path_params["name"])
        if user is None:
            raise ServerError("no_player", 404)
        chart: dict[str, list[list[float]]] = {}
        for row in self.storage.records.rating_history(user.id):
            assert row.rating is not None
            chart.setdefault(row.game, []).append([row.created, round(row.rating, 2)])
        ratings = self.storage.ratings.ratings_of(user.id)
        points = self.storage.ratings.points(user.id)
        return {
            "user": self.me(user),
            "kozel_rated": points != 0 or any(_keeps_points(r.game) for r in ratings),
            "ratings": [
                {
                    "game": r.game,
                    "rating": round(r.mu - 3 * r.sigma, 2),
                    "mu": round(r.mu, 2),
                    "sigma": round(r.sigma, 2),
                    "games": r.games,
                }
                for r in ratings
            ],
            "played": [
                {"game": game, "games": games, "wins": wins}
                for game, games, wins in self.storage.records.played(user.id)
            ],
            "chart": chart,
        }


def _keeps_points(game: str) -> bool:
    """Whether a rated match of ``game`` keeps the club's Kozel points (a game no longer
    offered keeps none)."""
    return game in VARIANTS and make_rules(game).capabilities().club_points


#: how many records a page of the history lists
HISTORY_PAGE = 20


@functools.lru_cache(maxsize=256)
def _loser(game: str) -> str | None:
    """What the yards call the side that loses a match of ``game`` (``goat``, ``donkey``),
    or None (plain losers, or a game this server does not know)."""
    try:
        return make_rules(game).variant.traits.loser
    except (UnknownVariant, UnknownOption):
        return None


def _players(row: RecordRow) -> list[str | None]:
    # an uploaded record names nobody (older ones said "seat 0"): the page numbers them
    return [None] * len(row.players) if row.uploaded else list(row.players)


def _listed(row: RecordRow) -> dict[str, Any]:
    """A record as the history lists it."""
    return {
        "id": row.id,
        "game": row.game,
        "players": _players(row),
        "summary": _shown(row.summary),
        "loser": _loser(row.game),
        "created": row.created,
        "uploaded": row.uploaded,
    }


def _uploaded(raw: bytes, settings: Settings) -> RecordRow:
    """The row of an uploaded record: replayed (within the settings' rounds and moves) and
    its deals verified once, here, so that showing it never replays it."""
    try:
        match = record.loads(
            raw.decode("utf-8", "replace"),
            max_rounds=settings.record_rounds,
            max_moves=settings.record_moves,
        )
        out = protocol.out_of_bounds(match.rules.options(), settings)
        if out is not None:
            name, low, high = out
            value = match.rules.options()[name]
            bound = invalid("option_between", name=name, low=low, high=high, value=value)
            raise BadRecord.of("record_rules", reason=bound)
    except BadRecord as error:
        raise ServerError.passing_on("bad_record", error) from None
    return RecordRow(
        id=secrets.token_urlsafe(8),
        table_id=None,
        game=match.rules.name,
        players=[None] * match.rules.players,
        text=record.dumps(match),
        summary=summary(match),
        uploaded=True,
    )


def _shown(summary: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in summary.items() if k in LISTED}


def _record(row: RecordRow) -> dict[str, Any]:
    kept = row.summary
    # a record stored before its deals or its rounds' results were kept is replayed as it is
    # shown
    match = None if "deals" in kept and "results" in kept else record.loads(row.text)
    return {
        **_listed(row),
        "record": json.loads(row.text),
        "results": kept["results"] if match is None else results(match),
        "deals": kept["deals"] if match is None else deals(match),
    }


def _position(row: RecordRow, asked: str | None, at_end: bool = False) -> dict[str, Any]:
    data = json.loads(row.text)
    plies = sum(len(r["moves"]) for r in data["rounds"])
    try:
        ply = max(0, min(int(asked if asked is not None else plies), plies))
    except ValueError:
        raise ServerError("ply_form") from None
    left = ply
    rounds: list[dict[str, Any]] = []
    for entry in data["rounds"]:
        if rounds and left <= 0 and at_end:
            break
        rounds.append({**entry, "moves": entry["moves"][:left]})
        left -= len(rounds[-1]["moves"])
        if left <= 0 and len(rounds[-1]["moves"]) < len(entry["moves"]):
            break
    match = record.from_data({**data, "rounds": rounds})
    # loading deals the round after a finished one: the last one asked for is shown
    rnd = match.rounds[len(rounds) - 1]
    return {
        "ply": ply,
        "plies": plies,
        "round": rnd.number,
        "over": rnd.is_over(),
        "view": View.of(rnd, None, scores=match.ledger.public()).to_json(),
        "deal": rnd.deal(),
        # a stored match is over: every hand may be shown as it stands
        "hands": [[str(t) for t in hand] for hand in rnd.hands],
        # the shown round's own last move: a deal has none (not the round before's)
        "last": rounds[-1]["moves"][-1] if rounds[-1]["moves"] else None,
    }
