"""``bazar rules``: the variants, or one variant's rules and options."""

from __future__ import annotations

import json
from contextlib import suppress
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table
from rich.text import Text

from bazar import i18n
from bazar.core.rules import VARIANTS, Rules
from bazar.core.rules import rules as make_rules
from bazar.core.rules import variant as find_variant
from bazar.i18n import N_, guide, t

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
        russian = ", ".join(name for name in VARIANTS if find_variant(name).traits.russian)
        console.print(Text(t("rules.russian", lang, names=russian), style="dim"))


def _show_rules(console: Console, chosen: Rules, lang: str, given: dict[str, Any]) -> None:
    game = chosen.variant
    low, high = game.players
    description = i18n.description(game.name, lang)
    console.print(Markdown(guide.how_to_play(game.name, lang)))
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
    table = Table(title=t("rules.for_players", lang, players=chosen.players), title_justify="left")
    for key in (N_("rules.option"), N_("rules.value"), N_("rules.meaning")):
        table.add_column(t(key, lang))
    for row in guide.option_rows(chosen, lang, given):
        meaning = row.meaning
        if isinstance(row.value, str):
            meaning += f": {row.said}"
        if row.by_players:
            meaning += f" ({t('rules.by_players', lang, values=row.by_players)})"
        table.add_row(row.name, Text(_json_value(row.value)), Text(meaning))
    console.print(table)
    defaults = make_rules(game.name).options()
    example = next(
        (f"{key}={defaults[key] + 50}" for key in ("target", "limit") if defaults.get(key)),
        "players=2",
    )
    console.print(Text(t("rules.hint", lang, name=game.name, example=example), style="dim"))


def summary(name: str, lang: str) -> str:
    """The how-to-play text of ``name`` (Markdown, as ``bazar rules NAME`` prints it) cut to
    what a player needs mid-game: each section's first paragraph, with the list it opens,
    and without the title's introduction and the closing words at the table.

    >>> text = summary("kolbasa", "en")
    >>> text.splitlines()[0], "## A turn" in text, "Words at the table" in text
    ('# Kolbasa', True, False)
    """
    title, *sections = guide.how_to_play(name, lang).split("\n## ")
    out = [title.splitlines()[0]]
    for section in sections[:-1]:
        heading, _, body = section.partition("\n")
        blocks = [b.strip() for b in body.split("\n\n") if b.strip()]
        kept = blocks[:1]
        if kept and kept[0].endswith(":") and len(blocks) > 1:
            kept.append(blocks[1])
        out += [f"## {heading}", *kept]
    return "\n\n".join(out)
