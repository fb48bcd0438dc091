"""Players' names: the form a name must have, the keys under which a registered name is
unique, and the names kept for bots.

Two names clash when they read alike: in another case ("Alice", "ALICE"), or in letters of
another script that look the same (a Cyrillic "а" in "аlice"). What looks alike is Unicode's
confusable *skeleton* (UTS #39 §4, with the data of ``confusables.txt``, kept beside this
module): decompose (NFD), drop what is invisible, replace each character by the prototype it
is confused with, decompose again.

>>> skeleton("аlice") == skeleton("alice")
True
>>> sorted(keys("AIice")), keys("ALICE") & keys("аlice")
(['aiice', 'alice'], {'alice'})
>>> is_bot_name("Greedy Bot 2"), is_bot_name("greedy"), is_bot_name("Greedy Bob")
(True, True, False)
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable
from pathlib import Path

from bazar import bots

__all__ = ["NAME", "is_bot_name", "keys", "normal", "skeleton"]

#: a name as the club takes it: 1 to 24 letters, digits, spaces, dots or dashes
NAME = re.compile(r"^[\w .\-]{1,24}$")
CONFUSABLES = Path(__file__).with_name("confusables.txt")

#: Default_Ignorable_Code_Point (DerivedCoreProperties.txt): invisible, so dropped from a
#: skeleton; the Hangul fillers among them are letters that a name could otherwise end with
IGNORABLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3"
    "\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
)


def normal(name: str) -> str:
    """``name`` as it is kept: composed (NFC), its spaces trimmed and single.

    >>> normal("  Olya   Petrova ")
    'Olya Petrova'
    """
    return " ".join(unicodedata.normalize("NFC", name).split())


@functools.cache
def _prototypes() -> dict[str, str]:
    table = {}
    for line in CONFUSABLES.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        source, target = line.split(";")
        table[chr(int(source, 16))] = "".join(chr(int(c, 16)) for c in target.split())
    return table


def skeleton(text: str) -> str:
    """The UTS #39 skeleton of ``text``: two strings with the same one are confusable."""
    prototypes = _prototypes()
    visible = IGNORABLE.sub("", unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", "".join(prototypes.get(c, c) for c in visible))


def _folded(text: str) -> str:
    return skeleton(text.casefold())


def _skeleton_folded(text: str) -> str:
    return skeleton(text).casefold()


# a capital I is confused with l, its small i with nothing; a Cyrillic capital К with K, its
# small к with the kra ĸ: neither order of folding the case and taking the skeleton sees
# both, so a name has a key for each order
FOLDS: tuple[Callable[[str], str], ...] = (_folded, _skeleton_folded)


def keys(name: str) -> set[str]:
    """The keys under which ``name`` is unique: a registered name holds all of them, and no
    other name may share any."""
    text = normal(name)
    return {fold(text) for fold in FOLDS}


@functools.cache
def _bot_patterns() -> tuple[re.Pattern[str], ...]:
    patterns = []
    for fold in FOLDS:
        levels = "|".join(re.escape(fold(level)) for level in bots.names())
        digits = "".join(re.escape(fold(d)) for d in "0123456789")
        word = re.escape(fold("bot"))
        patterns.append(re.compile(rf"(?:{levels})(?: {word}(?: [{digits}]+)?)?"))
    return tuple(patterns)


def is_bot_name(name: str) -> bool:
    """Whether ``name`` reads as a bot's (a bot level, or a bot seat's "greedy bot 2"), in
    any case or look-alike letters: those names are the bots'."""
    text = normal(name)
    return any(
        pattern.fullmatch(fold(text)) is not None
        for fold, pattern in zip(FOLDS, _bot_patterns(), strict=True)
    )
