"""Measuring on the site map: click two or more points and read each leg and the running
total in feet; Esc (or the Measure button again) ends it. Nothing is stored: the path is
drawn over the sketch while it lasts and said in the map's hint line."""

from __future__ import annotations

import math
from collections.abc import Callable

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene

from . import theme as themes
from .map_items import LabelText, dot, label_font, pen, symbol


def _feet(value: float) -> str:
    return f"{value:,.1f} ft"


def added_unrounded(legs: list[float]) -> bool:
    """Whether the legs as shown (to 0.1 ft) do not add up to their total as shown: the
    total is of the legs as measured, before rounding, and the readout says so."""
    return _feet(sum(round(leg, 1) for leg in legs)) != _feet(sum(legs))


class MeasureTool(QObject):
    """The points clicked, their legs' lengths (from the services' measure, the one every
    distance of the app is measured with) and what is drawn of them."""

    said = Signal(str)  # the readout, for the map's hint line

    def __init__(self, scene: QGraphicsScene, same_place: Callable[[], float]) -> None:
        super().__init__()
        self.scene = scene
        self.same_place = same_place  # feet within which a click is the point before
        self.points: list[tuple[float, float]] = []
        self.legs: list[float] = []
        self.active = False
        self._items: list[QGraphicsItem] = []
        self._rubber: list[QGraphicsItem] = []

    @property
    def total_ft(self) -> float:
        return sum(self.legs)

    def start(self) -> None:
        self.clear()
        self.active = True
        self.said.emit("Measuring: click the first point; each click adds a leg. Esc ends "
                       "(nothing is kept).")

    def stop(self) -> None:
        """End the measure: the drawing goes, the last figures stay said."""
        if not self.active:
            return
        self.active = False
        self._forget_rubber()
        for item in self._items:
            if item.scene() is self.scene:
                self.scene.removeItem(item)
        self._items = []
        if len(self.points) >= 2:
            legs = len(self.legs)
            self.said.emit(f"Measured {_feet(self.total_ft)} in {legs} "
                           f"leg{'s' if legs != 1 else ''}; nothing was kept.")
        else:
            self.said.emit("Measuring ended; nothing was kept.")
        self.points = []
        self.legs = []

    def clear(self) -> None:
        """Forget the drawing without a word (the sketch was drawn anew)."""
        self.active = False
        self._items = []
        self._rubber = []
        self.points = []
        self.legs = []

    def add(self, x: float, y: float) -> None:
        """A click at (x, y) feet (EPSG:2261)."""
        from ..services.parcel.sketch import measured_legs

        if not self.active:
            return
        if self.points and math.dist(self.points[-1], (x, y)) <= self.same_place():
            return  # the second press of a double-click
        colour = QColor(themes.active().highlight)
        self._forget_rubber()
        self.points.append((x, y))
        self._items.append(symbol(self.scene, x, -y, dot(3.5), pen(colour, 1), colour))
        if len(self.points) >= 2:
            (ax, ay), (bx, by) = self.points[-2:]
            self.legs = measured_legs(self.points)
            line = self.scene.addLine(ax, -ay, bx, -by, pen(colour, 2))
            line.setZValue(7)
            self._items.append(line)
            label = self._label(f"{_feet(self.total_ft)}" if len(self.legs) > 1
                                else _feet(self.legs[-1]), x, y, colour)
            self._items.append(label)
        self.said.emit(self.readout())

    def hover(self, x: float, y: float) -> None:
        """The mouse at (x, y): a line from the last point, with its length."""
        from ..services.parcel.sketch import measured_legs

        if not self.active or not self.points:
            return
        self._forget_rubber()
        colour = QColor(themes.active().highlight)
        (ax, ay) = self.points[-1]
        line = self.scene.addLine(ax, -ay, x, -y, pen(colour, 1))
        line.setZValue(7)
        (leg,) = measured_legs([self.points[-1], (x, y)])
        self._rubber = [line, self._label(f"+{_feet(leg)}", x, y, colour)]

    def readout(self) -> str:
        if len(self.points) < 2:
            return "Measuring: click the next point. Esc ends (nothing is kept)."
        legs = " + ".join(_feet(leg) for leg in self.legs[-3:])
        more = "... + " if len(self.legs) > 3 else ""
        unrounded = ", added before rounding" if added_unrounded(self.legs) else ""
        return (f"Measured: last leg {_feet(self.legs[-1])}; total {_feet(self.total_ft)} "
                f"({more}{legs}{unrounded}). Click on to add a leg; Esc ends (nothing is "
                "kept).")

    def _label(self, text: str, x: float, y: float, colour: QColor) -> LabelText:
        label = LabelText(text)
        label.setFont(label_font(bold=True))
        label.setDefaultTextColor(colour)
        label.anchor(x, -y, 8, -label.boundingRect().height() - 4)
        label.setZValue(9)
        self.scene.addItem(label)
        return label

    def _forget_rubber(self) -> None:
        for item in self._rubber:
            if item.scene() is self.scene:
                self.scene.removeItem(item)
        self._rubber = []

