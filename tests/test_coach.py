"""The club's coach (``bazar/club/coach.py``) on its own: the analyses asked for are made
once each, one after another in their order, a player waits for one at a time, the queue
is bounded, a failure is told and then tried again, a worker that dies is replaced. Its
work runs in a pool of threads here, held back where a test must see it wait."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from concurrent.futures import Executor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import pytest

import bazar
from bazar import analysis
from bazar.club.coach import Coach
from bazar.club.errors import ServerError
from bazar.club.settings import Settings

DEALS = 2


class Pool:
    """The club's workers, as threads: ``broken`` makes the next pools fail as a pool whose
    worker died does."""

    def __init__(self) -> None:
        self.pools: list[ThreadPoolExecutor] = []
        self.broken = 0

    def processes(self) -> Executor:
        if not self.pools or self.pools[-1]._shutdown:
            self.pools.append(ThreadPoolExecutor(2))
        if self.broken:
            self.broken -= 1
            return Broken()
        return self.pools[-1]

    def processes_broken(self, pool: Executor) -> None:
        pass

    def close(self) -> None:
        for pool in self.pools:
            pool.shutdown()


class Broken(ThreadPoolExecutor):
    def submit(self, *args: Any, **kwargs: Any) -> Any:
        raise BrokenProcessPool("a worker died")


@pytest.fixture
def pool() -> Iterator[Pool]:
    made = Pool()
    yield made
    made.close()


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """Holds every round's valuing back until set; counts the rounds valued."""
    opened = threading.Event()
    value = analysis.value
    calls: list[int] = []

    def held(job: Any) -> Any:
        assert opened.wait(30)
        calls.append(1)
        return value(job)

    monkeypatch.setattr(analysis, "value", held)
    opened.calls = calls  # type: ignore[attr-defined]
    yield opened
    opened.set()


def match(seed: int) -> bazar.Match:
    played = bazar.Match(bazar.rules("block"), seed=seed)
    while not played.is_over():
        played.push(played.legal_moves()[0])
    return played


def planner(seed: int, made: list[int] | None = None) -> Any:
    def make() -> tuple[analysis.Plan, dict[int, int]]:
        if made is not None:
            made.append(seed)
        m = match(seed)
        return analysis.plan(m, 0, 0, DEALS), {r.number: 0 for r in m.rounds}

    return make


async def until(condition: Any, seconds: float = 30.0) -> None:
    async with asyncio.timeout(seconds):
        while not condition():
            await asyncio.sleep(0.01)


def run(test: Any) -> None:
    asyncio.run(asyncio.wait_for(test(), 60))


def test_an_analysis_waits_its_turn_and_is_made_once_for_all_who_ask(
    pool: Pool, gate: threading.Event
) -> None:
    async def test() -> None:
        coach = Coach(pool, Settings(coach_deals=DEALS))
        made: list[int] = []
        first = coach.ask("masha", "a", planner(1, made))
        second = coach.ask("alex", "b", planner(2, made))
        assert first["state"] in ("queued", "running") and second == {"state": "queued", "ahead": 1}
        # the same analysis asked by another: one job, the same place in the queue
        assert coach.ask("olga", "b", planner(2, made)) == {"state": "queued", "ahead": 1}
        await until(lambda: coach.ask("masha", "a", planner(1))["state"] == "running")
        running = coach.ask("masha", "a", planner(1))
        assert running["done"] == 0 and running["total"] > 0
        gate.set()
        await until(lambda: coach.ask("alex", "b", planner(2))["state"] == "done")
        for asker, key, seed in (("masha", "a", 1), ("olga", "b", 2)):
            done = coach.ask(asker, key, planner(seed))
            assert done["state"] == "done"
            moves = done["analysis"]["moves"]
            assert moves and {m["seat"] for m in moves} == {0}
        # each planned once, the second after the first
        assert made == [1, 2]
        await coach.close()

    run(test)


def test_a_player_waits_for_one_analysis_at_a_time(pool: Pool, gate: threading.Event) -> None:
    async def test() -> None:
        coach = Coach(pool, Settings(coach_deals=DEALS))
        coach.ask("alex", "a", planner(1))
        coach.ask("masha", "b", planner(2))
        with pytest.raises(ServerError) as refused:
            coach.ask("masha", "c", planner(3))
        assert (refused.value.code, refused.value.status) == ("analysis_busy", 429)
        assert refused.value.params == {"ahead": 1}
        # asking again for his own is no other analysis
        assert coach.ask("masha", "b", planner(2))["state"] == "queued"
        gate.set()
        await until(lambda: coach.ask("masha", "b", planner(2))["state"] == "done")
        # once it is made he may ask for the next
        assert coach.ask("masha", "c", planner(3))["state"] in ("queued", "running")
        await coach.close()

    run(test)


def test_the_queue_holds_so_many_analyses_and_refuses_more(
    pool: Pool, gate: threading.Event
) -> None:
    async def test() -> None:
        coach = Coach(pool, Settings(coach_deals=DEALS, coach_queue=2))
        coach.ask("p0", "a", planner(1))
        await until(lambda: coach.ask("p0", "a", planner(1))["state"] == "running")
        coach.ask("p1", "b", planner(2))
        coach.ask("p2", "c", planner(3))
        with pytest.raises(ServerError) as refused:
            coach.ask("p3", "d", planner(4))
        assert (refused.value.code, refused.value.status) == ("coach_full", 503)
        # what is asked for already is no more
        assert coach.ask("p3", "b", planner(2)) == {"state": "queued", "ahead": 1}
        await coach.close()

    run(test)


def test_a_failed_analysis_is_told_once_then_made_again(pool: Pool) -> None:
    async def test() -> None:
        coach = Coach(pool, Settings(coach_deals=DEALS))
        tries: list[int] = []

        def fails() -> Any:
            tries.append(1)
            raise RuntimeError("a record that does not load")

        coach.ask("masha", "a", fails)
        await until(lambda: "a" not in coach._jobs)
        with pytest.raises(ServerError) as refused:
            coach.ask("masha", "a", fails)
        assert (refused.value.code, refused.value.status) == ("analysis_failed", 500)
        assert coach.ask("masha", "a", planner(1))["state"] in ("queued", "running")
        await until(lambda: coach.ask("masha", "a", planner(1))["state"] == "done")
        assert tries == [1]
        await coach.close()

    run(test)


def test_an_analysis_whose_worker_died_is_made_in_a_fresh_pool(pool: Pool) -> None:
    async def test() -> None:
        pool.broken = 1
        coach = Coach(pool, Settings(coach_deals=DEALS))
        coach.ask("masha", "a", planner(1))
        await until(lambda: coach.ask("masha", "a", planner(1))["state"] == "done")
        # twice broken: the analysis fails, and says so
        pool.broken = 2
        coach.ask("masha", "b", planner(2))
        await until(lambda: "b" not in coach._jobs)
        with pytest.raises(ServerError, match="could not make"):
            coach.ask("masha", "b", planner(2))
        await coach.close()

    run(test)


def test_a_made_analysis_is_kept_by_its_asker_and_moves_are_placed_in_the_match(
    pool: Pool,
) -> None:
    async def test() -> None:
        coach = Coach(pool, Settings(coach_deals=DEALS))
        kept: list[str] = []

        async def keep(text: str) -> None:
            kept.append(text)

        m = match(3)
        starts = {}
        made = 0
        for rnd in m.rounds:
            starts[rnd.number] = made
            made += len(rnd.moves)
        flat = [str(move) for rnd in m.rounds for move in rnd.moves]

        def make() -> tuple[analysis.Plan, dict[int, int]]:
            return analysis.plan(m, None, 0, DEALS), starts

        coach.ask("masha", "a", make, keep)
        await until(lambda: coach.ask("masha", "a", make, keep)["state"] == "done")
        done = coach.ask("masha", "a", make, keep)["analysis"]
        assert [m["played"] for m in done["moves"]] == flat
        assert [m["at"] for m in done["moves"]] == list(range(len(flat)))
        assert kept == [json.dumps(done, ensure_ascii=False, sort_keys=True)]
        await coach.close()

    run(test)


def test_a_hint_is_the_best_move_with_why_and_one_at_a_time(pool: Pool) -> None:
    async def test() -> None:
        coach = Coach(pool, Settings(coach_deals=8))
        m = bazar.Match(bazar.rules("block"), seed=7)
        while len(m.legal_moves()) < 2:
            m.push(m.legal_moves()[0])
        view, legal = m.view(m.turn), m.legal_moves()
        asked = [
            asyncio.ensure_future(coach.hint("masha", ("t", 1), view, legal, "s")) for _ in range(2)
        ]
        done = await asyncio.gather(*asked, return_exceptions=True)
        hint = next(d for d in done if isinstance(d, dict))
        refused = next(d for d in done if isinstance(d, ServerError))
        assert refused.code == "hint_busy"
        position = analysis.evaluate_view(view, legal, "s", 8)
        assert position is not None and hint["move"] == str(position.best().move)
        assert sorted(v["move"] for v in hint["values"]) == sorted(str(x) for x in legal)
        assert hint["values"][0]["move"] == hint["move"]
        # asked again at the same position, the same hint, made once
        assert await coach.hint("masha", ("t", 1), view, legal, "other") == hint
        # a forced move is told as it is
        forced = await coach.hint("masha", ("t", 2), view, legal[:1], "s")
        assert forced == {"move": str(legal[0]), "forced": True, "advice": None, "values": []}
        await coach.close()

    run(test)
