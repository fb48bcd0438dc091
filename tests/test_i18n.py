"""One gettext catalogue per language serves the command line, the club, the web page and the
library's errors (bazar.i18n): every key in both languages, errors said by their code, the
compiled catalogues up to date with their sources."""

from __future__ import annotations

import gettext
import pickle
import re
import string
from pathlib import Path

import pytest

babel = pytest.importorskip("babel")
from babel.messages.extract import extract_from_dir  # noqa: E402
from babel.messages.frontend import parse_mapping_cfg  # noqa: E402
from babel.messages.pofile import read_po  # noqa: E402

import bazar  # noqa: E402
from bazar import bots, i18n  # noqa: E402
from bazar.core import errors, record  # noqa: E402
from bazar.core.rules import VARIANTS, declared, variant  # noqa: E402
from bazar.core.tiles import Tile  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CATALOGUES = {lang: i18n.LOCALE / lang / "LC_MESSAGES" / "bazar.po" for lang in ("en", "ru")}


def catalogue(lang: str) -> dict[str, str | tuple[str, ...]]:
    """The entries of a language's .po: key -> text (a tuple of forms for a counted noun)."""
    with CATALOGUES[lang].open("rb") as po:
        book = read_po(po, locale=lang)
    out: dict[str, str | tuple[str, ...]] = {}
    for message in book:
        if not message.id:
            continue
        key = message.id if isinstance(message.id, str) else message.id[0]
        out[key] = message.string if isinstance(message.string, str) else tuple(message.string)
    return out


EN, RU = catalogue("en"), catalogue("ru")


def fields(text: str | tuple[str, ...]) -> set[str]:
    texts = (text,) if isinstance(text, str) else text
    return {f for t in texts for _, f, _, _ in string.Formatter().parse(t) if f}


def declared_in_english(key: str) -> str | None:
    """The English the library declares for ``key`` (an error code, an option, a variant)."""
    kind, _, name = key.partition(".")
    if kind == "error" and name in errors.MESSAGES:
        return errors.MESSAGES[name]
    if kind == "option":
        return declared()[name].doc
    if kind == "variant":
        return VARIANTS[name]
    if kind == "title":
        return variant(name).title
    if kind == "level":
        return i18n.LEVELS[name]
    if kind == "bot" and name:
        return name
    return None


# -- the catalogues ----------------------------------------------------------------------------


def test_both_languages_have_the_same_keys() -> None:
    assert sorted(EN) == sorted(RU)


def test_every_key_has_a_russian_text_and_an_english_one_where_the_library_has_none() -> None:
    """The club's messages (``club.CODE``) are its English to a client without the code: the
    page says them from ``web.error.CODE``, in either language."""
    for key in RU:
        assert RU[key] or key.startswith("club."), key
        assert not RU[key] or not key.startswith("club."), key
        english = EN[key] or declared_in_english(key)
        assert english, key
        assert not EN[key] or declared_in_english(key) is None, key


def test_every_message_has_the_same_fields_in_both_languages() -> None:
    for key, russian in RU.items():
        english = EN[key] or declared_in_english(key) or ""
        if key.startswith("club."):
            continue
        if key.startswith("web.error."):
            # the page says no more than the server sends; a library error passed on comes
            # with its English as reason and its Russian as reason_ru
            sent = fields(EN["club." + key.removeprefix("web.error.")])
            sent |= {"reason_ru"} if "reason" in sent else set()
            assert fields(english) <= sent and fields(russian) <= sent, key
            continue
        assert fields(english) == fields(russian), key


def test_every_library_error_code_has_a_russian_entry() -> None:
    missing = [code for code in errors.MESSAGES if not RU.get(f"error.{code}")]
    assert not missing


def test_every_option_and_every_variant_is_explained_in_russian() -> None:
    for name in declared():
        said = i18n.option_doc(name, "ru")
        assert said != declared()[name].doc and any("а" <= c <= "я" for c in said), name
    for name, english in VARIANTS.items():
        said = i18n.description(name, "ru")
        assert said != english and any("а" <= c <= "я" for c in said), name
        assert i18n.description(name, "en") == english


def test_the_compiled_catalogues_are_those_of_their_sources() -> None:
    """The .mo the package reads holds what its .po says (run ``make messages`` after editing
    a .po)."""
    for lang, po in CATALOGUES.items():
        with po.parent.joinpath("bazar.mo").open("rb") as mo:
            compiled = gettext.GNUTranslations(mo)
        for key, text in catalogue(lang).items():
            if isinstance(text, tuple):
                forms = tuple(compiled.ngettext(key, key, n) for n in (1, 2, 5)[: len(text)])
                assert forms == (text if lang == "ru" else (text[0], text[1])), key
            elif text:
                assert compiled.gettext(key) == text, key
            else:
                assert compiled.gettext(key) == key, key  # untranslated: not compiled in


def test_the_catalogues_hold_every_key_the_code_says_and_no_other() -> None:
    """What ``make messages`` extracts (babel.cfg) is what the catalogues hold: a key the code
    says is never missing, and ``pybabel update`` drops nothing still in use."""
    with (ROOT / "babel.cfg").open() as cfg:
        methods, options = parse_mapping_cfg(cfg)
    found = {
        message if isinstance(message, str) else message[0]
        for _, _, message, _, _ in extract_from_dir(ROOT, methods, options_map=options)
    }
    assert sorted(found - set(RU)) == []
    assert sorted(set(RU) - found) == []


# -- what the catalogue says -------------------------------------------------------------------


def test_russian_counts_take_the_form_of_the_catalogues_plural_rule() -> None:
    said = [i18n.t("games", "ru", n=n) for n in (1, 3, 11, 21, 104, 111, 112, 1001)]
    assert said == [
        "1 партия",
        "3 партии",
        "11 партий",
        "21 партия",
        "104 партии",
        "111 партий",
        "112 партий",
        "1\xa0001 партия",
    ]
    assert [i18n.t("moves", "en", n=n) for n in (0, 1, 2)] == ["0 moves", "1 move", "2 moves"]


def test_numbers_are_written_the_languages_way() -> None:
    assert (i18n.number(12345.4, "en"), i18n.number(12345.4, "ru")) == ("12,345", "12\xa0345")
    assert (i18n.decimal(1.5, "en"), i18n.decimal(1.5, "ru")) == ("1.50", "1,50")


def test_an_unknown_key_is_an_error_not_a_text() -> None:
    with pytest.raises(KeyError):
        i18n.t("play.no_such_key", "en")
    with pytest.raises(KeyError):
        i18n.t("error.no_tile", "en", a=1, b=2, high=6)  # the library's own English


def test_the_web_gets_its_texts_the_clubs_refusals_and_poker_ranks_from_the_catalogue() -> None:
    ru, en = i18n.web("ru"), i18n.web("en")
    assert (ru["lobby"], en["lobby"]) == ("Лобби", "Lobby")
    assert ru["error.name_form"] == "Имя — от 1 до 24 букв, цифр, пробелов, точек или дефисов"
    assert en["error.not_your_turn"] == "Not your turn"
    assert en["poker.rank.Pair"] == "Pair" and ru["poker.rank.Pair"] == "пара"
    # the same keys, a counted noun's with each language's own plural categories
    assert {k.partition("#")[0] for k in ru} == {k.partition("#")[0] for k in en}
    assert not any(key.startswith(("play.", "club.", "web.")) for key in ru)


def test_the_web_gets_a_counted_noun_in_every_plural_category_of_its_language() -> None:
    """The page picks the form by the browser's Intl.PluralRules category, so each category
    the language has must carry the form gettext gives to its numbers."""
    ru, en = i18n.web("ru"), i18n.web("en")
    assert {k for k in ru if k.startswith("nTiles#")} == {"nTiles#one", "nTiles#few", "nTiles#many"}
    assert (ru["nTiles#one"], ru["nTiles#few"], ru["nTiles#many"]) == (
        "{shown} кость",
        "{shown} кости",
        "{shown} костей",
    )
    assert (en["nTiles#one"], en["nTiles#other"]) == ("{shown} tile", "{shown} tiles")


def test_every_refusal_of_the_club_has_a_text_on_the_page() -> None:
    codes = {k.removeprefix("club.") for k in EN if k.startswith("club.")}
    assert codes and codes == {k.removeprefix("error.") for k in i18n.web("en") if "error." in k}


# -- errors, by their code ---------------------------------------------------------------------


def raised(call: object, *args: object, **kw: object) -> BaseException:
    with pytest.raises(ValueError) as caught:
        call(*args, **kw)  # type: ignore[operator]
    return caught.value


def test_a_library_error_is_said_in_russian_by_its_code() -> None:
    error = raised(Tile.of, 19, 1)
    assert errors.code_of(error) == ("no_tile", {"a": 19, "b": 1, "high": 18})
    assert i18n.error(error, "ru") == "Неверное значение: кости 19-1 нет: очки от 0 до 18"
    assert i18n.error(error, "en") == "Bad value: no tile 19-1: pips run from 0 to 18"


def test_rewording_the_english_of_a_code_keeps_its_russian(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(errors.MESSAGES, "no_tile", "there is no {a}-{b} (pips go up to {high})")
    error = raised(Tile.of, 19, 1)
    assert str(error) == "there is no 19-1 (pips go up to 18)"
    assert i18n.error(error, "ru") == "Неверное значение: кости 19-1 нет: очки от 0 до 18"


def test_an_error_held_in_another_is_said_in_the_same_language() -> None:
    text = record.dumps(bazar.Match(bazar.rules("block"), seed=1)).replace(
        '"moves":[]', '"moves":["9-9"]'
    )
    error = raised(record.loads, text)
    assert errors.code_of(error) is not None and errors.code_of(error)[0] == "record_move"  # type: ignore[index]
    said = i18n.error(error, "ru")
    assert said.startswith("Испорченная запись: раунд 1, ход 1 ('9-9'): ход 9-9 невозможен")


def test_a_record_that_is_no_json_is_told_in_russian_with_the_parsers_own_words() -> None:
    said = i18n.error(raised(record.loads, "{"), "ru")
    assert said.startswith("Испорченная запись: это не запись bazar: это не JSON (Expecting")


def test_an_error_without_russian_anywhere_in_it_is_said_whole_in_english() -> None:
    inner = ValueError("the moon is not a domino")
    outer = errors.BadRecord.of("record_deal", round=2, reason=inner)
    assert i18n.error(outer, "ru") == "Bad record: round 2: bad deal: the moon is not a domino"


def test_an_unknown_variant_offers_the_nearest_names_in_the_language_said() -> None:
    error = raised(bazar.rules, "kozle-tem")
    assert "(did you mean kozel-team?)" in str(error)
    assert "(может быть, kozel-team?)" in i18n.error(error, "ru")
    near = errors.UnknownVariant.of(
        "unknown_variant_near", name="x", near=errors.Names(["a", "b"]), known=errors.Names("ab")
    )
    assert "(did you mean a or b?); known variants: a, b" in str(near)
    assert "(может быть, a или b?); есть: a, b" in i18n.error(near, "ru")


def test_an_error_keeps_its_code_through_pickling() -> None:
    """The arena's worker processes send their errors back pickled."""
    for error in (raised(Tile.of, 19, 1), raised(bazar.rules, "kozle")):
        back = pickle.loads(pickle.dumps(error))
        assert (type(back), str(back)) == (type(error), str(error))
        assert errors.code_of(back) == errors.code_of(error)


def test_the_kinds_of_error_keep_their_names_and_a_bare_message() -> None:
    for kind in (errors.UnknownVariant, errors.IllegalMove, errors.BadRecord, errors.MatchOver):
        bare = kind("x")
        assert (str(bare), errors.code_of(bare), f"{kind.__module__}.{kind.__name__}") == (
            "x",
            None,
            f"bazar.{kind.__name__}",
        )


def test_every_game_and_bot_level_has_a_name_in_either_language() -> None:
    """The lobby names a game and a bot level as players say them, never by its id."""
    from bazar.core.rules import VARIANTS

    for name in VARIANTS:
        english, russian = i18n.title(name, "en"), i18n.title(name, "ru")
        assert english and english != name, name
        assert russian and russian != english and re.search("[а-яё]", russian.lower()), name
        assert i18n.web("ru")[f"title.{name}"] == russian
    for level in bots.names():
        english, russian = i18n.level_name(level, "en"), i18n.level_name(level, "ru")
        assert english != level and re.search("[а-яё]", russian.lower()), level
        assert i18n.web("en")[f"level.{level}"] == english


# -- how the Russian says it -------------------------------------------------------------------

#: the messages whose {name} is an option's, a command's or an argument's
_NOT_ABOUT_PLAYERS = ("error.", "option.", "usage.", "help.")
#: the fields that hold a player's name (or a list of them)
_PLAYER = re.compile(r"\{(?:name|names|first|who)\}")
#: a past-tense verb, singular ("вышел", "вышла", "покинул", "сбросила"): it has a gender, a
#: name does not tell it
_PAST = re.compile(r"(?<![а-яё])[а-яё]+(?:ал|ял|ил|ел|ёл|ул|ыл|ол|ла|лся|лась)(?![а-яё])")
#: the words of those endings that are no verbs
_NOT_VERBS = {"стол", "стола", "козёл", "козла", "осёл", "осла", "предел", "предела", "правила"}
#: a pronoun that says a player's gender ("он играл", "снова играет сам")
_GENDERED = re.compile(r"(?<![а-яё])(?:он|она|сам|сама|него|неё|ним|ней)(?![а-яё])")
#: a preposition or noun that would decline the name after it: "вместо Оли", "у Оли", "для Оли"
_DECLINING = re.compile(
    r"(?<![а-яё])(?:для|у|вместо|от|к|ко|с|со|без|о|об|при|про|после|до|кроме|против"
    r"|возвращения|ходу|хода) \{(?:name|names|first|who)\}"
)


def russian(key: str) -> tuple[str, ...]:
    text = RU[key]
    return (text,) if isinstance(text, str) else text


def test_a_message_about_a_player_says_no_gender_and_never_declines_the_name() -> None:
    """A name does not say whether its player is a man or a woman, and a declined name
    ("вместо Оли") cannot be formed from a name the program only knows as typed: a message
    about a player is phrased so it needs neither ("Играет бот (вместо: {name})", "{name}
    покидает стол")."""
    wrong = []
    for key in RU:
        if key.startswith(_NOT_ABOUT_PLAYERS):
            continue
        for text in russian(key):
            if not _PLAYER.search(text):
                continue
            words = set(_PAST.findall(text.lower())) - _NOT_VERBS
            if words or _GENDERED.search(text.lower()) or _DECLINING.search(text.lower()):
                wrong.append((key, text))
    assert wrong == []


#: the verbs a message about a player is tempted to say in the past, in either gender
_GENDERED_VERBS = [
    "вышел",
    "вышла",
    "ушёл",
    "ушла",
    "пошёл",
    "пошла",
    "зашёл",
    "зашла",
    "покинул",
    "покинула",
    "сбросил",
    "сбросила",
    "поставил",
    "поставила",
    "выложил",
    "выложила",
    "объявил",
    "объявила",
    "сделал",
    "сделала",
    "взял",
    "взяла",
    "сыграл",
    "сыграла",
    "выиграл",
    "выиграла",
    "проиграл",
    "проиграла",
    "стучал",
    "стучала",
    "пропустил",
    "пропустила",
    "вернулся",
    "вернулась",
    "отключился",
    "отключилась",
    "играл",
    "играла",
]


def test_the_gender_check_knows_the_verbs_and_lets_the_nouns_be() -> None:
    for verb in _GENDERED_VERBS:
        assert set(_PAST.findall(f"{{name}} {verb}")) - _NOT_VERBS == {verb}, verb
    for fine in (
        "{name} выходит",
        "{name} покидает стол",
        "Играет бот (вместо: {name})",
        "козёл: {name}",
        "{name}: предел",
    ):
        assert not set(_PAST.findall(fine)) - _NOT_VERBS, fine
        assert not _DECLINING.search(fine) and not _GENDERED.search(fine), fine
    assert _DECLINING.search("вместо {name}") and _DECLINING.search("у {name} кончилось время")


#: the words of each thing, in either language: a deal played out, the whole match
_ROUND_EN, _MATCH_EN = re.compile(r"\brounds?\b", re.I), re.compile(r"\bmatch(?:es)?\b", re.I)
_ROUND_RU, _MATCH_RU = re.compile(r"раунд", re.I), re.compile(r"парти[яиюейь]", re.I)
_FIELD = re.compile(r"\{[^{}]*\}")
#: «игра» said of a match: "Игра окончена" where the English says "match"
_GAME_RU = re.compile(r"(?<![а-яё])игр(?:а|ы|у|е|ой)(?![а-яё])", re.I)
#: «раз» for a round, as a yard would say it: the catalogue says «раунд» («ещё раз» is "again")
_RAZ = re.compile(r"(?<!ещё )(?<![а-яё])раз(?:а|ов)?(?![а-яё])", re.I)


def english(key: str) -> str:
    text = EN[key]
    said = " ".join(text) if isinstance(text, tuple) else text
    return said or declared_in_english(key) or ""


def test_a_round_is_a_round_and_a_match_a_match_in_both_languages() -> None:
    """One word for one thing: «раунд» / "round" for one deal played out, «партия» / "match"
    for the whole match; a message says in Russian what its English says."""
    wrong = []
    for key in RU:
        # the words said, not the names of the fields ({games} is a count of rounds)
        ru, en = (_FIELD.sub("", text) for text in (" ".join(russian(key)), english(key)))
        if key.startswith("club.") or not ru:
            continue
        round_en, match_en = bool(_ROUND_EN.search(en)), bool(_MATCH_EN.search(en))
        if round_en and not match_en and _MATCH_RU.search(ru):
            wrong.append((key, "a round is no «партия»", ru))
        if match_en and not round_en and _ROUND_RU.search(ru):
            wrong.append((key, "a match is no «раунд»", ru))
        if match_en and _GAME_RU.search(ru) and not _MATCH_RU.search(ru):
            wrong.append((key, "a match is a «партия», not an «игра»", ru))
        if _ROUND_RU.search(ru) and not _MATCH_RU.search(ru) and re.search(r"\bgames?\b", en):
            wrong.append((key, "a «раунд» is a round in English, not a game", en))
        if _RAZ.search(ru):
            wrong.append((key, "a round is a «раунд», not a «раз»", ru))
    assert wrong == []
