"""How to play each game, in English and Russian: a text per family of rules, written for
players (``rules/LANG/SPEC.md``, one per spec file the variants cite), and a variant's
options said in words, as the terminal (``bazar rules``) and the web's rules pages show them.

The text of a variant is its spec's, so every Kozel preset reads ``kozel.md``:

>>> how_to_play("kozel-team", "en").splitlines()[0]
'# Kozel'
>>> family("kozel-team") == family("kozel") != family("sea-kozel")
True

An option's value is said in words, never as its id:

>>> value_text("first_lead", "kozel", "en")
'1-1 first, then 2-2 … 6-6, then 0-0'
>>> value_text("teams", False, "ru"), value_text("lead_bonus", (50, 25), "en")
('нет', '50 / 25')
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, NamedTuple

from . import N_, _lookup, number, option_doc, t

__all__ = ["OptionRow", "families", "family", "how_to_play", "option_rows", "value_text"]

#: where the texts are: ``TEXTS / lang / f"{family}.md"``
TEXTS = Path(__file__).parent / "rules"


def family(name: str) -> str:
    """The family of rules ``name`` belongs to, as its spec file is named (``kozel``,
    ``classic-draw-block``): the variants that share a spec share a text."""
    from bazar.core.rules import variant

    return variant(name).spec.split()[0].removesuffix(".md")


def families() -> dict[str, list[str]]:
    """Every family, in the registry's order, with its variants in theirs."""
    from bazar.core.rules import VARIANTS

    out: dict[str, list[str]] = {}
    for name in VARIANTS:
        out.setdefault(family(name), []).append(name)
    return out


@functools.cache
def how_to_play(name: str, lang: str) -> str:
    """The how-to-play text (Markdown) of the family of ``name``, in ``lang``."""
    return (TEXTS / ("ru" if lang == "ru" else "en") / f"{family(name)}.md").read_text("utf-8")


def value_text(option: str, value: Any, lang: str) -> str:
    """An option's value in words: yes or no, a number, a pair, or what a choice means
    (``optval.OPTION.VALUE`` in the catalogue)."""
    if isinstance(value, bool):
        return t(N_("rules.yes") if value else N_("rules.no"), lang)
    if value is None:
        return t("rules.none", lang)
    if isinstance(value, int):
        return number(value, lang)
    if isinstance(value, (tuple, list)):
        return " / ".join(value_text(option, v, lang) for v in value)
    return _lookup(f"optval.{option}.{value}", lang) or str(value)


class OptionRow(NamedTuple):
    """One option of a variant as a player reads it."""

    name: str  #: the option's id, as ``-o NAME=VALUE`` takes it
    meaning: str  #: what it decides, in words
    value: Any  #: its value in the rules shown
    said: str  #: that value in words
    by_players: str  #: how its default changes with the number of players ("" if it does not)


def option_rows(rules: Any, lang: str, given: dict[str, Any] | None = None) -> list[OptionRow]:
    """The options of ``rules`` (a :class:`~bazar.core.rules.Rules`), each with its meaning
    and value in words, and, where the default depends on the player count and ``given``
    did not fix it, its value for each count (``2→7, 3→5, 4→5``)."""
    by_players = _by_players(rules, given or {}, lang)
    return [
        OptionRow(
            name,
            option_doc(name, lang),
            value,
            value_text(name, value, lang),
            by_players.get(name, ""),
        )
        for name, value in rules.options().items()
    ]


def _by_players(rules: Any, given: dict[str, Any], lang: str) -> dict[str, str]:
    from bazar.core.rules import rules as make_rules

    low, high = rules.variant.players
    resolved: dict[int, dict[str, Any]] = {}
    for n in range(low, high + 1):
        try:
            resolved[n] = make_rules(rules.name, players=n, **given).options()
        except ValueError:
            continue
    out = {}
    for name in rules.options():
        if name in ("players", *given):
            continue
        values = [(n, opts.get(name)) for n, opts in resolved.items()]
        if len({repr(v) for _, v in values}) > 1:
            out[name] = ", ".join(f"{n}→{value_text(name, v, lang)}" for n, v in values)
    return out
