"""``bazar bench``: random rounds timed, the loop the peers are timed with."""

from __future__ import annotations

import random
import time
from typing import Annotated

import typer

from bazar import i18n
from bazar.core.play import playout
from bazar.core.round import Round
from bazar.core.rules import Rules
from bazar.i18n import t

from .app import Lang, Options, Players, bad_input, chosen_rules, guess_lang, h, lang_option


def bench(rules: Rules, seconds: float) -> tuple[int, int, float]:
    """Random rounds for about ``seconds``: (rounds, moves, seconds taken). Times exactly the
    loop peers are timed with (DESIGN.md, :func:`~bazar.core.play.playout`): deal from seed
    ``i``, push random legal moves."""
    choice = random.Random(0).choice
    games = moves = 0
    clock = time.perf_counter
    start = clock()
    deadline = start + seconds
    while True:
        moves += playout(Round(rules, seed=games), choice)
        games += 1
        if clock() >= deadline:
            break
    return games, moves, clock() - start


def bench_command(
    variant: Annotated[str, typer.Argument(help=h("help.variant"))] = "block",
    players: Players = None,
    seconds: Annotated[float, typer.Option("--seconds", "-s", help=h("help.seconds"))] = 3.0,
    option: Options = None,
    lang: Lang = None,
) -> None:
    lang = lang_option(lang)
    language = guess_lang(lang, variant)
    with bad_input(language):
        chosen = chosen_rules(variant, players, option or ())
        language = lang or i18n.default_lang(chosen.name)
        if not seconds > 0:
            raise i18n.Message("error.positive", option="--seconds", value=seconds)
    games, moves, taken = bench(chosen, seconds)
    print(
        t(
            "bench.result",
            language,
            game=chosen.name,
            players=t("players", language, n=chosen.players),
            games=t("rounds", language, n=games),
            moves=t("moves", language, n=moves),
            seconds=i18n.decimal(taken, language),
            gps=i18n.number(games / taken, language),
            mps=i18n.number(moves / taken, language),
        )
    )
