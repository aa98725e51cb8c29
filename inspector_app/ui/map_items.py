"""The site map's symbols, labels and dimension lines, of a constant size on screen.

The scene is in feet (EPSG:2261, y upward drawn downward); what a person reads or grabs
is drawn in screen pixels: lines with cosmetic pens, points and labels as items that
ignore the view's scale (placed at a point of the scene, drawn in pixels around it), so
that zooming in brings the imagery closer without the symbols growing over it.
"""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPen, QTransform
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsPathItem,
    QGraphicsScene,
    QGraphicsTextItem,
)

from . import theme as themes

UNSCALED = QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations
LABEL_PT = 8.5  # the labels' size in points, at any zoom
# Which label stays where two would cover each other: setbacks, then the lake distance,
# the parcel's features, the neighbours' wells, the neighbouring lots.
RANK_SETBACK, RANK_LAKE, RANK_FEATURE, RANK_WELL, RANK_LOT = range(5)


def pen(colour: QColor | str, px: float, style: Qt.PenStyle = Qt.PenStyle.SolidLine) -> QPen:
    """A pen `px` screen pixels wide at any zoom."""
    p = QPen(QColor(colour), px, style)
    p.setCosmetic(True)
    return p


def label_font(bold: bool = False) -> QFont:
    font = QFont()
    font.setPointSizeF(LABEL_PT)
    font.setBold(bold)
    return font


class LabelText(QGraphicsTextItem):
    """A map label on a faint paper-coloured ground, readable over imagery: anchored at a
    point of the scene and drawn a few pixels from it, the same size at any zoom. `rank`
    orders labels that would cover each other at some zoom: the lower is shown (see
    `declutter`); None: always shown."""

    def __init__(self, text: str, rank: int | None = None) -> None:
        super().__init__(text)
        self.rank = rank
        self.setFlag(UNSCALED)
        self.setZValue(8)
        self.setFont(label_font())

    def anchor(self, x: float, y: float, dx: float, dy: float) -> None:
        """The label's top-left corner (dx, dy) pixels from the scene point (x, y)."""
        self.setPos(x, y)
        self.setTransform(QTransform.fromTranslate(dx, dy))

    def paint(self, painter: QPainter, option: Any, widget: Any = None) -> None:
        ground = QColor(themes.active().map_paper)
        ground.setAlpha(190)
        painter.fillRect(self.boundingRect(), ground)
        super().paint(painter, option, widget)


def symbol(scene: QGraphicsScene, x: float, y: float, path: QPainterPath, line: QPen,
           fill: QBrush | QColor) -> QGraphicsPathItem:
    """A symbol drawn in pixels (`path` around 0,0) at the scene point (x, y)."""
    item = QGraphicsPathItem(path)
    item.setPen(line)
    item.setBrush(QBrush(fill))
    item.setFlag(UNSCALED)
    item.setPos(x, y)
    item.setZValue(5)
    scene.addItem(item)
    return item


def dot(r: float) -> QPainterPath:
    path = QPainterPath()
    path.addEllipse(QPointF(0, 0), r, r)
    return path


def square(half: float) -> QPainterPath:
    path = QPainterPath()
    path.addRect(QRectF(-half, -half, 2 * half, 2 * half))
    return path


def well(r: float) -> QPainterPath:
    """A circle with a cross through it."""
    path = dot(r)
    path.moveTo(-r * 1.5, 0)
    path.lineTo(r * 1.5, 0)
    path.moveTo(0, -r * 1.5)
    path.lineTo(0, r * 1.5)
    return path


def on_screen(item: QGraphicsItem, scale: float) -> QRectF:
    """The item's box in pixels on a view of `scale` pixels per foot (up to where the view
    is scrolled to): what two labels are compared by to tell if they would overlap."""
    return item.deviceTransform(QTransform.fromScale(scale, scale)).mapRect(
        item.boundingRect())


def dimension(scene: QGraphicsScene, a: tuple[float, float], b: tuple[float, float],
              text: str, colour: QColor | str, tooltip: str, *,
              taken: list[QRectF] | None = None, scale: float = 1.0,
              inside: QRectF | None = None) -> list[QGraphicsItem]:
    """A dimension line between two scene points (feet): the line, a tick across each end
    and its figure beside the middle, all a constant size on screen. The figure goes
    where it covers none of the `taken` boxes (pixels at `scale` pixels per foot, as the
    map is first shown) and lies within `inside` (the part of the scene first shown),
    trying either side of the line and further out; its box is added to them."""
    (ax, ay), (bx, by) = a, b
    line = scene.addLine(ax, ay, bx, by, pen(colour, 1.6, Qt.PenStyle.DashLine))
    line.setZValue(6)
    angle = math.atan2(by - ay, bx - ax)
    tick = QPainterPath()  # across the line at its end: turned with the line
    tick.moveTo(-6 * math.sin(angle), 6 * math.cos(angle))
    tick.lineTo(6 * math.sin(angle), -6 * math.cos(angle))
    items: list[QGraphicsItem] = [line]
    for x, y in (a, b):
        items.append(symbol(scene, x, y, tick, pen(colour, 2), QColor(0, 0, 0, 0)))
    label = LabelText(text, rank=RANK_SETBACK)
    label.setDefaultTextColor(QColor(colour))
    label.setFont(label_font(bold=True))
    box = label.boundingRect()
    # beside the middle, on either side of the line (its normal), clear of it
    nx, ny = -math.sin(angle), math.cos(angle)
    spots = [(-box.width() / 2 + side * nx * (box.width() / 2 + 4 + away),
              -box.height() / 2 + side * ny * (box.height() / 2 + 4 + away))
             for away in (0, box.height() * 1.2, box.height() * 2.4) for side in (1, -1)]
    room = None if inside is None else QTransform.fromScale(scale, scale).mapRect(inside)

    def fits(dx: float, dy: float, free: bool) -> bool:
        label.anchor((ax + bx) / 2, (ay + by) / 2, dx, dy)
        box = on_screen(label, scale)
        return ((room is None or room.contains(box))
                and (not free or not any(box.intersects(t) for t in taken or ())))

    if not any(fits(dx, dy, True) for dx, dy in spots) and not any(
            fits(dx, dy, False) for dx, dy in spots):
        label.anchor((ax + bx) / 2, (ay + by) / 2, *spots[0])
    if taken is not None:
        taken.append(on_screen(label, scale))
    label.setToolTip(tooltip)
    line.setToolTip(tooltip)
    scene.addItem(label)
    items.append(label)
    for item in items:
        item.setData(0, "dimension")
    return items


def declutter(scene: QGraphicsScene, view_transform: QTransform) -> None:
    """Show each ranked label unless it would cover one of a lower rank (or an earlier one
    of its rank) at the view's present zoom: zoomed out, the setbacks' figures stay and
    the neighbours' names give way; their lines' tooltips still carry them."""
    shown: list[QRectF] = []
    ranked = [i for i in scene.items(Qt.SortOrder.AscendingOrder)
              if isinstance(i, LabelText) and i.rank is not None]
    for item in sorted(ranked, key=lambda i: i.rank or 0):
        box = item.deviceTransform(view_transform).mapRect(item.boundingRect())
        free = not any(box.intersects(other) for other in shown)
        item.setVisible(free)
        if free:
            shown.append(box)
