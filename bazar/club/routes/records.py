"""The records of finished and uploaded matches, the replay page's positions, the
leaderboard and the players' profiles."""

from __future__ import annotations

import json
import secrets
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import BaseRoute, Route

from bazar.club import protocol
from bazar.club.errors import ServerError, refusal_code
from bazar.club.fairness import deals, verify
from bazar.club.settings import Settings
from bazar.club.storage import RecordRow, stored
from bazar.core import record
from bazar.core.errors import BadRecord, invalid

from .http import RouteGroup, api, me, received


class RecordRoutes(RouteGroup):
    """``/api/records/...``, ``/api/leaderboard``, ``/api/profile/{name}``."""

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/api/records", api(self.history)),
            Route("/api/records", api(self.upload), methods=["POST"]),
            Route("/api/records/{record_id}", api(self.record)),
            Route("/api/records/{record_id}/position", api(self.position)),
            Route("/api/leaderboard", api(self.leaderboard)),
            Route("/api/profile/{name}", api(self.profile)),
        ]

    def record_of(self, request: Request) -> RecordRow:
        row = self.storage.record(request.path_params["record_id"])
        if row is None:
            raise ServerError("no_record", 404)
        return row

    async def history(self, request: Request) -> Any:
        return {
            "records": [
                {
                    "id": r.id,
                    "game": r.game,
                    "players": r.players,
                    "summary": _shown(r.summary),
                    "created": r.created,
                    "uploaded": r.uploaded,
                }
                for r in self.storage.records()
            ]
        }

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
        """The spectators' view of a stored match after ``ply`` moves (the replay page)."""
        return await run_in_threadpool(
            _position, self.record_of(request), request.query_params.get("ply")
        )

    async def upload(self, request: Request) -> Any:
        raw = await received(request, self.settings.max_record, refusal_code("record_too_large"))
        row = await run_in_threadpool(_uploaded, raw, self.settings)
        await stored(self.settings, self.storage.add_record, row)
        return {"id": row.id}

    async def leaderboard(self, request: Request) -> Any:
        game = request.query_params.get("game", "kozel")
        return {
            "game": game,
            "skill": [
                {"name": u.name, "rating": round(r.mu - 3 * r.sigma, 2), "games": r.games}
                for u, r in self.storage.leaderboard(game)
            ],
            "kozel": [
                {"name": u.name, "rating": u.kozel_rating} for u in self.storage.kozel_leaderboard()
            ],
        }

    async def profile(self, request: Request) -> Any:
        user = self.storage.registered(request.path_params["name"])
        if user is None:
            raise ServerError("no_player", 404)
        return {
            "user": me(user),
            "ratings": [
                {
                    "game": r.game,
                    "rating": round(r.mu - 3 * r.sigma, 2),
                    "mu": round(r.mu, 2),
                    "sigma": round(r.sigma, 2),
                    "games": r.games,
                }
                for r in self.storage.ratings_of(user.id)
            ],
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
    result = match.result()
    return RecordRow(
        id=secrets.token_urlsafe(8),
        table_id=None,
        game=match.rules.name,
        players=[f"seat {i}" for i in range(match.rules.players)],
        text=record.dumps(match),
        summary={
            "scores": match.ledger.public(),
            "rounds": len(match.rounds),
            "winners": list(result.winners) if result else [],
            "deals": deals(match),
        },
        uploaded=True,
    )


def _shown(summary: dict[str, Any]) -> dict[str, Any]:
    # the deals are shown with the record itself, not in every list of records
    return {k: v for k, v in summary.items() if k != "deals"}


def _record(row: RecordRow) -> dict[str, Any]:
    kept = row.summary.get("deals")
    return {
        "id": row.id,
        "game": row.game,
        "players": row.players,
        "summary": _shown(row.summary),
        "record": json.loads(row.text),
        # a record stored before its deals were kept is verified as it is shown
        "deals": kept if kept is not None else verify(row.text),
    }


def _position(row: RecordRow, asked: str | None) -> dict[str, Any]:
    data = json.loads(row.text)
    plies = sum(len(r["moves"]) for r in data["rounds"])
    try:
        ply = max(0, min(int(asked if asked is not None else plies), plies))
    except ValueError:
        raise ServerError("ply_form") from None
    left, rounds = ply, []
    for entry in data["rounds"]:
        rounds.append({**entry, "moves": entry["moves"][:left]})
        left -= len(rounds[-1]["moves"])
        if left <= 0 and len(rounds[-1]["moves"]) < len(entry["moves"]):
            break
    match = record.from_data({**data, "rounds": rounds})
    moves = [m for r in data["rounds"] for m in r["moves"]]
    rnd = match.round
    return {
        "ply": ply,
        "plies": plies,
        "round": rnd.number,
        "view": match.view(None).to_json(),
        "deal": rnd.deal(),
        # a stored match is over: every hand may be shown as it stands
        "hands": [[str(t) for t in hand] for hand in rnd.hands],
        "last": moves[ply - 1] if ply else None,
    }
