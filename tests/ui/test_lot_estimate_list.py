"""The parcel list shows the lot's distance to the lake as an estimate beside the zone, for
a parcel with no lake distance, and says in its tooltip what the estimate rests on."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from inspector_app.services.workspace import Workspace
from inspector_app.ui.parcel_list import COLUMNS
from tests.services.test_lot_uses import TODAY, A, C, _lots
from tests.services.test_lot_uses import ws as lot_ws  # noqa: F401  (the fixture)
from tests.ui.live import settle, threaded_window

LAKE_COLUMN = [key for key, _ in COLUMNS].index("zone")


def test_the_lake_column_says_the_lot_estimate_and_what_it_rests_on(
        lot_ws: Workspace, tmp_path: Path, qtbot: QtBot) -> None:  # noqa: F811
    _lots(lot_ws, tmp_path, accuracy_ft=1.0)
    window = threaded_window(lot_ws, tmp_path, TODAY)
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    settle(window, qtbot)
    qtbot.waitUntil(lambda: window.proxy.row_of(C) is not None
                    and "estimate" in str(window.proxy.index(window.proxy.row_of(C),
                                                             LAKE_COLUMN).data()),
                    timeout=10_000)
    cell = window.proxy.index(window.proxy.row_of(C), LAKE_COLUMN)
    assert cell.data() == "undetermined · lot within 200 ft (estimate)"
    tip = cell.data(0x03)  # Qt.ToolTipRole
    assert "10.0 ft (±1 ft) from the lake line on County lots v1" in tip
    assert "not the distance of the absorption area" in tip
    # the table's tooltip is the cell's own, even where the text fits
    rect = window.table.visualRect(cell)
    assert window.table.tooltip_at(rect.center()) == tip
    # a parcel measured on the map shows its zone alone
    measured = window.proxy.index(window.proxy.row_of(A), LAKE_COLUMN)
    assert measured.data() == "beyond 200ft" and not measured.data(0x03)
