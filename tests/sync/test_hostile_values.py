"""Packages whose values, times, references, files or size a case could not hold.

Built as in `test_hostile_packages`: a genuine package of the laptop (or the office),
changed by one mutation and signed again by its sender. Each is refused whole, naming the
change and the bound, and changes nothing.
"""

from __future__ import annotations

import hashlib
import json
import stat
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from inspector_app.services import exchange as sync
from inspector_app.services.exchange import incoming
from inspector_app.services.workspace import Workspace
from inspector_app.storage.records import new_id
from inspector_app.sync import policy
from inspector_app.sync.package import PackageError
from tests.sync.conftest import Pair, state
from tests.sync.test_hostile_packages import (
    Contents,
    Mutation,
    hostile,
    insert,
    office_row,
    random_text,
    update,
)


def _edited(pair: Pair) -> None:
    pair.edit(pair.field, pair.sbls[0], lambda d: d["parcel"].__setitem__("owner_name", "Ok"))


def _refused(pair: Pair, mutate: Mutation, words: str) -> str:
    _edited(pair)
    path = hostile(pair, mutate)
    before = state(pair.office)
    files = sorted(pair.office.folder.attachments.rglob("*"))
    with pytest.raises(PackageError, match=words) as refused:
        sync.import_package(pair.office, path)
    assert "the package was refused and nothing was changed" in str(refused.value)
    assert state(pair.office) == before
    assert sorted(pair.office.folder.attachments.rglob("*")) == files
    assert pair.up()["applied"] == 1  # the genuine package still goes in
    return str(refused.value)


def _parcel(pair: Pair, n: int = 0) -> str:
    return pair.office.parcel_id(pair.sbls[n])


def _at(delta: timedelta) -> str:
    return (datetime.now(UTC) + delta).isoformat(timespec="milliseconds")


# --- times ---------------------------------------------------------------------------------

def test_a_change_older_than_the_laptops_enrolment_is_refused(pair: Pair) -> None:
    """Within 5 years, but before the laptop existed: it would later cut off another
    laptop, whose office relays it."""
    def old(pair: Pair, p: Contents) -> None:
        p.changes[0]["at"] = _at(-timedelta(days=5 * 366) + timedelta(seconds=60))

    _refused(pair, old, r"its time \(at\) is .*before this laptop was enrolled")


def test_a_change_the_office_relays_is_not_refused_for_its_age(pair: Pair) -> None:
    pair.edit(pair.office, pair.sbls[0], lambda d: d["parcel"].__setitem__("owner_name", "Old"))

    def old(pair: Pair, p: Contents) -> None:
        for c in p.changes:
            c["at"] = _at(-timedelta(days=6 * 366))

    path = hostile(pair, old, from_office=True)
    assert sync.import_package(pair.field, path)["applied"] >= 1
    assert pair.field.load_case(pair.sbls[0]).parcel.owner_name == "Old"


def test_a_change_the_office_relays_from_the_future_is_refused(pair: Pair) -> None:
    pair.edit(pair.office, pair.sbls[0], lambda d: d["parcel"].__setitem__("owner_name", "New"))

    def ahead(pair: Pair, p: Contents) -> None:
        p.changes[0]["at"] = _at(timedelta(days=30))

    path = hostile(pair, ahead, from_office=True)
    with pytest.raises(PackageError, match=r"its time \(at\) is .*after now"):
        sync.import_package(pair.field, path)


# --- files ---------------------------------------------------------------------------------

def test_a_file_no_record_uses_is_refused(pair: Pair) -> None:
    def fill(pair: Pair, p: Contents) -> None:
        data = b"filler" * 1000
        p.attachments[hashlib.sha256(data).hexdigest()] = data

    _refused(pair, fill, "which none of its changes or records refers to")


def test_no_file_is_written_before_the_package_passed_every_check(
        pair: Pair, monkeypatch: pytest.MonkeyPatch) -> None:
    data = b"\xff\xd8 a photo" * 10
    digest = hashlib.sha256(data).hexdigest()

    def photo(pair: Pair, p: Contents) -> None:
        p.attachments[digest] = data
        insert(p.changes[0], "attachments", _parcel(pair), {
            "sha256": digest, "filename": "lid.jpg", "media_type": "image/jpeg",
            "size_bytes": len(data), "caption": None, "inspection_id": None,
            "component_id": None})

    _edited(pair)
    path = hostile(pair, photo)

    def worse(*args: object) -> None:
        assert not pair.office.attachment_path(digest).exists()
        raise PackageError("the case reads worse")

    monkeypatch.setattr(incoming, "_refuse_worse_cases", worse)
    with pytest.raises(PackageError, match="the case reads worse"):
        sync.import_package(pair.office, path)
    assert not pair.office.attachment_path(digest).exists()
    monkeypatch.undo()
    sync.import_package(pair.office, path)
    assert pair.office.attachment_path(digest).read_bytes() == data


# --- geometry ------------------------------------------------------------------------------

def _feature(pair: Pair) -> dict[str, object]:
    return office_row(pair, "site_features", "parcel_id = ? AND deleted_at IS NULL",
                      (_parcel(pair),))


def _set_geometry(value: object) -> Mutation:
    def mutate(pair: Pair, p: Contents) -> None:
        update(p.changes[0], "site_features", _feature(pair), "geometry", value)
    return mutate


def test_geometry_that_is_not_geojson_is_refused(pair: Pair) -> None:
    _refused(pair, _set_geometry(json.dumps({"type": "Polygon", "coordinates": "nonsense"})),
             r"Location on the map\.coordinates must be a non-empty list of coordinates")


def test_geometry_off_the_globe_is_refused(pair: Pair) -> None:
    _refused(pair, _set_geometry(json.dumps({"type": "Point", "coordinates": [500, 42]})),
             r"is \[500, 42\], which is not a WGS84 longitude/latitude")


def test_geometry_sent_as_an_object_is_refused_cleanly(pair: Pair) -> None:
    _refused(pair, _set_geometry({"type": "Point", "coordinates": [-77.2, 42.8]}),
             "Location on the map is a JSON object; a change sets a field to text")


def test_a_feature_of_too_many_positions_is_refused(pair: Pair) -> None:
    n = 20_000
    ring = [[-77.2 + i * 1e-7, 42.8] for i in range(n)] + [[-77.2, 42.8]]
    _refused(pair, _set_geometry(json.dumps({"type": "Polygon", "coordinates": [ring]})),
             "has more than 10,000 positions")


def test_a_wells_conditions_travel_and_one_that_is_not_yes_or_no_is_refused(
        pair: Pair) -> None:
    """A well's conditions (10 NYCRR Appendix 75-A, Table 2, notes (a) and (g)) go up with
    the laptop's package; a package setting one to anything but yes, no or not known is
    refused whole."""
    def shallow(d: dict[str, Any]) -> None:
        site = d.setdefault("site", {})
        site.setdefault("features", []).append({
            "kind": "well", "geometry": {"type": "Point", "coordinates": [-77.2, 42.8]},
            "shallow_aquifer": True, "drainage_path": False})

    pair.edit(pair.field, pair.sbls[0], shallow)
    assert pair.up()["applied"] >= 1
    site = pair.office.load_case(pair.sbls[0]).site
    assert site is not None
    assert [(f.shallow_aquifer, f.drainage_path) for f in site.features
            if f.kind.value == "well"] == [(True, False)]

    def maybe(pair: Pair, p: Contents) -> None:
        update(p.changes[0], "site_features", _feature(pair), "shallow_aquifer", "maybe")

    _refused(pair, maybe, "Aquifer water enters the well less than 50 ft below grade")


def test_more_site_features_than_a_case_holds_are_refused(pair: Pair) -> None:
    def many(pair: Pair, p: Contents) -> None:
        template = p.changes[0]
        p.changes.clear()
        for i in range(201):
            c = dict(template, change_id=new_id(), device_seq=template["device_seq"] + i)
            insert(c, "site_features", _parcel(pair), {
                "position": i, "kind": "well", "crs": "EPSG:4326",
                "geometry": json.dumps({"type": "Point", "coordinates": [-77.2, 42.8]})})
            p.changes.append(c)

    _refused(pair, many, r"would give the parcel \d+ site features; a case holds at most 200")


# --- references ----------------------------------------------------------------------------

def test_a_record_naming_another_parcels_record_is_refused(pair: Pair) -> None:
    other = office_row(pair, "inspections", "parcel_id = ?", (_parcel(pair, 1),))

    def cross(pair: Pair, p: Contents) -> None:
        insert(p.changes[0], "inspection_tests", _parcel(pair), {
            "inspection_id": other["id"], "kind": "hydraulic_load", "result": "fail",
            "position": 0, "note": None})

    _refused(pair, cross, "Inspection names the record .* of inspections, which belongs to "
                          "the parcel .*; a record names only records of its own parcel")


def test_a_record_naming_a_record_nobody_holds_is_refused(pair: Pair) -> None:
    def dangling(pair: Pair, p: Contents) -> None:
        insert(p.changes[0], "inspection_tests", _parcel(pair), {
            "inspection_id": new_id(), "kind": "hydraulic_load", "result": "fail",
            "position": 0, "note": None})

    _refused(pair, dangling, "which neither this data folder nor the package holds")


# --- fields the case file does not hold ----------------------------------------------------

def _measurement(**values: object) -> Mutation:
    def mutate(pair: Pair, p: Contents) -> None:
        new = {"distance_ft": 120.0, "method": "tape", "measured_on": "2026-11-20",
               "measured_by": "x", "note": None, **values}
        insert(p.changes[0], "lake_measurements", _parcel(pair), new)
    return mutate


def test_a_measurement_on_an_impossible_date_is_refused(pair: Pair) -> None:
    _refused(pair, _measurement(measured_on="2099-13-45"),
             'Measured on is "2099-13-45", which is not a real calendar date')


def test_a_measurement_after_today_is_refused(pair: Pair) -> None:
    _refused(pair, _measurement(measured_on="2099-12-31"),
             "Measured on is 2099-12-31, which is after today")


def test_an_implausible_distance_is_refused(pair: Pair) -> None:
    _refused(pair, _measurement(distance_ft=1e308),
             r"Distance to the lake line \(ft\) is 1e\+308, which is not plausible; it must "
             "be between 0 and 5000000")


def test_a_decision_after_today_is_refused(pair: Pair) -> None:
    def decided(pair: Pair, p: Contents) -> None:
        insert(p.changes[0], "finding_decisions", _parcel(pair), {
            "suggestion_key": "septic_tank_capacity/septic_tank#1", "decision": "rejected",
            "defect": "d", "citation": "c", "decided_by": "x", "decided_on": "2099-12-31"})

    _refused(pair, decided, "Decided on is 2099-12-31, which is after today")


def test_a_system_installed_after_this_year_is_refused(pair: Pair) -> None:
    def year(pair: Pair, p: Contents) -> None:
        marks = ",".join("?" * len(pair.sbls))
        system = office_row(pair, "systems", "parcel_id IN (SELECT id FROM parcels WHERE sbl "
                            f"IN ({marks}))", tuple(pair.sbls))
        update(p.changes[0], "systems", system, "installed_year", 2099)

    _refused(pair, year, "Year installed is 2099, which is after this year")


def test_every_date_and_year_a_laptop_writes_is_declared_as_one(pair: Pair) -> None:
    """A column that holds a date or a year is declared so (a real date not after today,
    a year not after this one), whether the case file holds it or not."""
    from inspector_app.domain import registry
    from inspector_app.domain.registry import Kind

    conn = pair.office.store.conn
    for table in sorted(policy.LAPTOP_TABLES):
        for row in conn.execute(f"PRAGMA table_info({table})"):
            column, kind = row[1], str(row[2]).upper()
            if (kind == "TEXT" and column.endswith(("_on", "_date"))) or column == "date":
                field = registry.column(table, column)
                assert field is not None and (field.kind is Kind.DATE
                                              or field.spec.date_text), (table, column)
            if column.endswith("_year"):
                field = registry.column(table, column)
                assert field is not None and field.spec.past_year, (table, column)


# --- previous values -----------------------------------------------------------------------

def test_a_delete_carrying_junk_as_its_previous_value_is_refused(pair: Pair) -> None:
    def junk(pair: Pair, p: Contents) -> None:
        dwelling = office_row(pair, "dwellings", "parcel_id = ?", (_parcel(pair),))
        update(p.changes[0], "dwellings", dwelling, "bedrooms", 3)
        p.changes[0].update(op="delete", field=None, new=None,
                            old={"junk": float("nan"), "big": random_text(600_000)})

    _refused(pair, junk, r"previous value \(old\) with a number that is not finite")


def test_a_delete_carrying_a_large_previous_value_is_refused(pair: Pair) -> None:
    def large(pair: Pair, p: Contents) -> None:
        dwelling = office_row(pair, "dwellings", "parcel_id = ?", (_parcel(pair),))
        update(p.changes[0], "dwellings", dwelling, "bedrooms", 3)
        p.changes[0].update(op="delete", field=None, new=None,
                            old={"big": random_text(600_000)})

    _refused(pair, large, r"previous value \(old\) of 600,0\d\d characters; at most 5,100")


def test_a_huge_previous_value_is_refused(pair: Pair) -> None:
    def huge(pair: Pair, p: Contents) -> None:
        p.changes[0]["old"] = random_text(600_000)

    _refused(pair, huge, r"previous value \(old\) of 600,000 characters; at most 5,000")


# --- how many changes ----------------------------------------------------------------------

def test_a_package_of_too_many_changes_is_refused(
        pair: Pair, monkeypatch: pytest.MonkeyPatch) -> None:
    pair.edit(pair.field, pair.sbls[1], lambda d: d["parcel"].__setitem__("owner_name", "B"))
    _edited(pair)
    path = hostile(pair, lambda pair, p: None)
    monkeypatch.setattr(policy, "MAX_CHANGES", 1)
    before = state(pair.office)
    with pytest.raises(PackageError, match=r"carries 2 changes; a laptop's package carries "
                                           r"at most 1 \(split it: export again"):
        sync.import_package(pair.office, path)
    assert state(pair.office) == before


def test_a_laptop_exports_at_most_the_bound_and_the_rest_next(
        pair: Pair, monkeypatch: pytest.MonkeyPatch) -> None:
    for n, name in enumerate(("A", "B", "C")):
        pair.edit(pair.field, pair.sbls[n], lambda d, v=name: d["parcel"].__setitem__(
            "owner_name", v))
    monkeypatch.setattr(policy, "MAX_CHANGES", 2)
    first = pair.tmp / "first.zip"
    assert sync.export(pair.field, first)["changes"] == 2
    assert sync.import_package(pair.office, first)["applied"] == 2
    second = pair.tmp / "second.zip"
    assert sync.export(pair.field, second)["changes"] == 1
    assert sync.import_package(pair.office, second)["applied"] == 1
    assert [pair.office.load_case(s).parcel.owner_name for s in pair.sbls] == ["A", "B", "C"]
    # nothing acknowledged yet: the next export begins again, so a lost package is resent
    third = pair.tmp / "third.zip"
    assert sync.export(pair.field, third)["changes"] == 2


# --- file modes ----------------------------------------------------------------------------

def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


# the modes of the data folder's SQLite file and its backups
@pytest.mark.sqlite_only
def test_the_records_backups_and_laws_are_the_owners_alone(pair: Pair, tmp_path: Path) -> None:
    for ws in (pair.office, pair.field):
        ws.store.backup_now("manual")
        folder = ws.folder
        assert _mode(folder.database) == 0o600
        for suffix in ("-wal", "-shm"):
            side = folder.database.with_name(folder.database.name + suffix)
            if side.exists():
                assert _mode(side) == 0o600
        assert _mode(folder.backups) == 0o700
        assert {_mode(p) for p in folder.backups.iterdir()} == {0o600}
    laws = pair.field.folder.jurisdictions
    assert _mode(laws) == 0o700 and {_mode(p) for p in laws.iterdir()} == {0o600}


def test_files_an_earlier_version_left_open_are_closed_at_open(pair: Pair) -> None:
    root = pair.field.folder.root
    pair.field.close()
    folder = pair.field.folder
    for path in (folder.database, *folder.backups.iterdir(), *folder.jurisdictions.iterdir()):
        path.chmod(0o644)
    folder.jurisdictions.chmod(0o755)
    reopened = Workspace(root, user="k.olmsted")
    try:
        assert _mode(folder.database) == 0o600
        assert {_mode(p) for p in folder.backups.iterdir()} == {0o600}
        assert _mode(folder.jurisdictions) == 0o700
        assert {_mode(p) for p in folder.jurisdictions.iterdir()} == {0o600}
    finally:
        reopened.close()
        pair.field = Workspace(root, user="k.olmsted")


def test_a_lot_measurement_of_no_such_component_is_refused(pair: Pair) -> None:
    def measured(pair: Pair, p: Contents) -> None:
        insert(p.changes[0], "lot_measurements", _parcel(pair), {
            "component": "<script>", "ordinal": 1, "distance_ft": 12.0, "accuracy_ft": 2.0,
            "lot_layer_id": "0" * 36, "lot_layer_version": 1, "measured_by": "x",
            "measured_on": "2026-11-20"})

    _refused(pair, measured, 'Component is the text "<script>"; it must be one of: '
                             "septic_tank, ")
