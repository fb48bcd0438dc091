"""``make screenshots``: the club as a player sees it, in every family, both languages, on a
desktop (1280x800) and a phone (360x740), written as PNGs under ``docs/screens/`` with an
index (``docs/screens/README.md``).

A club runs on a temporary SQLite file (uvicorn on a thread, as the browser tests run it). In
each language a registered player sits at a table of each family with bots, and her page is
photographed at mid-round (her turn, after a few of her moves) and at a round's end; then the
lobby, the rules, the history, the profile, the leaderboard and the replay of a match she
finished; last a Swiss tournament she plays with seven bots, in play and finished, and the
tournaments' list with its form. Her moves are random legal ones (seeded) sent on a socket of
her own while her page looks on: every family gets to the same points whatever its page
offers to click, and the pictures change only when the page does.

    .venv/bin/python tools/screenshots.py [--out docs/screens] [--only kozel,fives] [--lang ru]

Needs the ``dev`` extra (Playwright, uvicorn, websockets) and Chromium at /usr/bin/chromium.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import random
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--no-first-run", "--disable-sync"]

#: a game of each family and its players: the name a screenshot is filed under
GAMES = {
    "kozel": 4,
    "draw": 2,
    "fives": 2,
    "telephone": 4,
    "mexican-train": 4,
    "chicken-foot": 4,
    "kolbasa": 2,
    "texas-42": 4,
    "poker": 4,
}
VIEWPORTS = {"desktop": (1280, 800), "phone": (360, 740)}
LANGS = ("ru", "en")
#: the player photographed, in each language: a name that needs no declension in neither
PLAYER = {"ru": "Оля", "en": "Olga"}
PASSWORD = "screens-only"
#: how many of her own moves make "mid-round"
MID_MOVES = 3


@contextlib.contextmanager
def club(bot_delay: float = 0.05) -> Iterator[str]:
    """A club of its own on a temporary database, as ``http://127.0.0.1:PORT``."""
    import uvicorn

    from bazar.club import create_app
    from bazar.club.settings import Settings

    with tempfile.TemporaryDirectory() as tmp, socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        s.close()
        # one player opens a table per family: no quota of a public club
        # a tournament's tables play their bots at the table's pace though nobody watches them
        roomy = Settings(
            guests_per_address=10_000, open_tables_per_user=10_000, unwatched_bot_delay_s=0
        )
        app = create_app(
            f"sqlite:///{tmp}/club.sqlite3", secret="screens", bot_delay=bot_delay, settings=roomy
        )
        config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        deadline = time.monotonic() + 30
        while not server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the club did not start")
            time.sleep(0.05)
        try:
            yield f"http://127.0.0.1:{port}"
        finally:
            server.should_exit = True
            thread.join(30)


@dataclass
class Seat:
    """A player's seat, played on a socket of her own (:func:`seated`): random legal moves
    (seeded), never a lone draw or pass (the table makes those itself). It stops where a
    picture is wanted: on her turn after some moves of hers, or once a round has ended."""

    ws: Any
    table: str
    rng: random.Random
    v: int = 0
    view: dict[str, Any] | None = None
    moves: int = 0
    rounds: int = 0
    over: bool = False
    sent: int | None = None
    #: the table pauses between rounds: a move is refused (round_pause) until it says it is over
    paused: bool = False

    def _heard(self, event: dict[str, Any]) -> None:
        if event.get("t") == "round_end":
            self.rounds += 1
        if event.get("t") == "match_end":
            self.over = True

    def _read(self, timeout: float) -> None:
        message = json.loads(self.ws.recv(timeout))
        kind = message.get("type")
        if kind == "sync":
            for event in message.get("events", []):
                self._heard(event)
            self.paused = bool((message.get("table") or {}).get("pause"))
        elif kind == "event":
            self._heard(message["event"])
        elif kind == "notice" and (message.get("event") or {}).get("t") == "pause_end":
            self.paused = False
        elif kind == "error":
            # stale or refused: choose again on the position now, but not in a flood (a socket
            # that sends too fast has what it sends dropped unanswered: a lost move is a stall)
            code = message.get("code")
            if code == "round_pause":
                self.paused = True
            elif code == "too_fast":
                time.sleep(1)
            self.sent = None
        if message.get("view"):
            self.view = message["view"]
        if isinstance(message.get("v"), int):
            self.v = max(self.v, message["v"])

    def to_move(self) -> bool:
        """Whether the seat has a choice to make now (a lone draw or pass is no choice)."""
        legal = (self.view or {}).get("legal") or []
        return not self.over and bool(legal) and legal not in (["draw"], ["pass"])

    def play(
        self, moves: int | None = None, rounds: int | None = None, seconds: float = 180
    ) -> None:
        """Play until ``moves`` more moves of hers are made and she is to move again, or until
        ``rounds`` more rounds have ended, or the match has (with neither: to its end); a stall of
        ``seconds`` with no move at the table is an error."""
        moved, ended = self.moves, self.rounds
        # ``seconds`` without the table moving on: a long match that keeps moving is no stall
        deadline, seen = time.monotonic() + seconds, self.v
        while True:
            if self.v != seen:
                deadline, seen = time.monotonic() + seconds, self.v
            if self.over:
                return
            if moves is not None and self.moves - moved >= moves and self.to_move():
                return
            if rounds is not None and self.rounds - ended >= rounds:
                return
            if time.monotonic() > deadline:
                raise TimeoutError(f"table {self.table}: {seconds} s without a move")
            if self.to_move() and self.sent != self.v and not self.paused:
                move = self.rng.choice((self.view or {})["legal"])
                self.ws.send(json.dumps({"type": "move", "move": move, "v": self.v}))
                self.sent = self.v
                self.moves += 1
            with contextlib.suppress(TimeoutError):
                self._read(timeout=2)


@contextlib.contextmanager
def seated(base: str, table: str, cookie: str, seed: int) -> Iterator[Seat]:
    """The seat of the player whose session ``cookie`` is, at ``table``, on a new socket."""
    from websockets.sync.client import connect

    url = base.replace("http", "ws", 1) + f"/ws/{table}"
    with connect(url, additional_headers={"cookie": cookie, "origin": base}) as ws:
        ws.send(json.dumps({"type": "hello", "v": 0}))
        yield Seat(ws, table, random.Random(seed))


@dataclass
class Eyes:
    """One page per device on the same address, each opened at its own size and left live
    (a page resized after it was drawn may keep the layout of its first width, and one
    reloaded loses what it was showing, such as a round's end)."""

    pages: dict[str, Any]

    @classmethod
    def open(cls, context: Any, url: str, errors: list[str], where: str) -> Eyes:
        pages = {}
        for device, (width, height) in VIEWPORTS.items():
            page = context.new_page()
            watch(page, errors, where)
            page.set_viewport_size({"width": width, "height": height})
            page.goto(url, wait_until="load")
            pages[device] = page
        return cls(pages)

    def settle(self) -> None:
        """Let every page draw what its socket has heard."""
        for page in self.pages.values():
            page.wait_for_timeout(350)

    def close(self) -> None:
        for page in self.pages.values():
            page.close()


@dataclass
class Camera:
    """Writes the pictures of what the eyes see, one per device, and remembers them."""

    out: Path
    written: list[Path] = field(default_factory=list)

    def shoot(self, eyes: Eyes, name: str) -> None:
        eyes.settle()
        for device, page in eyes.pages.items():
            path = self.out / f"{name}-{device}.png"
            page.screenshot(path=str(path))
            self.written.append(path)


def post(context: Any, base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """A call of the API as the page's player (the context's cookies), from the club's own
    origin."""
    headers = {"content-type": "application/json", "origin": base}
    response = context.request.post(base + path, data=json.dumps(body), headers=headers)
    if not response.ok:
        raise RuntimeError(f"{path}: {response.status} {response.text()}")
    answer: dict[str, Any] = response.json()
    return answer


def cookie_of(context: Any) -> str:
    return "; ".join(f"{c['name']}={c['value']}" for c in context.cookies())


def new_table(context: Any, base: str, game: str, players: int, **extra: Any) -> str:
    form = {"game": game, "players": players, "bots": "greedy", "move_time_s": 120, **extra}
    made = post(context, base, "/api/tables", form)
    table: str = made["table"]["id"]
    return table


def watch(page: Any, errors: list[str], where: str) -> None:
    """Collect the page's script errors and console errors into ``errors``."""

    def console(message: Any) -> None:
        # the browser asks for /favicon.ico of every site by itself: no script of the page's
        if message.type == "error" and "favicon" not in message.location.get("url", ""):
            errors.append(f"{where}: {message.text} ({message.location.get('url', '')})")

    page.on("pageerror", lambda error: errors.append(f"{where}: {error}"))
    page.on("console", console)


def paths(name: str, finished: str) -> dict[str, str]:
    """The club's pages other than a live table, by the name of their pictures: ``name``'s
    profile, and the replay of the match ``finished``."""
    return {
        "lobby": "/",
        "rules": "/rules",
        "rules-kozel": "/rules/kozel",
        "history": "/history",
        "profile": f"/profile/{name}",
        "leaderboard": "/leaderboard",
        "replay": f"/replay/{finished}",
    }


#: the tournament photographed, in each language: its name
TOURNAMENT = {"ru": "Кубок двора", "en": "Yard cup"}


def get(context: Any, base: str, path: str) -> dict[str, Any]:
    """A read of the API as the page's player."""
    answer: dict[str, Any] = context.request.get(base + path).json()
    return answer


def until(what: Any, seconds: float = 180) -> Any:
    """``what()`` once it is true, asked every 0.2 s."""
    deadline = time.monotonic() + seconds
    while not (found := what()):
        if time.monotonic() > deadline:
            raise TimeoutError(f"waited {seconds} s in vain")
        time.sleep(0.2)
    return found


def tournament(
    context: Any, base: str, lang: str, camera: Camera, errors: list[str], seed: int
) -> None:
    """An eight-player Swiss Kozel of two rounds: the list with its form, the tournament in
    play (her table of round 1 waiting for her) and its standings once over. Seven bots fill
    the field; her matches are played on her socket (short ones: the goat at 25)."""
    form = {
        "name": TOURNAMENT[lang],
        "game": "kozel",
        "players": 4,
        "format": "swiss",
        "rounds": 2,
        "options": {"limit": 25},
        "move_time_s": 120,
    }
    tid = post(context, base, "/api/tournaments", form)["tournament"]["id"]
    post(context, base, f"/api/tournaments/{tid}/bots", {"level": "greedy", "count": 7})
    post(context, base, f"/api/tournaments/{tid}/join", {})
    post(context, base, f"/api/tournaments/{tid}/start", {})

    def her_table(played: tuple[str, ...]) -> str | None:
        """Her table of the round in play, once it is another than those she ``played``."""
        t = get(context, base, f"/api/tournaments/{tid}")["tournament"]
        last = t["rounds_played"][-1]["pairings"] if t["rounds_played"] else []
        return next(
            (
                p["table"]
                for p in last
                if t.get("you") in p["entries"] and not p["places"] and p["table"] not in played
            ),
            None,
        )

    eyes = Eyes.open(context, f"{base}/tournament/{tid}", errors, f"{lang} tournament")
    played: tuple[str, ...] = ()
    for n in (1, 2):
        table = until(functools.partial(her_table, played))
        if n == 1:
            camera.shoot(eyes, f"tournament-play-{lang}")
        with seated(base, table, cookie_of(context), seed + n) as seat:
            seat.play()
        played += (table,)
    finished = f"/api/tournaments/{tid}"
    until(lambda: get(context, base, finished)["tournament"]["status"] == "finished")
    camera.shoot(eyes, f"tournament-end-{lang}")
    eyes.close()
    eyes = Eyes.open(context, f"{base}/tournaments", errors, f"{lang} tournaments")
    camera.shoot(eyes, f"tournaments-{lang}")
    for page in eyes.pages.values():
        page.evaluate("document.getElementById('organise-box').scrollIntoView()")
    camera.shoot(eyes, f"tournament-form-{lang}")
    eyes.close()


def photograph(base: str, out: Path, games: dict[str, int], langs: tuple[str, ...]) -> Camera:
    """Every picture of the gallery, from a club at ``base``."""
    from playwright.sync_api import sync_playwright

    camera = Camera(out)
    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for lang in langs:
            width, height = VIEWPORTS["desktop"]
            context = browser.new_context(
                viewport={"width": width, "height": height},
                locale="ru-RU" if lang == "ru" else "en-US",
            )
            context.add_init_script(f"localStorage.setItem('bazar.lang', '{lang}')")
            name = PLAYER[lang]
            post(context, base, "/api/register", {"name": name, "password": PASSWORD})
            for seed, (game, players) in enumerate(games.items(), start=1):
                table = new_table(context, base, game, players)
                eyes = Eyes.open(context, f"{base}/table/{table}", errors, f"{lang} {game}")
                with seated(base, table, cookie_of(context), seed) as seat:
                    seat.play(moves=MID_MOVES)
                    camera.shoot(eyes, f"{game}-mid-{lang}")
                    seat.play(rounds=1)
                    camera.shoot(eyes, f"{game}-end-{lang}")
                eyes.close()
                print(f"{lang} {game}: {seat.moves} moves, {seat.rounds} round(s)", flush=True)
            # a match played out, for the history, the profile and the replay: a draw game
            # to one point, played to its end (a tied fish or a lone 0-0 left scores nothing)
            finished = new_table(context, base, "draw", 2, options={"target": 1})
            eyes = Eyes.open(context, f"{base}/table/{finished}", errors, f"{lang} match")
            with seated(base, finished, cookie_of(context), 99) as seat:
                seat.play()
            camera.shoot(eyes, f"match-end-{lang}")
            eyes.close()
            for shot, path in paths(name, finished).items():
                eyes = Eyes.open(context, base + path, errors, f"{lang} {shot}")
                for page in eyes.pages.values():
                    page.wait_for_load_state("networkidle")
                camera.shoot(eyes, f"{shot}-{lang}")
                eyes.close()
            tournament(context, base, lang, camera, errors, seed=200)
            context.close()
        browser.close()
    for error in errors:
        print(f"page error: {error}", file=sys.stderr)
    return camera


#: what each picture of a table shows, and the pages by their names in the index
MOMENTS = {"mid": "mid-round, her turn", "end": "after a round's end"}
PAGES = {
    "match-end": "A match played out",
    "lobby": "Lobby",
    "rules": "Rules",
    "rules-kozel": "Rules of Kozel",
    "history": "History",
    "profile": "Profile",
    "leaderboard": "Leaderboard",
    "replay": "Replay",
    "tournaments": "Tournaments",
    "tournament-form": "Organising a tournament",
    "tournament-play": "A tournament in play: her table of round 1",
    "tournament-end": "A tournament's standings",
    # photographed by the coach's browser tests (tests/test_web_coach.py, test_web_records.py)
    "coach-replay": "The coach on the replay: the graph, the marks, the accuracy",
    "coach-best": "The coach's best move on the replay's board, as a ghost",
    "coach-hint": "The coach's hint at a casual table of bots",
    "coach-review": "How did I play? The coach's grades of a round",
}

#: the pictures the browser tests take, kept in the index whoever took them last
TESTS_SHOOT = ("coach-replay", "coach-best", "coach-hint", "coach-review")


def heading(shot: str) -> str:
    """A picture's heading in the index: the game's name and the moment, or the page's."""
    from bazar.i18n import title

    game, _, moment = shot.rpartition("-")
    if game in GAMES and moment in MOMENTS:
        return f"{title(game, 'en')}: {MOMENTS[moment]}"
    return PAGES.get(shot, shot)


def index(out: Path, camera: Camera) -> None:
    """``docs/screens/README.md``: every picture, one heading per table moment or page."""
    written = [*camera.written, *(p for s in TESTS_SHOOT for p in sorted(out.glob(f"{s}-*.png")))]
    names = {p.name for p in written}
    lines = [
        "# Screens",
        "",
        "What `make screenshots` (tools/screenshots.py) photographs: a table of each family at",
        "mid-round and after a round's end, then the club's other pages, in Russian and English,",
        "on a desktop (1280x800) and a phone (360x740): regenerate them when the page changes.",
        "",
    ]
    shots = sorted({p.stem.rsplit("-", 2)[0] for p in written}, key=_order)
    for shot in shots:
        lines += [f"## {heading(shot)}", "", "| | desktop | phone |", "|---|---|---|"]
        for lang in LANGS:
            cells = []
            for device in VIEWPORTS:
                file = f"{shot}-{lang}-{device}.png"
                cells.append(f"![{shot} {lang} {device}]({file})" if file in names else "")
            if any(cells):
                lines.append(f"| {lang} | " + " | ".join(cells) + " |")
        lines.append("")
    (out / "README.md").write_text("\n".join(lines), encoding="utf-8")


def _order(shot: str) -> tuple[int, str]:
    """The tables first, in the order of :data:`GAMES`, mid-round before the end, then the
    pages in the order of :data:`PAGES`."""
    game = shot.rsplit("-", 1)[0]
    if game in GAMES:
        return (list(GAMES).index(game), shot.replace("-mid", "-0"))
    return (len(GAMES) + (list(PAGES).index(shot) if shot in PAGES else len(PAGES)), shot)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screens")
    parser.add_argument("--only", help="the games to photograph, by comma (default: all)")
    parser.add_argument("--lang", choices=LANGS, help="one language (default: both)")
    args = parser.parse_args()
    games = {g: GAMES[g] for g in args.only.split(",")} if args.only else GAMES
    langs = (args.lang,) if args.lang else LANGS
    args.out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    with club() as base:
        camera = photograph(base, args.out, games, langs)
    index(args.out, camera)
    size = sum(p.stat().st_size for p in camera.written)
    print(
        f"{len(camera.written)} pictures, {size / 1e6:.1f} MB, in {args.out} "
        f"({time.monotonic() - started:.0f} s)"
    )


if __name__ == "__main__":
    main()
