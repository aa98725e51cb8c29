"""Dialogs: conflicts side by side, enrolment, progress with cancel."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

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

from ..errors import InspectorError
from .context import AppContext
from .file_dialogs import FILTERS, KIT_SUFFIX
from .ops import Op
from .red_bar import RedBar, RefusingDialog
from .screen_size import resize_within_screen


def _shown(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


class ConflictsDialog(QDialog):
    """Both values side by side; a person decides, and the decision is synced.

    A value entered (typed as the field's type: 5 for bedrooms, yes or no, lines separated
    by semicolons) or taken from the other side must be one a case file could hold; a
    refusal is shown here in words and nothing changes."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setWindowTitle("Sync conflicts")
        resize_within_screen(self, 900, 420)
        self.table = QTableWidget(0, 6)
        self.table.setHorizontalHeaderLabels(["Parcel", "Field", "Value here",
                                              "Value from the other side", "From", "When"])
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        for column in (2, 3):  # the two values get the room
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QTableWidget.SelectionMode.SingleSelection)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        self.keep = QPushButton("&Keep the value here")
        self.take = QPushButton("&Take the other value")
        self.enter = QPushButton("&Enter a value...")
        self.keep.clicked.connect(lambda: self.resolve("keep_local"))
        self.take.clicked.connect(lambda: self.resolve("take_incoming"))
        self.enter.clicked.connect(lambda: self.resolve("enter_value"))
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        buttons = QHBoxLayout()
        for b in (self.keep, self.take, self.enter):
            buttons.addWidget(b)
        buttons.addStretch()
        buttons.addWidget(close)
        self.note = QLabel("Until a conflict is resolved the value here stays, neither value "
                           "is lost, and no letter is issued for the parcel.")
        self.note.setWordWrap(True)
        self.problem = RedBar()
        layout = QVBoxLayout(self)
        layout.addWidget(self.note)
        layout.addWidget(self.problem)
        layout.addWidget(self.table)
        layout.addLayout(buttons)
        self.rows: list[dict[str, Any]] = []
        self.busy = False
        self.refresh()

    def _set_busy(self, busy: bool) -> None:
        self.busy = busy
        self._update_buttons()

    def _selected_row(self) -> int | None:
        """The conflict row picked in the table, if any."""
        rows = self.table.selectionModel().selectedRows()
        if len(rows) != 1 or not 0 <= rows[0].row() < len(self.rows):
            return None
        return rows[0].row()

    def _update_buttons(self) -> None:
        """A decision needs a conflict: the buttons work only with a row picked."""
        ready = not self.busy and self._selected_row() is not None
        for b in (self.keep, self.take, self.enter):
            b.setEnabled(ready)

    def refresh(self) -> None:
        """Read the open conflicts on the worker; the table fills when they are in."""
        from ..services import exchange as sync

        ws = self.ctx.ws
        if ws is None:
            return
        self._set_busy(True)
        self.ctx.runner.run(lambda: sync.conflicts(ws), self._show,
                            on_error=self._failed)

    @staticmethod
    def _words(c: dict[str, Any]) -> tuple[str, str, str]:
        """The field and both values as a person reads and types them."""
        from ..services import exchange as sync

        if c["field"].endswith(")"):  # a record deleted, or created on both sides
            return c["field"], _shown(c["local_value"]), _shown(c["incoming_value"])
        return (sync.field_label(c), sync.value_text(c, "local_value"),
                sync.value_text(c, "incoming_value"))

    def _show(self, rows: list[dict[str, Any]]) -> None:
        self.rows = rows
        self.table.setRowCount(len(rows))
        for r, c in enumerate(rows):
            field, here, there = self._words(c)
            for col, text in enumerate((c["sbl"] or "", field, here, there,
                                        f"{c['incoming_user']} on {c['device']}",
                                        c["incoming_at"][:16].replace("T", " ") + " UTC")):
                item = QTableWidgetItem(text)
                if col == 1:
                    item.setToolTip(c["field"])
                self.table.setItem(r, col, item)
        if rows:
            self.table.selectRow(0)
        self._set_busy(False)

    def resolve(self, choice: str, value: Any = None) -> None:
        row, ws = self._selected_row(), self.ctx.ws
        if self.busy or row is None or ws is None:
            return
        conflict = self.rows[row]
        field, here, _ = self._words(conflict)
        text: str | None = None
        if choice == "enter_value" and value is None:
            typed, ok = QInputDialog.getText(self, "Enter a value", f"{field}:",
                                             QLineEdit.EchoMode.Normal, here)
            if not ok:
                return
            text = typed
        from ..services import exchange as sync

        self.problem.hide()
        self._set_busy(True)
        self.ctx.runner.run(
            lambda: sync.resolve(ws, conflict["id"], choice=choice, value=value,
                                 text=text),
            lambda _result: self._resolved(conflict, field), on_error=self._failed)

    def _resolved(self, conflict: dict[str, Any], field: str) -> None:
        self.ctx.status.emit(f"Resolved {field} of {conflict['sbl']}")
        if conflict["sbl"]:
            self.ctx.changed.emit(conflict["sbl"])
        self.refresh()

    def _failed(self, exc: BaseException) -> None:
        self._set_busy(False)
        if not isinstance(exc, InspectorError):
            self.ctx.error(exc)
            return
        text = exc.in_app
        self.problem.say(f"Not resolved: {text}")
        self.ctx.status.emit(text.splitlines()[0])


class EnrollDialog(RefusingDialog):
    """The laptop's name, parcels and kit passphrase, checked through the service before
    the kit's file is chosen; a refusal said in the red bar with everything typed kept.
    `done` gets the enrolment's result once the kit is written."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None, *,
                 done: Callable[[dict[str, Any]], None] | None = None) -> None:
        super().__init__(parent)
        self.ctx, self._done = ctx, done
        self.setWindowTitle("Enrol a laptop")
        self.name = QLineEdit()
        self.name.setPlaceholderText("e.g. laptop-olmsted")
        self.parcels = QLineEdit()
        self.parcels.setPlaceholderText("SBLs separated by commas")
        self.passphrase = QLineEdit()
        self.passphrase.setEchoMode(QLineEdit.EchoMode.Password)
        self.passphrase.setPlaceholderText("at least 10 characters; tell it to the inspector")
        self.again = QLineEdit()
        self.again.setEchoMode(QLineEdit.EchoMode.Password)
        # a private certified inspector's laptop (Chapter 202, Article III): everything
        # recorded there is theirs, under the certification registered as a provider
        self.inspector = QLineEdit()
        self.inspector.setPlaceholderText("only for a private certified inspector's laptop")
        self.certification = QLineEdit()
        self.certification.setPlaceholderText("as registered in Records > Providers...")
        form = QFormLayout()
        form.addRow("Laptop &name", self.name)
        form.addRow("&Parcels", self.parcels)
        form.addRow("Kit pass&phrase", self.passphrase)
        form.addRow("Passphrase &again", self.again)
        form.addRow("Certified &inspector", self.inspector)
        form.addRow("Their certi&fication", self.certification)
        self.problem = RedBar()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.submit)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(QLabel("The field kit holds the laptop's signing key, encrypted "
                                "with the passphrase: hand the kit and the passphrase over "
                                "separately."))
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)

    def values(self) -> tuple[str, list[str] | None, str, bool]:
        """Name, parcels, passphrase, and whether the passphrase was typed the same twice."""
        sbls = [s.strip() for s in self.parcels.text().split(",") if s.strip()]
        same = self.passphrase.text() == self.again.text()
        return self.name.text().strip(), sbls or None, self.passphrase.text(), same

    def _busy(self, busy: bool) -> None:
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(not busy)

    def _failed(self, exc: BaseException) -> None:
        self._busy(False)
        if isinstance(exc, InspectorError):
            self.refuse(exc.in_app)
        else:
            self.ctx.error(exc)

    def submit(self) -> None:
        """Check what was typed, then ask where to save the kit, then write it."""
        from ..services import exchange as sync

        ws = self.ctx.ws
        if ws is None:
            return
        name, parcels, passphrase, same = self.values()
        if not same:
            self.refuse("The two passphrases differ; type the same kit passphrase twice.")
            self.again.setFocus()
            return
        self.problem.hide()
        self._busy(True)

        def save(_: list[str]) -> None:
            saved = self.ctx.files.save_file(self, "field kits", "Save the field kit",
                                             f"{name}{KIT_SUFFIX}", FILTERS["new field kits"],
                                             suffix=KIT_SUFFIX)
            if saved is None:
                self._busy(False)
                return
            out = saved[0]
            Op(self.ctx.runner, lambda: sync.enroll(ws, name, out, parcels,
                                                    passphrase=passphrase, **person)
               ).success(self._enrolled).failure(self._failed).run()

        person = {"inspector": self.inspector.text(),
                  "certification": self.certification.text()}
        Op(self.ctx.runner, lambda: sync.check_enrolment(ws, name, parcels,
                                                         passphrase=passphrase, **person)
           ).success(save).failure(self._failed).run()

    def _enrolled(self, result: dict[str, Any]) -> None:
        self._busy(False)
        self.accept()
        if self._done is not None:
            self._done(result)


def ok_cancel(dialog: QDialog) -> QDialogButtonBox:
    """OK and Cancel, accepting and rejecting `dialog`."""
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                               | QDialogButtonBox.StandardButton.Cancel)
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    return buttons


def run_with_progress(ctx: AppContext, parent: QWidget, title: str,
                      fn: Callable[[Callable[[int, int], None], Callable[[], bool]], Any],
                      done: Callable[[Any], None]) -> QProgressDialog:
    """Long work on the worker thread, a progress bar and a Cancel button here."""
    op = ctx.op(fn).success(done).with_progress(title, parent)
    op.run()
    assert op.progress_dialog is not None
    return op.progress_dialog
