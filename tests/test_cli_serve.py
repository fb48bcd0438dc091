"""``bazar serve``: what it refuses before the club starts."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import one_line_error, run, run_ru


def test_serve_refuses_a_port_out_of_range_instead_of_printing_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    uvicorn = pytest.importorskip("uvicorn")
    served: list[object] = []
    monkeypatch.setattr(uvicorn, "run", lambda club, **options: served.append(options))
    db = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    for port in ("99999", "0", "-1"):
        code, out, err = run("serve", "--db", db, "--port", port)
        assert one_line_error(code, err) == (
            f"bazar: Bad value: --port takes a number from 1 to 65535, not {port}"
        )
        assert out == ""
    code, out, err = run_ru("serve", "--db", db, "--port", "65536")
    assert one_line_error(code, err) == (
        "bazar: Неверное значение: --port принимает число от 1 до 65535, не 65536"
    )
    assert served == []
    code, out, _ = run_ru("serve", "--db", db, "--port", "65535")
    assert code == 0 and served[0]["port"] == 65535
    assert out.startswith("клуб bazar: http://127.0.0.1:65535/")


def test_serve_says_which_limit_of_the_environment_is_wrong(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    uvicorn = pytest.importorskip("uvicorn")
    served: list[object] = []
    monkeypatch.setattr(uvicorn, "run", lambda club, **options: served.append(club))
    db = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    monkeypatch.setenv("BAZAR_MAX_BODY", "lots")
    code, _, err = run("serve", "--db", db)
    line = one_line_error(code, err)
    assert line.startswith("bazar: a limit set in the environment is not valid: BAZAR_MAX_BODY:")
    code, _, err = run_ru("serve", "--db", db)
    assert one_line_error(code, err).startswith(
        "bazar: ограничение, заданное в окружении, неверно: BAZAR_MAX_BODY:"
    )
    assert served == []
    # the limits the environment sets are the club's
    monkeypatch.setenv("BAZAR_MAX_BODY", "8192")
    code, _, err = run("serve", "--db", db)
    assert code == 0, err
    assert served[0].state.settings.max_body == 8192
