"""Photos attached to one of a parcel's components from the form: image files dropped
onto a component's row, or chosen for the selected row with a button under the table."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QPushButton, QTableWidget

from ..domain.case import Case, element_names

# the component as `attach` names it ("septic_tank#1"), and the files (None: choose them)
Attach = Callable[[str, list[Path] | None], None]


def component_name(case: Case | None, row: int) -> str | None:
    """The component on the form's row `row` as `attach` and the site map name it: its
    kind and its number among the case's components of that kind."""
    if case is None or not 0 <= row < len(case.components):
        return None
    return element_names([c.kind for c in case.components])[row]


class _Drops(QObject):
    """Takes files dropped onto the table's rows: each drop attaches to its row's
    component."""

    def __init__(self, table: QTableWidget, case: Callable[[], Case | None],
                 attach: Attach) -> None:
        super().__init__(table)
        self.table, self.case, self.attach = table, case, attach
        table.setAcceptDrops(True)
        table.viewport().setAcceptDrops(True)
        table.viewport().installEventFilter(self)

    def _row(self, event: Any) -> int:
        return self.table.rowAt(int(event.position().y()))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind not in (QEvent.Type.DragEnter, QEvent.Type.DragMove, QEvent.Type.Drop):
            return False
        mime = event.mimeData()  # type: ignore[attr-defined]
        name = component_name(self.case(), self._row(event))
        if not mime.hasUrls() or name is None:
            if kind is not QEvent.Type.DragEnter:
                event.ignore()
            return kind is not QEvent.Type.DragEnter
        event.acceptProposedAction()  # type: ignore[attr-defined]
        if kind is QEvent.Type.Drop:
            paths = [Path(u.toLocalFile()) for u in mime.urls() if u.isLocalFile()]
            if paths:
                self.attach(name, paths)
        return True


def attach_photos_controls(table: QTableWidget, case: Callable[[], Case | None],
                           attach: Attach) -> QPushButton:
    """Make the table's rows take dropped photos, and the button that attaches photos to
    the selected row's component (it asks for the files)."""
    _Drops(table, case, attach)
    button = QPushButton("Attach photos to selected...")
    button.setToolTip("Attach photos to the selected component (or drop them onto its row): "
                      "the report of findings prints them under it")

    def chosen() -> None:
        name = component_name(case(), table.currentRow())
        if name is not None:
            attach(name, None)
    button.clicked.connect(chosen)
    return button
