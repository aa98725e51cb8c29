"""What a notice of violation says of its signer, of a setback shortfall, of the design
bedrooms, of the evidence of failure and of the sections it cites."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector_app import casefile
from inspector_app.casefile import parse_document
from inspector_app.paths import resource
from inspector_app.services.letters import register as letters
from inspector_app.services.workspace import Workspace
from tests.letters.issued_citations import C, D
from tests.letters.test_letters import TODAY, failed, text_of  # noqa: F401
from tests.letters.test_served_deadlines import DEMO_DAY, _build
from tests.suggestions import decide_pending
from tests.templates import Templates

SBL = "98.00-1-23.100"


def _notice(ws: Workspace) -> str:
    return text_of(letters.draft_pdf(ws, SBL, "notice_of_violation", as_of=TODAY))


def _office(ws: Workspace, name: str) -> None:
    office = resource("letters", "office.toml").read_text("utf-8")
    assert 'name = ""' in office  # the bundled settings name no signer
    (ws.folder.root / "office.toml").write_text(office.replace('name = ""', f'name = {name!r}'))


def test_no_signer_named_gives_a_line_to_sign_above_the_title(failed: Workspace  # noqa: F811
                                                               ) -> None:
    text = _notice(failed)
    assert "Sincerely, ____________________________________ Code Enforcement Officer, " \
           "Town of Canandaigua" in text


def test_the_signer_named_in_the_office_settings_is_printed(failed: Workspace  # noqa: F811
                                                            ) -> None:
    _office(failed, "Dana R. Whitfield")
    text = _notice(failed)
    assert "Sincerely, Dana R. Whitfield Code Enforcement Officer, Town of Canandaigua" in text
    assert "____" not in text


# --- the demo's 900.01-1-15 inspected for a conveyance: the absorption area failed ------------

CONVEYED = "900.01-1-15"  # 3 bedrooms, 2,800 sq ft, a 1,000-gal tank; its area 6 ft from a lot
SETBACK = "setback/absorption_area#1/property_line"


@pytest.fixture
def conveyed(templates: Templates, tmp_path: Path) -> Iterator[Workspace]:
    ws = Workspace(templates.copy("served-demo", _build, tmp_path / "data"), user="k.olmsted")
    doc = casefile.to_document(ws.load_case(CONVEYED))
    inspection = doc["inspection"]
    inspection.pop("id")
    inspection.update(date=DEMO_DAY.isoformat(), inspector="J. Haldane", reason="conveyance",
                      failure_evidence=["surfacing effluent over absorption area"],
                      tests=[{"kind": "dye", "result": "fail", "volume_gal": 60,
                              "duration_min": 45, "note": "dye surfaced at trench 2"},
                             {"kind": "hydraulic_load", "result": "pass"}])
    (area,) = [c for c in doc["components"] if c["kind"] == "absorption_area"]
    area.update(condition="failed", defects=["effluent ponding at trench 2"])
    ws.save_case(parse_document(doc, source="case.json", today=DEMO_DAY), today=DEMO_DAY)
    decide_pending(ws, CONVEYED, accept=True, as_of=DEMO_DAY)
    yield ws
    ws.close()


def _conveyed_notice(ws: Workspace, *, issued: bool) -> str:
    if not issued:
        return text_of(letters.draft_pdf(ws, CONVEYED, "notice_of_violation", as_of=DEMO_DAY))
    (letter,) = letters.issue(ws, CONVEYED, ["notice_of_violation"], as_of=DEMO_DAY)
    return text_of(letters.stored_pdf(ws, letter.id))


def _between(text: str, start: str, end: str) -> str:
    assert start in text, start
    part = text.split(start, 1)[1]
    assert end in part, end
    return part.split(end, 1)[0]


def test_the_design_bedrooms_say_why_they_are_not_the_bedrooms_recorded(conveyed: Workspace
                                                                        ) -> None:
    text = _conveyed_notice(conveyed, issued=True)
    assert ("capacity 1,000 gal is below the 1,250 gal required for 4 design bedrooms: 3 "
            "bedrooms recorded, counted as 4 for 2,800 sq ft of floor area (§ 202-6 C(3))"
            in text)


def test_a_setback_shortfall_is_its_own_substandard_item_saying_how_it_was_measured(
        conveyed: Workspace) -> None:
    text = _conveyed_notice(conveyed, issued=True)
    failing = _between(text, "Failed components.", "Substandard components.")
    assert "effluent ponding at trench 2" in failing and "property line" not in failing
    substandard = _between(text, "Substandard components.", "What you must do.")
    assert ("Absorption area (substandard): 6.0 ft from the property line, measured on "
            "Invented demo lot lines (not the county's tax map) v1 (accuracy ±2 ft; not a "
            "survey); 10 ft required (10 NYCRR Appendix 75-A, Table 2 [10 NYCRR Appendix "
            "75-A, separation distances; section number unconfirmed])"
            in substandard)


def test_the_evidence_of_failure_recorded_is_listed_in_the_failure_section(
        conveyed: Workspace) -> None:
    text = _conveyed_notice(conveyed, issued=True)
    evidence = _between(text, "Evidence of failure. The inspection on December 4, 2026 "
                              "recorded:", "Substandard components.")
    assert "Dye test: failed (60 gal; 45 min; dye surfaced at trench 2)" in evidence
    assert "surfacing effluent over absorption area" in evidence
    assert "Hydraulic load test" not in evidence  # it passed


def test_section_202_7_is_named_by_its_title_and_not_by_the_provision_requiring_it(
        conveyed: Workspace) -> None:
    text = _conveyed_notice(conveyed, issued=True)
    assert "§ 202-7 (Chapter 202" not in text and "§ 202-6 (Chapter 202" not in text
    assert (f"under {D}, the system shall therefore also comply with § 202-7, Requirements "
            "for substandard systems." in text)
    draft = _conveyed_notice(conveyed, issued=False)
    assert "under § 202-5 D (unconfirmed), the system shall therefore also comply" in draft


def test_an_inferred_section_number_is_cited_and_marked_unconfirmed(conveyed: Workspace
                                                                    ) -> None:
    text = _conveyed_notice(conveyed, issued=True)
    assert f"{C}: The system is in failure" in text
    assert "Chapter 202, systems in failure:" not in text  # never the subject alone
    assert "§ 202-5 C (unconfirmed)" in _conveyed_notice(conveyed, issued=False)


# --- the demo's 900.01-1-4: its well about 111 ft from its absorption area ----------------

def test_a_shallow_wells_shortfall_names_its_row_and_note_in_the_letter(
        templates: Templates, tmp_path: Path) -> None:
    """Recorded shallow (75-A Table 2, note (g)), the well asks 150 ft of the absorption
    field: the accepted finding and the letter say so, row and note."""
    from inspector_app.services.parcel.site import set_well_conditions

    ws = Workspace(templates.copy("served-demo", _build, tmp_path / "data"), user="k.olmsted")
    try:
        sbl = "900.01-1-4"
        set_well_conditions(ws, sbl, 1, shallow_aquifer=True, today=DEMO_DAY)
        decide_pending(ws, sbl, accept=True, as_of=DEMO_DAY)
        (area,) = [c for c in ws.load_case(sbl).components if c.kind.value == "absorption_area"]
        (recorded,) = [d for d in area.defects if "from the well" in d]
        assert recorded.endswith("; 150 ft required: 100 ft + 50 % by note (g), shallow well "
                                 "(10 NYCRR Appendix 75-A, Table 2)")
        letter = text_of(letters.draft_pdf(ws, sbl, "report_of_findings", as_of=DEMO_DAY))
        assert "150 ft required: 100 ft + 50 % by note (g), shallow well" in letter
        # the measured distances: the row and the note in full
        assert ("absorption area #1 to well: 111.4 ft (site map); 150 ft: 100 ft (75-A "
                "Table 2, absorption field to well) + 50 % (note (g): shallow well) required"
                in letter)
    finally:
        ws.close()
