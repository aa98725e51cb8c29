"""A well's conditions that change its separations (10 NYCRR Appendix 75-A, Table 2, notes
(a) and (g)): which well, then yes, no or not known for each."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from PySide6.QtWidgets import QComboBox, QDialog, QFormLayout, QLabel, QVBoxLayout, QWidget

from ..domain.case import SiteFeature
from .dialogs import ok_cancel

# the conditions, as the site feature declares them
CONDITIONS = ("shallow_aquifer", "drainage_path")
_ANSWERS = (("Not known", "unknown"), ("Yes", "yes"), ("No", "no"))
_VALUES: dict[str, bool | None] = {"unknown": None, "yes": True, "no": False}
_KEYS = {v: k for k, v in _VALUES.items()}


def _label(name: str) -> str:
    spec = next(f for f in dataclasses.fields(SiteFeature) if f.name == name).metadata["spec"]
    return str(spec.label)


class WellConditionsDialog(QDialog):
    """The parcel's wells in the order they were located, and for the chosen one its two
    conditions as recorded."""

    def __init__(self, parent: QWidget | None, wells: Sequence[SiteFeature]) -> None:
        super().__init__(parent)
        self.setWindowTitle("Well conditions")
        self.wells = list(wells)
        self.well = QComboBox()
        for n, w in enumerate(self.wells, start=1):
            self.well.addItem(f"Well #{n}" + (f": {w.note}" if w.note else ""), n)
        self.answers: dict[str, QComboBox] = {}
        form = QFormLayout()
        form.addRow("&Well", self.well)
        for name in CONDITIONS:
            box = QComboBox()
            for text, value in _ANSWERS:
                box.addItem(text, value)
            self.answers[name] = box
            form.addRow(_label(name), box)
        why = QLabel("A shallow well's separations increase by half (note (g)); a system "
                     "upgrade and in the path of drainage to the well is 200 ft from it on "
                     "the rows that carry note (a). Not known applies the table's row.")
        why.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(why)
        layout.addWidget(ok_cancel(self))
        self.well.currentIndexChanged.connect(self._show)
        self._show()

    def _show(self) -> None:
        well = self.wells[self.well.currentIndex()]
        for name, box in self.answers.items():
            box.setCurrentIndex(max(box.findData(_KEYS[getattr(well, name)]), 0))

    def chosen(self) -> tuple[int, bool | None, bool | None]:
        """The well (counted from 1) and its conditions as chosen."""
        shallow, drainage = (_VALUES[self.answers[n].currentData()] for n in CONDITIONS)
        return int(self.well.currentData()), shallow, drainage

    @classmethod
    def ask(cls, parent: QWidget | None, wells: Sequence[SiteFeature]
            ) -> tuple[int, bool | None, bool | None] | None:
        dialog = cls(parent, wells)
        return dialog.chosen() if dialog.exec() == QDialog.DialogCode.Accepted else None
