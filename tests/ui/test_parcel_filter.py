"""The parcel list as shown: text search, work list, header order, and the selection kept."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtWidgets import QApplication, QTableView

from inspector_app.ui.parcel_list import ROW_ROLE, ParcelFilter, ParcelTableModel


@pytest.fixture(scope="module")
def app() -> QApplication:
    return QApplication.instance() or QApplication([])


def _rows() -> list[dict[str, Any]]:
    return [
        {"sbl": "900.02-1-10", "site_address": "12 West Lake Rd", "owner_name": "Ann Zeller",
         "municipality": "Town of Canandaigua", "outcome": "failure", "zone": "within",
         "flags": {"failure": True}},
        {"sbl": "900.02-1-9", "site_address": "3 East Lake Rd", "owner_name": "Bo Young",
         "municipality": "Town of Canandaigua", "outcome": "acceptable", "zone": "beyond",
         "flags": {"failure": False}},
        {"sbl": "900.01-1-1", "site_address": "40 West Lake Rd", "owner_name": "Cy Xu",
         "municipality": "Town of Gorham", "outcome": "substandard", "zone": "within",
         "flags": {}},
    ]


def _shown(proxy: ParcelFilter) -> list[str]:
    return [proxy.index(r, 0).data(ROW_ROLE)["sbl"] for r in range(proxy.rowCount())]


def _made(app: QApplication) -> tuple[ParcelTableModel, ParcelFilter, QTableView]:
    model = ParcelTableModel([])
    proxy = ParcelFilter()
    proxy.setSourceModel(model)
    view = QTableView()
    view.setModel(proxy)
    model.replace(_rows())
    return model, proxy, view


def test_text_and_work_list_filter_together_in_listed_order(app: QApplication) -> None:
    model, proxy, _ = _made(app)
    assert _shown(proxy) == ["900.02-1-10", "900.02-1-9", "900.01-1-1"]  # as listed
    proxy.set_text("  WEST lake ")
    assert _shown(proxy) == ["900.02-1-10", "900.01-1-1"]
    proxy.set_work_list("failure")
    assert _shown(proxy) == ["900.02-1-10"]
    proxy.set_text("")
    assert _shown(proxy) == ["900.02-1-10"]
    proxy.set_work_list("all")
    assert proxy.rowCount() == 3 and proxy.row_of("900.01-1-1") == 2
    proxy.set_text("young")
    assert proxy.row_of("900.01-1-1") is None and proxy.row_of("900.02-1-9") == 0
    model.replace([*_rows()[:1], dict(_rows()[1], owner_name="Bo Younger")])
    assert _shown(proxy) == ["900.02-1-9"]  # new rows, the same search


def test_a_header_orders_the_rows_and_the_selection_stays(app: QApplication) -> None:
    _, proxy, view = _made(app)
    view.selectionModel().setCurrentIndex(
        proxy.index(1, 0), QItemSelectionModel.SelectionFlag.ClearAndSelect
        | QItemSelectionModel.SelectionFlag.Rows)
    proxy.sort(0)
    assert _shown(proxy) == ["900.01-1-1", "900.02-1-9", "900.02-1-10"]  # tax-map order
    assert view.selectionModel().currentIndex().data(ROW_ROLE)["sbl"] == "900.02-1-9"
    assert view.selectionModel().currentIndex().row() == 1
    proxy.sort(2)  # owner, A to Z
    assert [proxy.index(r, 2).data() for r in range(3)] == ["Ann Zeller", "Bo Young", "Cy Xu"]
    proxy.sort(4, Qt.SortOrder.DescendingOrder)  # outcome, Z to A
    assert [proxy.index(r, 4).data() for r in range(3)] == ["substandard", "failure",
                                                            "acceptable"]
    assert view.selectionModel().currentIndex().row() == 2
    proxy.sort(-1)
    assert _shown(proxy) == ["900.02-1-10", "900.02-1-9", "900.01-1-1"]
    assert view.selectionModel().currentIndex().data(ROW_ROLE)["sbl"] == "900.02-1-9"


def test_new_values_in_the_source_reach_the_row_shown(app: QApplication) -> None:
    model, proxy, _ = _made(app)
    proxy.set_text("lake")
    proxy.sort(0)
    seen: list[tuple[int, int, int, int]] = []
    proxy.dataChanged.connect(lambda a, b, *_: seen.append((a.row(), a.column(), b.row(),
                                                            b.column())))
    model.rows[0]["outcome"] = "acceptable"  # 900.02-1-10, shown last in tax-map order
    model.dataChanged.emit(model.index(0, 4), model.index(0, 5))
    assert seen == [(2, 4, 2, 5)]
    assert proxy.index(2, 4).data() == "acceptable"
    proxy.set_text("young")
    seen.clear()
    model.dataChanged.emit(model.index(0, 4), model.index(0, 5))  # a row not shown
    assert seen == []


@pytest.mark.parametrize(("stored", "typed"), [
    ("13.00-3-1", "13.-3-1"), ("13.00-3-1", "503689-13.-3-1"),
    ("13.00-3-1", "50368901300000030010000000"), ("13.-3-1", "013.00-3-001"),
    ("13.-3-1", "01300000030010000000"),
])
def test_the_search_finds_a_tax_map_number_in_any_spelling(
        app: QApplication, stored: str, typed: str) -> None:
    model, proxy, _ = _made(app)
    model.replace([*_rows(), dict(_rows()[0], sbl=stored, site_address="1 Lake Shore Dr"),
                   dict(_rows()[0], sbl="13.-4-1", site_address="2 Lake Shore Dr")])
    proxy.set_text(typed)
    assert _shown(proxy) == [stored]
    proxy.set_text("13.-3-2")  # the same section and block, another lot: none
    assert _shown(proxy) == []
