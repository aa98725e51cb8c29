"""A photo taken on a laptop reaches the office whole: its bytes, its component, what its
camera wrote (time, position) and its marks; a package whose photo values break their
declarations is refused whole, as any other value is."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from inspector_app.services import exchange as sync
from inspector_app.sync.package import PackageError
from tests.exif_photos import exif_photo
from tests.sync.conftest import Pair, state
from tests.sync.test_hostile_packages import Contents, hostile

SBL = "900.01-1-2"  # on the laptop, with one septic tank


def _component_id(ws: Any) -> str:
    return str(ws.store.query(
        "SELECT c.id FROM components c JOIN parcels p ON p.id = c.parcel_id WHERE p.sbl = ? "
        "AND c.kind = 'septic_tank'", (SBL,))[0]["id"])


def _attach_and_mark(pair: Pair, tmp_path: Path) -> dict[str, Any]:
    assert SBL in pair.sbls
    info = pair.field.add_attachment(SBL, exif_photo(tmp_path / "baffle.jpg"),
                                     caption="Outlet baffle", component="septic_tank#1")
    pair.field.annotate_photo(SBL, info["id"], ["arrow 20 380 150 200", "text 5 5 Crack"])
    return info


def test_a_laptops_photo_reaches_the_office_with_its_component_facts_and_marks(
        pair: Pair, tmp_path: Path) -> None:
    info = _attach_and_mark(pair, tmp_path)
    assert pair.up()["applied"] >= 2
    (row,) = pair.office.attachments(SBL)
    assert row["id"] == info["id"]
    assert (row["component"], row["component_id"]) == ("septic_tank#1",
                                                      _component_id(pair.office))
    assert row["taken_at"] == "2026-11-20T10:42:07-05:00"
    assert (row["taken_latitude"], row["taken_longitude"]) == pytest.approx((42.8099, -77.3102))
    assert row["annotations"] == ["arrow 20 380 150 200", "text 5 5 Crack"]
    assert pair.office.attachment_path(info["sha256"]).read_bytes() == \
        (tmp_path / "baffle.jpg").read_bytes()
    by = {h["user"] for h in pair.office.history(SBL) if h["table_name"] == "attachments"}
    assert by == {"k.olmsted"}


def _set(field: str, value: Any) -> Any:
    def mutate(pair: Pair, p: Contents) -> None:
        for c in p.changes:
            if c["table"] != "attachments":
                continue
            if c["op"] == "insert":
                c["new"][field] = value
            elif c["field"] == field:
                c["new"] = value
    return mutate


@pytest.mark.parametrize(("field", "value", "words"), [
    ("annotations", '["draw a smiley"]', "Marks on the photo"),
    ("annotations", '["circle 1 1 1"' + ', "circle 1 1 1"' * 60 + "]", "Marks on the photo"),
    ("taken_latitude", 91.5, "Latitude where taken"),
    ("taken_longitude", -181, "Longitude where taken"),
    ("taken_at", "yesterday", "Taken"),
])
def test_a_photos_values_are_held_to_their_declarations(pair: Pair, tmp_path: Path,
                                                        field: str, value: Any,
                                                        words: str) -> None:
    _attach_and_mark(pair, tmp_path)
    path = hostile(pair, _set(field, value))
    before = state(pair.office)
    with pytest.raises(PackageError, match=words):
        sync.import_package(pair.office, path)
    assert state(pair.office) == before
