"""Cases in the database: saving reconciles the stored parcel with a case, loading rebuilds it.

Saving a case is what saving the inspection form does: the stored parcel becomes exactly
what the case says. Sections and list items that the case no longer has are soft-deleted
(their history stays in the change log). List items are matched by kind and order (the
second septic tank stays the second septic tank), so an edit shows up in the history as
an edit, not as a removal and an addition. Inspections are events: the case's inspection
is matched by its date and other inspections are kept.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from dataclasses import fields
from datetime import date
from functools import lru_cache
from operator import itemgetter
from typing import Any

from ..domain.case import (
    AhjDetermination,
    Capture,
    Case,
    Component,
    DetailValue,
    Dwelling,
    EtuInspection,
    EtuService,
    FactorFinding,
    FieldTest,
    HoldingTankService,
    Inspection,
    NoticeDeadlines,
    Observations,
    Parcel,
    ProposedWork,
    PumpOut,
    Renter,
    Site,
    SiteFeature,
    SystemRecord,
)
from ..domain.fields import COMPONENT_DETAILS, FieldType
from ..domain.vocabulary import (
    CaptureMethod,
    ComponentKind,
    Condition,
    InspectionReason,
    LakeDistanceMethod,
    Occupancy,
    SiteFeatureKind,
    TestKind,
    TestResult,
)
from .records import RecordWriter

WGS84 = "OGC:CRS84"
Row = dict[str, Any]


def _rows(conn: sqlite3.Connection, sql: str, params: Sequence[Any]) -> list[Row]:
    cur = conn.execute(sql, params)
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]


def _active(conn: sqlite3.Connection, table: str, parcel_id: str, *, where: str = "",
            params: Sequence[Any] = (), order: str = "created_at, id") -> list[Row]:
    return _rows(conn, f"SELECT * FROM {table} WHERE parcel_id = ? AND deleted_at IS NULL "
                       f"{where} ORDER BY {order}", [parcel_id, *params])


def parcel_id_for(conn: sqlite3.Connection, sbl: str) -> str | None:
    row = conn.execute("SELECT id FROM parcels WHERE sbl = ? AND deleted_at IS NULL",
                       (sbl,)).fetchone()
    return None if row is None else str(row[0])


def case_version(conn: sqlite3.Connection, parcel_id: str) -> int:
    """The parcel's version: the newest change-log entry that touched it."""
    row = conn.execute("SELECT max(seq) FROM change_log WHERE parcel_id = ?",
                       (parcel_id,)).fetchone()
    return int(row[0] or 0)


# --- saving ----------------------------------------------------------------------------

def _flat(value: Any, *, skip: Sequence[str] = ()) -> dict[str, Any]:
    return {f.name: getattr(value, f.name) for f in fields(value) if f.name not in skip}


# How a save reads a parcel's stored rows: `_active`, or, for a parcel created in the same
# save, `_none` (a new parcel has no other records yet, so there is nothing to read back).
Reader = Callable[..., list[Row]]


def _none(conn: sqlite3.Connection, table: str, parcel_id: str, **_: Any) -> list[Row]:
    return []


def _one(w: RecordWriter, table: str, parcel_id: str, values: Mapping[str, Any] | None,
         read: Reader = _active) -> None:
    existing = read(w.conn, table, parcel_id)
    if values is None:
        for row in existing:
            w.delete(table, row["id"])
        return
    if existing:
        w.update(table, existing[0]["id"], values)
    else:
        w.insert(table, values, parcel_id=parcel_id)


def _keyed(items: Sequence[Any], key: Callable[[Any], Hashable]) -> list[tuple[Hashable, Any]]:
    seen: Counter[Hashable] = Counter()
    out: list[tuple[Hashable, Any]] = []
    for item in items:
        k = key(item)
        out.append(((k, seen[k]), item))
        seen[k] += 1
    return out


def _many(w: RecordWriter, table: str, parcel_id: str, existing: Sequence[Row],
          new: Sequence[dict[str, Any]], key: Callable[[Mapping[str, Any]], Hashable],
          ) -> list[str]:
    """Reconcile a list: match by key and order, update, insert the rest, delete leftovers."""
    by_key = dict(_keyed(existing, key))
    ids = []
    for position, (k, values) in enumerate(_keyed(new, key)):
        values = {**values, "position": position} if "position" in w.columns(table) else values
        row = by_key.pop(k, None)
        if row is None:
            ids.append(w.insert(table, values, parcel_id=parcel_id))
        else:
            w.update(table, row["id"], values)
            ids.append(row["id"])
    for row in by_key.values():
        w.delete(table, row["id"])
    return ids


def save_case(w: RecordWriter, case: Case, *, today: date,
              created_with: Mapping[str, Any] | None = None) -> tuple[str, bool]:
    """Make the stored parcel exactly what the case says. Returns (parcel id, created).
    `created_with`: more values of the parcel's row, for a parcel this save creates."""
    p = case.parcel
    parcel_id = parcel_id_for(w.conn, p.sbl)
    parcel_values = _flat(p, skip=("renters",))
    created = parcel_id is None
    # The inspection first (after the row of a parcel this save creates): a new
    # inspection's row marks, in the change log, where the record of the parcel's earlier
    # inspection ends (services/inspection_history), its own row (municipality, address,
    # point) included.
    if parcel_id is None:
        parcel_id = w.insert("parcels", {**parcel_values, **(created_with or {})},
                             parcel_id=None)
        if case.inspection is not None:
            _save_inspection(w, parcel_id, case.inspection, fresh=True)
    else:
        if case.inspection is not None:
            _save_inspection(w, parcel_id, case.inspection)
        w.update("parcels", parcel_id, parcel_values)

    read: Reader = _none if created else _active
    _many(w, "renters", parcel_id, read(w.conn, "renters", parcel_id, order="position"),
          [_flat(r) for r in p.renters], key=lambda v: 0)
    _one(w, "dwellings", parcel_id, None if case.dwelling is None else _flat(case.dwelling), read)
    _one(w, "proposed_work", parcel_id,
         None if case.proposed_work is None else _flat(case.proposed_work), read)
    _one(w, "etu_services", parcel_id,
         None if case.etu is None else _flat(case.etu, skip=("inspections",)), read)
    _many(w, "etu_reports", parcel_id, read(w.conn, "etu_reports", parcel_id, order="position"),
          [{"inspection_date": i.date, "report_received": i.report_received}
           for i in (case.etu.inspections if case.etu else ())],
          key=lambda v: to_text(v["inspection_date"]))
    _one(w, "holding_tank_services", parcel_id, None if case.holding_tank_service is None
         else _flat(case.holding_tank_service, skip=("pump_outs",)), read)
    _many(w, "pump_outs", parcel_id, read(w.conn, "pump_outs", parcel_id, order="position"),
          [_flat(po) for po in (case.holding_tank_service.pump_outs
                                if case.holding_tank_service else ())],
          key=lambda v: to_text(v["date"]))
    _one(w, "site_observations", parcel_id,
         None if case.observations is None else _flat(case.observations), read)
    _one(w, "ahj_determinations", parcel_id, None if case.ahj is None else {
        **_flat(case.ahj, skip=("factors_weighed",)),
        "factors_weighed": [{"factor": f.factor, "finding": f.finding}
                            for f in case.ahj.factors_weighed]}, read)
    _one(w, "notices", parcel_id, None if case.notice is None else _flat(case.notice), read)
    _save_components(w, parcel_id, case.components, case.system, read)
    _save_site(w, parcel_id, case, today=today, read=read)
    return parcel_id, created


def to_text(value: Any) -> str:
    return value.isoformat() if isinstance(value, date) else str(value)


_SYSTEM_FIELDS = ("stamped_as_built", "as_built_reference", "installed_year", "description")


def _save_components(w: RecordWriter, parcel_id: str, components: Sequence[Component],
                     system: SystemRecord | None, read: Reader = _active) -> None:
    systems = read(w.conn, "systems", parcel_id)
    existing = read(w.conn, "components", parcel_id, order="position")
    system_values = {k: None if system is None else getattr(system, k) for k in _SYSTEM_FIELDS}
    if systems:
        system_id = systems[0]["id"]
        w.update("systems", system_id, system_values)
    elif components or system is not None:
        system_id = w.insert("systems", system_values, parcel_id=parcel_id)
    else:
        return
    new = []
    for c in components:
        values: dict[str, Any] = {"system_id": system_id, "kind": c.kind, "condition": c.condition,
                                  "defects": list(c.defects), "note": c.note,
                                  "geometry": c.geometry}
        values.update({spec.name: c.details.get(spec.name) for spec in COMPONENT_DETAILS})
        new.append(values)
    _many(w, "components", parcel_id, existing, new, key=lambda v: str(v["kind"]))


def _save_site(w: RecordWriter, parcel_id: str, case: Case, *, today: date,
               read: Reader = _active) -> None:
    site = case.site
    features: list[dict[str, Any]] = []
    if site is not None:
        for kind, geometry, capture in (
                (SiteFeatureKind.ABSORPTION_AREA, site.absorption_area,
                 site.absorption_area_capture),
                (SiteFeatureKind.HOLDING_TANK, site.holding_tank, site.holding_tank_capture)):
            if geometry is not None:
                features.append({
                    "kind": kind, "geometry": geometry,
                    "capture_method": capture.method if capture else None,
                    "capture_accuracy_ft": capture.accuracy_ft if capture else None})
        features.extend(_flat(f) for f in site.features)
    for f in features:
        f.setdefault("capture_method", None)
        f.setdefault("capture_accuracy_ft", None)
        f.setdefault("note", None)
        f["crs"] = WGS84
    _many(w, "site_features", parcel_id,
          read(w.conn, "site_features", parcel_id, order="position"), features,
          key=lambda v: str(v["kind"]))

    field_measurements = read(w.conn, "lake_measurements", parcel_id,
                              where="AND method != 'map'", order="measured_on, created_at")
    if site is None or site.lake_distance_ft is None:
        for row in field_measurements:
            w.delete("lake_measurements", row["id"])
        return
    latest = field_measurements[-1] if field_measurements else None
    method = site.lake_distance_method
    assert method is not None
    if (latest is not None and float(latest["distance_ft"]) == float(site.lake_distance_ft)
            and latest["method"] == method.value):
        return
    inspection = case.inspection
    w.insert("lake_measurements", {
        "distance_ft": site.lake_distance_ft, "method": method,
        "measured_by": inspection.inspector if inspection else w.actor.user,
        "measured_on": inspection.date if inspection else today,
    }, parcel_id=parcel_id)


def _save_inspection(w: RecordWriter, parcel_id: str, inspection: Inspection, *,
                     fresh: bool = False) -> None:
    same_day = [] if fresh else _active(w.conn, "inspections", parcel_id, where="AND date = ?",
                                        params=[inspection.date.isoformat()])
    values = _flat(inspection, skip=("tests",))
    values["failure_evidence"] = list(inspection.failure_evidence)
    if same_day:
        inspection_id = same_day[0]["id"]
        w.update("inspections", inspection_id, values)
    else:
        inspection_id = w.insert("inspections", values, parcel_id=parcel_id)
    existing = [] if fresh else _rows(
        w.conn, "SELECT * FROM inspection_tests WHERE inspection_id = ? AND "
                "deleted_at IS NULL ORDER BY position", [inspection_id])
    _many(w, "inspection_tests", parcel_id, existing,
          [{**_flat(t), "inspection_id": inspection_id} for t in inspection.tests],
          key=lambda v: str(v["kind"]))


# --- loading ---------------------------------------------------------------------------

def _bool(value: Any) -> bool | None:
    return None if value is None else bool(value)


def stored_date(value: Any) -> date | None:
    """A date as stored (ISO text), or None."""
    return None if value is None else date.fromisoformat(value)


# How a component detail's stored value is read back, by its type (else as stored).
_READ: dict[FieldType, Callable[[Any], DetailValue]] = {
    FieldType.BOOLEAN: bool, FieldType.DATE: date.fromisoformat, FieldType.INTEGER: int}
_DETAILS = tuple((spec.name, _READ.get(spec.type)) for spec in COMPONENT_DETAILS)


def _details(row: Row) -> dict[str, DetailValue]:
    return {name: value if read is None else read(value) for name, read in _DETAILS
            if (value := row[name]) is not None}


@lru_cache(maxsize=4096)
def _strings(text: str) -> tuple[Any, ...]:
    """A stored JSON list of plain values as a tuple; the same few texts (`[]` above all)
    recur on thousands of rows and are decoded once."""
    return tuple(json.loads(text))


# Each table a case is read from: (extra condition, order). A single row is the first.
_CASE_TABLES: dict[str, tuple[str, str]] = {
    "renters": ("", "position"),
    "dwellings": ("", "created_at, id"),
    "proposed_work": ("", "created_at, id"),
    "etu_services": ("", "created_at, id"),
    "etu_reports": ("", "position"),
    "holding_tank_services": ("", "created_at, id"),
    "pump_outs": ("", "position"),
    "site_observations": ("", "created_at, id"),
    "ahj_determinations": ("", "created_at, id"),
    "notices": ("", "created_at, id"),
    "systems": ("", "created_at, id"),
    "components": ("", "position"),
    "site_features": ("", "position"),
    "lake_measurements": ("AND method != 'map'", "measured_on, created_at"),
    "inspections": ("", "date DESC, created_at DESC"),
}
_TESTS_ORDER = "position"
# The tables a stored case is read from (besides the parcel's row and inspection tests).
CASE_TABLES = tuple(_CASE_TABLES)

# The rows of one parcel's table (in the order above), and the tests of one inspection.
TableRows = Callable[[str], list[Row]]
TestRows = Callable[[str], list[Row]]


def _parcel_rows(conn: sqlite3.Connection, parcel_id: str) -> TableRows:
    def rows(table: str) -> list[Row]:
        where, order = _CASE_TABLES[table]
        return _active(conn, table, parcel_id, where=where, order=order)
    return rows


def _test_rows(conn: sqlite3.Connection) -> TestRows:
    def rows(inspection_id: str) -> list[Row]:
        return _rows(conn, "SELECT * FROM inspection_tests WHERE inspection_id = ? AND "
                           f"deleted_at IS NULL ORDER BY {_TESTS_ORDER}", [inspection_id])
    return rows


def _grouped(conn: sqlite3.Connection, sql: str, key: str, params: Sequence[Any] = ()
             ) -> dict[str, list[Row]]:
    out: dict[str, list[Row]] = {}
    for row in _rows(conn, sql, params):
        out.setdefault(row[key], []).append(row)
    return out


def load_cases(conn: sqlite3.Connection, *, only: Collection[str] | None = None,
               parcel_ids: Sequence[str] | None = None) -> dict[str, Case]:
    """Every active parcel's case by parcel id, as `load_case` builds it, read with one
    query per table. With `only`, just those tables of `_CASE_TABLES` are read and the
    others are taken as empty: for a caller that reads nothing else of the cases. With
    `parcel_ids`, just those parcels (so a caller can work in chunks)."""
    ids: list[str] = [] if parcel_ids is None else list(parcel_ids)
    chosen = "" if parcel_ids is None else f" AND parcel_id IN ({','.join('?' * len(ids))})"
    parcels = _rows(conn, "SELECT * FROM parcels WHERE deleted_at IS NULL"
                    + chosen.replace("parcel_id", "id"), ids)
    tables = {table: _grouped(conn, f"SELECT * FROM {table} WHERE deleted_at IS NULL{chosen} "
                                    f"{where} ORDER BY parcel_id, {order}", "parcel_id", ids)
              if only is None or table in only else {}
              for table, (where, order) in _CASE_TABLES.items()}
    tested = "" if parcel_ids is None else (
        " AND inspection_id IN (SELECT id FROM inspections WHERE deleted_at IS NULL"
        f"{chosen})")
    tests = _grouped(conn, f"SELECT * FROM inspection_tests WHERE deleted_at IS NULL{tested} "
                           f"ORDER BY inspection_id, {_TESTS_ORDER}", "inspection_id", ids
                     ) if only is None or "inspections" in only else {}

    def for_parcel(parcel_id: str) -> TableRows:
        return lambda table: tables[table].get(parcel_id, [])

    def test_rows(inspection_id: str) -> list[Row]:
        return tests.get(inspection_id, [])

    return {p["id"]: _case_from(p, for_parcel(p["id"]), test_rows) for p in parcels}


def _parcel_from(p: Row, rows: TableRows) -> Parcel:
    return Parcel(
        sbl=p["sbl"], municipality=p["municipality"], site_address=p["site_address"],
        owner_name=p["owner_name"],
        owner_mailing_address=tuple(json.loads(p["owner_mailing_address"])),
        owner_phone=p["owner_phone"], owner_email=p["owner_email"],
        renters=tuple(Renter(name=r["name"], mailing_address=tuple(json.loads(
            r["mailing_address"])), phone=r["phone"], email=r["email"])
            for r in rows("renters")),
        longitude=p["longitude"], latitude=p["latitude"])


def load_parcel(conn: sqlite3.Connection, parcel_id: str) -> Parcel:
    p = _rows(conn, "SELECT * FROM parcels WHERE id = ?", [parcel_id])[0]
    return _parcel_from(p, _parcel_rows(conn, parcel_id))


def load_case(conn: sqlite3.Connection, parcel_id: str) -> Case:
    p = _rows(conn, "SELECT * FROM parcels WHERE id = ?", [parcel_id])[0]
    return _case_from(p, _parcel_rows(conn, parcel_id), _test_rows(conn))


def _case_from(parcel: Row, rows: TableRows, test_rows: TestRows) -> Case:
    def one(table: str) -> Row | None:
        found = rows(table)
        return found[0] if found else None

    d = one("dwellings")
    w = one("proposed_work")
    e = one("etu_services")
    h = one("holding_tank_services")
    o = one("site_observations")
    a = one("ahj_determinations")
    n = one("notices")
    inspections = rows("inspections")
    return Case(
        parcel=_parcel_from(parcel, rows),
        dwelling=None if d is None else Dwelling(
            bedrooms=d["bedrooms"], living_area_sqft=d["living_area_sqft"],
            building_area_sqft=d["building_area_sqft"],
            ahj_design_bedrooms=d["ahj_design_bedrooms"], ahj_design_by=d["ahj_design_by"],
            ahj_design_date=stored_date(d["ahj_design_date"]),
            ahj_design_reason=d["ahj_design_reason"], garbage_grinder=_bool(d["garbage_grinder"])),
        proposed_work=None if w is None else ProposedWork(
            conveyance=_bool(w["conveyance"]), change_of_use=_bool(w["change_of_use"]),
            bedrooms=w["bedrooms"], living_area_sqft=w["living_area_sqft"],
            work_area_sqft=w["work_area_sqft"]),
        site=_load_site(rows),
        system=_load_system(one("systems")),
        components=tuple(
            Component(kind=ComponentKind(c["kind"]), condition=Condition(c["condition"]),
                      defects=_strings(c["defects"]), note=c["note"], details=_details(c),
                      geometry=None if c["geometry"] is None else json.loads(c["geometry"]))
            for c in rows("components")),
        etu=None if e is None else EtuService(
            service_contract=_bool(e["service_contract"]),
            manufacturer_interval_months=e["manufacturer_interval_months"],
            provider=e["provider"],
            inspections=tuple(
                EtuInspection(date=date.fromisoformat(r["inspection_date"]),
                              report_received=stored_date(r["report_received"]))
                for r in rows("etu_reports"))),
        holding_tank_service=None if h is None else HoldingTankService(
            hauler_contract=_bool(h["hauler_contract"]), hauler_name=h["hauler_name"],
            pump_outs=tuple(
                PumpOut(date=date.fromisoformat(r["date"]),
                        record_received=bool(r["record_received"]), volume_gal=r["volume_gal"])
                for r in rows("pump_outs"))),
        observations=None if o is None else Observations(
            absorption_area_encroachments=_strings(o["absorption_area_encroachments"]),
            clear_water_connections=_strings(o["clear_water_connections"])),
        ahj=None if a is None else AhjDetermination(
            greatest_extent_possible=_bool(a["greatest_extent_possible"]),
            waiver_granted=_bool(a["waiver_granted"]),
            waiver_description=a["waiver_description"],
            factors_weighed=tuple(FactorFinding(factor=f["factor"], finding=f["finding"])
                                  for f in json.loads(a["factors_weighed"])),
            determined_by=a["determined_by"], determined_on=stored_date(a["determined_on"]),
            permit_number=a["permit_number"], permit_issued_on=stored_date(a["permit_issued_on"])),
        notice=None if n is None else NoticeDeadlines(permit_by=stored_date(n["permit_by"]),
                                                      complete_by=stored_date(n["complete_by"])),
        inspection=_load_inspection(inspections[0], test_rows(inspections[0]["id"]))
        if inspections else None,
    )


def _load_system(row: Row | None) -> SystemRecord | None:
    if row is None or _system_values(row).count(None) == len(_SYSTEM_FIELDS):
        return None
    return SystemRecord(stamped_as_built=_bool(row["stamped_as_built"]),
                        as_built_reference=row["as_built_reference"],
                        installed_year=row["installed_year"], description=row["description"])


_system_values = itemgetter(*_SYSTEM_FIELDS)


def _load_site(rows: TableRows) -> Site | None:
    features = rows("site_features")
    measurements = rows("lake_measurements")
    if not features and not measurements:
        return None
    absorption_row = next((f for f in features if f["kind"] == SiteFeatureKind.ABSORPTION_AREA),
                          None)
    holding_row = next((f for f in features if f["kind"] == SiteFeatureKind.HOLDING_TANK), None)
    latest = measurements[-1] if measurements else None
    return Site(
        absorption_area=_geometry(absorption_row), holding_tank=_geometry(holding_row),
        absorption_area_capture=_load_capture(absorption_row),
        holding_tank_capture=_load_capture(holding_row),
        lake_distance_ft=None if latest is None else latest["distance_ft"],
        lake_distance_method=None if latest is None else LakeDistanceMethod(latest["method"]),
        features=tuple(
            SiteFeature(kind=SiteFeatureKind(f["kind"]), geometry=json.loads(f["geometry"]),
                        capture_method=None if f["capture_method"] is None
                        else CaptureMethod(f["capture_method"]),
                        capture_accuracy_ft=f["capture_accuracy_ft"], note=f["note"])
            for f in features if f["kind"] not in (SiteFeatureKind.ABSORPTION_AREA,
                                                   SiteFeatureKind.HOLDING_TANK)))


def _geometry(row: Row | None) -> dict[str, Any] | None:
    return None if row is None else json.loads(row["geometry"])


def _load_capture(row: Row | None) -> Capture | None:
    if row is None or (row["capture_method"] is None and row["capture_accuracy_ft"] is None):
        return None
    return Capture(method=None if row["capture_method"] is None
                   else CaptureMethod(row["capture_method"]),
                   accuracy_ft=row["capture_accuracy_ft"])


def _load_inspection(i: Row, tests: list[Row]) -> Inspection:
    return Inspection(
        date=date.fromisoformat(i["date"]), inspector=i["inspector"],
        reason=InspectionReason(i["reason"]),
        failure_evidence=_strings(i["failure_evidence"]),
        inspector_certification=i["inspector_certification"], weather=i["weather"],
        occupancy=None if i["occupancy"] is None else Occupancy(i["occupancy"]),
        tests=tuple(FieldTest(kind=TestKind(t["kind"]), result=TestResult(t["result"]),
                              volume_gal=t["volume_gal"], duration_min=t["duration_min"],
                              note=t["note"]) for t in tests),
        note=i["note"])
