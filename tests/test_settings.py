"""The club's limits: each is a setting with a default, set from the environment, and the
README's table names every one of them with its default."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bazar.club.settings import Settings

README = Path(__file__).resolve().parent.parent / "README.md"


def limits_table() -> dict[str, str]:
    """The README's limits: variable -> the default it states."""
    rows = re.findall(r"^\| `(BAZAR_[A-Z0-9_]+)` \| ([^|]+) \|", README.read_text(), re.M)
    return {name: default.strip() for name, default in rows}


def test_the_readme_names_every_limit_with_its_default() -> None:
    table = limits_table()
    for name, field in Settings.model_fields.items():
        variable = f"BAZAR_{name.upper()}"
        assert variable in table, variable
        stated = table[variable].strip("`")
        default = field.default
        if isinstance(default, tuple):
            assert stated == str(list(default)).replace(" ", ""), variable
        elif default == "":
            assert stated == "none", variable
        else:
            assert float(stated) == float(default), (variable, stated, default)
    assert set(table) == {f"BAZAR_{n.upper()}" for n in Settings.model_fields}


def test_a_limit_is_set_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BAZAR_MAX_BODY", "8192")
    monkeypatch.setenv("BAZAR_MOVE_TIMES", "[30, 60]")
    monkeypatch.setenv("BAZAR_ALLOWED_ORIGINS", "https://friend.example")
    settings = Settings()
    assert settings.max_body == 8192
    assert settings.move_times == (30, 60)
    assert settings.allowed_origins == "https://friend.example"


def test_a_limit_out_of_its_range_is_refused_at_start(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BAZAR_OUTBOX", "0")
    with pytest.raises(ValueError, match="outbox"):
        Settings()
