from __future__ import annotations

import copy
import hashlib
import io
import re
import sqlite3
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from inspector_app.casefile import parse_document
from inspector_app.documents.templates import LetterTemplateError, load_office, load_wording
from inspector_app.errors import InputError
from inspector_app.paths import resource
from inspector_app.services.letters import register as letters
from inspector_app.services.workspace import Workspace
from tests.suggestions import decide_pending

TODAY = date(2026, 11, 25)


def text_of(pdf: bytes) -> str:
    reader = PdfReader(io.BytesIO(pdf))
    return re.sub(r"\s+", " ", " ".join(page.extract_text() for page in reader.pages))


def pages(pdf: bytes) -> list[Any]:
    return list(PdfReader(io.BytesIO(pdf)).pages)


def _store(ws: Workspace, doc: dict[str, Any]) -> None:
    ws.save_case(parse_document(doc, source="case.json", today=TODAY), today=TODAY)


@pytest.fixture
def failed(workspace: Workspace, full_case: dict[str, Any]) -> Workspace:
    _store(workspace, full_case)
    decide_pending(workspace, "98.00-1-23.100", as_of=TODAY)
    return workspace


def _substandard(doc: dict[str, Any], *, distance: float, greatest: bool | None) -> dict:
    doc = copy.deepcopy(doc)
    doc["components"] = [c for c in doc["components"] if c["condition"] != "failed"
                         and c["condition"] != "not_located"]
    doc["inspection"]["failure_evidence"] = []
    for key in ("observations", "etu", "holding_tank_service"):
        doc.pop(key)
    doc["components"] = [c for c in doc["components"] if c["kind"] != "enhanced_treatment_unit"]
    doc["site"]["lake_distance_ft"] = distance
    if greatest is None:
        doc.pop("ahj")
    else:
        doc["ahj"]["greatest_extent_possible"] = greatest
    return doc


def test_notice_of_violation_says_what_the_law_requires(failed: Workspace) -> None:
    pdf = letters.draft_pdf(failed, "98.00-1-23.100", "notice_of_violation", as_of=TODAY)
    text = text_of(pdf)
    for required in (
            "NOTICE OF VIOLATION", "Robert Whitaker", "PO Box 442", "Sarasota, FL 34236",
            "6120 West Lake Road", "98.00-1-23.100",
            "§ 202-5 C", "The system is in failure",            # the section violated
            "§ 202-5 E", "driveway, above-ground pool",
            "Septic tank (substandard): outlet baffle missing; riser lid cracked",
            "Absorption area (failed): surface breakout",       # components and defects
            "What you must do",                                  # what to do
            "building permit by January 15, 2027",              # permit deadline
            "complete the repair of the system by May 3, 2027",  # May 1: a Saturday
            "forward this notice to any other owners of the parcel and to its renters",
            "cc: Maria Castellano", "Page 1 of", "DRAFT"):
        assert required in text, required


def test_substandard_notice_lists_components_and_says_no_upgrade(workspace: Workspace,
                                                                full_case: dict) -> None:
    _store(workspace, _substandard(full_case, distance=350, greatest=None))
    assert [k.value for k in workspace.evaluate_parcel("98.00-1-23.100", as_of=TODAY).letters
            ] == ["substandard_notice"]
    text = text_of(letters.draft_pdf(workspace, "98.00-1-23.100", "substandard_notice",
                                     as_of=TODAY))
    for required in ("NOTICE OF SUBSTANDARD SYSTEM", "§ 202-7 C(1)",
                     "Septic tank (substandard): outlet baffle missing; riser lid cracked",
                     "No upgrade is required unless the system is in failure"):
        assert required in text, required


def test_letter_of_acknowledgement_states_waiver_and_factors(workspace: Workspace,
                                                             full_case: dict) -> None:
    _store(workspace, _substandard(full_case, distance=62, greatest=True))
    text = text_of(letters.draft_pdf(workspace, "98.00-1-23.100", "letter_of_acknowledgement",
                                     as_of=TODAY))
    for required in ("LETTER OF ACKNOWLEDGEMENT", "§ 202-7 B(3)",
                     "meets the design standards of § 202-6 to the greatest extent possible",
                     "Local waiver", "Separation from the lake reduced to 62 ft",
                     "(a) previous approvals", "NYSDOH approval of the 1987 system on file",
                     "(e) the extent to which the limitations are self-created",
                     "Determination by CEO D. Brennan on November 21, 2026",
                     "Building permit: number BP-2026-0147, issued on November 24, 2026."):
        assert required in text, required


def test_reminders(failed: Workspace) -> None:
    etu = text_of(letters.draft_pdf(failed, "98.00-1-23.100", "etu_report_reminder",
                                    as_of=TODAY))
    assert "within 10 days" in etu and "2026-03-01 inspection has not been received" in etu
    pump = text_of(letters.draft_pdf(failed, "98.00-1-23.100", "pump_out_request",
                                     as_of=TODAY))
    assert "no record received for the 2026-09-15 pump-out" in pump
    five = text_of(letters.draft_pdf(failed, "98.00-1-23.100", "five_year_reminder",
                                     as_of=TODAY))
    assert "every 5 years" in five and "due by November 20, 2031" in five


def embedded_fonts_only(pdf: bytes) -> bool:
    names = set()
    for page in pages(pdf):
        fonts = page["/Resources"].get("/Font", {})
        for key in fonts:
            font = fonts[key].get_object()
            names.add(str(font["/BaseFont"]))
            if "/FontFile2" not in font["/FontDescriptor"].get_object():
                return False
    return bool(names) and all("Vera" in n for n in names)


@pytest.mark.parametrize("kind", ["notice_of_violation", "etu_report_reminder",
                                  "pump_out_request", "five_year_reminder",
                                  "report_of_findings"])
def test_every_kind_embeds_its_fonts(failed: Workspace, kind: str) -> None:
    assert embedded_fonts_only(letters.draft_pdf(failed, "98.00-1-23.100", kind, as_of=TODAY))


def test_report_of_findings(failed: Workspace, tmp_path: Path) -> None:
    photo = tmp_path / "outlet.png"
    from PIL import Image

    Image.new("RGB", (64, 48), (120, 90, 60)).save(photo)
    failed.add_attachment("98.00-1-23.100", photo, caption="Outlet tee, missing")
    text = text_of(letters.draft_pdf(failed, "98.00-1-23.100", "report_of_findings",
                                     as_of=TODAY))
    for required in ("REPORT OF FINDINGS", "Element", "Capacity", "Location", "Condition",
                     "Functionality", "1,250 gal", "Sludge depth: 14.5 in",
                     "Dye test", "80 gal", "25 min", "fail",
                     "142.5 ft to the lake line by survey", "Outlet tee, missing",
                     "Design load"):
        assert required in text, required


def test_pages_are_us_letter_and_numbered(failed: Workspace) -> None:
    pdf = letters.draft_pdf(failed, "98.00-1-23.100", "notice_of_violation", as_of=TODAY)
    for n, page in enumerate(pages(pdf), start=1):
        assert (float(page.mediabox.width), float(page.mediabox.height)) == (612, 792)
        assert f"Page {n} of {len(pages(pdf))}" in page.extract_text()
    fonts = pages(pdf)[0]["/Resources"]["/Font"]
    names = {str(fonts[k].get_object()["/BaseFont"]) for k in fonts}
    assert names and all("Vera" in n for n in names), names
    assert all("/FontFile2" in fonts[k].get_object()["/FontDescriptor"].get_object()
               for k in fonts)  # embedded TrueType


def test_issuing_stores_an_immutable_letter(failed: Workspace) -> None:
    version = failed.case_version("98.00-1-23.100")
    (issued,) = letters.issue(failed, "98.00-1-23.100", as_of=TODAY)
    assert issued.kind == "notice_of_violation"
    pdf = letters.stored_pdf(failed, issued.id)
    assert hashlib.sha256(pdf).hexdigest() == issued.sha256
    assert Path(issued.path).read_bytes() == pdf
    text = text_of(pdf)
    # the section number of § 202-5 C is inferred: the issued letter cites it marked so,
    # with the provision's subject, and the person issuing is told
    assert "DRAFT" not in text and "(unconfirmed)" not in text
    assert ("§ 202-5 C [Chapter 202, systems in failure; section number unconfirmed]: The "
            "system is in failure") in text
    assert ("cites § 202-5 C as \u201c§ 202-5 C [Chapter 202, systems in failure; section "
            "number unconfirmed]\u201d: the jurisdiction "
            "file does not confirm its section number") in issued.warnings
    assert letters.stored_pdf(failed, issued.id) == pdf  # re-print: the same bytes
    row = failed.store.query("SELECT * FROM letters WHERE id = ?", (issued.id,))[0]
    assert (row["issued_by"], row["letter_date"], row["case_version"]) == (
        "k.olmsted", "2026-11-25", version)
    assert issued.case_version == version
    assert row["recipient"].startswith('["Robert Whitaker"')
    with pytest.raises(sqlite3.IntegrityError), failed.store.transaction() as w:
        w.update("letters", issued.id, {"pdf": b"forged"})
    assert letters.stored_pdf(failed, issued.id) == pdf


def test_a_correction_points_to_the_letter_it_replaces(failed: Workspace) -> None:
    (first,) = letters.issue(failed, "98.00-1-23.100", as_of=TODAY)
    with pytest.raises(InputError, match="would say word for word what it says"):
        letters.issue(failed, "98.00-1-23.100", as_of=TODAY, replaces=first.id)
    case = failed.load_case("98.00-1-23.100")
    failed.save_case(replace(case, parcel=replace(case.parcel, owner_name="Ruth Whitaker")),
                     today=TODAY)
    (second,) = letters.issue(failed, "98.00-1-23.100", as_of=TODAY, replaces=first.id[:8])
    # the owner's name is in the address and the salutation, and nowhere else
    assert second.changes == (
        "\u201cAddress: Robert Whitaker, PO Box 442, Sarasota, FL 34236\u201d became "
        "\u201cAddress: Ruth Whitaker, PO Box 442, Sarasota, FL 34236\u201d",
        "\u201cDear Robert Whitaker:\u201d became \u201cDear Ruth Whitaker:\u201d")
    text = " ".join(text_of(letters.stored_pdf(failed, second.id)).split())
    assert ("This letter corrects the letter of November 25, 2026: \u201cAddress: Robert "
            "Whitaker, PO Box 442, Sarasota, FL 34236\u201d became \u201cAddress: Ruth "
            "Whitaker, PO Box 442, Sarasota, FL 34236\u201d; \u201cDear Robert Whitaker:\u201d "
            "became \u201cDear Ruth Whitaker:\u201d.") in text
    assert second.replaces == first.id and second.id != first.id
    assert [r["replaces"] for r in letters.register(failed, "98.00-1-23.100")] == [
        None, first.id]
    with pytest.raises(InputError, match="'nope' is not a letter id"):
        letters.issue(failed, "98.00-1-23.100", as_of=TODAY, replaces="nope")


def test_a_letter_the_records_do_not_call_for_is_refused(failed: Workspace) -> None:
    with pytest.raises(InputError, match="the records call for notice_of_violation, not a "
                                         "substandard_notice"):
        letters.issue(failed, "98.00-1-23.100", ["substandard_notice"], as_of=TODAY)
    assert letters.register(failed) == []


@pytest.mark.parametrize("address", [["PO Box 442"], ["17 Birch Hollow Lane", "Pittsford"]])
def test_no_envelope_without_a_mailing_address(workspace: Workspace, full_case: dict,
                                               address: list[str]) -> None:
    doc = copy.deepcopy(full_case)
    doc["parcel"]["owner_mailing_address"] = address
    _store(workspace, doc)
    decide_pending(workspace, "98.00-1-23.100", as_of=TODAY)
    with pytest.raises(InputError, match="mailing address .* has no line ending in a ZIP"):
        letters.issue(workspace, "98.00-1-23.100", as_of=TODAY)
    with pytest.raises(InputError, match="has no line ending in a ZIP"):
        letters.draft_pdf(workspace, "98.00-1-23.100", "notice_of_violation", as_of=TODAY)
    assert letters.register(workspace) == []


def test_batch_printing_keeps_each_letters_numbering(failed: Workspace, full_case: dict,
                                                     tmp_path: Path) -> None:
    second = copy.deepcopy(full_case)
    second["parcel"]["sbl"] = "98.00-1-24"
    second["parcel"]["owner_name"] = "Linda Abbott"
    _store(failed, second)
    decide_pending(failed, "98.00-1-24", as_of=TODAY)
    a = letters.issue(failed, "98.00-1-23.100", as_of=TODAY)
    b = letters.issue(failed, "98.00-1-24", ["notice_of_violation", "pump_out_request"],
                      as_of=TODAY)
    assert len(a) + len(b) == 3

    def boom() -> bool:
        return True

    with pytest.raises(letters.Cancelled):
        letters.print_batch(failed, tmp_path / "batch.pdf", cancelled=boom)
    assert not (tmp_path / "batch.pdf").exists()
    assert all(r["printed_at"] is None for r in letters.register(failed))

    seen = []
    result = letters.print_batch(failed, tmp_path / "batch.pdf", labels=tmp_path / "labels.pdf",
                                 progress=lambda d, t: seen.append((d, t)))
    assert result["letters"] == 3 and seen[-1] == (3, 3)
    merged = (tmp_path / "batch.pdf").read_bytes()
    singles = [letters.stored_pdf(failed, x.id) for x in (*a, *b)]
    assert len(pages(merged)) == sum(len(pages(p)) for p in singles)
    first_pages = [p.extract_text() for p in pages(merged)]
    assert sum("Page 1 of" in t for t in first_pages) == 3
    assert embedded_fonts_only((tmp_path / "labels.pdf").read_bytes())
    label_text = text_of((tmp_path / "labels.pdf").read_bytes())
    assert label_text.count("Sarasota, FL 34236") == 3
    assert "Linda Abbott" in label_text
    assert letters.print_batch(failed, tmp_path / "again.pdf")["letters"] == 0
    assert all(r["printed_at"] for r in letters.register(failed))


def test_contract_letters_command_writes_drafts(tmp_path: Path, capsys: Any) -> None:
    from tests.test_cli import cli

    case = Path(__file__).parents[1] / "fixtures" / "contract_example_case.json"
    status, out, err = cli(capsys, "--data-dir", str(tmp_path / "d"), "letters", str(case),
                           "--out", str(tmp_path / "out"), "--as-of", "2026-11-25")
    assert status == 0, err
    assert out == [{"kind": "notice_of_violation",
                    "path": str(tmp_path / "out" / "112.09-1-7.2_notice_of_violation.pdf")}]
    assert "NOTICE OF VIOLATION" in text_of(Path(out[0]["path"]).read_bytes())


def test_wording_and_office_files_are_checked(tmp_path: Path) -> None:
    text = resource("letters", "templates.toml").read_text("utf-8")
    broken = tmp_path / "t.toml"
    broken.write_text(text.replace("{owner_name}:", "{owner_nam}:", 1))
    with pytest.raises(LetterTemplateError, match="unknown placeholder {owner_nam}"):
        load_wording(broken)
    broken.write_text(text.replace('septic_tank = "Septic tank"\n', ""))
    with pytest.raises(LetterTemplateError, match=r"\[labels\] septic_tank is missing"):
        load_wording(broken)
    office = resource("letters", "office.toml").read_text("utf-8")
    bad_office = tmp_path / "o.toml"
    bad_office.write_text(office.replace('logo = ""', 'logo = "missing.png"'))
    with pytest.raises(LetterTemplateError, match="logo names .*missing.png, which does not"):
        load_office(bad_office, base=tmp_path)


def test_office_settings_and_wording_from_the_data_folder(failed: Workspace,
                                                          tmp_path: Path) -> None:
    from PIL import Image

    Image.new("RGB", (120, 120), (31, 59, 87)).save(failed.folder.root / "logo.png")
    office = resource("letters", "office.toml").read_text("utf-8")
    (failed.folder.root / "office.toml").write_text(
        office.replace('office_name = "Town of Canandaigua"', 'office_name = "Town of Italy"')
        .replace('logo = ""', 'logo = "logo.png"')
        .replace('certification = ""', 'certification = "NYS OTN #4410"'))
    wording = resource("letters", "templates.toml").read_text("utf-8")
    (failed.folder.root / "letter-templates.toml").write_text(
        wording.replace('title = "NOTICE OF VIOLATION"', 'title = "NOTICE OF VIOLATION (ITALY)"'))
    text = text_of(letters.draft_pdf(failed, "98.00-1-23.100", "notice_of_violation",
                                     as_of=TODAY))
    assert "Town of Italy" in text and "NYS OTN #4410" in text
    assert "NOTICE OF VIOLATION (ITALY)" in text


def test_a_wording_copied_before_a_key_was_added_takes_that_key_from_the_bundled_one(
        failed: Workspace, tmp_path: Path) -> None:
    bundled = resource("letters", "templates.toml")
    text = bundled.read_text("utf-8")
    line = next(x for x in text.splitlines() if x.startswith("failure_evidence = "))
    older = failed.folder.root / "letter-templates.toml"
    older.write_text(text.replace(line + "\n", "")
                     .replace('title = "NOTICE OF VIOLATION"', 'title = "NOTICE (OLDER COPY)"'))
    with pytest.raises(LetterTemplateError, match=r"failure_evidence is missing"):
        load_wording(older)  # on its own, the file lacks it
    taken = load_wording(older, later_from=bundled).templates["notice_of_violation"]
    assert taken.texts["failure_evidence"] == line.split(" = ", 1)[1].strip('"')
    drafted = text_of(letters.draft_pdf(failed, "98.00-1-23.100", "notice_of_violation",
                                        as_of=TODAY))
    assert "NOTICE (OLDER COPY)" in drafted and "Evidence of failure" in drafted


def test_register_commands_end_to_end(tmp_path: Path, capsys: Any) -> None:
    from PIL import Image

    from tests.test_cli import cli

    data = str(tmp_path / "d")
    case = Path(__file__).parents[1] / "fixtures" / "full_case.json"
    cli(capsys, "--data-dir", data, "case", "import", str(case), "--as-of", "2026-11-25")
    settings = tmp_path / "mine"
    settings.mkdir()
    Image.new("RGB", (90, 90), (30, 60, 90)).save(settings / "seal.png")
    (settings / "office.toml").write_text(
        resource("letters", "office.toml").read_text("utf-8")
        .replace('logo = ""', 'logo = "seal.png"').replace("Town of Canandaigua",
                                                           "Town of Gorham"))
    status, out, err = cli(capsys, "--data-dir", data, "office", "use",
                           str(settings / "office.toml"))
    assert status == 0, err
    assert out == {"file": str(tmp_path / "d" / "office.toml")}
    assert (tmp_path / "d" / "seal.png").exists()
    status, _, err = cli(capsys, "--data-dir", data, "register", "issue", "98.00-1-23.100",
                         "--as-of", "2026-11-25")
    assert status == 2 and "suggested findings await the inspector's decision" in err
    # the tank already states its outlet baffle missing: that suggestion holds nothing up
    assert "(key baffle/outlet_baffle/septic_tank#1)" not in err
    for key in ("septic_tank_capacity/septic_tank#1", "failure/breakout/absorption_area#1"):
        assert f"(key {key})" in err
        status, _, err2 = cli(capsys, "--data-dir", data, "suggestion", "reject",
                              "98.00-1-23.100", key, "--as-of", "2026-11-25")
        assert status == 0, err2
    status, issued, err = cli(capsys, "--data-dir", data, "register", "issue",
                              "98.00-1-23.100", "--as-of", "2026-11-25")
    assert status == 0, err
    (letter,) = issued
    assert letter["kind"] == "notice_of_violation" and letter["warnings"]
    _, pending, _ = cli(capsys, "--data-dir", data, "register", "pending")
    assert [p["id"] for p in pending] == [letter["id"]]
    status, printed, _ = cli(capsys, "--data-dir", data, "register", "print", "--out",
                             str(tmp_path / "batch.pdf"), "--labels", str(tmp_path / "l.pdf"))
    assert printed["letters"] == 1
    assert "Town of Gorham" in text_of((tmp_path / "batch.pdf").read_bytes())
    _, shown, _ = cli(capsys, "--data-dir", data, "register", "show", letter["id"], "--out",
                      str(tmp_path / "again.pdf"))
    assert shown["bytes"] == (tmp_path / "again.pdf").stat().st_size
    assert hashlib.sha256((tmp_path / "again.pdf").read_bytes()).hexdigest() == letter["sha256"]
    _, pending, _ = cli(capsys, "--data-dir", data, "register", "pending")
    assert pending == []
    status, _, err = cli(capsys, "--data-dir", data, "register", "issue", "98.00-1-23.100",
                         "--kind", "letter_of_acknowledgement")
    assert status == 2 and "no letter_of_acknowledgement can be issued" in err


def test_a_kind_not_called_for_is_refused_in_codes_and_in_the_app_in_words(
        failed: Workspace) -> None:
    sbl = failed.parcels()[0]["sbl"]
    with pytest.raises(InputError) as refused:
        letters.issue(failed, sbl, ["letter_of_acknowledgement"], as_of=date(2026, 11, 25))
    said = str(refused.value)
    assert "no letter_of_acknowledgement can be issued" in said  # as --kind names it
    in_app = refused.value.in_app
    assert "no letter of acknowledgement can be issued" in in_app and "_" not in in_app
