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
from datetime import date
from operator import itemgetter
from typing import Any

from ..domain.case import (
    Capture,
    Case,
    Component,
    DetailValue,
    Inspection,
    Parcel,
    Site,
    SiteFeature,
    SystemRecord,
)
from ..domain.fields import COMPONENT_DETAILS, FieldType
from ..domain.sbl import lookup_key, matching, sbl_hints
from ..domain.vocabulary import (
    CaptureMethod,
    LakeDistanceMethod,
    SiteFeatureKind,
)
from ..errors import InputError
from .mapping import from_row, stored_date, to_row
from .records import RecordWriter

__all__ = ["CASE_TABLES", "case_version", "load_case", "load_cases", "load_parcel",
           "parcel_id_for", "parcels_spelled", "save_case", "stored_date"]

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


def parcels_spelled(conn: sqlite3.Connection, sbl: str) -> list[tuple[str, str]]:
    """(id, stored SBL) of the parcels whose tax map number is `sbl` in any spelling
    (`domain.sbl`): the one stored exactly so when there is one, else every match."""
    exact = conn.execute("SELECT id, sbl FROM parcels WHERE sbl = ? AND deleted_at IS NULL",
                         (sbl,)).fetchone()
    if exact is not None:
        return [(str(exact[0]), str(exact[1]))]
    hints = sbl_hints(sbl)
    found = {str(r[1]): str(r[0]) for r in conn.execute(
        "SELECT id, sbl FROM parcels WHERE deleted_at IS NULL"
        + "".join(" AND instr(sbl, ?) > 0" for _ in hints), hints)}
    return [(found[s], s) for s in matching(sbl, found)]


def parcels_spelled_finder(conn: sqlite3.Connection
                           ) -> Callable[[str], list[tuple[str, str]]]:
    """`parcels_spelled` over the parcels as they are now, read once: for a caller looking
    up many numbers (a roll of 100,000 parcels), where a search of the parcels for each
    would take hours."""
    stored = {str(r[1]): str(r[0]) for r in conn.execute(
        "SELECT id, sbl FROM parcels WHERE deleted_at IS NULL")}
    by_key: dict[Hashable, list[str]] = {}
    for spelled in stored:
        by_key.setdefault(lookup_key(spelled), []).append(spelled)

    def find(sbl: str) -> list[tuple[str, str]]:
        if sbl in stored:
            return [(stored[sbl], sbl)]
        return [(stored[s], s) for s in matching(sbl, by_key.get(lookup_key(sbl), ()))]
    return find


def parcel_id_for(conn: sqlite3.Connection, sbl: str) -> str | None:
    """The parcel of this tax map number in any spelling; None when there is none."""
    found = parcels_spelled(conn, sbl)
    if len(found) > 1:
        raise InputError(f"SBL {sbl} names {len(found)} parcels spelled differently "
                         f"({', '.join(s for _, s in found)}); give it as one of them is "
                         "written.")
    return found[0][0] if found else None


def case_version(conn: sqlite3.Connection, parcel_id: str) -> int:
    """The parcel's version: the newest change-log entry that touched it."""
    row = conn.execute("SELECT max(seq) FROM change_log WHERE parcel_id = ?",
                       (parcel_id,)).fetchone()
    return int(row[0] or 0)


# --- saving ----------------------------------------------------------------------------



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
    parcel_values = to_row("parcels", p)
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
        # the tax map number keeps the spelling it is stored with (domain.sbl)
        parcel_values = {k: v for k, v in parcel_values.items() if k != "sbl"}
        w.update("parcels", parcel_id, parcel_values)

    read: Reader = _none if created else _active
    _many(w, "renters", parcel_id, read(w.conn, "renters", parcel_id, order="position"),
          [to_row("renters", r) for r in p.renters], key=lambda v: 0)
    for table, part in (("dwellings", case.dwelling), ("proposed_work", case.proposed_work),
                        ("etu_services", case.etu),
                        ("holding_tank_services", case.holding_tank_service),
                        ("site_observations", case.observations),
                        ("ahj_determinations", case.ahj), ("notices", case.notice)):
        _one(w, table, parcel_id, None if part is None else to_row(table, part), read)
    _many(w, "etu_reports", parcel_id, read(w.conn, "etu_reports", parcel_id, order="position"),
          [to_row("etu_reports", i) for i in (case.etu.inspections if case.etu else ())],
          key=lambda v: to_text(v["inspection_date"]))
    _many(w, "pump_outs", parcel_id, read(w.conn, "pump_outs", parcel_id, order="position"),
          [to_row("pump_outs", po) for po in (case.holding_tank_service.pump_outs
                                              if case.holding_tank_service else ())],
          key=lambda v: to_text(v["date"]))
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
        features.extend(to_row("site_features", f) for f in site.features)
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
                     fresh: bool = False) -> str:
    """Write the case's inspection: onto the inspection it names (`inspection.id`: a
    corrected date changes that inspection's date), else onto the parcel's inspection of the
    same date, else as a new inspection. Returns its id."""
    on_record = [] if fresh else _active(w.conn, "inspections", parcel_id,
                                         where=_ON_RECORD, order="date, created_at")
    values = to_row("inspections", inspection)
    found = None if inspection.id is None else next(
        (r for r in on_record if r["id"] == inspection.id), None)
    if inspection.id is not None and found is None and not fresh:
        elsewhere = w.conn.execute("SELECT parcel_id, deleted_at, void_reason FROM inspections "
                                   "WHERE id = ?", (inspection.id,)).fetchone()
        if elsewhere is not None:
            why = ("belongs to another parcel" if elsewhere[0] != parcel_id
                   else "was marked entered in error" if elsewhere[2] is not None
                   else "was removed")
            raise InputError(f"inspection.id is {inspection.id}, an inspection that {why}; "
                             "leave the id out to record the inspection as new")
        # an id from another data folder names nothing here: matched by date, as the
        # contract says
    if found is not None:
        _keep_order(on_record, found, inspection.date)
        inspection_id = str(found["id"])
        w.update("inspections", inspection_id, values)
    else:
        day = inspection.date.isoformat()
        same_day = [r for r in on_record if r["date"] == day]
        if same_day:
            inspection_id = str(same_day[0]["id"])
            w.update("inspections", inspection_id, values)
        else:
            inspection_id = w.insert("inspections", values, parcel_id=parcel_id)
    existing = [] if fresh else _rows(
        w.conn, "SELECT * FROM inspection_tests WHERE inspection_id = ? AND "
                "deleted_at IS NULL ORDER BY position", [inspection_id])
    _many(w, "inspection_tests", parcel_id, existing,
          [to_row("inspection_tests", t, inspection_id=inspection_id) for t in inspection.tests],
          key=lambda v: str(v["kind"]))
    return inspection_id


def _keep_order(on_record: Sequence[Row], found: Row, day: date) -> None:
    """A corrected date keeps the inspection where it stands among the parcel's others: a
    parcel's record is edited inspection after inspection, and the history of each earlier
    inspection is read in that order (services/parcel/inspection_history)."""
    if day.isoformat() == found["date"]:
        return
    at = list(on_record).index(found)
    before = on_record[at - 1]["date"] if at > 0 else None
    after = on_record[at + 1]["date"] if at + 1 < len(on_record) else None
    new = day.isoformat()
    clash = next((r["date"] for r in on_record if r["date"] == new and r is not found), None)
    if clash is not None:
        raise InputError(f"inspection.date is {new}, the date of another inspection of this "
                         "parcel on record; mark one of them entered in error instead")
    if (before is not None and new < before) or (after is not None and new > after):
        neighbour = before if before is not None and new < before else after
        raise InputError(f"inspection.date is {new}, which would move this inspection past "
                         f"the inspection of {neighbour} on record; a corrected date keeps "
                         "the parcel's inspections in their order (mark an inspection "
                         "entered in error instead)")


# --- loading ---------------------------------------------------------------------------





# How a component detail's stored value is read back, by its type (else as stored).
_READ: dict[FieldType, Callable[[Any], DetailValue]] = {
    FieldType.BOOLEAN: bool, FieldType.DATE: date.fromisoformat, FieldType.INTEGER: int}
_DETAILS = tuple((spec.name, _READ.get(spec.type)) for spec in COMPONENT_DETAILS)


def _details(row: Row) -> dict[str, DetailValue]:
    return {name: value if read is None else read(value) for name, read in _DETAILS
            if (value := row[name]) is not None}




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
    "inspections": ("AND void_reason IS NULL", "date DESC, created_at DESC"),
}
_TESTS_ORDER = "position"
# An inspection on record: not removed, not marked entered in error.
_ON_RECORD = _CASE_TABLES["inspections"][0]
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
    parcel: Parcel = from_row("parcels", p, renters=tuple(
        from_row("renters", r) for r in rows("renters")))
    return parcel


def load_parcel(conn: sqlite3.Connection, parcel_id: str) -> Parcel:
    p = _rows(conn, "SELECT * FROM parcels WHERE id = ?", [parcel_id])[0]
    return _parcel_from(p, _parcel_rows(conn, parcel_id))


def load_case(conn: sqlite3.Connection, parcel_id: str) -> Case:
    p = _rows(conn, "SELECT * FROM parcels WHERE id = ?", [parcel_id])[0]
    return _case_from(p, _parcel_rows(conn, parcel_id), _test_rows(conn))


def _case_from(parcel: Row, rows: TableRows, test_rows: TestRows) -> Case:
    def one(table: str, **more: Any) -> Any:
        found = rows(table)
        return from_row(table, found[0], **more) if found else None

    inspections = rows("inspections")
    etu = rows("etu_services")
    holding = rows("holding_tank_services")
    return Case(
        parcel=_parcel_from(parcel, rows),
        dwelling=one("dwellings"),
        proposed_work=one("proposed_work"),
        site=_load_site(rows),
        system=_load_system(rows("systems")[0] if rows("systems") else None),
        components=tuple(
            from_row("components", c, details=_details(c)) for c in rows("components")),
        etu=None if not etu else from_row("etu_services", etu[0], inspections=tuple(
            from_row("etu_reports", r) for r in rows("etu_reports"))),
        holding_tank_service=None if not holding else from_row(
            "holding_tank_services", holding[0],
            pump_outs=tuple(from_row("pump_outs", r) for r in rows("pump_outs"))),
        observations=one("site_observations"),
        ahj=one("ahj_determinations"),
        notice=one("notices"),
        inspection=_load_inspection(inspections[0], test_rows(inspections[0]["id"]))
        if inspections else None,
    )


def _load_system(row: Row | None) -> SystemRecord | None:
    # a system row is kept for its components even when nothing is on file about it
    if row is None or _system_values(row).count(None) == len(_SYSTEM_FIELDS):
        return None
    system: SystemRecord = from_row("systems", row)
    return system


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
                        capture_accuracy_ft=f["capture_accuracy_ft"], note=f["note"],
                        shallow_aquifer=_flag(f["shallow_aquifer"]),
                        drainage_path=_flag(f["drainage_path"]))
            for f in features if f["kind"] not in (SiteFeatureKind.ABSORPTION_AREA,
                                                   SiteFeatureKind.HOLDING_TANK)))


def _flag(value: Any) -> bool | None:
    return None if value is None else bool(value)


def _geometry(row: Row | None) -> dict[str, Any] | None:
    return None if row is None else json.loads(row["geometry"])


def _load_capture(row: Row | None) -> Capture | None:
    if row is None or (row["capture_method"] is None and row["capture_accuracy_ft"] is None):
        return None
    return Capture(method=None if row["capture_method"] is None
                   else CaptureMethod(row["capture_method"]),
                   accuracy_ft=row["capture_accuracy_ft"])


def _load_inspection(i: Row, tests: list[Row]) -> Inspection:
    inspection: Inspection = from_row("inspections", i, tests=tuple(
        from_row("inspection_tests", t) for t in tests))
    return inspection
