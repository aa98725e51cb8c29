"""The office's list of a laptop's missing changes is computed as ranges and bounded,
however high a sequence number it holds."""

from __future__ import annotations

import time

from inspector_app.services import exchange as sync

from .conftest import Pair
from .test_sync import owner

HUGE = 10**12


def _received(pair: Pair, device_seq: int) -> None:
    laptop = pair.office.store.query("SELECT id FROM devices WHERE role = 'field'")[0]["id"]
    with pair.office.store.transaction():
        pair.office.store.conn.execute(
            "INSERT INTO sync_received (change_id, device_id, device_seq, package_id, outcome) "
            "VALUES (?, ?, ?, 'p', 'applied')", (f"c{device_seq}", laptop, device_seq))


def test_a_huge_sequence_number_keeps_status_and_export_fast(pair: Pair) -> None:
    for n in range(3):
        pair.edit(pair.field, pair.sbls[0], owner(f"Owner {n}"))
    assert pair.up()["gaps"] == []
    _received(pair, HUGE)
    started = time.monotonic()
    (device,) = sync.status(pair.office)["devices"]
    sync.export(pair.office, pair.tmp / "down.zip")
    assert time.monotonic() - started < 5
    assert device["received_through"] == 3
    assert device["gap_ranges"] == [[4, HUGE - 1]]
    assert device["missing_changes"] == HUGE - 4
    assert device["gaps"] == list(range(4, 4 + sync.GAPS_LISTED))


def test_many_gaps_are_listed_up_to_the_bound(pair: Pair) -> None:
    for n in range(2, 2 * (sync.GAPS_LISTED + 50), 2):  # 1, 3, 5, ... missing
        _received(pair, n)
    (device,) = sync.status(pair.office)["devices"]
    assert device["received_through"] == 0
    assert len(device["gap_ranges"]) == sync.GAPS_LISTED
    assert device["gap_ranges"][:2] == [[1, 1], [3, 3]]
    assert device["gaps"][:3] == [1, 3, 5] and len(device["gaps"]) == sync.GAPS_LISTED
    assert device["missing_changes"] == sync.GAPS_LISTED + 49
