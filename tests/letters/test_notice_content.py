"""What each letter says, finding by finding, and what it must never say."""

from __future__ import annotations

import copy
import io
import re
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from inspector_app.casefile import parse_document
from inspector_app.documents.content import DeadlinesPassed
from inspector_app.errors import InputError
from inspector_app.paths import resource
from inspector_app.services.letters import register as letters
from inspector_app.services.workspace import Workspace
from tests.suggestions import decide_pending

TODAY = date(2026, 11, 25)
SBL = "98.00-1-23.100"
TOWN = "Town of Canandaigua"


def text_of(pdf: bytes) -> str:
    reader = PdfReader(io.BytesIO(pdf))
    return re.sub(r"\s+", " ", " ".join(page.extract_text() for page in reader.pages))


def page_texts(pdf: bytes) -> list[str]:
    return [re.sub(r"\s+", " ", p.extract_text()) for p in PdfReader(io.BytesIO(pdf)).pages]


def _only(doc: dict[str, Any], **keep: Any) -> dict[str, Any]:
    """The case with nothing wrong in it but what `keep` puts back."""
    d = copy.deepcopy(doc)
    d["parcel"]["municipality"] = TOWN
    d["components"] = [c for c in d["components"] if c["condition"] == "acceptable"
                       and c["kind"] != "enhanced_treatment_unit"]
    d["inspection"]["failure_evidence"] = []
    for key in ("observations", "etu", "holding_tank_service", "ahj", "notice"):
        d.pop(key)
    d.update(keep)
    return d


def _store(ws: Workspace, doc: dict[str, Any], *, decide: bool = True) -> None:
    """Save the case; with `decide`, the inspector's decision on each suggested finding
    (rejected: the record stays as entered)."""
    ws.save_case(parse_document(doc, source="case.json", today=TODAY), today=TODAY)
    if decide:
        decide_pending(ws, doc["parcel"]["sbl"], as_of=TODAY)


def _nov(ws: Workspace, doc: dict[str, Any]) -> str:
    _store(ws, doc)
    return text_of(letters.draft_pdf(ws, SBL, "notice_of_violation", as_of=TODAY))


ETU = {"kind": "enhanced_treatment_unit", "condition": "acceptable", "defects": []}


@pytest.mark.parametrize(("keep", "action"), [
    ({"etu": {"service_contract": True, "inspections": [{"date": "2026-10-01"}]},
      "components": [ETU]},
     "send this office the written report of the 2026-10-01 inspection"),
    ({"holding_tank_service": {"hauler_contract": True, "pump_outs": [
        {"date": "2026-09-15", "record_received": False}]},
      "components": [{"kind": "holding_tank", "condition": "acceptable", "defects": []}]},
     "Have your septage hauler send this office a copy of the record of the 2026-09-15 "
     "pump-out"),
    ({"observations": {"absorption_area_encroachments": ["shrubs"],
                       "clear_water_connections": []}},
     "Remove the shrubs from the absorption area by March 25, 2027 (unconfirmed)"),
    ({"observations": {"absorption_area_encroachments": [],
                       "clear_water_connections": ["footing drain"]}},
     "Disconnect the footing drain from the system and discharge that water away from the "
     "system"),
])
def test_a_notice_without_construction_asks_for_no_permit(
        workspace: Workspace, full_case: dict, keep: dict, action: str) -> None:
    text = _nov(workspace, _only(full_case, **keep))
    assert action in text
    assert "building permit" not in text and "permit by" not in text
    assert "design professional" not in text
    assert "(clear water into the system" not in text and "(on the absorption area" not in text


def test_a_failed_tank_needs_a_permit_but_no_design_professional(workspace: Workspace,
                                                                 full_case: dict) -> None:
    tank = {"kind": "septic_tank", "condition": "failed", "defects": ["cracked, leaking"]}
    text = _nov(workspace, _only(full_case, components=[tank]))
    # 30 days from November 25, 2026: Christmas Day, so the next business day (GCL § 25-a)
    assert ("Obtain a building permit by December 28, 2026 (unconfirmed) (§ 202-5 A "
            "(unconfirmed)) and complete the repair of the system by March 25, 2027 "
            "(unconfirmed)") in text
    assert ("Replacing the septic tank to the existing conditions requires a building permit "
            "but does not need to be designed by a design professional (§ 202-6 D)") in text
    assert "(§ 202-6 E)" in text and "New York State Department of Health" in text
    assert "absorption field" not in text and "§ 202-5 G" not in text
    field = {"kind": "absorption_area", "condition": "failed", "defects": ["breakout"]}
    text = _nov(workspace, _only(full_case, components=[field]))
    assert ("Any alteration of the absorption field requires a building permit and a design "
            "completed by a design professional (§ 202-6 D)") in text
    assert "Replacing the" not in text


def test_substandard_beyond_200_ft_is_information_not_a_correction(
        workspace: Workspace, full_case: dict) -> None:
    doc = _only(full_case, observations={"absorption_area_encroachments": ["shrubs"],
                                         "clear_water_connections": []})
    doc["components"].append({"kind": "septic_tank", "condition": "substandard",
                              "defects": ["outlet baffle missing"]})
    doc["site"]["lake_distance_ft"] = 350
    text = _nov(workspace, doc)
    assert "For your information" in text and "§ 202-7 C(1)" in text
    assert "Septic tank (substandard): outlet baffle missing" in text
    assert "must be corrected" not in text and "must be repaired" not in text
    assert "Failed components" not in text


def test_record_violations_are_found_in_the_records_not_by_the_inspection(
        workspace: Workspace, full_case: dict) -> None:
    _store(workspace, _only(full_case, components=[ETU], etu={
        "service_contract": True, "inspections": [{"date": "2026-03-01",
                                                   "report_received": "2026-03-20"}]}),
           decide=False)
    # the lapse is cured: whether it still calls for a notice is the office's decision
    workspace.decide_suggestion(SBL, "notice/etu_report_late/2026-03-12", accept=True,
                                as_of=TODAY)
    text = text_of(letters.draft_pdf(workspace, SBL, "notice_of_violation", as_of=TODAY))
    assert "The records of this office show the following violations" in text
    assert "as of November 25, 2026" in text
    assert "arrived 2026-03-20, more than 10 days after it" in text
    assert "An inspection of the" not in text and "found the following" not in text
    assert "has since been received" in text and "send this office the written report" \
        not in text


def test_every_legal_statement_carries_its_section(workspace: Workspace,
                                                   full_case: dict) -> None:
    doc = copy.deepcopy(full_case)
    doc["parcel"]["municipality"] = TOWN
    text = _nov(workspace, doc)
    assert ("forward this notice to any other owners of the parcel and to its renters "
            "(Chapter 202, Article IV (unconfirmed))") in text
    assert "punishable as provided in Chapter 202, Article VII" in text
    assert "must reach this office" not in text
    assert "within 30 days of this letter" not in text
    etu = text_of(letters.draft_pdf(workspace, SBL, "etu_report_reminder", as_of=TODAY))
    assert "shall be sent to this office within 10 days" in etu
    assert "This office asks that" in etu and "by December 28, 2026" in etu  # not Christmas
    assert "must reach this office" not in etu
    five = text_of(letters.draft_pdf(workspace, SBL, "five_year_reminder", as_of=TODAY))
    assert "every 5 years (unconfirmed)" in five


def test_the_office_sets_its_own_reply_period(workspace: Workspace, full_case: dict) -> None:
    wording = resource("letters", "templates.toml").read_text("utf-8")
    (workspace.folder.root / "letter-templates.toml").write_text(
        wording.replace("reply_within_days = 30", "reply_within_days = 14"))
    _store(workspace, _only(full_case, components=[ETU], etu={
        "service_contract": True, "inspections": [{"date": "2026-10-01"}]}))
    text = text_of(letters.draft_pdf(workspace, SBL, "notice_of_violation", as_of=TODAY))
    assert "by December 9, 2026" in text and "December 25, 2026" not in text


def test_a_past_deadline_is_never_printed_and_issuing_is_refused(
        workspace: Workspace, full_case: dict) -> None:
    doc = _only(full_case, components=[{"kind": "septic_tank", "condition": "failed",
                                        "defects": ["collapsed"]}],
                notice={"permit_by": "2027-01-15", "complete_by": "2027-05-01"})
    _store(workspace, doc)
    late = date(2027, 2, 2)
    text = text_of(letters.draft_pdf(workspace, SBL, "notice_of_violation", as_of=late))
    assert "January 15, 2027 has passed" in text and "days allowed" not in text
    with pytest.raises(DeadlinesPassed, match="Permit by, January 15, 2027.*before the "
                                               "letter's date, February 2, 2027"):
        letters.issue(workspace, SBL, as_of=late)
    assert letters.register(workspace) == []
    fresh = letters.set_new_deadlines(workspace, SBL, as_of=late)
    assert fresh == {"sbl": SBL, "permit_by": "2027-03-04", "complete_by": "2027-06-02"}
    (issued,) = letters.issue(workspace, SBL, as_of=late)
    final = text_of(letters.stored_pdf(workspace, issued.id))
    assert "March 4, 2027" in final and "January 15, 2027" not in final


def test_issuing_twice_is_refused_and_a_correction_says_so(workspace: Workspace,
                                                           full_case: dict) -> None:
    _store(workspace, _only(full_case, observations={
        "absorption_area_encroachments": ["shrubs"], "clear_water_connections": []}))
    (first,) = letters.issue(workspace, SBL, as_of=TODAY)
    assert "CORRECTED" not in text_of(letters.stored_pdf(workspace, first.id))
    in_force = (f"notice_of_violation {first.id[:8]} of 2026-11-25 is already in force for "
                f"this inspection, so nothing was issued; to change it, issue a correction "
                f"with --replaces {first.id}.")
    with pytest.raises(InputError, match=re.escape(in_force)):
        letters.issue(workspace, SBL, as_of=TODAY)
    case = workspace.load_case(SBL)  # the owner's name was misspelt
    workspace.save_case(replace(case, parcel=replace(case.parcel, owner_name="Ruth Whitaker")),
                        today=TODAY)
    # the records changed, but the notice in force is still the one to correct: a second
    # notice beside it is refused, and nothing is written
    before = letters.register(workspace, SBL)
    with pytest.raises(InputError, match=re.escape(in_force)):
        letters.issue(workspace, SBL, as_of=date(2026, 11, 30))
    assert letters.register(workspace, SBL) == before
    (second,) = letters.issue(workspace, SBL, as_of=date(2026, 11, 30), replaces=first.id)
    text = text_of(letters.stored_pdf(workspace, second.id))
    assert "NOTICE OF VIOLATION - CORRECTED" in text and "Ruth Whitaker" in text
    assert (f"replaces the notice of violation dated November 25, 2026 (register letter "
            f"{first.id[:8]})") in text
    with pytest.raises(InputError, match="a correction must be a letter of the same kind"):
        letters.issue(workspace, SBL, ["report_of_findings"], as_of=TODAY, replaces=first.id)


def test_a_draft_not_called_for_says_why_on_every_page(workspace: Workspace,
                                                       full_case: dict) -> None:
    doc = copy.deepcopy(full_case)
    doc["parcel"]["municipality"] = TOWN
    _store(workspace, doc)
    pdf = letters.draft_pdf(workspace, SBL, "substandard_notice", as_of=TODAY)
    pages = page_texts(pdf)
    assert pages
    for page in pages:
        assert "NOT ISSUABLE" in page and "not a substandard_notice" in page
    called = page_texts(letters.draft_pdf(workspace, SBL, "notice_of_violation", as_of=TODAY))
    assert not any("NOT ISSUABLE" in p for p in called)


def test_the_signature_is_never_alone_on_a_page(workspace: Workspace, full_case: dict) -> None:
    doc = copy.deepcopy(full_case)
    doc["parcel"]["municipality"] = TOWN
    _store(workspace, doc)
    pages = page_texts(letters.draft_pdf(workspace, SBL, "notice_of_violation", as_of=TODAY))
    last = next(p for p in pages if "Sincerely" in p)
    assert "punishable as provided in" in last


def test_the_acknowledgement_states_only_what_is_recorded(workspace: Workspace,
                                                          full_case: dict) -> None:
    doc = copy.deepcopy(full_case)
    doc["parcel"]["municipality"] = TOWN
    doc["components"] = [c for c in doc["components"] if c["condition"] == "substandard"]
    doc["inspection"]["failure_evidence"] = []
    for key in ("observations", "etu", "holding_tank_service"):
        doc.pop(key)
    doc["site"]["lake_distance_ft"] = 62
    _store(workspace, doc)
    text = text_of(letters.draft_pdf(workspace, SBL, "letter_of_acknowledgement",
                                     as_of=TODAY))
    assert "A building permit is issued with this letter" not in text
    assert "(c) the ability to utilize the latest technology" in text
    assert "[no finding recorded]" in text
    with pytest.raises(InputError, match=r"until the record holds the finding on factor \(c\)"
                                         r".*factor \(d\)"):
        letters.issue(workspace, SBL, ["letter_of_acknowledgement"], as_of=TODAY)
    doc["ahj"]["factors_weighed"] += [{"factor": "c", "finding": "ETU with UV"},
                                      {"factor": "d", "finding": "Lot is 60 ft wide"}]
    _store(workspace, doc)
    (issued,) = letters.issue(workspace, SBL, ["letter_of_acknowledgement"], as_of=TODAY)
    final = text_of(letters.stored_pdf(workspace, issued.id))
    assert "Lot is 60 ft wide" in final and "[no finding recorded]" not in final


def test_the_acknowledgement_states_the_permit_and_waits_for_it(workspace: Workspace,
                                                                full_case: dict) -> None:
    doc = copy.deepcopy(full_case)
    doc["parcel"]["municipality"] = TOWN
    doc["components"] = [c for c in doc["components"] if c["condition"] == "substandard"]
    doc["inspection"]["failure_evidence"] = []
    for key in ("observations", "etu", "holding_tank_service"):
        doc.pop(key)
    doc["site"]["lake_distance_ft"] = 62
    doc["ahj"]["factors_weighed"] += [{"factor": "c", "finding": "ETU with UV"},
                                      {"factor": "d", "finding": "Lot is 60 ft wide"}]
    permit = {k: doc["ahj"].pop(k) for k in ("permit_number", "permit_issued_on")}
    _store(workspace, doc)
    draft = text_of(letters.draft_pdf(workspace, SBL, "letter_of_acknowledgement", as_of=TODAY))
    assert "Building permit" not in draft  # nothing claimed that is not on record
    with pytest.raises(InputError, match=r"until the record holds the building permit's "
                                         r"number and date \(Permit number, Permit issued "
                                         r"on\)\.$"):
        letters.issue(workspace, SBL, ["letter_of_acknowledgement"], as_of=TODAY)
    doc["ahj"]["permit_number"] = permit["permit_number"]
    _store(workspace, doc)
    draft = text_of(letters.draft_pdf(workspace, SBL, "letter_of_acknowledgement", as_of=TODAY))
    assert "Building permit: number BP-2026-0147, issued on [not recorded]." in draft
    with pytest.raises(InputError, match=r"the date the building permit was issued "
                                         r"\(Permit issued on\)"):
        letters.issue(workspace, SBL, ["letter_of_acknowledgement"], as_of=TODAY)
    doc["ahj"]["permit_issued_on"] = permit["permit_issued_on"]
    _store(workspace, doc)
    (issued,) = letters.issue(workspace, SBL, ["letter_of_acknowledgement"], as_of=TODAY)
    final = text_of(letters.stored_pdf(workspace, issued.id))
    assert "Building permit: number BP-2026-0147, issued on November 24, 2026." in final
    assert "[not recorded]" not in final


def test_the_report_draws_the_distance_that_decides(workspace: Workspace,
                                                    full_case: dict, tmp_path: Path) -> None:
    doc = copy.deepcopy(full_case)
    doc["parcel"]["municipality"] = TOWN
    doc["observations"]["clear_water_connections"] = ["footing drain"]
    _store(workspace, doc)
    text = text_of(letters.draft_pdf(workspace, SBL, "report_of_findings", as_of=TODAY))
    assert "Decides: 142.5 ft, field (survey)" in text
    assert "Shaded: within" not in text and "(map, ±" not in text
    assert "42.76140° N, 77.33530° W" in text  # the septic tank's captured position
    assert "located on site map" not in text
