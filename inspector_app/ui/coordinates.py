"""Typing the coordinates of a site feature, in longitude/latitude or State Plane feet."""

from __future__ import annotations

from collections.abc import Sequence

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
    service and keeps the dialog open, with the text as typed, until they are right.

    `recorded` are the longitude,latitude points of the shape the typed one replaces (the
    site service's `recorded_points`): the dialog opens with them, in the chosen system,
    and follows a change of system while they are not edited; OK on them unchanged saves
    nothing."""

    def __init__(self, parent: QWidget | None, label: str, target: str,
                 system: str = "lonlat",
                 recorded: Sequence[tuple[float, float]] = ()) -> None:
        from ..services.parcel import site

        super().__init__(parent)
        self.setWindowTitle(f"{label}: coordinates")
        self.target = target
        self.recorded = tuple(recorded)
        self.label = label
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
        self.unchanged = False  # OK was pressed on the recorded shape as it was
        self._shown_system = str(self.system.currentData())
        self.text.setPlainText(self.prefill(self._shown_system))
        self.system.currentIndexChanged.connect(self._system_changed)
        self._explain()
        self.resize(560, 380)

    def prefill(self, system: str) -> str:
        """The recorded shape's points as typed in `system` ("" when there is none)."""
        from ..services.parcel import site

        return site.typed_text(self.recorded, system)

    def _system_changed(self) -> None:
        system = str(self.system.currentData())
        if self.recorded and self.text.toPlainText() == self.prefill(self._shown_system):
            self.text.setPlainText(self.prefill(system))  # not edited: in the new system
        self._shown_system = system
        self._explain()

    def _explain(self) -> None:
        if self.system.currentData() == "state_plane":
            how = ("Easting,northing of each point in US survey feet, one point per line, as "
                   "on a survey plan (e.g. 628400.25,1021000.50).")
        else:
            how = ("Longitude,latitude of each point in degrees, longitude first, one point "
                   "per line (e.g. -77.3001,42.8001).")
        if self.recorded:
            how += (f" The {self.label.lower()} as recorded is filled in: change what is "
                    "wrong; the points typed replace it.")
        self.how.setText(f"{how} {self.needed}")

    def chosen(self) -> tuple[str, str]:
        return str(self.system.currentData()), self.text.toPlainText()

    def accept(self) -> None:
        from ..services.parcel import site

        system, text = self.chosen()
        self.unchanged = bool(self.recorded) and text.strip() == self.prefill(system).strip()
        if self.unchanged:
            self.problem.hide()  # nothing to save: the shape stays as recorded
            super().reject()
            return
        try:
            site.typed_points(text, system, self.target)
        except InputError as exc:
            self.problem.say(str(exc))
            return
        self.problem.hide()
        super().accept()

    @classmethod
    def ask(cls, parent: QWidget | None, label: str, target: str,
            system: str = "lonlat", recorded: Sequence[tuple[float, float]] = ()
            ) -> tuple[str, str] | None:
        """(system, text) as checked, or None if the user cancelled or left the recorded
        shape as it was."""
        dialog = cls(parent, label, target, system, recorded)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        return dialog.chosen()
