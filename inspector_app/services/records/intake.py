"""Records written outside the office and sent in as files (Chapter 202, § 202-8): ETU
service reports from certified manufacturer's representatives (A) and pump-out records
from NYSDEC-permitted septage haulers (B), as CSV or Excel workbooks made from the office's
template (`records template`).

Every row is checked before anything is stored: the parcel (its tax map number in any
county spelling), the provider's number (registered, valid on the row's date), dates (real,
not in the future, in order), values (the bounds the records declare), and then the parcel's
record as the row would leave it, through the same gate as a case file or the form. The file
is all or nothing unless the office asks to store the good rows (`skip_bad`). The file is kept
by its SHA-256 and each record made from it names it; the same file again stores nothing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import Any, TypeVar

from ...domain.case import Case, EtuInspection, EtuService, HoldingTankService, PumpOut
from ...domain.jurisdiction import Jurisdiction
from ...domain.records import RECEIVED_KINDS
from ...domain.sbl import closest
from ...domain.vocabulary import ComponentKind
from ...errors import InputError, RefusedWithReport
from ...storage import parcels as parcel_rows
from ...storage import providers as stored
from ...storage.cases import load_case, parcel_id_for, save_case
from ..parcel.evaluation import follow_after_save
from ..reference.providers import provider_problem
from ..session.session import FIELD, Session
from .provider_files import (
    COLUMNS,
    MAX_ROWS,
    TABLES,
    cell_value,
    check_kind,
    file_rows,
    header_columns,
    read_file,
    template_columns,
)

T = TypeVar("T", EtuInspection, PumpOut)

# --- reading a file ---------------------------------------------------------------------

@dataclass
class Refused:
    line: int
    sbl: str
    reason: str

    def as_json(self) -> dict[str, Any]:
        return {"line": self.line, "sbl": self.sbl, "reason": self.reason}


@dataclass
class _Row:
    line: int
    sbl: str            # as written
    parcel_id: str
    values: dict[str, Any]
    provider: dict[str, Any]


@dataclass
class IntakeResult:
    imported: int = 0
    already_imported: bool = False
    refused: list[Refused] = field(default_factory=list)
    late: list[dict[str, Any]] = field(default_factory=list)
    document: str = ""
    already_on_record: list[int] = field(default_factory=list)
    # the rows that would be (or were) stored: line, parcel as stored, date, what it says
    matched: list[dict[str, Any]] = field(default_factory=list)
    stored: bool = False

    def as_json(self) -> dict[str, Any]:
        return {"imported": self.imported, "already_imported": self.already_imported,
                "refused": [r.as_json() for r in self.refused], "late": self.late,
                "document": self.document, "already_on_record": self.already_on_record}


class IntakeRefused(RefusedWithReport):
    """Rows refused, so nothing was stored; the report is the result to print."""


def _row_values(ws: Session, kind: str, cells: dict[str, str], today: date,
                received: date) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """One row's parcel, values and provider, or ValueError saying why it is refused."""
    spec = KIND[kind]
    table = spec.table
    sbl = cells.get("sbl", "")
    parcel_id = parcel_id_for(ws.store.conn, sbl) if sbl else None
    if not sbl:
        raise ValueError("sbl is empty")
    if parcel_id is None:
        near = closest(sbl, parcel_rows.ids_by_sbl(ws.store.conn))
        raise ValueError(f"no parcel with SBL {sbl!r} in {ws.records_place}"
                         + (f" (the closest: {', '.join(near)})" if near else ""))
    values: dict[str, Any] = {}
    for column in COLUMNS[kind][1:]:
        text = cells.get(column.name, "")
        if not text:
            if column.required:
                raise ValueError(f"{column.name} is empty")
            continue
        assert column.field is not None
        values[column.field] = cell_value(column, text, table)
    day: date = values["date"]
    for column in COLUMNS[kind][1:]:
        value = values.get(column.field or "")
        if column.kind == "date" and not column.ahead and isinstance(value, date) and \
                value > today:
            raise ValueError(f"{column.name} {value.isoformat()} is after today "
                             f"({today.isoformat()})")
    values.setdefault(spec.received, received)
    if values[spec.received] < day:
        raise ValueError(f"the {spec.what} is dated {values[spec.received].isoformat()}, "
                         f"before the {spec.event} of {day.isoformat()}")
    provider, problem = provider_problem(ws.store.conn, RECEIVED_KINDS[kind],
                                         values[spec.number], day)
    if problem is not None:
        raise ValueError(problem)
    assert provider is not None
    values[spec.number] = provider["number"]
    return parcel_id, values, provider


def read_rows(ws: Session, path: Path, raw: bytes, kind: str, *, today: date,
              received: date) -> tuple[list[_Row], list[Refused]]:
    """The file's rows checked one by one (not yet against the parcels' records)."""
    rows = file_rows(raw, path)
    first = next(rows, None)
    if first is None:
        raise InputError(f"{path}: is empty; the first row must name the columns "
                         f"({', '.join(c.name for c in COLUMNS[kind])}).")
    names = header_columns(path, kind, first[1])
    instructions = [c.instruction for c in template_columns(kind)]
    good: list[_Row] = []
    refused: list[Refused] = []
    count = 0
    for line, raw_cells in rows:
        cells = [c.strip() for c in raw_cells]
        if not any(cells):
            continue
        if cells[:len(instructions)] == instructions[:len(cells)] or \
                (cells and cells[0] == instructions[0]):
            continue  # the workbook template's row saying what each column takes
        count += 1
        if count > MAX_ROWS:
            raise InputError(f"{path}: has more than {MAX_ROWS:,} rows; send it in parts. "
                             "Nothing was imported.")
        if len(cells) > len(names) and any(cells[len(names):]):
            refused.append(Refused(line, cells[0] if cells else "",
                                   f"has {len(cells)} cells; the header has {len(names)}"))
            continue
        by_name = {n: c for n, c in zip(names, cells, strict=False) if n is not None}
        try:
            parcel_id, values, provider = _row_values(ws, kind, by_name, today, received)
        except ValueError as exc:
            refused.append(Refused(line, by_name.get("sbl", ""), str(exc)))
            continue
        good.append(_Row(line, by_name["sbl"], parcel_id, values, provider))
    return good, refused


# --- what the rows make of the records -------------------------------------------------

def _has_etu(case: Case) -> bool:
    return case.etu is not None or any(
        c.kind is ComponentKind.ENHANCED_TREATMENT_UNIT for c in case.components)


def _has_tank(case: Case) -> bool:
    return case.holding_tank_service is not None or any(
        c.kind is ComponentKind.HOLDING_TANK for c in case.components)


def _put(items: Sequence[T], made: T, sha: str, number: str, what: str) -> list[T] | None:
    """The list with the row's record put in, by date (a record of that date typed by hand,
    naming no provider, is filled in); None if it is on record already as the row states
    it. ValueError for another record of that date by the same provider: it is refused
    rather than laid over the first."""
    out = list(items)
    day, by = made.date, getattr(made, number)
    for i, x in enumerate(out):
        if x.date != day:
            continue
        if replace(x, document=sha) == made:
            return None
        if getattr(x, number) is None:
            out[i] = made
            break
        if getattr(x, number) == by:
            document = x.document
            raise ValueError(f"the record already holds a different {what} by {by}"
                             + (f" (from document {document[:12]})" if document else ""))
    else:
        out.append(made)
    return sorted(out, key=lambda x: x.date)


def _with_etu_report(case: Case, row: _Row, sha: str) -> tuple[Case, bool]:
    """The case with the row's ETU inspection (an inspection of that date already recorded
    by hand, with no report's provider, is filled in); and whether it was already on record
    as the row states it."""
    v = row.values
    made = EtuInspection(date=v["date"], report_received=v["report_received"],
                         provider_number=v["provider_number"],
                         provider_name=row.provider["name"], unit=v.get("unit"),
                         fully_functional=v["fully_functional"],
                         service_contract_through=v["service_contract_through"],
                         document=sha)
    etu = case.etu or EtuService()
    inspections = _put(etu.inspections, made, sha, "provider_number",
                       f"report of the {made.date.isoformat()} service")
    if inspections is None:
        return case, True
    contract = etu.service_contract
    if made.service_contract_through is not None and made.service_contract_through >= \
            made.date:
        contract = True
    provider = etu.provider or row.provider["company"] or row.provider["name"]
    return replace(case, etu=replace(etu, inspections=tuple(inspections),
                                     service_contract=contract, provider=provider)), False


def _with_pump_out(case: Case, row: _Row, sha: str) -> tuple[Case, bool]:
    v = row.values
    made = PumpOut(date=v["date"], record_received=True, volume_gal=v["volume_gal"],
                   hauler_permit=v["hauler_permit"], hauler_name=row.provider["name"],
                   record_received_on=v["record_received_on"], document=sha)
    service = case.holding_tank_service or HoldingTankService()
    pump_outs = _put(service.pump_outs, made, sha, "hauler_permit",
                     f"record of the {made.date.isoformat()} pump-out")
    if pump_outs is None:
        return case, True
    hauler = service.hauler_name or row.provider["company"] or row.provider["name"]
    return replace(case, holding_tank_service=replace(
        service, pump_outs=tuple(pump_outs), hauler_name=hauler)), False


def _etu_says(v: dict[str, Any]) -> str:
    functional = "fully functional" if v["fully_functional"] else "NOT fully functional"
    return (f"{v.get('unit') or 'unit'} {functional}; contract through "
            f"{v['service_contract_through'].isoformat()}; report of "
            f"{v['report_received'].isoformat()}")


def _pump_out_says(v: dict[str, Any]) -> str:
    return (f"{v['volume_gal']:,g} gal pumped; record of "
            f"{v['record_received_on'].isoformat()}")


@dataclass(frozen=True)
class _Kind:
    """What a kind of provider's file makes, declared once: the records' table, the
    field of the day received and of the provider's number, what the records must already
    hold, how a row goes into the case, the days the law allows for it, and its words."""

    table: str
    what: str            # "ETU service report"
    event: str           # what its date is the date of
    received: str        # the field of the day it was received
    number: str          # the field of the provider's number
    thing: str           # what the parcel's record must hold
    has: Callable[[Case], bool]
    merge: Callable[[Case, _Row, str], tuple[Case, bool]]
    says: Callable[[dict[str, Any]], str]
    allowed_days: Callable[[Jurisdiction], int]
    citation: str        # the key of the law's citation


KIND = {
    "etu-service": _Kind(TABLES["etu-service"], "ETU service report", "service", "report_received",
                         "provider_number", "enhanced treatment unit", _has_etu,
                         _with_etu_report, _etu_says, lambda j: j.etu_report_within_days,
                         "etu_service"),
    "pump-out": _Kind(TABLES["pump-out"], "pump-out record", "pump-out", "record_received_on",
                      "hauler_permit", "holding tank", _has_tank, _with_pump_out,
                      _pump_out_says, lambda j: j.holding_tank_record_within_days,
                      "holding_tank_service"),
}


def _late(ws: Session, kind: str, row: _Row, case: Case) -> dict[str, Any] | None:
    law = ws.laws.for_municipality(case.parcel.municipality)
    if law is None:
        return None
    spec, v = KIND[kind], row.values
    allowed, received = spec.allowed_days(law), v[spec.received]
    days = (received - v["date"]).days
    if days <= allowed:
        return None
    return {"line": row.line, "sbl": case.parcel.sbl, "date": v["date"].isoformat(),
            "received": received.isoformat(), "days": days, "allowed_days": allowed,
            "citation": law.cite(spec.citation)}


def _apply(ws: Session, kind: str, good: list[_Row], sha: str, today: date,
           result: IntakeResult) -> dict[str, tuple[Case, Case]]:
    """Each parcel's case before and after the file's rows, the rows refused by the
    parcel's record noted in `result`."""
    from ... import casefile

    cases: dict[str, tuple[Case, Case]] = {}
    seen: dict[tuple[str, date, str], int] = {}
    for row in good:
        if row.parcel_id not in cases:
            stored_case = load_case(ws.store.conn, row.parcel_id)
            cases[row.parcel_id] = (stored_case, stored_case)
        before, current = cases[row.parcel_id]
        spec = KIND[kind]
        number = row.values[spec.number]
        key = (row.parcel_id, row.values["date"], number)
        if key in seen:
            result.refused.append(Refused(row.line, row.sbl, f"repeats line {seen[key]} (the "
                                                             "same parcel, date and provider)"))
            continue
        seen[key] = row.line
        if not spec.has(current):
            result.refused.append(Refused(row.line, row.sbl, f"parcel {current.parcel.sbl} "
                                          f"has no {spec.thing} on record; record it first"))
            continue
        try:
            made, on_record = spec.merge(current, row, sha)
        except ValueError as exc:
            result.refused.append(Refused(row.line, row.sbl, str(exc)))
            continue
        if on_record:
            result.already_on_record.append(row.line)
            continue
        problem = casefile.new_problem(current, made, source=f"line {row.line}", today=today)
        if problem is not None:
            result.refused.append(Refused(row.line, row.sbl, problem))
            continue
        cases[row.parcel_id] = (before, made)
        result.imported += 1
        result.matched.append({"line": row.line, "sbl": made.parcel.sbl,
                               "date": row.values["date"].isoformat(),
                               "provider": f"{row.provider['name']} ({number})",
                               "says": spec.says(row.values)})
        late = _late(ws, kind, row, made)
        if late is not None:
            result.late.append(late)
    return cases


@dataclass
class _Checked:
    raw: bytes
    day: date
    result: IntakeResult
    cases: dict[str, tuple[Case, Case]]


def _check(ws: Session, path: Path, kind: str, received: date | None) -> _Checked:
    check_kind(kind)
    if ws.role == FIELD:
        raise InputError("This data folder is a field laptop; providers' records are taken "
                         "in at the office.")
    today = ws.today()
    if received is not None and received > today:
        raise InputError(f"--received {received.isoformat()} is after today "
                         f"({today.isoformat()}); give the day the file arrived.",
                         in_app=f"The day received, {received.isoformat()}, is after today "
                                f"({today.isoformat()}); give the day the file arrived.")
    day = received or today
    raw = read_file(path)
    sha = hashlib.sha256(raw).hexdigest()
    result = IntakeResult(document=sha)
    if stored.document(ws.store.conn, sha) is not None:
        result.already_imported = True
        return _Checked(raw, day, result, {})
    good, result.refused = read_rows(ws, path, raw, kind, today=today, received=day)
    cases = _apply(ws, kind, good, sha, today, result)
    result.refused.sort(key=lambda r: r.line)
    if not good and not result.refused:
        raise InputError(f"{path}: has no {KIND[kind].what}s under its header; nothing was "
                         "imported.")
    return _Checked(raw, day, result, cases)


def preview_records(ws: Session, path: Path, kind: str, *, received: date | None = None
                    ) -> IntakeResult:
    """What `import_records` would make of the file, nothing stored: the rows matched to
    parcels (`matched`), those refused and why, those late."""
    return _check(ws, path, kind, received).result


def import_records(ws: Session, path: Path, kind: str, *, received: date | None = None,
                   skip_bad: bool = False) -> IntakeResult:
    """Take in a provider's file (see the module's docstring). Raises IntakeRefused, with
    nothing stored, when a row is refused and `skip_bad` is not given (or no row is good)."""
    checked = _check(ws, path, kind, received)
    result = checked.result
    if result.already_imported:
        return result
    if result.refused and (not skip_bad or not (result.imported or result.already_on_record)):
        n = len(result.refused)
        said = f"{path}: {n} row{'s' if n != 1 else ''} refused (listed); nothing was imported"
        raise IntakeRefused(
            said + ("" if skip_bad else "; correct them, or give --skip-bad to import the "
                    "others") + ".", replace(result, imported=0, late=[]).as_json(),
            in_app=said + ("" if skip_bad else "; correct them, or tick \"Import the good "
                           "rows\" to import the others") + ".")
    _store(ws, path, checked.raw, kind, checked.day, checked.cases, result)
    return result


def _store(ws: Session, path: Path, raw: bytes, kind: str, day: date,
           cases: dict[str, tuple[Case, Case]], result: IntakeResult) -> None:
    today = ws.today()
    kept: Path | None = None
    try:
        with ws.store.transaction() as w:
            for parcel_id, (before, after) in cases.items():
                if after != before:
                    save_case(w, after, today=today)
                    follow_after_save(ws, w, parcel_id, today)
            stored.record_document(w, {
                "sha256": result.document, "kind": kind, "filename": path.name,
                "media_type": ("application/vnd.openxmlformats-officedocument."
                               "spreadsheetml.sheet" if path.suffix.lower() == ".xlsx"
                               else "text/csv"),
                "size_bytes": len(raw), "received_on": day.isoformat(),
                "imported_at": w.now, "imported_by": ws.user,
                "records": result.imported, "refused": len(result.refused)})
            kept = ws.keep_file(result.document, raw, w)
    except BaseException:
        if kept is not None:
            kept.unlink(missing_ok=True)
        raise
    result.stored = True


def received_documents(ws: Session) -> list[dict[str, Any]]:
    return stored.all_documents(ws.store.conn)

