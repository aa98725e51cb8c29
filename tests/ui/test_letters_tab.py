"""The Letters tab, driven through its real buttons with the real worker thread."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from PySide6.QtCore import QSettings, Qt
from PySide6.QtPrintSupport import QPrinter
from PySide6.QtWidgets import (
    QDialog,
    QLabel,
    QMessageBox,
    QStyle,
    QStyleOptionComboBox,
    QWidget,
)
from pytestqt.qtbot import QtBot

from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.letters import register as letter_service
from inspector_app.services.workspace import Workspace
from inspector_app.ui import letters_tab
from inspector_app.ui.main_window import MainWindow
from inspector_app.ui.tasks import TaskRunner
from tests.suggestions import decide_pending

TODAY = date(2026, 11, 25)
SBL = "900.01-1-7"  # the demo's failed system: its records call for a notice of violation
ADDRESS = "4042 County Road 16 (West Lake Road)"
OTHER = "900.01-1-3"
SHOTS_ENV = "INSPECTOR_APP_SCREENSHOTS"


class Prompts:
    """QMessageBox.question and .warning as the user would answer them."""

    def __init__(self) -> None:
        self.questions: list[str] = []
        self.warnings: list[str] = []
        self.answer = QMessageBox.StandardButton.Cancel

    def question(self, _parent: Any, title: str, text: str, *_a: Any, **_k: Any) -> Any:
        self.questions.append(f"{title}\n{text}")
        return self.answer

    def warning(self, _parent: Any, _title: str, text: str, *_a: Any, **_k: Any) -> Any:
        self.warnings.append(text)
        return QMessageBox.StandardButton.Ok


@pytest.fixture
def prompts(monkeypatch: pytest.MonkeyPatch) -> Prompts:
    p = Prompts()
    monkeypatch.setattr(QMessageBox, "question", p.question)
    monkeypatch.setattr(QMessageBox, "warning", p.warning)
    return p


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path, prompts: Prompts) -> Iterator[MainWindow]:
    ws = Workspace(tmp_path / "data", user="k.olmsted")
    install_demo(ws, today=TODAY)
    decide_pending(ws, SBL, as_of=TODAY)
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(ws, runner=TaskRunner(), settings=settings)
    assert not w.runner.synchronous
    w.ctx.as_of = TODAY
    w.resize(1280, 800)
    w.show()
    qtbot.waitExposed(w)
    yield w
    # Closed here rather than by qtbot, which would close it before this teardown: first
    # every result lands, then the worker stops, then the database closes.
    idle(w, qtbot)
    w.close()
    w.deleteLater()
    ws.close()
    assert not prompts.warnings, prompts.warnings


def idle(window: MainWindow, qtbot: QtBot) -> None:
    qtbot.waitUntil(lambda: window.runner.pending == 0, timeout=15000)
    qtbot.wait(30)  # results queued behind the last one land too


def open_letters(window: MainWindow, qtbot: QtBot, sbl: str = SBL) -> letters_tab.LettersTab:
    window.select(sbl)
    qtbot.waitUntil(lambda: window.letters.sbl == sbl, timeout=15000)
    idle(window, qtbot)
    window.tabs.setCurrentWidget(window.letters)
    idle(window, qtbot)
    return window.letters


def preview(tab: letters_tab.LettersTab, window: MainWindow, qtbot: QtBot) -> None:
    qtbot.mouseClick(tab.preview_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(tab.images), timeout=15000)
    idle(window, qtbot)


def issue(tab: letters_tab.LettersTab, window: MainWindow, qtbot: QtBot,
          prompts: Prompts) -> None:
    prompts.answer = QMessageBox.StandardButton.Yes
    qtbot.mouseClick(tab.issue_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: tab.register.count() == 1 and tab.current_letter_id is not None
                    and bool(tab.images), timeout=15000)
    idle(window, qtbot)


def issued_already(window: MainWindow, qtbot: QtBot) -> letters_tab.LettersTab:
    """A parcel whose notice of violation was issued earlier, open on the Letters tab."""
    ws = window.workspace
    window.runner.wait(lambda: letter_service.issue(ws, SBL, ["notice_of_violation"],
                                                    as_of=TODAY))
    tab = open_letters(window, qtbot)
    assert tab.register.count() == 1
    return tab


class AcceptingPrintDialog:
    """The print dialog as a user answers it: 'print to file' at `path`, then Print."""

    path = ""
    shown = 0

    def __init__(self, printer: QPrinter, _parent: QWidget | None = None) -> None:
        printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
        printer.setOutputFileName(self.path)

    def exec(self) -> int:
        type(self).shown += 1
        return int(QDialog.DialogCode.Accepted.value)


class CancelledPrintDialog(AcceptingPrintDialog):
    def exec(self) -> int:
        return int(QDialog.DialogCode.Rejected.value)


def darkness(pdf: bytes, page: int) -> float:
    """How much ink a page carries (0 blank, 1 solid black), at a coarse resolution."""
    p = letter_service.preview_pages(pdf, dpi=20)[page]
    return 1 - sum(p.rgb) / (len(p.rgb) * 255)


def test_print_button_prints_on_the_printer_the_dialog_set_up(
        window: MainWindow, qtbot: QtBot, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    tab = open_letters(window, qtbot)
    preview(tab, window, qtbot)
    assert len(tab.images) == 2
    out = tmp_path / "printed.pdf"
    dialog = type("Dialog", (AcceptingPrintDialog,), {"path": str(out), "shown": 0})
    monkeypatch.setattr(letters_tab, "QPrintDialog", dialog)
    qtbot.mouseClick(tab.print_button, Qt.MouseButton.LeftButton)
    assert dialog.shown == 1
    printed = PdfReader(out)
    assert len(printed.pages) == 2
    # The letter's own paper size, page for page, with the letter's ink on it.
    assert [(round(float(p.mediabox.width)), round(float(p.mediabox.height)))
            for p in printed.pages] == [(612, 792), (612, 792)]
    assert tab.current_pdf is not None
    for page in (0, 1):
        assert darkness(out.read_bytes(), page) == pytest.approx(
            darkness(tab.current_pdf, page), abs=0.01)
        assert darkness(out.read_bytes(), page) > 0.005
    assert window.message.text() == (
        f"Sent 2 page(s) of the DRAFT notice of violation to {out}; a draft is not an "
        "issued letter.")


def test_a_cancelled_print_dialog_prints_nothing_and_says_so(
        window: MainWindow, qtbot: QtBot, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    tab = open_letters(window, qtbot)
    preview(tab, window, qtbot)
    out = tmp_path / "printed.pdf"
    monkeypatch.setattr(letters_tab, "QPrintDialog",
                        type("Dialog", (CancelledPrintDialog,), {"path": str(out)}))
    qtbot.mouseClick(tab.print_button, Qt.MouseButton.LeftButton)
    assert not out.exists()
    assert window.message.text() == "Printing was cancelled; nothing was printed."


def test_issue_asks_first_and_cancel_changes_nothing(window: MainWindow, qtbot: QtBot,
                                                     prompts: Prompts) -> None:
    tab = open_letters(window, qtbot)
    assert tab.kind.currentData() == "notice_of_violation"
    prompts.answer = QMessageBox.StandardButton.Cancel
    qtbot.mouseClick(tab.issue_button, Qt.MouseButton.LeftButton)
    idle(window, qtbot)
    (asked,) = prompts.questions
    assert "notice of violation" in asked
    assert SBL in asked and ADDRESS in asked
    assert "cannot be undone" in asked
    assert letter_service.register(window.workspace, SBL) == []
    assert tab.register.count() == 0
    assert window.message.text() == "Not issued: nothing was saved."


def test_issuing_with_a_suggestion_undecided_says_so_in_the_apps_words(
        window: MainWindow, qtbot: QtBot, prompts: Prompts) -> None:
    ws = window.workspace
    key = "baffle/inlet_baffle/septic_tank#1"
    window.runner.wait(lambda: ws.reopen_suggestion(SBL, key))

    def typed_otherwise() -> None:
        # the tank's defect typed in other words than the finding's: deciding it changes
        # the record, so the letter waits for the decision
        case = ws.load_case(SBL)
        tank, *rest = case.components
        ws.save_case(replace(case, components=(replace(tank, defects=("baffle cracked",)),
                                               *rest)), today=TODAY)
    window.runner.wait(typed_otherwise)
    tab = open_letters(window, qtbot)
    prompts.answer = QMessageBox.StandardButton.Yes
    qtbot.mouseClick(tab.issue_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(prompts.warnings), timeout=15000)
    idle(window, qtbot)
    (warning,) = prompts.warnings
    assert warning.startswith(f"Parcel {SBL}: no notice of violation can be issued while a "
                              "suggested finding awaits the inspector's decision")
    assert "septic tank #1: inlet baffle/tee damaged (§ 202-6 A)" in warning
    assert warning.endswith("Accept or reject it under Suggested findings in the Evaluation "
                            "panel, then issue the letter.")
    assert "inspector-app" not in warning and key not in warning
    assert letter_service.register(ws, SBL) == [] and tab.issue_button.isEnabled()
    prompts.warnings.clear()


def test_issue_confirmed_issues_the_letter_and_shows_the_issued_copy(
        window: MainWindow, qtbot: QtBot, prompts: Prompts) -> None:
    tab = open_letters(window, qtbot)
    preview(tab, window, qtbot)
    prompts.answer = QMessageBox.StandardButton.Yes
    qtbot.mouseClick(tab.issue_button, Qt.MouseButton.LeftButton)
    # Until the worker has issued it (the question waits for the parcel's address to be
    # read), a second click cannot ask again or issue it twice.
    assert not tab.issue_button.isEnabled()
    qtbot.waitUntil(lambda: len(prompts.questions) == 1, timeout=15000)
    qtbot.waitUntil(lambda: tab.register.count() == 1 and tab.current_letter_id is not None
                    and bool(tab.images), timeout=15000)
    idle(window, qtbot)
    (row,) = letter_service.register(window.workspace, SBL)
    assert row["kind"] == "notice_of_violation" and row["issued_by"] == "k.olmsted"
    assert tab.issue_button.isEnabled()
    assert tab.current_letter_id == row["id"]
    assert tab.current_pdf == letter_service.stored_pdf(window.workspace, row["id"])
    assert tab.caption.text() == (f"Issued letter {row['id'][:8]} (notice of violation, "
                                  "2026-11-25): 2 page(s), as issued")
    assert window.message.text().startswith(
        f"Issued notice of violation for {SBL} (letter {row['id'][:8]})")
    assert [i.isSelected() for i in map(tab.register.item, range(tab.register.count()))] == [
        True]
    # the issue question said where the issued letter words things unlike the draft
    assert "Unlike the draft, the issued letter asks" in prompts.questions[0]
    # another letter chosen: the issued notice's pages go, and the caption says how to see
    # the one chosen
    tab.kind.setCurrentIndex(tab.kind.findData("report_of_findings"))
    assert tab.current_pdf is None and not tab.images
    assert tab.caption.text().startswith("Preview draft shows a draft of the report of "
                                         "findings")


def test_open_in_viewer_says_truthfully_when_no_viewer_opened(
        window: MainWindow, qtbot: QtBot) -> None:
    tab = issued_already(window, qtbot)
    tab.register.setCurrentRow(0)
    qtbot.waitUntil(lambda: tab.current_letter_id is not None and bool(tab.images),
                    timeout=15000)
    idle(window, qtbot)
    asked: list[str] = []

    def no_viewer(url: Any) -> bool:
        asked.append(url.toLocalFile())
        return False

    tab.opener = no_viewer
    qtbot.mouseClick(tab.open_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(asked), timeout=15000)
    idle(window, qtbot)
    path = Path(asked[0])
    assert path.exists() and path.read_bytes() == tab.current_pdf
    text = window.message.text()
    assert not text.startswith("Opened")
    assert text == (f"No PDF viewer opened the letter; open the file yourself: {path}")
    assert str(path) in tab.caption.text()  # in the tab too, where it can be copied

    tab.opener = lambda url: asked.append(url.toLocalFile()) or True
    qtbot.mouseClick(tab.open_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(asked) == 2, timeout=15000)
    idle(window, qtbot)
    assert window.message.text() == f"Opened {path} in the PDF viewer."


def test_preview_issue_print_flow(window: MainWindow, qtbot: QtBot, tmp_path: Path,
                                  prompts: Prompts, monkeypatch: pytest.MonkeyPatch) -> None:
    tab = open_letters(window, qtbot)
    preview(tab, window, qtbot)
    assert tab.caption.text() == "DRAFT notice of violation: 2 page(s), not issued"
    assert tab.current_letter_id is None
    issue(tab, window, qtbot, prompts)
    (row,) = letter_service.register(window.workspace, SBL)
    assert tab.caption.text().startswith(f"Issued letter {row['id'][:8]} (notice of "
                                         "violation")
    out = tmp_path / "issued.pdf"
    monkeypatch.setattr(letters_tab, "QPrintDialog",
                        type("Dialog", (AcceptingPrintDialog,), {"path": str(out)}))
    qtbot.mouseClick(tab.print_button, Qt.MouseButton.LeftButton)
    assert len(PdfReader(out).pages) == 2
    stored = letter_service.stored_pdf(window.workspace, row["id"])
    assert darkness(out.read_bytes(), 0) == pytest.approx(darkness(stored, 0), abs=0.01)
    assert window.message.text() == (
        f"Sent 2 page(s) of issued notice of violation {row['id'][:8]} to {out}.")


def test_a_preview_that_arrives_after_a_parcel_switch_is_not_shown(
        window: MainWindow, qtbot: QtBot) -> None:
    tab = open_letters(window, qtbot)
    qtbot.mouseClick(tab.preview_button, Qt.MouseButton.LeftButton)
    # The worker renders the draft for SBL; before its result lands, OTHER is opened.
    tab.load(OTHER, [])
    idle(window, qtbot)
    assert tab.sbl == OTHER
    assert tab.images == [] and tab.current_pdf is None
    assert "DRAFT" not in tab.caption.text()


def test_an_issued_letter_that_arrives_after_a_parcel_switch_is_not_shown(
        window: MainWindow, qtbot: QtBot) -> None:
    tab = issued_already(window, qtbot)
    tab.register.setCurrentRow(0)  # asks the worker for the stored letter
    tab.load(OTHER, [])
    idle(window, qtbot)
    assert tab.images == [] and tab.current_letter_id is None
    assert tab.register.count() == 0


def edit_field(combo: Any) -> tuple[int, list[str]]:
    """The width the combo box gives its text, and its items' texts."""
    option = QStyleOptionComboBox()
    combo.initStyleOption(option)
    rect = combo.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                        QStyle.SubControl.SC_ComboBoxEditField, combo)
    return rect.width(), [combo.itemText(i) for i in range(combo.count())]


def page_labels(tab: letters_tab.LettersTab) -> list[QLabel]:
    return [tab.pages.itemAt(i).widget() for i in range(tab.pages.count())]


def page_width(label: QLabel) -> float:
    pixmap = label.pixmap()
    return pixmap.width() / pixmap.devicePixelRatio()


def check_readable(window: MainWindow, tab: letters_tab.LettersTab) -> None:
    width, texts = edit_field(tab.kind)
    metrics = tab.kind.fontMetrics()
    for text in texts:
        assert metrics.horizontalAdvance(text) <= width, (text, width)
    assert tab.kind.geometry().right() <= tab.width()
    for button in (tab.preview_button, tab.issue_button, tab.print_button, tab.open_button):
        assert button.width() >= button.sizeHint().width(), button.text()
        assert button.mapTo(tab, button.rect().bottomRight()).x() <= tab.width()
    # The page fills the preview's width: a letter page at 1280 x 800 is read, not squinted at.
    # and the preview has the tab's width: nothing beside it takes the room.
    room = tab.page_view.viewport().width()
    for label in page_labels(tab):
        assert page_width(label) >= room - 24
    assert page_width(page_labels(tab)[0]) >= tab.width() - 60


def test_the_letters_tab_is_readable_at_1280_by_800(window: MainWindow, qtbot: QtBot,
                                                    tmp_path: Path) -> None:
    shots = Path(os.environ.get(SHOTS_ENV) or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    tab = open_letters(window, qtbot)
    preview(tab, window, qtbot)
    qtbot.wait(100)
    assert window.width() == 1280 and window.height() == 800
    check_readable(window, tab)
    assert window.grab().save(str(shots / "letters-1280x800.png"))
    window.menus.view.contrast.trigger()
    try:
        qtbot.wait(150)
        check_readable(window, tab)
        assert window.grab().save(str(shots / "letters-1280x800-high-contrast.png"))
    finally:
        window.menus.view.contrast.trigger()
        qtbot.wait(50)


def test_the_page_follows_the_tab_width_and_zooms(window: MainWindow, qtbot: QtBot,
                                                  prompts: Prompts) -> None:
    tab = open_letters(window, qtbot)
    preview(tab, window, qtbot)
    first = page_labels(tab)[0]
    narrow = page_width(first)
    window.resize(1600, 900)
    qtbot.waitUntil(lambda: page_width(page_labels(tab)[0]) > narrow + 100, timeout=5000)
    assert page_width(page_labels(tab)[0]) >= tab.page_view.viewport().width() - 24
    # 100%: the paper's own size on screen (8.5 in wide); fit width brings it back.
    qtbot.mouseClick(tab.actual_size, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: page_width(page_labels(tab)[0]) == round(
        8.5 * tab.logicalDpiX()), timeout=5000)
    qtbot.mouseClick(tab.fit_width, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: page_width(page_labels(tab)[0]) >= tab.page_view.viewport().width()
                    - 24, timeout=5000)
    # An empty register takes no room; one with a letter folds away on request, and the
    # preview takes its room.
    assert not tab.register.isVisible() and not tab.register_toggle.isEnabled()
    issue(tab, window, qtbot, prompts)
    assert tab.register.isVisible() and tab.register_toggle.text() == (
        "Issued letters (1)")
    before = tab.page_view.height()
    qtbot.mouseClick(tab.register_toggle, Qt.MouseButton.LeftButton)
    assert not tab.register.isVisible()
    qtbot.waitUntil(lambda: tab.page_view.height() > before, timeout=5000)
    qtbot.mouseClick(tab.register_toggle, Qt.MouseButton.LeftButton)
    assert tab.register.isVisible()


def test_an_issued_kind_is_named_and_issue_again_offers_its_correction(
        window: MainWindow, qtbot: QtBot, prompts: Prompts) -> None:
    """After issuing, the tab names the issued letter instead of "(called for)"; Issue
    again names it and offers a correction, refused before the question when it would
    change nothing; once the records change, the correction replaces it and says what
    changed."""
    ws = window.workspace
    tab = open_letters(window, qtbot)
    prompts.answer = QMessageBox.StandardButton.Yes
    qtbot.mouseClick(tab.issue_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: tab.register.count() == 1, timeout=15000)
    idle(window, qtbot)
    (first,) = letter_service.register(ws, SBL)
    label = tab.kind.itemText(tab.kind.findData("notice_of_violation"))
    assert label == (f"notice of violation  (issued {first['letter_date']}, letter "
                     f"{first['id'][:8]})")
    # the same again: refused, and before any question
    asked = len(prompts.questions)
    qtbot.mouseClick(tab.issue_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(prompts.warnings), timeout=15000)
    idle(window, qtbot)
    assert len(prompts.questions) == asked
    assert "would say word for word what it says" in prompts.warnings.pop()
    # the records change: the question names the letter and offers its correction
    parcel_id, before, _ = window.runner.wait(lambda: ws.open_for_edit(SBL))
    window.runner.wait(lambda: ws.save_edit(parcel_id, before, replace(
        before, parcel=replace(before.parcel, owner_name="Nancy Iverson-Hale"))))
    qtbot.mouseClick(tab.issue_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(letter_service.register(ws, SBL)) == 2, timeout=15000)
    idle(window, qtbot)
    question = prompts.questions[-1]
    assert "Issue a correction?" in question
    assert f"letter {first['id'][:8]}, dated {first['letter_date']}" in question
    assert "Iverson-Hale" in question
    second = letter_service.register(ws, SBL)[1]
    assert second["replaces"] == first["id"]
