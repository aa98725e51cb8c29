"""Reports > Program report, driven through its buttons with the real worker thread."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pypdfium2
import pytest
import shiboken6
from PySide6.QtCore import QDate, Qt
from PySide6.QtGui import QAction, QImage
from pytestqt.qtbot import QtBot

from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.lists import program_report as service
from inspector_app.services.workspace import Workspace
from inspector_app.ui.main_window import MainWindow
from inspector_app.ui.reports import ProgramReportDialog
from tests.conftest import Clock

from .live import threaded_window

TODAY = date(2026, 11, 25)
SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / \
    "program-report-dialog.png"
SHOTS_ENV = "INSPECTOR_APP_SCREENSHOTS"


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path, clock: Clock) -> Iterator[MainWindow]:
    ws = Workspace(tmp_path / "data", user="k.olmsted", clock=clock)
    install_demo(ws, today=TODAY)
    w = threaded_window(ws, tmp_path, TODAY)
    qtbot.addWidget(w)
    w.show()
    yield w
    w.close()
    ws.close()


def _open(window: MainWindow, qtbot: QtBot) -> ProgramReportDialog:
    """Reports > Program report..., as the menu opens it, once its municipalities are in."""
    reports = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Reports")
    (item,) = [a for a in reports.actions() if isinstance(a, QAction)]
    assert item.text() == "Program report..." and item.shortcut().isEmpty()
    item.trigger()
    dialog = window.menus.reports.program_report_dialog
    qtbot.waitUntil(lambda: dialog.places_known and dialog.job is None, timeout=10_000)
    return dialog


def _idle(dialog: ProgramReportDialog, qtbot: QtBot) -> None:
    qtbot.waitUntil(lambda: dialog.job is None, timeout=30_000)


def _ink(image: QImage) -> float:
    """The share of the page's pixels that are not white."""
    rgb = image.convertToFormat(QImage.Format.Format_RGB888)
    data = bytes(rgb.constBits())
    pixels = len(data) // 3
    white = sum(1 for n in range(0, len(data), 3 * 7) if data[n:n + 3] == b"\xff\xff\xff")
    return 1 - white / (pixels / 7)


def _held_back(monkeypatch: pytest.MonkeyPatch, *, heed_cancel: bool = True
               ) -> tuple[threading.Event, list[Any]]:
    """The report held back on the worker until it is cancelled (unless `heed_cancel` is
    False) or `free` is set."""
    real = service.program_report
    free = threading.Event()
    calls: list[Any] = []

    def slow(ws: Workspace, start: date, end: date, **kwargs: Any) -> Any:
        calls.append((start, end))
        cancelled: Callable[[], bool] = kwargs["cancelled"]
        kwargs["progress"](0, 10)
        limit = time.monotonic() + 20
        while (not (heed_cancel and cancelled()) and not free.is_set()
               and time.monotonic() < limit):
            time.sleep(0.01)
        return real(ws, start, end, **kwargs)

    monkeypatch.setattr(service, "program_report", slow)
    return free, calls


def test_preview_shows_every_page_and_save_writes_those_bytes(
        window: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    dialog = _open(window, qtbot)
    assert dialog.start.date() == QDate(2026, 1, 1) and dialog.end.date() == QDate(2026, 11, 25)
    names = window.runner.wait(lambda: service.chosen_parcels(window.workspace, None)[1])
    assert dialog.ticked() == names and names

    qtbot.mouseClick(dialog.preview_button, Qt.MouseButton.LeftButton)
    assert not dialog.preview_button.isEnabled() and not dialog.save_button.isEnabled()
    assert not dialog.export_button.isEnabled() and dialog.running.isVisibleTo(dialog)
    _idle(dialog, qtbot)
    made = dialog.made
    assert made is not None, dialog.problem.text()
    assert made.figures["municipalities"] == names
    pages = len(pypdfium2.PdfDocument(made.pdf))
    assert pages >= 1 and len(dialog.images) == pages
    assert len(dialog.view.page_labels()) == pages
    assert all(not label.pixmap().isNull() for label in dialog.view.page_labels())
    assert _ink(dialog.images[0]) > 0.01
    assert f"{pages} page(s)" in dialog.message.text()
    assert dialog.preview_button.isEnabled() and not dialog.running.isVisibleTo(dialog)

    dialog.resize(1200, 820)
    qtbot.wait(100)
    shot = dialog.grab()
    assert shot.save(str(tmp_path / "reports.png"))
    if os.environ.get(SHOTS_ENV):
        assert shot.save(str(SCREENSHOT))

    target = tmp_path / "out" / "report.pdf"
    target.parent.mkdir()
    dialog.save_pdf(target)
    _idle(dialog, qtbot)
    assert target.read_bytes() == made.pdf and made.pdf.startswith(b"%PDF")
    assert str(target) in dialog.message.text()
    assert dialog.made is made  # the preview's bytes, not a report made again


def test_a_municipality_left_out_is_not_reported(window: MainWindow, qtbot: QtBot,
                                                 tmp_path: Path) -> None:
    dialog = _open(window, qtbot)
    names = dialog.ticked()
    assert len(names) >= 2
    dialog.places.item(0).setCheckState(Qt.CheckState.Unchecked)
    target = tmp_path / "some.pdf"
    dialog.save_pdf(target)  # no preview yet: the report is made, shown and saved
    _idle(dialog, qtbot)
    assert dialog.made is not None and dialog.made.figures["municipalities"] == names[1:]
    assert target.read_bytes() == dialog.made.pdf and dialog.images

    qtbot.mouseClick(dialog.tick_none, Qt.MouseButton.LeftButton)
    made = dialog.made
    qtbot.mouseClick(dialog.preview_button, Qt.MouseButton.LeftButton)
    assert dialog.job is None and dialog.made is made
    assert "No municipality is ticked" in dialog.problem.text()


def test_cancel_writes_nothing_and_the_dialog_stays_usable(
        window: MainWindow, qtbot: QtBot, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    dialog = _open(window, qtbot)
    free, calls = _held_back(monkeypatch)
    target = tmp_path / "cancelled.pdf"
    dialog.save_pdf(target)
    qtbot.waitUntil(lambda: bool(calls), timeout=5000)
    assert dialog.running.isVisibleTo(dialog)
    assert not any(b.isEnabled() for b in dialog.starters)
    dialog.preview()  # a second job is not started while one runs
    qtbot.mouseClick(dialog.cancel_button, Qt.MouseButton.LeftButton)
    _idle(dialog, qtbot)
    assert len(calls) == 1
    assert not target.exists() and not list(tmp_path.glob("*.pdf*"))
    assert "cancelled" in dialog.message.text() and dialog.made is None
    assert not dialog.problem.isVisible()
    assert all(b.isEnabled() for b in dialog.starters) and not dialog.running.isVisible()

    free.set()
    qtbot.mouseClick(dialog.preview_button, Qt.MouseButton.LeftButton)
    _idle(dialog, qtbot)
    assert dialog.made is not None and dialog.images


def test_closing_while_it_runs_cancels_and_drops_the_result(
        window: MainWindow, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    dialog = _open(window, qtbot)
    free, calls = _held_back(monkeypatch, heed_cancel=False)
    dialog.preview()
    qtbot.waitUntil(lambda: bool(calls), timeout=5000)
    job = dialog.job
    assert job is not None
    qtbot.mouseClick(dialog.close_button, Qt.MouseButton.LeftButton)
    assert job.cancel.is_set() and not dialog.isVisible()
    said = dialog.message.text()

    # opened again while the first job still runs: the closed dialog goes
    again = window.menus.reports.show_program_report()
    assert again is not dialog and again.isVisible()
    qtbot.waitUntil(lambda: not shiboken6.isValid(dialog), timeout=5000)
    free.set()
    qtbot.waitUntil(lambda: window.runner.pending == 0 and again.places_known,
                    timeout=10_000)
    qtbot.wait(50)
    assert dialog.made is None and dialog.message is not None
    assert again.made is None and again.message.text() != "" and not again.problem.text()
    assert said.startswith("Making the report")


def test_a_bad_period_is_said_and_nothing_runs(window: MainWindow, qtbot: QtBot,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    dialog = _open(window, qtbot)
    _free, calls = _held_back(monkeypatch)
    dialog.start.setDate(QDate(2026, 6, 2))
    dialog.end.setDate(QDate(2026, 6, 1))
    qtbot.mouseClick(dialog.preview_button, Qt.MouseButton.LeftButton)
    assert dialog.job is None and window.runner.pending == 0
    assert dialog.problem.isVisibleTo(dialog)
    assert dialog.problem.text().startswith("From 2026-06-02 is after To 2026-06-01")
    dialog.save_pdf(Path("never.pdf"))
    dialog.export(Path("never.csv"))
    assert dialog.job is None and window.runner.pending == 0

    dialog.start.setDate(QDate(2026, 1, 1))
    dialog.end.setDate(QDate(2026, 11, 26))
    qtbot.mouseClick(dialog.preview_button, Qt.MouseButton.LeftButton)
    assert dialog.job is None and window.runner.pending == 0
    assert dialog.problem.text().startswith("To 2026-11-26 is after today (2026-11-25)")
    qtbot.waitUntil(lambda: window.runner.pending == 0)
    assert calls == [] and dialog.made is None and not Path("never.pdf").exists()


def test_export_writes_the_table_the_suffix_names(window: MainWindow, qtbot: QtBot,
                                                  tmp_path: Path) -> None:
    dialog = _open(window, qtbot)
    target = tmp_path / "inspections.csv"
    dialog.export(target)
    assert not dialog.preview_button.isEnabled()
    _idle(dialog, qtbot)
    assert not dialog.problem.isVisibleTo(dialog), dialog.problem.text()
    assert target.exists() and target.read_bytes()
    assert str(target) in dialog.message.text() and dialog.message.text().startswith("Exported")

    wrong = tmp_path / "inspections.txt"
    dialog.export(wrong)
    _idle(dialog, qtbot)
    assert not wrong.exists() and dialog.problem.isVisibleTo(dialog)
    assert "inspections.txt" in dialog.problem.text()
    assert all(b.isEnabled() for b in dialog.starters)


def test_export_writes_a_geopackage_public_when_ticked(window: MainWindow, qtbot: QtBot,
                                                       tmp_path: Path) -> None:
    import pyogrio

    dialog = _open(window, qtbot)
    assert "GeoPackage" in dialog.export_button.text() and not dialog.public.isChecked()
    dialog.start.setDate(QDate(2021, 1, 1))
    full, public = tmp_path / "all.gpkg", tmp_path / "public.gpkg"
    dialog.export(full)
    _idle(dialog, qtbot)
    assert not dialog.problem.isVisibleTo(dialog), dialog.problem.text()
    assert "GIS layers (systems" in dialog.message.text() and str(full) in dialog.message.text()
    dialog.public.setChecked(True)
    dialog.export(public)
    _idle(dialog, qtbot)
    assert ", public to " in dialog.message.text()
    fields = {path.name: list(pyogrio.read_info(path, layer="parcels")["fields"])
              for path in (full, public)}
    assert "owner_name" in fields["all.gpkg"] and "owner_name" not in fields["public.gpkg"]
    assert [str(n) for n, _ in pyogrio.list_layers(public)] == [
        "systems", "components", "parcels", "parcel_lots"]


def test_a_parcel_opened_while_a_report_runs_does_not_wait_for_it(
        window: MainWindow, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    """The report only reads: at each of its progress points the worker runs what was
    queued meanwhile, so the window's reads (opening a parcel) are answered at once."""
    from inspector_app.services.parcel import inspection_history

    real = inspection_history._parcel_inspections

    def slow(*args: Any) -> Any:
        time.sleep(0.08)  # about 3 s for the demo's parcels
        return real(*args)

    monkeypatch.setattr(inspection_history, "_parcel_inspections", slow)
    dialog = _open(window, qtbot)
    dialog.start.setDate(QDate(2021, 1, 1))
    dialog.preview()
    qtbot.waitUntil(lambda: dialog.progress.value() > 0, timeout=10_000)
    started = time.perf_counter()
    sbl = window.runner.wait(lambda: window.workspace.parcels()[5]["sbl"])
    window.open_parcel(sbl)  # returns at once; the parcel shows once the worker read it
    qtbot.waitUntil(lambda: window.sbl == sbl, timeout=10_000)
    waited = time.perf_counter() - started
    assert dialog.job is not None  # the report still running ...
    assert waited < 1.0, waited  # ... and the parcel open did not wait for it
    _idle(dialog, qtbot)
    assert dialog.made is not None and dialog.made.figures["totals"]["inspections"] > 0
