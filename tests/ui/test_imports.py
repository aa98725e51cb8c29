"""File > Import aerial imagery and File > Import tax-parcel lines, as users run them (the
real worker thread): the file is imported, the open parcel's site map shows it at once, the
match report lists what did not match and why; a bad file says so and imports nothing."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import rasterio
import shapely
from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication, QDialog, QFileDialog, QMessageBox, QPushButton
from pytestqt.qtbot import QtBot
from rasterio.transform import Affine

from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.reference import basemaps
from inspector_app.services.reference.lot_lines import list_lot_layers
from inspector_app.services.workspace import Workspace
from inspector_app.ui.imports import ImageryImportDialog, LotsImportDialog
from inspector_app.ui.main_window import MainWindow
from tests.services.lot_files import write_lots
from tests.ui.live import settle, threaded_window

TODAY = date(2026, 11, 25)
PARCEL = "900.01-1-13"            # a demo parcel; its sketch is centred near (CX, CY)
CX, CY = 628676.0, 1032563.0      # EPSG:2261 feet
COLOURS = {"nw": (230, 20, 20), "ne": (20, 200, 20), "sw": (20, 20, 230),
           "se": (240, 220, 0)}


@pytest.fixture
def ws(tmp_path: Path) -> Iterator[Workspace]:
    workspace = Workspace(tmp_path / "data", user="k.olmsted")
    install_demo(workspace, today=TODAY)
    yield workspace
    workspace.close()


@pytest.fixture
def window(qtbot: QtBot, ws: Workspace, tmp_path: Path,
           monkeypatch: pytest.MonkeyPatch) -> Iterator[MainWindow]:
    warnings: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning",
                        staticmethod(lambda _parent, _title, text, *a, **k: warnings.append(text)))
    w = threaded_window(ws, tmp_path, TODAY)
    w.warnings = warnings  # type: ignore[attr-defined]
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    settle(w, qtbot)
    w.open_parcel(PARCEL)
    w.tabs.setCurrentIndex(w.tabs.indexOf(w.site))
    settle(w, qtbot)
    yield w
    settle(w, qtbot)
    w.close()


def quadrants_tif(path: Path, half: float = 400.0, pixel: float = 1.0) -> Path:
    """A GeoTIFF in EPSG:2261 around (CX, CY), each quadrant its own colour."""
    n = int(2 * half / pixel)
    bands = np.zeros((3, n, n), np.uint8)
    top, left = slice(0, n // 2), slice(0, n // 2)
    bottom, right = slice(n // 2, n), slice(n // 2, n)
    for name, (rows, cols) in {"nw": (top, left), "ne": (top, right), "sw": (bottom, left),
                               "se": (bottom, right)}.items():
        for band, value in enumerate(COLOURS[name]):
            bands[band, rows, cols] = value
    with rasterio.open(path, "w", driver="GTiff", width=n, height=n, count=3, dtype="uint8",
                       crs="EPSG:2261",
                       transform=Affine(pixel, 0, CX - half, 0, -pixel, CY + half),
                       tiled=True, blockxsize=256, blockysize=256) as dst:
        dst.write(bands)
    return path


def choose_file(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(path), "")))


def answer(monkeypatch: pytest.MonkeyPatch, dialog: type, fill: Any) -> None:
    def exec_(self: Any) -> int:
        fill(self)
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(dialog, "exec", exec_)


def nearest_colour(c: QColor) -> str:
    return min(COLOURS, key=lambda k: sum((a - b) ** 2 for a, b in zip(
        (c.red(), c.green(), c.blue()), COLOURS[k], strict=True)))


def imagery_drawn(w: MainWindow, qtbot: QtBot) -> None:
    layer = w.site.imagery
    qtbot.waitUntil(lambda: w.site.basemap_item is not None, timeout=5000)
    w.site.view.viewport().repaint()
    qtbot.waitUntil(lambda: bool(layer.cache) and layer.asked is None, timeout=5000)
    w.site.view.viewport().repaint()
    QApplication.processEvents()


def test_imported_imagery_is_drawn_in_place_on_the_open_parcel(
        window: MainWindow, qtbot: QtBot, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    tif = quadrants_tif(tmp_path / "ortho.tif")
    choose_file(monkeypatch, tif)

    def fill(d: ImageryImportDialog) -> None:
        d.name.setText("Ortho 2024")
        d.source.setText("NYS orthoimagery")
        d.dated.setChecked(True)
        d.captured.setDate(date(2024, 4, 18))
        d.copy.setChecked(True)

    answer(monkeypatch, ImageryImportDialog, fill)
    window.menus.file.import_imagery()
    settle(window, qtbot)
    imagery_drawn(window, qtbot)
    site = window.site
    assert site.imagery_caption.text().startswith(
        "Imagery: NYS orthoimagery, captured 2024-04-18")
    assert site.basemap.currentText().startswith("Ortho 2024")
    shot = site.view.grab().toImage()
    # Labels and lines cover some points: most of each quadrant shows its colour.
    for name, (sx, sy) in {"nw": (-1, 1), "ne": (1, 1), "sw": (-1, -1), "se": (1, -1)}.items():
        seen = []
        for dx in (60, 120, 180):
            for dy in (60, 120, 180):
                p = site.view.mapFromScene(QPointF(CX + sx * dx, -(CY + sy * dy)))
                seen.append(nearest_colour(shot.pixelColor(p.x(), p.y())))
        assert seen.count(name) >= 6, (name, seen)
    ref = basemaps.active_basemap(window.workspace)
    assert ref is not None and ref.name == "Ortho 2024" and ref.problem is None
    # The chooser turns the imagery off (a record, on the worker) and on again.
    site.basemap.setCurrentIndex(0)
    site.basemap.activated.emit(0)
    settle(window, qtbot)
    qtbot.waitUntil(lambda: site.basemap_item is None, timeout=5000)
    assert basemaps.active_basemap(window.workspace) is None
    site.basemap.activated.emit(site.basemap.findData(ref.id))
    settle(window, qtbot)
    imagery_drawn(window, qtbot)


def test_a_file_that_is_not_imagery_says_why_and_imports_nothing(
        window: MainWindow, qtbot: QtBot, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    bad = tmp_path / "notes.tif"
    bad.write_text("not an image")
    choose_file(monkeypatch, bad)
    answer(monkeypatch, ImageryImportDialog, lambda d: None)
    before = basemaps.list_basemaps(window.workspace)
    caption = window.site.imagery_caption.text()
    window.menus.file.import_imagery()
    settle(window, qtbot)
    assert basemaps.list_basemaps(window.workspace) == before
    assert any(str(bad) in text for text in window.warnings)  # type: ignore[attr-defined]
    assert window.site.imagery_caption.text() == caption


def test_tax_parcel_lines_import_shows_the_match_report_and_the_lot(
        window: MainWindow, qtbot: QtBot, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    lot = shapely.box(CX - 150, CY - 100, CX + 50, CY + 150)
    east = shapely.box(CX + 50, CY - 100, CX + 250, CY + 150)
    far = shapely.box(CX + 250, CY - 100, CX + 450, CY + 150)
    path = write_lots(tmp_path / "lots.gpkg", [lot, east, far],
                      [PARCEL, "900.01-1-14", "999.99-9-99"], field="PRINT_KEY")
    choose_file(monkeypatch, path)
    answer(monkeypatch, LotsImportDialog, lambda d: d.name.setText("County tax map"))
    window.menus.file.import_lot_lines()
    settle(window, qtbot)
    report = window.menus.file.lot_report
    assert report.isVisible()
    text = report.text.toPlainText()
    assert "3 feature(s) read; 2 matched to a parcel by SBL (field PRINT_KEY); 1 not " \
           "matched." in text
    assert "feature 3, SBL 999.99-9-99: no such parcel" in text
    assert report.text.isReadOnly()
    copy = next(b for b in report.findChildren(QPushButton) if "Copy" in b.text())
    copy.click()
    assert QApplication.clipboard().text() == text
    layers = list_lot_layers(window.workspace)
    assert [(x["name"], x["active"]) for x in layers][-1] == ("County tax map", True)
    assert "County tax map v1" in window.site.lot_legend.text()


def test_a_bad_lot_file_says_why_and_imports_nothing(
        window: MainWindow, qtbot: QtBot, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    bad = tmp_path / "lots.geojson"
    bad.write_text("hello")
    choose_file(monkeypatch, bad)
    answer(monkeypatch, LotsImportDialog, lambda d: None)
    before = list_lot_layers(window.workspace)
    window.menus.file.import_lot_lines()
    settle(window, qtbot)
    assert list_lot_layers(window.workspace) == before
    assert any("lots.geojson" in text for text in window.warnings)  # type: ignore[attr-defined]
    assert window.menus.file.lot_report is None


def test_the_opacity_is_remembered(window: MainWindow, qtbot: QtBot, ws: Workspace,
                                   tmp_path: Path) -> None:
    window.site.opacity.setValue(35)
    again = threaded_window(ws, tmp_path, TODAY)
    qtbot.addWidget(again)
    try:
        assert again.site.opacity.value() == 35
        assert again.site.opacity_text.text() == "35 %"
    finally:
        settle(again, qtbot)
        again.close()


def test_switching_parcels_quickly_draws_only_the_open_parcels_imagery(
        window: MainWindow, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    """The demo's imagery under each parcel: a render asked for one parcel and arriving
    after the next one opened is never drawn on its map."""
    import threading

    from inspector_app.ui import basemap_item

    real = basemap_item.to_qimage
    gate = threading.Event()   # holds the first parcel's render until the next one opens
    held: list[bool] = []

    def gated(rgba: Any) -> Any:  # in the render thread, after each read
        if not held:
            held.append(True)
            gate.wait(5)
        return real(rgba)

    site = window.site
    assert basemaps.active_basemap(window.workspace) is not None  # the demo's imagery
    settle(window, qtbot)
    qtbot.waitUntil(lambda: site.imagery.asked is None, timeout=5000)
    monkeypatch.setattr(basemap_item, "to_qimage", gated)
    window.open_parcel("900.01-1-4")
    qtbot.waitUntil(lambda: site.imagery.picture is not None
                    and site.imagery.picture.parcel == "900.01-1-4", timeout=5000)
    site.view.viewport().repaint()  # asks for 900.01-1-4's imagery
    qtbot.waitUntil(lambda: bool(held), timeout=5000)
    late: list[str] = []
    site.imagery.renderer.signals.rendered.connect(
        lambda r: late.append(r.request.picture.parcel))
    window.open_parcel("900.01-1-30")
    settle(window, qtbot)
    assert site.imagery.picture is not None and site.imagery.picture.parcel == "900.01-1-30"
    site.view.viewport().repaint()  # asks for 900.01-1-30's
    gate.set()                      # now 900.01-1-4's render comes back, late
    qtbot.waitUntil(lambda: "900.01-1-4" in late, timeout=5000)
    imagery_drawn(window, qtbot)
    picture = site.imagery.picture
    assert site.imagery.cache and all(r.request.picture == picture for r in site.imagery.cache)
    window_rect = site.scene.sceneRect().adjusted(-1, -1, 1, 1)
    for r in site.imagery.cache:
        assert window_rect.contains(r.rect)  # asked for this parcel's map, not another's


def test_cancel_imports_nothing(window: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    import threading

    path = write_lots(tmp_path / "lots.gpkg", [shapely.box(CX - 150, CY - 100, CX + 50,
                                                           CY + 150)], [PARCEL])
    before = list_lot_layers(window.workspace)
    gate = threading.Event()
    window.runner.run(lambda: gate.wait(5))  # the worker is busy with something else
    progress = window.menus.file.run_lots_import(path, name="Cancelled lines")
    progress.findChild(QPushButton).click()  # the user presses Cancel
    gate.set()
    settle(window, qtbot)
    assert list_lot_layers(window.workspace) == before
    assert any("cancelled" in text for text in window.warnings)  # type: ignore[attr-defined]


def test_a_referred_file_that_moved_is_said_under_the_map(
        window: MainWindow, qtbot: QtBot, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    tif = quadrants_tif(tmp_path / "county.tif")
    progress = window.menus.file.run_imagery_import(tif, name="County mosaic", copy=False,
                                         source="Ontario County")
    assert progress is not None
    settle(window, qtbot)
    imagery_drawn(window, qtbot)
    assert window.site.imagery_caption.property("tone") is None
    tif.rename(tmp_path / "moved.tif")
    window.open_parcel(PARCEL)
    settle(window, qtbot)
    caption = window.site.imagery_caption
    assert caption.text().startswith(f"Imagery: the file {tif} was moved or deleted")
    assert caption.property("tone") == "warning" and caption.isVisible()
    assert window.site.basemap_item is None  # nothing drawn from a file that is not there


def test_a_shoreline_layer_of_another_lake_is_imported_only_when_confirmed(
        window: MainWindow, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    from inspector_app.services.reference.shorelines import list_layers
    from inspector_app.ui import imports

    onondaga = Path(__file__).parents[1] / "fixtures" / "onondaga_county_areawater.geojson"
    choose_file(monkeypatch, onondaga)
    declared: list[Path] = []
    monkeypatch.setattr(imports, "ask_shoreline_layer",
                        lambda path, _parent: declared.append(path) or ("TIGER water", 10.0))
    asked: list[str] = []
    monkeypatch.setattr(imports, "confirm_far_layer",
                        lambda _parent, text: asked.append(text) or False)
    before = list_layers(window.workspace)
    window.menus.file.import_layer()
    settle(window, qtbot)
    assert len(asked) == 1
    assert declared == []  # far away: asked before the name and the accuracy
    assert "lies 219,874 ft (41.6 mi) from Canandaigua Lake" in asked[0]
    assert "--far-ok" not in asked[0]
    assert list_layers(window.workspace) == before
    assert window.warnings == []  # type: ignore[attr-defined]
    assert "onondaga_county_areawater.geojson was not imported" in window.message.text()
    monkeypatch.setattr(imports, "confirm_far_layer",
                        lambda _parent, text: asked.append(text) or True)
    window.menus.file.import_layer()
    settle(window, qtbot)
    layer = list_layers(window.workspace)[-1]
    assert layer["name"] == "TIGER water" and layer["active"]
    assert layer["far_confirmed"]["by"] == "k.olmsted"
    assert "(imported although far)" in window.layer_label.text()
    assert window.layer_warning.isVisibleTo(window)
    assert "was imported although it lies 219,874 ft" in window.layer_warning.text()
    assert "confirmed by k.olmsted" in window.layer_warning.text()
