"""``bazar verify``: the deals of a record checked against their seeds."""

from __future__ import annotations

import re
from pathlib import Path

from cli_helpers import finished_record, one_line_error, run


def test_verify_speaks_the_language_of_its_record_as_replay_does(tmp_path: Path) -> None:
    path = tmp_path / "kozel.json"
    path.write_text(finished_record("kozel"), encoding="utf-8")
    for args, first in (
        ([], "раунд 1: сид "),
        (["--lang", "en"], "round 1: seed "),
    ):
        code, out, _ = run("verify", str(path), *args)
        assert code == 0
        lines = out.splitlines()
        assert lines[0].startswith(first)
        said = "раздача подтверждена" if first.startswith("раунд") else "deal confirmed"
        assert all(line.endswith(said) for line in lines)
        _, replayed, _ = run("replay", str(path), *args)
        assert bool(re.search("[а-яё]", replayed)) == first.startswith("раунд")


def test_verify_and_replay_refuse_a_seed_of_thousands_of_digits_in_one_line(
    tmp_path: Path,
) -> None:
    """Python's int-string limit was a traceback, not the record's fault said plainly."""
    path = tmp_path / "seed.json"
    path.write_text(finished_record().replace('"seed":5,', f'"seed":{"9" * 5000},'))
    for command in ("verify", "replay"):
        code, _, err = run(command, str(path), "--lang", "en")
        assert "a number has 5000 digits (at most 30)" in one_line_error(code, err), command
        code, _, err = run(command, str(path), "--lang", "ru")
        assert "цифр в числе: 5000" in one_line_error(code, err), command
