"""The site map: aerial imagery, lot lines, shoreline, 200-ft band, absorption area,
features, the distance line."""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QKeySequence,
    QPainterPath,
    QPen,
    QPolygonF,
    QShortcut,
)
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGraphicsScene,
    QGraphicsView,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSlider,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from . import theme as themes
from .basemap_item import BasemapItem, BasemapLayer, SiteImagery
from .map_items import (
    RANK_FEATURE,
    RANK_LAKE,
    LabelText,
    declutter,
    dimension,
    dot,
    label_font,
    pen,
    square,
    symbol,
    well,
)
from .map_labels import Placer
from .map_measure import MeasureTool
from .map_view import Handle, MapView

Ring = tuple[tuple[float, float], ...]
SAME_POINT_FT = 0.5  # a point drawn again this close to the one before is the same point
SAME_POINT_PX = 3
HANDLE_PX = 5  # a draggable corner's radius on screen


def _poly(ring: Ring) -> QPolygonF:
    return QPolygonF([QPointF(x, -y) for x, y in ring])  # scene y grows downward


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
    well_conditions_requested = Signal()
    basemap_chosen = Signal(str)    # the basemap's id; "" for none
    opacity_changed = Signal(int)   # per cent

    def __init__(self) -> None:
        super().__init__()
        self.scene = QGraphicsScene()
        self.view = MapView(self.scene)
        self.imagery = BasemapLayer()
        self.imagery.problem.connect(self._imagery_problem)
        self.basemap_item: BasemapItem | None = None
        self._imagery: SiteImagery | None = None
        self._lot_label: str | None = None
        self._water: list[Any] = []
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
        # The map's tools as tool buttons: narrower than push buttons, so that the chooser
        # keeps its width beside them on a 1024-pixel screen.
        self.draw = QToolButton()
        self.draw.setText("&Draw")
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
        self.measure_button = QToolButton()
        self.measure_button.setText("&Measure")
        self.measure_button.setCheckable(True)
        self.measure_button.setToolTip("Click two or more points on the map to read the "
                                       "distance in feet and the running total; Esc ends. "
                                       "Nothing is kept.")
        self.measure_button.toggled.connect(self._toggle_measure)
        fit = QToolButton()
        fit.setText("&Fit")
        fit.setToolTip("Show the whole lot and everything drawn")
        fit.clicked.connect(self.fit)
        # Two short rows fit beside the evaluation on a 1280-pixel screen.
        choose = QHBoxLayout()
        wells = QToolButton()
        wells.setText("We&ll...")
        wells.setToolTip("Well conditions: what changes a well's separations (75-A Table 2, "
                         "notes (a) and (g))")
        wells.clicked.connect(self.well_conditions_requested.emit)
        tools: tuple[QWidget, ...] = (QLabel("Feature:"), self.target, self.draw,
                                      self.measure_button, fit, wells)
        for w in tools:
            choose.addWidget(w)
        choose.addStretch()
        enter = QHBoxLayout()
        for w in (QLabel("Or enter it:"), typed, gps, device):
            enter.addWidget(w)
        enter.addStretch()
        # The imagery: shown or not, which basemap, how strongly.
        self.show_imagery = QCheckBox("&Imagery")
        self.show_imagery.setChecked(True)
        self.show_imagery.setToolTip("Show the aerial imagery under the sketch")
        self.show_imagery.toggled.connect(self._imagery_visibility)
        self.basemap = QComboBox()
        self.basemap.setToolTip("The basemap drawn under every site map")
        self.basemap.setMinimumContentsLength(12)
        self.basemap.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.basemap.activated.connect(self._basemap_picked)
        self.opacity = QSlider(Qt.Orientation.Horizontal)
        self.opacity.setRange(0, 100)
        self.opacity.setSingleStep(5)
        self.opacity.setPageStep(10)
        self.opacity.setValue(100)
        self.opacity.setMaximumWidth(120)
        self.opacity.setToolTip("How strongly the imagery shows (0 % to 100 %)")
        self.opacity_text = QLabel("100 %")
        self.opacity_text.setMinimumWidth(self.opacity_text.fontMetrics()
                                          .horizontalAdvance("100 %") + 4)
        self.opacity.valueChanged.connect(self._opacity_moved)
        opacity_label = QLabel("&Opacity:")
        opacity_label.setBuddy(self.opacity)
        see = QHBoxLayout()
        for w in (self.show_imagery, self.basemap, opacity_label, self.opacity,
                  self.opacity_text):
            see.addWidget(w)
        see.addStretch()
        self.imagery_caption = QLabel()  # names the imagery, or says what is wrong with it
        self.imagery_caption.setWordWrap(True)
        self.imagery_caption.setMargin(2)
        self.lot_legend = QLabel()       # what the lot lines are and how accurate
        self.lot_legend.setWordWrap(True)
        self.lot_legend.setMargin(2)
        self.lot_legend.hide()
        self.buttons = (self.target, self.draw, self.measure_button, fit, typed, gps, device)
        layout = QVBoxLayout(self)
        layout.addWidget(self.layer)
        layout.addLayout(choose)
        layout.addLayout(enter)
        layout.addLayout(see)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.imagery_caption)
        layout.addWidget(self.lot_legend)
        layout.addWidget(self.distances)
        layout.addWidget(self.hint)
        self.points: list[tuple[float, float]] = []
        self.view.clicked.connect(self._clicked)
        self.view.zoomed.connect(lambda: declutter(self.scene, self.view.viewportTransform()))
        self.measure = MeasureTool(self.scene, self._same_place)
        self.measure.said.connect(self.hint.setText)
        self.view.moved.connect(self.measure.hover)
        escape = QShortcut(QKeySequence(Qt.Key.Key_Escape), self)
        escape.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        escape.activated.connect(self._escape)
        self.view.finished.connect(self._finish)
        self.distance_label = ""
        self.map_distance_ft: float | None = None  # on the active layer, for the sketch
        self._shown: tuple[Any, ...] | None = None
        self._labels = Placer(self.scene, QRectF(), 1.0)  # as the sketch is first shown

    def restyle(self) -> None:
        """Draw the site again in the active theme's colours."""
        if self._shown is not None:
            geometry, layer_label, accuracy_ft, layer_name, lot_label, lake, imagery = \
                self._shown
            self.show_site(geometry, layer_label, accuracy_ft, layer_name, lot_label,
                           lake=lake, imagery=imagery)

    def show_site(self, geometry: Any, layer_label: str, accuracy_ft: float = 0.0,
                  layer_name: str | None = None, lot_label: str | None = None, *,
                  lake: Any = None, imagery: SiteImagery | None = None) -> None:
        """Draw the sketch; `lake` is the evaluation's lake finding, shown as it decided;
        `imagery` what to draw under it; `lot_label` names the lot line drawn."""
        from ..services.parcel.sketch import lake_caption

        self._shown = (geometry, layer_label, accuracy_ft, layer_name, lot_label, lake,
                       imagery)
        self._lot_label = lot_label
        t = themes.active()
        self.layer.setText(layer_label)
        self.basemap_item = None
        self.imagery.item = None
        self._water = []
        self.measure.clear()  # its drawing goes with the scene
        self.measure_button.setChecked(False)
        self.scene.clear()
        self.lot_legend.hide()
        self._show_imagery_controls(imagery if geometry is not None else None)
        self.points = []
        self.distance_label = ""
        measured = geometry is not None and geometry.nearest is not None
        self.map_distance_ft = geometry.distance_ft if measured else None
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
        fx, fy, fx2, fy2 = geometry.first_view
        first = QRectF(fx, -fy2, fx2 - fx, fy2 - fy)
        self._labels = labels = Placer(self.scene, first, self._scale_showing(first))
        paper = self.scene.addRect(minx, -maxy, maxx - minx, maxy - miny,
                                   pen(t.map_frame, 1), QBrush(QColor(t.map_paper)))
        paper.setZValue(-2)  # the imagery goes over the paper, under everything else
        self._add_imagery(imagery)
        self._water = [self.scene.addPolygon(_poly(ring), QPen(Qt.PenStyle.NoPen),
                                             QBrush(QColor(t.map_water)))
                       for ring in geometry.water if len(ring) >= 3]
        self._see_through_water()
        for ring in geometry.band:
            if len(ring) >= 3:
                self.scene.addPolygon(_poly(ring), QPen(Qt.PenStyle.NoPen),
                                      QBrush(t.map_band))
        for line in geometry.shore:
            path = QPainterPath()
            path.addPolygon(_poly(line))
            self.scene.addPath(path, pen(t.map_shore, 2))
        self.corners: list[tuple[float, float]] = []
        self._draw_lots(geometry)
        for ring in geometry.areas:
            if len(ring) >= 3:
                self.scene.addPolygon(_poly(ring), pen(t.map_area_line, 1.5),
                                      QBrush(t.map_area_fill))
            elif len(ring) == 1:  # a holding tank located by one point: where the line starts
                x, y = ring[0]
                symbol(self.scene, x, -y, square(6), pen(t.map_area_line, 1.5),
                       t.map_area_fill)
        if geometry.areas and len(geometry.areas[0]) >= 4:
            self.corners = list(geometry.areas[0][:-1])  # the ring without its closing point
            for i, (x, y) in enumerate(self.corners):
                self.scene.addItem(Handle(self, self.corner_moved, i, x, y, HANDLE_PX))
        font = label_font()
        for label, coords in geometry.features:
            if len(coords) == 1:
                x, y = coords[0]
                symbol(self.scene, x, -y, dot(4), pen(t.map_feature, 1),
                       QColor(t.map_feature))
            else:
                path = QPainterPath()
                path.addPolygon(_poly(coords))
                self.scene.addPath(path, pen(t.map_feature, 1.5, Qt.PenStyle.DashLine))
            text = self._text(label, font, RANK_FEATURE)
            text.setDefaultTextColor(QColor(t.map_feature))
            beside = len(coords) == 1  # right of its symbol, else where its line starts
            labels.place(text, coords[0][0], -coords[0][1], 7.0 if beside else 0.0,
                         -text.boundingRect().height() / 2 if beside else 0.0)
            labels.take(text)
        # the setbacks, red where short; the short first, to keep their figures when zoomed out
        for d in sorted(getattr(geometry, "dimensions", ()), key=lambda d: not d.short):
            dimension(self.scene, (d.a[0], -d.a[1]), (d.b[0], -d.b[1]), d.figure,
                      t.failure if d.short else t.acceptable, d.words, taken=labels.taken,
                      scale=labels.scale, inside=first)
        if geometry.nearest is not None:
            (ax, ay), (sx, sy) = geometry.nearest
            self.scene.addLine(ax, -ay, sx, -sy, pen(t.map_distance, 2))
            self.distance_label = (f"{geometry.distance_ft:,.1f} ft to the lake line (map, "
                                   f"±{accuracy_ft:,.0f} ft)")
            # On the map a short label; the whole story is in the caption below it.
            text = self._text(f"{geometry.distance_ft:,.1f} ft (map)", font, RANK_LAKE)
            text.setDefaultTextColor(QColor(t.map_distance))
            text.setToolTip(self.distance_label)
            labels.place(text, (ax + sx) / 2, -(ay + sy) / 2)
        self.hint.setText("Shaded orange: within 200 ft of the lake line. Wheel to zoom, drag "
                          "to pan.")
        self.view.fit(first)

    # --- imagery ----------------------------------------------------------------------

    def _show_imagery_controls(self, imagery: SiteImagery | None) -> None:
        self._imagery = imagery
        self.basemap.blockSignals(True)
        self.basemap.clear()
        self.basemap.addItem("No imagery", "")
        active = 0
        for b in imagery.basemaps if imagery is not None else ():
            self.basemap.addItem(str(b.get("name") or b.get("label")), str(b["id"]))
            self.basemap.setItemData(self.basemap.count() - 1, str(b.get("label") or ""),
                                     Qt.ItemDataRole.ToolTipRole)
            if b.get("active"):
                active = self.basemap.count() - 1
        self.basemap.setCurrentIndex(active)
        self.basemap.setToolTip("The basemap drawn under every site map: "
                                + str(self.basemap.itemData(active, Qt.ItemDataRole.ToolTipRole)
                                      or self.basemap.currentText()))
        self.basemap.blockSignals(False)
        self.basemap.setEnabled(self.basemap.count() > 1)
        if imagery is None:
            self.imagery_caption.setText("")
            self.imagery_caption.hide()
            return
        text, warning = imagery.caption()
        self.imagery_caption.setText(text)
        self.imagery_caption.setProperty("tone", "warning" if warning else None)
        self.imagery_caption.style().unpolish(self.imagery_caption)
        self.imagery_caption.style().polish(self.imagery_caption)
        self.imagery_caption.show()

    def _add_imagery(self, imagery: SiteImagery | None) -> None:
        ref = imagery.ref if imagery is not None else None
        usable = (imagery is not None and ref is not None and imagery.opener is not None
                  and not getattr(ref, "problem", None))
        if not usable:
            self.imagery.show(None, "", None, None)
            return
        assert imagery is not None and ref is not None
        self.imagery.show(imagery.key, imagery.parcel, imagery.opener, tuple(ref.bounds_ft))
        item = BasemapItem(self.imagery, self.scene.sceneRect())
        if item.boundingRect().isEmpty():
            self.imagery.item = None
            self.imagery.show(None, "", None, None)
            self.imagery_caption.setText(f"{self.imagery_caption.text()} — does not cover "
                                         "this parcel")
            return
        item.setOpacity(self.opacity.value() / 100)
        item.setVisible(self.show_imagery.isChecked())
        self.scene.addItem(item)
        self.basemap_item = item

    def _imagery_visibility(self, on: bool) -> None:
        if self.basemap_item is not None:
            self.basemap_item.setVisible(on)
            self._see_through_water()

    def _see_through_water(self) -> None:
        """The lake is drawn see-through over imagery, so the imagery shows the shore."""
        under = self.basemap_item is not None and self.basemap_item.isVisible()
        water = QColor(themes.active().map_water)
        if under:
            water.setAlpha(110)
        for item in self._water:
            item.setBrush(QBrush(water))

    def _opacity_moved(self, value: int) -> None:
        self.opacity_text.setText(f"{value} %")
        if self.basemap_item is not None:
            self.basemap_item.setOpacity(value / 100)
        self.opacity_changed.emit(value)

    def set_opacity(self, percent: int) -> None:
        self.opacity.setValue(max(0, min(100, int(percent))))

    def _basemap_picked(self, index: int) -> None:
        self.basemap_chosen.emit(str(self.basemap.itemData(index) or ""))

    def _imagery_problem(self, message: str) -> None:
        self.imagery_caption.setText(f"Imagery: the file cannot be read: {message}")
        self.imagery_caption.setProperty("tone", "warning")
        self.imagery_caption.style().unpolish(self.imagery_caption)
        self.imagery_caption.style().polish(self.imagery_caption)

    def stop(self) -> None:
        """Let the imagery's render thread finish (the window is closing)."""
        self.imagery.stop()

    # --- lot lines ----------------------------------------------------------------------

    def _draw_lots(self, geometry: Any) -> None:
        t = themes.active()
        lot = getattr(geometry, "lot", ()) or ()
        neighbours = getattr(geometry, "neighbours", ()) or ()
        wells = getattr(geometry, "neighbour_wells", ()) or ()
        font = label_font()
        # Wells first: their labels matter more than a neighbour's SBL.
        r = 7.0
        for label, (x, y) in wells:
            text = str(label) if str(label).startswith("Well") else f"Well ({label})"
            ground = QColor(t.map_paper)
            ground.setAlpha(190)
            mark = symbol(self.scene, x, -y, well(r), pen(t.map_well, 1.6), ground)
            mark.setToolTip(f"{text}: a well recorded on a neighbouring parcel")
            self._labels.take(mark)
            self._labels.label_once(text, ((x, y),), font, QColor(t.map_well),
                                    beside=r * 1.8)
        # Where the photos were taken (their camera's GPS): a small square.
        photo_colour = QColor("#a0287a")
        for label, (x, y) in getattr(geometry, "photos", ()) or ():
            mark = symbol(self.scene, x, -y, square(4), pen(t.map_paper, 1), photo_colour)
            mark.setToolTip(f"{label}: where the photo was taken, as its camera recorded")
            self._labels.take(mark)
            self._labels.label_once(str(label), ((x, y),), font, photo_colour, beside=8.0)
        # The lines are the lots' boundaries clipped to the sketch: open where clipped.
        neighbour_pen = pen(t.map_neighbour, 1)
        labelled: set[str] = set()
        for sbl, ring in neighbours:
            if len(ring) < 2:
                continue
            path = QPainterPath()
            path.addPolygon(_poly(ring))
            self.scene.addPath(path, neighbour_pen).setToolTip(f"Neighbouring lot {sbl}")
            if str(sbl) not in labelled and self._labels.label_once(
                    str(sbl), ring, font, QColor(t.map_neighbour)):
                labelled.add(str(sbl))
        lot_pen = pen(t.map_lot, 2.5)
        lot_pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
        legend = self.lot_caption(self._imagery.lots if self._imagery is not None else None,
                                  self._lot_label)
        for ring in lot:
            if len(ring) >= 2:
                path = QPainterPath()
                path.addPolygon(_poly(ring))
                self.scene.addPath(path, lot_pen).setToolTip(legend)
        self.lot_legend.setText(legend)
        self.lot_legend.setVisible(bool(lot or neighbours or wells))

    @staticmethod
    def lot_caption(layer: str | None, lot_label: str | None = None) -> str:
        """What the lot lines are: the lot layer they come from (by its name: demo lots are
        not a tax map) and its accuracy."""
        head = f"Lot line: {layer}" if layer else lot_label or "Lot line"
        return f"{head}, approximate, not a survey; thin lines: neighbouring lots."

    def _text(self, text: str, font: QFont, rank: int) -> LabelText:
        item = LabelText(text, rank)
        item.setFont(font)
        self.scene.addItem(item)
        return item

    def _scale_showing(self, rect: QRectF) -> float:
        """Pixels per foot when `rect` of the scene fills the view (the view's size as laid
        out, or a laptop's map before it is first shown)."""
        size = self.view.viewport().size()
        w, h = (size.width(), size.height()) if size.width() >= 200 else (600, 450)
        return min(w / max(rect.width(), 1e-9), h / max(rect.height(), 1e-9))

    def corner_moved(self, index: int, x: float, y: float) -> None:
        if not 0 <= index < len(self.corners) or self.corners[index] == (x, y):
            return
        self.corners[index] = (x, y)
        self.area_edited.emit(list(self.corners))

    def fit(self) -> None:
        self.view.fit()

    def needed(self) -> int:
        return next(n for key, _, n in self.TARGETS if key == self.target.currentData())

    def _clicked(self, x: float, y: float) -> None:
        if self.measure.active:
            self.measure.add(x, y)
        else:
            self._add_point(x, y)

    def _toggle_measure(self, on: bool) -> None:
        if on:
            self.draw.setChecked(False)
        self.view.measuring = on
        self.view.viewport().setMouseTracking(on)
        self.view.setDragMode(QGraphicsView.DragMode.NoDrag if on
                              else QGraphicsView.DragMode.ScrollHandDrag)
        if on:
            self.measure.start()
            self.view.setFocus()
        else:
            self.measure.stop()

    def _escape(self) -> None:
        """Esc ends measuring, or drawing (nothing drawn is saved)."""
        if self.measure_button.isChecked():
            self.measure_button.setChecked(False)
        elif self.draw.isChecked():
            self.points = []
            self.draw.setChecked(False)
            self.hint.setText("Drawing ended with Esc; nothing was saved.")

    def _toggle_draw(self, on: bool) -> None:
        if on:
            self.measure_button.setChecked(False)
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
        colour = QColor(themes.active().map_area_line)
        symbol(self.scene, x, -y, dot(3), pen(colour, 1), colour)
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
