"""`--database` and `office init` at the command line: an office made, found and refused in
one sentence each, and an office of an earlier schema brought forward by the same
migrations as a data folder."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import psycopg
import pytest

from inspector_app.cli.main import run
from inspector_app.storage import database, office, postgres
from tests.pg_cluster import Cluster


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any, str]:
    capsys.readouterr()
    status = run(list(args))
    out, err = capsys.readouterr()
    return status, json.loads(out) if out.strip() else None, err


def test_office_init_makes_an_office_the_commands_then_work_on(
        pg_database: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    desk = ["--database", pg_database, "--data-dir", str(tmp_path / "desk")]
    status, made, err = _cli(capsys, *desk, "office", "init")
    assert status == 0, err
    assert made == {"database": pg_database, "schema_version": database.SCHEMA_VERSION}
    status, parcels, _ = _cli(capsys, *desk, "parcels")
    assert (status, parcels) == (0, [])
    status, _, err = _cli(capsys, *desk, "demo")
    assert status == 0, err
    status, parcels, _ = _cli(capsys, *desk, "parcels")
    assert len(parcels) == 40
    with psycopg.connect(pg_database) as conn:
        assert conn.execute("SELECT count(*) FROM parcels").fetchone() == (40,)
        assert conn.execute("SELECT postgis_version() IS NOT NULL").fetchone() == (True,)
    # the desk's folder keeps no database of its own
    assert not (tmp_path / "desk" / "inspector.sqlite").exists()
    # a second init changes nothing
    status, _, err = _cli(capsys, *desk, "office", "init")
    assert status == 2 and "is not empty" in err and err.count("\n") == 1


def test_the_environment_names_the_office_as_the_option_does(
        pg_database: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INSPECTOR_APP_DATABASE", pg_database)
    status, made, _ = _cli(capsys, "--data-dir", str(tmp_path / "desk"), "office", "init")
    assert status == 0 and made["database"] == pg_database


@pytest.mark.parametrize(("given", "said"), [
    ("watershed", "is not the address of a PostgreSQL office database"),
    ("mysql://clerk@server/watershed", "is not the address of a PostgreSQL office database"),
    ("postgresql://clerk@server", "names no database"),
])
def test_an_address_that_is_no_office_database_is_refused_in_one_sentence(
        given: str, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = _cli(capsys, "--database", given, "--data-dir", str(tmp_path / "d"),
                          "parcels")
    assert status == 2 and said in err and err.count("\n") == 1
    assert not (tmp_path / "d").exists()


def test_unreachable_empty_foreign_and_unknown_logins_are_refused_in_one_sentence(
        pg_cluster: Cluster, pg_database: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    desk = ["--data-dir", str(tmp_path / "desk")]
    cases = [
        (f"postgresql://clerk@/none?host={tmp_path / 'no-server'}&port=5",
         "could not be opened (", "No such file or directory"),
        (pg_database, "holds no office yet; create it with", "office init"),
        (pg_cluster.url("postgres", user="nobody_here"), "could not be opened (",
         'role "nobody_here" does not exist'),
    ]
    for url, said, why in cases:
        status, _, err = _cli(capsys, "--database", url, *desk, "parcels")
        assert status == 2 and said in err and why in err and err.count("\n") == 1, err
        assert "Traceback" not in err and "psycopg" not in err
    with psycopg.connect(pg_database, autocommit=True) as conn:
        conn.execute("CREATE TABLE invoices (n integer)")
    status, _, err = _cli(capsys, "--database", pg_database, *desk, "parcels")
    assert status == 2 and "holds tables of another application" in err
    status, _, err = _cli(capsys, "--database", pg_database, *desk, "office", "init")
    assert status == 2 and "is not empty" in err
    with psycopg.connect(pg_database) as conn:
        tables = conn.execute("SELECT table_name FROM information_schema.tables WHERE "
                              "table_schema = 'public' AND table_type = 'BASE TABLE' AND "
                              "table_name <> 'spatial_ref_sys'"
                              ).fetchall()
    assert tables == [("invoices",)]


def test_an_office_of_an_earlier_schema_is_brought_forward_by_the_migrations(
        pg_database: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    earlier = database.SCHEMA_VERSION - 1
    conn = postgres.Connection(pg_database)
    try:
        for statement in [*office.schema_statements(earlier), *office.people_and_roles(conn, earlier)]:
            conn.execute_native(statement)
        conn.execute_native("INSERT INTO meta (key, value) VALUES ('application', %s), "
                            "('schema_version', %s)", (office.APPLICATION, str(earlier)))
        conn.execute_native("INSERT INTO devices (id, name, role, created_at) VALUES "
                            "('d', 'office', 'this', '2026-01-01T00:00:00.000+00:00')")
    finally:
        conn.close()
    status, parcels, err = _cli(capsys, "--database", pg_database, "--data-dir",
                                str(tmp_path / "desk"), "parcels")
    assert (status, parcels) == (0, []), err
    with psycopg.connect(pg_database) as check:
        assert check.execute("SELECT value FROM meta WHERE key = 'schema_version'"
                             ).fetchone() == (str(database.SCHEMA_VERSION),)
        columns = {r[0] for r in check.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = "
            "'public'").fetchall()}
        # a table a migration added gets its rights as the office is brought forward
        name = check.info.dbname
        assert check.execute(
            "SELECT has_table_privilege(%s, 'stored_files', 'INSERT'), "
            "has_table_privilege(%s, 'stored_files', 'INSERT'), "
            "has_table_privilege(%s, 'stored_files', 'SELECT')",
            (f"{name}_inspector", f"{name}_town", f"{name}_town")).fetchone() == (
                True, False, True)
    ref = database.reference_schema()
    wanted = {r[1] for (t,) in ref.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    ).fetchall() for r in ref.execute(f"PRAGMA table_info({t})")}
    assert wanted <= columns


def test_a_newer_office_is_refused_and_left_untouched(
        pg_database: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    desk = ["--database", pg_database, "--data-dir", str(tmp_path / "desk")]
    assert _cli(capsys, *desk, "office", "init")[0] == 0
    with psycopg.connect(pg_database) as conn:
        conn.execute("UPDATE meta SET value = '999' WHERE key = 'schema_version'")
    status, _, err = _cli(capsys, *desk, "parcels")
    assert status == 2 and "written by a newer version" in err and err.count("\n") == 1


def test_settings_files_used_at_one_desk_are_every_desks(
        pg_database: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The letters' wording made the office's at one desk is what a second desk, with a
    folder of its own, prints with; the file is kept in the office database."""
    from inspector_app.paths import resource

    a = ["--database", pg_database, "--data-dir", str(tmp_path / "desk-a")]
    b = ["--database", pg_database, "--data-dir", str(tmp_path / "desk-b")]
    assert _cli(capsys, *a, "office", "init")[0] == 0
    wording = tmp_path / "wording.toml"
    wording.write_bytes(resource("letters", "templates.toml").read_bytes()
                        + b"\n# the office's own copy\n")
    status, _, err = _cli(capsys, *a, "wording", "use", str(wording))
    assert status == 0, err
    assert _cli(capsys, *b, "parcels")[0] == 0
    assert (tmp_path / "desk-b" / "letter-templates.toml").read_bytes() == wording.read_bytes()
    with psycopg.connect(pg_database) as conn:
        assert conn.execute("SELECT path, content FROM office_files").fetchall() == [
            ("letter-templates.toml", wording.read_bytes())]
    # a desk's stale copy is brought back to the office's when it opens the office
    (tmp_path / "desk-b" / "letter-templates.toml").write_text("changed by hand", "utf-8")
    assert _cli(capsys, *b, "parcels")[0] == 0
    assert (tmp_path / "desk-b" / "letter-templates.toml").read_bytes() == wording.read_bytes()


def test_a_basemap_at_an_office_is_a_reference_every_desk_reads(
        pg_database: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.geo.raster_helpers import write_geotiff

    a = ["--database", pg_database, "--data-dir", str(tmp_path / "desk-a")]
    b = ["--database", pg_database, "--data-dir", str(tmp_path / "desk-b")]
    assert _cli(capsys, *a, "office", "init")[0] == 0
    (tmp_path / "shared-drive").mkdir()
    image = write_geotiff(tmp_path / "shared-drive" / "aerial.tif")
    status, _, err = _cli(capsys, *a, "basemap", "import", str(image), "--name", "2025 aerial",
                          "--copy")
    assert status == 2 and "kept as a reference" in err and err.count("\n") == 1
    assert not any((tmp_path / "desk-a").rglob("*.tif"))
    status, _, err = _cli(capsys, *a, "basemap", "import", str(image), "--name",
                             "2025 aerial")
    assert status == 0, err
    status, listed, _ = _cli(capsys, *b, "basemap", "list")
    assert status == 0 and [(m["name"], m["storage"]) for m in listed["basemaps"]] == [
        ("2025 aerial", "reference")]


def test_a_settings_file_put_into_a_desks_folder_by_hand_is_moved_aside_not_deleted(
        pg_database: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    desk = ["--database", pg_database, "--data-dir", str(tmp_path / "desk")]
    assert _cli(capsys, *desk, "office", "init")[0] == 0
    own = tmp_path / "desk" / "office.toml"
    own.write_text("# typed here by hand\n", "utf-8")
    assert _cli(capsys, *desk, "parcels")[0] == 0
    assert not own.exists()
    aside = tmp_path / "desk" / "backups" / "settings-not-the-office's" / "office.toml"
    assert aside.read_text("utf-8") == "# typed here by hand\n"
