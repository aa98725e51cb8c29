"""One authority at both ends: a laptop applies, as it edits, the policy the office applies
to its packages, in the same words; a parcel found in the field is a proposal a person at
the office accepts or rejects; no single refused change blocks the rest, either way."""

from __future__ import annotations

import json
import uuid
import zipfile
from pathlib import Path
from typing import Any

import pytest

from inspector_app.casefile import to_document
from inspector_app.domain import authority
from inspector_app.errors import InputError
from inspector_app.services import exchange as sync
from inspector_app.services.exchange import assignment, proposal_flow
from inspector_app.services.parcel.roll import apply_roll, read_roll
from inspector_app.storage import parcels as parcel_rows

from .conftest import TODAY, Pair
from .test_hostile_packages import hostile, office_row, update

NEW_SBL = "9.99-9-9"


def _new_parcel(pair: Pair, sbl: str = NEW_SBL) -> None:
    """The laptop records a parcel its roll lacks (a subdivision found in the field)."""
    doc = to_document(pair.field.load_case(pair.sbls[0]))
    doc["parcel"] = {**doc["parcel"], "sbl": sbl, "site_address": "1 New Lot Road"}
    if "inspection" in doc:
        doc["inspection"].pop("id", None)
    path = pair.tmp / "new.json"
    path.write_text(json.dumps(doc))
    result = pair.field.import_case_file(path, today=TODAY)
    assert result.created and result.proposed


def _phone(pair: Pair, ws: Any, sbl: str, phone: str) -> None:
    pair.edit(ws, sbl, lambda d: d["parcel"].update(owner_phone=phone))


def test_a_parcel_found_in_the_field_is_a_proposal_and_blocks_nothing(pair: Pair) -> None:
    """The issue's steps: a new parcel on the laptop, a package; an owner's phone edited on
    an assigned parcel, another package: both arrive, the phone is applied and the parcel
    waits for a person."""
    _new_parcel(pair)
    sync.export(pair.field, pair.tmp / "p1.zip")
    _phone(pair, pair.field, pair.sbls[1], "585-555-0199")
    sync.export(pair.field, pair.tmp / "p2.zip")
    first = sync.import_package(pair.office, pair.tmp / "p1.zip")
    assert first["held"] > 0 and first["applied"] == 0
    second = sync.import_package(pair.office, pair.tmp / "p2.zip")
    assert second["applied"] == 1 and second["held"] == 0
    assert pair.office.load_case(pair.sbls[1]).parcel.owner_phone == "585-555-0199"
    assert NEW_SBL not in {p["sbl"] for p in pair.office.parcels()}
    (proposal,) = proposal_flow.listed(pair.office)
    assert (proposal["sbl"], proposal["status"], proposal["laptop"]) == (
        NEW_SBL, "pending", "laptop-1")
    assert proposal["changes_held"] == first["held"]
    # the office acknowledges every change it held: nothing is sent again and again
    assert sync.status(pair.office)["devices"][0]["missing_changes"] == 0
    pair.down()
    assert sync.status(pair.field)["waiting_to_send"] == 0


def test_accepting_a_proposal_adds_the_parcel_with_what_the_laptop_recorded(
        pair: Pair) -> None:
    _new_parcel(pair)
    pair.up()
    done = proposal_flow.accept(pair.office, "009.99-0009-009")  # the same, spelled otherwise
    assert done["status"] == "accepted" and done["changes_applied"] > 0
    office_case, laptop_case = (ws.load_case(NEW_SBL) for ws in (pair.office, pair.field))
    assert to_document(office_case) == to_document(laptop_case)
    assert NEW_SBL in office_row(pair, "devices", "name = ?", ("laptop-1",))["parcels"]
    history = pair.office.history(NEW_SBL)
    assert {r["user"] for r in history} == {"k.olmsted"}  # who made it, as recorded
    pair.down()
    (mine,) = proposal_flow.listed(pair.field)
    assert mine["status"] == "accepted" and mine["decided_by"] == "clerk"
    # an edit on the laptop now reaches the office like any other
    _phone(pair, pair.field, NEW_SBL, "585-555-0123")
    assert pair.up()["applied"] == 1
    assert pair.office.load_case(NEW_SBL).parcel.owner_phone == "585-555-0123"
    with pytest.raises(InputError, match="already accepted"):
        proposal_flow.accept(pair.office, NEW_SBL)
    # and the roll now holds it, by any spelling: a second proposal of it is refused
    assert parcel_rows.has_sbl(pair.office.store.conn, "9.99-09-09")


def test_a_rejected_proposal_is_kept_visible_and_nothing_sent_is_dropped(
        pair: Pair) -> None:
    _new_parcel(pair)
    pair.up()
    with pytest.raises(InputError, match="Say why"):
        proposal_flow.reject(pair.office, NEW_SBL, reason="  ")
    proposal_flow.reject(pair.office, NEW_SBL, reason="Lot merged with 900.01-1-2")
    # made on the laptop before it learned of the rejection: held at the office too
    _phone(pair, pair.field, NEW_SBL, "585-555-0100")
    assert pair.up()["held"] == 1
    pair.down()
    (mine,) = proposal_flow.listed(pair.field)
    assert (mine["status"], mine["note"]) == ("rejected", "Lot merged with 900.01-1-2")
    assert NEW_SBL in {p["sbl"] for p in pair.field.parcels()}  # kept, marked rejected
    with pytest.raises(InputError, match="not assigned to this laptop"):
        _phone(pair, pair.field, NEW_SBL, "585-555-0101")
    held = proposal_flow.kept_aside(pair.office)
    assert {h["why"] for h in held} == {"proposal"}
    assert any(h["field"] == "owner_phone" and h["value"] == "585-555-0100" for h in held)


def test_the_laptop_refuses_at_the_edit_what_the_office_would_refuse(pair: Pair) -> None:
    """A parcel taken from the laptop: an edit of it is refused as it is made, in the
    office's words, and nothing is recorded."""
    taken = pair.sbls[2]
    assignment.assign(pair.office, "laptop-1", [taken], remove=True)
    pair.down()
    before = pair.field.store.query("SELECT count(*) AS n FROM change_log")[0]["n"]
    with pytest.raises(InputError) as refused:
        _phone(pair, pair.field, taken, "585-555-0111")
    office_words = authority.laptop_change(
        table="parcels", op="update", field="owner_phone", parcel_id="X", record_id="X",
        holds=False).why
    assert office_words.replace("parcel X", f"parcel {taken}") in str(refused.value)
    assert pair.field.store.query("SELECT count(*) AS n FROM change_log")[0]["n"] == before
    # and the roll is the office's alone
    roll = pair.tmp / "roll.csv"
    roll.write_text("sbl,municipality,site_address,owner_name,mailing_address_1\n"
                    "9.1-1-1,Town of Canandaigua,1 A St,A Owner,1 A St\n")
    with pytest.raises(InputError, match="only the office changes the parcels roll"):
        apply_roll(pair.field.store, read_roll(roll))


def test_a_value_from_the_office_the_laptop_refuses_is_kept_aside(pair: Pair) -> None:
    """An office's record that breaks the case rules (written before the rules reached the
    roll) does not stop its package: the laptop keeps that change aside, says why, applies
    the rest and acknowledges all of it."""
    sbl = pair.sbls[0]
    _phone(pair, pair.office, pair.sbls[1], "585-555-0177")

    def long_name(pair: Pair, p: Any) -> None:
        row = office_row(pair, "parcels", "sbl = ?", (sbl,))
        extra = dict(p.changes[0])
        update(extra, "parcels", row, "owner_name", "W" * 300)
        extra["change_id"] = str(uuid.uuid4())
        extra["source_seq"] = p.changes[-1]["source_seq"]
        p.changes.insert(0, extra)

    path = hostile(pair, long_name, from_office=True)
    result = sync.import_package(pair.field, path)
    assert result["held"] >= 1 and result["applied"] >= 1
    assert pair.field.load_case(pair.sbls[1]).parcel.owner_phone == "585-555-0177"
    assert pair.field.load_case(sbl).parcel.owner_name != "W" * 300
    aside = proposal_flow.kept_aside(pair.field)
    assert len(aside) == result["held"] and {a["why"] for a in aside} == {"refused"}
    refused = [a for a in aside if a["value"] == "W" * 300]
    assert len(refused) == 1 and "too long; at most 200" in refused[0]["problem"]
    # what came after it on the same record waits with it, saying so
    assert all("follows a change of the same record" in a["problem"]
               for a in aside if a is not refused[0])
    # the next package the laptop writes acknowledges the office's changes
    sync.export(pair.field, pair.tmp / "ack.zip")
    with zipfile.ZipFile(pair.tmp / "ack.zip") as z:
        acks = json.loads(z.read("manifest.json"))["acknowledges"]
    with zipfile.ZipFile(path) as z:
        sent = json.loads(z.read("manifest.json"))["source_seq_through"]
    assert acks[0]["through_seq"] == sent


def test_the_roll_import_applies_the_field_rules(pair: Pair, tmp_path: Path) -> None:
    roll = tmp_path / "roll.csv"
    roll.write_text("sbl,municipality,site_address,owner_name,mailing_address_1,owner_phone\n"
                    f"900.01-1-1,Town of Canandaigua,1 A St,{'W' * 300},1 A St,\n"
                    f"900.01-1-2,Town of Canandaigua,2 A St,B Owner,2 A St,{'5' * 60}\n"
                    "900.01-1-3,Town of Canandaigua,3 A St,C Owner,3 A St,585-555-0100\n")
    parsed = read_roll(roll)
    assert [r.line for r in parsed.rejected] == [2, 3]
    assert "owner_name is too long; at most 200 allowed" in parsed.rejected[0].reason
    assert "owner_phone is too long; at most 40 allowed" in parsed.rejected[1].reason
    assert [line for line, _ in parsed.rows] == [4]
