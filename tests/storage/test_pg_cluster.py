"""The throwaway PostgreSQL cluster the tests run the office database on (tests/pg_cluster.py,
the fixtures `pg_cluster` and `pg_database` in tests/conftest.py)."""

from __future__ import annotations

import os
import pwd
import tempfile
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg import sql

from tests import pg_cluster as clusters
from tests.pg_cluster import Cluster


def _owner(path: Path) -> str:
    return pwd.getpwuid(path.stat().st_uid).pw_name


def _process_user(pid: int) -> str:
    status = Path(f"/proc/{pid}/status").read_text("utf-8")
    real_uid = next(line.split()[1] for line in status.splitlines() if line.startswith("Uid:"))
    return pwd.getpwuid(int(real_uid)).pw_name


def test_the_server_runs_as_the_postgres_user_when_we_are_root(pg_cluster: Cluster) -> None:
    me = pwd.getpwuid(os.geteuid()).pw_name
    expected = "postgres" if os.geteuid() == 0 else me
    assert pg_cluster.superuser == expected
    assert _process_user(pg_cluster.process.pid) == expected
    assert _owner(pg_cluster.data_dir) == expected
    assert _owner(pg_cluster.socket_dir) == expected
    with pg_cluster.connect() as conn:
        user, superuser = conn.execute(
            "SELECT current_user, rolsuper FROM pg_roles WHERE rolname = current_user"
        ).fetchone() or ("", False)
    assert (user, superuser) == (expected, True)


def test_the_server_listens_on_its_own_short_socket_only(pg_cluster: Cluster) -> None:
    socket = pg_cluster.socket_dir / f".s.PGSQL.{pg_cluster.port}"
    assert socket.is_socket()
    assert len(str(socket)) < 100
    assert pg_cluster.socket_dir.parent == Path("/tmp")
    assert f"host={pg_cluster.socket_dir}" in pg_cluster.url("postgres")
    with pg_cluster.connect() as conn:
        settings: dict[str, str] = dict(conn.execute(
            "SELECT name, setting FROM pg_settings WHERE name IN "
            "('listen_addresses', 'fsync', 'server_encoding', 'lc_collate')").fetchall())
    assert settings == {"listen_addresses": "", "fsync": "off", "server_encoding": "UTF8",
                        "lc_collate": "C"}
    with pg_cluster.connect() as conn:
        rules = conn.execute("SELECT type, database, user_name, auth_method "
                             "FROM pg_hba_file_rules").fetchall()
    assert rules == [("local", ["all"], ["all"], "trust")]  # the socket only, no TCP rule


def test_a_database_is_utf8_with_byte_order_and_postgis_answers(pg_database: str) -> None:
    with psycopg.connect(pg_database) as conn:
        encoding, collate, ctype = conn.execute(
            "SELECT pg_encoding_to_char(encoding), datcollate, datctype FROM pg_database "
            "WHERE datname = current_database()").fetchone() or ("", "", "")
        assert (encoding, collate, ctype) == ("UTF8", "C", "C")
        version = (conn.execute("SELECT postgis_version()").fetchone() or ("",))[0]
        assert version.startswith("3.")
        # a real calculation: two points in EPSG:2261 (feet) 3 and 4 feet apart -> 5
        distance = (conn.execute(
            "SELECT ST_Distance(ST_SetSRID(ST_MakePoint(0, 0), 2261), "
            "ST_SetSRID(ST_MakePoint(3, 4), 2261))").fetchone() or (0,))[0]
        assert distance == 5.0
        # text sorts by bytes, as SQLite sorts it
        words = [row[0] for row in conn.execute(
            "SELECT w FROM (VALUES ('b'), ('B'), ('a'), ('_'), ('é')) AS t(w) ORDER BY w")]
        assert words == ["B", "_", "a", "b", "é"]


def test_two_databases_are_independent(pg_cluster: Cluster) -> None:
    first, second = "independent_a", "independent_b"
    urls = [pg_cluster.create_database(name) for name in (first, second)]
    try:
        with psycopg.connect(urls[0]) as conn:
            conn.execute("CREATE TABLE parcels (sbl text PRIMARY KEY)")
            conn.execute("INSERT INTO parcels VALUES ('900.01-1-7')")
        with psycopg.connect(urls[1]) as conn:
            assert conn.execute("SELECT to_regclass('parcels')").fetchone() == (None,)
            conn.execute("CREATE TABLE parcels (sbl text PRIMARY KEY)")
            assert conn.execute("SELECT count(*) FROM parcels").fetchone() == (0,)
        with psycopg.connect(urls[0]) as conn:
            assert conn.execute("SELECT sbl FROM parcels").fetchall() == [("900.01-1-7",)]
    finally:
        for name in (first, second):
            pg_cluster.drop_database(name)
    with pg_cluster.connect() as conn:
        assert conn.execute("SELECT count(*) FROM pg_database WHERE datname IN (%s, %s)",
                            (first, second)).fetchone() == (0,)


def test_a_new_login_role_connects_through_the_socket_without_a_password(
        pg_cluster: Cluster, pg_database: str) -> None:
    dbname = pg_database.split("?")[0].rsplit("/", 1)[1]
    role = "k.olmsted"  # a name that needs quoting, as desks' names may
    with pg_cluster.connect() as conn:
        conn.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(role)))
    try:
        assert "k.olmsted@" in pg_cluster.url(dbname, user=role)
        with psycopg.connect(pg_cluster.url(dbname, user=role), autocommit=True) as conn:
            assert conn.execute("SELECT current_user, current_database()").fetchone() == (
                role, dbname)
            # not the superuser: a role made with LOGIN alone may not create a database
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute("CREATE DATABASE not_allowed")
    finally:
        with pg_cluster.connect() as conn:
            conn.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(role)))


def test_a_dropped_database_is_gone(pg_cluster: Cluster) -> None:
    pg_cluster.create_database("dropped", postgis=False)
    pg_cluster.drop_database("dropped")
    with pytest.raises(psycopg.OperationalError, match='database "dropped" does not exist'):
        psycopg.connect(pg_cluster.url("dropped")).close()


def test_a_cluster_stops_and_leaves_no_directory(tmp_path: Path) -> None:
    cluster = clusters.start(tmp_path)
    url = cluster.url("postgres")
    session = psycopg.connect(url)  # a session still open: the fast shutdown ends it
    assert cluster.data_dir.is_dir() and cluster.socket_dir.is_dir()
    cluster.stop()
    assert cluster.process.returncode == 0
    assert not cluster.data_dir.exists() and not cluster.socket_dir.exists()
    assert "database system is shut down" in cluster.log_tail()
    with pytest.raises(psycopg.OperationalError):
        session.execute("SELECT 1")
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(url).close()


def test_clusters_started_together_are_apart(tmp_path: Path, pg_cluster: Cluster) -> None:
    other = clusters.start(tmp_path)
    try:
        assert (other.port, other.socket_dir, other.data_dir) != (
            pg_cluster.port, pg_cluster.socket_dir, pg_cluster.data_dir)
        with other.connect() as conn:
            conn.execute("CREATE DATABASE only_here")
        with pg_cluster.connect() as conn:
            assert conn.execute("SELECT count(*) FROM pg_database WHERE datname = "
                                "'only_here'").fetchone() == (0,)
    finally:
        other.stop()


def test_a_server_that_exits_early_is_reported_with_its_log(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    made: list[Path] = []
    real_mkdtemp = tempfile.mkdtemp

    def recording_mkdtemp(*args: Any, **kwargs: Any) -> str:
        made.append(Path(real_mkdtemp(*args, **kwargs)))
        return str(made[-1])

    monkeypatch.setattr(tempfile, "mkdtemp", recording_mkdtemp)
    with pytest.raises(clusters.ClusterError) as raised:
        clusters.start(tmp_path, settings={"shared_buffers": "lots"})
    message = str(raised.value)
    assert "exited with status" in message
    assert 'invalid value for parameter "shared_buffers": "lots"' in message
    assert len(made) == 2 and not any(path.exists() for path in made)


def test_without_server_programs_it_says_to_run_the_setup_script(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(clusters, "SERVER_ROOT", tmp_path / "no-postgresql")
    monkeypatch.setenv("PATH", str(tmp_path / "no-bin"))
    with pytest.raises(clusters.ClusterError) as raised:
        clusters.start(tmp_path / "base")
    assert str(raised.value) == (
        "No PostgreSQL server programs (initdb, postgres) were found; run "
        "`sh scripts/setup.sh --test` to install PostgreSQL and PostGIS for the tests.")


def test_the_newest_installed_server_is_chosen_without_pg_config(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for major in ("9", "15", "16", "bin-not-a-version"):
        bindir = tmp_path / major / "bin"
        bindir.mkdir(parents=True)
        if major != "16":  # 16 lacks its server: not a candidate
            for program in ("initdb", "postgres"):
                (bindir / program).write_text("")
    (tmp_path / "16" / "bin" / "initdb").write_text("")
    monkeypatch.setattr(clusters, "SERVER_ROOT", tmp_path)
    monkeypatch.setenv("PATH", str(tmp_path / "no-bin"))
    assert clusters.server_bindir() == tmp_path / "15" / "bin"


def test_an_older_server_is_refused_in_one_sentence(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    bindir = tmp_path / "14" / "bin"
    bindir.mkdir(parents=True)
    for program in ("initdb", "postgres"):
        (bindir / program).write_text("#!/bin/sh\necho 'postgres (PostgreSQL) 14.9'\n")
        (bindir / program).chmod(0o755)
    monkeypatch.setattr(clusters, "SERVER_ROOT", tmp_path)
    monkeypatch.setenv("PATH", str(tmp_path / "no-bin"))
    with pytest.raises(clusters.ClusterError) as raised:
        clusters.start(tmp_path / "base")
    assert str(raised.value) == (
        f"The PostgreSQL server in {bindir} is version 14, and the office database needs 15 "
        "or newer; run `sh scripts/setup.sh --test` to install PostgreSQL and PostGIS for "
        "the tests.")
