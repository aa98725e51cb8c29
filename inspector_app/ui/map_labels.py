"""Where the site map's labels go as the sketch is first shown: inside the part shown,
clear of the labels and symbols already placed (boxes in pixels at that zoom)."""

from __future__ import annotations

from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene

from .map_items import RANK_LOT, RANK_WELL, LabelText, on_screen

Ring = tuple[tuple[float, float], ...]


class Placer:
    """The labels of one drawing of the sketch: `first` is the part of the scene first
    shown, `scale` its pixels per foot; `taken` the boxes (pixels) already placed."""

    def __init__(self, scene: QGraphicsScene, first: QRectF, scale: float) -> None:
        self.scene, self.first, self.scale = scene, first, scale
        self.taken: list[QRectF] = []

    def take(self, item: QGraphicsItem) -> None:
        """Keep other labels off an item already placed."""
        self.taken.append(on_screen(item, self.scale))

    def place(self, item: LabelText, x: float, y: float, dx: float = 0.0,
              dy: float = 0.0) -> None:
        """Put a label at the scene point (x, y), its corner (dx, dy) pixels from it, moved
        just enough to stay inside the part of the sketch first shown."""
        rect, box, s = self.first, item.boundingRect(), self.scale
        dx = max((rect.left() - x) * s, min(dx, (rect.right() - x) * s - box.width()))
        dy = max((rect.top() - y) * s, min(dy, (rect.bottom() - y) * s - box.height()))
        item.anchor(x, y, dx, dy)

    def label_once(self, text: str, ring: Ring, font: QFont, colour: QColor,
                   beside: float | None = None) -> bool:
        """A label at the middle of `ring` (scene y downward), unless it would cover one
        already placed: then the line's tooltip carries it alone. `beside`: pixels right
        (or left) of a symbol at the point."""
        xs = [x for x, _ in ring]
        ys = [y for _, y in ring]
        rect = self.first
        cx = min(max(sum(xs) / len(xs), rect.left()), rect.right())
        cy = min(max(-sum(ys) / len(ys), rect.top()), rect.bottom())
        item = LabelText(text, RANK_WELL if beside is not None else RANK_LOT)
        item.setFont(font)
        item.setDefaultTextColor(colour)
        box = item.boundingRect()
        self.scene.addItem(item)
        if beside is not None:  # right of a symbol at the point, else left of it
            spots = [(beside, -box.height() / 2), (-beside - box.width(), -box.height() / 2)]
        else:                   # centred on the middle of the line, or just above or below
            spots = [(-box.width() / 2, -box.height() * (0.5 + shift))
                     for shift in (0, 1.2, -1.2)]
        for dx, dy in spots:
            self.place(item, cx, cy, dx, dy)
            placed = on_screen(item, self.scale)
            if not any(placed.intersects(other) for other in self.taken):
                self.taken.append(placed)
                return True
        self.scene.removeItem(item)
        return False
