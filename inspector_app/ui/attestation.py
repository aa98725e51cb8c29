"""Attest a report of findings: the person, their number, the day, and the signature drawn
on a pad (mouse or pen) or a scanned image chosen from a file. Recorded by the attestation
service; a refusal is shown in the dialog in red and nothing is recorded."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path
from typing import Any

from PySide6.QtCore import QBuffer, QByteArray, QDate, QIODevice, QPointF, Qt
from PySide6.QtGui import QColor, QImage, QMouseEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from ..domain.records import ATTESTER_KINDS
from ..errors import InspectorError
from ..services.letters import attestation as attestation_service
from .context import AppContext
from .date_field import DateField
from .red_bar import RedBar, RefusingDialog

INK = QColor(20, 30, 90)


class SignaturePad(QWidget):
    """A white pad to sign on with the mouse or a pen; `png()` gives the strokes as a PNG
    on a transparent background, as printed on the report."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setMinimumSize(420, 140)
        self.setCursor(Qt.CursorShape.CrossCursor)
        self.setToolTip("Sign here with the mouse or a pen")
        self.strokes: list[list[QPointF]] = []

    def is_blank(self) -> bool:
        return not any(len(s) > 1 for s in self.strokes)

    def clear(self) -> None:
        self.strokes = []
        self.update()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self.strokes.append([event.position()])
        self.update()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self.strokes and event.buttons() & Qt.MouseButton.LeftButton:
            self.strokes[-1].append(event.position())
            self.update()

    def _draw(self, painter: QPainter) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        pen = QPen(INK, 2.5)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        painter.setPen(pen)
        for stroke in self.strokes:
            for a, b in pairwise(stroke):
                painter.drawLine(a, b)

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), QColor("white"))
        painter.setPen(QPen(QColor("#999999"), 1))
        base = self.height() - 24
        painter.drawLine(12, base, self.width() - 12, base)
        self._draw(painter)
        painter.end()

    def png(self) -> bytes:
        image = QImage(self.size(), QImage.Format.Format_ARGB32)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        self._draw(painter)
        painter.end()
        data = QByteArray()
        buffer = QBuffer(data)
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        image.save(buffer, "PNG")  # type: ignore[call-overload]  # the stubs say bytes
        buffer.close()
        return bytes(data.data())


class AttestDialog(RefusingDialog):
    """The attestation of one parcel's report of findings."""

    def __init__(self, ctx: AppContext, sbl: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx, self.sbl = ctx, sbl
        self.done_with: dict[str, Any] | None = None
        self.scanned: Path | None = None
        self.setWindowTitle(f"Attest the report of findings - {sbl}")
        self.name = QLineEdit()
        self.name.setPlaceholderText("as signed")
        self.kind = QComboBox()
        for kind in ATTESTER_KINDS:
            self.kind.addItem(attestation_service.ATTESTER_WORDS[kind], kind)
        self.number = QLineEdit()
        self.number.setPlaceholderText("OTN certification or licence number")
        today = ctx.today()
        self.day = DateField(QDate(today.year, today.month, today.day))
        form = QFormLayout()
        form.addRow("Attested by:", self.name)
        form.addRow("As:", self.kind)
        form.addRow("Certification or licence no.:", self.number)
        form.addRow("Signed on:", self.day)

        self.draw = QRadioButton("Sign on the pad")
        self.scan = QRadioButton("Use a scanned signature")
        self.draw.setChecked(True)
        self.how = QButtonGroup(self)
        for b in (self.draw, self.scan):
            self.how.addButton(b)
        self.pad = SignaturePad()
        clear = QPushButton("Clear")
        clear.clicked.connect(self.pad.clear)
        self.choose = QPushButton("Choose image...")
        self.choose.clicked.connect(self._choose)
        self.chosen = QLabel("No image chosen")
        grid = QGridLayout()
        grid.addWidget(self.draw, 0, 0)
        grid.addWidget(clear, 0, 1)
        grid.addWidget(self.pad, 1, 0, 1, 2)
        grid.addWidget(self.scan, 2, 0)
        grid.addWidget(self.choose, 2, 1)
        grid.addWidget(self.chosen, 3, 0, 1, 2)

        self.problem = RedBar()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.record = buttons.addButton("Record attestation",
                                        QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.accepted.connect(self.submit)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addLayout(grid)
        layout.addWidget(self.problem)
        layout.addWidget(buttons)
        self._fill_enrolled()

    def _fill_enrolled(self) -> None:
        """An inspection recorded on a certified inspector's laptop is attested by that
        inspector as enrolled: their name and number are filled in and cannot be typed."""
        ws, sbl = self.ctx.ws, self.sbl
        if ws is None:
            return

        def fill(who: attestation_service.Attester | None) -> None:
            if who is None:
                return
            self.name.setText(who.name)
            self.number.setText(who.number)
            self.kind.setCurrentIndex(self.kind.findData(who.kind))
            for field in (self.name, self.number):
                field.setReadOnly(True)
                field.setToolTip("As enrolled with the laptop this inspection was recorded "
                                 "on (Sync > Enrol a laptop)")
            self.kind.setEnabled(False)

        self.ctx.op(lambda: attestation_service.enrolled_attester(ws, sbl)).success(
            fill).failure(self.refuse_or_report).run()

    def _choose(self) -> None:
        name = self.ctx.files.open_file(self, "signatures", "Scanned signature",
                                       tell=self.refuse)
        if name:
            self.use_scan(name)

    def use_scan(self, path: Path) -> None:
        self.scanned = path
        self.scan.setChecked(True)
        self.chosen.setText(str(path))

    def submit(self) -> None:
        day = self.typed_day(self.day)
        if day is None:
            return
        try:
            if self.scan.isChecked():
                if self.scanned is None:
                    self.refuse("Choose the scanned signature's image file, or sign on the pad.")
                    return
                data = attestation_service.read_signature_file(self.scanned)
                filename, source = str(self.scanned), "scanned"
            else:
                if self.pad.is_blank():
                    self.refuse("Sign on the pad (or choose a scanned signature) before "
                                "recording the attestation.")
                    return
                data, filename, source = self.pad.png(), "signature-pad.png", "drawn"
        except InspectorError as exc:
            self.refuse(exc.in_app)
            return
        who = attestation_service.Attester(self.name.text(), self.kind.currentData(),
                                           self.number.text())
        ws, sbl = self.ctx.ws, self.sbl
        if ws is None:
            return
        self.problem.hide()

        def work() -> dict[str, Any]:
            return attestation_service.attest(ws, sbl, who, data, filename=filename,
                                              source=source, on=day)

        def recorded(result: dict[str, Any]) -> None:
            self.done_with = result
            self.ctx.say(f"Attestation by {result['name']} recorded for {sbl}.")
            self.accept()

        self.ctx.op(work).success(recorded).failure(self.refuse_or_report).run()
