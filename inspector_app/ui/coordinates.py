"""Typing the coordinates of a site feature, in longitude/latitude or State Plane feet."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFormLayout,
    QLabel,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from ..errors import InputError
from .dialogs import ok_cancel
from .red_bar import RedBar


class CoordinatesDialog(QDialog):
    """The coordinate system, then one point per line. OK checks the lines with the site
    service and keeps the dialog open, with the text as typed, until they are right."""

    def __init__(self, parent: QWidget | None, label: str, target: str,
                 system: str = "lonlat") -> None:
        from ..services.parcel import site

        super().__init__(parent)
        self.setWindowTitle(f"{label}: coordinates")
        self.target = target
        self.system = QComboBox()
        for key, text in site.COORDINATE_SYSTEMS.items():
            self.system.addItem(text, key)
        self.system.setCurrentIndex(max(self.system.findData(system), 0))
        needed, called = site.points_needed(target)
        self.needed = (f"The {label.lower()} takes one point." if needed == 1 else
                       f"The {label.lower()} takes at least {needed} {called}, in order.")
        self.how = QLabel()
        self.how.setWordWrap(True)
        self.text = QPlainTextEdit()
        self.text.setTabChangesFocus(True)
        self.problem = RedBar()
        buttons = ok_cancel(self)
        form = QFormLayout()
        form.addRow("Coordinate &system", self.system)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.how)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.problem)
        layout.addWidget(buttons)
        self.system.currentIndexChanged.connect(self._explain)
        self._explain()
        self.resize(560, 380)

    def _explain(self) -> None:
        if self.system.currentData() == "state_plane":
            how = ("Easting,northing of each point in US survey feet, one point per line, as "
                   "on a survey plan (e.g. 628400.25,1021000.50).")
        else:
            how = ("Longitude,latitude of each point in degrees, longitude first, one point "
                   "per line (e.g. -77.3001,42.8001).")
        self.how.setText(f"{how} {self.needed}")

    def chosen(self) -> tuple[str, str]:
        return str(self.system.currentData()), self.text.toPlainText()

    def accept(self) -> None:
        from ..services.parcel import site

        system, text = self.chosen()
        try:
            site.typed_points(text, system, self.target)
        except InputError as exc:
            self.problem.say(str(exc))
            return
        self.problem.hide()
        super().accept()

    @classmethod
    def ask(cls, parent: QWidget | None, label: str, target: str,
            system: str = "lonlat") -> tuple[str, str] | None:
        """(system, text) as checked, or None if the user cancelled."""
        dialog = cls(parent, label, target, system)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        return dialog.chosen()
