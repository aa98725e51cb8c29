"""The storage's SQLite statements in PostgreSQL's words (`storage/dialect.py`), as text:
what each translation makes of the statements the storage says."""

from __future__ import annotations

from inspector_app.storage import dialect


def test_a_subquery_in_from_without_a_name_gets_one() -> None:
    # sync_log.gaps: PostgreSQL 15 refuses a subquery in FROM that has no name
    said = dialect.statement(
        "SELECT 1, * FROM (SELECT first, last FROM r ORDER BY first LIMIT 100) ORDER BY 1, 2")
    assert said == ("SELECT 1, * FROM (SELECT first, last FROM r ORDER BY first LIMIT 100) "
                    "AS subquery_1 ORDER BY 1, 2")


def test_nested_and_joined_subqueries_get_names_of_their_own() -> None:
    said = dialect.statement(
        "SELECT * FROM (SELECT a FROM (SELECT 1 AS a)) JOIN (SELECT 2 AS b) ON true")
    assert said == ("SELECT * FROM (SELECT a FROM (SELECT 1 AS a) AS subquery_1) AS subquery_2"
                    " JOIN (SELECT 2 AS b) AS subquery_3 ON true")


def test_a_named_subquery_and_a_subquery_as_a_value_are_left_alone() -> None:
    for sql in ("SELECT * FROM (SELECT 1 AS a) AS one",
                "SELECT * FROM (SELECT 1 AS a) one WHERE a = 1",
                "SELECT (SELECT max(seq) FROM change_log) FROM meta",
                "SELECT * FROM parcels WHERE id IN (SELECT parcel_id FROM inspections)"):
        assert dialect.statement(sql) == sql


def test_a_subquery_written_inside_a_text_value_is_not_code() -> None:
    sql = "SELECT * FROM notes WHERE body = 'FROM (SELECT 1)'"
    assert dialect.statement(sql) == sql


def test_typeof_says_a_columns_type_in_sqlites_words() -> None:
    said = dialect.statement("SELECT typeof(bedrooms) AS t FROM dwellings WHERE id = ?")
    assert said == (
        "SELECT CASE WHEN (bedrooms) IS NULL THEN 'null' "
        "WHEN pg_typeof(bedrooms) IN ('bigint'::regtype, 'integer'::regtype, "
        "'smallint'::regtype, 'boolean'::regtype) THEN 'integer' "
        "WHEN pg_typeof(bedrooms) IN ('double precision'::regtype, 'real'::regtype, "
        "'numeric'::regtype) THEN 'real' "
        "WHEN pg_typeof(bedrooms) = 'bytea'::regtype THEN 'blob' ELSE 'text' END "
        "AS t FROM dwellings WHERE id = %s")


def test_where_1_is_where_true_and_a_comparison_with_1_is_left_alone() -> None:
    assert dialect.statement("SELECT * FROM attestations WHERE 1") == (
        "SELECT * FROM attestations WHERE true")
    assert dialect.statement("SELECT * FROM t WHERE 1 ORDER BY rowid") == (
        "SELECT * FROM t WHERE true ORDER BY rowid")
    for sql in ("SELECT * FROM t WHERE 1 = n", "SELECT * FROM t WHERE 10 > n",
                "SELECT * FROM t WHERE 1.5 < n"):
        assert dialect.statement(sql) == sql
