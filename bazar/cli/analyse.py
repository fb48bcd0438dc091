"""``bazar analyse``: a match record's moves graded by the coach (:mod:`bazar.analysis`), each
from what its player knew: every choice with its mark and the better move, each player's
accuracy, and the worst three moves of each with why (or all of it as JSON)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from bazar import analysis, i18n
from bazar.analysis import Advice, Analysis, GradedMove
from bazar.core import record
from bazar.core.errors import invalid
from bazar.core.match import Match
from bazar.i18n import N_, t

from .app import AsJson, Lang, bad_input, guess_lang, h, lang_option
from .console import title

#: the catalogue's sentences of the advice (``Advice.key``) and the grades' words
SAID = (
    *(N_("advice.fish"), N_("advice.void"), N_("advice.score")),
    *(N_("advice.double"), N_("advice.heavy"), N_("advice.variety")),
    *(N_("grade.good"), N_("grade.inaccuracy"), N_("grade.mistake")),
    *(N_("grade.blunder"), N_("grade.forced")),
)
#: the tables' columns
COLUMNS = {
    "round": N_("analyse.col.round"),
    "player": N_("analyse.col.player"),
    "played": N_("analyse.col.played"),
    "grade": N_("analyse.col.grade"),
    "best": N_("analyse.col.best"),
    "chance": N_("analyse.col.chance"),
    "why": N_("analyse.col.why"),
    "accuracy": N_("analyse.col.accuracy"),
    "inaccuracy": N_("analyse.col.inaccuracy"),
    "mistake": N_("analyse.col.mistake"),
    "blunder": N_("analyse.col.blunder"),
}


def analyse_command(
    file: Annotated[Path, typer.Argument(help=h("help.file"))],
    seat: Annotated[int | None, typer.Option("--seat", help=h("help.analyse_seat"))] = None,
    budget: Annotated[
        int, typer.Option("--budget", help=h("help.analyse_budget"))
    ] = analysis.DEALS,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help=h("help.jobs"))] = 1,
    seed: Annotated[int, typer.Option("--seed", help=h("help.seed"))] = 0,
    as_json: AsJson = False,
    lang: Lang = None,
) -> None:
    lang = lang_option(lang)
    language = guess_lang(lang)
    with bad_input(language):
        match = record.loads(file.read_text(encoding="utf-8"))
        players = match.rules.players
        if seat is not None and not 0 <= seat < players:
            raise invalid("seat", seat=seat, last=players - 1)
        if budget < 1:
            raise i18n.Message("error.at_least", option="--budget", low=1, value=budget)
        if jobs < 1:
            raise i18n.Message("error.at_least", option="--jobs", low=1, value=jobs)
    language = lang or i18n.default_lang(match.rules.name)
    report = _run(match, seat, budget, seed, jobs, language)
    if as_json:
        print(report.dumps())
        return
    show(Console(highlight=False), match, report, language)


def _run(match: Match, seat: int | None, deals: int, seed: int, jobs: int, lang: str) -> Analysis:
    errors = Console(stderr=True)
    if not errors.is_terminal:
        return analysis.analyse(match, seat, deals=deals, seed=seed, jobs=jobs)
    from rich.progress import Progress

    with Progress(console=errors, transient=True) as bar:
        task = bar.add_task(t("analyse.progress", lang), total=None)

        def told(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return analysis.analyse(match, seat, deals=deals, seed=seed, jobs=jobs, progress=told)


def advice_text(advice: Advice | None, lang: str) -> str:
    """Why a move was worse, in ``lang`` (empty where no principle applies)."""
    if advice is None:
        return ""
    return t(advice.key, lang, **advice.params)


def _chance(value: float) -> str:
    return f"{100 * value:.0f}%"


def _player(seat: int, lang: str) -> str:
    return t("analyse.player", lang, n=seat + 1)


def _grade(move: GradedMove, lang: str) -> str:
    word = t(f"grade.{move.grade}", lang)
    return f"{move.symbol} {word}".strip()


def show(console: Console, match: Match, report: Analysis, lang: str) -> None:
    """The moves, the accuracy table and each player's worst moves, in ``lang``."""
    console.print(
        t(
            "analyse.title",
            lang,
            game=title(match.rules.name, lang),
            rounds=t("rounds", lang, n=len(match.rounds)),
            deals=report.deals,
        )
    )
    moves = Table(title=t("analyse.moves", lang), title_justify="left")
    for key in ("round", "player", "played", "grade", "best", "chance", "why"):
        moves.add_column(t(COLUMNS[key], lang))
    forced = 0
    for move in report.moves:
        if move.grade == "forced":
            forced += 1
            continue
        moves.add_row(
            f"{move.round}.{move.ply + 1}",
            _player(move.seat, lang),
            str(move.played),
            _grade(move, lang),
            "" if move.is_best else str(move.best),
            f"{_chance(move.win_before)} → {_chance(move.win_after)}",
            advice_text(move.advice, lang),
        )
    console.print(moves)
    if forced:
        console.print(t("analyse.forced", lang, n=forced))
    if report.unvalued:
        console.print(t("analyse.unvalued", lang, n=report.unvalued))
    table = Table(title=t("analyse.accuracy", lang), title_justify="left")
    for key in ("player", "accuracy", "inaccuracy", "mistake", "blunder"):
        table.add_column(t(COLUMNS[key], lang), justify="left" if key == "player" else "right")
    for seat in report.seats:
        counts = report.counts(seat)
        accuracy = report.accuracy(seat)
        table.add_row(
            _player(seat, lang),
            "–" if accuracy is None else f"{accuracy:.1f}",
            *(str(counts.get(g, 0)) for g in ("inaccuracy", "mistake", "blunder")),
        )
    console.print(table)
    for seat in report.seats:
        worst = report.worst(seat)
        if not worst:
            continue
        console.print(t("analyse.worst", lang, player=_player(seat, lang)))
        for move in worst:
            line = t(
                "analyse.worst_line",
                lang,
                at=f"{move.round}.{move.ply + 1}",
                played=str(move.played),
                best=str(move.best),
                lost=f"{50 * move.loss:.0f}",
            )
            why = advice_text(move.advice, lang)
            console.print(f"  {line}" + (f" {why}" if why else ""))
