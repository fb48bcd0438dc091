"""``bazar rules``: the variants, or one variant's rules and options."""

from __future__ import annotations

import json
from contextlib import suppress
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from bazar import i18n
from bazar.core.rules import VARIANTS, Rules
from bazar.core.rules import rules as make_rules
from bazar.core.rules import variant as find_variant
from bazar.i18n import N_, t

from .app import Lang, Options, Players, bad_input, guess_lang, h, lang_option, parse_option


def rules_command(
    variant: Annotated[str | None, typer.Argument(help=h("help.variant"))] = None,
    players: Players = None,
    option: Options = None,
    lang: Lang = None,
) -> None:
    lang = lang_option(lang)
    console = Console(highlight=False)
    if variant is None:
        language = guess_lang(lang)
        _list_variants(console, language)
        return
    language = guess_lang(lang, variant)
    with bad_input(language):
        game = find_variant(variant)
        language = lang or i18n.default_lang(game.name)
        given = dict(parse_option(o) for o in option or ())
        chosen = make_rules(game.name, players=players, **given)
    _show_rules(console, chosen, language, given)


def _json_value(value: Any) -> str:
    """An option's value as ``-o`` takes it: words bare, the rest as JSON."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _list_variants(console: Console, lang: str) -> None:
    table = Table(title=t("rules.title", lang), title_justify="left", expand=False)
    for key in (
        N_("rules.variant"),
        N_("rules.players"),
        N_("rules.description"),
        N_("rules.aliases"),
    ):
        table.add_column(t(key, lang))
    for name in VARIANTS:
        game = find_variant(name)
        low, high = game.players
        table.add_row(
            name,
            f"{low}–{high}",
            Text(i18n.description(name, lang)),
            Text(", ".join(game.aliases)),
        )
    console.print(table)
    if lang == "en":
        # `bazar rules kozel` will answer in Russian (API.md): say so here, in English
        russian = ", ".join(name for name in VARIANTS if find_variant(name).russian)
        console.print(Text(t("rules.russian", lang, names=russian), style="dim"))


def _show_rules(console: Console, chosen: Rules, lang: str, given: dict[str, Any]) -> None:
    game = chosen.variant
    low, high = game.players
    description = i18n.description(game.name, lang)
    console.print(Text(f"{game.name} — {description}", style="bold"))
    lines = [
        f"{t('rules.spec', lang)}: {game.spec}",
        t("rules.players_line", lang, low=low, high=high, default=game.default_players),
    ]
    if game.aliases:
        lines.append(f"{t('rules.aliases', lang)}: {', '.join(game.aliases)}")
    with suppress(ValueError):  # only GameColony's games have a listing
        lines.append(t("rules.listing", lang, listing=chosen.notation()))
    for line in lines:
        console.print(Text(line))
    by_players = _options_by_players(chosen, given)
    table = Table(title=t("rules.for_players", lang, players=chosen.players), title_justify="left")
    for key in (N_("rules.option"), N_("rules.value"), N_("rules.meaning")):
        table.add_column(t(key, lang))
    for name, value in chosen.options().items():
        meaning = i18n.option_doc(name, lang)
        if name in by_players:
            meaning += f" ({t('rules.by_players', lang, values=by_players[name])})"
        table.add_row(name, Text(_json_value(value)), Text(meaning))
    console.print(table)
    defaults = make_rules(game.name).options()
    example = next(
        (f"{key}={defaults[key] + 50}" for key in ("target", "limit") if defaults.get(key)),
        "players=2",
    )
    console.print(Text(t("rules.hint", lang, name=game.name, example=example), style="dim"))


def _options_by_players(chosen: Rules, given: dict[str, Any]) -> dict[str, str]:
    """The options (not ``given``) whose default changes with the player count, as
    ``2→7, 3→5, 4→5``."""
    low, high = chosen.variant.players
    resolved: dict[int, dict[str, Any]] = {}
    for n in range(low, high + 1):
        try:
            resolved[n] = make_rules(chosen.name, players=n, **given).options()
        except ValueError:
            continue
    out = {}
    for name in chosen.options():
        if name in ("players", *given):
            continue
        values = [(n, opts.get(name)) for n, opts in resolved.items()]
        if len({_json_value(v) for _, v in values}) > 1:
            out[name] = ", ".join(f"{n}→{_json_value(v)}" for n, v in values)
    return out
