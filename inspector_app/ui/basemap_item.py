"""Aerial imagery under the site map, read off the GUI thread at the zoom shown.

The image file is never read in paint(): paint() draws the renders already made for the
current picture (scaled when the zoom changed since) and asks the render thread for the
part on screen at the screen's pixel size. The render thread keeps one reader of its own
(readers are confined to the thread that opened them), works on the latest request only
and drops the ones overtaken. Each render carries the picture it was made for (basemap
and parcel, counted up on every new sketch), so one parcel's imagery is never drawn on
another's map. Only the last few renders are kept: memory stays flat however long the
user pans and zooms.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QObject, QRectF, Qt, Signal
from PySide6.QtGui import QImage, QPainter, QPainterPath
from PySide6.QtWidgets import QGraphicsItem, QGraphicsView, QStyleOptionGraphicsItem, QWidget

# A render function: bbox in feet (minx, miny, maxx, maxy), width and height in pixels ->
# a (height, width, 4) uint8 straight-RGBA array, row 0 north, column 0 west.
Render = Callable[[tuple[float, float, float, float], int, int], Any]
# Made and called in the render thread: the reader's render function, and how to close it.
Opener = Callable[[], tuple[Render, Callable[[], None]]]

CACHE_RENDERS = 4        # the renders kept: the newest drawn on top of older ones
MAX_SIDE_PX = 4096       # never ask for more than this many pixels a side
Z_VALUE = -1.0           # over the paper, under water, band, areas and lines


@dataclass(frozen=True)
class SiteImagery:
    """The imagery to draw under a parcel's sketch: the active basemap (a BasemapRef, or
    None), every basemap for the chooser, and how the render thread opens its file."""

    parcel: str
    ref: Any = None
    basemaps: tuple[dict[str, Any], ...] = ()
    opener: Opener | None = field(default=None, compare=False)
    lots: str | None = None  # the active lot layer, as the app names it: "NAME vN (±A ft)"

    @property
    def key(self) -> str | None:
        return None if self.ref is None else f"{self.ref.id}:{self.ref.path}"

    def caption(self) -> tuple[str, bool]:
        """The line naming the imagery, and whether it is a warning."""
        ref = self.ref
        if ref is None:
            return "Imagery: none — File > Import aerial imagery...", False
        if getattr(ref, "problem", None):
            return f"Imagery: {ref.problem}", True
        what = ref.source or ref.label or ref.name
        when = f", captured {ref.captured_on}" if ref.captured_on else ""
        res = getattr(ref, "resolution_ft", None)
        detail = f" ({res:,.1f} ft per pixel)" if res else ""
        return f"Imagery: {what}{when}{detail}", False


@dataclass(frozen=True)
class Picture:
    """What is on the map: which basemap for which parcel, and the sketch's count."""

    basemap: str
    parcel: str
    generation: int


@dataclass(frozen=True)
class Request:
    picture: Picture
    bbox: tuple[float, float, float, float]
    width: int
    height: int


@dataclass(frozen=True)
class Rendered:
    request: Request
    image: QImage

    @property
    def rect(self) -> QRectF:  # in the scene: y is minus the northing
        minx, miny, maxx, maxy = self.request.bbox
        return QRectF(minx, -maxy, maxx - minx, maxy - miny)


def to_qimage(rgba: Any) -> QImage:
    """A straight-RGBA uint8 array as a QImage that owns its pixels, premultiplied as the
    screen draws it (converted here, in the render thread, not at every paint)."""
    import numpy as np

    array = np.ascontiguousarray(rgba, dtype=np.uint8)
    height, width = array.shape[:2]
    return QImage(array.data, width, height, 4 * width,
                  QImage.Format.Format_RGBA8888).convertToFormat(
                      QImage.Format.Format_ARGB32_Premultiplied)


class _Signals(QObject):
    rendered = Signal(object)   # Rendered
    failed = Signal(object, str)  # Picture, message


class RenderThread:
    """One thread, one reader, the latest request only."""

    def __init__(self) -> None:
        self.signals = _Signals()
        self._lock = threading.Condition()
        self._request: Request | None = None
        self._opener: tuple[str, Opener] | None = None  # basemap key, how to open it
        self._stopped = False
        self._drop = False
        self.renders = 0  # how many renders were made (tests, the benchmark)
        self._thread = threading.Thread(target=self._run, name="imagery", daemon=True)
        self._thread.start()

    def use(self, basemap: str, opener: Opener | None) -> None:
        """Read `basemap` from now on (None: no imagery); drops what was asked before."""
        with self._lock:
            self._opener = (basemap, opener) if opener is not None else None
            self._request = None
            self._drop = opener is None  # no imagery: the file is let go of
            self._lock.notify()

    def ask(self, request: Request) -> None:
        with self._lock:
            self._request = request  # overtakes any request not started yet
            self._lock.notify()

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            self._request = None
            self._lock.notify()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        reader: tuple[str, Render, Callable[[], None]] | None = None
        while True:
            with self._lock:
                while not self._stopped and self._request is None and not self._drop:
                    self._lock.wait()
                if self._stopped:
                    break
                drop, self._drop = self._drop, False
                request, opener = self._request, self._opener
                self._request = None
            if drop and reader is not None:
                reader[2]()
                reader = None
            if request is None:
                continue
            if opener is None or request.picture.basemap != opener[0]:
                continue
            try:
                if reader is None or reader[0] != opener[0]:
                    if reader is not None:
                        reader[2]()
                        reader = None
                    render, close = opener[1]()
                    reader = (opener[0], render, close)
                array = reader[1](request.bbox, request.width, request.height)
                image = to_qimage(array)
            except Exception as exc:  # a moved, changed or unreadable file
                self.signals.failed.emit(request.picture, str(exc) or type(exc).__name__)
                continue
            self.renders += 1
            self.signals.rendered.emit(Rendered(request, image))
        if reader is not None:
            reader[2]()


class BasemapLayer(QObject):
    """The imagery of one site map: which picture is on, the renders kept for it, and the
    request in flight. The scene item (BasemapItem) is made again with every sketch."""

    changed = Signal()
    problem = Signal(str)

    def __init__(self) -> None:
        super().__init__()
        self.renderer = RenderThread()
        self.renderer.signals.rendered.connect(self._rendered)
        self.renderer.signals.failed.connect(self._failed)
        self.picture: Picture | None = None
        self.bounds: QRectF | None = None   # the image's extent in the scene
        self.cache: list[Rendered] = []
        self.asked: Request | None = None
        self.item: BasemapItem | None = None
        self.broken: Picture | None = None  # a render failed: not asked again
        self._generation = 0
        self.paint_ms: list[float] = []  # paint() times, for the benchmark
        self.timing = False

    def show(self, basemap: str | None, parcel: str, opener: Opener | None,
             bounds_ft: tuple[float, float, float, float] | None) -> None:
        """A new sketch: draw `basemap` for `parcel` (None: no imagery). Whatever was
        rendered or asked for before is forgotten."""
        self._generation += 1
        self.cache = []
        self.asked = None
        if basemap is None or opener is None or bounds_ft is None:
            self.picture, self.bounds = None, None
            self.renderer.use("", None)
            return
        self.picture = Picture(basemap, parcel, self._generation)
        minx, miny, maxx, maxy = bounds_ft
        self.bounds = QRectF(minx, -maxy, maxx - minx, maxy - miny)
        self.renderer.use(basemap, opener)

    def stop(self) -> None:
        self.renderer.stop()

    def _rendered(self, rendered: Rendered) -> None:
        if rendered.request.picture != self.picture:
            return  # made for another parcel, basemap or sketch: never drawn
        if self.asked == rendered.request:
            self.asked = None
        self.cache = [r for r in self.cache if r.request != rendered.request]
        self.cache.append(rendered)
        del self.cache[:-CACHE_RENDERS]
        if self.item is not None:
            self.item.update()
        self.changed.emit()

    def _failed(self, picture: Picture, message: str) -> None:
        if picture == self.picture:
            self.asked = None
            self.broken = picture
            self.problem.emit(message)

    def wanted(self, visible: QRectF, pixels_per_ft: float) -> Request | None:
        """The request for what the view shows: the visible part of the image at the
        view's pixel size."""
        if self.picture is None or self.bounds is None or pixels_per_ft <= 0:
            return None
        part = visible.intersected(self.bounds)
        if part.isEmpty():
            return None
        width = max(1, min(MAX_SIDE_PX, round(part.width() * pixels_per_ft)))
        height = max(1, min(MAX_SIDE_PX, round(part.height() * pixels_per_ft)))
        bbox = (part.left(), -part.bottom(), part.right(), -part.top())
        return Request(self.picture, bbox, width, height)

    def _covered(self, request: Request) -> bool:
        """Already rendered (or asked for): the same place at (about) the same size."""
        def same(other: Request) -> bool:
            span = max(request.bbox[2] - request.bbox[0], request.bbox[3] - request.bbox[1])
            return (other.picture == request.picture
                    and all(abs(a - b) <= span * 1e-3 for a, b in zip(other.bbox, request.bbox,
                                                                      strict=True))
                    and abs(other.width - request.width) <= 1
                    and abs(other.height - request.height) <= 1)

        return any(same(r.request) for r in self.cache) or (
            self.asked is not None and same(self.asked))

    def paint(self, painter: QPainter, visible: QRectF) -> None:
        """Draw what is rendered; ask for what the view needs now. Never reads the file."""
        if self.picture is None:
            return
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
        # The newest render first; older ones only where it leaves a gap, so each place is
        # drawn once (the item's opacity would otherwise add up where renders overlap).
        covered = QPainterPath()
        for rendered in reversed(self.cache):
            target = rendered.rect
            if rendered.request.picture != self.picture or not target.intersects(visible):
                continue
            area = QPainterPath()
            area.addRect(target.intersected(visible))
            gap = area.subtracted(covered)
            if gap.isEmpty():
                continue
            painter.save()
            if not covered.isEmpty():
                painter.setClipPath(gap, Qt.ClipOperation.IntersectClip)
            part = target.intersected(visible)
            image = rendered.image
            sx, sy = image.width() / target.width(), image.height() / target.height()
            source = QRectF((part.left() - target.left()) * sx, (part.top() - target.top()) * sy,
                            part.width() * sx, part.height() * sy)
            painter.drawImage(part, image, source)
            painter.restore()
            covered.addRect(target)
        scale = painter.worldTransform().m11()
        device = painter.device()
        ratio = device.devicePixelRatioF() if device is not None else 1.0
        request = self.wanted(visible, abs(scale) * ratio)
        if request is not None and self.broken != self.picture and not self._covered(request):
            self.asked = request
            self.renderer.ask(request)


class BasemapItem(QGraphicsItem):
    """The imagery in the scene: the size of the image, at the bottom of the z-order."""

    def __init__(self, layer: BasemapLayer, scene_rect: QRectF) -> None:
        super().__init__()
        self.layer = layer
        bounds = layer.bounds if layer.bounds is not None else QRectF()
        self._rect = bounds.intersected(scene_rect)
        self.setZValue(Z_VALUE)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption)
        layer.item = self

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        import time

        start = time.perf_counter()
        view = widget.parentWidget() if widget is not None else None
        if widget is not None and isinstance(view, QGraphicsView):
            visible = view.mapToScene(widget.rect()).boundingRect()
        else:
            visible = option.exposedRect
        self.layer.paint(painter, visible.intersected(self._rect))
        if self.layer.timing:
            self.layer.paint_ms.append((time.perf_counter() - start) * 1000)
