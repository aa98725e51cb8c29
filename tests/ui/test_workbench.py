"""The desktop app's workflows, driven through real widgets on a real database."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from PySide6.QtCore import QSettings
from PySide6.QtPrintSupport import QPrinter
from PySide6.QtWidgets import QFileDialog
from pytestqt.qtbot import QtBot

from inspector_app.services import exchange as sync
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.workspace import Workspace
from inspector_app.ui.dialogs import ConflictsDialog
from inspector_app.ui.main_window import MainWindow
from inspector_app.ui.parcel_list import ROW_ROLE
from inspector_app.ui.tasks import TaskRunner
from tests.suggestions import decide_pending

TODAY = date(2026, 11, 25)
# Screenshots go to a temporary folder; to refresh the user guide's pictures run
#   INSPECTOR_APP_SCREENSHOTS=docs/screenshots pytest tests/ui -k screenshots
SHOTS_ENV = "INSPECTOR_APP_SCREENSHOTS"


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path) -> Iterator[MainWindow]:
    ws = Workspace(tmp_path / "data", user="k.olmsted")
    install_demo(ws, today=TODAY)
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(ws, runner=TaskRunner(synchronous=True), settings=settings)
    w.ctx.as_of = TODAY
    w.refresh_overview()
    qtbot.addWidget(w)
    w.show()
    yield w
    ws.close()


def shown_rows(w: MainWindow) -> list[dict[str, Any]]:
    return [w.proxy.index(r, 0).data(ROW_ROLE) for r in range(w.proxy.rowCount())]


def test_find_a_parcel_by_work_list_and_search(window: MainWindow, qtbot: QtBot) -> None:
    window.work_list.setCurrentIndex(window.work_list.findData("failure"))
    failures = shown_rows(window)
    assert failures and all(r["outcome"] == "failure" for r in failures)
    window.work_list.setCurrentIndex(window.work_list.findData("etu"))
    assert shown_rows(window) and all(r["flags"]["etu"] for r in shown_rows(window))
    window.work_list.setCurrentIndex(window.work_list.findData("all"))
    name = window.model.rows[9]["owner_name"].split()[1]
    qtbot.keyClicks(window.search, name)
    assert all(name in r["owner_name"] for r in shown_rows(window))
    assert window.count.text() == f"{len(shown_rows(window))} of 40 parcels shown"


def test_recording_an_inspection_saves_as_you_go_with_undo(window: MainWindow,
                                                           qtbot: QtBot) -> None:
    window.select("900.01-1-3")
    assert window.sbl == "900.01-1-3"
    before = window.workspace.load_case("900.01-1-3").parcel.owner_name
    window.form.owner_name.setText("Renamed Owner")
    window.form.owner_name.editingFinished.emit()
    assert window.workspace.load_case("900.01-1-3").parcel.owner_name == "Renamed Owner"
    last = window.workspace.history("900.01-1-3")[-1]
    assert (last["field"], last["old_value"], last["new_value"], last["user"]) == (
        "owner_name", before, "Renamed Owner", "k.olmsted")
    assert window.history.change_text(0) == f"Owner: {before} -> Renamed Owner"
    window.undo_stack.undo()
    assert window.workspace.load_case("900.01-1-3").parcel.owner_name == before
    assert window.form.owner_name.text() == before
    window.undo_stack.redo()
    assert window.workspace.load_case("900.01-1-3").parcel.owner_name == "Renamed Owner"


def test_the_evaluation_changes_as_the_inspector_records(window: MainWindow) -> None:
    window.select("900.01-1-3")
    assert "FAILURE" not in window.evaluation.toPlainText()
    window.form.components.selectRow(2)  # the absorption area
    condition = window.form.detail_widgets["condition"]
    condition.setCurrentIndex(condition.findData("failed"))
    condition.activated.emit(condition.currentIndex())
    text = window.evaluation.toPlainText()
    assert "Outcome: FAILURE" in text and "§ 202-5 C" in text
    assert "notice of violation" in text


def test_a_bad_entry_is_refused_by_name_and_nothing_is_saved(window: MainWindow) -> None:
    window.select("900.01-1-8")
    versions = window.workspace.case_version("900.01-1-8")
    window.form.etu_inspections.setPlainText("2027-01-01, ")
    window.form.etu_inspections.finished.emit()
    assert window.problem.isVisibleTo(window)
    assert ("ETU inspection 1, date: 2027-01-01, which is after today"
            in window.problem.text())
    assert window.workspace.case_version("900.01-1-8") == versions


def test_draw_an_area_and_see_the_distance(window: MainWindow) -> None:
    window.select("900.01-1-1")  # never inspected: no field measurement
    window.tabs.setCurrentIndex(1)
    x0, y0, x1, y1 = window.site.scene.sceneRect().getCoords()
    cx, cy = (x0 + x1) / 2, -(y0 + y1) / 2
    window.site.area_drawn.emit([(cx - 20, cy - 30), (cx + 20, cy - 30), (cx + 20, cy + 30),
                                 (cx - 20, cy + 30)])
    case = window.workspace.load_case("900.01-1-1")
    assert case.site.absorption_area["type"] == "Polygon"
    assert case.site.absorption_area_capture.method.value == "sketch"
    assert "ft to the lake line (map, ±1,500 ft)" in window.site.distance_label
    assert "by map on Natural Earth" in window.evaluation.toPlainText()
    assert "Shoreline: Natural Earth" in window.site.layer.text()


def test_issue_preview_and_print_a_letter_to_a_file(window: MainWindow, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtWidgets import QMessageBox

    decide_pending(window.workspace, "900.01-1-7", as_of=TODAY)
    window.select("900.01-1-7")
    window.tabs.setCurrentIndex(2)
    window.letters.preview_draft()
    assert window.letters.images and "DRAFT" in window.letters.caption.text()
    monkeypatch.setattr(QMessageBox, "question",  # "Issue this letter?" answered Yes
                        lambda *a, **k: QMessageBox.StandardButton.Yes)
    window.letters.issue()
    assert window.letters.register.count() == 1
    window.letters.register.setCurrentRow(0)
    assert window.letters.caption.text().startswith("Issued letter")
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(tmp_path / "printed.pdf"))
    assert window.letters.print_current(printer)
    assert len(PdfReader(tmp_path / "printed.pdf").pages) == len(window.letters.images)
    opened: list[Any] = []
    window.letters.opener = opened.append  # the system viewer is a boundary
    window.letters.open_current()
    assert opened and opened[0].toLocalFile().endswith(".pdf")


def test_sync_export_import_and_conflict_resolution(window: MainWindow, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    office = window.workspace
    sbl = "900.01-1-2"
    sync.enroll(office, "laptop", tmp_path / "kit.zip", [sbl], passphrase="kit passphrase 1")
    sync.join(tmp_path / "field", tmp_path / "kit.zip", user="r.vance",
              passphrase="kit passphrase 1")
    field = Workspace(tmp_path / "field", user="r.vance")
    try:
        from tests.sync.conftest import Pair

        pair = Pair(office, field, tmp_path, [sbl])
        pair.edit(field, sbl, lambda d: d["parcel"].__setitem__("owner_name", "From the field"))
        sync.export(field, tmp_path / "up.zip")
    finally:
        field.close()
    window.select(sbl)
    window.form.owner_name.setText("From the office")
    window.form.owner_name.editingFinished.emit()
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        lambda *a, **k: (str(tmp_path / "up.zip"), ""))
    window.menus.sync.import_package()
    assert "1 conflict(s) need a decision" in window.message.text()
    dialog = ConflictsDialog(window.ctx, window)
    assert dialog.table.rowCount() == 1
    import os

    if os.environ.get(SHOTS_ENV):  # the user guide's picture of this screen
        dialog.resize(900, 300)
        dialog.grab().save(str(Path(os.environ[SHOTS_ENV]) / "sync-conflicts.png"))
    assert (dialog.table.item(0, 2).text(), dialog.table.item(0, 3).text()) == (
        "From the office", "From the field")
    dialog.resolve("take_incoming")
    assert dialog.table.rowCount() == 0
    assert office.load_case(sbl).parcel.owner_name == "From the field"
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda *a, **k: (str(tmp_path / "down.zip"), ""))
    window.menus.sync.export_package()
    assert (tmp_path / "down.zip").exists() and "Exported" in window.message.text()


def test_reopens_where_the_user_left_off(qtbot: QtBot, tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "data", user="k.olmsted")
    install_demo(ws, count=5, today=TODAY)
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    first = MainWindow(ws, runner=TaskRunner(synchronous=True), settings=settings)
    qtbot.addWidget(first)
    first.select("900.01-1-4")
    first.tabs.setCurrentIndex(3)
    first.close()
    second = MainWindow(ws, runner=TaskRunner(synchronous=True), settings=settings)
    qtbot.addWidget(second)
    assert second.sbl == "900.01-1-4" and second.tabs.currentIndex() == 3
    ws.close()


def test_screenshots_of_the_main_screens(window: MainWindow, qtbot: QtBot,
                                         tmp_path: Path) -> None:
    """Every main screen rendered; look at them after UI changes."""
    import os

    shots = Path(os.environ.get(SHOTS_ENV) or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    window.resize(1540, 860)
    window.select("900.01-1-7")
    for index, name in enumerate(("inspection-form", "site-map", "letters", "photos",
                                  "history")):
        window.tabs.setCurrentIndex(index)
        if name == "letters":
            window.letters.preview_draft()
        qtbot.wait(100)  # let the layouts settle, as a person's eye would
        image = window.grab()
        assert image.width() > 800
        assert image.save(str(shots / f"{name}.png"))


def test_importing_a_shoreline_layer_replaces_the_coarse_warning(
        window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from inspector_app.ui import imports
    from tests.geo.helpers import lake_with_island, write_wgs84

    assert window.layer_warning.isVisibleTo(window)
    assert "±1,500 ft" in window.layer_warning.text()
    lake = write_wgs84(tmp_path / "lake.geojson", [lake_with_island()])
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(lake), ""))
    monkeypatch.setattr(imports, "ask_shoreline_layer",
                        lambda _path, _parent: ("County contour", 3.0))
    window.menus.file.import_layer()
    assert not window.layer_warning.isVisibleTo(window)
    assert "County contour v1 (±3 ft)" in window.layer_label.text()
    window.menus.file.measure_all()
    assert "Measured" in window.message.text()


def test_renters_and_a_well_drawn_on_the_map(window: MainWindow) -> None:
    window.select("900.01-1-5")
    window.form.renters.setPlainText("Maria Castellano | 12 Shore Lane | Naples, NY 14512")
    window.form.renters.finished.emit()
    (renter,) = window.workspace.load_case("900.01-1-5").parcel.renters
    assert (renter.name, renter.mailing_address) == ("Maria Castellano",
                                                    ("12 Shore Lane", "Naples, NY 14512"))
    window.tabs.setCurrentIndex(1)
    window.site.target.setCurrentIndex(window.site.target.findData("well"))
    area = window.workspace.load_case("900.01-1-5").site.absorption_area
    from inspector_app.geo.vector_files import geometry_from_lonlat

    box = geometry_from_lonlat(area, "test")
    window.site.draw.setChecked(True)
    window.site._add_point(box.bounds[2] + 60, box.bounds[1])  # one click places a well
    wells = [f for f in window.workspace.load_case("900.01-1-5").site.features
             if f.kind.value == "well"]
    assert len(wells) == 1
    assert "absorption area: 60.0 ft from the well" in window.evaluation.toPlainText()


def test_a_gps_device_places_a_well(window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    import os
    import threading
    import time

    from PySide6.QtWidgets import QInputDialog

    from tests.geo.nmea import noisy_log

    window.select("900.01-1-6")
    case = window.workspace.load_case("900.01-1-6")
    lon, lat = case.parcel.longitude, case.parcel.latitude
    controller, device = os.openpty()
    lines = noisy_log(lon, lat, 40, jitter_deg=0.000002)

    def feed() -> None:
        for line in lines:
            os.write(controller, (line + "\r\n").encode())
            time.sleep(0.01)

    threading.Thread(target=feed, daemon=True).start()
    window.site.target.setCurrentIndex(window.site.target.findData("well"))
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: (os.ttyname(device), True))
    from inspector_app.services.parcel import site as site_service

    original = site_service.set_from_gps_device
    monkeypatch.setattr(site_service, "set_from_gps_device",
                        lambda *a, **k: original(*a, **{**k, "seconds": 0.6}))
    window.workbench.site_edits.gps_device()
    os.close(controller)
    os.close(device)
    wells = [f for f in window.workspace.load_case("900.01-1-6").site.features
             if f.kind.value == "well"]
    assert len(wells) == 1 and wells[0].capture_method.value == "gps"
    assert wells[0].capture_accuracy_ft is not None


def test_dragging_a_corner_edits_the_absorption_area(window: MainWindow) -> None:
    from inspector_app.geo.vector_files import geometry_from_lonlat
    from inspector_app.ui.site_map import Handle

    window.select("900.01-1-3")
    before = geometry_from_lonlat(window.workspace.load_case("900.01-1-3").site.absorption_area,
                                  "test")
    handles = [i for i in window.site.scene.items() if isinstance(i, Handle)]
    assert len(handles) == 4
    corner = next(h for h in handles if h.index == 0)
    x, y = corner.pos().x(), -corner.pos().y()
    window.site.corner_moved(0, x - 25, y)  # as a drag of 25 ft westward ends
    after = geometry_from_lonlat(window.workspace.load_case("900.01-1-3").site.absorption_area,
                                 "test")
    assert after.area != pytest.approx(before.area, abs=1)
    history = window.workspace.history("900.01-1-3")
    assert any(h["table_name"] == "site_features" and h["field"] == "geometry"
               for h in history)


def test_the_window_opens_its_data_folder_behind_itself(qtbot: QtBot, tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "data", user="k.olmsted")
    install_demo(ws, count=4, today=TODAY)
    ws.close()
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    w = MainWindow(root=tmp_path / "data", user="k.olmsted",
                   runner=TaskRunner(synchronous=True), settings=settings)
    qtbot.addWidget(w)
    assert w.model.rowCount() == 4 and w.centralWidget().isEnabled()
    assert w.workspace.store.actor.user == "k.olmsted"
    w.workspace.close()

    (tmp_path / "foreign").mkdir()
    (tmp_path / "foreign" / "inspector.sqlite").write_bytes(b"not a database" * 20)
    refused = MainWindow(root=tmp_path / "foreign", runner=TaskRunner(synchronous=True),
                         settings=settings)
    qtbot.addWidget(refused)
    assert refused.exit_status == 1
    assert "is not a Watershed Inspector database" in refused.message.text()
    assert not refused.centralWidget().isEnabled()
