"""Records that arrive from outside the office (§ 202-8): providers, the templates sent out,
and provider files taken in whole or not at all, on the demo of Friday, December 4, 2026
(ETU parcels 900.01-1-8, -21, -34; holding tanks 900.01-1-9, -22, -35), taken in the next
day."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from collections.abc import Iterator
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook

from inspector_app.cli import run
from inspector_app.errors import InputError
from inspector_app.services.lists.worklists import worklists
from inspector_app.services.parcel.evaluation_json import evaluation_json
from inspector_app.services.records.intake import IntakeRefused, import_records, preview_records
from inspector_app.services.records.provider_files import COLUMNS, write_template
from inspector_app.services.reference.providers import add_provider, list_providers, set_provider
from inspector_app.services.workspace import Workspace
from tests.letters.test_served_deadlines import _build
from tests.templates import Templates

TODAY = date(2026, 12, 5)
ETU = ("900.01-1-8", "900.01-1-21", "900.01-1-34")
TANKS = ("900.01-1-9", "900.01-1-22", "900.01-1-35")
REP = "NW-4471"
HAULER = "8-3230-00114"


@pytest.fixture
def ws(templates: Templates, tmp_path: Path) -> Iterator[Workspace]:
    folder = templates.copy("served-demo", _build, tmp_path / "data")
    ws = Workspace(folder, user="M. Ortiz",
                   clock=lambda: datetime(2026, 12, 5, 15, 0, tzinfo=UTC))
    add_provider(ws, kind="etu-representative", name="Dale Weaver", number=REP,
                 company="Finger Lakes Aerobic Service", valid_through=date(2027, 6, 30))
    add_provider(ws, kind="etu-representative", name="Old Rep", number="NW-1000",
                 valid_through=date(2026, 6, 30))
    add_provider(ws, kind="hauler", name="Bristol Septic Pumping", number=HAULER,
                 valid_through=date(2027, 12, 31))
    yield ws
    ws.close()


def _csv(path: Path, kind: str, rows: list[list[str]]) -> Path:
    text = io.StringIO(newline="")
    writer = csv.writer(text, lineterminator="\r\n")
    writer.writerow([c.name for c in COLUMNS[kind]])
    writer.writerows(rows)
    path.write_text(text.getvalue(), "utf-8")
    return path


def _log(ws: Workspace) -> int:
    return len(ws.store.query("SELECT seq FROM change_log"))


def _violations(ws: Workspace, sbl: str, as_of: date = TODAY) -> list[dict[str, Any]]:
    found = ws.evaluate_parcel(sbl, as_of=as_of)
    shown = evaluation_json(found, ws.law_for(ws.load_case(sbl).parcel.municipality))
    return list(shown["violations"])


def _codes(ws: Workspace, sbl: str, as_of: date = TODAY) -> list[str]:
    return [v["code"] for v in _violations(ws, sbl, as_of)]


GOOD_ETU = [
    # on time, certified functional, contract ending within 60 days
    ["900.01-1-8", "2026-11-20", REP, "Norweco Singulair 960", "yes", "2027-01-15",
     "2026-11-25"],
    # late (28 days), not functional, contract a year ahead; SBL in another county spelling
    ["900.01-01-021", "2026-11-02", "nw-4471", "Norweco Singulair 960", "no", "2027-11-01",
     "2026-11-30"],
]


def test_a_file_with_a_refused_row_stores_nothing_and_names_every_refused_row(
        ws: Workspace, tmp_path: Path) -> None:
    bad = [
        ["900.01-1-34", "2026-10-01", "XX-999", "Norweco", "yes", "2027-10-01", ""],
        ["900.01-1-99", "2026-10-01", REP, "Norweco", "yes", "2027-10-01", ""],
        ["900.01-1-1", "2026-10-01", REP, "Norweco", "yes", "2027-10-01", ""],
        ["900.01-1-34", "2026-12-31", REP, "Norweco", "yes", "2027-10-01", ""],
        ["900.01-1-34", "2026-10-01", REP, "Norweco", "maybe", "2027-10-01", ""],
        ["900.01-1-34", "2026-10-01", "NW-1000", "Norweco", "yes", "2027-10-01", ""],
        ["900.01-1-34", "2026-10-01", REP, "Norweco", "yes", "2027-10-01", "2026-09-30"],
        ["900.01-1-8", "2026-11-20", REP, "Norweco", "yes", "2027-01-15", ""],
    ]
    path = _csv(tmp_path / "rep.csv", "etu-service", GOOD_ETU + bad)
    before = _log(ws), _violations(ws, "900.01-1-8")
    with pytest.raises(IntakeRefused) as refused:
        import_records(ws, path, "etu-service")
    report = refused.value.report
    assert isinstance(report, dict)
    assert report["imported"] == 0 and report["late"] == []
    reasons = {r["line"]: r["reason"] for r in report["refused"]}
    assert sorted(reasons) == list(range(4, 12))
    assert "'XX-999' is not registered" in reasons[4]
    assert "no parcel with SBL '900.01-1-99'" in reasons[5] and "closest" in reasons[5]
    assert "has no enhanced treatment unit on record" in reasons[6]
    assert "service_date 2026-12-31 is after today (2026-12-05)" in reasons[7]
    assert "fully_functional 'maybe' is not yes or no" in reasons[8]
    assert "valid through 2026-06-30, before 2026-10-01" in reasons[9]
    assert "before the service of 2026-10-01" in reasons[10]
    assert "repeats line 2" in reasons[11]
    assert (_log(ws), _violations(ws, "900.01-1-8")) == before
    assert ws.store.query("SELECT * FROM received_documents") == []
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    assert not ws.attachment_path(digest).exists()


def test_skip_bad_stores_the_good_rows_and_the_document_once(ws: Workspace,
                                                             tmp_path: Path) -> None:
    path = _csv(tmp_path / "rep.csv", "etu-service", [
        *GOOD_ETU, ["900.01-1-34", "2026-10-01", "XX-999", "Norweco", "yes", "2027-10-01", ""]])
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    seen = preview_records(ws, path, "etu-service")
    assert [m["sbl"] for m in seen.matched] == ["900.01-1-8", "900.01-1-21"]
    assert ws.store.query("SELECT * FROM received_documents") == []
    result = import_records(ws, path, "etu-service", skip_bad=True)
    assert result.as_json() == {
        "imported": 2, "already_imported": False,
        "refused": [{"line": 4, "sbl": "900.01-1-34", "reason": result.refused[0].reason}],
        "late": [{"line": 3, "sbl": "900.01-1-21", "date": "2026-11-02",
                  "received": "2026-11-30", "days": 28, "allowed_days": 10,
                  "citation": "§ 202-8 A (unconfirmed)"}],
        "document": digest, "already_on_record": []}
    assert ws.attachment_path(digest).read_bytes() == path.read_bytes()
    kept = ws.store.query("SELECT filename, records, refused, received_on, imported_by FROM "
                          "received_documents")
    assert kept == [{"filename": "rep.csv", "records": 2, "refused": 1,
                     "received_on": "2026-12-05", "imported_by": "M. Ortiz"}]
    made = ws.load_case("900.01-1-21").etu
    assert made is not None
    report = next(i for i in made.inspections if i.date == date(2026, 11, 2))
    assert (report.provider_number, report.provider_name, report.document,
            report.fully_functional, report.report_received) == (
        REP, "Dale Weaver", digest, False, date(2026, 11, 30))
    logged = ws.store.query("SELECT user, new_value FROM change_log WHERE table_name = "
                            "'etu_reports' AND new_value LIKE ?", (f"%{digest}%",))
    assert len(logged) == 2 and {r["user"] for r in logged} == {"M. Ortiz"}
    count = _log(ws)
    again = import_records(ws, path, "etu-service", skip_bad=True)
    assert again.already_imported and again.imported == 0 and _log(ws) == count


def test_what_the_reports_make_of_the_work_lists_and_evaluations(ws: Workspace,
                                                                 tmp_path: Path) -> None:
    lists = ("etu-reports", "etu-not-functional", "etu-contracts-expiring")
    before = worklists(ws, as_of=TODAY, names=lists)
    assert before["etu-not-functional"] == [] and before["etu-contracts-expiring"] == []
    assert "etu_inspection_overdue" in _codes(ws, "900.01-1-8")
    import_records(ws, _csv(tmp_path / "rep.csv", "etu-service", GOOD_ETU), "etu-service")
    after = worklists(ws, as_of=TODAY, names=lists)
    assert [i["sbl"] for i in after["etu-not-functional"]] == ["900.01-1-21"]
    expiring = after["etu-contracts-expiring"]
    assert [(i["sbl"], i["contract_through"], i["days_left"]) for i in expiring] == [
        ("900.01-1-8", "2027-01-15", 41)]
    # the evaluation asks for the follow-up and warns of the contract's end, in words
    prompts = {sbl: " ".join(evaluation_json(ws.evaluate_parcel(sbl, as_of=TODAY),
                                             ws.law_for("Town of Canandaigua"))["prompts"])
               for sbl in ("900.01-1-8", "900.01-1-21")}
    assert "inspection by Dale Weaver (NW-4471) does not certify the unit fully functional" \
        in prompts["900.01-1-21"] and "contract" not in prompts["900.01-1-21"]
    assert "service contract ends 2027-01-15, in 41 days" in prompts["900.01-1-8"]
    # the inspection of 2026-11-20 is on record: no longer overdue
    assert "etu_inspection_overdue" not in _codes(ws, "900.01-1-8")
    # the late report stands as a lapse cured on the day it arrived
    late = [v for v in _violations(ws, "900.01-1-21") if v["code"] == "etu_report_late"
            and "2026-11-02" in v["detail"]]
    assert len(late) == 1 and "arrived 2026-11-30" in late[0]["detail"]
    # the contract ends 2027-01-15: a violation from the next day, not before
    assert "etu_no_service_contract" not in _codes(ws, "900.01-1-8", date(2027, 1, 15))
    lapsed = [v for v in _violations(ws, "900.01-1-8", date(2027, 1, 16))
              if v["code"] == "etu_no_service_contract"]
    assert len(lapsed) == 1 and "ran through 2027-01-15" in lapsed[0]["detail"]
    later = worklists(ws, as_of=date(2027, 1, 16), names=lists)
    assert later["etu-contracts-expiring"] == []
    assert "900.01-1-8" in [i["sbl"] for i in later["etu-reports"]]
    # a later report certifying the unit closes its follow-up
    import_records(ws, _csv(tmp_path / "rep2.csv", "etu-service", [
        ["900.01-1-21", "2026-12-03", REP, "Norweco Singulair 960", "yes", "2027-11-01",
         "2026-12-04"]]), "etu-service")
    assert worklists(ws, as_of=TODAY, names=lists)["etu-not-functional"] == []


def test_a_row_already_on_record_is_not_stored_again(ws: Workspace, tmp_path: Path) -> None:
    import_records(ws, _csv(tmp_path / "a.csv", "etu-service", GOOD_ETU[:1]), "etu-service")
    count = _log(ws)
    # the same row in another file (with a row of its own): that row is new, the other not
    result = import_records(ws, _csv(tmp_path / "b.csv", "etu-service", [
        *GOOD_ETU[:1], ["900.01-1-34", "2026-11-10", REP, "Norweco", "yes", "2027-10-01",
                        "2026-11-12"]]), "etu-service")
    assert (result.imported, result.already_on_record, result.refused) == (1, [2], [])
    assert _log(ws) > count
    # a different report of the same service by the same representative is refused
    with pytest.raises(IntakeRefused) as refused:
        import_records(ws, _csv(tmp_path / "c.csv", "etu-service", [
            ["900.01-1-8", "2026-11-20", REP, "Norweco", "no", "2027-01-15", "2026-11-25"]]),
            "etu-service")
    report = refused.value.report
    assert isinstance(report, dict)
    assert "already holds a different report of the 2026-11-20 service" in \
        report["refused"][0]["reason"]


def test_pump_out_records_late_and_on_time(ws: Workspace, tmp_path: Path) -> None:
    missing = [v for v in _violations(ws, "900.01-1-9")
               if v["code"] == "holding_tank_records_missing"]
    assert len(missing) == 1 and "no record received" in missing[0]["detail"]
    day = missing[0]["detail"].split("for the ")[1][:10]
    # (a spreadsheet in the United States saves dates into CSV as M/D/YYYY)
    path = _csv(tmp_path / "hauler.csv", "pump-out", [
        ["900.01-1-9", day, "1,500", HAULER, "12/1/2026"],
        ["900.01-1-22", "2026-11-30", "1750", HAULER, ""],
    ])
    result = import_records(ws, path, "pump-out", received=date(2026, 12, 2))
    assert result.imported == 2 and [x["sbl"] for x in result.late] == ["900.01-1-9"]
    late = [v for v in _violations(ws, "900.01-1-9")
            if v["code"] == "holding_tank_records_missing"]
    assert len(late) == 1 and "arrived 2026-12-01" in late[0]["detail"]
    tank = ws.load_case("900.01-1-22").holding_tank_service
    assert tank is not None
    on_time = next(p for p in tank.pump_outs if p.date == date(2026, 11, 30))
    assert (on_time.volume_gal, on_time.hauler_permit, on_time.record_received_on) == (
        1750, HAULER, date(2026, 12, 2))
    # the record came within the office's 30 days: nothing about that pump-out stands
    assert not any("2026-11-30" in v["detail"] for v in _violations(ws, "900.01-1-22"))


@pytest.mark.parametrize(("row", "reason"), [
    (["900.01-1-9", "2026-11-01", "-5", HAULER, ""], "gallons"),
    (["900.01-1-9", "2026-11-01", "lots", HAULER, ""], "gallons 'lots' is not a number"),
    (["900.01-1-9", "2026-11-31", "1000", HAULER, ""], "is not a date written YYYY-MM-DD"),
    (["900.01-1-9", "31/11/2026", "1000", HAULER, ""], "is not a date written YYYY-MM-DD"),
    (["900.01-1-9", "11/01/26", "1000", HAULER, ""], "is not a date written YYYY-MM-DD"),
    (["900.01-1-9", "2026-11-01", "1000", "", ""], "hauler_permit is empty"),
    (["900.01-1-8", "2026-11-01", "1000", HAULER, ""], "has no holding tank on record"),
    (["", "2026-11-01", "1000", HAULER, ""], "sbl is empty"),
])
def test_each_bad_pump_out_value_is_refused_in_words(ws: Workspace, tmp_path: Path,
                                                     row: list[str], reason: str) -> None:
    with pytest.raises(IntakeRefused) as refused:
        import_records(ws, _csv(tmp_path / "h.csv", "pump-out", [row]), "pump-out")
    report = refused.value.report
    assert isinstance(report, dict)
    assert reason in report["refused"][0]["reason"] and report["refused"][0]["line"] == 2


def test_files_that_are_not_a_provider_file_are_refused_whole(ws: Workspace,
                                                             tmp_path: Path) -> None:
    wrong = tmp_path / "wrong.csv"
    wrong.write_text("parcel,date\n900.01-1-9,2026-11-01\n", "utf-8")
    with pytest.raises(InputError, match="must name the pump-out template's columns"):
        import_records(ws, wrong, "pump-out")
    with pytest.raises(InputError, match="a provider's file is CSV"):
        import_records(ws, wrong.rename(tmp_path / "wrong.pdf"), "pump-out")
    empty = _csv(tmp_path / "empty.csv", "pump-out", [])
    with pytest.raises(InputError, match="has no pump-out records under its header"):
        import_records(ws, empty, "pump-out")
    with pytest.raises(InputError, match="--received 2026-12-06 is after today"):
        import_records(ws, empty, "pump-out", received=date(2026, 12, 6))
    assert ws.store.query("SELECT * FROM received_documents") == []


def test_the_workbook_template_round_trips(ws: Workspace, tmp_path: Path) -> None:
    out = tmp_path / "etu.xlsx"
    write_template("etu-service", out)
    book = load_workbook(out)
    sheet = book.active
    assert sheet is not None
    header = [c.value for c in sheet[1]]
    assert header == ["sbl", "service_date", "certification_number", "unit",
                      "fully_functional", "service_contract_through", "report_date"]
    assert "YYYY-MM-DD" in str(sheet["B2"].value)
    rules = {str(v.sqref).split(":")[0]: v.type for v in sheet.data_validations.dataValidation}
    assert rules == {"B3": "date", "E3": "list", "F3": "date", "G3": "date"}
    sheet["A3"] = "900.01-1-34"
    sheet["B3"] = datetime(2026, 11, 10)
    sheet["C3"] = REP
    sheet["D3"] = "Norweco"
    sheet["E3"] = "yes"
    sheet["F3"] = datetime(2027, 10, 1)
    book.save(out)
    result = import_records(ws, out, "etu-service", received=date(2026, 11, 12))
    assert (result.imported, result.refused, result.late) == (1, [], [])
    etu = ws.load_case("900.01-1-34").etu
    assert etu is not None and etu.inspections[-1].report_received == date(2026, 11, 12)


def test_providers_are_registered_once_and_changed_on_record(ws: Workspace) -> None:
    with pytest.raises(InputError, match="already registered"):
        add_provider(ws, kind="hauler", name="Someone", number=" 8-3230-00114 ")
    with pytest.raises(InputError, match="--number"):
        add_provider(ws, kind="hauler", name="Someone", number="=cmd|calc")
    renewed = set_provider(ws, kind="etu-representative", number="nw-1000",
                           valid_through=date(2028, 6, 30))
    assert renewed["valid"] and renewed["valid_through"] == "2028-06-30"
    assert [p["number"] for p in list_providers(ws, "etu-representative")] == [
        "NW-1000", REP]
    logged = ws.store.query("SELECT user, old_value, new_value FROM change_log WHERE "
                            "table_name = 'providers' AND op = 'update'")
    assert logged == [{"user": "M. Ortiz", "old_value": '"2026-06-30"',
                       "new_value": '"2028-06-30"'}]


def test_the_command_line_prints_the_report_and_exits_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = str(tmp_path / "data")
    assert run(["--data-dir", data, "demo", "--as-of", "2026-12-04"]) == 0
    assert run(["--data-dir", data, "providers", "add", "--kind", "hauler", "--name",
                "Bristol Septic Pumping", "--number", HAULER]) == 0
    out = tmp_path / "po.csv"
    assert run(["records", "template", "--kind", "pump-out", "--out", str(out)]) == 0
    assert out.read_text("utf-8-sig").splitlines() == [
        "sbl,pump_out_date,gallons,hauler_permit,record_date"]
    with out.open("a", encoding="utf-8") as f:
        f.write("900.01-1-9,2026-11-01,1000,8-3230-00999,\r\n")
    capsys.readouterr()
    assert run(["--data-dir", data, "records", "import", str(out), "--kind", "pump-out"]) == 2
    printed, said = capsys.readouterr()
    report = json.loads(printed)
    assert report["imported"] == 0 and report["refused"][0]["line"] == 2
    assert "'8-3230-00999' is not registered" in report["refused"][0]["reason"]
    assert said.strip() == (f"{out}: 1 row refused (listed); nothing was imported; correct "
                            "them, or give --skip-bad to import the others.")
    assert run(["--data-dir", data, "records", "import", str(tmp_path), "--kind",
                "pump-out"]) == 2
    assert "folder" in capsys.readouterr().err


def test_the_program_report_counts_the_records_received(ws: Workspace, tmp_path: Path) -> None:
    from inspector_app.services.lists.program_report import program_report, program_report_pdf

    def counts(start: date, end: date) -> dict[str, int]:
        figures = program_report(ws, start, end, as_of=TODAY).figures
        return dict(figures["totals"]["records_received"])

    assert set(counts(date(2026, 11, 1), TODAY).values()) == {0}
    # 900.01-1-34's report arrived before the period; its contract ended in it
    import_records(ws, _csv(tmp_path / "rep.csv", "etu-service", [
        *GOOD_ETU, ["900.01-1-34", "2026-10-01", REP, "Norweco", "yes", "2026-11-30",
                    "2026-10-05"]]), "etu-service")
    import_records(ws, _csv(tmp_path / "h.csv", "pump-out", [
        ["900.01-1-22", "2026-10-01", "1500", HAULER, "2026-11-15"],
        ["900.01-1-35", "2026-11-20", "1500", HAULER, "2026-11-21"]]), "pump-out")
    assert counts(date(2026, 11, 1), TODAY) == {
        "etu_reports_received": 2, "etu_reports_late": 1, "etu_reported_not_functional": 1,
        "etu_contracts_lapsed_at_end": 1, "pump_out_records_received": 2,
        "pump_out_records_late": 1}
    # a period between the reports' arrivals counts neither
    assert counts(date(2026, 11, 26), date(2026, 11, 29))["etu_reports_received"] == 0
    report = program_report(ws, date(2026, 11, 1), TODAY, as_of=TODAY)
    assert report.figures["by_municipality"]["Town of Canandaigua"]["records_received"][
        "etu_reports_received"] >= 1
    from tests.letters.test_letter_statements import text_of

    text = " ".join(text_of(program_report_pdf(ws, report)).split())
    assert "ETU service reports received" in text and "Pump-out records received" in text


def test_a_case_file_or_the_form_naming_a_provider_passes_the_same_check(
        ws: Workspace, tmp_path: Path) -> None:
    from dataclasses import replace

    from inspector_app.domain.case import EtuInspection
    from inspector_app.services.parcel.cases import store_case

    parcel_id, before, _ = ws.open_for_edit("900.01-1-34")
    assert before.etu is not None
    unknown = replace(before, etu=replace(before.etu, inspections=(
        *before.etu.inspections, EtuInspection(date=date(2026, 11, 1),
                                               provider_number="ZZ-1"))))
    count = _log(ws)
    with pytest.raises(InputError, match="Not saved: ETU representative's certification "
                                         "'ZZ-1' is not registered"):
        ws.save_edit(parcel_id, before, unknown)
    expired = replace(unknown, etu=replace(unknown.etu, inspections=(
        *before.etu.inspections, EtuInspection(date=date(2026, 11, 1),
                                               provider_number="NW-1000"))))
    with pytest.raises(InputError, match="valid through 2026-06-30, before 2026-11-01"):
        store_case(ws, expired)
    assert _log(ws) == count
    known = replace(unknown, etu=replace(unknown.etu, inspections=(
        *before.etu.inspections, EtuInspection(date=date(2026, 11, 1),
                                               provider_number=REP))))
    ws.save_edit(parcel_id, before, known)
    assert _log(ws) > count


@pytest.mark.parametrize(("pump_out", "words"), [
    ({"date": "2026-06-01", "record_received": True, "record_received_on": "2026-05-01"},
     "record_received_on (2026-05-01) is before the pump-out (2026-06-01)"),
    ({"date": "2026-06-01", "record_received": False, "record_received_on": "2026-06-05"},
     "record_received_on is given, but record_received is false"),
    ({"date": "2026-06-01", "record_received": True, "document": "abc"},
     "document"),
])
def test_a_case_file_s_pump_out_record_reads_in_order(tmp_path: Path, pump_out: dict[str, Any],
                                                      words: str) -> None:
    from inspector_app import casefile

    doc = json.loads((Path(__file__).parents[1] / "fixtures" /
                      "contract_example_case.json").read_text("utf-8"))
    doc["holding_tank_service"] = {"hauler_contract": True, "pump_outs": [pump_out]}
    path = tmp_path / "case.json"
    path.write_text(json.dumps(doc), "utf-8")
    with pytest.raises(InputError, match=re.escape(words)):
        casefile.read_file(path, today=TODAY)
