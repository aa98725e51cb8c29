"""The site map: both lake distances and which one decides, a layout that fits a laptop
screen, and coordinates typed in longitude/latitude or State Plane feet."""

from __future__ import annotations

import inspect
import os
from collections.abc import Iterator
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, QRect, QSettings, Qt
from PySide6.QtGui import QImage, QMouseEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QGraphicsTextItem,
    QLabel,
    QMessageBox,
    QPushButton,
    QToolButton,
)
from pytestqt.qtbot import QtBot

from inspector_app.domain.vocabulary import LakeDistanceMethod
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.workspace import Workspace
from inspector_app.ui.main_window import MainWindow
from inspector_app.ui.tasks import TaskRunner

TODAY = date(2026, 11, 25)
SHOTS_ENV = "INSPECTOR_APP_SCREENSHOTS"
BUNDLED = (Path(__file__).parents[2] / "resources" / "shorelines" /
           "canandaigua_lake_ne10m_coarse.geojson")
# Demo parcel 900.01-1-9: taped at 60 ft, about 270 ft on the coarse map outline.
TAPED = "900.01-1-9"
# Demo parcel 900.01-1-13: no distance measured in the field.
UNMEASURED = "900.01-1-13"
CORNERS_FT = "628400,1021000\n628440,1021000\n628440,1021060\n628400,1021060"


@pytest.fixture
def ws(tmp_path: Path) -> Iterator[Workspace]:
    workspace = Workspace(tmp_path / "data", user="k.olmsted")
    install_demo(workspace, today=TODAY)
    yield workspace
    workspace.close()


def _window(qtbot: QtBot, ws: Workspace, tmp_path: Path, runner: TaskRunner) -> MainWindow:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(ws, runner=runner, settings=settings)
    w.ctx.as_of = TODAY
    qtbot.addWidget(w)
    w.show()
    return w


@pytest.fixture
def threaded(qtbot: QtBot, ws: Workspace, tmp_path: Path) -> Iterator[MainWindow]:
    """The window as users run it: every job on the worker thread."""
    w = _window(qtbot, ws, tmp_path, TaskRunner())
    yield w
    qtbot.waitUntil(lambda: w.runner.pending == 0, timeout=20_000)
    w.close()  # stops the worker before the data folder closes


@pytest.fixture
def window(qtbot: QtBot, ws: Workspace, tmp_path: Path) -> MainWindow:
    return _window(qtbot, ws, tmp_path, TaskRunner(synchronous=True))


def _open(w: MainWindow, qtbot: QtBot, sbl: str) -> None:
    w.open_parcel(sbl)
    w.tabs.setCurrentIndex(w.tabs.indexOf(w.site))
    qtbot.waitUntil(lambda: w.runner.pending == 0 and "Decides:" in w.site.distances.text(),
                    timeout=20_000)


# --- both distances, and the one that decides ----------------------------------------

def test_the_map_shows_the_map_and_the_tape_distance_and_which_decides(
        threaded: MainWindow, qtbot: QtBot, ws: Workspace) -> None:
    _open(threaded, qtbot, TAPED)
    lake = ws.evaluate_parcel(TAPED, as_of=TODAY).lake
    assert (lake.source, lake.method, lake.distance_ft) == ("field", "tape", 60.0)
    caption = threaded.site.distances.text()
    map_ft = threaded.site.map_distance_ft
    assert map_ft is not None and map_ft > 200  # the two really differ here
    assert f"Map: {map_ft:,.1f} ft (±1,500 ft, Natural Earth" in caption
    assert "Tape: 60.0 ft" in caption
    assert f"Decides: tape, within 200 ft, {lake.citation}" in caption
    assert "§ 202-5 D" in caption
    assert isinstance(threaded.site.distances, QLabel) and threaded.site.distances.isVisible()


def test_a_new_tape_distance_takes_over_from_the_map(window: MainWindow, qtbot: QtBot,
                                                    ws: Workspace) -> None:
    _open(window, qtbot, UNMEASURED)
    caption = window.site.distances.text()
    assert "Measured: none recorded" in caption
    assert "Decides: nothing yet" in caption and "(±1,500 ft) cannot settle it" in caption
    assert "“Measured distance to lake line”" in caption
    case = ws.load_case(UNMEASURED)
    assert case.site is not None
    ws.save_case(replace(case, site=replace(case.site, lake_distance_ft=187.0,
                                            lake_distance_method=LakeDistanceMethod.SURVEY)),
                 today=TODAY)
    _open(window, qtbot, UNMEASURED)
    caption = window.site.distances.text()
    assert "Survey: 187.0 ft" in caption
    assert "Decides: survey, within 200 ft, § 202-5 D" in caption


def test_an_accurate_layer_lets_the_map_decide(window: MainWindow, qtbot: QtBot,
                                               ws: Workspace) -> None:
    from inspector_app.services.reference.shorelines import import_layer

    import_layer(ws, BUNDLED, name="Office contour", accuracy_ft=2)
    _open(window, qtbot, UNMEASURED)
    lake = ws.evaluate_parcel(UNMEASURED, as_of=TODAY).lake
    assert lake.source == "map" and lake.distance_ft is not None
    caption = window.site.distances.text()
    assert f"Map: {lake.distance_ft:,.1f} ft (±2 ft, Office contour v1)" in caption
    assert f"Decides: map, beyond 200 ft, {lake.citation}" in caption


# --- the layout at 1280 x 800 -----------------------------------------------------------

def _fits(label: QLabel) -> bool:
    """The whole text is shown: the label is as tall as its wrapped text needs."""
    return label.isVisible() and label.height() >= label.heightForWidth(label.width())


def _readable(w: MainWindow, label: QLabel) -> bool:
    """Some of the label's pixels, as the window shows them, stand out clearly from the
    background behind it."""
    area = QRect(label.mapTo(w, QPoint(0, 0)), label.size())
    image = w.grab(area).toImage().convertToFormat(QImage.Format.Format_RGB32)

    def lum(x: int, y: int) -> float:
        c = image.pixelColor(x, y)
        return 0.299 * c.red() + 0.587 * c.green() + 0.114 * c.blue()

    background = lum(0, 0)
    step = 2
    strong = sum(1 for x in range(0, image.width(), step) for y in range(0, image.height(), step)
                 if abs(lum(x, y) - background) > 110)
    return strong >= 10


def _laptop_screen(w: MainWindow, qtbot: QtBot) -> None:
    """The window filling a 1280 x 800 screen, with the panes it gives itself there."""
    w.resize(1280, 800)
    w.centralWidget().setSizes([int(1280 * 0.3), int(1280 * 0.7)])  # type: ignore[attr-defined]
    w.inner_split.setSizes([int(1280 * 0.42), int(1280 * 0.28)])
    qtbot.wait(50)


@pytest.mark.parametrize("theme", ["normal", "high-contrast"])
def test_the_site_map_fits_a_1280_by_800_screen(window: MainWindow, qtbot: QtBot,
                                                tmp_path: Path, theme: str) -> None:
    shots = Path(os.environ.get(SHOTS_ENV) or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    if theme == "high-contrast":
        qtbot.wait(10)  # windows of earlier tests are gone before the whole app restyles
        window.menus.view.contrast.trigger()
    try:
        _laptop_screen(window, qtbot)
        site = window.site
        for n in range(1, 13):
            _open(window, qtbot, f"900.01-1-{n}")
            qtbot.wait(20)
            controls: list[Any] = [site.target, *site.findChildren(QPushButton),
                                   *site.findChildren(QToolButton)]
            for c in controls:
                assert c.isVisible()
                assert c.width() >= c.sizeHint().width(), (theme, n, c)
                assert c.mapTo(site, QPoint(c.width(), 0)).x() <= site.width(), (theme, n, c)
            viewport = site.view.viewport().rect()
            texts = [i for i in site.scene.items() if isinstance(i, QGraphicsTextItem)]
            assert any("ft (map)" in t.toPlainText() for t in texts)
            for t in texts:
                box = t.deviceTransform(site.view.viewportTransform()).mapRect(
                    t.boundingRect()).toRect()
                assert viewport.contains(box), (theme, n, t.toPlainText())
            for label in (site.layer, site.distances, site.hint):
                assert _fits(label), (theme, n, label.text())
            assert _readable(window, site.layer) and _readable(window, site.distances), (
                theme, n)
            if n == 7:
                assert window.grab().save(str(shots / f"site-map-1280x800-{theme}.png"))
    finally:
        if theme == "high-contrast":
            window.menus.view.contrast.trigger()
            qtbot.wait(50)  # let the widgets settle into the normal theme again


# --- typed coordinates ------------------------------------------------------------------

def test_typed_state_plane_corners_are_saved_through_the_worker(
        threaded: MainWindow, qtbot: QtBot, ws: Workspace,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from inspector_app.ui.coordinates import CoordinatesDialog

    asked: list[tuple[Any, ...]] = []

    def ask(*args: Any) -> tuple[str, str]:
        asked.append(args)
        return "state_plane", CORNERS_FT

    monkeypatch.setattr(CoordinatesDialog, "ask", ask)
    _open(threaded, qtbot, UNMEASURED)
    before = ws.load_case(UNMEASURED).site
    threaded.site.target.setCurrentIndex(threaded.site.target.findData("absorption_area"))
    threaded.site.type_coordinates.emit()
    qtbot.waitUntil(lambda: "Absorption area saved" in threaded.message.text(), timeout=20_000)
    qtbot.waitUntil(lambda: threaded.runner.pending == 0, timeout=20_000)
    assert asked and asked[0][1:3] == ("Absorption area", "absorption_area")
    stored = ws.load_case(UNMEASURED).site
    assert stored is not None and before is not None
    assert stored.absorption_area != before.absorption_area
    assert stored.absorption_area_capture is not None
    assert stored.absorption_area_capture.method.value == "survey_plan"
    assert "The lake distance goes by the map" in threaded.message.text()
    assert threaded.settings.value("coordinate_system") == "state_plane"
    assert "Decides:" in threaded.site.distances.text()


def test_bad_typed_coordinates_are_refused_by_line_and_nothing_is_saved(
        threaded: MainWindow, qtbot: QtBot, ws: Workspace,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from inspector_app.ui.coordinates import CoordinatesDialog

    warnings: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _parent, _title, text: warnings.append(
        text))
    monkeypatch.setattr(CoordinatesDialog, "ask", lambda *a: ("lonlat", CORNERS_FT))
    _open(threaded, qtbot, UNMEASURED)
    before, history = ws.load_case(UNMEASURED), len(ws.history(UNMEASURED))
    threaded.site.type_coordinates.emit()
    qtbot.waitUntil(lambda: bool(warnings), timeout=20_000)
    assert warnings[0].startswith("Line 1: 628400, 1021000 look like State Plane feet")
    assert "Nothing was saved." in warnings[0]
    assert threaded.message.text().startswith("Line 1:")
    assert ws.load_case(UNMEASURED) == before
    assert len(ws.history(UNMEASURED)) == history


def test_the_dialog_keeps_what_was_typed_until_it_is_right(qtbot: QtBot) -> None:
    from inspector_app.ui.coordinates import CoordinatesDialog

    dialog = CoordinatesDialog(None, "Absorption area", "absorption_area")
    qtbot.addWidget(dialog)
    assert "Longitude,latitude" in dialog.how.text() and "at least 3 corners" in dialog.how.text()
    dialog.system.setCurrentIndex(dialog.system.findData("state_plane"))
    assert "US survey feet" in dialog.how.text()
    typed = "628400,1021000\n1021000,628440\n628440,1021060"
    dialog.text.setPlainText(typed)
    dialog.show()
    dialog.accept()
    assert dialog.isVisible() and dialog.result() != QDialog.DialogCode.Accepted
    assert dialog.problem.isVisible()
    assert dialog.problem.text().startswith("Line 2: easting and northing look swapped")
    assert dialog.text.toPlainText() == typed
    dialog.text.setPlainText(CORNERS_FT)
    dialog.accept()
    assert not dialog.isVisible() and dialog.result() == QDialog.DialogCode.Accepted
    assert dialog.chosen() == ("state_plane", CORNERS_FT)


# --- a corner dragged with the mouse --------------------------------------------------

def test_a_corner_dragged_with_the_mouse_is_saved_after_the_drag(
        window: MainWindow, ws: Workspace, qtbot: QtBot,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The saved area is drawn anew, which deletes the handle that was dragged: never
    while the handle's own mouse event is still running (the synchronous runner would
    save and draw within it)."""
    from inspector_app.ui.site_map import Handle

    w = window  # the synchronous runner
    w.resize(1280, 800)
    sbl = "900.01-1-3"
    w.select(sbl)
    w.tabs.setCurrentWidget(w.site)
    qtbot.waitExposed(w)
    qtbot.wait(50)  # the map laid out at its size
    before = ws.load_case(sbl).site.absorption_area
    view = w.site.view
    handle = next(i for i in w.site.scene.items() if isinstance(i, Handle) and i.index == 0)
    redrawn_in_release: list[bool] = []
    clear = w.site.scene.clear

    def clear_and_note() -> None:
        redrawn_in_release.append(any(frame.function == "mouseReleaseEvent"
                                      for frame in inspect.stack()))
        clear()

    monkeypatch.setattr(w.site.scene, "clear", clear_and_note)
    corners = [i.scenePos() for i in w.site.scene.items() if isinstance(i, Handle)]
    middle = view.mapFromScene(sum(corners, QPointF()) / len(corners))
    start = view.mapFromScene(handle.scenePos())
    end = start + (start - middle) / 4  # outward: the area grows, its sides never cross
    QTest.mousePress(view.viewport(), Qt.MouseButton.LeftButton, pos=start)
    # a move with the button held (QTest's own move carries no button)
    QApplication.sendEvent(view.viewport(), QMouseEvent(
        QEvent.Type.MouseMove, QPointF(end), QPointF(view.viewport().mapToGlobal(end)),
        Qt.MouseButton.NoButton, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier))
    QTest.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, pos=end)
    qtbot.waitUntil(lambda: ws.load_case(sbl).site.absorption_area != before, timeout=5000)
    assert any(h["table_name"] == "site_features" and h["field"] == "geometry"
               for h in ws.history(sbl))
    assert redrawn_in_release == [False]  # drawn anew once, after the release returned
    assert len([i for i in w.site.scene.items() if isinstance(i, Handle)]) == 4


def test_type_coordinates_opens_with_the_recorded_corners_in_the_chosen_system(
        window: MainWindow, qtbot: QtBot, ws: Workspace,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from inspector_app.ui.coordinates import CoordinatesDialog
    from inspector_app.ui.map_view import Handle

    sbl = "900.01-1-3"
    _open(window, qtbot, sbl)
    site = window.site
    site.target.setCurrentIndex(site.target.findData("absorption_area"))
    shown: list[CoordinatesDialog] = []

    def exec_(dialog: CoordinatesDialog) -> int:
        shown.append(dialog)
        dialog.accept()  # OK on what it opened with
        return int(dialog.result())

    monkeypatch.setattr(CoordinatesDialog, "exec", exec_)
    before, history = ws.load_case(sbl), len(ws.history(sbl))
    site.type_coordinates.emit()
    (dialog,) = shown
    # the corners as recorded, one per line, longitude first
    ring = before.site.absorption_area["coordinates"][0][:-1]
    assert dialog.text.toPlainText() == "\n".join(f"{x:.8f},{y:.8f}" for x, y in ring)
    # in State Plane feet they are the corners the map's handles stand on
    dialog.system.setCurrentIndex(dialog.system.findData("state_plane"))
    typed = [tuple(map(float, line.split(","))) for line in
             dialog.text.toPlainText().splitlines()]
    handles = sorted((h.index, h.scenePos().x(), -h.scenePos().y())
                     for h in site.scene.items() if isinstance(h, Handle))
    assert len(typed) == len(handles) == 4
    for (x, y), (_, hx, hy) in zip(typed, handles, strict=True):
        assert abs(x - hx) <= 0.01 and abs(y - hy) <= 0.01
    assert "as recorded is filled in" in dialog.how.text()
    # OK on them unchanged saves nothing
    assert dialog.unchanged and dialog.result() != QDialog.DialogCode.Accepted
    assert ws.load_case(sbl) == before and len(ws.history(sbl)) == history
    # a corner moved 10 ft east is saved as typed
    moved = [f"{x + 10:.2f},{y:.2f}" if n == 0 else f"{x:.2f},{y:.2f}"
             for n, (x, y) in enumerate(typed)]
    dialog.text.setPlainText("\n".join(moved))
    dialog.accept()
    assert dialog.result() == QDialog.DialogCode.Accepted and not dialog.unchanged


def test_type_coordinates_for_a_feature_that_adds_opens_empty(qtbot: QtBot) -> None:
    from inspector_app.services.parcel.site import recorded_points
    from inspector_app.ui.coordinates import CoordinatesDialog

    dialog = CoordinatesDialog(None, "Well", "well", "lonlat",
                               recorded_points(_demo_case_with_a_well(), "well"))
    qtbot.addWidget(dialog)
    assert dialog.text.toPlainText() == "" and "filled in" not in dialog.how.text()


def _demo_case_with_a_well() -> Any:
    from inspector_app.domain.case import Case, Parcel, Site, SiteFeature
    from inspector_app.domain.vocabulary import SiteFeatureKind

    return Case(parcel=Parcel(sbl="900.01-1-99", municipality="Town of Canandaigua",
                              site_address="1 Road", owner_name="A",
                              owner_mailing_address=("PO Box 1",)),
                site=Site(features=(SiteFeature(kind=SiteFeatureKind.WELL, geometry={
                    "type": "Point", "coordinates": [-77.3, 42.8]}),)))


# --- setbacks drawn as dimension lines ------------------------------------------------

def test_lot_line_and_well_setbacks_are_drawn_with_the_evaluations_figures(
        window: MainWindow, qtbot: QtBot, ws: Workspace) -> None:
    import math

    from PySide6.QtGui import QColor
    from PySide6.QtWidgets import QGraphicsLineItem

    from inspector_app.ui import theme as themes

    sbl = "900.01-1-34"  # its absorption area about 52 ft from its neighbour's well
    _open(window, qtbot, sbl)
    e = ws.evaluate_parcel(sbl, as_of=TODAY)
    law = ws.law_for(ws.load_case(sbl).parcel.municipality)
    wanted = [s for s in e.separations if s.target in ("property_line", "well")
              and "outside the lot line" not in s.source]
    assert {s.target for s in wanted} == {"property_line", "well"}
    suggested = {x.key for x in e.suggestions}
    items = [i for i in window.site.scene.items() if i.data(0) == "dimension"]
    labels = {i.toPlainText(): i for i in items if isinstance(i, QGraphicsTextItem)}
    lines = [i for i in items if isinstance(i, QGraphicsLineItem)]
    assert len(labels) == len(lines) == len(wanted)
    t = themes.active()
    for s in wanted:
        required = law.setbacks_ft[s.component][s.target]
        figure = f"{s.distance_ft:,.1f} ft ({required:g} ft required)"
        label = labels[figure]  # the evaluation's figure, and what the law requires
        line = next(i for i in lines if i.toolTip() == label.toolTip())
        ends = line.line()
        assert math.dist((ends.x1(), ends.y1()), (ends.x2(), ends.y2())) == pytest.approx(
            s.distance_ft, abs=0.01)  # drawn between the two points it was measured at
        short = f"setback/{s.component.value}#{s.ordinal}/{s.target}" in suggested
        assert label.defaultTextColor() == QColor(t.failure if short else t.acceptable)
        assert f"{s.distance_ft:,.1f} ft from the {s.target.replace('_', ' ')}" in (
            label.toolTip())
    # the neighbour's well is the short one here, as the evaluation suggests
    assert any(k.endswith("/well") for k in suggested)
    assert any(lab.defaultTextColor() == QColor(t.failure) for lab in labels.values())


# --- a large lot with nothing drawn -----------------------------------------------------

def test_a_large_lot_with_nothing_drawn_is_drawn_framed_and_found_by_fit(
        window: MainWindow, qtbot: QtBot, ws: Workspace, tmp_path: Path) -> None:
    import shapely
    from PySide6.QtCore import QRectF

    from inspector_app.services.reference.lot_lines import import_lot_lines
    from tests.services.lot_files import add_parcels, write_lots

    sbl = "900.01-2-1"
    add_parcels(ws, tmp_path, [sbl])
    lot = shapely.box(628400, 1021000, 630350, 1022950)  # 87 acres, 1,950 ft square
    import_lot_lines(ws, write_lots(tmp_path / "big.gpkg", [lot], [sbl]), name="County")
    window.resize(1024, 700)
    window.open_parcel(sbl)
    window.tabs.setCurrentIndex(window.tabs.indexOf(window.site))
    site = window.site
    qtbot.waitUntil(lambda: window.runner.pending == 0 and any(
        i.toolTip().startswith("Lot line") for i in site.scene.items()), timeout=20_000)
    qtbot.waitUntil(lambda: site.view.viewport().width() >= 300)  # laid out at its size
    minx, miny, maxx, maxy = lot.bounds

    def lot_in_view() -> tuple[bool, float]:
        box = site.view.mapFromScene(QRectF(minx, -maxy, maxx - minx, maxy - miny)
                                     ).boundingRect().toRectF()
        view = site.view.viewport().rect().toRectF()
        return view.contains(box), max(box.width() / view.width(),
                                       box.height() / view.height())

    inside, share = lot_in_view()
    assert inside and share > 0.6  # framed on its lot
    site.view.scale(8, 8)
    assert not lot_in_view()[0]
    QTest.mouseClick(next(b for b in site.findChildren(QToolButton) if b.text() == "&Fit"),
                     Qt.MouseButton.LeftButton)
    inside, share = lot_in_view()
    assert inside and share > 0.6


# --- a well's conditions (75-A Table 2, notes (a) and (g)) ------------------------------

def test_a_wells_conditions_are_recorded_from_the_site_map(
        threaded: MainWindow, qtbot: QtBot, ws: Workspace,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from inspector_app.ui.well_conditions import WellConditionsDialog

    sbl = "900.01-1-4"  # its well about 111 ft from its absorption area
    asked: list[Any] = []

    def ask(parent: Any, wells: Any) -> tuple[int, bool | None, bool | None]:
        asked.append(wells)
        return 1, True, None

    monkeypatch.setattr(WellConditionsDialog, "ask", ask)
    _open(threaded, qtbot, sbl)
    threaded.site.well_conditions_requested.emit()
    qtbot.waitUntil(lambda: "Well saved" in threaded.message.text(), timeout=20_000)
    qtbot.waitUntil(lambda: threaded.runner.pending == 0, timeout=20_000)
    assert len(asked[0]) == 1 and asked[0][0].shallow_aquifer is None
    site = ws.load_case(sbl).site
    assert site is not None
    (well,) = [f for f in site.features if f.kind.value == "well"]
    assert (well.shallow_aquifer, well.drainage_path) == (True, None)
    e = ws.evaluate_parcel(sbl, as_of=TODAY)
    (s,) = [x for x in e.suggestions if x.key == "setback/absorption_area#1/well"]
    assert s.defect.endswith("150 ft required: 100 ft + 50 % by note (g), shallow well")
    # undo puts the well back as it was
    threaded.undo_stack.undo()
    qtbot.waitUntil(lambda: threaded.runner.pending == 0, timeout=20_000)
    site = ws.load_case(sbl).site
    assert site is not None
    assert [f.shallow_aquifer for f in site.features if f.kind.value == "well"] == [None]


def test_the_well_conditions_dialog_shows_and_returns_each_wells_answers(
        qtbot: QtBot) -> None:
    from inspector_app.domain.case import SiteFeature
    from inspector_app.domain.vocabulary import SiteFeatureKind
    from inspector_app.ui.well_conditions import WellConditionsDialog

    point = {"type": "Point", "coordinates": [-77.3, 42.8]}
    wells = [SiteFeature(kind=SiteFeatureKind.WELL, geometry=point),
             SiteFeature(kind=SiteFeatureKind.WELL, geometry=point, note="dug",
                         shallow_aquifer=True, drainage_path=False)]
    d = WellConditionsDialog(None, wells)
    qtbot.addWidget(d)
    assert d.chosen() == (1, None, None)
    d.well.setCurrentIndex(1)
    assert d.well.currentText() == "Well #2: dug"
    assert d.chosen() == (2, True, False)
    d.answers["drainage_path"].setCurrentIndex(d.answers["drainage_path"].findData("yes"))
    assert d.chosen() == (2, True, True)
