"""The office key fingerprint, shown where a person compares it: when the office enrols a
laptop, and when the laptop is set up from the kit. It stays on screen until closed, its
text can be selected and copied, and it says what to compare with whom."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontDatabase
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QLineEdit, QVBoxLayout, QWidget

from .window_keys import show_with_keys

ENROLLED = ("Read this fingerprint to the inspector who sets the laptop up, by telephone or "
            "in person, never with the kit or its passphrase. When the laptop is set up from "
            "the kit, it shows a fingerprint that must be exactly this one; if it differs, "
            "the kit the laptop opened did not come from this office.")
JOINED = ("Compare this fingerprint with the one the office showed when it wrote the kit: "
          "ask the office by telephone or in person, not through the drive or mail that "
          "brought the kit. If they are the same, the kit came from your office. If they "
          "differ, stop: record nothing in this folder, delete it and ask the office for a "
          "new kit.")


class FingerprintDialog(QDialog):
    """`done` says what just happened; `compare` what to compare with whom."""

    def __init__(self, parent: QWidget | None, *, done: str, fingerprint: str,
                 compare: str) -> None:
        super().__init__(parent)
        self.setWindowTitle("Office key fingerprint: compare it")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.done_text = QLabel(done)
        self.fingerprint = QLineEdit(fingerprint)
        self.fingerprint.setReadOnly(True)
        self.fingerprint.setAccessibleName("Office key fingerprint")
        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        font.setPointSizeF(font.pointSizeF() * 1.8)
        font.setWeight(QFont.Weight.Bold)
        self.fingerprint.setFont(font)
        self.fingerprint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.fingerprint.setMinimumWidth(self.fingerprint.fontMetrics().horizontalAdvance(
            fingerprint) + 40)
        self.compare = QLabel(compare)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        for label in (self.done_text, self.compare):
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.done_text)
        layout.addWidget(QLabel("Office key fingerprint:"))
        layout.addWidget(self.fingerprint)
        layout.addWidget(self.compare)
        layout.addWidget(buttons)
        self.resize(max(520, self.fingerprint.minimumWidth() + 40), self.sizeHint().height())
        self.fingerprint.selectAll()
        self.fingerprint.setFocus()


def show_fingerprint(parent: QWidget | None, *, done: str, fingerprint: str,
                     enrolled: bool) -> FingerprintDialog:
    """Show the fingerprint until the person closes it; the window stays usable."""
    dialog = FingerprintDialog(parent, done=done, fingerprint=fingerprint,
                               compare=ENROLLED if enrolled else JOINED)
    show_with_keys(dialog)
    return dialog
