"""The File menu's imports of aerial imagery, tax-parcel lot lines and shoreline layers:
what to ask before, and the match report after."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

from PySide6.QtCore import QDate
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from .date_field import DateField
from .dialogs import ok_cancel
from .red_bar import RedBar, RefusingDialog
from .screen_size import resize_within_screen

IMAGERY_FILTER = "Aerial imagery (*.tif *.tiff *.jpg *.jpeg *.png *.mbtiles)"
LOTS_FILTER = "Tax-parcel lines (*.shp *.gpkg *.geojson *.json)"
COPY_UP_TO_BYTES = 500 * 1024 * 1024  # larger files are referred to unless the user says


class ImageryImportDialog(QDialog):
    """Name, copy or refer, source and date of an image about to be imported."""

    def __init__(self, path: Path, parent: QWidget | None = None, *,
                 today: date | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Import aerial imagery")
        self.name = QLineEdit(path.stem)
        self.copy = QRadioButton("&Copy it into the data folder")
        self.refer = QRadioButton("&Refer to the file where it is")
        group = QButtonGroup(self)
        for b in (self.copy, self.refer):
            group.addButton(b)
        try:
            size = path.stat().st_size
        except OSError:
            size = 0
        (self.copy if size <= COPY_UP_TO_BYTES else self.refer).setChecked(True)
        explain = QLabel(
            "A copy is kept in the data folder (copied with the folder; field kits carry the "
            "part around their parcels) and keeps working if "
            f"the original is moved or deleted; it takes about {size / 1_048_576:,.0f} MB "
            "of disk (an image without overviews is copied as a tiled image with "
            "overviews, so it draws fast). A reference takes no room but needs a tiled "
            "image with overviews; if the file is moved, renamed or changed, the site map "
            "says so and shows no imagery until it is put back or imported again.")
        explain.setWordWrap(True)
        self.source = QLineEdit()
        self.source.setPlaceholderText("e.g. NYS orthoimagery, Ontario County")
        self.dated = QCheckBox("&Date known")
        self.dated.setChecked(False)
        day = today or date.today()
        self.captured = DateField(QDate(day.year, day.month, day.day))
        self.captured.setEnabled(False)
        self.dated.toggled.connect(self.captured.setEnabled)
        when = QHBoxLayout()
        when.addWidget(self.dated)
        when.addWidget(self.captured)
        when.addStretch()
        form = QFormLayout()
        form.addRow("File", _file_label(path))
        form.addRow("&Name", self.name)
        form.addRow("&Source", self.source)
        form.addRow("Date of the imagery", when)
        self.name.setFocus()
        buttons = ok_cancel(self)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.copy)
        layout.addWidget(self.refer)
        layout.addWidget(explain)
        layout.addWidget(buttons)

    def values(self) -> dict[str, Any]:
        captured = self.captured.date().toPython() if self.dated.isChecked() else None
        return {"name": self.name.text().strip(), "copy": self.copy.isChecked(),
                "source": self.source.text().strip() or None,
                "captured_on": captured}


class LotsImportDialog(QDialog):
    """The lot-line file's name and, if it has an unusual one, its SBL field."""

    def __init__(self, path: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Import tax-parcel lines")
        self.name = QLineEdit(path.stem)
        self.sbl_field = QLineEdit()
        self.sbl_field.setPlaceholderText("found by itself when left empty")
        self.source = QLineEdit()
        self.source.setPlaceholderText("e.g. Ontario County Real Property, 2026 roll")
        form = QFormLayout()
        form.addRow("File", _file_label(path))
        form.addRow("&Name", self.name)
        form.addRow("&SBL field", self.sbl_field)
        form.addRow("S&ource", self.source)
        note = QLabel("Each lot is matched to a parcel by its SBL (section-block-lot). "
                      "Nothing of the parcels changes: the lines are drawn on their site "
                      "maps. The report lists what did not match and why.")
        note.setWordWrap(True)
        buttons = ok_cancel(self)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(note)
        layout.addWidget(buttons)

    def values(self) -> dict[str, Any]:
        return {"name": self.name.text().strip() or None,
                "sbl_field": self.sbl_field.text().strip() or None,
                "source": self.source.text().strip() or None}


ACCURACY_MEANS = ("The declared accuracy is how far, in feet, the layer's line may lie from "
                  "the true shore, as its maker states it (a survey's or a data set's "
                  "metadata). It is shown with every distance measured to this layer; "
                  "type what the source says, not a guess.")


class ShorelineLayerDialog(RefusingDialog):
    """A shoreline layer's name and declared accuracy: the accuracy typed, never filled in."""

    def __init__(self, path: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Shoreline layer")
        self.name = QLineEdit(path.stem)
        self.accuracy = QLineEdit()
        self.accuracy.setPlaceholderText("feet, e.g. 3 (from the layer's source)")
        form = QFormLayout()
        form.addRow("Layer &name", self.name)
        form.addRow("Declared &accuracy (ft)", self.accuracy)
        means = QLabel(ACCURACY_MEANS)
        means.setWordWrap(True)
        self.problem = RedBar()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.submit)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(_file_label(path))
        layout.addLayout(form)
        layout.addWidget(means)
        layout.addWidget(self.problem)
        layout.addWidget(buttons)
        self.accuracy.setFocus()
        self.chosen: tuple[str, float] | None = None

    def submit(self) -> None:
        name, typed = self.name.text().strip(), self.accuracy.text().strip()
        if not name:
            self.refuse("The layer has no name; give it one.")
            return
        try:
            accuracy = float(typed.replace(",", ""))
        except ValueError:
            accuracy = -1.0
        if not typed:
            self.refuse("Type the layer's declared accuracy in feet, as its source states it.")
            return
        if not 0 <= accuracy <= 100_000:
            self.refuse(f"The declared accuracy {typed!r} is not a number of feet from 0 to "
                        "100000.")
            return
        self.chosen = (name, accuracy)
        self.accept()


def ask_shoreline_layer(path: Path, parent: QWidget | None) -> tuple[str, float] | None:
    """The name and declared accuracy the user gives the layer; None when cancelled."""
    dialog = ShorelineLayerDialog(path, parent)
    dialog.exec()
    return dialog.chosen


def confirm_far_layer(parent: QWidget | None, refusal: str) -> bool:
    """Ask whether a shoreline layer that lies far from the law's water body or from every
    parcel is to be imported all the same (`refusal` says how far it lies)."""
    box = QMessageBox(QMessageBox.Icon.Warning, "Shoreline layer far away",
                      f"{refusal}", parent=parent)
    box.setInformativeText(
        "Import it anyway as the line every lake distance of this data folder is measured "
        "to? What you confirm is kept with the layer, with your name and the time, and "
        "shown wherever the layer is named.")
    anyway = box.addButton("&Import anyway", QMessageBox.ButtonRole.AcceptRole)
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.exec()
    return box.clickedButton() is anyway


def _file_label(path: Path) -> QLabel:
    label = QLabel(str(path))
    label.setWordWrap(True)
    label.setMaximumWidth(520)
    return label


def report_text(report: dict[str, Any]) -> str:
    """The lot-line import's match report, as the user reads (and copies) it."""
    features = report.get("features", 0)
    matched = report.get("matched", 0)
    spelled = list(report.get("spelled_differently") or [])
    unmatched = list(report.get("unmatched") or [])
    same = list(report.get("same_sbl") or [])
    title = report.get("label") or report.get("name") or ""
    lines = [f"Tax-parcel lines{': ' + title if title else ''}",
             f"{features:,} feature(s) read; {matched:,} matched to a parcel by SBL"
             + (f" (field {report['sbl_field']})" if report.get("sbl_field") else "")
             + f"; {len(unmatched):,} not matched."]
    if report.get("parcels_without_lot"):
        lines.append(f"{report['parcels_without_lot']:,} parcel(s) of this data folder have "
                     "no lot in the file.")
    counts = report.get("unmatched_counts") or {}
    if len(counts) > 1 or len(unmatched) > 10:
        lines += ["", "Why they did not match:"]
        lines += [f"  {n:,} × {reason}" for reason, n in sorted(
            counts.items(), key=lambda kv: -kv[1])]
    if unmatched:
        lines += ["", f"Not matched ({len(unmatched):,}):"]
        for u in unmatched:
            sbl = u.get("sbl") or "(no SBL)"
            lines.append(f"  feature {u.get('fid')}, SBL {sbl}: {u.get('reason')}")
    if spelled:
        lines += ["", f"Matched, though the SBL is written differently ({len(spelled):,}):"]
        for e in spelled:
            lines.append(f"  feature {e.get('fid')}: {e.get('reason') or e}")
    if same:
        lines += ["", f"Features joined into one lot ({len(same):,}):"]
        for e in same:
            fids = ", ".join(str(f) for f in e.get("fids", []))
            lines.append(f"  features {fids}, SBL {e.get('sbl')}: {e.get('reason')}")
    if report.get("repaired"):
        lines += ["", "Outlines repaired (self-crossing or unclosed): features "
                  + ", ".join(str(f) for f in report["repaired"])]
    return "\n".join(lines)


class LotReportDialog(QDialog):
    """The match report: scrollable, selectable, and one button to copy it all."""

    def __init__(self, report: dict[str, Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Tax-parcel lines: match report")
        resize_within_screen(self, 640, 460)
        self.text = QPlainTextEdit(report_text(report))
        self.text.setReadOnly(True)
        copy = QPushButton("&Copy the report")
        copy.clicked.connect(lambda: QGuiApplication.clipboard().setText(
            self.text.toPlainText()))
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        close.accepted.connect(self.accept)
        buttons = QHBoxLayout()
        buttons.addWidget(copy)
        buttons.addStretch()
        buttons.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text, 1)
        layout.addLayout(buttons)
