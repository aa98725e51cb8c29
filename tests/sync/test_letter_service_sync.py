"""The service of issued letters travels like the letters: recorded at the office, it
reaches the laptop's register; a laptop neither records nor changes it."""

from __future__ import annotations

from datetime import date
from typing import Any

from inspector_app.services import exchange as sync
from inspector_app.services.exchange.assignment import assign
from inspector_app.services.letters import register as letters
from inspector_app.services.letters import service
from inspector_app.services.letters.attestation import attestations, missing_attestation
from inspector_app.services.workspace import Workspace
from tests.attesting import attest_report
from tests.suggestions import decide_pending
from tests.sync.conftest import KIT_PASSPHRASE, TODAY, Pair

SERVED_ON = date(2026, 11, 26)


def issue_and_serve(pair: Pair, sbl: str) -> str:
    decide_pending(pair.office, sbl, as_of=TODAY)
    attest_report(pair.office, sbl, on=TODAY)
    (letter,) = letters.issue(pair.office, sbl, ["report_of_findings"], as_of=TODAY)
    service.serve(pair.office, letter.id, method="certified_mail", on=SERVED_ON,
                  article="7019 0700 0000 1234 5678")
    service.delivered(pair.office, letter.id, on=date(2026, 11, 30), signed_by="R. Owner")
    return letter.id


def laptop_row(pair: Pair, sbl: str, letter_id: str) -> dict[str, Any]:
    (row,) = [r for r in letters.register(pair.field, sbl) if r["id"] == letter_id]
    return row


def test_the_offices_service_records_reach_the_laptops_register(pair: Pair) -> None:
    sbl = pair.sbls[1]
    letter_id = issue_and_serve(pair, sbl)
    pair.down()
    row = laptop_row(pair, sbl, letter_id)
    assert row["service"]["state"] == "delivered"
    (served,) = row["service"]["served"]
    assert served["method"] == "certified_mail"
    assert served["article_number"] == "70190700000012345678"
    assert served["event_date"] == "2026-11-26"
    assert row["service"]["delivered"]["signed_by"] == "R. Owner"
    assert row["service"]["delivered"]["event_date"] == "2026-11-30"
    office = [r for r in letters.register(pair.office, sbl) if r["id"] == letter_id]
    assert row["service"] == office[0]["service"]
    # the attestation the letter names came along; only the office judges it in force
    (attested,) = attestations(pair.field, sbl)
    assert attested["name"] == "Pat Quinlan" and attested["in_force"] is False
    assert attested["recorded_here"] is False
    assert attestations(pair.office, sbl)[0]["in_force"] is True


def test_a_parcel_assigned_later_arrives_with_its_letters_and_their_service(
        pair: Pair) -> None:
    sbl = next(p["sbl"] for p in pair.office.parcels() if p["sbl"] not in pair.sbls)
    letter_id = issue_and_serve(pair, sbl)
    assign(pair.office, "laptop-1", [sbl])
    pair.down()
    row = laptop_row(pair, sbl, letter_id)
    assert row["service"]["state"] == "delivered"
    assert row["service"]["served"][0]["article_number"] == "70190700000012345678"
    assert row["sha256"] == next(r for r in letters.register(pair.office, sbl)
                                 if r["id"] == letter_id)["sha256"]


def test_a_laptop_drafts_the_report_but_cannot_use_the_offices_attestation(
        pair: Pair) -> None:
    sbl = pair.sbls[1]
    issue_and_serve(pair, sbl)
    pair.down()
    why = missing_attestation(pair.field, pair.field.parcel_id(sbl),
                              pair.field.load_case(sbl), TODAY)
    assert why is not None and "was recorded at the office, which issues the report" in why
    assert letters.draft_pdf(pair.field, sbl, "report_of_findings", as_of=TODAY)[:4] == b"%PDF"


def test_a_laptop_set_up_from_a_kit_holds_the_register_of_its_parcels(pair: Pair) -> None:
    sbl = next(p["sbl"] for p in pair.office.parcels() if p["sbl"] not in pair.sbls)
    letter_id = issue_and_serve(pair, sbl)
    sync.enroll(pair.office, "laptop-2", pair.tmp / "kit-2.zip", [sbl],
                passphrase=KIT_PASSPHRASE)
    sync.join(pair.tmp / "field-2", pair.tmp / "kit-2.zip", user="a.reyes",
              passphrase=KIT_PASSPHRASE)
    with Workspace(pair.tmp / "field-2", user="a.reyes") as laptop:
        (row,) = letters.register(laptop, sbl)
        assert row["id"] == letter_id and row["service"]["state"] == "delivered"
        assert row["service"]["delivered"]["signed_by"] == "R. Owner"
        assert [a["in_force"] for a in attestations(laptop, sbl)] == [False]
