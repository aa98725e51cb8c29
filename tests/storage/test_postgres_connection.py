"""The office database's connection as the storage holds it."""

from __future__ import annotations

from inspector_app.storage import postgres


def test_a_connection_has_the_servers_jit_compilation_off(pg_database: str) -> None:
    conn = postgres.Connection(pg_database)
    try:
        assert conn.execute_native("SHOW jit").fetchone() == ("off",)
        # and a statement's columns are read as often as they are asked for
        cur = conn.execute("SELECT 1 AS a, 'x' AS rowid, 2 AS b")
        assert [d[0] for d in cur.description] == ["a", "b"]
        assert [d[0] for d in cur.description] == ["a", "b"]
        assert cur.fetchall() == [(1, 2)]
    finally:
        conn.close()
