"""``bazar arena``: many matches between bots, and how each did."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from bazar import arena as arenas
from bazar import bots as botlib
from bazar import i18n
from bazar.core.rules import Rules
from bazar.i18n import N_, t

from .app import (
    AsJson,
    Lang,
    Options,
    Players,
    bad_input,
    bot_names,
    chosen_rules,
    guess_lang,
    h,
    lang_option,
)


def arena_command(
    variant: Annotated[str, typer.Argument(help=h("help.variant"))],
    bots: Annotated[
        str,
        typer.Option("--bots", help=h("help.arena_bots", levels=", ".join(botlib.names()))),
    ],
    games: Annotated[int, typer.Option("--games", "-n", help=h("help.games"))],
    players: Players = None,
    seed: Annotated[int, typer.Option("--seed", help=h("help.seed"))] = 0,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help=h("help.jobs"))] = 1,
    ray: Annotated[str | None, typer.Option("--ray", metavar="ADDRESS", help=h("help.ray"))] = None,
    as_json: AsJson = False,
    option: Options = None,
    lang: Lang = None,
) -> None:
    lang = lang_option(lang)
    language = guess_lang(lang, variant)
    names = bot_names(bots)
    with bad_input(language):
        chosen = chosen_rules(variant, players, option or ())
        language = lang or i18n.default_lang(chosen.name)
        for name in names:
            botlib.make(name)
        if len(names) < 2:
            # one entry would fill every seat with itself and "win" every match
            raise i18n.Message("error.arena_bots", given=bots.strip() or "''")
        if games < 1:
            raise i18n.Message("error.at_least", option="--games", low=1, value=games)
        if jobs < 1:
            raise i18n.Message("error.at_least", option="--jobs", low=1, value=jobs)
    with bad_input(language):
        # Ray not installed, or no cluster at the address: one line, as any bad value
        report = _run_arena(chosen, names, games, seed, jobs, ray, language)
    if as_json:
        print(json.dumps(report.to_json(), ensure_ascii=False))
        return
    _show_report(Console(highlight=False), report, language)


def _run_arena(
    chosen: Rules, names: list[str], games: int, seed: int, jobs: int, ray: str | None, lang: str
) -> arenas.Report:
    errors = Console(stderr=True)
    if not errors.is_terminal:
        return arenas.run(chosen, names, games, seed=seed, jobs=jobs, ray=ray)
    from rich.progress import Progress

    with Progress(console=errors, transient=True) as bar:
        task = bar.add_task(t("arena.progress", lang), total=games)
        return arenas.run(
            chosen,
            names,
            games,
            seed=seed,
            jobs=jobs,
            ray=ray,
            progress=lambda n: bar.advance(task, n),
        )


def _show_report(console: Console, report: arenas.Report, lang: str) -> None:
    title = t(
        "arena.title",
        lang,
        game=report.variant,
        players=t("players", lang, n=report.players),
        games=t("games", lang, n=report.games),
    )
    table = Table(title=title, title_justify="left")
    # an entry holding several seats of one match: its share of the matches is shown too
    shared = any(r.matches != r.games for r in report.results)
    table.add_column(t("arena.bot", lang))
    keys = [N_("arena.games"), N_("arena.win_rate"), N_("arena.ci")]
    if shared:
        keys += [N_("arena.match_win_rate"), N_("arena.ci")]
    for key in (*keys, N_("arena.margin"), N_("arena.median"), N_("arena.p95")):
        table.add_column(t(key, lang), justify="right")
    for r in report.results:
        cells = [i18n.bot_name(r.bot, lang), str(r.games), f"{r.win_rate:.1%}", _interval(r.ci95)]
        if shared:
            cells += [f"{r.match_win_rate:.1%}", _interval(r.match_ci95)]
        cells += [f"{r.margin:+.1f}", f"{r.ms_median:.4f}", f"{r.ms_p95:.4f}"]
        table.add_row(*cells)
    console.print(table)


def _interval(ci: tuple[float, float]) -> str:
    low, high = ci
    return f"{low * 100:.0f}–{high * 100:.0f}%"
