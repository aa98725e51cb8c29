"""Record what became of an issued letter: how it was served (first-class mail, certified
mail with its article number, hand delivery to a person, posting at a place) and when, that
its delivery was confirmed (a return receipt) or that it came back undelivered. Recorded on
the worker by the same service the command line uses (`services/letters/service.py`); a
refusal is shown in the dialog's red bar and nothing is recorded."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QDate
from PySide6.QtWidgets import (
    QComboBox,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from ..domain.labels import words
from ..domain.records import SERVICE_METHODS
from ..services.letters import service as letter_service
from .context import AppContext
from .date_field import DateField
from .red_bar import RedBar, RefusingDialog

EVENTS = (("served", "Served"),
          ("delivered", "Delivery confirmed (return receipt)"),
          ("returned", "Came back undelivered"))


class LetterServiceDialog(RefusingDialog):
    """What became of one issued letter, as the user records it."""

    def __init__(self, ctx: AppContext, letter_id: str, describe: str,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx, self.letter_id = ctx, letter_id
        self.done_with: dict[str, Any] | None = None
        self.setWindowTitle(f"Service of letter {letter_id[:8]}")
        about = QLabel(describe)
        about.setWordWrap(True)
        self.what = QComboBox()
        for key, label in EVENTS:
            self.what.addItem(label, key)
        self.method = QComboBox()
        for method in SERVICE_METHODS:
            self.method.addItem(words(method), method)
        self.article = QLineEdit()
        self.article.setPlaceholderText("e.g. 7019 0700 0000 1234 5678")
        self.to = QLineEdit()
        self.to.setPlaceholderText("the person it was handed to")
        self.where = QLineEdit()
        self.where.setPlaceholderText("e.g. the front door of the dwelling")
        self.signed_by = QLineEdit()
        self.signed_by.setPlaceholderText("as on the return receipt (optional)")
        self.reason = QLineEdit()
        self.reason.setPlaceholderText("as the post office marked it")
        today = ctx.today()
        self.day = DateField(QDate(today.year, today.month, today.day))
        self.form = QFormLayout()
        self.form.addRow("Record:", self.what)
        self.form.addRow("Served by:", self.method)
        self.form.addRow("Article number:", self.article)
        self.form.addRow("Handed to:", self.to)
        self.form.addRow("Posted at:", self.where)
        self.form.addRow("Receipt signed by:", self.signed_by)
        self.form.addRow("Why it came back:", self.reason)
        self.form.addRow("On:", self.day)
        self.problem = RedBar()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.record = buttons.addButton("Record", QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.accepted.connect(self.submit)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(about)
        layout.addLayout(self.form)
        layout.addWidget(self.problem)
        layout.addWidget(buttons)
        self.what.currentIndexChanged.connect(self._fields)
        self.method.currentIndexChanged.connect(self._fields)
        self._fields()

    def _fields(self) -> None:
        """Only the fields the chosen event (and way of serving) takes."""
        event, method = self.what.currentData(), self.method.currentData()
        shown = {self.method: event == "served",
                 self.article: event == "served" and method == "certified_mail",
                 self.to: event == "served" and method == "hand_delivery",
                 self.where: event == "served" and method == "posting",
                 self.signed_by: event == "delivered",
                 self.reason: event == "returned"}
        for widget, visible in shown.items():
            self.form.setRowVisible(widget, visible)
        self.problem.hide()

    def submit(self) -> None:
        on = self.typed_day(self.day)
        if on is None:
            return
        ws = self.ctx.ws
        if ws is None:
            return
        letter, event, method = self.letter_id, self.what.currentData(), self.method.currentData()
        given = {"certified_mail": {"article": self.article.text()},
                 "hand_delivery": {"to": self.to.text()},
                 "posting": {"where": self.where.text()}}.get(method, {})
        signed_by, reason = self.signed_by.text(), self.reason.text()

        def work() -> dict[str, Any]:
            if event == "served":
                return letter_service.serve(ws, letter, method=method, on=on, **given)
            if event == "delivered":
                return letter_service.delivered(ws, letter, on=on, signed_by=signed_by)
            return letter_service.returned(ws, letter, on=on, reason=reason)

        def failed(exc: BaseException) -> None:
            self.record.setEnabled(True)
            self.refuse_or_report(exc)

        def recorded(result: dict[str, Any]) -> None:
            self.done_with = result
            self.ctx.say(f"Recorded for letter {letter[:8]}: {service_words(result['service'])}.")
            self.accept()

        self.problem.hide()
        self.record.setEnabled(False)  # one click, one record
        self.ctx.op(work).success(recorded).failure(failed).run()


def service_words(service: dict[str, Any]) -> str:
    """A letter's service in a few words, as the register shows it: served how and when,
    delivered, returned, or not served yet."""
    state = service["state"]
    if state == "not_served":
        return "not served yet"
    last = service["served"][-1] if service["served"] else None
    how = "" if last is None else f"served {last['event_date']} by {_how(last)}"
    if state == "served":
        return how
    if state == "returned":
        back = service["returned"]
        return f"{how}; came back {back['event_date']} ({back['reason']})"
    got = service["delivered"]
    if got["event"] == "served":  # a hand delivery: its own confirmation
        return f"{how}, delivered in hand"
    signed = f", signed by {got['signed_by']}" if got.get("signed_by") else ""
    return f"{how}; delivered {got['event_date']}{signed}"


def _how(event: dict[str, Any]) -> str:
    method = event["method"]
    detail = {"certified_mail": event.get("article_number"),
              "hand_delivery": event.get("delivered_to"),
              "posting": event.get("posted_at")}.get(method)
    joiner = {"certified_mail": " no. ", "hand_delivery": " to ", "posting": " at "}
    return words(method) + (f"{joiner[method]}{detail}" if detail else "")
