"""``bazar verify``: every deal of a record checked against the seed it was dealt from."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from bazar import i18n
from bazar.i18n import t

from .app import AsJson, Lang, bad_input, guess_lang, h, lang_option


def verify_command(
    file: Annotated[Path, typer.Argument(help=h("help.file"))],
    as_json: AsJson = False,
    lang: Lang = None,
) -> None:
    from bazar.club.fairness import verify

    lang = lang_option(lang)
    with bad_input(guess_lang(lang)):
        text = file.read_text(encoding="utf-8")
        rounds = verify(text)
    if as_json:
        print(json.dumps({"rounds": rounds}))
        return
    # the record's game sets the language, as for replay
    language = lang or i18n.default_lang(json.loads(text)["rules"]["name"])
    for r in rounds:
        if r["seed"] is None:
            print(t("verify.no_seed", language, number=r["number"]))
        else:
            print(
                t(
                    "verify.confirmed",
                    language,
                    number=r["number"],
                    seed=r["seed"],
                    hash=r["seed_hash"],
                )
            )
    if any(r["seed"] is None for r in rounds):
        raise typer.Exit(1)
