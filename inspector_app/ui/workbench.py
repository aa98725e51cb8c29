"""The workbench: the open parcel's heading, its tabs (inspection form, site map, letters,
photos, history) and its evaluation beside them.

Opening a parcel reads its id, case and version together on the worker; the window shows
nothing of it until all of that has loaded, and then its details (evaluation, site map,
history, photos) follow in one more job. Work that finishes after the user moved on to
another parcel never shows its parcel again.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QSettings, QUrl
from PySide6.QtGui import QAction, QDesktopServices, QKeySequence, QUndoStack
from PySide6.QtWidgets import (
    QApplication,
    QLabel,
    QScrollArea,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ..errors import InputError
from .context import AppContext
from .elided_label import ElidedLabel
from .ops import Op

# The form, the site map and the letters (and the services behind them) are imported when
# the workbench is built, just after the window first shows.
if TYPE_CHECKING:
    from ..domain.case import Case
    from .case_edits import CaseEdits
    from .evaluation_panel import EvaluationPanel
    from .forms import CaseForm
    from .history_view import HistoryView
    from .letters_tab import LettersTab
    from .photos import PhotoList, PhotosPage
    from .site_edits import SiteEdits
    from .site_map import SiteMap


LETTERS_TAB = "&Letters"
TABS = ("&Inspection form", "Site &map", LETTERS_TAB, "&Photos", "&History")


class Workbench(QWidget):
    """The right side of the window, for one parcel at a time.

    `remember(name, value)` keeps a setting of the open data folder (the parcel and tab
    to reopen); `row_changed(rows)` hands a parcel's outcome and flags, as now stored, to
    the parcel list."""

    def __init__(self, ctx: AppContext, settings: QSettings, *,
                 remember: Callable[[str, Any], None],
                 row_changed: Callable[[list[dict[str, Any]]], None]) -> None:
        super().__init__()
        self.ctx = ctx
        self.settings = settings
        self._remember = remember
        self._row_changed = row_changed
        self.undo_stack = QUndoStack(self)
        self.sbl: str | None = None        # the open parcel
        self.parcel_id: str | None = None  # the record the form was loaded from
        self.wanted: str | None = None     # the parcel open, or asked for and on its way
        self._open_round = 0   # the latest open asked for; older ones are not shown
        self._shown_round = 0  # the latest parcel shown; older details are dropped
        self.built = False
        # elided, never widening the window (a long owner's name in the larger
        # high-contrast font asked for more than a 1024 px screen)
        self.heading = ElidedLabel("Select a parcel", minimum_chars=20)
        self.heading.setProperty("role", "heading")
        # Ctrl+1 ... Ctrl+5: the tabs, in the order they show (the View menu lists them).
        self.tab_actions: list[QAction] = []
        for index, name in enumerate(TABS):
            action = QAction(name.replace("&", ""), self)
            action.setShortcut(QKeySequence(f"Ctrl+{index + 1}"))
            action.triggered.connect(lambda _=False, i=index: self.show_tab(i))
            self.tab_actions.append(action)
        self._layout = QVBoxLayout(self)
        self._layout.addWidget(self.heading)

    @property
    def case(self) -> Case | None:
        """The open parcel's case as the form has it: as stored, with the saves still on
        their way to the worker already applied."""
        return self.form.case if self.built else None

    def build(self) -> None:
        """The form, site map, letters, photos, history and evaluation."""
        if self.built:
            return
        self.built = True
        from .case_edits import CaseEdits
        from .evaluation_panel import EvaluationPanel
        from .forms import CaseForm
        from .history_view import HistoryView
        from .letters_tab import LettersTab
        from .photos import PhotosPage
        from .site_edits import SiteEdits
        from .site_map import SiteMap

        self.form: CaseForm = CaseForm()
        self.problem = QLabel()
        self.problem.setWordWrap(True)
        self.problem.setProperty("tone", "problem")
        self.problem.hide()
        self.edits: CaseEdits = CaseEdits(self)
        self.form.findings.wanted = self._load_findings
        self.form.problem.connect(self.show_problem)
        self.form.document_requested.connect(self.open_document)
        form_scroll = QScrollArea()
        form_scroll.setWidget(self.form)
        form_scroll.setWidgetResizable(True)
        self.form_scroll = form_scroll
        app = QApplication.instance()
        assert isinstance(app, QApplication)
        app.focusChanged.connect(self._show_focused)  # let go with the workbench
        form_page = QWidget()
        form_layout = QVBoxLayout(form_page)
        form_layout.addWidget(self.problem)
        form_layout.addWidget(form_scroll)
        self.site: SiteMap = SiteMap()
        opacity = self.settings.value("imagery_opacity", 100, type=int)  # typed `object`
        self.site.set_opacity(opacity if isinstance(opacity, int) else 100)
        self.site.opacity_changed.connect(
            lambda v: self.settings.setValue("imagery_opacity", v))
        self.site_edits: SiteEdits = SiteEdits(self)
        self.letters: LettersTab = LettersTab(self.ctx)
        self.photos_page: PhotosPage = PhotosPage(self.ctx, open_sbl=lambda: self.sbl,
                                                  refresh=self.refresh_parcel)
        self.photos: PhotoList = self.photos_page.photos
        self.form.component_photos.connect(self.photos_page.for_component)
        self.history: HistoryView = HistoryView()
        self.tabs = QTabWidget()
        for page, name in zip((form_page, self.site, self.letters, self.photos_page,
                               self.history), TABS, strict=True):
            self.tabs.addTab(page, name)
        self.tabs.currentChanged.connect(lambda i: self._remember("tab", i))
        self.evaluation: EvaluationPanel = EvaluationPanel()
        self.evaluation.decided.connect(self._decide)
        self.evaluation.undone.connect(self._undo_decision)
        self.evaluation.issue_requested.connect(self.issue_letter)
        inner = QSplitter()
        inner.addWidget(self.tabs)
        inner.addWidget(self.evaluation)
        inner.setStretchFactor(0, 3)
        inner.setStretchFactor(1, 2)
        inner.setChildrenCollapsible(False)
        self.inner_split = inner
        self._layout.addWidget(inner, 1)
        self.tabs.setMinimumWidth(420)
        self.tabs.setEnabled(False)  # until a parcel is chosen
        width = self.window().width()
        inner.setSizes([int(width * 0.42), int(width * 0.28)])

    # --- opening a parcel -------------------------------------------------------------

    def open_parcel(self, sbl: str) -> None:
        """Open a parcel (or show the open one again as stored): its id, case and version
        are read together; nothing of the window changes unless all of it loads."""
        self.build()
        ws = self.ctx.ws
        if ws is None:
            return
        self._open_round += 1
        round_ = self._open_round
        self.wanted = sbl

        def opened(result: tuple[str, Case, int]) -> None:
            if round_ == self._open_round:
                parcel_id, case, _version = result
                self.show_opened(sbl, parcel_id, case)

        def failed(exc: BaseException) -> None:
            if round_ != self._open_round:
                return
            if isinstance(exc, InputError) and sbl != self.sbl:
                self.wanted = self.sbl  # no such parcel: the open one stays
                return
            self.load_failed(sbl, exc)  # the open parcel is gone, or cannot be read

        Op(self.ctx.runner, lambda: ws.open_for_edit(sbl)).success(opened).failure(
            failed).run()

    def show_opened(self, sbl: str, parcel_id: str, case: Case) -> None:
        """A parcel as just read from the data folder, if it is still the one wanted."""
        if sbl != self.wanted:
            return  # the user has moved on
        same = sbl == self.sbl and parcel_id == self.parcel_id
        if same and self.edits.writing:
            return  # the open parcel again: the save on its way shows it once stored
        if sbl != self.sbl:
            self.undo_stack.clear()  # undo never reaches into another parcel
            self.edits.forget_waiting()
        self.sbl = sbl
        self.parcel_id = parcel_id
        self._remember("sbl", sbl)
        self.show_case(case, same_record=same)

    def refresh_parcel(self, sbl: str) -> None:
        """Show the stored state of `sbl` again, if it is still the open parcel (work that
        finishes after the user moved on never reopens the parcel it was for)."""
        if sbl == self.wanted:
            self.open_parcel(sbl)

    def forget_parcel(self) -> None:
        """No parcel open: nothing shown that could be saved, no undo step, and details
        still on their way are dropped when they arrive."""
        self._shown_round += 1
        self._open_round += 1
        self.undo_stack.clear()
        self.sbl = self.parcel_id = self.wanted = None
        if not self.built:
            return
        self.edits.forget_waiting()
        self.form.clear()
        self.tabs.setEnabled(False)
        self.evaluation.show_evaluation(None)

    def clear(self) -> None:
        """Another data folder is coming: nothing of this one stays on show."""
        self.forget_parcel()
        self.heading.setText("Select a parcel")
        if not self.built:
            return
        self.problem.hide()
        self.site.show_site(None, "")
        self.letters.sbl = None
        self.letters.register.clear()
        self.history.show_history([])
        self.photos_page.clear()

    def load_failed(self, sbl: str, exc: BaseException) -> None:
        """A parcel that cannot be shown completely is not shown at all, and the form
        cannot save anything until a parcel loads."""
        self.forget_parcel()
        reason = str(exc) if isinstance(exc, InputError) else f"{type(exc).__name__}: {exc}"
        self.heading.setText(f"{sbl} could not be opened")
        self.show_problem(f"Parcel {sbl} could not be opened, so nothing can be edited: "
                          f"{reason}")
        self.ctx.say(f"{sbl} could not be opened")

    def show_case(self, case: Case, *, same_record: bool = False) -> None:
        """Show a parcel's case and then its details. The record open shown again
        (`same_record`) keeps what the user is typing, unless a save was refused: the form
        then shows what is stored, and why (and, when the database refused it to the login,
        what the user typed over it, not saved)."""
        refusal = self.edits.take_refusal()
        refused_edit = self.edits.take_refused_edit()
        try:
            if same_record and refusal is None and self.form.is_dirty():
                self.form.rebase(case)
            else:
                self.form.load(case)
                if refusal is not None and refused_edit is not None:
                    self.form.show_unsaved(*refused_edit)
        except Exception as exc:
            self.load_failed(case.parcel.sbl, exc)
            return
        self.tabs.setEnabled(True)
        self.problem.hide()
        if refusal is not None:
            self.show_problem(refusal)
        p = case.parcel
        self.heading.setText(f"{p.sbl}  ·  {p.site_address}  ·  {p.owner_name}")
        self._show_details(case)

    def _show_details(self, case: Case) -> None:
        """The evaluation, site map, letters, history and photos of the parcel shown."""
        from ..services.letters.due import letters_due
        from ..services.lists.overview import overview
        from ..services.parcel.sketch import site_map
        from ..services.records.documents import record_facts
        from ..services.session.laws import NoLawFacts
        from .site_edits import site_imagery

        sbl = case.parcel.sbl
        day = self.ctx.today()
        ws = self.ctx.ws
        assert ws is not None
        self._shown_round += 1
        round_ = self._shown_round

        def details() -> tuple[Any, ...]:
            evaluation = ws.assess_parcel(sbl, as_of=day)
            due = (None if isinstance(evaluation, NoLawFacts)
                   else letters_due(ws, sbl, evaluation, as_of=day))
            return (evaluation, due, site_map(ws, case), ws.history(sbl),
                    ws.attachments(sbl), overview(ws, as_of=day, sbls=[sbl]),
                    site_imagery(ws, sbl), record_facts(ws, case))

        def shown(result: tuple[Any, ...]) -> None:
            evaluation, due, site_map_data, history, photos, row, imagery, facts = result
            self._row_changed(row)  # the parcel's own row, wherever the user is now
            if round_ != self._shown_round or sbl != self.sbl:
                return  # the user has moved on: never show one parcel's details on another
            self.evaluation.show_evaluation(evaluation, due)
            self.form.field_tests.set_presets(
                () if isinstance(evaluation, NoLawFacts) else evaluation.test_presets)
            if isinstance(evaluation, NoLawFacts):  # measured, never judged: no zone shown
                self.site.show_site(*site_map_data, lake=None, imagery=imagery)
                self.letters.load(sbl, [], no_law=evaluation.sentence)
            else:
                self.site.show_site(*site_map_data, lake=evaluation.lake, imagery=imagery)
                self.letters.load(sbl, [k.value for k in evaluation.letters])
            self.form.maintenance.set_facts(facts, day)
            self._show_history(history)
            self.photos_page.show_photos(photos)

        self.ctx.op(details).success(shown).run()

    def _show_history(self, rows: list[dict[str, Any]]) -> None:
        """The change log in words, with the sync-conflict decisions made on the parcel."""
        from ..services.parcel.history import with_decisions

        sbl, round_, ws = self.sbl, self._shown_round, self.ctx.ws
        if sbl is None or ws is None:
            return

        from ..services.records.documents import history_documents

        def shown(found: tuple[list[dict[str, Any]], dict[str, str]]) -> None:
            if sbl == self.sbl and round_ == self._shown_round:
                self.history.show_history(*found)

        self.ctx.op(lambda: (with_decisions(ws, sbl, rows), history_documents(ws, rows))
                    ).success(shown).run()

    # The system's viewer for a provider's document: a boundary that tests replace.
    opener = staticmethod(QDesktopServices.openUrl)

    def open_document(self, sha256: str) -> None:
        """A provider's document the records name, opened in the system's viewer (a copy
        under its own file name; the stored file is the record)."""
        from ..services.records.documents import document_copy

        ws = self.ctx.ws
        if ws is None:
            return

        def opened(path: Path) -> None:
            if self.opener(QUrl.fromLocalFile(str(path))):
                self.ctx.say(f"Opened {path.name}.")
            else:
                self.ctx.say(f"No program opened {path.name}; open the file yourself: {path}")

        self.ctx.op(lambda: document_copy(ws, sha256)).success(opened).run()

    def _load_findings(self) -> None:
        """The phrases recorded in the data folder, for the findings field entered."""
        from ..services.parcel.inspections import recorded_findings

        ws = self.ctx.ws
        if ws is not None:
            self.ctx.op(lambda: recorded_findings(ws)).success(
                self.form.findings.set_phrases).run()

    def _show_focused(self, _old: QWidget | None, new: QWidget | None) -> None:
        """A field of the form reached by a key (Tab, Alt+letter) is scrolled into sight."""
        if new is not None and self.form.isAncestorOf(new):
            self.form_scroll.ensureWidgetVisible(new)

    def show_tab(self, index: int) -> None:
        if self.built:
            self.tabs.setCurrentIndex(index)

    def issue_letter(self, kind: str | None = None) -> None:
        """The letter the records call for (or `kind`), issued from wherever the user is:
        the Letters tab shows it and asks, as its Issue button does."""
        if not self.built or self.sbl is None or self.letters.sbl != self.sbl:
            self.ctx.say("Open a parcel first; then issue the letter its records call for.")
            return
        due = self.evaluation.due
        if kind is None and due and all(d.due is None for d in due):
            self.ctx.say(f"No letter due: {due[0].issued_words()}.")
            return
        kind = kind or next((d.kind for d in due or () if d.due is not None),
                            self.letters.called_for[0] if self.letters.called_for else None)
        if kind is None:
            self.ctx.say(f"The records of {self.sbl} call for no letter now; the Letters "
                         "tab issues any other kind.")
            return
        self.show_tab(TABS.index(LETTERS_TAB))
        self.letters.kind.setCurrentIndex(self.letters.kind.findData(kind))
        if self.letters.issue_button.isEnabled():
            self.letters.issue()

    # --- what the user is told; suggested findings ------------------------------------

    def show_problem(self, text: str) -> None:
        from ..domain.labels import for_people

        # Case-file messages name fields by path (the public contract); people read words.
        self.problem.setText(for_people(text, self.form.case))
        self.problem.show()

    def _decide(self, key: str, accept: bool, note: str = "") -> None:
        sbl, ws = self.sbl, self.ctx.ws
        if sbl is None or ws is None:
            return
        from .case_edits import DecideSuggestion

        step = DecideSuggestion(self.edits, sbl, key, accept=accept, note=note,
                                text=f"{'accepting' if accept else 'rejecting'} the "
                                     "suggested finding")
        step.write(decide=True, then=lambda: self.undo_stack.push(step))

    def _undo_decision(self, key: str) -> None:
        sbl, ws = self.sbl, self.ctx.ws
        if sbl is None or ws is None:
            return

        def undone(reversal: Any) -> None:
            self.ctx.say(reversal.summary())
            self.refresh_parcel(sbl)

        self.ctx.op(lambda: ws.reopen_suggestion(sbl, key)).success(undone).run()

    # --- the window around it ---------------------------------------------------------

    def restyle(self) -> None:
        """Draw the evaluation and the site map again in the theme's colours."""
        if self.built:
            self.evaluation.restyle()
            self.site.restyle()

    def stop(self) -> None:
        """The window is closing: the site map's imagery thread stops."""
        if self.built:
            self.site.stop()
