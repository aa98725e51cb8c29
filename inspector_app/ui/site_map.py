"""The site map: shoreline, 200-ft band, absorption area, features, the distance line."""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import (
    QComboBox,
    QGraphicsEllipseItem,
    QGraphicsScene,
    QGraphicsView,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from . import theme as themes

Ring = tuple[tuple[float, float], ...]
SAME_POINT_FT = 0.5  # a point drawn again this close to the one before is the same point
SAME_POINT_PX = 3


def _poly(ring: Ring) -> QPolygonF:
    return QPolygonF([QPointF(x, -y) for x, y in ring])  # scene y grows downward


class MapView(QGraphicsView):
    clicked = Signal(float, float)        # feet (EPSG:2261)
    finished = Signal()

    def __init__(self, scene: QGraphicsScene) -> None:
        super().__init__(scene)
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.drawing = False
        self.fitted = True  # the whole sketch is shown, until the user zooms

    def fit(self) -> None:
        self.fitted = True
        self.fitInView(self.sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        if self.fitted:  # keep the whole sketch in view as the window or the font changes
            self.fitInView(self.sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)

    def wheelEvent(self, event: Any) -> None:
        factor = 1.25 if event.angleDelta().y() > 0 else 0.8
        self.fitted = False
        self.scale(factor, factor)

    def mousePressEvent(self, event: Any) -> None:
        if self.drawing and event.button() == Qt.MouseButton.LeftButton:
            p = self.mapToScene(event.position().toPoint())
            self.clicked.emit(p.x(), -p.y())
            return
        super().mousePressEvent(event)

    def mouseDoubleClickEvent(self, event: Any) -> None:
        if self.drawing:
            self.finished.emit()
            return
        super().mouseDoubleClickEvent(event)


class Handle(QGraphicsEllipseItem):
    """A corner of the absorption area that can be dragged to a new place."""

    def __init__(self, owner: SiteMap, index: int, x: float, y: float, r: float) -> None:
        super().__init__(-r, -r, 2 * r, 2 * r)
        self.owner, self.index = owner, index
        self.setPos(x, -y)
        self.setBrush(QBrush(QColor(themes.active().map_handle)))
        self.setPen(QPen(QColor(themes.active().map_area_line), r / 3))
        self.setFlag(QGraphicsEllipseItem.GraphicsItemFlag.ItemIsMovable)
        self.setCursor(Qt.CursorShape.SizeAllCursor)
        self.setToolTip("Drag to move this corner of the absorption area")
        self.setZValue(10)

    def mouseReleaseEvent(self, event: Any) -> None:
        super().mouseReleaseEvent(event)
        self.owner.corner_moved(self.index, self.pos().x(), -self.pos().y())


class SiteMap(QWidget):
    area_drawn = Signal(list)       # [(x_ft, y_ft), ...] for the chosen target
    area_edited = Signal(list)      # the absorption area's corners after a drag
    TARGETS = (("absorption_area", "Absorption area", 3), ("holding_tank", "Holding tank", 1),
               ("well", "Well", 1), ("dwelling", "Dwelling", 3),
               ("property_line", "Property line", 2), ("watercourse", "Watercourse", 2),
               ("water_service_line", "Water service line", 2),
               ("component:septic_tank#1", "Septic tank", 1),
               ("component:distribution_box#1", "Distribution box", 1))
    type_coordinates = Signal()
    gps_requested = Signal()
    gps_device_requested = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.scene = QGraphicsScene()
        self.view = MapView(self.scene)
        bold = QFont()
        bold.setBold(True)
        # Plain labels (no style sheet), so they follow the palette of either theme.
        self.layer = QLabel()
        self.layer.setFont(bold)
        self.layer.setWordWrap(True)
        self.layer.setMargin(2)
        self.distances = QLabel()  # map and field distances, and which one decides
        self.distances.setWordWrap(True)
        self.distances.setMargin(2)
        self.distances.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        self.target = QComboBox()
        for key, label, _ in self.TARGETS:
            self.target.addItem(label, key)
        self.draw = QPushButton("&Draw")
        self.draw.setCheckable(True)
        self.draw.setToolTip("Click the points of the chosen feature on the map")
        self.target.setMinimumContentsLength(15)
        self.draw.toggled.connect(self._toggle_draw)
        typed = QPushButton("&Type coordinates...")
        typed.setToolTip("Type longitude,latitude or NY State Plane Central (feet) coordinates")
        typed.clicked.connect(self.type_coordinates.emit)
        gps = QPushButton("&GPS log...")
        gps.setToolTip("Average an NMEA 0183 log (one log per point)")
        gps.clicked.connect(self.gps_requested.emit)
        device = QPushButton("GPS &device...")
        device.setToolTip("Average a serial GPS's fixes where you stand")
        device.clicked.connect(self.gps_device_requested.emit)
        fit = QPushButton("&Fit")
        fit.setToolTip("Show the whole sketch")
        fit.clicked.connect(self.fit)
        # Two short rows fit beside the evaluation on a 1280-pixel screen.
        choose = QHBoxLayout()
        for w in (QLabel("Feature:"), self.target, self.draw, fit):
            choose.addWidget(w)
        choose.addStretch()
        enter = QHBoxLayout()
        for w in (QLabel("Or enter it:"), typed, gps, device):
            enter.addWidget(w)
        enter.addStretch()
        self.buttons = (self.target, self.draw, fit, typed, gps, device)
        layout = QVBoxLayout(self)
        layout.addWidget(self.layer)
        layout.addLayout(choose)
        layout.addLayout(enter)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.distances)
        layout.addWidget(self.hint)
        self.points: list[tuple[float, float]] = []
        self.view.clicked.connect(self._add_point)
        self.view.finished.connect(self._finish)
        self.distance_label = ""
        self.map_distance_ft: float | None = None  # on the active layer, for the sketch
        self._shown: tuple[Any, ...] | None = None

    def restyle(self) -> None:
        """Draw the site again in the active theme's colours."""
        if self._shown is not None:
            geometry, layer_label, accuracy_ft, layer_name, lake = self._shown
            self.show_site(geometry, layer_label, accuracy_ft, layer_name, lake=lake)

    def show_site(self, geometry: Any, layer_label: str, accuracy_ft: float = 0.0,
                  layer_name: str | None = None, *, lake: Any = None) -> None:
        """Draw the sketch; `lake` is the evaluation's lake finding, shown as it decided."""
        from ..services.sketch import lake_caption

        self._shown = (geometry, layer_label, accuracy_ft, layer_name, lake)
        t = themes.active()
        self.layer.setText(layer_label)
        self.scene.clear()
        self.points = []
        self.distance_label = ""
        measured = geometry is not None and geometry.nearest is not None
        self.map_distance_ft: float | None = geometry.distance_ft if measured else None
        if lake is not None:
            self.distances.setText(lake_caption(lake, self.map_distance_ft, accuracy_ft,
                                                layer_name))
        self.distances.setVisible(lake is not None)
        if geometry is None:
            self.hint.setText("Nothing to draw yet: the parcel has no coordinates or site "
                              "features. Type coordinates or use a GPS log.")
            return
        minx, miny, maxx, maxy = geometry.window
        self.scene.setSceneRect(minx, -maxy, maxx - minx, maxy - miny)
        width = (maxx - minx) / 400
        self.scene.addRect(minx, -maxy, maxx - minx, maxy - miny, QPen(QColor(t.map_frame), 0),
                           QBrush(QColor(t.map_paper)))
        for ring in geometry.water:
            if len(ring) >= 3:
                self.scene.addPolygon(_poly(ring), QPen(Qt.PenStyle.NoPen),
                                      QBrush(QColor(t.map_water)))
        for ring in geometry.band:
            if len(ring) >= 3:
                self.scene.addPolygon(_poly(ring), QPen(Qt.PenStyle.NoPen),
                                      QBrush(t.map_band))
        for line in geometry.shore:
            path = QPainterPath()
            path.addPolygon(_poly(line))
            self.scene.addPath(path, QPen(QColor(t.map_shore), width * 2))
        self.corners: list[tuple[float, float]] = []
        for ring in geometry.areas:
            if len(ring) >= 3:
                self.scene.addPolygon(_poly(ring), QPen(QColor(t.map_area_line), width),
                                      QBrush(t.map_area_fill))
            elif len(ring) == 1:  # a holding tank located by one point: where the line starts
                x, y = ring[0]
                self.scene.addRect(x - width * 5, -y - width * 5, width * 10, width * 10,
                                   QPen(QColor(t.map_area_line), width),
                                   QBrush(t.map_area_fill))
        if geometry.areas and len(geometry.areas[0]) >= 4:
            self.corners = list(geometry.areas[0][:-1])  # the ring without its closing point
            for i, (x, y) in enumerate(self.corners):
                self.scene.addItem(Handle(self, i, x, y, width * 5))
        font = QFont()
        font.setPointSizeF(max(width * 9, 1))
        for label, coords in geometry.features:
            if len(coords) == 1:
                x, y = coords[0]
                self.scene.addEllipse(x - width * 4, -y - width * 4, width * 8, width * 8,
                                      QPen(QColor(t.map_feature), width),
                                      QBrush(QColor(t.map_feature)))
            else:
                path = QPainterPath()
                path.addPolygon(_poly(coords))
                self.scene.addPath(path, QPen(QColor(t.map_feature), width,
                                                       Qt.PenStyle.DashLine))
            text = self.scene.addText(label, font)
            text.setDefaultTextColor(QColor(t.map_feature))
            self._place(text, coords[0][0], -coords[0][1])
        if geometry.nearest is not None:
            (ax, ay), (sx, sy) = geometry.nearest
            self.scene.addLine(ax, -ay, sx, -sy, QPen(QColor(t.map_distance), width * 2))
            self.distance_label = (f"{geometry.distance_ft:,.1f} ft to the lake line (map, "
                                   f"±{accuracy_ft:,.0f} ft)")
            # On the map a short label; the whole story is in the caption below it.
            text = self.scene.addText(f"{geometry.distance_ft:,.1f} ft (map)", font)
            text.setDefaultTextColor(QColor(t.map_distance))
            text.setToolTip(self.distance_label)
            self._place(text, (ax + sx) / 2, -(ay + sy) / 2)
        self.hint.setText("Shaded orange: within 200 ft of the lake line. Wheel to zoom, drag "
                          "to pan.")
        self.fit()

    def _place(self, item: Any, x: float, y: float) -> None:
        """Put a label at (x, y) in the scene, moved just enough to stay inside the sketch."""
        rect, box = self.scene.sceneRect(), item.boundingRect()
        item.setPos(max(rect.left(), min(x, rect.right() - box.width())),
                    max(rect.top(), min(y, rect.bottom() - box.height())))

    def corner_moved(self, index: int, x: float, y: float) -> None:
        if not 0 <= index < len(self.corners) or self.corners[index] == (x, y):
            return
        self.corners[index] = (x, y)
        self.area_edited.emit(list(self.corners))

    def fit(self) -> None:
        self.view.fit()

    def needed(self) -> int:
        return next(n for key, _, n in self.TARGETS if key == self.target.currentData())

    def _toggle_draw(self, on: bool) -> None:
        self.view.drawing = on
        self.view.setDragMode(QGraphicsView.DragMode.NoDrag if on
                              else QGraphicsView.DragMode.ScrollHandDrag)
        self.points = []
        label = self.target.currentText().lower()
        if not on:
            return
        self.hint.setText(f"Click where the {label} is." if self.needed() == 1 else
                          f"Click each point of the {label} in turn; double-click to finish.")

    def _add_point(self, x: float, y: float) -> None:
        self.points.append((x, y))
        r = self.scene.sceneRect().width() / 200
        colour = QColor(themes.active().map_area_line)
        self.scene.addEllipse(x - r, -y - r, 2 * r, 2 * r, QPen(colour, 0), QBrush(colour))
        self.hint.setText(f"{len(self.points)} point(s); double-click to finish.")
        if self.needed() == 1:
            self._finish()

    def _same_place(self) -> float:
        """How close two clicks are to be one point, in feet: half a foot, or a few screen
        pixels at the map's zoom (a double-click's first press lands where the last click
        did, give or take a pixel)."""
        pixels_per_foot = abs(self.view.transform().m11())
        return max(SAME_POINT_FT, SAME_POINT_PX / pixels_per_foot if pixels_per_foot else 0)

    def _finish(self) -> None:
        points = list(self.points)
        # Double-clicking the last point presses on it again first: that press is not a
        # new point.
        near = self._same_place()
        while len(points) >= 2 and math.dist(points[-1], points[-2]) <= near:
            points.pop()
        needed = self.needed()
        self.draw.setChecked(False)
        if len(points) >= needed:
            self.area_drawn.emit(points)
        else:
            self.hint.setText(f"The {self.target.currentText().lower()} needs at least {needed} "
                              "points; nothing was saved.")
