"""``bazar db upgrade | current``: the database's revision asked and brought to the newest, in
both languages, and what ``bazar db`` and ``bazar serve`` refuse (a URL that names no
database, a server that does not answer, a database behind when the club may not upgrade)."""

from __future__ import annotations

import pytest

pytest.importorskip("alembic")
pytest.importorskip("uvicorn")

import uvicorn
from alembic import command
from cli_helpers import one_line_error, run, run_ru
from sqlalchemy import create_engine, text

from bazar.club import migrations
from bazar.club.storage import engine_url

NEWEST = migrations.head()


def shown(db: str) -> str:
    return engine_url(db).render_as_string(hide_password=True)


def test_current_says_the_revision_and_upgrade_brings_the_database_to_the_newest(db: str) -> None:
    url = shown(db)
    code, out, _ = run("db", "current", "--db", db)
    assert code == 0
    assert out == f"database {url}: revision none, the newest is {NEWEST}: run bazar db upgrade\n"
    code, out, _ = run("db", "upgrade", "--db", db)
    assert code == 0
    assert out == f"database {url}: upgraded to revision {NEWEST}, the newest (it was at none)\n"
    code, out, _ = run("db", "current", "--db", db)
    assert (code, out) == (0, f"database {url}: revision {NEWEST}, the newest\n")
    code, out, _ = run_ru("db", "upgrade", "--db", db)
    assert (code, out) == (0, f"база данных {url}: ревизия — {NEWEST}, новейшая\n")


def test_upgrade_says_the_revision_it_started_from_in_russian(db: str) -> None:
    engine = create_engine(engine_url(db))
    with engine.begin() as connection:
        command.upgrade(migrations.config(connection), "0001")
    engine.dispose()
    url = shown(db)
    code, out, _ = run_ru("db", "current", "--db", db)
    assert (code, out) == (
        0,
        f"база данных {url}: ревизия — 0001, новейшая — {NEWEST}: выполните bazar db upgrade\n",
    )
    code, out, _ = run_ru("db", "upgrade", "--db", db)
    assert (code, out) == (
        0,
        f"база данных {url}: обновлена до ревизии {NEWEST}, новейшей (была ревизия — 0001)\n",
    )


def test_the_database_is_named_by_the_environment_without_db(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BAZAR_DB_URL", db)
    code, out, _ = run("db", "upgrade")
    assert code == 0 and out.startswith(f"database {shown(db)}: upgraded to revision {NEWEST}")


def test_a_url_that_names_no_database_is_refused_in_one_line() -> None:
    code, out, err = run("db", "current", "--db", "club.sqlite3")
    assert one_line_error(code, err) == (
        "bazar: not a database URL: club.sqlite3"
        " (sqlite:///FILE or postgresql://USER:PASSWORD@HOST/NAME)"
    )
    assert out == ""
    code, _, err = run_ru("db", "upgrade", "--db", "mysql+nodriver://host/club")
    assert one_line_error(code, err) == (
        "bazar: это не URL базы данных: mysql+nodriver://host/club"
        " (sqlite:///ФАЙЛ или postgresql://ПОЛЬЗОВАТЕЛЬ:ПАРОЛЬ@ХОСТ/ИМЯ)"
    )


def test_a_server_that_does_not_answer_is_named_without_its_password() -> None:
    pytest.importorskip("psycopg")
    # port 1 on the loopback: nothing listens there
    db = "postgresql://club:secret@127.0.0.1:1/club"
    code, _, err = run("db", "upgrade", "--db", db)
    line = one_line_error(code, err)
    assert line.startswith(
        "bazar: cannot open the database postgresql+psycopg://club:***@127.0.0.1:1/club:"
    )
    assert "secret" not in line and "refused" in line
    code, _, err = run_ru("db", "current", "--db", db)
    assert one_line_error(code, err).startswith(
        "bazar: не удаётся открыть базу данных postgresql+psycopg://club:***@127.0.0.1:1/club:"
    )


def test_a_database_of_a_newer_bazar_is_refused(db: str) -> None:
    run("db", "upgrade", "--db", db)
    engine = create_engine(engine_url(db))
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    engine.dispose()
    code, _, err = run("db", "upgrade", "--db", db)
    assert one_line_error(code, err) == (
        f"bazar: database {shown(db)}: revision 9999, which this bazar does not know"
        f" (its newest is {NEWEST}): run a newer bazar on it"
    )


def test_serve_without_upgrading_refuses_a_database_behind_until_it_is_upgraded(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    served: list[object] = []
    monkeypatch.setattr(uvicorn, "run", lambda club, **options: served.append(club))
    monkeypatch.setenv("BAZAR_DB_UPGRADE", "0")
    code, _, err = run("serve", "--db", db)
    assert one_line_error(code, err) == (
        f"bazar: database {shown(db)}: revision none, the newest is {NEWEST}, and"
        " BAZAR_DB_UPGRADE=0 says not to upgrade it here: run bazar db upgrade first"
    )
    code, _, err = run_ru("serve", "--db", db)
    assert one_line_error(code, err).startswith(f"bazar: база данных {shown(db)}: ревизия — нет")
    assert served == []
    assert run("db", "upgrade", "--db", db)[0] == 0
    code, _, err = run("serve", "--db", db)
    assert code == 0, err
    assert len(served) == 1
