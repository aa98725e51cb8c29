"""Records from providers in the window, with the real worker: Records > Import service
reports previews a file (rows to store, rows refused and why, late ones) and stores nothing
until Import, which stays off while rows are refused unless the clerk ticks "Import the good
rows"; the same file again stores nothing; Records > Providers lists them (an expired one
marked), adds one and refuses in its own words; the parcel's form shows its ETU inspections
and pump-outs as reported (provider, dates, document, which opens); the work lists read
from the reports list their parcels. On the demo of Saturday, December 5, 2026."""

from __future__ import annotations

import csv
import hashlib
import io
import shutil
from collections.abc import Iterator
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from inspector_app.domain.case import EtuInspection, PumpOut
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.records.intake import COLUMNS
from inspector_app.services.reference.providers import add_provider, list_providers
from inspector_app.services.workspace import Workspace
from inspector_app.ui.main_window import MainWindow
from inspector_app.ui.maintenance_box import etu_rows, pump_out_rows
from inspector_app.ui.workbench import Workbench

from .live import settle, threaded_window

TODAY = date(2026, 12, 5)
REP, OLD_REP, HAULER = "NW-4471", "NW-1000", "8-3230-00114"


def _clock() -> datetime:
    return datetime(2026, 12, 5, 15, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def demo_master(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("demo") / "data"
    with Workspace(root, user="M. Ortiz", clock=_clock) as ws:
        install_demo(ws, today=TODAY)
        add_provider(ws, kind="etu-representative", name="Dale Weaver", number=REP,
                     company="Finger Lakes Aerobic Service", valid_through=date(2027, 6, 30))
        add_provider(ws, kind="etu-representative", name="Old Rep", number=OLD_REP,
                     valid_through=date(2026, 6, 30))
        add_provider(ws, kind="hauler", name="Bristol Septic Pumping", number=HAULER,
                     valid_through=date(2027, 12, 31))
    return root


@pytest.fixture
def data(demo_master: Path, tmp_path: Path) -> Path:
    target = tmp_path / "data"
    shutil.copytree(demo_master, target)
    return target


@pytest.fixture
def live(qtbot: QtBot, data: Path, tmp_path: Path,
         monkeypatch: pytest.MonkeyPatch) -> Iterator[MainWindow]:
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: None)
    ws = Workspace(data, user="M. Ortiz", clock=_clock)
    w = threaded_window(ws, tmp_path, TODAY)
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    settle(w, qtbot)
    yield w
    settle(w, qtbot)
    w.close()
    ws.close()


def _csv(path: Path, kind: str, rows: list[list[str]]) -> Path:
    text = io.StringIO(newline="")
    writer = csv.writer(text, lineterminator="\r\n")
    writer.writerow([c.name for c in COLUMNS[kind]])
    writer.writerows(rows)
    path.write_text(text.getvalue(), "utf-8")
    return path


def _mixed(tmp_path: Path) -> Path:
    """Two good rows (the second late and not functional), two refused."""
    return _csv(tmp_path / "weaver-november.csv", "etu-service", [
        ["900.01-1-8", "2026-11-20", REP, "Norweco Singulair 960", "yes", "2027-11-30",
         "2026-11-24"],
        ["900.01-1-21", "2026-11-02", REP, "Jet 1500", "no", "2026-12-20", "2026-11-25"],
        ["900.01-1-34", "2026-11-10", OLD_REP, "Aquarobic", "yes", "2027-01-31", ""],
        ["900.01-1-99", "2026-11-12", REP, "Jet", "yes", "2027-01-31", ""]])


def _etu_inspections(data: Path, sbl: str) -> list[EtuInspection]:
    with Workspace(data, user="reader", clock=_clock) as ws:
        etu = ws.load_case(sbl).etu
        return list(etu.inspections) if etu else []


def _documents(w: MainWindow) -> int:
    ws = w.workspace
    assert ws is not None
    return int(w.runner.wait(lambda: ws.store.conn.execute(
        "SELECT count(*) FROM received_documents").fetchone()[0]))


def test_the_preview_lists_refused_rows_and_import_waits_for_the_box(
        live: MainWindow, qtbot: QtBot, data: Path, tmp_path: Path) -> None:
    before = _etu_inspections(data, "900.01-1-8")
    dialog = live.menus.records.import_reports()
    dialog.set_file(_mixed(tmp_path))
    qtbot.waitUntil(lambda: dialog.preview is not None)
    matched = dialog.table_texts(dialog.matched)
    assert [(r[0], r[1], r[3]) for r in matched] == [
        ("2", "900.01-1-8", f"Dale Weaver ({REP})"), ("3", "900.01-1-21", f"Dale Weaver ({REP})")]
    assert matched[0][4] == "" and matched[1][4] == "LATE: 23 days (allowed 10)"
    assert dialog.matched.item(1, 4).toolTip().startswith(
        "Received 2026-11-25, 23 days after 2026-11-02; § 202-8 A")
    assert "NOT fully functional" in matched[1][5]
    refused = dialog.table_texts(dialog.refused)
    assert [(r[0], r[1]) for r in refused] == [("4", "900.01-1-34"), ("5", "900.01-1-99")]
    assert "valid through 2026-06-30" in refused[0][2]
    assert "no parcel with SBL '900.01-1-99'" in refused[1][2]
    assert "2 rows to store, 2 refused, 1 late" in dialog.summary.text()
    # nothing stored by the preview, and Import off until the box is ticked
    assert _documents(live) == 0 and _etu_inspections(data, "900.01-1-8") == before
    assert not dialog.import_button.isEnabled()
    dialog.skip_bad.setChecked(True)
    assert dialog.import_button.isEnabled()
    dialog.skip_bad.setChecked(False)
    assert not dialog.import_button.isEnabled()
    dialog.store()  # as Enter would: refused while the box is not ticked
    settle(live, qtbot)
    assert _documents(live) == 0
    dialog.skip_bad.setChecked(True)
    dialog.import_button.click()
    qtbot.waitUntil(lambda: dialog.result_ is not None)
    settle(live, qtbot)
    assert dialog.summary.text() == ("Imported weaver-november.csv: 2 records stored, "
                                     "2 refused rows left out, 1 late.")
    assert live.message.text() == dialog.summary.text()
    assert not dialog.import_button.isEnabled()
    stored = {x.date: x for x in _etu_inspections(data, "900.01-1-8")}
    assert stored[date(2026, 11, 20)].provider_number == REP
    assert stored[date(2026, 11, 20)].document == hashlib.sha256(
        (tmp_path / "weaver-november.csv").read_bytes()).hexdigest()
    assert not any(x.provider_number == OLD_REP
                   for x in _etu_inspections(data, "900.01-1-34"))
    assert _documents(live) == 1
    # the same file again: said so, nothing stored
    again = live.menus.records.import_reports()
    again.set_file(tmp_path / "weaver-november.csv")
    qtbot.waitUntil(lambda: again.preview is not None)
    assert "already imported" in again.summary.text()
    assert "weaver-november.csv, received 2026-12-05" in again.summary.text()
    assert not again.import_button.isEnabled() and not again.skip_bad.isEnabled()
    again.reject()
    assert _documents(live) == 1


def test_a_file_without_refusals_imports_and_the_open_parcel_shows_it(
        live: MainWindow, qtbot: QtBot, data: Path, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    live.select("900.01-1-21")
    settle(live, qtbot)
    table = live.form.maintenance.etu_table
    assert not any(REP in table.text(r, 2) for r in range(table.rowCount()))
    path = _csv(tmp_path / "weaver.csv", "etu-service", [
        ["900.01-1-21", "2026-11-02", REP, "Jet 1500", "no", "2026-12-20", "2026-11-25"]])
    dialog = live.menus.records.import_reports()
    dialog.set_file(path)
    qtbot.waitUntil(lambda: dialog.preview is not None)
    assert dialog.refused.rowCount() == 0 and dialog.import_button.isEnabled()
    assert not dialog.skip_bad.isEnabled()
    dialog.import_button.click()
    qtbot.waitUntil(lambda: dialog.result_ is not None)
    settle(live, qtbot)
    # the open parcel shows the report: representative, unit, marks, document
    row = next(r for r in range(table.rowCount()) if table.text(r, 0) == "2026-11-02")
    assert table.text(row, 2) == f"Dale Weaver\n{REP}"
    assert table.text(row, 1) == "2026-11-25\n23 days, LATE"
    assert table.text(row, 3) == "Jet 1500"
    assert table.text(row, 4) == "NO"
    assert table.text(row, 5) == "2026-12-20"
    assert table.text(row, 6) == "weaver.csv"
    assert table.item(row, 4).font().bold() and not table.item(row, 3).font().bold()
    # a click on the document opens a copy of the file taken in
    opened: list[QUrl] = []
    monkeypatch.setattr(Workbench, "opener", staticmethod(
        lambda url: opened.append(url) or True))
    table.cellClicked.emit(row, 6)
    qtbot.waitUntil(lambda: bool(opened))
    assert Path(opened[0].toLocalFile()).read_bytes() == path.read_bytes()
    assert Path(opened[0].toLocalFile()).name.endswith("weaver.csv")
    # the history names the document by its file name
    assert any("Report received as: weaver.csv (SHA-256" in line.change
               for line in live.history.lines)
    # the text of the form still edits: the report's values stay with its line
    edited = live.form.etu_inspections.toPlainText().replace("2026-11-02, 2026-11-25",
                                                             "2026-11-02, 2026-11-26")
    live.form.etu_inspections.setPlainText(edited)
    live.form.edited.emit(live.form)
    settle(live, qtbot)
    kept = next(x for x in _etu_inspections(data, "900.01-1-21")
                if x.date == date(2026, 11, 2))
    assert kept.report_received == date(2026, 11, 26)
    assert kept.provider_number == REP and kept.document is not None
    # the work lists read from the reports list the parcel, with why
    live.work_list.setCurrentIndex(live.work_list.findData("etu_not_functional"))
    qtbot.waitUntil(lambda: live.proxy.rowCount() == 1)
    assert live.proxy.index(0, 0).data() == "900.01-1-21"
    assert not live.table.isColumnHidden(6)
    assert live.proxy.index(0, 6).data().startswith(
        "NOT functional in the report of 2026-11-02 by Dale Weaver")
    live.work_list.setCurrentIndex(live.work_list.findData("etu_contracts"))
    qtbot.waitUntil(lambda: live.proxy.rowCount() == 1)
    assert live.proxy.index(0, 6).data().startswith("contract through 2026-12-20 (15 days")
    live.work_list.setCurrentIndex(0)
    assert live.table.isColumnHidden(6)


def test_the_providers_dialog_marks_the_expired_and_adds_one(
        live: MainWindow, qtbot: QtBot, data: Path) -> None:
    dialog = live.menus.records.show_providers()
    qtbot.waitUntil(lambda: dialog.table.rowCount() == 3)
    rows = dialog.row_texts()
    old = next(i for i, r in enumerate(rows) if r[2] == OLD_REP)
    assert rows[old][4:] == ["2026-06-30", "EXPIRED"] and dialog.marked(old)
    weaver = next(i for i, r in enumerate(rows) if r[2] == REP)
    assert rows[weaver][5] == "yes" and not dialog.marked(weaver)
    # a number already registered: refused in the dialog's words, nothing added
    dialog.kind.setCurrentIndex(dialog.kind.findData("etu-representative"))
    dialog.name.setText("Someone Else")
    dialog.number.setText(REP)
    dialog.add_button.click()
    qtbot.waitUntil(dialog.problem.isVisible)
    assert "already registered" in dialog.problem.text()
    assert "`providers" not in dialog.problem.text()
    # a new hauler
    dialog.table.clearSelection()
    dialog.kind.setCurrentIndex(dialog.kind.findData("hauler"))
    dialog.name.setText("Naples Septic")
    dialog.number.setText("8-2650-00077")
    dialog.company.setText("Naples Septic LLC")
    dialog.through.setDate(dialog.through.date().fromString("2027-03-31", "yyyy-MM-dd"))
    dialog.add_button.click()
    qtbot.waitUntil(lambda: dialog.table.rowCount() == 4)
    assert dialog.said.text() == ("Added septage hauler Naples Septic (8-2650-00077), valid "
                                  "through 2027-03-31.")
    with Workspace(data, user="reader", clock=_clock) as ws:
        added = [p for p in list_providers(ws, "hauler") if p["number"] == "8-2650-00077"]
    assert added and added[0]["company"] == "Naples Septic LLC"
    # the selected one changed: the old representative renewed
    rows = dialog.row_texts()
    dialog.table.selectRow(next(i for i, r in enumerate(rows) if r[2] == OLD_REP))
    assert dialog.change_button.isEnabled() and dialog.name.text() == "Old Rep"
    dialog.through.setDate(dialog.through.date().fromString("2028-06-30", "yyyy-MM-dd"))
    dialog.change_button.click()
    qtbot.waitUntil(lambda: "Changed" in dialog.said.text())
    rows = dialog.row_texts()
    assert next(r for r in rows if r[2] == OLD_REP)[4:] == ["2028-06-30", "yes"]


def test_the_tables_mark_late_reports_lapsed_contracts_and_units_not_functional() -> None:
    sha = "ab" * 32
    facts = {"etu_report_within_days": 10, "record_within_days": 14,
             "documents": {sha: {"filename": "weaver.xlsx", "received_on": "2026-12-05"}}}
    rows = etu_rows([
        EtuInspection(date=date(2026, 11, 1), report_received=date(2026, 11, 5),
                      provider_number=REP, provider_name="Dale Weaver", unit="Jet",
                      fully_functional=True, service_contract_through=date(2026, 12, 1),
                      document=sha),
        EtuInspection(date=date(2026, 1, 11))], facts, TODAY)
    first = [c.text for c in rows[0]]
    assert first == ["2026-11-01", "2026-11-05", f"Dale Weaver\n{REP}", "Jet", "yes",
                     "2026-12-01\nlapsed", "weaver.xlsx"]
    assert [c.marked for c in rows[0]] == [False] * 5 + [True, False]
    assert rows[0][6].document == sha
    assert rows[1][1].text == "not received" and rows[1][1].marked
    unknown = etu_rows([EtuInspection(date=date(2026, 11, 1), document="cd" * 32)], facts,
                       TODAY)[0][6]
    assert unknown.text.startswith("SHA-256 cdcdcdcdcdcd") and unknown.document == "cd" * 32
    pumped = pump_out_rows([
        PumpOut(date=date(2026, 10, 1), record_received=True, volume_gal=1000,
                hauler_permit=HAULER, hauler_name="Bristol", record_received_on=date(
                    2026, 11, 1), document=sha),
        PumpOut(date=date(2026, 11, 1), record_received=False)], facts)
    assert [c.text for c in pumped[0]] == ["2026-10-01", "1,000", f"Bristol\n{HAULER}",
                                           "2026-11-01\n31 days, LATE", "weaver.xlsx"]
    assert pumped[0][3].marked and pumped[1][3].text == "not received"


def test_a_pump_out_file_is_read_as_one_and_the_documents_list_it(
        live: MainWindow, qtbot: QtBot, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    path = _csv(tmp_path / "bristol.csv", "pump-out", [
        ["900.01-1-9", "2026-11-28", "1000", HAULER, "2026-12-01"]])
    dialog = live.menus.records.import_reports()
    assert dialog.kind.currentData() == "etu-service"
    dialog.set_file(path)
    qtbot.waitUntil(lambda: dialog.preview is not None)
    assert dialog.kind.currentData() == "pump-out"  # its columns say so
    assert [(r[1], r[3]) for r in dialog.table_texts(dialog.matched)] == [
        ("900.01-1-9", f"Bristol Septic Pumping ({HAULER})")]
    dialog.import_button.click()
    qtbot.waitUntil(lambda: dialog.result_ is not None)
    settle(live, qtbot)
    documents = live.menus.records.show_documents()
    assert documents is not None
    qtbot.waitUntil(lambda: documents.table.rowCount() == 1)
    row = [documents.table.item(0, c).text() for c in range(documents.table.columnCount())]
    assert row[:6] == ["2026-12-05", "bristol.csv", "Pump-out records", "1", "0", "M. Ortiz"]
    assert row[6] == hashlib.sha256(path.read_bytes()).hexdigest()
    opened: list[QUrl] = []
    monkeypatch.setattr(Workbench, "opener", staticmethod(
        lambda url: opened.append(url) or True))
    documents.table.itemActivated.emit(documents.table.item(0, 1))
    qtbot.waitUntil(lambda: bool(opened))
    assert Path(opened[0].toLocalFile()).read_bytes() == path.read_bytes()
    documents.reject()
    # the parcel's pump-outs as recorded
    live.select("900.01-1-9")
    settle(live, qtbot)
    table = live.form.maintenance.pump_out_table
    row_at = next(r for r in range(table.rowCount()) if table.text(r, 0) == "2026-11-28")
    assert [table.text(row_at, c) for c in range(5)] == [
        "2026-11-28", "1,000", f"Bristol Septic Pumping\n{HAULER}", "2026-12-01",
        "bristol.csv"]


def test_a_template_written_from_the_menu(live: MainWindow, qtbot: QtBot,
                                           tmp_path: Path) -> None:
    out = tmp_path / "etu-template.csv"
    live.menus.records.write_template_to("etu-service", out)
    settle(live, qtbot)
    assert out.read_text("utf-8-sig").splitlines()[0] == ",".join(
        c.name for c in COLUMNS["etu-service"])
    assert live.message.text().startswith(f"Wrote the template to {out}")
