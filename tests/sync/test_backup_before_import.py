"""Sync imports that fail again and again leave one backup of the data before them, and
never rotate out the daily backups."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from inspector_app.services import exchange as sync
from inspector_app.services.exchange import incoming
from inspector_app.storage.database import DAILY_BACKUPS_KEPT, backup, list_backups, pool_of
from inspector_app.sync.package import PackageError

from .conftest import Pair

NOW = datetime(2026, 11, 25, 9, 0, tzinfo=UTC)


# the data folder's backups of its SQLite file
@pytest.mark.sqlite_only
def test_failed_sync_imports_leave_one_backup_and_keep_the_daily_ones(
        pair: Pair, monkeypatch: pytest.MonkeyPatch) -> None:
    office = pair.office
    folder = office.folder.backups
    for n in range(DAILY_BACKUPS_KEPT):
        backup(office.store.conn, folder, reason="daily", now=NOW - timedelta(days=n + 1))
    daily = [p for p in list_backups(folder) if pool_of(p) == "daily"]
    pair.edit(pair.field, pair.sbls[0], lambda d: d["dwelling"].update(bedrooms=5))
    package = pair.tmp / "up.zip"
    sync.export(pair.field, package)

    def broken(*args: object, **kwargs: object) -> None:
        raise PackageError("the disk was unplugged")

    monkeypatch.setattr(incoming, "_apply", broken)
    for _ in range(12):
        with pytest.raises(PackageError):
            sync.import_package(office, package)
    monkeypatch.undo()
    assert [p for p in list_backups(folder) if pool_of(p) == "daily"] == daily
    before = [p for p in list_backups(folder) if "before-sync-import" in p.name]
    assert len(before) == 1
    assert sync.import_package(office, package)["applied"] >= 1
