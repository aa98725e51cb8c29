"""One law per municipality: a parcel is judged, and written to, only under its own law."""

from __future__ import annotations

import copy
import io
import json
import re
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from inspector_app.documents.templates import LetterTemplateError
from inspector_app.domain.jurisdiction import CITATION_KEYS, JurisdictionError, parse_jurisdiction
from inspector_app.paths import resource
from inspector_app.services.letters import register as letter_service
from inspector_app.services.lists.worklists import worklists
from inspector_app.services.session.laws import NoLawFacts, NoLawOnFile
from inspector_app.services.workspace import Workspace
from tests.test_cli import cli

TODAY = date(2026, 11, 25)
BUNDLED = resource("jurisdictions", "town-of-canandaigua-ch202.toml").read_text("utf-8")


def example_law(path: Path, *, town: str = "Town of Gorham", ident: str = "example-gorham",
                rate_within: int = 160) -> Path:
    """A test-only jurisdiction file for a second town, marked an example: every citation
    unconfirmed, one rate changed so that its results can be told apart."""
    every = ", ".join(f'"{k}"' for k in CITATION_KEYS)
    at = BUNDLED.index("\n[unconfirmed]")
    text = BUNDLED[:at] + re.sub(r"\ncitations = \[[^\]]*\]", f"\ncitations = [{every}]",
                                 BUNDLED[at:], count=1)
    text = (text.replace('id = "town-of-canandaigua-ch202"', f'id = "{ident}"')
            .replace('name = "Town of Canandaigua"', f'name = "{town}"')
            .replace('law = "Town Code Chapter 202, Wastewater Treatment Systems, On-Site"',
                     'law = "Example Law (not adopted; for tests only)"\nexample = true')
            .replace('municipalities = ["Town of Canandaigua"]', f'municipalities = ["{town}"]')
            .replace("gpd_per_bedroom_within = 150", f"gpd_per_bedroom_within = {rate_within}"))
    assert f'id = "{ident}"' in text and "example = true" in text
    path.write_text(text, "utf-8")
    return path


def pdf_text(pdf: bytes) -> str:
    reader = PdfReader(io.BytesIO(pdf))
    return re.sub(r"\s+", " ", " ".join(page.extract_text() for page in reader.pages))


def _case_in(contract_case: dict[str, Any], town: str, sbl: str) -> dict[str, Any]:
    doc = copy.deepcopy(contract_case)
    doc["parcel"]["municipality"] = town
    doc["parcel"]["sbl"] = sbl
    return doc


@pytest.fixture
def folder(tmp_path: Path, capsys: pytest.CaptureFixture[str],
           contract_case: dict[str, Any]) -> Path:
    """A data folder with the contract's parcel in the Town of Canandaigua and the same
    records on a South Bristol and a Gorham parcel (each calls for a notice of violation
    under a law)."""
    data = tmp_path / "d"
    for town, sbl in (("Town of Canandaigua", "112.09-1-7.2"),
                      ("Town of South Bristol", "150.00-1-1"), ("Town of Gorham", "70.00-1-1")):
        path = tmp_path / f"{sbl}.json"
        path.write_text(json.dumps(_case_in(contract_case, town, sbl)))
        status, _, err = cli(capsys, "--data-dir", str(data), "case", "import", str(path),
                             "--as-of", "2026-11-25")
        assert status == 0, err
    return data


def _files(path: Path) -> list[str]:
    return sorted(str(p.relative_to(path)) for p in path.rglob("*") if p.is_file()) if (
        path.exists()) else []


# --- the law of a municipality ------------------------------------------------------------

def test_a_file_names_the_municipalities_it_covers() -> None:
    j = parse_jurisdiction(BUNDLED, source="t.toml")
    assert j.municipalities == ("Town of Canandaigua",)
    assert j.covers("  town of  CANANDAIGUA ") and not j.covers("City of Canandaigua")
    assert j.title == "Town of Canandaigua Town Code Chapter 202, Wastewater Treatment " \
                      "Systems, On-Site"
    # a file of the first format without the list covers the municipality it names
    first = (BUNDLED.replace("jurisdiction/2", "jurisdiction/1")
             .replace('municipalities = ["Town of Canandaigua"]\n', ""))
    assert parse_jurisdiction(first, source="t.toml").municipalities == ("Town of Canandaigua",)
    with pytest.raises(JurisdictionError, match=r"\[jurisdiction\] municipalities is missing"):
        parse_jurisdiction(BUNDLED.replace('municipalities = ["Town of Canandaigua"]\n', ""),
                           source="t.toml")


def test_an_example_law_must_mark_every_citation_unconfirmed(tmp_path: Path) -> None:
    text = example_law(tmp_path / "x.toml").read_text("utf-8")
    assert parse_jurisdiction(text, source="x.toml").example
    half = re.sub(r'citations = \["permit_required", ', "citations = [", text, count=1)
    with pytest.raises(JurisdictionError, match="'permit_required' is not listed"):
        parse_jurisdiction(half, source="x.toml")


# --- no law on file -----------------------------------------------------------------------

def test_a_parcel_without_a_law_is_evaluated_only_as_far_as_no_law_is_needed(
        folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        contract_case: dict[str, Any]) -> None:
    status, out, err = cli(capsys, "--data-dir", str(folder), "evaluate", "--sbl", "150.00-1-1",
                           "--as-of", "2026-11-25")
    assert (status, err) == (0, "")
    assert out["status"] == "no_law_on_file"
    assert out["message"].startswith("No law on file for Town of South Bristol: ")
    assert out["lake"]["distance_ft"] == 185.0 and out["lake"]["zone"] is None
    assert (out["outcome"], out["design"], out["violations"], out["letters"]) == (
        None, None, [], [])
    assert out["recorded"]["components"][0] == {"kind": "septic_tank",
                                                "condition": "substandard",
                                                "defects": ["outlet baffle missing"]}
    # the same for a case file, and the Town of Canandaigua's parcel is judged as before
    path = tmp_path / "sb.json"
    path.write_text(json.dumps(_case_in(contract_case, "Town of South Bristol", "1-1-1")))
    status, out, _ = cli(capsys, "--data-dir", str(folder), "evaluate", str(path),
                         "--as-of", "2026-11-25")
    assert status == 0 and out["status"] == "no_law_on_file"
    status, out, _ = cli(capsys, "--data-dir", str(folder), "evaluate", "--sbl",
                         "112.09-1-7.2", "--as-of", "2026-11-25")
    assert status == 0 and out["status"] == "evaluated" and out["outcome"] == "substandard"
    assert out["letters"] == ["notice_of_violation"]
    assert out["jurisdiction"]["law"].startswith("Town of Canandaigua Town Code Chapter 202")


def test_no_letter_is_made_for_a_parcel_without_a_law(
        folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        contract_case: dict[str, Any]) -> None:
    before = _files(folder)
    for args in (("register", "issue", "150.00-1-1"),
                 ("register", "issue", "150.00-1-1", "--kind", "notice_of_violation"),
                 ("register", "draft", "150.00-1-1", "--kind", "notice_of_violation",
                  "--out", str(tmp_path / "draft.pdf"))):
        status, out, err = cli(capsys, "--data-dir", str(folder), *args, "--as-of",
                               "2026-11-25")
        assert status == 2 and out is None
        assert err.startswith("No law on file for Town of South Bristol: ")
        assert "no letter was drafted or issued" in err
    path = tmp_path / "sb.json"
    path.write_text(json.dumps(_case_in(contract_case, "Town of South Bristol", "1-1-1")))
    status, _, err = cli(capsys, "--data-dir", str(folder), "letters", str(path), "--out",
                         str(tmp_path / "out"), "--as-of", "2026-11-25")
    assert status == 2 and err.startswith("No law on file for Town of South Bristol")
    assert not (tmp_path / "out").exists() and not (tmp_path / "draft.pdf").exists()
    status, register, _ = cli(capsys, "--data-dir", str(folder), "register", "list")
    assert (status, register) == (0, [])
    assert [f for f in _files(folder) if f.startswith("letters")] == []
    assert [f for f in before if not f.startswith("backups")] == [
        f for f in _files(folder) if f in before and not f.startswith("backups")]


def test_the_worklists_show_the_parcels_without_a_law(folder: Path) -> None:
    with Workspace(folder, user="k.olmsted") as ws:
        lists = worklists(ws, as_of=TODAY)
        from inspector_app.services.lists.overview import overview

        rows = {r["sbl"]: r for r in overview(ws, as_of=TODAY)}
    listed = {i["sbl"]: i for i in lists["no-law-on-file"]}
    assert set(listed) == {"150.00-1-1", "70.00-1-1"}
    assert listed["70.00-1-1"]["detail"].startswith("No law on file for Town of Gorham: ")
    assert listed["70.00-1-1"]["municipality"] == "Town of Gorham"
    assert rows["70.00-1-1"]["outcome"] == "no_law_on_file"
    # judged by nothing, but an inspection request may still be open for it
    assert rows["70.00-1-1"]["flags"] == {"conflicts": False, "no_law": True,
                                          "requests": False}
    assert rows["112.09-1-7.2"]["outcome"] == "substandard"
    assert not rows["112.09-1-7.2"]["flags"]["no_law"]


# --- letters name the parcel's law, on its town's letterhead --------------------------------

def test_a_canandaigua_letter_names_the_town_in_the_law(folder: Path) -> None:
    with Workspace(folder, user="k.olmsted") as ws:
        text = pdf_text(letter_service.draft_pdf(ws, "112.09-1-7.2", "notice_of_violation",
                                                 as_of=TODAY))
    assert "Town of Canandaigua Town Code Chapter 202" in text
    assert "5440 Routes 5 & 20 West" in text  # the bundled letterhead
    assert "EXAMPLE LAW" not in text


OFFICE = '''format = "watershed-inspector/office/1"

[letterhead]
office_name = "Town of Canandaigua"
department = "Code Enforcement"
address = ["5440 Routes 5 & 20 West", "Canandaigua, NY 14424"]
phone = "(585) 394-1120"
email = ""
logo = ""

[signature]
name = "Code Enforcement Officer"
title = "Town of Canandaigua"
certification = ""
image = ""

[municipalities."town of gorham".letterhead]
office_name = "Example Gorham Office"
department = "Example Department"
address = ["1 Example Street", "Gorham, NY 14461"]
phone = "(585) 555-0100"
email = ""
logo = ""

[municipalities."town of gorham".signature]
name = "Example Signer"
title = "Example Title"
certification = ""
image = ""
'''


def test_a_second_law_changes_that_towns_parcels_only(
        folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    law = example_law(tmp_path / "gorham.toml")
    office = tmp_path / "office.toml"
    office.write_text(OFFICE, "utf-8")
    assert cli(capsys, "--data-dir", str(folder), "office", "use", str(office))[0] == 0
    status, used, err = cli(capsys, "--data-dir", str(folder), "jurisdiction", "use", str(law))
    assert (status, err) == (0, "")
    assert used["id"] == "example-gorham" and used["example"] is True
    assert used["file"] == str(folder / "jurisdictions" / "example-gorham.toml")
    status, listed, _ = cli(capsys, "--data-dir", str(folder), "jurisdiction", "list")
    assert status == 0 and [(j["id"], j["municipalities"], j["example"]) for j in listed] == [
        ("example-gorham", ["Town of Gorham"], True),
        ("town-of-canandaigua-ch202", ["Town of Canandaigua"], False)]
    assert set(listed[0]) == {"id", "name", "law", "municipalities", "source", "example"}
    assert listed[1]["law"].startswith("Town of Canandaigua Town Code Chapter 202")

    def design(sbl: str) -> dict[str, Any]:
        status, out, _ = cli(capsys, "--data-dir", str(folder), "evaluate", "--sbl", sbl,
                             "--as-of", "2026-11-25")
        assert status == 0
        return out

    gorham, home, bristol = (design(s) for s in ("70.00-1-1", "112.09-1-7.2", "150.00-1-1"))
    assert gorham["design"]["gpd_per_bedroom"] == 160
    assert gorham["jurisdiction"]["id"] == "example-gorham"
    assert all(v["citation"].endswith("(unconfirmed)") for v in gorham["violations"])
    assert home["design"]["gpd_per_bedroom"] == 150
    assert home["jurisdiction"]["id"] == "town-of-canandaigua-ch202"
    assert bristol["status"] == "no_law_on_file"
    status, shown, _ = cli(capsys, "--data-dir", str(folder), "jurisdiction", "show",
                           "--municipality", "Town of Gorham")
    assert status == 0 and shown["id"] == "example-gorham"

    # the letter under an example law is a draft saying so, on that town's letterhead
    with Workspace(folder, user="k.olmsted") as ws:
        text = pdf_text(letter_service.draft_pdf(ws, "70.00-1-1", "notice_of_violation",
                                                 as_of=TODAY))
        home_text = pdf_text(letter_service.draft_pdf(ws, "112.09-1-7.2",
                                                      "notice_of_violation", as_of=TODAY))
    assert "DRAFT - EXAMPLE LAW" in text and "Town of Gorham Example Law" in text
    assert "Example Gorham Office" in text and "Example Signer" in text
    assert "Town Code Chapter 202" not in text
    assert "Example Gorham Office" not in home_text and "5440 Routes 5 & 20 West" in home_text
    status, _, err = cli(capsys, "--data-dir", str(folder), "register", "issue", "70.00-1-1",
                         "--as-of", "2026-11-25")
    assert status == 2 and "is an example, not the town's adopted law" in err
    assert cli(capsys, "--data-dir", str(folder), "register", "list")[1] == []


def test_office_settings_are_chosen_by_the_parcels_municipality(
        workspace: Workspace, tmp_path: Path) -> None:
    (workspace.folder.root / "office.toml").write_text(OFFICE, "utf-8")
    assert letter_service.office_for(workspace, "Town of  Gorham").office_name == (
        "Example Gorham Office")
    assert letter_service.office_for(workspace, "Town of Canandaigua").office_name == (
        "Town of Canandaigua")
    assert letter_service.office_for(workspace).office_name == "Town of Canandaigua"
    broken = OFFICE.replace('[municipalities."town of gorham".signature]\nname = "Example Signer"',
                            '[municipalities."town of gorham".signature]\nnome = "Example Signer"')
    (workspace.folder.root / "office.toml").write_text(broken, "utf-8")
    with pytest.raises(LetterTemplateError,
                       match=r'\[municipalities."town of gorham".signature\] name is missing'):
        letter_service.office_for(workspace, "Town of Canandaigua")


def test_two_files_claiming_one_municipality_are_refused(
        folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(capsys, "--data-dir", str(folder), "jurisdiction", "use",
               str(example_law(tmp_path / "gorham.toml")))[0] == 0
    before = _files(folder / "jurisdictions")
    rival = example_law(tmp_path / "rival.toml", ident="example-rival", town="Town of Gorham")
    status, _, err = cli(capsys, "--data-dir", str(folder), "jurisdiction", "use", str(rival))
    assert status == 2
    assert str(rival) in err and "example-gorham.toml" in err
    assert "both claim the municipality 'Town of Gorham'" in err
    claims_home = example_law(tmp_path / "home.toml", ident="example-home",
                              town="Town of Canandaigua")
    status, _, err = cli(capsys, "--data-dir", str(folder), "jurisdiction", "use",
                         str(claims_home))
    assert status == 2 and "town-of-canandaigua-ch202.toml" in err
    assert _files(folder / "jurisdictions") == before
    # the same id again replaces the file
    again = example_law(tmp_path / "gorham2.toml", rate_within=170)
    status, used, _ = cli(capsys, "--data-dir", str(folder), "jurisdiction", "use", str(again))
    assert status == 0 and used["replaces"] == str(folder / "jurisdictions" /
                                                   "example-gorham.toml")
    with Workspace(folder, user="k.olmsted") as ws:
        assert ws.evaluate_parcel("70.00-1-1", as_of=TODAY).design.gpd_per_bedroom == 170


def test_an_earlier_single_file_is_read_as_one_of_the_folders_laws(
        workspace: Workspace, contract_case: dict[str, Any]) -> None:
    from inspector_app.casefile import parse_document

    first = (BUNDLED.replace("jurisdiction/2", "jurisdiction/1")
             .replace('municipalities = ["Town of Canandaigua"]\n', "")
             .replace("gpd_per_bedroom_within = 150", "gpd_per_bedroom_within = 155"))
    (workspace.folder.root / "jurisdiction.toml").write_text(first, "utf-8")
    case = parse_document(contract_case, source="case", today=TODAY)
    assert workspace.evaluate_case(case, as_of=TODAY).design.gpd_per_bedroom == 155
    assert [j.id for j in workspace.laws.files] == ["town-of-canandaigua-ch202"]
    other = parse_document(_case_in(contract_case, "City of Canandaigua", "1-1-1"),
                           source="case", today=TODAY)
    assert isinstance(workspace.assess_case(other, as_of=TODAY), NoLawFacts)
    with pytest.raises(NoLawOnFile, match="No law on file for City of Canandaigua"):
        workspace.evaluate_case(other, as_of=TODAY)


def test_a_field_kit_carries_every_law_in_force_and_join_installs_them(
        tmp_path: Path, contract_case: dict[str, Any]) -> None:
    from inspector_app.casefile import parse_document
    from inspector_app.services import exchange as sync
    from inspector_app.services.session.laws import install_jurisdiction

    with Workspace(tmp_path / "office", user="clerk") as office:
        for town, sbl in (("Town of Canandaigua", "112.09-1-7.2"), ("Town of Gorham", "7-1-1")):
            office.save_case(parse_document(_case_in(contract_case, town, sbl), source="case",
                                            today=TODAY), today=TODAY)
        install_jurisdiction(office.folder.root, example_law(tmp_path / "gorham.toml"))
        sync.enroll(office, "laptop-1", tmp_path / "kit.zip", ["112.09-1-7.2", "7-1-1"],
                    passphrase="kit passphrase 1")
    sync.join(tmp_path / "field", tmp_path / "kit.zip", user="k.olmsted",
              passphrase="kit passphrase 1")
    assert _files(tmp_path / "field" / "jurisdictions") == [
        "example-gorham.toml", "town-of-canandaigua-ch202.toml"]
    with Workspace(tmp_path / "field", user="k.olmsted") as field:
        assert [j.id for j in field.laws.files] == ["example-gorham",
                                                    "town-of-canandaigua-ch202"]
        assert field.evaluate_parcel("7-1-1", as_of=TODAY).design.gpd_per_bedroom == 160
        assert field.evaluate_parcel("112.09-1-7.2", as_of=TODAY).design.gpd_per_bedroom == 150
