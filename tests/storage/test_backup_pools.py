"""Backups before imports and migrations never rotate out the daily ones, and an import
tried again and again on unchanged data does not pile up identical copies."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from inspector_app.services.workspace import Workspace
from inspector_app.storage import database
from inspector_app.storage.database import (
    DAILY_BACKUPS_KEPT,
    EVENT_BACKUPS_KEPT,
    backup,
    list_backups,
    open_database,
    pool_of,
)

NOW = datetime(2026, 11, 25, 9, 0, tzinfo=UTC)


def _daily(folder: Path) -> list[Path]:
    return [p for p in list_backups(folder) if pool_of(p) == "daily"]


def test_event_backups_do_not_rotate_out_the_daily_ones(tmp_path: Path) -> None:
    path, backups = tmp_path / "inspector.sqlite", tmp_path / "backups"
    open_database(path, backups=backups, now=lambda: NOW).conn.close()
    moment = NOW
    for _ in range(DAILY_BACKUPS_KEPT):
        moment += timedelta(days=1)
        open_database(path, backups=backups, now=lambda m=moment: m).conn.close()
    daily = _daily(backups)
    assert len(daily) == DAILY_BACKUPS_KEPT
    conn = open_database(path, backups=backups, now=lambda: moment).conn
    for n in range(3 * EVENT_BACKUPS_KEPT):
        conn.execute("INSERT INTO meta (key, value) VALUES (?, ?)", (f"k{n}", "v"))
        backup(conn, backups, reason="before-sync-import",
               now=moment + timedelta(minutes=n + 1))
    conn.close()
    assert _daily(backups) == daily
    events = [p for p in list_backups(backups) if pool_of(p) == "event"]
    assert len(events) == EVENT_BACKUPS_KEPT
    newest = sqlite3.connect(events[-1])
    assert newest.execute("SELECT count(*) FROM meta WHERE key LIKE 'k%'").fetchone()[0] == (
        3 * EVENT_BACKUPS_KEPT)


def test_the_same_data_is_backed_up_once_before_imports(tmp_path: Path) -> None:
    path, backups = tmp_path / "inspector.sqlite", tmp_path / "backups"
    conn = open_database(path, backups=backups, now=lambda: NOW).conn
    first = backup(conn, backups, reason="before-sync-import", now=NOW)
    for n in range(1, 10):
        again = backup(conn, backups, reason="before-sync-import",
                       now=NOW + timedelta(minutes=n))
        assert again == first
    conn.execute("INSERT INTO meta (key, value) VALUES ('changed', 'yes')")
    changed = backup(conn, backups, reason="before-case-import",
                     now=NOW + timedelta(hours=1))
    assert changed != first
    assert [p for p in list_backups(backups) if pool_of(p) == "event"] == [first, changed]
    assert not list(backups.glob(".*"))


# the data folder's backups of its SQLite file
@pytest.mark.sqlite_only
def test_manual_backups_do_not_rotate_out_the_daily_ones(tmp_path: Path) -> None:
    with Workspace(tmp_path / "data", user="k") as ws:
        daily = backup(ws.store.conn, ws.folder.backups, reason="daily", now=NOW)
        for _ in range(database.MANUAL_BACKUPS_KEPT + 3):
            ws.store.backup_now("manual")
        assert daily in list_backups(ws.folder.backups)
        manual = [p for p in list_backups(ws.folder.backups) if pool_of(p) == "manual"]
        assert len(manual) == database.MANUAL_BACKUPS_KEPT
