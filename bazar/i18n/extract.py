"""Babel's extractors for bazar's catalogue (``babel.cfg``, run by ``make messages``): the
keys the code says, and the texts the library declares in English where it declares them.

- :func:`python`: the first argument of ``t(...)``, ``h(...)``, ``line(...)``,
  ``Message(...)``, ``Usage(...)`` and ``N_(...)`` when it is a literal, and the club's
  refusals (``ServerError("code")``, its subclasses', ``passing_on("code")``,
  ``Refuse.by("code")``, ``refusal_code("code")``) as ``club.CODE`` (its English message)
  and ``web.error.CODE`` (what the page says of it);
- :func:`javascript` and :func:`html`: the literal keys of the web page's ``t(...)`` and
  ``N_(...)`` and of its frame's ``data-t``, as ``web.KEY``, and of its counted nouns
  ``tn(...)`` as ``web.KEY`` with a plural (every form of the noun);
- :func:`registries`: what the library declares in English (the errors' codes, the
  options' glossary, the variants' descriptions), each with its English as the translator's
  comment; the English catalogue leaves them empty: the English is the library's own. The
  values of a choice (``optval.OPTION.VALUE``) are ids, so both catalogues say them.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import IO, Any

#: what an extractor yields for Babel: line, function, message (or singular and plural), comments
Found = tuple[int, str | None, str | tuple[str, str], list[str]]

_KEYS = {"t", "h", "line", "Message", "Usage", "N_"}
#: what a translator reads at a refusal's message
_CLUB = "the club's English to a client without the code; the page says web.error.CODE"
_REFUSALS = {"ServerError", "AuthError", "TableError", "passing_on", "by", "refusal_code"}
# a literal first argument; a template with ${...} in it is no key
_JS_KEY = re.compile(r"(?<![\w.])(?P<call>t|tn|N_)\(\s*([\"'`])(?P<key>[^\"'`$]+)\2")
_HTML_KEY = re.compile(r'\bdata-t="(?P<key>[^"]+)"')


def python(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any],
    comment_tags: Sequence[str],
    options: Mapping[str, Any],
) -> Iterator[Found]:
    """The keys of one Python module."""
    from bazar.i18n import COUNTED

    tree = ast.parse(fileobj.read())
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        first = node.args[0]
        if not isinstance(first, ast.Constant) or not isinstance(first.value, str):
            continue
        key = first.value
        if name in _KEYS and key in COUNTED:
            # as Babel's ngettext: a singular and a plural, to take every form of the noun
            yield node.lineno, "ngettext", (key, key), []
        elif name in _KEYS:
            yield node.lineno, None, key, []
        elif name in _REFUSALS:
            yield node.lineno, None, f"club.{key}", [_CLUB]
            yield node.lineno, None, f"web.error.{key}", []


def javascript(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any],
    comment_tags: Sequence[str],
    options: Mapping[str, Any],
) -> Iterator[Found]:
    """The keys of one module of the web page: ``t("lobby")``, ``N_("open")``."""
    return _web_keys(fileobj, _JS_KEY)


def html(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any],
    comment_tags: Sequence[str],
    options: Mapping[str, Any],
) -> Iterator[Found]:
    """The keys of the page's frame: ``<a data-t="lobby">``."""
    return _web_keys(fileobj, _HTML_KEY)


def _web_keys(fileobj: IO[bytes], pattern: re.Pattern[str]) -> Iterator[Found]:
    """The page's keys ``pattern`` finds, each with its line, as ``web.KEY`` (a counted
    noun's, ``tn``, as a singular and a plural, as Babel's ngettext)."""
    text = fileobj.read().decode("utf-8")
    for found in pattern.finditer(text):
        line, key = text.count("\n", 0, found.start()) + 1, f"web.{found['key']}"
        if found.groupdict().get("call") == "tn":
            yield line, "ngettext", (key, key), []
        else:
            yield line, None, key, []


def registries(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any],
    comment_tags: Sequence[str],
    options: Mapping[str, Any],
) -> Iterator[Found]:
    """What the registries hold in English (mapped to ``bazar/__init__.py``, which fills
    them)."""
    import bazar  # noqa: F401  (fills the registries)
    from bazar.core.errors import MESSAGES
    from bazar.core.rules import VARIANTS, declared, variant

    for code, english in MESSAGES.items():
        yield 0, None, f"error.{code}", [english]
    for name, option in declared().items():
        yield 0, None, f"option.{name}", [option.doc]
        if option.kind == "enum":
            # a choice is said in words on the rules pages (:func:`bazar.i18n.guide.value_text`)
            for value in option.values:
                yield 0, None, f"optval.{name}.{value}", [option.doc]
    for name, text in VARIANTS.items():
        yield 0, None, f"variant.{name}", [text]
    for name in VARIANTS:
        yield 0, None, f"title.{name}", [variant(name).title]
