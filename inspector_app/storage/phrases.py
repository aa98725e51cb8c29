"""The findings inspectors have written down: components' defects and inspections'
evidence of failure, one phrase a line, as recorded in this data folder."""

from __future__ import annotations

import sqlite3


def recorded_findings(conn: sqlite3.Connection, *, limit: int) -> list[str]:
    """Every phrase recorded as a defect or as evidence of failure on a record still in
    force, the most used first (then in alphabetical order), at most `limit`."""
    return [r[0] for r in conn.execute(
        "SELECT phrase FROM ("
        " SELECT trim(j.value) AS phrase FROM components AS c, json_each(c.defects) AS j"
        " WHERE c.deleted_at IS NULL"
        " UNION ALL"
        " SELECT trim(j.value) FROM inspections AS i, json_each(i.failure_evidence) AS j"
        " WHERE i.deleted_at IS NULL AND i.void_reason IS NULL"
        ") AS recorded WHERE phrase <> '' GROUP BY phrase ORDER BY COUNT(*) DESC, phrase LIMIT ?",
        (limit,))]
