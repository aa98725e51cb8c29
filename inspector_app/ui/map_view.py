"""The site map's canvas: the view (zoom, pan, clicks while drawing), its labels, and the
corners of the absorption area that can be dragged."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsEllipseItem, QGraphicsScene, QGraphicsView

from . import theme as themes


class MapView(QGraphicsView):
    clicked = Signal(float, float)        # feet (EPSG:2261)
    moved = Signal(float, float)          # the mouse, in feet, while measuring
    zoomed = Signal()                     # the scale changed (labels may now overlap)
    finished = Signal()

    def __init__(self, scene: QGraphicsScene) -> None:
        super().__init__(scene)
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.drawing = False
        self.measuring = False
        self.fitted = True  # `home` is shown, until the user zooms
        self.home: QRectF | None = None  # None: the whole sketch

    def fit(self, home: QRectF | None = None) -> None:
        """Show `home` (a part of the sketch), or else the whole sketch."""
        self.fitted = True
        self.home = home
        self.fitInView(home or self.sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)
        self.zoomed.emit()

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        if self.fitted:  # keep what was framed in view as the window or the font changes
            self.fitInView(self.home or self.sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)
            self.zoomed.emit()

    def wheelEvent(self, event: Any) -> None:
        factor = 1.25 if event.angleDelta().y() > 0 else 0.8
        self.fitted = False
        self.scale(factor, factor)
        self.zoomed.emit()

    def mousePressEvent(self, event: Any) -> None:
        if (self.drawing or self.measuring) and event.button() == Qt.MouseButton.LeftButton:
            p = self.mapToScene(event.position().toPoint())
            self.clicked.emit(p.x(), -p.y())
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: Any) -> None:
        if self.measuring:
            p = self.mapToScene(event.position().toPoint())
            self.moved.emit(p.x(), -p.y())
        super().mouseMoveEvent(event)

    def mouseDoubleClickEvent(self, event: Any) -> None:
        if self.drawing:
            self.finished.emit()
            return
        if self.measuring:  # its first press added the point; the second adds nothing
            return
        super().mouseDoubleClickEvent(event)


class Handle(QGraphicsEllipseItem):
    """A corner of the absorption area that can be dragged to a new place: a disc `r`
    pixels across on screen at any zoom, at its corner's place in the scene. A move is
    told to `moved` (index, x, y) only while `owner` (the site map) exists."""

    def __init__(self, owner: QObject, moved: Callable[[int, float, float], None],
                 index: int, x: float, y: float, r: float) -> None:
        super().__init__(-r, -r, 2 * r, 2 * r)
        self.owner, self.moved, self.index = owner, moved, index
        self.setPos(x, -y)
        self.setBrush(QBrush(QColor(themes.active().map_handle)))
        self.setPen(QPen(QColor(themes.active().map_area_line), max(r / 3, 1.5)))
        self.setFlag(QGraphicsEllipseItem.GraphicsItemFlag.ItemIsMovable)
        self.setFlag(QGraphicsEllipseItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.setCursor(Qt.CursorShape.SizeAllCursor)
        self.setToolTip("Drag to move this corner of the absorption area")
        self.setZValue(10)

    def mouseReleaseEvent(self, event: Any) -> None:
        super().mouseReleaseEvent(event)
        # The saved area is drawn anew, which deletes this handle: the map hears of the
        # move once this event has returned.
        moved, index, x, y = self.moved, self.index, self.pos().x(), -self.pos().y()
        QTimer.singleShot(0, self.owner, lambda: moved(index, x, y))
