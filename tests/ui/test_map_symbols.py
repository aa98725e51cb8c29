"""The site map as a person zooms it: symbols, handles and labels keep their size on
screen while the sketch grows under them; the first view and Fit frame the lot."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsPathItem,
    QGraphicsPolygonItem,
    QGraphicsTextItem,
)
from pytestqt.qtbot import QtBot

from inspector_app.geo.sketch import SketchGeometry
from inspector_app.ui.map_view import Handle
from inspector_app.ui.site_map import SiteImagery, SiteMap

X0, Y0 = 628000.0, 1020000.0
AREA = ((X0 + 100, Y0 + 900), (X0 + 140, Y0 + 900), (X0 + 140, Y0 + 960),
        (X0 + 100, Y0 + 960), (X0 + 100, Y0 + 900))
# an 87-acre lot, 1,950 ft square
LOT = ((X0 - 1000, Y0), (X0 + 950, Y0), (X0 + 950, Y0 + 1950), (X0 - 1000, Y0 + 1950),
       (X0 - 1000, Y0))
WINDOW = (X0 - 1250, Y0 - 250, X0 + 1200, Y0 + 2200)


@pytest.fixture
def site(qtbot: QtBot) -> Iterator[SiteMap]:
    s = SiteMap()
    qtbot.addWidget(s)
    s.resize(700, 700)
    s.show()
    qtbot.waitExposed(s)
    yield s
    s.stop()


def sketch(**kw: object) -> SketchGeometry:
    base = SketchGeometry(window=WINDOW, shore=(), band=(), water=(), areas=(), features=(),
                          nearest=None, distance_ft=0.0, lot=(LOT,))
    for k, v in kw.items():
        object.__setattr__(base, k, v)
    return base


def on_view(site: SiteMap, item: QGraphicsItem) -> QRectF:
    """The item's box in the view's pixels."""
    return item.deviceTransform(site.view.viewportTransform()).mapRect(item.boundingRect())


def lot_on_view(site: SiteMap) -> QRectF:
    xs = [x for x, _ in LOT]
    ys = [y for _, y in LOT]
    return site.view.mapFromScene(QRectF(min(xs), -max(ys), max(xs) - min(xs),
                                         max(ys) - min(ys))).boundingRect().toRectF()


def test_handles_symbols_and_labels_keep_their_screen_size_when_zoomed(
        site: SiteMap, qtbot: QtBot) -> None:
    site.show_site(sketch(areas=(AREA,), features=(("well", ((X0 + 300, Y0 + 950),)),),
                          neighbour_wells=(("900.01-1-2", (X0 + 200, Y0 + 1100)),),
                          frame=(X0 - 100, Y0 + 750, X0 + 400, Y0 + 1250)),
                   "Shoreline: test", imagery=SiteImagery("A"))
    handle = next(i for i in site.scene.items() if isinstance(i, Handle))
    labels = [i for i in site.scene.items() if isinstance(i, QGraphicsTextItem)]
    marks = [i for i in site.scene.items() if isinstance(i, QGraphicsPathItem)
             and i.flags() & QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations]
    assert {t.toPlainText() for t in labels} >= {"well", "Well (900.01-1-2)"}
    assert len(marks) >= 2  # the well on this parcel and the neighbour's
    area = next(i for i in site.scene.items() if isinstance(i, QGraphicsPolygonItem)
                and round(i.polygon().boundingRect().width()) == 40)
    before = [on_view(site, i) for i in (handle, *labels, *marks, area)]
    site.view.scale(8, 8)
    after = [on_view(site, i) for i in (handle, *labels, *marks, area)]
    for a, b in zip(before[:-1], after[:-1], strict=True):
        assert abs(a.width() - b.width()) <= 1 and abs(a.height() - b.height()) <= 1
    assert 4 <= before[0].width() <= 16  # a handle a finger can find, not a blot
    # the sketch itself grew eightfold under them
    assert after[-1].width() == pytest.approx(before[-1].width() * 8, rel=0.05)


def test_the_first_view_frames_the_lot_of_a_parcel_with_nothing_drawn(
        site: SiteMap, qtbot: QtBot) -> None:
    site.show_site(sketch(frame=(X0 - 1250, Y0 - 250, X0 + 1200, Y0 + 2200)),
                   "Shoreline: test", imagery=SiteImagery("A"))
    view = site.view.viewport().rect().toRectF()
    lot = lot_on_view(site)
    assert view.contains(lot) and max(lot.width() / view.width(), lot.height() / view.height()) > 0.6
    lines = [i for i in site.scene.items() if i.toolTip().startswith("Lot line")]
    assert lines and view.contains(on_view(site, lines[0]).adjusted(2, 2, -2, -2))


def test_fit_frames_the_whole_lot_after_the_first_view_showed_the_system(
        site: SiteMap, qtbot: QtBot) -> None:
    frame = (X0 - 100, Y0 + 750, X0 + 400, Y0 + 1250)
    site.show_site(sketch(areas=(AREA,), frame=frame), "Shoreline: test",
                   imagery=SiteImagery("A"))
    view = site.view.viewport().rect().toRectF()
    assert not view.contains(lot_on_view(site))  # first: the system, close up
    site.view.scale(3, 3)
    site.fit()
    lot = lot_on_view(site)
    assert view.contains(lot) and max(lot.width() / view.width(), lot.height() / view.height()) > 0.6
    site.resize(600, 500)  # and it stays framed as the window changes
    qtbot.waitUntil(lambda: site.view.viewport().width() < 600)
    assert site.view.viewport().rect().toRectF().contains(lot_on_view(site))


# --- measuring ---------------------------------------------------------------------

def test_measuring_reads_each_leg_and_the_total_as_the_app_measures_and_keeps_nothing(
        site: SiteMap, qtbot: QtBot) -> None:
    import shapely
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtTest import QTest

    site.show_site(sketch(areas=(AREA,), frame=(X0 - 100, Y0 + 750, X0 + 400, Y0 + 1250)),
                   "Shoreline: test", imagery=SiteImagery("A"))
    drawn: list[object] = []
    site.area_drawn.connect(drawn.append)
    before = len(site.scene.items())
    QTest.mouseClick(site.measure_button, Qt.MouseButton.LeftButton)
    assert site.measure_button.isChecked() and "Measuring" in site.hint.text()
    clicks = [QPoint(100, 120), QPoint(400, 300), QPoint(420, 80)]
    for p in clicks:
        QTest.mouseClick(site.view.viewport(), Qt.MouseButton.LeftButton, pos=p)
    feet = [site.view.mapToScene(p) for p in clicks]
    points = [shapely.Point(f.x(), -f.y()) for f in feet]
    legs = [shapely.distance(a, b) for a, b in itertools.pairwise(points)]
    assert site.measure.legs == pytest.approx(legs, abs=1e-9)
    assert legs[0] > 100  # the view shows about 500 ft: these are legs of real length
    total = f"{sum(legs):,.1f} ft"
    assert f"last leg {legs[-1]:,.1f} ft; total {total}" in site.hint.text()
    shown = {i.toPlainText() for i in site.scene.items() if isinstance(i, QGraphicsTextItem)}
    assert f"{legs[0]:,.1f} ft" in shown and total in shown
    # a double-click's second press on the last point adds nothing
    QTest.mouseClick(site.view.viewport(), Qt.MouseButton.LeftButton, pos=clicks[-1])
    assert len(site.measure.points) == 3
    # Esc ends it: the drawing goes, the figure stays said, nothing is saved
    QTest.keyClick(site.view, Qt.Key.Key_Escape)
    assert not site.measure_button.isChecked() and not site.view.measuring
    assert len(site.scene.items()) == before
    assert site.hint.text() == f"Measured {total} in 2 legs; nothing was kept."
    assert drawn == []


def test_zoomed_out_labels_that_would_cover_a_setback_figure_give_way(
        site: SiteMap, qtbot: QtBot) -> None:
    from inspector_app.geo.sketch import Dimension

    # two setbacks and a neighbour's lot label close together: apart as first shown
    dims = (Dimension((X0 + 140, Y0 + 960), (X0 + 140, Y0 + 1010), "50.0 ft (100 ft required)",
                      "absorption area: 50.0 ft from the well", True),
            Dimension((X0 + 100, Y0 + 960), (X0 + 60, Y0 + 960), "40.0 ft (10 ft required)",
                      "absorption area: 40.0 ft from the property line", False))
    neighbour = ((X0 + 60, Y0 + 900), (X0 + 60, Y0 + 1100))
    site.show_site(sketch(areas=(AREA,), dimensions=dims,
                          neighbours=(("901.01-1-1", neighbour),),
                          frame=(X0 - 10, Y0 + 850, X0 + 290, Y0 + 1150)),
                   "Shoreline: test", imagery=SiteImagery("A"))
    labels = {i.toPlainText(): i for i in site.scene.items()
              if isinstance(i, QGraphicsTextItem)}
    assert all(labels[t].isVisible() for t in (d.figure for d in dims))

    def boxes() -> list[QRectF]:
        return [on_view(site, i) for i in labels.values() if i.isVisible()]

    shown = boxes()
    assert not any(a.intersects(b) for n, a in enumerate(shown) for b in shown[n + 1:])
    site.fit()  # the whole lot: about 1/8 the scale, the labels where they were in pixels
    shown = boxes()
    assert not any(a.intersects(b) for n, a in enumerate(shown) for b in shown[n + 1:])
    assert labels["50.0 ft (100 ft required)"].isVisible()  # the setbacks' figures stay
    assert not labels["901.01-1-1"].isVisible() or len(shown) == len(labels)
    site.view.fit(QRectF(X0 - 10, -(Y0 + 1150), 300, 300))  # back in: all shown again
    assert all(i.isVisible() for i in labels.values())
