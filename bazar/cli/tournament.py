"""``bazar tournament``: a tournament between bots (round-robin, Swiss, knock-out, arena),
played out and told as its standings; or an exported tournament re-read (``--from``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from babel.numbers import format_decimal
from rich.console import Console
from rich.measure import Measurement
from rich.table import Table

from bazar import arena as arenas
from bazar import bots as botlib
from bazar import i18n
from bazar.i18n import N_, t
from bazar.tournament import FORMATS, Standing, Tournament, dumps, loads
from bazar.tournament.play import run
from bazar.tournament.tournament import RANKING

from .app import (
    AsJson,
    Lang,
    Options,
    Players,
    Usage,
    bad_input,
    bot_names,
    chosen_rules,
    guess_lang,
    h,
    lang_option,
    parse_option,
)

#: each format's name, as a column or a title says it
FORMAT_NAMES = {
    "round_robin": N_("tournament.round_robin"),
    "swiss": N_("tournament.swiss"),
    "knockout": N_("tournament.knockout"),
    "arena": N_("tournament.arena"),
}

#: each tie-break's column
TIEBREAKS = {
    "buchholz": N_("tournament.buchholz"),
    "median_buchholz": N_("tournament.median_buchholz"),
    "sonneborn_berger": N_("tournament.sonneborn_berger"),
    "streak": N_("tournament.streak"),
}

#: the tie-breaks each format's table shows: those it ranks by (wins have their own
#: column), and in an arena the streak that doubles a win
SHOWN = {
    kind: tuple(k for k in (*ranking, *(("streak",) if kind == "arena" else ())) if k in TIEBREAKS)
    for kind, ranking in RANKING.items()
}


def tournament_command(
    variant: Annotated[str | None, typer.Argument(help=h("help.variant"))] = None,
    bots: Annotated[
        str | None,
        typer.Option("--bots", help=h("help.tournament_bots", levels=", ".join(botlib.names()))),
    ] = None,
    format: Annotated[
        str, typer.Option("--format", "-f", help=h("help.format", formats=", ".join(FORMATS)))
    ] = "swiss",
    rounds: Annotated[int | None, typer.Option("--rounds", "-r", help=h("help.rounds"))] = None,
    minutes: Annotated[float | None, typer.Option("--minutes", help=h("help.minutes"))] = None,
    players: Players = None,
    teams: Annotated[bool, typer.Option("--teams", help=h("help.teams"))] = False,
    seed: Annotated[int, typer.Option("--seed", help=h("help.seed"))] = 0,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help=h("help.jobs"))] = 1,
    ray: Annotated[str | None, typer.Option("--ray", metavar="ADDRESS", help=h("help.ray"))] = None,
    records: Annotated[
        Path | None, typer.Option("--records", metavar="DIR", help=h("help.records"))
    ] = None,
    out: Annotated[Path | None, typer.Option("--out", metavar="FILE", help=h("help.out"))] = None,
    source: Annotated[
        Path | None, typer.Option("--from", metavar="FILE", help=h("help.from"))
    ] = None,
    as_json: AsJson = False,
    option: Options = None,
    lang: Lang = None,
) -> None:
    lang = lang_option(lang)
    if source is not None:
        language = guess_lang(lang)
        if variant is not None or bots is not None:
            raise Usage("tournament.from_alone")
        with bad_input(language):
            done = loads(source.read_text(encoding="utf-8"))
        _show(done, lang or i18n.default_lang(done.game), as_json)
        return
    if variant is None:
        raise Usage("usage.missing_argument", name="'variant'")
    if bots is None:
        raise Usage("usage.missing_option", name="'--bots'")
    language = guess_lang(lang, variant)
    with bad_input(language):
        made = _tournament(variant, bots, format, rounds, minutes, players, teams, seed, option)
        language = lang or i18n.default_lang(made.game)
        if jobs < 1:
            raise i18n.Message("error.at_least", option="--jobs", low=1, value=jobs)
    with bad_input(language):
        # Ray not installed, no cluster at the address, a folder that cannot be written
        _play(made, jobs, ray, records, language)
        if out is not None:
            out.write_text(dumps(made), encoding="utf-8")
    _show(made, language, as_json)


def _tournament(
    variant: str,
    bots: str,
    format: str,
    rounds: int | None,
    minutes: float | None,
    players: int | None,
    teams: bool,
    seed: int,
    option: list[str] | None,
) -> Tournament:
    """The tournament the options describe, its bots entered, every value checked."""
    kind = format.strip().lower().replace("-", "_")
    if kind not in FORMATS:
        known = ", ".join(f"'{name}'" for name in FORMATS)
        raise i18n.Message("error.tournament_format", value=format, known=known)
    if kind == "swiss" and rounds is None:
        raise i18n.Message("error.tournament_rounds")
    if kind == "arena" and minutes is None:
        raise i18n.Message("error.tournament_minutes")
    if rounds is not None and kind in ("knockout", "arena"):
        raise i18n.Message("error.tournament_option", option="--rounds", format=kind)
    if minutes is not None and kind != "arena":
        raise i18n.Message("error.tournament_option", option="--minutes", format=kind)
    if rounds is not None and rounds < 1:
        raise i18n.Message("error.at_least", option="--rounds", low=1, value=rounds)
    if minutes is not None and not minutes > 0:
        raise i18n.Message("error.tournament_positive", option="--minutes", value=minutes)
    if teams and players is None:
        players = 4  # two teams of two, as every team game is played
    chosen = chosen_rules(variant, players, option or ())
    if teams and not chosen.teams:
        raise i18n.Message("error.tournament_teams", game=chosen.name, players=chosen.players)
    names = bot_names(bots)
    for name in names:
        botlib.make(name)
    made = Tournament(
        chosen.name,
        players=chosen.players,
        options=dict(parse_option(o) for o in option or ()),
        format=kind,
        rounds=rounds,
        duration_s=minutes * 60 if minutes is not None else None,
        teams=teams,
        seed=seed,
    )
    if len(names) < max(2, made.sides):
        raise i18n.Message(
            "error.tournament_bots", low=max(2, made.sides), given=bots.strip() or "''"
        )
    for label, name in zip(arenas.entries(names), names, strict=True):
        # entered in the order given: with no ratings, that order seeds the field
        made.add(label, members=(label, label) if teams else (), bot=name)
    return made


def _play(made: Tournament, jobs: int, ray: str | None, records: Path | None, lang: str) -> None:
    errors = Console(stderr=True)
    if not errors.is_terminal:
        run(made, jobs=jobs, ray=ray, records=records)
        return
    from rich.progress import Progress

    with Progress(console=errors, transient=True) as bar:
        task = bar.add_task(t("arena.progress", lang), total=None)

        def heard(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        run(made, jobs=jobs, ray=ray, records=records, progress=heard)


def standings_json(made: Tournament) -> dict[str, Any]:
    """What ``--json`` prints: the tournament's terms and its standings, each row as the
    club's API gives it."""
    return {
        "game": made.game,
        "players": made.players,
        "options": made.options,
        "format": made.format,
        "teams": made.teams,
        "seed": made.seed,
        "rounds": made.round_number(),
        "games": sum(1 for p in made.pairings if not p.bye),
        "standings": [s.to_json() for s in made.standings()],
    }


def _show(made: Tournament, lang: str, as_json: bool) -> None:
    if as_json:
        print(json.dumps(standings_json(made), ensure_ascii=False))
        return
    show_standings(Console(highlight=False), made, lang)


def show_standings(console: Console, made: Tournament, lang: str) -> None:
    """The standings as a table: rank, entry, points, games, wins, the tie-breaks, and in a
    knock-out the round each went out in."""
    standings = made.standings()
    terms: dict[str, object] = {
        "format": t(FORMAT_NAMES[made.format], lang),
        "game": i18n.title(made.game, lang),
        "entries": len(made.entries),
        "games": sum(1 for p in made.pairings if not p.bye),
        "seed": made.seed,
    }
    if made.format == "arena":
        minutes = _number((made.duration_s or 0) / 60, lang)
        title = t("tournament.title_arena", lang, minutes=minutes, **terms)
    else:
        title = t("tournament.title", lang, rounds=made.round_number(), **terms)
    # as wide as its title, which would wrap to the table's width
    table = Table(title=title, title_justify="left", min_width=len(title))
    breaks = SHOWN[made.format]
    knockout = made.format == "knockout"
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column(t("tournament.entry", lang), no_wrap=True)
    for key in (N_("tournament.points"), N_("tournament.played"), N_("tournament.wins")):
        table.add_column(t(key, lang), justify="right")
    for key in breaks:
        table.add_column(t(TIEBREAKS[key], lang), justify="right")
    if knockout:
        table.add_column(t("tournament.out", lang), justify="right")
    for s in standings:
        cells = [
            str(s.rank),
            _name(s, lang),
            _number(s.points, lang),
            str(s.played),
            _number(s.wins, lang),
        ]
        cells += [_number(s.tiebreaks[key], lang) for key in breaks]
        if knockout:
            cells.append("—" if s.out is None else str(s.out))
        table.add_row(*cells)
    if not console.is_terminal:
        # a file or a pipe has no screen to fit: every name and tie-break whole
        unbounded = console.options.update_width(10_000)
        needed = Measurement.get(console, unbounded, table).maximum
        console.width = max(console.width, needed)
    console.print(table)


def _name(s: Standing, lang: str) -> str:
    """An entry as the table shows it: a bot by its level's name, a withdrawn one marked."""
    name = i18n.bot_name(s.entry.name, lang) if s.entry.bot is not None else s.entry.name
    return f"{name} ({t('tournament.withdrawn', lang)})" if s.entry.withdrawn else name


def _number(x: float, lang: str) -> str:
    """Points as a yard writes them: ``3``, ``2.5`` (``2,5`` in Russian), ``1.33``."""
    return str(format_decimal(x, format="0.##", locale="ru" if lang == "ru" else "en"))
