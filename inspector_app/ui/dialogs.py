"""Dialogs: conflicts side by side, enrolment, progress with cancel."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QProgressDialog,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from .context import AppContext


def _shown(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


class ConflictsDialog(QDialog):
    """Both values side by side; a person decides, and the decision is synced."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setWindowTitle("Sync conflicts")
        self.resize(900, 420)
        self.table = QTableWidget(0, 6)
        self.table.setHorizontalHeaderLabels(["Parcel", "Field", "Value here",
                                              "Value from the other side", "From", "When"])
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        for column in (2, 3):  # the two values get the room
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        keep = QPushButton("&Keep the value here")
        take = QPushButton("&Take the other value")
        enter = QPushButton("&Enter a value...")
        keep.clicked.connect(lambda: self.resolve("keep_local"))
        take.clicked.connect(lambda: self.resolve("take_incoming"))
        enter.clicked.connect(lambda: self.resolve("enter_value"))
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        buttons = QHBoxLayout()
        for b in (keep, take, enter):
            buttons.addWidget(b)
        buttons.addStretch()
        buttons.addWidget(close)
        self.note = QLabel("Until a conflict is resolved the value here stays, neither value "
                           "is lost, and no letter is issued for the parcel.")
        self.note.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.note)
        layout.addWidget(self.table)
        layout.addLayout(buttons)
        self.rows: list[dict[str, Any]] = []
        self.refresh()

    def refresh(self) -> None:
        from ..services import sync

        self.rows = self.ctx.runner.wait(lambda: sync.conflicts(self.ctx.ws))
        self.table.setRowCount(len(self.rows))
        for r, c in enumerate(self.rows):
            for col, text in enumerate((c["sbl"] or "", c["field"], _shown(c["local_value"]),
                                        _shown(c["incoming_value"]), f"{c['incoming_user']} on "
                                        f"{c['device']}",
                                        c["incoming_at"][:16].replace("T", " ") + " UTC")):
                self.table.setItem(r, col, QTableWidgetItem(text))
        if self.rows:
            self.table.selectRow(0)

    def resolve(self, choice: str, value: Any = None) -> None:
        row = self.table.currentRow()
        if not 0 <= row < len(self.rows):
            return
        conflict = self.rows[row]
        if choice == "enter_value" and value is None:
            text, ok = QInputDialog.getText(self, "Enter a value", f"{conflict['field']}:",
                                            QLineEdit.EchoMode.Normal,
                                            _shown(conflict["local_value"]))
            if not ok:
                return
            value = text
        from ..services import sync

        self.ctx.runner.wait(lambda: sync.resolve(self.ctx.ws, conflict["id"], choice=choice,
                                                  value=value))
        self.ctx.status.emit(f"Resolved {conflict['field']} of {conflict['sbl']}")
        if conflict["sbl"]:
            self.ctx.changed.emit(conflict["sbl"])
        self.refresh()


class EnrollDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Enrol a laptop")
        self.name = QLineEdit()
        self.name.setPlaceholderText("e.g. laptop-olmsted")
        self.parcels = QLineEdit()
        self.parcels.setPlaceholderText("SBLs separated by commas; empty for all parcels")
        form = QFormLayout()
        form.addRow("Laptop &name", self.name)
        form.addRow("&Parcels", self.parcels)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(QLabel("The field kit holds the laptop's signing key: hand it over "
                                "on a trusted drive."))
        layout.addWidget(buttons)

    def values(self) -> tuple[str, list[str] | None]:
        sbls = [s.strip() for s in self.parcels.text().split(",") if s.strip()]
        return self.name.text().strip(), sbls or None


def run_with_progress(ctx: AppContext, parent: QWidget, title: str,
                      fn: Callable[[Callable[[int, int], None], Callable[[], bool]], Any],
                      done: Callable[[Any], None]) -> QProgressDialog:
    """Long work on the worker thread, a progress bar and a Cancel button here."""
    dialog = QProgressDialog(title, "Cancel", 0, 0, parent)
    dialog.setWindowModality(Qt.WindowModality.WindowModal)
    dialog.setMinimumDuration(300)
    job_box: dict[str, Any] = {}

    def progress(n: int, total: int) -> None:
        dialog.setMaximum(total)
        dialog.setValue(n)

    def finished(result: Any) -> None:
        dialog.reset()
        done(result)

    def failed(exc: BaseException) -> None:
        dialog.reset()
        ctx.error(exc)

    job = ctx.runner.run(fn, finished, on_error=failed, on_progress=progress)
    job_box["job"] = job
    dialog.canceled.connect(job.cancel.set)
    return dialog
