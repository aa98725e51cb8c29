"""Aerial imagery under the site map, and the lot lines over it: drawn at the right place,
off the GUI thread, never one parcel's imagery on another's map, opacity that shows."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QApplication, QGraphicsTextItem
from pytestqt.qtbot import QtBot

from inspector_app.geo.sketch import SketchGeometry
from inspector_app.ui import theme as themes
from inspector_app.ui.basemap_item import CACHE_RENDERS
from inspector_app.ui.site_map import SiteImagery, SiteMap

# A parcel's sketch window in NY State Plane Central feet, and a known point inside it.
WINDOW = (628000.0, 1020800.0, 628600.0, 1021400.0)
X0, Y0 = 628300.0, 1021100.0
QUADRANTS = {"nw": (220, 30, 30), "ne": (30, 170, 30), "sw": (30, 30, 220),
             "se": (230, 200, 20)}


def quadrant_render(bbox: tuple[float, float, float, float], w: int, h: int) -> Any:
    """An image coloured by which side of (X0, Y0) each pixel lies: row 0 north."""
    minx, miny, maxx, maxy = bbox
    xs = minx + (np.arange(w) + 0.5) * (maxx - minx) / w
    ys = maxy - (np.arange(h) + 0.5) * (maxy - miny) / h
    east = xs[None, :] >= X0
    north = ys[:, None] >= Y0
    out = np.zeros((h, w, 4), np.uint8)
    out[..., 3] = 255
    for name, rgb in QUADRANTS.items():
        mask = (north if name[0] == "n" else ~north) & (east if name[1] == "e" else ~east)
        out[mask, :3] = rgb
    return out


def solid(rgb: tuple[int, int, int], delay: float = 0.0, log: list[str] | None = None,
          tag: str = "") -> Any:
    def render(bbox: Any, w: int, h: int) -> Any:
        if delay:
            time.sleep(delay)
        if log is not None:
            log.append(tag)
        out = np.zeros((h, w, 4), np.uint8)
        out[..., :3] = rgb
        out[..., 3] = 255
        return out
    return render


def ref(basemap_id: str = "bm1", bounds: tuple[float, ...] = WINDOW, **kw: Any) -> Any:
    fields = {"id": basemap_id, "name": "ortho", "label": "ortho v1", "path": f"/x/{basemap_id}",
              "format": "geotiff", "bounds_ft": bounds, "resolution_ft": 0.5,
              "source": "NYS orthoimagery", "captured_on": "2024-04-18", "problem": None}
    fields.update(kw)
    return SimpleNamespace(**fields)


def imagery(parcel: str, render: Any, basemap_id: str = "bm1", **kw: Any) -> SiteImagery:
    closed: list[bool] = []
    return SiteImagery(parcel, ref(basemap_id, **kw),
                       ({"id": basemap_id, "name": "ortho", "label": "ortho v1",
                         "active": True},),
                       lambda: (render, lambda: closed.append(True)))


def sketch(**kw: Any) -> SketchGeometry:
    base = SketchGeometry(window=WINDOW, shore=(), band=(), water=(), areas=(), features=(),
                          nearest=None, distance_ft=0.0)
    for k, v in kw.items():
        object.__setattr__(base, k, v)
    return base


@pytest.fixture
def site(qtbot: QtBot) -> Iterator[SiteMap]:
    s = SiteMap()
    qtbot.addWidget(s)
    s.resize(700, 700)
    s.show()
    qtbot.waitExposed(s)
    yield s
    s.stop()


def pixel(site: SiteMap, x_ft: float, y_ft: float, shot: QImage | None = None) -> QColor:
    image = shot if shot is not None else site.view.grab().toImage()
    p = site.view.mapFromScene(QPointF(x_ft, -y_ft))
    return image.pixelColor(p.x(), p.y())


def drawn(site: SiteMap, qtbot: QtBot) -> None:
    """Wait for the render thread's result to be on screen."""
    site.view.viewport().repaint()
    qtbot.waitUntil(lambda: bool(site.imagery.cache) and site.imagery.asked is None, timeout=4000)
    site.view.viewport().repaint()
    QApplication.processEvents()


def near(c: QColor, rgb: tuple[int, int, int], tol: int = 12) -> bool:
    return all(abs(a - b) <= tol for a, b in zip((c.red(), c.green(), c.blue()), rgb,
                                                 strict=True))


def test_imagery_is_drawn_at_its_state_plane_place(site: SiteMap, qtbot: QtBot) -> None:
    site.show_site(sketch(), "Shoreline: test", imagery=imagery("900.01-1-1", quadrant_render))
    drawn(site, qtbot)
    shot = site.view.grab().toImage()
    for name, (dx, dy) in {"nw": (-30, 30), "ne": (30, 30), "sw": (-30, -30),
                           "se": (30, -30)}.items():
        c = pixel(site, X0 + dx, Y0 + dy, shot)
        assert near(c, QUADRANTS[name]), (name, c.getRgb())
    # Zoomed in, the render at the new pixel size is asked for and drawn: still in place.
    site.view.scale(4, 4)
    site.view.centerOn(QPointF(X0, -Y0))
    drawn(site, qtbot)
    shot = site.view.grab().toImage()
    assert near(pixel(site, X0 - 4, Y0 + 4, shot), QUADRANTS["nw"])
    assert near(pixel(site, X0 + 4, Y0 - 4, shot), QUADRANTS["se"])
    assert site.imagery_caption.text() == ("Imagery: NYS orthoimagery, captured 2024-04-18 "
                                           "(0.5 ft per pixel)")


def test_paint_never_reads_the_file_and_only_a_few_renders_are_kept(
        site: SiteMap, qtbot: QtBot) -> None:
    threads: set[str] = set()

    def render(bbox: Any, w: int, h: int) -> Any:
        threads.add(threading.current_thread().name)
        return quadrant_render(bbox, w, h)

    site.show_site(sketch(), "Shoreline: test", imagery=imagery("900.01-1-1", render))
    drawn(site, qtbot)
    for step in range(12):
        site.view.scale(1.15, 1.15)
        site.view.centerOn(QPointF(X0 + step * 5, -Y0))
        site.view.viewport().repaint()
        QApplication.processEvents()
    drawn(site, qtbot)
    assert threads == {"imagery"}  # the render thread, never the GUI thread
    assert 1 <= len(site.imagery.cache) <= CACHE_RENDERS


def test_the_opacity_slider_and_the_check_box_change_what_is_drawn(
        site: SiteMap, qtbot: QtBot) -> None:
    site.show_site(sketch(), "Shoreline: test",
                   imagery=imagery("900.01-1-1", solid((200, 0, 0))))
    drawn(site, qtbot)
    full = pixel(site, X0, Y0)
    assert near(full, (200, 0, 0))
    site.opacity.setValue(30)
    site.view.viewport().repaint()
    faint = pixel(site, X0, Y0)
    paper = QColor(themes.active().map_paper)
    expect = tuple(round(0.3 * a + 0.7 * b) for a, b in zip((200, 0, 0), (
        paper.red(), paper.green(), paper.blue()), strict=True))
    assert near(faint, expect, 8), (faint.getRgb(), expect)
    assert site.opacity_text.text() == "30 %"
    site.view.scale(2, 2)
    zoom = site.view.transform()
    site.show_imagery.setChecked(False)
    site.view.viewport().repaint()
    assert near(pixel(site, X0, Y0), (paper.red(), paper.green(), paper.blue()), 3)
    assert site.view.transform() == zoom  # hiding the imagery keeps the zoom
    site.show_imagery.setChecked(True)
    site.view.viewport().repaint()
    assert not near(pixel(site, X0, Y0), (paper.red(), paper.green(), paper.blue()), 3)


def test_another_parcels_imagery_is_never_drawn(site: SiteMap, qtbot: QtBot) -> None:
    log: list[str] = []
    site.show_site(sketch(), "Shoreline: test",
                   imagery=imagery("A", solid((220, 0, 0), 0.15, log, "A"), basemap_id="a"))
    site.view.viewport().repaint()  # asks for A's render, which takes a while
    qtbot.waitUntil(lambda: log == [] and site.imagery.asked is not None, timeout=2000)
    time.sleep(0.02)
    site.show_site(sketch(), "Shoreline: test",
                   imagery=imagery("B", solid((0, 0, 220), 0.0, log, "B"), basemap_id="b"))
    drawn(site, qtbot)
    qtbot.wait(250)  # A's render has come back by now, and was dropped
    site.view.viewport().repaint()
    assert "A" in log  # it was made, came back late, and was dropped
    assert all(r.request.picture.parcel == "B" for r in site.imagery.cache)
    shot = site.view.grab().toImage()
    assert near(pixel(site, X0, Y0, shot), (0, 0, 220))
    reds = sum(1 for x in range(0, shot.width(), 7) for y in range(0, shot.height(), 7)
               if near(shot.pixelColor(x, y), (220, 0, 0), 30))
    assert reds == 0


def test_a_moved_file_is_said_in_the_warning_colour_and_nothing_is_drawn(
        site: SiteMap, qtbot: QtBot) -> None:
    moved = "The file /x/ortho.tif was moved or deleted: import it again."
    site.show_site(sketch(), "Shoreline: test",
                   imagery=imagery("A", solid((220, 0, 0)), problem=moved))
    assert site.imagery_caption.text() == f"Imagery: {moved}"
    assert site.imagery_caption.property("tone") == "warning"
    assert site.basemap_item is None
    site.show_site(sketch(), "Shoreline: test", imagery=SiteImagery("A"))
    assert site.imagery_caption.text() == "Imagery: none — File > Import aerial imagery..."


def test_lot_line_neighbours_and_their_wells_are_drawn_with_labels(
        site: SiteMap, qtbot: QtBot) -> None:
    lot = ((628200.0, 1021000.0), (628400.0, 1021000.0), (628400.0, 1021200.0),
           (628200.0, 1021200.0), (628200.0, 1021000.0))
    east = tuple((x + 200, y) for x, y in lot)
    west = tuple((x - 200, y) for x, y in lot)
    # two tiny lots at the same place: their labels would pile up; one is shown
    tiny = ((628100.0, 1020900.0), (628105.0, 1020900.0), (628105.0, 1020905.0),
            (628100.0, 1020900.0))
    piled = tuple((f"900.01-2-{n}", tiny) for n in range(1, 7))
    site.show_site(sketch(lot=(lot,), neighbours=(("900.01-1-2", east), ("900.01-1-3", west),
                                                  *piled),
                          neighbour_wells=(("900.01-1-2", (628500.0, 1021100.0)),)),
                   "Shoreline: test", imagery=SiteImagery("A"))
    labels = [i for i in site.scene.items() if isinstance(i, QGraphicsTextItem)]
    texts = [i.toPlainText() for i in labels]
    assert {"900.01-1-2", "900.01-1-3", "Well (900.01-1-2)"} <= set(texts)
    assert 1 <= len({sbl for sbl, _ in piled} & set(texts)) <= 3  # the rest: tooltips
    view = site.view.viewportTransform()
    boxes = [i.deviceTransform(view).mapRect(i.boundingRect()) for i in labels]
    assert not any(a.intersects(b) for n, a in enumerate(boxes) for b in boxes[n + 1:])
    shot = site.view.grab().toImage()
    assert near(pixel(site, 628300, 1021000, shot), QColor(themes.active().map_lot).getRgb()[:3],
                40)
    assert "Lot line" in site.lot_legend.text() and site.lot_legend.isVisible()
