"""``Round.copy`` is independent on every variant: at every ply of a few seeded random
games, a move made on the copy and every mutable container of the copy changed (found by
walking its attributes, nested containers too) leave the original as it was: its full
state, its legal moves and its views. And every attribute a round holds is declared on its
class, which is how :meth:`Round.copy` knows how to copy it."""

from __future__ import annotations

import inspect
import random
from typing import Any

import pytest

import bazar
from bazar import Match, Round
from bazar.core.round import copy_plan
from bazar.hotpath import compiled

VARIANTS = bazar.rules.names()
SEEDS = (1, 2, 3)


class _Mark:
    """What the test puts into the copy's containers (hashable, equal only to itself)."""

    def __repr__(self) -> str:
        return "MARK"


MARK = _Mark()


def snapshot(value: Any) -> Any:
    """A deep structure of ``value``, equal to another exactly when the containers hold the
    same things (other objects by equality: shared tables and records by identity)."""
    cls = value.__class__
    if cls is list or cls is tuple:
        return (cls.__name__, tuple(snapshot(v) for v in value))
    if cls is dict:
        return ("dict", tuple((repr(k), snapshot(v)) for k, v in value.items()))
    if cls is set or cls is frozenset:
        return (cls.__name__, tuple(sorted(repr(v) for v in value)))
    return value


def attributes(rnd: Round) -> dict[str, Any]:
    """Every attribute the round holds: its ``__dict__``, and where its class is compiled
    (:mod:`bazar.hotpath`), the slots ``__mypyc_attrs__`` names."""
    held = {
        name: getattr(rnd, name)
        for name in getattr(type(rnd), "__mypyc_attrs__", ())
        if hasattr(rnd, name)
    }
    held.update(getattr(rnd, "__dict__", {}))
    return held


def state(rnd: Round) -> dict[str, Any]:
    return {name: snapshot(value) for name, value in attributes(rnd).items()}


def mutate(value: Any) -> None:
    """Change every mutable container in ``value``, the nested ones first."""
    cls = value.__class__
    if cls is list or cls is tuple:
        for item in value:
            mutate(item)
        if cls is list:
            value.append(MARK)
    elif cls is dict:
        for item in value.values():
            mutate(item)
        value[MARK] = MARK
    elif cls is set:
        value.add(MARK)


def looks(rnd: Round) -> tuple[Any, ...]:
    """What the round shows: its legal moves and every seat's view."""
    views = [rnd.view(seat).to_json() for seat in [*range(rnd.players), None]]
    return (rnd.legal_moves(), rnd.ply, views)


@pytest.mark.parametrize("name", VARIANTS)
def test_a_changed_copy_leaves_the_original_as_it_was(name: str) -> None:
    for seed in SEEDS:
        rng = random.Random(f"{name}:{seed}")
        match = Match(bazar.rules(name), seed=rng.randrange(1 << 30))
        rnd = match.round
        while not rnd.is_over():
            match.view(rnd.turn)  # the match's cache of views is part of the state
            before, shown = state(rnd), looks(rnd)
            twin = rnd.copy()
            assert type(twin) is type(rnd) and state(twin) == before
            for value in attributes(twin).values():
                mutate(value)
            assert state(rnd) == before, "the copy shares a container with the original"
            twin = rnd.copy()
            twin.push(rng.choice(twin.legal_moves()))
            assert state(rnd) == before, "a move on the copy changed the original"
            for value in attributes(twin).values():
                mutate(value)
            assert state(rnd) == before, "the copy, moved on, shares a container"
            assert looks(rnd) == shown
            rnd.push(rng.choice(rnd.legal_moves()))


@pytest.mark.skipif(bool(compiled()), reason="a compiled class holds no undeclared attribute")
@pytest.mark.parametrize("name", VARIANTS)
def test_every_attribute_of_a_round_is_declared(name: str) -> None:
    """Each attribute a round sets is declared on its class (so mypy sees it and
    :func:`copy_plan` copies it by its kind)."""
    rng = random.Random(name)
    rnd = Round(bazar.rules(name), seed=rng.randrange(1 << 30))
    cls = type(rnd)
    declared: set[str] = set()
    for klass in cls.__mro__:
        declared.update(inspect.get_annotations(klass))
    while True:
        undeclared = set(vars(rnd)) - declared
        assert not undeclared, f"{cls.__name__} sets undeclared attributes: {sorted(undeclared)}"
        for attribute, value in vars(rnd).items():
            if value.__class__ in (list, dict, set):
                assert attribute in copy_plan(cls), f"{cls.__name__}.{attribute} is not copied"
        if rnd.is_over():
            break
        rnd.push(rng.choice(rnd.legal_moves()))


@pytest.mark.skipif(bool(compiled()), reason="the compiled families take no Python subclass")
def test_a_container_is_copied_by_its_declared_kind() -> None:
    """A family's attribute declared a container is copied, a list of lists to the rows;
    one it forgot to declare would be shared (the test above fails on it)."""
    from bazar.games.line.round import LineRound

    class Declared(LineRound):
        _rows: list[list[int]]
        _seen: dict[str, set[int]]

    class Forgot(LineRound):
        pass

    rules = bazar.rules("block")
    rnd = Declared(rules, seed=1)
    rnd._rows, rnd._seen = [[1], [2]], {"a": {1}}
    twin = rnd.copy()
    twin._rows[0].append(3)
    twin._seen["a"].add(2)
    assert rnd._rows == [[1], [2]] and rnd._seen == {"a": {1}}
    assert "_rows" in copy_plan(Declared) and "_rows" not in copy_plan(Forgot)
