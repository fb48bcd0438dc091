"""What bazar says to people, in English and Russian: one gettext catalogue per language
(``locale/LANG/LC_MESSAGES/bazar.po``, compiled to ``.mo``) serves the command line, the
club's refusals, the web page and the library's errors.

The catalogue's ids are keys (``round.out``), not English sentences, so rewording the English
never loses its Russian; Russian plurals come from the catalogue's ``Plural-Forms``:

>>> t("round.out", "ru", name="Оля")
'Оля — все кости выложены'
>>> t("tiles", "ru", n=3), t("tiles", "ru", n=5), t("tiles", "en", n=1)
('3 кости', '5 костей', '1 tile')
>>> default_lang("classic", environ={}), default_lang("block", environ={})
('ru', 'en')
>>> default_lang("block", environ={"LANG": "ru_RU.UTF-8"})
'ru'

The library speaks English; :func:`error` says a library error in the user's language by its
code and parameters (``error.CODE`` in the catalogue), and a :class:`Message` raised by the
command line from its catalogue key:

>>> error(Message("error.option_syntax", text="x"), "ru")
"Неверное значение: опция пишется как ИМЯ=ЗНАЧЕНИЕ, а не 'x'"
>>> import bazar
>>> try:
...     bazar.rules("kozle")
... except bazar.UnknownVariant as exc:
...     error(exc, "ru")[:55]
"Неизвестная игра: игры 'kozle' нет (может быть, kozel?)"

A message with no Russian rendering is shown whole in English, never half in each:

>>> error(ValueError("the moon is not a domino"), "ru")
'Bad value: the moon is not a domino'
"""

from __future__ import annotations

import functools
import gettext
import os
import string
from collections.abc import Mapping
from pathlib import Path

from babel.numbers import format_decimal

from bazar.core.errors import MESSAGES, code_of

__all__ = [
    "COUNTED",
    "LANGS",
    "LOCALE",
    "N_",
    "Message",
    "bot_name",
    "decimal",
    "default_lang",
    "description",
    "env_lang",
    "error",
    "level_name",
    "line",
    "number",
    "option_doc",
    "say",
    "t",
    "title",
    "web",
]

LANGS = ("ru", "en")

#: where the catalogues are: ``LOCALE / lang / "LC_MESSAGES" / "bazar.mo"``
LOCALE = Path(__file__).parent / "locale"


def N_(key: str) -> str:
    """``key``, marked for extraction (``make messages``) where the code says it only as a
    value: Babel finds ``N_("play.end_left")``, not ``t(_END_KEYS[end], lang)``."""
    return key


#: the counted nouns: ``t("tiles", lang, n=5)`` takes the catalogue's plural form for ``n``
COUNTED = frozenset({"tiles", "players", "games", "moves", "rounds"})

#: the catalogue key that names each kind of error: an error is of the first of its classes
#: found here
KINDS = {
    "UnknownVariant": N_("error.UnknownVariant"),
    "UnknownOption": N_("error.UnknownOption"),
    "IllegalMove": N_("error.IllegalMove"),
    "BadRecord": N_("error.BadRecord"),
    "MatchOver": N_("error.MatchOver"),
    "UnknownBot": N_("error.UnknownBot"),
    "ValueError": N_("error.ValueError"),
}

#: the bots' levels that have a name of their own in Russian
_BOT_NAMES = {"random": N_("bot.random"), "greedy": N_("bot.greedy")}


def env_lang(environ: Mapping[str, str] | None = None) -> str | None:
    """``ru`` when the locale is Russian (``ru*``), else None: API.md lets only a Russian
    locale override a game's own language."""
    env = os.environ if environ is None else environ
    for key in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(key, "").strip().lower()
        if not value:
            continue
        return "ru" if value.startswith("ru") else None
    return None


def default_lang(variant: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The locale's language, else Russian for the Russian games and English for the rest."""
    lang = env_lang(environ)
    if lang is not None:
        return lang
    return "ru" if variant is not None and _is_russian(variant) else "en"


def _is_russian(name: str) -> bool:
    """Whether a game comes from the Russian yards (``Traits.russian``)."""
    from bazar.core.rules import variant

    try:
        return variant(name).traits.russian
    except ValueError:
        return False


@functools.cache
def _catalogue(lang: str) -> gettext.GNUTranslations:
    """The compiled catalogue of ``lang`` (``ru`` or ``en``)."""
    return gettext.translation("bazar", LOCALE, languages=[lang])


def _lookup(key: str, lang: str, n: int = 1) -> str | None:
    """The catalogue's text for ``key`` (a counted noun's form for ``n``), or None where it has
    none."""
    book = _catalogue(_locale(lang))
    text = book.ngettext(key, key, n) if key in COUNTED else book.gettext(key)
    return None if text == key else text


def t(key: str, lang: str, **kw: object) -> str:
    """The message ``key`` in ``lang`` (``ru`` or ``en``), formatted with ``kw``.

    A counted noun is a key of its own, ``t("tiles", lang, n=5)``: its number is ``shown`` in
    the language's way (``12 345``) unless ``shown`` says otherwise.
    """
    if key in COUNTED:
        n = int(str(kw["n"]))
        kw.setdefault("shown", number(n, lang))
        text = _lookup(key, lang, n)
    else:
        text = _lookup(key, lang)
    if text is None:
        raise KeyError(key)
    return text.format(**kw)


def number(n: float, lang: str) -> str:
    """A whole number with its thousands apart: ``12,345`` (en), ``12 345`` (ru)."""
    return format_decimal(round(n), locale=_locale(lang))


def decimal(x: float, lang: str) -> str:
    """A number to two places: ``1.50`` (en), ``1,50`` (ru)."""
    return format_decimal(x, format="0.00", locale=_locale(lang))


def _locale(lang: str) -> str:
    return "ru" if lang == "ru" else "en"


def description(name: str, lang: str) -> str:
    """What a variant is, in ``lang``: its own English, or the catalogue's ``variant.NAME``."""
    from bazar.core.rules import variant

    english = variant(name).description
    return (_lookup(f"variant.{name}", lang) if lang == "ru" else None) or english


def title(name: str, lang: str) -> str:
    """A variant's name as players say it, in ``lang``: its own English
    (``Variant.title``), or the catalogue's ``title.NAME``."""
    from bazar.core.rules import variant

    english = variant(name).title or name
    return (_lookup(f"title.{name}", lang) if lang == "ru" else None) or english


#: the bots' levels as a player picks them, weakest first, in English (Russian: the
#: catalogue's ``level.NAME``)
LEVELS = {
    "random": "Novice",
    "greedy": "Easy",
    "heuristic": "Medium",
    "pimc": "Strong",
    "ismcts": "Expert",
}
_LEVEL_KEYS = [
    N_("level.random"),
    N_("level.greedy"),
    N_("level.heuristic"),
    N_("level.pimc"),
    N_("level.ismcts"),
]


def level_name(level: str, lang: str) -> str:
    """A bot level as the lobby offers it ("Easy", «Лёгкий»); the level itself where it has
    no name."""
    english = LEVELS.get(level, level)
    return (_lookup(f"level.{level}", lang) if lang == "ru" else None) or english


def option_doc(name: str, lang: str) -> str:
    """What an option means: the glossary of :mod:`bazar.core.rules`, or the catalogue's
    ``option.NAME``."""
    from bazar.core.rules import declared

    said = _lookup(f"option.{name}", lang) if lang == "ru" else None
    option = declared().get(name)
    return said or (option.doc if option is not None else "")


def bot_name(level: str, lang: str) -> str:
    """A bot's level as the table calls it."""
    if lang != "ru":
        return level
    base, sep, rest = level.partition("#")
    key = _BOT_NAMES.get(base)
    return ((key and _lookup(key, lang)) or base) + sep + rest


class _Said(string.Formatter):
    """``str.format`` whose fields holding an error say that error in the same language."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def format_field(self, value: object, format_spec: str) -> str:
        if isinstance(value, BaseException):
            said = say(value, self.lang)
            if said is None:
                raise _Untranslated
            return said
        return str(super().format_field(value, format_spec))


class _Untranslated(Exception):
    """A part of a message has no text in the language asked for."""


def say(exc: BaseException, lang: str) -> str | None:
    """A library (or command line) error's message in ``lang``, from its code and parameters;
    None where the catalogue has no text for it or for any error it holds."""
    if isinstance(exc, Message):
        return exc.say(lang)
    if lang != "ru":
        return str(exc).replace("\n", " ")
    coded = code_of(exc)
    template = _lookup(f"error.{coded[0]}", lang) if coded and coded[0] in MESSAGES else None
    if coded is None or template is None:
        return None
    try:
        return _Said(lang).format(template, **coded[1])
    except _Untranslated:
        return None


class Message(ValueError):
    """An error the command line raises from its catalogue: ``str()`` is the English (as
    the library speaks), :meth:`say` the same in either language.

    >>> Message("error.option_syntax", text="x").say("en")
    "an option is written NAME=VALUE, not 'x'"
    """

    def __init__(self, key: str, **fields: object) -> None:
        self.key = key
        self.fields = fields
        super().__init__(t(key, "en", **fields))

    def say(self, lang: str) -> str:
        return t(self.key, lang, **self.fields)


def line(kind: str, said: str, lang: str) -> str:
    """``kind`` (a catalogue key) and what was wrong, already in ``lang``."""
    prefix = t(kind, lang)
    if said.lower().startswith(prefix.lower()):
        # "Unknown variant: unknown variant 'kozle' ..." says it twice
        return said[0].upper() + said[1:]
    return f"{prefix}: {said}"


def error(exc: BaseException, lang: str) -> str:
    """One line for the user: the kind of error, then what was wrong, in ``lang``; where the
    catalogue cannot say it in ``lang``, the whole line stays English."""
    kinds = (KINDS[c.__name__] for c in type(exc).__mro__ if c.__name__ in KINDS)
    kind = next(kinds, KINDS["ValueError"])
    said = say(exc, lang)
    if said is None:
        lang, said = "en", str(exc).replace("\n", " ")
    return line(kind, said, lang)


#: the prefixes of the catalogue keys the web page says (``web.`` is dropped in its texts)
_WEB = ("web.", "poker.rank.", "grade.")

#: enough whole numbers to meet every plural category of both languages (Russian's ``one``
#: first at 1, ``few`` at 2, ``many`` at 0; CLDR's ``other`` is for fractions there)
_PLURAL_SAMPLES = range(112)


@functools.cache
def web(lang: str) -> dict[str, str]:
    """The web page's texts in ``lang``, by key: its own (``web.lobby`` as ``lobby``, the
    club's refusals ``web.error.CODE`` as ``error.CODE``) and poker's ranks
    (``poker.rank.NAME``).

    A counted noun of the page (``tn("nTiles", n)`` in its code, ``web.nTiles`` with its
    plural forms in the catalogue) comes once per plural category of the language, the one
    the browser's ``Intl.PluralRules`` names: gettext numbers its forms by its own formula,
    the browser knows only the categories.

    >>> ru = web("ru")
    >>> ru["nTiles#one"], ru["nTiles#few"], ru["nTiles#many"]
    ('{shown} кость', '{shown} кости', '{shown} костей')
    >>> sorted(k for k in web("en") if k.startswith("nTiles#"))
    ['nTiles#one', 'nTiles#other']
    """
    from babel import Locale
    from babel.messages.mofile import read_mo

    path = LOCALE / _locale(lang) / "LC_MESSAGES" / "bazar.mo"
    with path.open("rb") as mo:
        book = read_mo(mo)
    from bazar.core.rules import VARIANTS

    said = {
        (m.id.removeprefix("web.")): str(m.string)
        for m in book
        if isinstance(m.id, str) and m.id.startswith(_WEB) and m.string
    }
    category = Locale.parse(_locale(lang)).plural_form
    gettext = _catalogue(_locale(lang))
    for m in book:
        if isinstance(m.id, (list, tuple)) and m.id[0].startswith("web."):
            singular, plural = m.id
            for n in _PLURAL_SAMPLES:
                text = gettext.ngettext(singular, plural, n)
                if text != singular:
                    said.setdefault(f"{singular.removeprefix('web.')}#{category(n)}", text)
    # the names of the games and of the bots' levels, whose English is the code's
    said |= {f"title.{name}": title(name, lang) for name in VARIANTS}
    said |= {f"level.{level}": level_name(level, lang) for level in LEVELS}
    return said
