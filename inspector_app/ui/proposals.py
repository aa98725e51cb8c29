"""Sync > Waiting for a person: the parcels laptops found in the field (accepted or rejected
at the office), and the changes kept aside with why."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..domain.labels import local_time, words
from .context import AppContext
from .screen_size import resize_within_screen

_PROPOSAL_COLUMNS = ("Tax map number", "Laptop", "Recorded by", "On", "Status", "Note")
_HELD_COLUMNS = ("Parcel", "Change", "Value", "Why it waits", "Received")


class WaitingDialog(QDialog):
    """What waits for a person. At the office a proposal is accepted (added to the roll,
    with what the laptop recorded, and assigned to it) or rejected with a reason."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setWindowTitle("Waiting for a person")
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("<b>Parcels found in the field</b> (not on the roll when a "
                                "laptop recorded them)"))
        self.proposals = _table(_PROPOSAL_COLUMNS)
        layout.addWidget(self.proposals)
        buttons = QHBoxLayout()
        self.accept_button = QPushButton("&Accept: add to the roll")
        self.reject_button = QPushButton("&Reject...")
        self.accept_button.clicked.connect(self._accept)
        self.reject_button.clicked.connect(self._reject)
        buttons.addWidget(self.accept_button)
        buttons.addWidget(self.reject_button)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        layout.addWidget(QLabel("<b>Changes kept aside</b> (not applied; nothing is lost)"))
        self.held = _table(_HELD_COLUMNS)
        layout.addWidget(self.held)
        self.message = QLabel()
        self.message.setWordWrap(True)
        layout.addWidget(self.message)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        layout.addWidget(close)
        self.proposals.itemSelectionChanged.connect(self._chosen)
        resize_within_screen(self, 900, 520)
        self._rows: list[dict[str, Any]] = []
        self.office = False
        self.refresh()

    def refresh(self) -> None:
        ws = self.ctx.ws
        if ws is None:
            return
        from ..services.exchange import proposal_flow

        def read() -> tuple[bool, list[dict[str, Any]], list[dict[str, Any]]]:
            return (ws.role == "office", proposal_flow.listed(ws),
                    proposal_flow.kept_aside(ws))

        self.ctx.op(read).success(self._show).run()

    def _show(self, found: tuple[bool, list[dict[str, Any]], list[dict[str, Any]]]) -> None:
        self.office, self._rows, held = found
        _fill(self.proposals, [
            (p["sbl"], p["laptop"], p["proposed_by"], local_time(p["proposed_at"]),
             words(p["status"]) + (f" by {p['decided_by']}" if p["decided_by"] else ""),
             p["note"] or "") for p in self._rows])
        _fill(self.held, [
            (h["parcel"] or "", f"{words(h['op'])} of {words(h['table'])}"
             + (f", {words(h['field'])}" if h["field"] else ""),
             "" if h["value"] is None else str(h["value"])[:80],
             h["problem"] or ("a parcel proposed by a laptop" if h["why"] == "proposal"
                              else words(h["why"])), local_time(h["received_at"]))
            for h in held])
        self._chosen()

    def _selected(self) -> dict[str, Any] | None:
        rows = {i.row() for i in self.proposals.selectedIndexes()}
        return self._rows[rows.pop()] if len(rows) == 1 else None

    def _chosen(self) -> None:
        chosen = self._selected()
        pending = self.office and chosen is not None and chosen["status"] == "pending"
        self.accept_button.setEnabled(pending)
        self.reject_button.setEnabled(pending)

    def _accept(self) -> None:
        chosen, ws = self._selected(), self.ctx.ws
        if chosen is None or ws is None:
            return
        from ..services.exchange import proposal_flow

        self.ctx.op(lambda: proposal_flow.accept(ws, chosen["sbl"])).success(
            lambda r: self._done(f"Parcel {r['sbl']} is on the roll, assigned to {r['laptop']}"
                                 f" ({r['changes_applied']} change(s) applied).")).run()

    def _reject(self) -> None:
        chosen, ws = self._selected(), self.ctx.ws
        if chosen is None or ws is None:
            return
        reason, ok = QInputDialog.getText(self, "Reject the proposal",
                                          f"Why is parcel {chosen['sbl']} not added to the "
                                          "roll? The laptop is told.")
        if not ok:
            return
        from ..services.exchange import proposal_flow

        self.ctx.op(lambda: proposal_flow.reject(ws, chosen["sbl"], reason=reason)).success(
            lambda r: self._done(f"Parcel {r['sbl']} was rejected; the laptop learns it with "
                                 "its next package.")).run()

    def _done(self, text: str) -> None:
        self.message.setText(text)
        self.ctx.say(text)
        self.refresh()


def _table(columns: tuple[str, ...]) -> QTableWidget:
    table = QTableWidget(0, len(columns))
    table.setHorizontalHeaderLabels(list(columns))
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.horizontalHeader().setStretchLastSection(True)
    table.verticalHeader().setVisible(False)
    return table


def _fill(table: QTableWidget, rows: list[tuple[str, ...]]) -> None:
    table.setRowCount(len(rows))
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            table.setItem(r, c, QTableWidgetItem(text))
    table.resizeColumnsToContents()
