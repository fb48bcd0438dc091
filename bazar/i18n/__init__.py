"""What the command line says, in English and Russian.

>>> t("round.out", "ru", name="Вы")
'вышел Вы'
>>> t("tiles", "ru", n=3), t("tiles", "ru", n=5), t("tiles", "en", n=1)
('3 кости', '5 костей', '1 tile')
>>> default_lang("classic", environ={}), default_lang("block", environ={})
('ru', 'en')
>>> default_lang("block", environ={"LANG": "ru_RU.UTF-8"})
'ru'

The library speaks English; :func:`error` puts a library error into the user's language,
and a :class:`Message` raised by the command line is said in it from its catalogue key:

>>> error(Message("error.seat", seat=7, last=3), "ru")
'Неверное значение: места 7 нет: места от 0 до 3'
>>> from bazar.core.errors import UnknownVariant
>>> error(UnknownVariant("unknown variant 'kozle' (did you mean kozel?); known variants: kozel"),
...       "ru")
"Неизвестная игра: игры 'kozle' нет (может быть, kozel?); есть: kozel"

A message with no Russian rendering is shown whole in English, never half in each:

>>> error(ValueError("the moon is not a domino"), "ru")
'Bad value: the moon is not a domino'
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

__all__ = [
    "LANGS",
    "Message",
    "bot_name",
    "default_lang",
    "env_lang",
    "error",
    "has",
    "line",
    "option_doc",
    "plural",
    "t",
    "translate",
]

LANGS = ("ru", "en")


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
    """Whether a game comes from the Russian yards (``Variant.russian``)."""
    from bazar.core.rules import variant

    try:
        return variant(name).russian
    except ValueError:
        return False


def plural(n: int, one: str, few: str, many: str) -> str:
    """The Russian form of a noun after ``n``: ``1 кость``, ``2 кости``, ``5 костей``."""
    if n % 10 == 1 and n % 100 != 11:
        return one
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return few
    return many


_PLURALS: dict[str, tuple[tuple[str, str], tuple[str, str, str]]] = {
    "tiles": (("tile", "tiles"), ("кость", "кости", "костей")),
    "points": (("point", "points"), ("очко", "очка", "очков")),
    "players": (("player", "players"), ("игрок", "игрока", "игроков")),
    "games": (("game", "games"), ("партия", "партии", "партий")),
    "moves": (("move", "moves"), ("ход", "хода", "ходов")),
    "rounds": (("game", "games"), ("раунд", "раунда", "раундов")),
}

# key: (English, Russian); str.format fields by name
_MESSAGES: dict[str, tuple[str, str]] = {
    # rules
    "rules.title": ("Variants", "Игры"),
    "rules.variant": ("variant", "игра"),
    "rules.players": ("players", "игроки"),
    "rules.description": ("description", "описание"),
    "rules.aliases": ("aliases", "другие названия"),
    "rules.spec": ("spec", "правила"),
    "rules.players_line": (
        "{low}–{high} players (default {default})",
        "{low}–{high} игрока (по умолчанию {default})",
    ),
    "rules.for_players": ("for {players} players", "для {players} игроков"),
    "rules.option": ("option", "опция"),
    "rules.value": ("value", "значение"),
    "rules.meaning": ("meaning", "смысл"),
    "rules.by_players": ("by players: {values}", "по числу игроков: {values}"),
    "rules.listing": ("GameColony listing: {listing}", "запись GameColony: {listing}"),
    "rules.teams": ("teams: {teams}", "команды: {teams}"),
    "rules.russian": (
        "The games of the Russian yards ({names}) speak Russian unless --lang en is given.",
        "Игры русских дворов ({names}) говорят по-русски, если не задан --lang en.",
    ),
    "rules.hint": (
        "Options are set with -o NAME=VALUE, e.g. bazar play {name} -o {example}",
        "Опции задаются так: -o ИМЯ=ЗНАЧЕНИЕ, например bazar play {name} -o {example}",
    ),
    # players and sides
    "you": ("You", "Вы"),
    "bot": ("Bot {seat} ({level})", "Бот {seat} ({level})"),
    "seat": ("seat {seat}", "игрок {seat}"),
    "side": ("{a} and {b}", "{a} и {b}"),
    # play: the table
    "play.welcome": (
        "{game}: {players}, you sit at seat {seat}. {goal}",
        "{game}: {players}, ваше место — {seat}. {goal}",
    ),
    "play.goal.target": ("The first to {target} points wins.", "Играем до {target} очков."),
    "play.goal.limit": (
        "The match ends at {limit} points; the fewest points win.",
        "Партия до {limit} штрафных очков; выигрывает тот, у кого меньше.",
    ),
    "play.partner": ("Your partner: {name}.", "Ваш партнёр: {name}."),
    "play.help": (
        "Type a move's number or its notation (6-4:R, draw, pass); ? shows this help, q quits.",
        "Введите номер хода или его запись (6-4:R, draw, pass); ? — подсказка, q — выход.",
    ),
    "play.round": ("Round {number}", "Раунд {number}"),
    "play.you_lead": ("You lead.", "Заходите вы."),
    "play.scores": ("Scores", "Счёт"),
    "play.table": ("Table", "Стол"),
    "play.table_empty": ("(empty)", "(пусто)"),
    "play.ends": ("Ends", "Концы"),
    "play.end_left": ("left {pip}", "слева {pip}"),
    "play.end_right": ("right {pip}", "справа {pip}"),
    "play.bazar": ("Bazar: {n}", "Базар: {n}"),
    "play.out_of_play": ("Out of play: {n}", "Не в игре: {n}"),
    "play.bazar_dead": (
        "Bazar: {n} ({drawable} may be drawn)",
        "Базар: {n} (брать можно {drawable})",
    ),
    "play.hands": ("Hands", "На руках"),
    "play.your_hand": ("Your hand", "Ваши кости"),
    "play.fits": ("fits", "подходит"),
    "play.moves": ("Your moves", "Ваши ходы"),
    "play.lead_move": ("lead {tile}", "заход {tile}"),
    "play.on_left": ("{tile} on the left ({pip})", "{tile} слева (к {pip})"),
    "play.on_right": ("{tile} on the right ({pip})", "{tile} справа (к {pip})"),
    "play.prompt": ("Your move", "Ваш ход"),
    "play.bad_number": (
        "There is no move {n}; choose 1 to {count}.",
        "Хода {n} нет; выберите от 1 до {count}.",
    ),
    "play.which_end": (
        "{shown} fits both ends: write {tile}:L or {tile}:R.",
        "{shown} подходит к обоим концам: напишите {tile}:L или {tile}:R.",
    ),
    "play.illegal": (
        "{move} is not a legal move now; legal: {legal}.",
        "Ход {move} сейчас невозможен; можно: {legal}.",
    ),
    "play.you_draw": ("You draw {tile} from the bazar.", "Вы берёте из базара {tile}."),
    "play.you_pass": ("You cannot play: you knock (pass).", "Ходить нечем: вы стучите (пас)."),
    "play.you_lead_tile": ("You lead {tile}.", "Вы заходите: {tile}."),
    "play.you_play": ("You play {move}.", "Вы ходите: {move}."),
    "play.bot_play": ("{name} plays {move}.", "{name} ходит: {move}."),
    "play.bot_lead": ("{name} leads {tile}.", "{name} заходит: {tile}."),
    "play.bot_draw": ("{name} draws from the bazar.", "{name} берёт из базара."),
    "play.bot_pass": ("{name} knocks (pass).", "{name} стучит (пас)."),
    "play.bot_stop": ("{name} ends the turn.", "{name} заканчивает ход."),
    "play.you_stop": ("You end the turn.", "Вы заканчиваете ход."),
    "move.draw": ("draw from the bazar", "взять из базара"),
    "move.pass": ("knock (pass)", "стучать (пас)"),
    "move.stop": ("end the turn", "закончить ход"),
    "play.pot": ("fish pot (eggs) +{n}", "рыба +{n} (яйца)"),
    "play.record": ("on record", "на записи"),
    "play.scored": ("{name} scores {n}", "{name}: +{n} очк."),
    "play.end_slot": ("cross {pip}", "крест {pip}"),
    "play.arm_up": ("the upper arm", "верхний луч"),
    "play.arm_down": ("the lower arm", "нижний луч"),
    "play.arm_slot": ("a new arm of the cross", "новый луч креста"),
    "play.arm_other": ("end {end}", "конец {end}"),
    "play.on_arm": ("{tile} on {arm} ({pip})", "{tile}: {arm} (к {pip})"),
    "play.close": ("{tile} closed on {end}", "{tile} закрыть на {end}"),
    "play.continue": ("Press Enter for the next round", "Enter — следующий раунд"),
    "play.save_prompt": (
        "Save the record of this match? File name (Enter: no)",
        "Сохранить запись партии? Имя файла (Enter — нет)",
    ),
    "play.saved": ("Record saved to {path}.", "Запись сохранена в {path}."),
    "play.bye": ("Goodbye!", "До встречи!"),
    "play.no_tty": (
        "play needs a terminal to play in (stdin is not a TTY)",
        "для игры нужен терминал (stdin — не TTY)",
    ),
    "play.left": ("left", "слева"),
    "play.right": ("right", "справа"),
    # round and match results
    "round.over": ("Round {number} is over: {how}.", "Раунд {number} окончен: {how}."),
    "round.out": ("{name} went out", "вышел {name}"),
    "round.fish": ("fish (nobody can move), made by {name}", "рыба! (её поставил {name})"),
    "round.you_out": ("you went out", "вы вышли"),
    "round.you_fish": ("fish (nobody can move), made by you", "рыба! (её поставили вы)"),
    "round.fish_plain": ("fish (nobody can move)", "рыба! (ходить некому)"),
    "round.remaining": ("Left in hand", "Осталось на руках"),
    "round.points": ("This round", "За раунд"),
    "round.total": ("Total", "Всего"),
    "round.target": ("to {target}", "до {target}"),
    "round.limit": ("limit {limit}", "предел {limit}"),
    "match.over": ("The match is over.", "Партия окончена."),
    "match.you_win": ("You win the match!", "Вы выиграли партию!"),
    "match.you_share": ("You share the win.", "Вы делите победу."),
    "match.you_lose": ("You lose the match.", "Вы проиграли партию."),
    "match.you_between": (
        "You neither win nor lose: you finish between the winners and the losers.",
        "Вы не выиграли и не проиграли: между победителями и проигравшими.",
    ),
    "match.winner": ("Winner: {names}", "Победитель: {names}"),
    "match.winners": ("Winners: {names}", "Победители: {names}"),
    "match.loser": ("Loser: {names}", "Проигравший: {names}"),
    "match.losers": ("Losers: {names}", "Проигравшие: {names}"),
    "match.goat": ("Goat: {names}", "Козёл: {names}"),
    "match.goats": ("Goats: {names}", "Козлы: {names}"),
    "match.unfinished": ("The match is unfinished.", "Партия не доиграна."),
    # the games off the line: Kolbasa, poker, Texas 42
    "table.did": ("{name}: {move}.", "{name}: {move}."),
    "play.goal.kolbasa": (
        "The rows lie face down, your own too; the first to empty his row wins.",
        "Ряды лежат втёмную, свой тоже; выигрывает тот, кто первым выложит весь ряд.",
    ),
    "play.goal.poker": (
        "{deals} deals, {chips} chips each; the most chips win.",
        "{deals} сдач, у каждого {chips} фишек; выигрывает тот, у кого больше фишек.",
    ),
    "round.chips": ("chips, {deals} deals", "фишки, {deals} сдач"),
    # Mexican Train and Chicken Foot
    "play.goal.rounds": (
        "{rounds} rounds, from {top}-{top} down to 0-0; {who}.",
        "{rounds} раундов, от {top}-{top} до 0-0; {who}.",
    ),
    "play.goal.fewest": ("the fewest points win", "выигрывает меньший счёт"),
    "play.goal.most": ("the most points win", "выигрывает больший счёт"),
    "play.goal.reach": (
        "reaching {limit} loses; the fewest points win",
        "набравший {limit} проигрывает; выигрывает меньший счёт",
    ),
    "round.rounds": ("{rounds} rounds", "{rounds} раундов"),
    "trains.engine": (
        "The engine is {tile}; {name} plays first.",
        "В центре {tile}; первым ходит {name}.",
    ),
    "trains.centre": ("Engine", "Центр"),
    "trains.mexican": ("Mexican", "Мексиканский"),
    "trains.due": ("double to satisfy", "закрыть дубль"),
    "trains.first_turns": ("first turns to go: {n}", "первых ходов осталось: {n}"),
    "trains.on_own": ("{tile} on own train ({pip})", "{tile} на свой поезд (к {pip})"),
    "trains.on_train": ("{tile} on {name}'s train ({pip})", "{tile} на поезд: {name} (к {pip})"),
    "trains.on_mexican": (
        "{tile} on the Mexican train ({pip})",
        "{tile} на мексиканский поезд (к {pip})",
    ),
    "tree.engine": (
        "Engine {tile} · arms {arms} of {required}",
        "Центр {tile} · лучей {arms} из {required}",
    ),
    "tree.pending_engine": (
        "the engine's arms first: only {pip}s on the engine",
        "сначала лучи: только {pip} к центру",
    ),
    "tree.pending_foot": (
        "chicken foot on {end}: {toes} of 3 toes laid, only {pip}s there",
        "куриная лапка на {end}: пальцев {toes} из 3, только {pip} туда",
    ),
    "tree.foot": ("foot {toes}/3", "лапка {toes}/3"),
    "tree.new_arm": ("{tile} as a new arm ({pip})", "{tile} — новый луч (к {pip})"),
    "tree.on_branch": ("{tile} on {end} ({pip})", "{tile} на {end} (к {pip})"),
    "tree.toe": (
        "{tile} as a toe of the foot on {end} ({pip})",
        "{tile} — палец лапки {end} (к {pip})",
    ),
    "tree.last": ('{move}, saying "last tile"', "{move}, со словами «последняя»"),
    "tree.announce": ("announce the last tile", "объявить последнюю кость"),
    "tree.challenge": (
        "catch {name}: an unannounced last tile",
        "поймать: {name} не объявил последнюю кость",
    ),
    "tree.skip": ("lose this turn (penalty)", "пропустить ход (штраф)"),
    "tree.unannounced": ("unannounced last tile: {names}", "не объявлена последняя кость: {names}"),
    "kolbasa.opening": ("Turned over for the first double", "Открыты в поисках дубля"),
    "kolbasa.starts": (
        "The sausage starts with {tile}, laid by {name}.",
        "Колбаса начинается с {tile} (выложил {name}).",
    ),
    "kolbasa.sausage": ("Sausage", "Колбаса"),
    "kolbasa.ends": ("open end {pip} · joints {joints}", "открытый конец {pip} · стыки {joints}"),
    "kolbasa.rows": ("Rows, face down", "Ряды втёмную"),
    "kolbasa.front": ("Turned over by {name}: {tile}", "Открыта кость ({name}): {tile}"),
    "kolbasa.attach": (
        "attach {tile} to the open end ({pip})",
        "приставить {tile} к концу ({pip})",
    ),
    "kolbasa.cut": (
        "cut with {tile} at joint {joint} ({pip}): {name} gets {n}",
        "разрезать костью {tile} на стыке {joint} ({pip}): {name} получает {n}",
    ),
    "kolbasa.pass": ("{tile} fits nowhere: to the back of the row", "{tile} некуда: в конец ряда"),
    "kolbasa.stop": ("send {tile} to the back of the row", "отправить {tile} в конец ряда"),
    "poker.dealer": (
        "Dealer: {name}; first to speak: {first}; ante {ante}.",
        "Сдаёт: {name}; первым говорит: {first}; анте {ante}.",
    ),
    "poker.sits_out": (
        "Out of the deal, without chips for the ante: {name}",
        "Вне сдачи, без фишек на анте: {name}",
    ),
    "poker.pot": ("Pot {pot}", "Банк {pot}"),
    "poker.folded": ("folded", "сбросил"),
    "poker.chips": ("Chips left", "Фишек осталось"),
    "poker.to_call": ("To call: {n}.", "Чтобы уравнять: {n}."),
    "poker.check": ("check", "чек"),
    "poker.call": ("call", "уравнять"),
    "poker.bet": ("bet {n}", "ставка {n}"),
    "poker.raise": ("raise by {n}", "повысить на {n}"),
    "poker.fold": ("fold", "сбросить карты"),
    "poker.takes": ("The pot of {pot} goes to {names}.", "Банк {pot} забирает {names}."),
    "poker.rank.No Combination": ("no combination", "без комбинации"),
    "poker.rank.Pair": ("Pair", "пара"),
    "poker.rank.Flush": ("Flush", "флеш"),
    "poker.rank.Three": ("Three", "тройка"),
    "poker.rank.Four Straight": ("Four Straight", "стрит из четырёх"),
    "poker.rank.Full Hand": ("Full Hand", "фулл"),
    "poker.rank.Five Straight": ("Five Straight", "стрит из пяти"),
    "poker.rank.Four of a Kind": ("Four of a Kind", "каре"),
    "poker.rank.Six Straight": ("Six Straight", "стрит шестёрок"),
    "poker.rank.Royal Flush": ("Royal Flush", "роял-флеш"),
    "trick.dealer": (
        "Dealer: {name}; first to bid: {first}.",
        "Сдаёт: {name}; первым заказывает: {first}.",
    ),
    "trick.bids": ("Bids", "Заказы"),
    "trick.contract": (
        "Contract: {name}, {bid}; trumps {trumps}",
        "Контракт: {name}, {bid}; козыри {trumps}",
    ),
    "trick.trick": ("Trick", "Взятка"),
    "trick.points": ("Points this hand", "Очки за сдачу"),
    "trick.bid": ("bid {n}", "заказ {n}"),
    "trick.pass": ("pass", "пас"),
    "trick.trumps": ("trumps {suit}", "козыри {suit}"),
    "trick.trumps.follow-me": ("none (follow me)", "без козырей"),
    "trick.trumps.doubles": ("doubles", "дубли"),
    "trick.play": ("play {tile}", "ход {tile}"),
    "trick.takes": ("The trick goes to {name}: {n} points.", "Взятка ({n} очк.) — {name}."),
    "trick.made": (
        "The contract of {name}, {bid}: {took} taken, made.",
        "Контракт ({name}, {bid}): взято {took}, выполнен.",
    ),
    "trick.set": (
        "The contract of {name}, {bid}: only {took} taken, set.",
        "Контракт ({name}, {bid}): взято лишь {took}, провален.",
    ),
    "reason.tricks": ("seven tricks played", "сыграны семь взяток"),
    "reason.showdown": ("showdown", "вскрытие"),
    "reason.fold": ("all but one folded", "все, кроме одного, сбросили"),
    # replay
    "replay.title": ("{game}, {players}, seed {seed}", "{game}, {players}, сид {seed}"),
    "replay.round": ("Round {number}", "Раунд {number}"),
    "replay.deal": ("Deal", "Раздача"),
    "replay.bazar": ("bazar", "базар"),
    "replay.leader": ("leader: {name}", "заходит: {name}"),
    "replay.moves": ("Moves", "Ходы"),
    "replay.unfinished": ("Round {number} is unfinished.", "Раунд {number} не доигран."),
    "replay.ledger": ("Scores", "Счёт"),
    # verify
    "verify.no_seed": (
        "round {number}: no seed in the record, nothing to check",
        "раунд {number}: в записи нет сида, проверять нечего",
    ),
    "verify.confirmed": (
        "round {number}: seed {seed} sha256 {hash} deal confirmed",
        "раунд {number}: сид {seed} sha256 {hash} раздача подтверждена",
    ),
    # serve
    "serve.listening": (
        "bazar club on http://{host}:{port}/  (database {url})",
        "клуб bazar: http://{host}:{port}/  (база данных {url})",
    ),
    # arena
    "arena.title": (
        "Arena: {game}, {players}, {games}",
        "Арена: {game}, {players}, {games}",
    ),
    "arena.bot": ("bot", "бот"),
    "arena.games": ("games", "партий"),
    "arena.win_rate": ("wins", "победы"),
    "arena.match_win_rate": ("matches won", "выиграно матчей"),
    "arena.ci": ("95% CI", "95% ДИ"),
    "arena.margin": ("margin", "разница"),
    "arena.median": ("ms/move", "мс/ход"),
    "arena.p95": ("p95 ms", "p95 мс"),
    "arena.progress": ("Playing", "Играем"),
    # bench
    "bench.result": (
        "{game}, {players}: {games}, {moves} in {seconds} s\n{gps} games/s, {mps} moves/s",
        "{game}, {players}: {games}, {moves} за {seconds} с\n{gps} раундов/с, {mps} ходов/с",
    ),
    # errors
    "error.UnknownVariant": ("Unknown variant", "Неизвестная игра"),
    "error.UnknownOption": ("Unknown option", "Неизвестная опция"),
    "error.IllegalMove": ("Illegal move", "Невозможный ход"),
    "error.BadRecord": ("Bad record", "Испорченная запись"),
    "error.MatchOver": ("The match is over", "Партия окончена"),
    "error.ValueError": ("Bad value", "Неверное значение"),
    "error.file": ("Cannot read {path}", "Не удаётся прочитать {path}"),
    "error.usage": ("Bad usage", "Неверный вызов"),
    "error.UnknownBot": ("Unknown bot", "Неизвестный бот"),
    "error.option_syntax": (
        "an option is written NAME=VALUE, not {text!r}",
        "опция пишется как ИМЯ=ЗНАЧЕНИЕ, а не {text!r}",
    ),
    "error.seat": (
        "no seat {seat}: seats run from 0 to {last}",
        "места {seat} нет: места от 0 до {last}",
    ),
    "error.lang": (
        "--lang takes ru or en, not {value!r}",
        "--lang принимает ru или en, не {value!r}",
    ),
    "error.at_least": (
        "{option} takes a number from {low} up, not {value}",
        "{option} принимает число от {low}, не {value}",
    ),
    "error.positive": (
        "{option} takes a positive number, not {value}",
        "{option} принимает положительное число, не {value}",
    ),
    "error.port": (
        "--port takes a number from 1 to 65535, not {port}",
        "--port принимает число от 1 до 65535, не {port}",
    ),
    "error.arena_bots": (
        "--bots names two entries or more (A,B; a name twice enters the bot twice), not {given}:"
        " a bot alone would only play itself",
        "--bots называет не меньше двух участников (A,B; имя дважды — бот дважды), а не {given}:"
        " один бот играл бы только сам с собой",
    ),
    "error.not_text": (
        "not a text file (byte {at} is not UTF-8)",
        "это не текстовый файл (байт {at} — не UTF-8)",
    ),
    "error.settings": (
        "a limit set in the environment is not valid: {reason}",
        "ограничение, заданное в окружении, неверно: {reason}",
    ),
    "error.server_extra": (
        "the server needs its extra: pip install 'bazar[server]' ({missing})",
        "серверу нужны его зависимости: pip install 'bazar[server]' ({missing})",
    ),
    "error.database": (
        "cannot open the database {url}: {reason}",
        "не удаётся открыть базу данных {url}: {reason}",
    ),
    "error.os": ("system error {code}", "системная ошибка {code}"),
    # reasons, as JSON and tables name them
    "reason.out": ("out", "выход"),
    "reason.fish": ("fish", "рыба"),
    "reason.redeal": ("redeal", "пересдача"),
    "reason.deadlock": ("deadlock", "тупик"),
    "reason.target": ("the target is reached", "набран нужный счёт"),
    # help texts
    "help.app": (
        "bazar, a domino club: play against bots, pit bots against each other, replay records.",
        "bazar, доминошный клуб: игра с ботами, турниры ботов, разбор записей партий.",
    ),
    "help.rules": (
        "List the variants, or show one variant's rules and options.",
        "Список игр или правила и опции одной игры.",
    ),
    "help.play": ("Play against bots in the terminal.", "Игра с ботами в терминале."),
    "help.arena": (
        "Play many matches between bots and compare them.",
        "Много партий между ботами и их сравнение.",
    ),
    "help.replay": ("Replay a match record and print it.", "Воспроизвести запись партии."),
    "help.bench": (
        "Time random rounds: games/s and moves/s.",
        "Замер скорости: случайные раунды, партий/с и ходов/с.",
    ),
    "help.variant": ("a variant or one of its aliases", "игра или её другое название"),
    "help.players": ("the number of players", "число игроков"),
    "help.seat": ("your seat (0 leads the seating)", "ваше место (от 0)"),
    "help.bots": (
        "the bots' level: {levels}; LEVEL@BUDGET sets a search budget (pimc@200 playouts,"
        " ismcts@1s, pimc@200/40ms); cmd:PROGRAM runs an external bot",
        "уровень ботов: {levels}; УРОВЕНЬ@БЮДЖЕТ задаёт бюджет поиска (pimc@200 розыгрышей,"
        " ismcts@1s, pimc@200/40ms); cmd:ПРОГРАММА — внешний бот",
    ),
    "help.arena_bots": (
        "the bots, comma-separated ({levels}); a name twice enters it twice;"
        " LEVEL@BUDGET sets a search budget (pimc@200, ismcts@1s, pimc@200/40ms);"
        " cmd:PROGRAM runs an external bot (one JSON view in, one move out, per line)",
        "боты через запятую ({levels}); имя дважды — два участника;"
        " УРОВЕНЬ@БЮДЖЕТ задаёт бюджет поиска (pimc@200, ismcts@1s, pimc@200/40ms);"
        " cmd:ПРОГРАММА — внешний бот (строка JSON с видом на входе, ход на выходе)",
    ),
    "help.seed": ("the seed of the deals", "зерно раздач"),
    "help.lang": ("the language: ru or en", "язык: ru или en"),
    "help.option": ("a rules option NAME=VALUE (repeatable)", "опция правил ИМЯ=ЗНАЧЕНИЕ"),
    "help.record": ("save the match record to this file", "сохранить запись партии в файл"),
    "help.games": ("how many matches to play", "сколько партий сыграть"),
    "help.jobs": ("worker processes", "число процессов"),
    "help.json": ("print JSON", "вывести JSON"),
    "help.file": ("a bazar record (JSON)", "запись партии bazar (JSON)"),
    "help.seconds": ("how long to run", "сколько секунд мерить"),
    "help.serve": (
        "Run the club server (web tables, accounts, ratings).",
        "Запустить сервер клуба (столы в браузере, учётные записи, рейтинги).",
    ),
    "help.verify": (
        "Check that every deal of a record is the one its seed deals.",
        "Проверить, что каждая раздача записи — та, что даёт её сид.",
    ),
    "help.host": ("address to listen on", "адрес, на котором слушать"),
    "help.port": ("port to listen on (1-65535)", "порт, на котором слушать (1-65535)"),
    "help.db": (
        "SQLAlchemy database URL (default: SQLite in the data dir)",
        "URL базы данных SQLAlchemy (по умолчанию SQLite в папке данных)",
    ),
    "help.grace": (
        "how long a player may be away before a bot takes the seat (a rated match ends"
        " instead); default: BAZAR_GRACE_S, else 60",
        "сколько секунд игрок может отсутствовать, пока его место не займёт бот"
        " (рейтинговая партия вместо этого заканчивается); по умолчанию BAZAR_GRACE_S или 60",
    ),
    "help.rematch_window": (
        "how long a finished table waits for its players' rematch",
        "сколько секунд законченный стол ждёт реванша своих игроков",
    ),
}

#: The glossary of options (``Option.doc``) in Russian.
_OPTION_DOCS_RU: dict[str, str] = {
    "spinner": "первый выложенный дубль — «спиннер» (крест)",
    "spinner_count": "как считается открытый спиннер, когда обе его стороны закрыты",
    "base": "число, кратные которому приносят очки во время игры",
    "divide_in_play": "очки во время игры — сумма концов, делённая на base",
    "bonus_divide": "премия в конце партии, округлённая до base, делится на base",
    "win_check": "когда проверяется, достигнута ли цель",
    "exact_target": "цель надо набрать ровно; перебор не засчитывается",
    "losers_subtract": "в конце партии каждый вычитает свои округлённые очки вместо премии"
    " победителю",
    "engine_source": "как дубль раунда попадает в центр",
    "first_turn_multi": "Мексиканский поезд: первым ходом можно выложить несколько костей"
    " в свой поезд",
    "marker_removal": "Мексиканский поезд: когда снимается маркер с поезда",
    "marker_on_failed_satisfy": "Мексиканский поезд: не закрыл дубль — на поезд ставится маркер",
    "doubles_must_be_satisfied": "Мексиканский поезд: открытый дубль надо закрыть раньше"
    " любого другого хода",
    "satisfy_order": "Мексиканский поезд: открытые дубли закрываются от старого к новому"
    " (played) или от нового к старому",
    "max_doubles_per_turn": "Мексиканский поезд: сколько дублей можно выложить за ход"
    " (None — без ограничения)",
    "light_hands": "Куриная лапка A: меньшие раздачи, как в источнике",
    "missing_engine": "Куриная лапка A: что делать, если дубля раунда ни у кого нет",
    "first_player": "когда центральный дубль кладут до раздачи: кто ходит первым в первом"
    " раунде (дальше по часовой стрелке)",
    "engine_arms_required": "Куриная лапка: сколько лучей нужно центральному дублю, прежде"
    " чем можно ходить куда-то ещё",
    "engine_arms_max": "Куриная лапка: наибольшее число лучей у центрального дубля",
    "trains_required": "Куриная лапка C: сколько поездов нужно центральному дублю до"
    " свободной игры",
    "engine_open_after_start": "Куриная лапка C: можно ли начинать лучи сверх обязательных",
    "must_play_drawn": "Куриная лапка: взятую из базара кость, если подходит, надо выложить",
    "out_on_double_penalty": "Куриная лапка: штраф за выход дублем",
    "match_end": "Куриная лапка: игра кончается после всех раундов, когда кто-то достиг"
    " предела, или тем, что наступит раньше",
    "announce_last_tile": "Куриная лапка A: у кого осталась одна кость, должен объявить"
    " об этом, иначе его можно оштрафовать",
    "single_record": "очки может держать только один игрок (сторона) сразу",
    "knock_off": "что запись другого игрока делает с текущей записью",
    "lone_values": "рука ровно из 0-0 = 25, из 6-6 = 50, из обеих = 75",
    "zero_zero_finish_wins": "выход дублем 0-0 выигрывает игру",
    "six_six_finish_wins": "выход дублем 6-6 выигрывает игру",
    "six_six_needs_loser_over_25": "выход 6-6 выигрывает, только если у кого-то из"
    " проигравших больше 25",
    "hundred_privilege": "держатель записи может начать раунд с 6-6 («сотня»); отказ — stop",
    "hundred_failure": "чем грозит неудачная «сотня»",
    "players": "число игроков",
    "teams": "четверо играют пара на пару, партнёры напротив (0+2, 1+3)",
    "set_max": "старший номер набора (дубль-N)",
    "hand_size": "сколько костей сдаётся каждому",
    "draw": "можно брать из базара (нет — «блок»)",
    "bazar_reserve": "сколько последних костей базара брать нельзя",
    "first_lead": "кто заходит в первом раунде",
    "later_lead": "кто заходит в следующих раундах",
    "after_block_lead": "кто заходит после рыбы с одним победителем",
    "after_tie_lead": "кто заходит после рыбы с ничьей",
    "scoring": "positive: победитель получает очки соперников; penalty: каждый пишет свои",
    "block_award": "что даёт рыба",
    "double_blank_value": "сколько стоит пусто-пусто (0-0) на руках в конце (0 — по очкам)",
    "target": "до скольких очков: первый, кто набрал, выигрывает",
    "limit": "предел штрафа: кто его достиг, заканчивает партию",
    "redeal_min_doubles": "столько дублей на одной руке — пересдача",
    "redeal_min_suit": "столько костей одной масти на одной руке — пересдача",
    "zero_zero_may_lead": "можно заходить с пусто-пусто (0-0)",
    "later_lead_must_double": "в следующих раундах заходят дублем (не 0-0 и не 6-6), если он есть",
    "doubles_per_turn": "сколько дублей можно выложить за один ход, каждый на свой конец",
    "early_fish": "рыба — когда ходить некому (standard) или когда стол мёртв (dead_layout)",
    "hand_values": "особая стоимость костей на руке в конце раунда",
    "open_threshold": "с какой суммы за раунд открывается счёт; меньшие очки запоминаются",
    "fish_mode": "как считается рыба",
    "eggs": "«яйца»: очки рыбы с ничьей уходят одному проигравшему следующего раунда",
    "lead_bonus": "добавка проигравшим, если раунд начат с 6-6 / 0-0",
    "finish_bonus": "добавка проигравшим, если раунд закончен на 6-6 / 0-0",
    "finish_bonus_on_fish": "finish_bonus действует и на кость рыбака",
    "general_officer": "выход дублями 6-6 и 0-0 — «генерал», одним 0-0 — «офицер»",
    "general_effect": "что даёт «генерал»",
    "rating": "действуют формулы рейтинга онлайн-клуба (kozel.md §10)",
    "opening": "как ищут первый дубль: игроки по очереди открывают первую кость ряда",
    "cutting": "колбасу можно резать костью, подходящей к стыку",
    "cut_with_singles": "резать можно и не дублем, если кость подходит к стыку",
    "use_is_compulsory": "подходящую кость обязательно выставить (иначе её можно отправить назад)",
    "continue_after_cut": "после разреза тот же игрок открывает следующую кость",
    "cut_piece_to": "кому уходит отрезанная часть колбасы",
    "stop_at": "выигрывает тот, у кого в ряду осталось столько костей или меньше",
    "deadlock_rule": "кто выигрывает в тупике: у кого меньше костей",
    "max_reveals": "после стольких открытых костей игра кончается как тупик",
    "betting": "один круг ставок (straight) или только анте и сразу вскрытие (none)",
    "ante": "сколько фишек каждый вносит в банк перед сдачей",
    "bet_min": "наименьшая ставка или повышение",
    "bet_max": "наибольшая ставка или повышение",
    "max_raises": "сколько повышений за сдачу",
    "starting_chips": "сколько фишек у каждого в начале",
    "straight_definitions": "какие ряды считаются стритами: по источнику (seed) или по pagat",
    "high_hand": "как сравнивать руки без комбинаций: по сумме очков или по старшей кости",
    "deals": "сколько сдач в партии",
    "all_pass": "если все спасовали: сдающий обязан заказать (от 30) или пересдача",
    "follow_rule": "в масть идёт любая некозырная кость с этим числом или только со старшей "
    "половиной",
    "allow_follow_me": "можно заказать игру без козырей",
    "allow_doubles_trump": "козырями можно назначить дубли",
    "bonus_rounding": "бонус — очки соперников / 5 с округлением вверх (ceil) или до ближайшего "
    "(nearest)",
    "cross": "первый открытый дубль — крест на четыре стороны (first_open_double) или креста нет",
    "closing": "выложенный дубль можно закрыть: на этот конец больше не ставят",
    "lead_may_be_closed": "можно закрыть и заходную кость",
    "sealed_layout_ends_round": "ход, после которого не осталось открытых концов, — рыба",
    "draw_mode": "из базара берут до подходящей кости (until_playable) или одну за ход",
    "lead_double_points": "очки за заход дублем",
    "double_header_points": "очки, когда на обоих концах одно число",
    "triple_header_points": "очки, когда на обоих концах одно число и один конец — дубль",
    "out_points": "очки за выход",
    "block_points": "очки за выигранную рыбу",
    "no_overshoot_headers": "кому до цели 2 (3) очка, получает за пару концов только 1 (2)",
}

_BOT_NAMES_RU = {"random": "случайный", "greedy": "жадный"}


def t(key: str, lang: str, **kw: object) -> str:
    """The message ``key`` in ``lang`` (``ru`` or ``en``), formatted with ``kw``.

    A counted noun is a key of its own: ``t("tiles", lang, n=5)``; ``shown`` writes the
    number another way (``"12 345"``).
    """
    if key in _PLURALS:
        n = int(str(kw["n"]))
        (en_one, en_many), (one, few, many) = _PLURALS[key]
        word = plural(n, one, few, many) if lang == "ru" else (en_one if n == 1 else en_many)
        return f"{kw.get('shown', n)} {word}"
    en, ru = _MESSAGES[key]
    return (ru if lang == "ru" else en).format(**kw)


def has(key: str) -> bool:
    """Whether the catalogue has a message ``key``."""
    return key in _MESSAGES or key in _PLURALS


def option_doc(name: str, lang: str) -> str:
    """What an option means, from its declaration (:func:`bazar.core.rules.declared`)."""
    from bazar.core.rules import declared

    if lang == "ru" and name in _OPTION_DOCS_RU:
        return _OPTION_DOCS_RU[name]
    option = declared().get(name)
    return option.doc if option is not None else ""


def bot_name(level: str, lang: str) -> str:
    """A bot's level as the table calls it."""
    if lang != "ru":
        return level
    base, sep, rest = level.partition("#")
    return _BOT_NAMES_RU.get(base, base) + sep + rest


# Library messages (English) with a Russian rendering; the first pattern that matches wins.
_RU_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(
            r"^unknown variant (?P<name>'.*?')(?P<guess>( \(did you mean .*\?\))?); "
            r"known variants: (?P<known>.*)$"
        ),
        "игры {name} нет{guess}; есть: {known}",
    ),
    (
        re.compile(
            r"^(?P<game>\S+) has no option (?P<name>'.*?')(?P<guess>( \(did you mean .*\?\))?); "
            r"its options: (?P<known>.*)$"
        ),
        "у игры {game} нет опции {name}{guess}; её опции: {known}",
    ),
    (
        re.compile(r"^(?P<game>\S+) takes (?P<low>\d+) to (?P<high>\d+) players, not (?P<n>.*)$"),
        "в {game} играют от {low} до {high} игроков, не {n}",
    ),
    (
        re.compile(
            r"^option (?P<name>\w+) takes a number from (?P<low>\d+) to (?P<high>\d+); "
            r"not (?P<v>.*)$"
        ),
        "опция {name} принимает число от {low} до {high}, не {v}",
    ),
    (
        re.compile(r"^option (?P<name>\w+) takes a number from (?P<low>\d+) up; not (?P<v>.*)$"),
        "опция {name} принимает число от {low}, не {v}",
    ),
    (
        re.compile(r"^option (?P<name>\w+) takes one of (?P<allowed>.*); not (?P<v>.*)$"),
        "опция {name} принимает одно из: {allowed}; не {v}",
    ),
    (
        re.compile(r"^option (?P<name>\w+) takes a whole number, not (?P<v>.*)$"),
        "опция {name} принимает целое число, не {v}",
    ),
    (
        re.compile(r"^option (?P<name>\w+) takes True or False, not (?P<v>.*)$"),
        "опция {name} принимает true или false, не {v}",
    ),
    (
        re.compile(r"^malformed tile (?P<text>.*): write it as .*$"),
        "кость {text} записана неверно: пишите как '6-4', '4-6', '6|4' или '[6|4]'",
    ),
    (
        re.compile(r"^malformed move (?P<text>.*): write a move as .*$"),
        "ход {text} записан неверно: пишите '6-4', '6-4:R', 'draw' или 'pass'",
    ),
    (
        re.compile(
            r"^illegal move (?P<move>\S+) for seat (?P<seat>\d+); legal moves: (?P<legal>.*)$"
        ),
        "ход {move} невозможен для места {seat}; можно: {legal}",
    ),
    (
        re.compile(r"^round (?P<k>\d+), move (?P<i>\d+) \((?P<text>.*?)\): (?P<rest>.*)$"),
        "раунд {k}, ход {i} ({text}): {rest}",
    ),
    (
        re.compile(r"^round (?P<k>\d+): the deal is not the one seed (?P<seed>\S+) deals .*$"),
        "раунд {k}: раздача не та, что даёт сид {seed} (запись изменена)",
    ),
    (
        re.compile(r"^not a bazar record: (?P<rest>.*)$"),
        "это не запись bazar: {rest}",
    ),
    (
        re.compile(r"^unknown bot (?P<name>'.*'); bots: (?P<known>.*)$"),
        "бота {name} нет; есть: {known}",
    ),
    (
        re.compile(r"^bot (?P<name>'.*') takes no budget: (?P<text>.*)$"),
        "бот {name} не принимает бюджет: {text}",
    ),
    (re.compile(r"^cmd: needs a program to run$"), "после cmd: нужна программа"),
    (
        re.compile(r"^no tile (?P<tile>\S+): pips run from 0 to (?P<high>\d+)$"),
        "кости {tile} нет: очки от 0 до {high}",
    ),
    (
        re.compile(r"^teams are played by 4 players, not (?P<n>.*)$"),
        "пара на пару играют вчетвером, не {n}",
    ),
    # records (replay, verify)
    (
        re.compile(r"^malformed JSON \((?P<why>.*)\)$"),
        "это не JSON ({why})",
    ),
    (
        re.compile(r"^'format' must be (?P<format>.*)$"),
        "'format' должен быть {format}",
    ),
    (
        re.compile(r"^record version (?P<v>.*) is not supported \(only (?P<only>.*)\)$"),
        "версия записи {v} не поддерживается (только {only})",
    ),
    (
        re.compile(r"^record seed must be a whole number or null, not (?P<v>.*)$"),
        "сид записи — целое число или null, не {v}",
    ),
    (
        re.compile(r"^record seed must be within ±2\*\*63, not (?P<v>.*)$"),
        "сид записи должен быть в пределах ±2**63, не {v}",
    ),
    (
        re.compile(r"^a number has (?P<n>\d+) digits \(at most (?P<most>\d+)\)$"),
        "цифр в числе: {n} (можно не больше {most})",
    ),
    (re.compile(r"^its JSON nests too deeply$"), "JSON вложен слишком глубоко"),
    (re.compile(r"^record has no rounds$"), "в записи нет раундов"),
    (
        re.compile(r"^record has (?P<n>\d+) rounds, more than the (?P<most>\d+) accepted$"),
        "раундов в записи: {n}, а принимается не больше {most}",
    ),
    (
        re.compile(r"^record has (?P<n>\d+) moves, more than the (?P<most>\d+) accepted$"),
        "ходов в записи: {n}, а принимается не больше {most}",
    ),
    (
        re.compile(r"^record 'rules' must be .*$"),
        '\'rules\' записи пишутся как {{"name": ..., "options": {{...}}}}',
    ),
    (re.compile(r"^record rules: (?P<rest>.*)$"), "правила записи: {rest}"),
    (
        re.compile(r"^round (?P<k>\d+): the match was already over$"),
        "раунд {k}: партия уже окончена",
    ),
    (re.compile(r"^round (?P<k>\d+): 'moves' must be a list$"), "раунд {k}: 'moves' — не список"),
    (re.compile(r"^the round was already over$"), "раунд уже окончен"),
    (
        re.compile(r"^round (?P<k>\d+) is unfinished but another round follows it$"),
        "раунд {k} не доигран, а за ним идёт следующий",
    ),
    (
        re.compile(r"^round (?P<k>\d+): each round needs a 'deal' and 'moves'$"),
        "раунд {k}: у каждого раунда должны быть 'deal' и 'moves'",
    ),
    (
        re.compile(r"^round (?P<k>\d+): numbered (?P<n>.*), expected (?P<e>\d+)$"),
        "раунд {k}: номер {n}, а должен быть {e}",
    ),
    # the command line's usage (Typer)
    (re.compile(r"^Missing argument (?P<name>'.*')\.$"), "не хватает аргумента {name}"),
    (re.compile(r"^Missing option (?P<name>'.*?')(?: / '.*')?\.$"), "не хватает опции {name}"),
    (re.compile(r"^Missing command\.$"), "не указана команда"),
    (re.compile(r"^No such command (?P<name>'.*')\.$"), "нет команды {name}"),
    (
        re.compile(r"^No such option: (?P<name>\S+)(?: \(Possible options: (?P<guess>.*)\))?$"),
        "нет опции {name}",
    ),
    (
        re.compile(r"^Option (?P<name>'.*') requires an argument\.$"),
        "опции {name} нужно значение",
    ),
    (
        re.compile(r"^Got unexpected extra argument(?:\(s\)|s)? \((?P<args>.*)\)$"),
        "лишние аргументы: {args}",
    ),
    (
        re.compile(r"^Invalid value for (?P<name>'.*?')(?: / '.*?')?: .*valid integer.*$"),
        "{name} принимает целое число",
    ),
    (
        re.compile(r"^Invalid value for (?P<name>'.*?')(?: / '.*?')?: .*valid number.*$"),
        "{name} принимает число",
    ),
]


def _ru_guess(guess: str) -> str:
    """`` (did you mean a or b?)`` in Russian."""
    found = re.fullmatch(r" \(did you mean (?P<names>.*)\?\)", guess)
    if found is None:
        return guess
    return f" (может быть, {found['names'].replace(' or ', ' или ')}?)"


def _ru_message(message: str) -> str | None:
    """The Russian of a library message, or None where the catalogue has none (for any part)."""
    for pattern, template in _RU_PATTERNS:
        found = pattern.match(message)
        if found is None:
            continue
        groups: dict[str, str] = {}
        for key, value in found.groupdict().items():
            if key == "rest":
                rest = _ru_message(value)
                if rest is None:
                    return None
                value = rest
            elif key == "guess":
                value = _ru_guess(value or "")
            groups[key] = value
        return template.format(**groups)
    return None


class Message(ValueError):
    """An error the command line raises from its catalogue: ``str()`` is the English (as
    the library speaks), :meth:`say` the same in either language.

    >>> Message("error.seat", seat=7, last=3).say("en")
    'no seat 7: seats run from 0 to 3'
    """

    def __init__(self, key: str, **fields: object) -> None:
        self.key = key
        self.fields = fields
        super().__init__(t(key, "en", **fields))

    def say(self, lang: str) -> str:
        return t(self.key, lang, **self.fields)


def translate(message: str, lang: str) -> str | None:
    """A library (English) ``message`` in ``lang``, or None where the catalogue has none."""
    return message if lang != "ru" else _ru_message(message)


def line(kind: str, message: str, lang: str) -> str:
    """``kind`` (a catalogue key) and an English ``message``, both in ``lang``: where the
    message has no Russian, the whole line stays English."""
    said = translate(message, lang)
    if said is None:
        lang, said = "en", message
    prefix = t(kind, lang)
    if said.lower().startswith(prefix.lower()):
        # "Unknown variant: unknown variant 'kozle' ..." says it twice
        return said[0].upper() + said[1:]
    return f"{prefix}: {said}"


def error(exc: BaseException, lang: str) -> str:
    """One line for the user: the kind of error, then what was wrong, in ``lang``."""
    kind = "ValueError"
    for cls in type(exc).__mro__:
        if f"error.{cls.__name__}" in _MESSAGES:
            kind = cls.__name__
            break
    if isinstance(exc, Message):
        return f"{t('error.' + kind, lang)}: {exc.say(lang)}"
    return line(f"error.{kind}", str(exc).replace("\n", " "), lang)
