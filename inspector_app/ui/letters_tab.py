"""Letters for one parcel: preview, issue, print, open; the parcel's register."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEvent, QSizeF, Qt, QTimer, QUrl
from PySide6.QtGui import QDesktopServices, QImage, QPageSize
from PySide6.QtPrintSupport import QPrintDialog, QPrinter
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from ..documents.content import LETTER_KINDS, DeadlinesPassed
from ..errors import InspectorError
from ..services.letters import register as letter_service
from ..services.letters import stored as letter_store
from .context import AppContext
from .letter_service_dialog import LetterServiceDialog, service_words
from .ops import Op
from .page_view import PageView, to_images
from .printing import print_images, printer_destination

# Pages are drawn sharper than the screen needs, so a page scaled to a wide window stays crisp.
PREVIEW_DPI = 144
IDLE_TEXT = "Preview a draft, or pick an issued letter."
LETTER_ROLE = Qt.ItemDataRole.UserRole
DETAILS_ROLE = Qt.ItemDataRole.UserRole + 1  # (kind, letter date)
REGISTER_ROWS = 5  # the issued letters the register shows at least, when it has them


def words(kind: str) -> str:
    return kind.replace("_", " ")


class LettersTab(QWidget):
    # The system's PDF viewer: a boundary that tests replace. True when a viewer opened.
    opener = staticmethod(QDesktopServices.openUrl)

    def __init__(self, ctx: AppContext) -> None:
        super().__init__()
        self.ctx = ctx
        self.sbl: str | None = None
        self.called_for: list[str] = []
        self.no_law: str | None = None  # why no letter can be issued, if none can
        self.current_pdf: bytes | None = None
        self.current_letter_id: str | None = None
        self.current_kind: str | None = None
        # What the preview shows or waits for: ("draft", sbl, kind) or ("issued", sbl, id).
        # A result that no longer matches it (another parcel or letter was asked for
        # meanwhile) is dropped.
        self.wanted: tuple[str, str, str] | None = None
        self.base_caption = IDLE_TEXT

        self.kind = QComboBox()
        self.kind.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.kind.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        for kind in LETTER_KINDS:
            self.kind.addItem(words(kind), kind)
        self.kind.currentIndexChanged.connect(self._kind_chosen)
        kind_label = QLabel("Letter:")
        kind_label.setBuddy(self.kind)
        self.preview_button = QPushButton("&Preview draft")
        self.preview_button.clicked.connect(self.preview_draft)
        self.issue_button = QPushButton("&Issue...")
        self.issue_button.clicked.connect(self.issue)
        self.attest_button = QPushButton("Attest...")
        self.attest_button.setToolTip("Record the attestation of the report of findings")
        self.attest_button.clicked.connect(self.attest)
        self.print_button = QPushButton("Print...")
        self.print_button.clicked.connect(self.ask_and_print)
        self.open_button = QPushButton("Open in viewer")
        self.open_button.clicked.connect(self.open_current)
        choose = QHBoxLayout()
        choose.addWidget(kind_label)
        choose.addWidget(self.kind, 1)
        # Two rows of buttons, so that none is cut on a small screen.
        actions, more = QHBoxLayout(), QHBoxLayout()
        for row, buttons in ((actions, (self.preview_button, self.issue_button,
                                        self.attest_button)),
                             (more, (self.print_button, self.open_button))):
            for w in buttons:
                row.addWidget(w)
            row.addStretch()

        self.caption = QLabel(IDLE_TEXT)
        self.caption.setWordWrap(True)
        self.caption.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.caption.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.register_toggle = QPushButton("Issued letters (0)")
        self.register_toggle.setCheckable(True)
        self.register_toggle.setChecked(True)
        self.register_toggle.setToolTip("Show or hide this parcel's register of issued letters")
        self.register_toggle.toggled.connect(self._show_register)
        self.fit_width = QPushButton("Fit width")
        self.actual_size = QPushButton("100%")
        self.actual_size.setToolTip("The page at its paper size")
        self.zoom = QButtonGroup(self)
        for button in (self.fit_width, self.actual_size):
            button.setCheckable(True)
            self.zoom.addButton(button)
        self.fit_width.setChecked(True)
        self.service_button = QPushButton("Record service...")
        self.service_button.setToolTip("Record how the issued letter shown was served, that "
                                       "its delivery was confirmed, or that it came back")
        self.service_button.setEnabled(False)
        self.service_button.clicked.connect(self.record_service)
        self.service_dialog: LetterServiceDialog | None = None
        more.insertWidget(2, self.service_button)
        view = QHBoxLayout()
        view.addWidget(self.register_toggle)
        view.addStretch()
        view.addWidget(QLabel("Zoom:"))
        for w in (self.fit_width, self.actual_size):
            view.addWidget(w)

        self.register = QListWidget()
        self.register.itemSelectionChanged.connect(self.show_issued)
        self.page_view = PageView(PREVIEW_DPI)  # fits its pages to its width when resized
        self.zoom.buttonToggled.connect(
            lambda *_: self.page_view.set_paper_size(self.actual_size.isChecked()))
        self.pages = self.page_view.pages
        self.relayout = QTimer(self)
        self.relayout.setSingleShot(True)
        self.relayout.setInterval(40)
        self.relayout.timeout.connect(self._fit_kind)
        self.relayout.timeout.connect(self.page_view.layout_pages)
        # The register above the pages, a few rows high, so the page keeps the full width.
        self.split = QSplitter(Qt.Orientation.Vertical)
        self.split.addWidget(self.register)
        self.split.addWidget(self.page_view)
        self.split.setCollapsible(1, False)
        self.split.setStretchFactor(1, 1)
        self.split.splitterMoved.connect(self._register_dragged)
        self.register_rows = 0
        self._show_register(True)
        layout = QVBoxLayout(self)
        layout.addLayout(choose)
        layout.addLayout(actions)
        layout.addLayout(more)
        layout.addWidget(self.caption)
        layout.addLayout(view)
        layout.addWidget(self.split, 1)
        self._fit_kind()

    # --- layout -----------------------------------------------------------------------

    def _fit_kind(self) -> None:
        """The letter chooser never narrower than its longest name."""
        self.kind.setMinimumWidth(0)
        self.kind.setMinimumWidth(self.kind.sizeHint().width())

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.FontChange:
            self.relayout.start()  # once every widget has its new font
        super().changeEvent(event)

    def _show_register(self, shown: bool) -> None:
        """The register when the user wants it and it has a letter; an empty one takes
        no room from the pages."""
        rows = self.register.count()
        shown = shown and rows > 0
        self.register_toggle.setEnabled(rows > 0)
        resize = shown and (self.register.isHidden() or rows != self.register_rows)
        self.register_rows = rows
        self.register.setVisible(shown)
        if resize:
            # as many rows as it has, up to REGISTER_ROWS, never fewer (a small window
            # takes the room from the pages); the splitter's handle gives it more
            row = max(self.register.sizeHintForRow(0), self.register.fontMetrics().height())
            # long rows scroll sideways: their scroll bar takes its height from the rows
            frame = (2 * self.register.frameWidth() + 4
                     + self.register.horizontalScrollBar().sizeHint().height())
            height = min(rows, REGISTER_ROWS) * row + frame
            self.register.setMinimumHeight(height)
            total = sum(self.split.sizes())
            self.split.setSizes([height, max(total - height, 0)])

    def _register_dragged(self, *_: Any) -> None:
        if self.split.sizes()[0] == 0 and self.register_toggle.isChecked():
            self.register_toggle.setChecked(False)

    @property
    def images(self) -> list[QImage]:
        """The pages the preview shows."""
        return self.page_view.images

    def _show(self, images: list[QImage], pdf: bytes | None, caption: str, *,
              letter_id: str | None = None, kind: str | None = None) -> None:
        self.current_pdf = pdf
        self.current_letter_id = letter_id
        self.current_kind = kind
        self.service_button.setEnabled(letter_id is not None)
        self.page_view.show_images(images)
        self.base_caption = caption
        self.caption.setText(caption)

    def _kind_chosen(self) -> None:
        """The page shown is always of the letter chosen: a letter of another kind goes,
        and the caption says how to see the one chosen."""
        shown = getattr(self, "current_kind", None)
        chosen = self.kind.currentData()
        if shown is None or shown == chosen:
            return
        self.wanted = None  # a letter still being loaded is not shown either
        self._show([], None, f"Preview draft shows a draft of the {words(chosen)}; an "
                             "issued letter opens from the register.")

    # --- loading ----------------------------------------------------------------------

    def _run(self, fn: Callable[[], Any], done: Callable[[Any], None],
             failed: Callable[[], None] | None = None) -> None:
        def on_error(exc: BaseException) -> None:
            if failed is not None:
                failed()
            self.ctx.error(exc)

        self.ctx.runner.run(fn, done, on_error=on_error)

    def load(self, sbl: str, called_for: list[str], *, no_law: str | None = None) -> None:
        """Show a parcel. Shown again after its records changed, an issued letter stays
        on screen (it never changes); a draft goes, as it may no longer be what a draft
        would say. `no_law`: the parcel's municipality has no law on file (the sentence
        saying so): no letter can be drafted or issued, and the tab says why."""
        same = sbl == self.sbl
        self.sbl = sbl
        self.no_law = no_law
        for button in (self.preview_button, self.issue_button):
            button.setEnabled(no_law is None)
            button.setToolTip("" if no_law is None else no_law)
        self.called_for = list(called_for)
        self._label_kinds([])
        if called_for and not same:
            self.kind.setCurrentIndex(self.kind.findData(called_for[0]))
        keep = same and self.wanted is not None and self.wanted[0] == "issued"
        if not keep:
            self.wanted = None
            self._show([], None, IDLE_TEXT if no_law is None else
                       f"{no_law} No letter can be drafted or issued for this parcel.")
        self.refresh_register(select=self.wanted[2] if keep and self.wanted else None)

    def _label_kinds(self, rows: list[dict[str, Any]]) -> None:
        """Each kind the records call for says so, or names the letter in force issued
        for it (a register row no other replaces)."""
        replaced = {r["replaces"] for r in rows}
        issued = {r["kind"]: r for r in rows if r["id"] not in replaced}
        for i in range(self.kind.count()):
            kind = self.kind.itemData(i)
            mark = ""
            if kind in issued:
                r = issued[kind]
                mark = f"  (issued {r['letter_date']}, letter {r['id'][:8]})"
            elif kind in self.called_for:
                mark = "  (called for)"
            self.kind.setItemText(i, words(kind) + mark)
        self._fit_kind()

    def refresh_register(self, select: str | None = None) -> None:
        sbl, ws = self.sbl, self.ctx.ws

        def done(rows: list[dict[str, Any]]) -> None:
            if self.sbl != sbl:
                return  # the user has moved on to another parcel
            self.register.blockSignals(True)
            try:
                self.register.clear()
                for r in rows:
                    text = (f"{r['letter_date']}  {words(r['kind'])}  {r['id'][:8]}  "
                            f"(issued by {r['issued_by']}"
                            f"{', printed' if r['printed_at'] else ''}{_served(r)})")
                    item = QListWidgetItem(text)
                    item.setData(LETTER_ROLE, r["id"])
                    item.setData(DETAILS_ROLE, (r["kind"], r["letter_date"]))
                    self.register.addItem(item)
                    if r["id"] == select:
                        self.register.setCurrentItem(item)
            finally:
                self.register.blockSignals(False)
            self._label_kinds(rows)
            self.register_toggle.setText(f"Issued letters ({len(rows)})")
            self._show_register(self.register_toggle.isChecked())

        if sbl is not None and ws is not None:
            self._run(lambda: letter_service.register(ws, sbl), done)

    def _deselect_register(self) -> None:
        self.register.blockSignals(True)
        try:
            self.register.clearSelection()
        finally:
            self.register.blockSignals(False)

    # --- preview ----------------------------------------------------------------------

    def preview_draft(self) -> None:
        sbl, kind, ws = self.sbl, self.kind.currentData(), self.ctx.ws
        if sbl is None or ws is None:
            return
        day = self.ctx.today()
        wanted = ("draft", sbl, kind)
        self.wanted = wanted

        def work() -> tuple[bytes, list[Any]]:
            pdf = letter_service.draft_pdf(ws, sbl, kind, as_of=day)
            return pdf, letter_service.preview_pages(pdf, dpi=PREVIEW_DPI)

        def done(result: tuple[bytes, list[Any]]) -> None:
            if self.wanted != wanted:
                return  # another parcel or letter was asked for meanwhile
            self._deselect_register()
            self._show(to_images(result[1]), result[0],
                       f"DRAFT {words(kind)}: {len(result[1])} page(s), not issued", kind=kind)

        self._run(work, done)

    def show_issued(self) -> None:
        items = self.register.selectedItems()
        if not items:
            return
        kind, day = items[0].data(DETAILS_ROLE)
        self._open_issued(items[0].data(LETTER_ROLE), kind, day)

    def _open_issued(self, letter_id: str, kind: str, day: str) -> None:
        sbl, ws = self.sbl, self.ctx.ws
        if sbl is None or ws is None:
            return
        wanted = ("issued", sbl, letter_id)
        self.wanted = wanted

        def work() -> tuple[bytes, list[Any]]:
            pdf = letter_store.stored_pdf(ws, letter_id)
            return pdf, letter_service.preview_pages(pdf, dpi=PREVIEW_DPI)

        def done(result: tuple[bytes, list[Any]]) -> None:
            if self.wanted != wanted:
                return  # another parcel or letter was asked for meanwhile
            self._show(to_images(result[1]), result[0],
                       f"Issued letter {letter_id[:8]} ({words(kind)}, {day}): "
                       f"{len(result[1])} page(s), as issued", letter_id=letter_id, kind=kind)

        self._run(work, done)

    # --- service ----------------------------------------------------------------------

    def record_service(self) -> None:
        """The dialog recording what became of the issued letter shown; the register shows
        it once recorded."""
        letter_id, kind, sbl = self.current_letter_id, self.current_kind, self.sbl
        if letter_id is None or kind is None or sbl is None:
            self.ctx.status.emit("Pick an issued letter in the register; then record its "
                                 "service.")
            return
        dialog = LetterServiceDialog(
            self.ctx, letter_id, f"Issued {words(kind)} {letter_id[:8]} for parcel {sbl}.",
            self)

        def recorded() -> None:
            if self.sbl == sbl:
                self.refresh_register(select=letter_id)
            self.ctx.changed.emit(sbl)

        dialog.accepted.connect(recorded)
        self.service_dialog = dialog
        dialog.open()

    # --- issuing ----------------------------------------------------------------------

    def attest(self) -> None:
        """The attestation dialog for the parcel's report of findings."""
        from .attestation import AttestDialog

        if self.sbl is not None:
            AttestDialog(self.ctx, self.sbl, self).exec()

    def issue(self) -> None:
        """Issue the chosen letter once the user confirms: an issued letter is a record
        that never changes (a correction is a new letter). Every refusal comes before the
        question: the issue is checked on the worker first. A letter of the kind already
        issued for the inspection is named, and the question offers its correction."""
        sbl, kind, ws = self.sbl, self.kind.currentData(), self.ctx.ws
        if sbl is None or ws is None:
            return
        day = self.ctx.today()
        self.issue_button.setEnabled(False)  # one click, one question

        def check() -> tuple[str | None, dict[str, Any] | None, Any]:
            prior = letter_service.in_force_since_inspection(ws, sbl, kind)
            plan = letter_service.check_issue(ws, sbl, [kind], as_of=day,
                                              replaces=None if prior is None else prior["id"])
            return ws.load_case(sbl).parcel.site_address, prior, plan

        def refused(exc: BaseException) -> None:
            self.issue_button.setEnabled(self.no_law is None)
            if isinstance(exc, DeadlinesPassed):
                self._offer_new_deadlines(sbl, day, exc, self.issue)
            elif isinstance(exc, InspectorError):
                self.ctx.error(exc)
            else:
                raise exc

        Op(self.ctx.runner, check).success(
            lambda found: self._confirm_issue(sbl, kind, day, *found)).failure(refused).run()

    def _confirm_issue(self, sbl: str, kind: str, day: Any, address: str | None,
                       prior: dict[str, Any] | None, plan: Any) -> None:
        self.issue_button.setEnabled(self.no_law is None)
        ws = self.ctx.ws
        if sbl != self.sbl or ws is None:
            return  # the user has moved on to another parcel meanwhile
        parcel = f"parcel {sbl}" + (f", {address}" if address else "")
        user = ws.store.actor.user
        replaces = None if prior is None else prior["id"]
        if prior is None:
            title = "Issue this letter?"
            question = (f"Issue the {words(kind)} for {parcel}, dated {day.isoformat()}, as "
                        f"{user}?")
        else:
            title = "Issue a correction?"
            changes = "\n".join(f"- {c}" for c in plan.changes)
            question = (f"A {words(kind)} was already issued for this inspection of {parcel}: "
                        f"letter {prior['id'][:8]}, dated {prior['letter_date']}.\n\nIssue a "
                        f"correction that replaces it, dated {day.isoformat()}, as {user}? "
                        f"It changes:\n{changes}")
        notes = [n for _, _, said, _ in plan.letters for n in said]
        if notes:  # the draft marks these "(unconfirmed)"; the issued letter does not
            question += ("\n\nUnlike the draft, the issued letter asks what the jurisdiction "
                         "file does not confirm as this office's request, and:\n"
                         + "\n".join(f"- {n}" for n in notes))
        answer = QMessageBox.question(
            self, title,
            f"{question}\n\nThis cannot be undone: the letter goes into the register as a "
            "record and never changes. A mistake is put right with a new letter that "
            "replaces it.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel)
        if answer != QMessageBox.StandardButton.Yes:
            self.ctx.status.emit("Not issued: nothing was saved.")
            return
        self.issue_button.setEnabled(False)  # one click, one letter

        def done(issued: list[Any]) -> None:
            self.issue_button.setEnabled(True)
            letter = issued[0]
            warnings = [w for x in issued for w in x.warnings]
            what = "correction" if replaces else words(kind)
            self.ctx.status.emit(f"Issued {what} for {sbl} (letter {letter.id[:8]})"
                                 + (f"; note: {warnings[0]}" if warnings else ""))
            if self.sbl == sbl:
                self._show([], None, f"Issued letter {letter.id[:8]} ({words(kind)}): "
                           "opening the issued copy...")
                self._open_issued(letter.id, letter.kind, letter.letter_date)
                self.refresh_register(select=letter.id)
            self.ctx.changed.emit(sbl)

        def refused(exc: BaseException) -> None:
            self.issue_button.setEnabled(True)
            self.ctx.error(exc)

        self.ctx.runner.run(lambda: letter_service.issue(ws, sbl, [kind], as_of=day,
                                                         replaces=replaces),
                            done, on_error=refused)

    def _offer_new_deadlines(self, sbl: str, day: Any, exc: DeadlinesPassed,
                             then: Callable[[], None]) -> None:
        """A notice whose recorded deadlines have passed: offer to record new ones, counted
        from the letter's date, and then issue it."""
        ws = self.ctx.ws
        if ws is None:
            return
        answer = QMessageBox.question(
            self, "Set new deadlines?",
            f"{exc.in_app}\n\nRecord new deadlines (Permit by, Complete by) counted from "
            f"{day.isoformat()} by the law's default periods, then issue the letter? The change "
            "is recorded on the parcel under your name.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel)
        if answer != QMessageBox.StandardButton.Yes:
            self.ctx.status.emit("Not issued: the recorded deadlines have passed; nothing was "
                                 "saved.")
            return

        def done(result: dict[str, Any]) -> None:
            self.ctx.status.emit(f"New deadlines for {sbl}: permit by {result['permit_by']}, "
                                 f"work complete by {result['complete_by']}.")
            self.ctx.changed.emit(sbl)
            then()

        self._run(lambda: letter_service.set_new_deadlines(ws, sbl, as_of=day), done)

    # --- printing and the viewer --------------------------------------------------------

    def ask_and_print(self) -> None:
        self.print_current()

    def print_current(self, printer: QPrinter | None = None) -> bool:
        """Print what the preview shows, on `printer` or on the one the print dialog sets up."""
        pdf, kind = self.current_pdf, self.current_kind
        if not self.images or pdf is None or kind is None:
            self.ctx.status.emit("Preview a draft or pick an issued letter first; then print it.")
            return False
        letter_id = self.current_letter_id
        if printer is None:
            printer = QPrinter(QPrinter.PrinterMode.HighResolution)
            # The letter's own paper, edge to edge: the address lines up with the envelope.
            first = self.images[0]
            printer.setPageSize(QPageSize(
                QSizeF(first.width() / PREVIEW_DPI, first.height() / PREVIEW_DPI),
                QPageSize.Unit.Inch, "", QPageSize.SizeMatchPolicy.FuzzyMatch))
            printer.setFullPage(True)
            dialog = QPrintDialog(printer, self)
            if dialog.exec() != QDialog.DialogCode.Accepted:
                self.ctx.status.emit("Printing was cancelled; nothing was printed.")
                return False
        dpi = min(max(printer.resolution(), 150), 300)
        images = to_images(letter_service.preview_pages(pdf, dpi=dpi))
        where = printer_destination(printer)
        if not print_images(images, printer):
            self.ctx.status.emit(f"Could not start printing on {where}; nothing was printed. "
                                 "Check the printer, or print to a PDF file.")
            return False
        if letter_id is None:
            self.ctx.status.emit(f"Sent {len(images)} page(s) of the DRAFT {words(kind)} to "
                                 f"{where}; a draft is not an issued letter.")
        else:
            sent = (f"Sent {len(images)} page(s) of issued {words(kind)} {letter_id[:8]} "
                    f"to {where}.")
            self.ctx.status.emit(sent)
            self._mark_printed(letter_id, sent)
        return True

    def _mark_printed(self, letter_id: str, sent: str) -> None:
        """An issued letter printed here is recorded as printed, so that Letters > Print
        all pending letters does not print it again."""
        sbl, ws = self.sbl, self.ctx.ws
        if ws is None:
            return

        def done(result: dict[str, Any]) -> None:
            if result["before"]:
                self.ctx.status.emit(f"{sent} It was already recorded as printed.")
            else:
                self.ctx.status.emit(f"{sent} Recorded as printed; Print all pending letters "
                                     "leaves it out.")
            if sbl is not None and self.sbl == sbl:
                self.refresh_register(select=letter_id if self.current_letter_id == letter_id
                                      else None)
            if sbl is not None and not result["before"]:
                self.ctx.changed.emit(sbl)

        self._run(lambda: letter_service.mark_printed(ws, letter_id), done)

    def open_current(self) -> None:
        letter_id, ws = self.current_letter_id, self.ctx.ws
        if letter_id is None:
            self.ctx.status.emit("Pick an issued letter to open it in the PDF viewer.")
            return
        if ws is None:
            return

        def done(path: Any) -> None:
            if self.opener(QUrl.fromLocalFile(str(path))):
                self.ctx.status.emit(f"Opened {path} in the PDF viewer.")
                return
            self.ctx.status.emit(f"No PDF viewer opened the letter; open the file yourself: "
                                 f"{path}")
            if self.current_letter_id == letter_id:
                self.caption.setText(f"{self.base_caption}\nNo PDF viewer opened it; the file "
                                     f"is {path}")

        self._run(lambda: letter_service.issued_copy(ws, letter_id), done)


def _served(row: dict[str, Any]) -> str:
    """The dates a letter set, as served, whether a correction replaced it, and what became
    of it (served how and when, delivered, came back, or not served yet)."""
    dates = [f"{label} {row[key]}" for key, label in (
        ("permit_by", "permit by"), ("complete_by", "complete by"))
        if row.get(key)]
    if row.get("replaced_by"):
        dates.append(f"replaced by {row['replaced_by'][:8]}")
    dates.append(service_words(row["service"]))
    return "".join(f"; {d}" for d in dates)
