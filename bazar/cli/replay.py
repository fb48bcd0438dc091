"""``bazar replay``: a match record, replayed and told round by round (or as JSON)."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.text import Text

from bazar import i18n
from bazar.core import record
from bazar.core.ledger import Ledger
from bazar.core.match import Match
from bazar.core.tiles import Tile
from bazar.i18n import t

from .app import AsJson, Lang, bad_input, guess_lang, h, lang_option
from .console import tiles_text, title
from .narrator import Narrator


def replay_data(match: Match) -> dict[str, Any]:
    """What ``bazar replay --json`` prints: every round's deal, moves and result, the ledger
    after it, and the match's winners and losers (empty while unfinished)."""
    rules = match.rules
    ledger = Ledger.new(rules)
    rounds = []
    for rnd in match.rounds:
        outcome = rnd.outcome()
        entry: dict[str, Any] = {
            "number": rnd.number,
            "deal": rnd.deal(),
            "moves": [str(m) for m in rnd.moves],
        }
        if outcome is None:
            entry.update(reason=None, out_seat=None, remaining=None, scores=None)
        else:
            before = ledger
            ledger = ledger.settle(outcome)
            entry.update(outcome.to_json())
            entry["award"] = [b - a for a, b in zip(before.scores, ledger.scores, strict=True)]
            entry["scores"] = list(ledger.scores)
        rounds.append(entry)
    result = match.result()
    return {
        "variant": rules.name,
        "players": rules.players,
        "options": rules.options(),
        "seed": match.seed,
        "rounds": rounds,
        "ledger": match.ledger.public(),
        "over": match.is_over(),
        "winners": list(result.winners) if result else [],
        "losers": list(result.losers) if result else [],
    }


def replay_command(
    file: Annotated[Path, typer.Argument(help=h("help.file"))],
    as_json: AsJson = False,
    lang: Lang = None,
) -> None:
    lang = lang_option(lang)
    language = guess_lang(lang)
    with bad_input(language):
        match = record.loads(file.read_text(encoding="utf-8"))
    language = lang or i18n.default_lang(match.rules.name)
    if as_json:
        print(json.dumps(replay_data(match), ensure_ascii=False))
        return
    _show_replay(Console(highlight=False), match, language)


def _wrap(label: str, items: Sequence[str], width: int) -> list[str]:
    """``label`` and ``items`` joined by "; " in lines of ``width``, never splitting an item."""
    # textwrap breaks at plain spaces only, so no-break spaces hold each item together
    words = [item.replace(" ", "\u00a0") for item in items]
    text = f"{label} " + "; ".join(words)
    lines = textwrap.wrap(
        text, width=max(20, width), break_long_words=False, break_on_hyphens=False
    )
    return [line.replace("\u00a0", " ") for line in lines]


def _show_replay(console: Console, match: Match, lang: str) -> None:
    rules = match.rules
    names = [t("seat", lang, seat=s) for s in range(rules.players)]
    talk = Narrator(match, names, console, lang)
    console.print(
        Text(
            t(
                "replay.title",
                lang,
                game=title(rules.name, lang),
                players=t("players", lang, n=rules.players),
                seed=match.seed,
            ),
            style="bold",
        )
    )
    ledger = Ledger.new(rules)
    for rnd in match.rounds:
        if not rnd.moves and not rnd.is_over():
            continue
        console.rule(t("replay.round", lang, number=rnd.number))
        deal = rnd.deal()
        talk.say(f"{t('replay.deal', lang)}:")
        for seat, hand in enumerate(deal["hands"]):
            held = Text(f"  {names[seat]}: ")
            held.append_text(tiles_text([Tile.parse(x) for x in hand]))
            talk.say(held)
        if deal["bazar"]:
            bazar = Text(f"  {t('replay.bazar', lang)}: ")
            bazar.append_text(tiles_text([Tile.parse(x) for x in deal["bazar"]]))
            talk.say(bazar)
        talk.say(f"  {t('replay.leader', lang, name=names[rnd.leader])}")
        moves = [f"{names[s]}: {m}" for s, m, _ in rnd.history()]
        for text in _wrap(f"{t('replay.moves', lang)}:", moves, console.width):
            console.print(Text(text), soft_wrap=True, highlight=False)
        if rnd.is_over():
            outcome = rnd.outcome()
            assert outcome is not None
            after = ledger.settle(outcome)
            talk.round_over(rnd, ledger, after)
            ledger = after
        else:
            talk.say(t("replay.unfinished", lang, number=rnd.number))
    talk.say("")
    talk.say(talk.scores_line(match.ledger, t("replay.ledger", lang)))
    talk.result()
