"""Reports > Program report: the report to the Watershed Commission for a period and the
municipalities ticked, previewed page by page, saved as a PDF, or its inspections exported
as a table (CSV or Excel) or as GIS layers (GeoPackage, public: without the owners).

Everything that reads the data folder runs on the window's worker: the list of
municipalities, the report, its PDF and pictures of its pages, the export. While a job
runs the buttons that would start another are off, and a progress bar and Cancel show;
closing the dialog cancels the job, and what it would have shown is dropped.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from PySide6.QtCore import QDate, Qt
from PySide6.QtGui import QCloseEvent, QImage
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from ..errors import Cancelled, InspectorError
from .context import AppContext
from .date_field import DateField
from .page_view import PageView, to_images
from .screen_size import resize_within_screen
from .tasks import Job

PREVIEW_DPI = 110
PDF_FILTER = "PDF (*.pdf)"
CSV_FILTER = "CSV (*.csv)"
EXCEL_FILTER = "Excel workbook (*.xlsx)"
GPKG_FILTER = "GeoPackage GIS layers (*.gpkg)"
_SUFFIXES = {CSV_FILTER: ".csv", EXCEL_FILTER: ".xlsx", GPKG_FILTER: ".gpkg"}
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Request:
    """What the report is asked for: the period and the municipalities (None: all)."""

    start: date
    end: date
    municipalities: tuple[str, ...] | None

    def words(self) -> str:
        places = ("all municipalities" if self.municipalities is None
                  else ", ".join(self.municipalities))
        return f"{self.start.isoformat()} to {self.end.isoformat()}, {places}"


@dataclass(frozen=True)
class Made:
    """A report made: what was asked, its figures, its PDF and the pages as pictures."""

    request: Request
    figures: dict[str, Any]
    pdf: bytes
    pages: list[Any]


def _day(field: DateField) -> date:
    d = field.date()
    return date(d.year(), d.month(), d.day())


def _make(ws: Any, request: Request, progress: Progress, cancelled: Callable[[], bool],
          save_to: Path | None) -> Made:
    """On the worker: the report, its PDF and its pages (and the PDF written to
    `save_to`). Cancelled before anything is written."""
    from ..paths import write_atomically
    from ..services.letters import register as letter_service
    from ..services.lists import program_report as service

    names = list(request.municipalities) if request.municipalities is not None else None
    report = service.program_report(ws, request.start, request.end, municipalities=names,
                                    progress=progress, cancelled=cancelled)
    if cancelled():
        raise Cancelled("The report was cancelled; nothing was written.")
    pdf = service.program_report_pdf(ws, report)
    if cancelled():
        raise Cancelled("The report was cancelled; nothing was written.")
    pages = letter_service.preview_pages(pdf, dpi=PREVIEW_DPI)
    if save_to is not None:
        if cancelled():
            raise Cancelled(f"The report was cancelled; {save_to} was not written.")
        write_atomically(save_to, pdf)
    return Made(request, report.figures, pdf, pages)


class ProgramReportDialog(QDialog):
    """From and To, the municipalities, and Preview / Save PDF / Export / Close."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setWindowTitle("Program report")
        resize_within_screen(self, 1100, 780)
        self.job: Job | None = None
        self.made: Made | None = None
        self.closed = False  # closed: results of a job still running are dropped
        self.places_known = False
        today = ctx.today()
        self.today = today

        self.start = DateField(QDate(today.year, 1, 1))
        self.end = DateField(QDate(today.year, today.month, today.day))
        self.places = QListWidget()
        self.places.setToolTip("The municipalities the report covers")
        loading = QListWidgetItem("Reading the municipalities on record...")
        loading.setFlags(Qt.ItemFlag.NoItemFlags)
        self.places.addItem(loading)
        self.tick_all = QPushButton("&All")
        self.tick_all.clicked.connect(lambda: self._tick(True))
        self.tick_none = QPushButton("&None")
        self.tick_none.clicked.connect(lambda: self._tick(False))
        form = QFormLayout()
        form.addRow("&From", self.start)
        form.addRow("&To", self.end)
        places_label = QLabel("&Municipalities")
        places_label.setBuddy(self.places)
        ticks = QHBoxLayout()
        ticks.addWidget(places_label)
        ticks.addStretch()
        ticks.addWidget(self.tick_all)
        ticks.addWidget(self.tick_none)

        self.preview_button = QPushButton("&Preview")
        self.preview_button.setDefault(True)
        self.preview_button.clicked.connect(lambda: self.preview())
        self.save_button = QPushButton("&Save PDF...")
        self.save_button.clicked.connect(lambda: self.save_pdf())
        self.export_button = QPushButton("&Export inspections (CSV, Excel or GeoPackage)...")
        self.export_button.clicked.connect(lambda: self.export())
        self.public = QCheckBox("P&ublic GeoPackage (no owners)")
        self.public.setToolTip("A GeoPackage for the public map or a records request: no "
                               "owner's or renter's name, mailing address, phone or e-mail")
        self.close_button = QPushButton("C&lose")
        self.close_button.clicked.connect(self.reject)
        for button in (self.tick_all, self.tick_none, self.save_button, self.export_button,
                       self.close_button):
            button.setAutoDefault(False)  # Enter anywhere means Preview
        self.starters = (self.preview_button, self.save_button, self.export_button)

        self.progress = QProgressBar()
        self.progress.setRange(0, 0)
        self.cancel_button = QPushButton("&Cancel")
        self.cancel_button.setAutoDefault(False)
        self.cancel_button.clicked.connect(self.cancel)
        running = QHBoxLayout()
        running.addWidget(self.progress, 1)
        running.addWidget(self.cancel_button)
        self.running = QWidget()
        self.running.setLayout(running)
        running.setContentsMargins(0, 0, 0, 0)
        self.running.hide()

        self.problem = QLabel()
        self.problem.setWordWrap(True)
        self.problem.setProperty("tone", "warning")  # colours: ui/theme.py
        self.problem.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.problem.hide()
        self.message = QLabel("Choose the period and the municipalities, then Preview.")
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        side = QVBoxLayout()
        side.addLayout(form)
        side.addLayout(ticks)
        side.addWidget(self.places, 1)
        for button in (*self.starters, self.close_button):
            side.addWidget(button)
            if button is self.export_button:
                side.addWidget(self.public)
        side.addWidget(self.running)
        side.addWidget(self.problem)
        side.addWidget(self.message)
        controls = QWidget()
        controls.setLayout(side)
        self.view = PageView(PREVIEW_DPI)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(controls)
        split.addWidget(self.view)
        split.setCollapsible(1, False)
        split.setStretchFactor(1, 1)
        split.setSizes([320, 780])
        layout = QVBoxLayout(self)
        layout.addWidget(split)
        self.preview_button.setDefault(True)  # (once it is in the dialog)
        self.preview_button.setFocus()  # a first click in a date field then selects it
        for field in (self.start, self.end):  # a warning goes once its field changes
            field.dateChanged.connect(lambda _d: self.problem.hide())
        self._load_places()

    # --- municipalities ---------------------------------------------------------------

    def _load_places(self) -> None:
        from ..services.lists.program_report import chosen_parcels

        ws = self.ctx.ws
        assert ws is not None  # the menu is off while no data folder is open
        self._set_busy(True, progress=False)
        self.job = self.ctx.runner.run(lambda: chosen_parcels(ws, None)[1],
                                       self._guarded(self._show_places),
                                       on_error=self._guarded(self._failed))

    def _show_places(self, names: list[str]) -> None:
        self.places.clear()
        for name in names:
            item = QListWidgetItem(name)
            item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked)
            self.places.addItem(item)
        if not names:
            none = QListWidgetItem("No parcel is on record: the report would be empty.")
            none.setFlags(Qt.ItemFlag.NoItemFlags)
            self.places.addItem(none)
        self.places_known = True
        self._set_busy(False)

    def _tick(self, on: bool) -> None:
        if not self.places_known:
            return
        state = Qt.CheckState.Checked if on else Qt.CheckState.Unchecked
        for n in range(self.places.count()):
            item = self.places.item(n)
            if item.flags() & Qt.ItemFlag.ItemIsUserCheckable:
                item.setCheckState(state)

    def ticked(self) -> list[str]:
        items = (self.places.item(n) for n in range(self.places.count()))
        return [i.text() for i in items if i.flags() & Qt.ItemFlag.ItemIsUserCheckable
                and i.checkState() == Qt.CheckState.Checked]

    # --- what is asked ----------------------------------------------------------------

    def request(self) -> Request | None:
        """The period and municipalities chosen, or None after saying what is wrong."""
        start, end = _day(self.start), _day(self.end)
        if start > end:
            return self._refuse(self.start, f"From {start.isoformat()} is after To "
                                f"{end.isoformat()}: give the period's first day in From "
                                "and its last day in To.")
        if end > self.today:
            return self._refuse(self.end, f"To {end.isoformat()} is after today "
                                f"({self.today.isoformat()}): a report covers days that "
                                "have passed; set To to today or earlier.")
        checkable = [self.places.item(n) for n in range(self.places.count())
                     if self.places.item(n).flags() & Qt.ItemFlag.ItemIsUserCheckable]
        ticked = self.ticked()
        if checkable and not ticked:
            return self._refuse(self.places, "No municipality is ticked: tick those the "
                                "report covers (All ticks every one).")
        everyone = not self.places_known or len(ticked) == len(checkable)
        return Request(start, end, None if everyone else tuple(ticked))

    def _refuse(self, field: QWidget, text: str) -> Request | None:
        """Say what is wrong, put the cursor in the field at fault; no request."""
        self._say_problem(text)
        field.setFocus()
        return None

    def _say_problem(self, text: str) -> None:
        self.problem.setText(text)
        self.problem.show()

    # --- jobs -------------------------------------------------------------------------

    def _guarded(self, fn: Callable[[Any], None]) -> Callable[[Any], None]:
        """`fn`, unless the dialog was closed meanwhile (then the result is dropped)."""
        def call(value: Any) -> None:
            if not self.closed:
                fn(value)
        return call

    def _set_busy(self, busy: bool, *, progress: bool = True) -> None:
        for button in self.starters:
            button.setEnabled(not busy)
        if not busy:
            self.job = None
        self.progress.setRange(0, 0)
        self.running.setVisible(busy and progress)
        self.cancel_button.setEnabled(True)

    def _start(self, fn: Callable[[Progress, Callable[[], bool]], Any],
               done: Callable[[Any], None], doing: str) -> None:
        self.problem.hide()
        self.message.setText(doing)
        self._set_busy(True)

        def finished(result: Any) -> None:
            self._set_busy(False)
            done(result)

        def progressed(n: int, total: int) -> None:
            if total > 0:
                self.progress.setRange(0, total)
                self.progress.setValue(n)

        # the report only reads: a parcel opened meanwhile need not wait for all of it
        self.job = self.ctx.runner.run(fn, self._guarded(finished),
                                       on_error=self._guarded(self._failed),
                                       on_progress=self._guarded_progress(progressed),
                                       lets_others_through=True)
        self.view.setFocus()  # not a button Enter would press while the job runs

    def _guarded_progress(self, fn: Progress) -> Progress:
        def call(n: int, total: int) -> None:
            if not self.closed:
                fn(n, total)
        return call

    def cancel(self) -> None:
        """Stop the job running; it writes nothing."""
        if self.job is not None:
            self.job.cancel.set()
            self.cancel_button.setEnabled(False)
            self.message.setText("Cancelling...")

    def _failed(self, exc: BaseException) -> None:
        self._set_busy(False)
        if isinstance(exc, Cancelled):
            self.message.setText(exc.in_app)
            return
        if isinstance(exc, InspectorError):
            self.message.setText("")
            self._say_problem(exc.in_app)
            return
        self.message.setText("")
        self._say_problem(f"The step failed ({type(exc).__name__}: {exc}); nothing was "
                          "written.")
        self.ctx.error(exc)

    def _make(self, request: Request, done: Callable[[Made], None], doing: str,
              save_to: Path | None = None) -> None:
        ws = self.ctx.ws
        self._start(lambda progress, cancelled: _make(ws, request, progress, cancelled,
                                                      save_to), done, doing)

    # --- the buttons ------------------------------------------------------------------

    def preview(self) -> None:
        request = self.request()
        if request is None or self.job is not None:
            return
        self._make(request, self._show, f"Making the report for {request.words()}...")

    def _show(self, made: Made) -> None:
        self.made = made
        self.view.show_images(to_images(made.pages))
        self.message.setText(f"Program report {made.request.words()}: {len(made.pages)} "
                             "page(s).")

    @property
    def images(self) -> list[QImage]:
        """The pages the preview shows."""
        return self.view.images

    def save_pdf(self, path: Path | None = None) -> None:
        """Write the report as a PDF: the bytes previewed when the preview shows what is
        asked, otherwise the report is made (and shown) first."""
        request = self.request()
        if request is None or self.job is not None:
            return
        if path is None:
            chosen = self.ctx.files.save_file(
                self, "reports", "Save the program report",
                f"program-report-{request.start.isoformat()}"
                f"-to-{request.end.isoformat()}.pdf", PDF_FILTER, suffix=".pdf")
            if not chosen:
                return
            path = chosen[0]
        target = path

        def saved(made: Made) -> None:
            self._show(made)
            self.message.setText(f"Saved the program report ({len(made.pages)} page(s), "
                                 f"{len(made.pdf) / 1024:,.0f} KB) to {target}.")

        made = self.made
        if made is not None and made.request == request:
            from ..paths import write_atomically

            pdf = made.pdf
            self._start(lambda _p, _c: write_atomically(target, pdf),
                        lambda _none: saved(made), f"Writing {target}...")
        else:
            self._make(request, saved, f"Making the report for {request.words()}...",
                       save_to=target)

    def export(self, path: Path | None = None) -> None:
        """The inspections of the period and municipalities as a CSV file, an Excel
        workbook or a GeoPackage of GIS layers, by the file's suffix; the GeoPackage
        without the owners' data when Public is ticked."""
        request = self.request()
        if request is None or self.job is not None:
            return
        if path is None:
            picked = self.ctx.files.save_file(
                self, "spreadsheets", "Export the inspections",
                f"inspections-{request.start.isoformat()}"
                f"-to-{request.end.isoformat()}.csv", ";;".join(_SUFFIXES))
            if not picked:
                return
            path, kind = picked
            if not path.suffix:
                path = path.with_suffix(_SUFFIXES.get(kind, ".csv"))
        target = path
        public = self.public.isChecked()
        ws = self.ctx.ws
        assert ws is not None
        names = list(request.municipalities) if request.municipalities is not None else None

        def work(progress: Progress, cancelled: Callable[[], bool]) -> Any:
            from ..services.lists.exports import export_inspections

            return export_inspections(ws, request.start, request.end, target,
                                      public=public, municipalities=names,
                                      progress=progress, cancelled=cancelled)

        def exported(result: dict[str, Any]) -> None:
            layers = result.get("layers")
            what = "" if layers is None else " as GIS layers ({}){}".format(
                ", ".join(f"{name} {n:,}" for name, n in layers.items()),
                ", public" if result.get("public") else "")
            self.message.setText(f"Exported {result['inspections']:,} inspection(s) of "
                                 f"{request.words()}{what} to {target}.")

        self._start(work, exported, f"Exporting the inspections to {target}...")

    # --- closing ----------------------------------------------------------------------

    def _stop(self) -> None:
        """Closing: the job running is cancelled and nothing comes back to the dialog."""
        self.closed = True
        if self.job is not None:
            self.job.cancel.set()

    def done(self, result: int) -> None:
        self._stop()
        super().done(result)

    def closeEvent(self, event: QCloseEvent) -> None:
        self._stop()
        super().closeEvent(event)
