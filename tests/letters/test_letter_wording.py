"""Every sentence of a letter traces to a confirmed provision or to the record: hand-worked
cases, issued and drafted, read from the PDF."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from inspector_app.__main__ import main
from inspector_app.documents.content import LetterRefused
from inspector_app.domain.jurisdiction import (
    CITATION_KEYS,
    JurisdictionError,
    parse_jurisdiction,
)
from inspector_app.paths import resource
from inspector_app.services.letters import register as letters
from inspector_app.services.workspace import Workspace
from tests.letters.issued_citations import HOLDING, A, C, D
from tests.letters.test_notice_content import SBL, TODAY, _only, _store, text_of

BUNDLED = resource("jurisdictions", "town-of-canandaigua-ch202.toml")
# What the Chapter 202 text given confirms: § 202-5 A-G, § 202-6, § 202-7 B and C(1),
# § 202-8 A and B, and Article VII as the penalties article (§ 202-8 A says so).
NOT_IN_THE_TEXT = {"five_year_inspection", "first_inspection_by_watershed_inspector",
                   "septic_tank_capacity", "setbacks", "notice_of_violation"}

TANK = {"kind": "septic_tank", "condition": "substandard", "defects": ["outlet baffle missing"],
        "outlet_baffle": "present"}
BOX_NOT_LOCATED = {"kind": "distribution_box", "condition": "not_located", "defects": []}
FIELD_FAILED = {"kind": "absorption_area", "condition": "failed", "defects": ["surface breakout"]}
FIELD_OK = {"kind": "absorption_area", "condition": "acceptable", "defects": []}
HOLDING_TANK_FAILED = {"kind": "holding_tank", "condition": "failed",
                       "defects": ["sewage seeping from the tank onto the ground"]}
ETU = {"kind": "enhanced_treatment_unit", "condition": "acceptable", "defects": []}


def _case(full_case: dict, *, lake_ft: float = 142.5, **keep: Any) -> dict:
    doc = _only(full_case, **keep)
    doc["site"] = copy.deepcopy(full_case["site"])
    doc["site"]["lake_distance_ft"] = lake_ft
    return doc


# A page's foot and the next page's running head, where a sentence runs on over them.
_PAGE_TURN = re.compile(r" Page \d+ of \d+ Tax map \S+ \| [^|]+ \| \d{4}-\d\d-\d\d"
                        r"(?: [^-]+ - Town of Canandaigua)?(?= )")


def _issued(ws: Workspace, kind: str) -> str:
    (issued,) = letters.issue(ws, SBL, [kind], as_of=TODAY)
    return _PAGE_TURN.sub("", text_of(letters.stored_pdf(ws, issued.id)))


def _draft(ws: Workspace, kind: str) -> str:
    return text_of(letters.draft_pdf(ws, SBL, kind, as_of=TODAY))


# --- the jurisdiction file: each provision confirmed or not ---------------------------------

def test_the_bundled_file_confirms_what_the_text_says_and_nothing_more() -> None:
    j = parse_jurisdiction(BUNDLED.read_text("utf-8"), source=str(BUNDLED))
    assert set(j.confirmed) == set(CITATION_KEYS) - NOT_IN_THE_TEXT
    for key, c in j.confirmed.items():
        assert c.source.startswith("Chapter 202 text, ") and c.by and c.on, key
    assert j.cite("five_year_inspection") == "Chapter 202, Article III (unconfirmed)"
    assert j.cite("substandard_beyond_200ft") == "§ 202-7 C(1)"
    # the provision is confirmed, its section number inferred
    assert j.provision_confirmed("system_in_failure")
    assert j.cite("system_in_failure") == "§ 202-5 C (unconfirmed)"


def _edited(old: str, new: str) -> str:
    text = BUNDLED.read_text("utf-8")
    assert old in text
    return text.replace(old, new)


def test_a_provision_both_confirmed_and_unconfirmed_is_refused() -> None:
    text = _edited('provisions = ["five_year_inspection",',
                   'provisions = ["system_in_failure", "five_year_inspection",')
    with pytest.raises(JurisdictionError, match="'system_in_failure' must be either confirmed"
                                                ".*not both"):
        parse_jurisdiction(text, source="t.toml")


def test_a_provision_neither_confirmed_nor_listed_is_refused() -> None:
    text = _edited('provisions = ["five_year_inspection", ', "provisions = [")
    with pytest.raises(JurisdictionError, match="'five_year_inspection' must be either "
                                                "confirmed.*neither"):
        parse_jurisdiction(text, source="t.toml")


def test_a_confirmation_needs_its_date() -> None:
    text = _edited('by = "Watershed Inspector program", on = 2026-12-04 }',
                   'by = "Watershed Inspector program", on = "soon" }')
    with pytest.raises(JurisdictionError, match=r"on must be a date"):
        parse_jurisdiction(text, source="t.toml")


def test_a_file_written_before_confirmations_confirms_nothing() -> None:
    text = BUNDLED.read_text("utf-8")
    start = text.index("\n[confirmed]")
    text = text[:start] + text[text.index("\n[lake]"):]
    text = text.replace(text[text.index("provisions = ["):text.index("]", text.index(
        "provisions = [")) + 1], "")
    j = parse_jurisdiction(text, source="old.toml")
    assert not j.confirmed
    assert j.cite("design_standard_75a") == "§ 202-6 A (unconfirmed)"


def test_jurisdiction_show_gives_each_provisions_status(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "data"
    assert main(["--data-dir", str(folder), "parcels", "list"]) in (0, 2)
    capsys.readouterr()
    Workspace(folder, user="k.olmsted").close()
    assert main(["--data-dir", str(folder), "jurisdiction", "show"]) == 0
    shown = json.loads(capsys.readouterr().out)["provisions"]
    assert shown["five_year_inspection"] == {
        "citation": "Chapter 202, Article III", "section_confirmed": False,
        "issued_letters_cite": "Chapter 202, Article III [Chapter 202, inspections by a "
                               "certified inspector; section number unconfirmed]",
        "confirmed": None}
    assert shown["system_in_failure"]["issued_letters_cite"] == C
    assert shown["substandard_beyond_200ft"]["issued_letters_cite"] == "§ 202-7 C(1)"
    assert shown["substandard_beyond_200ft"]["section_confirmed"] is True
    assert shown["substandard_beyond_200ft"]["confirmed"]["on"] == "2026-12-04"


# --- item 7: issued letters state only confirmed provisions as law --------------------------

def test_an_issued_notice_asks_the_defaults_and_the_forwarding_as_the_offices_request(
        workspace: Workspace, full_case: dict) -> None:
    _store(workspace, _case(full_case, components=[TANK, FIELD_FAILED]))
    draft = _draft(workspace, "notice_of_violation")
    assert "by December 28, 2026 (unconfirmed) (§ 202-5 A (unconfirmed))" in draft
    assert ("forward this notice to any other owners of the parcel and to its renters "
            "(Chapter 202, Article IV (unconfirmed))") in draft
    text = _issued(workspace, "notice_of_violation")
    assert (f"Obtain a building permit ({A}) and repair the system, "
            f"which is in failure ({C}). This office asks that the permit be obtained by December 28, 2026 "
            "and the repair completed by March 25, 2027.") in text
    assert ("This office asks that you forward this notice to any other owners of the parcel "
            "and to its renters.") in text
    assert ("the date by which this office asks that it be done.") in text
    assert "Article IV" not in text and "(unconfirmed)" not in text
    assert "It is your responsibility" not in text


def test_deadlines_the_office_recorded_are_asked_as_the_defaults_are(
        workspace: Workspace, full_case: dict) -> None:
    # typed into the case or not, a notice's dates are the law's only once the provision
    # that empowers the notice to set them (Article IV) is confirmed: here it is not
    doc = _case(full_case, components=[TANK, FIELD_FAILED])
    doc["notice"] = {"permit_by": "2027-01-15", "complete_by": "2027-05-14"}
    _store(workspace, doc)
    assert ("Obtain a building permit by January 15, 2027 (unconfirmed) (§ 202-5 A "
            "(unconfirmed)) and complete the repair of the system by May 14, 2027 "
            "(unconfirmed) (§ 202-5 C (unconfirmed)).") in _draft(workspace,
                                                                  "notice_of_violation")
    text = _issued(workspace, "notice_of_violation")
    assert (f"Obtain a building permit ({A}) and repair the system, "
            f"which is in failure ({C}). This office asks that the "
            "permit be obtained by January 15, 2027 and the repair completed by May 14, "
            "2027.") in text
    assert "by January 15, 2027 (" not in text
    assert ("This notice states the action necessary to correct each violation and the date "
            "by which this office asks that it be done.") in text


def test_an_issued_letter_whose_wording_states_an_unconfirmed_provision_is_refused(
        workspace: Workspace, full_case: dict) -> None:
    wording = resource("letters", "templates.toml").read_text("utf-8")
    start = wording.index("renters_request = ")
    wording = wording[:start] + wording[wording.index("\n", start) + 1:]
    (workspace.folder.root / "letter-templates.toml").write_text(wording, "utf-8")
    _store(workspace, _case(full_case, components=[TANK, FIELD_FAILED]))
    with pytest.raises(LetterRefused, match=r"the wording \[notice_of_violation\] renters "
                                            r"states as law Chapter 202, Article IV"):
        letters.issue(workspace, SBL, ["notice_of_violation"], as_of=TODAY)
    assert letters.register(workspace, SBL) == []


# --- item 3: § 202-7 B only with a limitation on record; an action for each component -------

def test_no_greatest_extent_without_a_recorded_limitation(workspace: Workspace,
                                                          full_case: dict) -> None:
    _store(workspace, _case(full_case, components=[TANK, FIELD_FAILED]))
    assert not workspace.evaluate_parcel(SBL, as_of=TODAY).substandard_path \
        .greatest_extent_offered  # type: ignore[union-attr]
    text = _issued(workspace, "notice_of_violation")
    assert "greatest extent possible" not in text and "202-7 B" not in text
    assert ("No topographic, physiographic, lot size or other limitation of the lot is on "
            "record, so the design standards of § 202-6 apply.") in text
    assert (f"Under {D}, bring the septic "
            "tank up to the design standards of § 202-6 (§ 202-7, Requirements for substandard "
            "systems). This office asks that it be done by March 25, 2027.") in text


def test_greatest_extent_with_the_limitations_on_record(workspace: Workspace,
                                                        full_case: dict) -> None:
    doc = _case(full_case, components=[TANK, FIELD_FAILED])
    doc["ahj"] = {"factors_weighed": [{"factor": "d", "finding": "lot 60 ft deep"}]}
    _store(workspace, doc)
    assert workspace.evaluate_parcel(SBL, as_of=TODAY).substandard_path \
        .greatest_extent_offered  # type: ignore[union-attr]
    text = _issued(workspace, "notice_of_violation")
    assert ("must meet the design standards of § 202-6 to the greatest extent possible "
            "(§ 202-7 B)") in text
    assert ("Bring the septic tank up to the design standards of § 202-6 to the greatest "
            "extent possible (§ 202-7 B). This office asks that it be done by March 25, "
            "2027.") in text


# --- item 2: components not located are named, the list not said to be complete ------------

def test_a_substandard_letter_with_a_component_not_located(workspace: Workspace,
                                                           full_case: dict) -> None:
    _store(workspace, _case(full_case, lake_ft=450, components=[TANK, BOX_NOT_LOCATED,
                                                                FIELD_OK]))
    text = _issued(workspace, "substandard_notice")
    assert "Septic tank (substandard): outlet baffle missing" in text
    assert ("The following components were not located at the inspection and were not "
            "evaluated; whether they are substandard is not known, and this letter does not "
            "list every substandard component of the system: • Distribution box (not "
            "located)") in text
    assert "lists every component" not in text
    assert "prospective buyer" not in text
    assert "it is not a complete account of the system's condition" in text


def test_a_complete_substandard_letter_still_lists_every_component(workspace: Workspace,
                                                                   full_case: dict) -> None:
    _store(workspace, _case(full_case, lake_ft=450, components=[TANK, FIELD_OK]))
    text = _issued(workspace, "substandard_notice")
    assert ("As required by § 202-7 C(1), this letter lists every component of the system "
            "that is substandard") in text
    assert "share it with any prospective buyer" in text
    assert "No upgrade is required unless the system is in failure." in text


def test_a_notice_beyond_200_ft_with_a_component_not_located(workspace: Workspace,
                                                             full_case: dict) -> None:
    _store(workspace, _case(full_case, lake_ft=450, components=[TANK, BOX_NOT_LOCATED,
                                                                FIELD_FAILED]))
    text = _issued(workspace, "notice_of_violation")
    assert "lists every component" not in text
    assert ("Not evaluated. The following components were not located at the inspection and "
            "were not evaluated; this notice says nothing of their condition: • Distribution "
            "box (not located)") in text
    assert (f"Repair or replace the septic tank with the repair of the system ({C}). "
            "This office asks that it be done by March 25, 2027.") in text


# --- item 6: a failed holding tank: immediate action under § 202-8 B ------------------------

def test_a_failed_holding_tank_is_asked_immediate_action(workspace: Workspace,
                                                         full_case: dict) -> None:
    _store(workspace, _case(full_case, lake_ft=60, components=[HOLDING_TANK_FAILED]))
    text = _issued(workspace, "notice_of_violation")
    first = text.index("What you must do.")
    assert text.index("Immediately stop any discharge from the tank", first) < text.index(
        "Obtain a building permit", first)
    assert ("at no time will sewage discharge from the tank to the surface, ground, or surface "
            f"water be allowed ({HOLDING}). Immediately stop any discharge from the tank: have "
            "it pumped now by a NYSDEC-permitted septage waste transporter") in text


# --- item 8: a time frame in every notice; a cured lapse is the office's decision -----------

def test_a_maintenance_notice_states_its_time_frame(workspace: Workspace,
                                                    full_case: dict) -> None:
    _store(workspace, _case(full_case, components=[ETU], etu={
        "service_contract": False, "inspections": [{"date": "2026-10-01",
                                                    "report_received": "2026-10-05"}]}))
    text = _issued(workspace, "notice_of_violation")
    assert ("This office asks that you send it a copy of the contract within 30 days of the "
            "date of this notice, by December 28, 2026.") in text


def test_a_cured_lapse_alone_is_left_to_the_office(workspace: Workspace,
                                                   full_case: dict) -> None:
    _store(workspace, _case(full_case, components=[ETU], etu={
        "service_contract": True, "inspections": [{"date": "2026-03-01",
                                                   "report_received": "2026-03-20"}]}),
           decide=False)
    e = workspace.evaluate_parcel(SBL, as_of=TODAY)
    (s,) = [s for s in e.suggestions if s.key.startswith("notice/")]
    assert s.key == "notice/etu_report_late/2026-03-12" and s.status.value == "pending"
    assert "cured on 2026-03-20; does it still call for a notice of violation?" in s.defect
    assert not e.letters  # no notice until the office decides it calls for one
    workspace.decide_suggestion(SBL, s.key, accept=False, as_of=TODAY)
    e = workspace.evaluate_parcel(SBL, as_of=TODAY)
    assert not e.violations and not e.letters
    workspace.decide_suggestion(SBL, s.key, accept=True, as_of=TODAY)
    assert [k.value for k in workspace.evaluate_parcel(SBL, as_of=TODAY).letters] == [
        "notice_of_violation"]
    text = _issued(workspace, "notice_of_violation")
    assert ("Cured: the report of the 2026-03-01 inspection, due within 10 days of it, has "
            "since been received, late; nothing more is asked about it.") in text


# --- item 9: drafts of kinds not called for assert no premise the record contradicts --------

def test_a_substandard_letter_drafted_for_a_system_within_200_ft(workspace: Workspace,
                                                                 full_case: dict) -> None:
    _store(workspace, _case(full_case, lake_ft=90, components=[TANK, FIELD_OK]))
    text = _draft(workspace, "substandard_notice")
    assert "The absorption area is more than 200 feet" not in text
    assert "No upgrade is required" not in text and "not required to upgrade" not in text
    assert ("A letter of this kind is sent where the absorption area is more than 200 feet "
            "from Canandaigua Lake (§ 202-7 C(1)); the record does not show that of this "
            "system.") in text
    assert ("NOT ISSUABLE: the records call for no letter, not a substandard_notice (the "
            "record places the system 90.0 ft from the lake line, within 200 ft)") in text


def test_a_substandard_letter_drafted_for_a_failing_system(workspace: Workspace,
                                                           full_case: dict) -> None:
    _store(workspace, _case(full_case, lake_ft=450, components=[TANK, FIELD_FAILED]))
    text = _draft(workspace, "substandard_notice")
    assert "No upgrade is required" not in text and "not required to upgrade" not in text
    assert "The record shows this system in failure" in text
    assert "the system is in failure, so an upgrade is required" in text


def test_a_notice_drafted_with_no_violation_asserts_none(workspace: Workspace,
                                                         full_case: dict) -> None:
    _store(workspace, _case(full_case, lake_ft=450, components=[FIELD_OK]))
    text = _draft(workspace, "notice_of_violation")
    assert "show the following violations" not in text and "What you must do" not in text
    assert "The records of this office show no violation of" in text
    assert "(no violation is on record)" in text
