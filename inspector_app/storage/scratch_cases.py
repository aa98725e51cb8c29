"""A scratch database in memory with the case tables' schema, into which a state replayed
from the change log is written, so that the stored-case loader reads it exactly as it reads
the data folder (`services/parcel/inspection_history`). Nothing written here reaches the
records."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from ..domain.case import Case
from .cases import load_case
from .database import table_definitions


class ScratchCases:
    """`tables`: the tables a case is read from, made with the schema they have in `conn`
    (the data folder's or the office database's)."""

    def __init__(self, conn: Any, tables: Sequence[str]) -> None:
        self.tables = tuple(tables)
        self.conn = sqlite3.connect(":memory:")
        for sql in table_definitions(conn, self.tables):
            self.conn.execute(sql)

    def case(self, parcel_id: str, state: dict[str, list[dict[str, Any]]],
             inspection: dict[str, Any], tests: Sequence[dict[str, Any]]) -> Case:
        """The case of a replayed state with one inspection and its tests."""
        return self.load(parcel_id, {**state, "inspections": [inspection],
                                     "inspection_tests": list(tests)})

    def load(self, parcel_id: str, chosen: dict[str, list[dict[str, Any]]]) -> Case:
        """The case the rows `chosen` (by table) make, the scratch tables emptied first."""
        conn = self.conn
        for table in self.tables:
            conn.execute(f"DELETE FROM {table}")
        for table, rows in chosen.items():
            for row in rows:
                names = list(row)
                conn.execute(f"INSERT INTO {table} ({', '.join(names)}) VALUES "
                             f"({', '.join('?' * len(names))})", [row[n] for n in names])
        return load_case(conn, parcel_id)

    def close(self) -> None:
        self.conn.close()
