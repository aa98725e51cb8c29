"""One row per parcel with what the work lists filter on, computed as of a date."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import TYPE_CHECKING, Any

from ..domain.rules import Evaluation, Outcome, Zone, next_inspection_due
from ..domain.sbl import sbl_sort_key

if TYPE_CHECKING:
    from .evaluation import NoLawFacts
    from .workspace import Workspace


def _no_law_row(r: dict[str, Any], found: Any) -> dict[str, Any]:
    facts: NoLawFacts = found
    return {"sbl": r["sbl"], "site_address": r["site_address"], "owner_name": r["owner_name"],
            "municipality": r["municipality"], "is_demo": bool(r["is_demo"]),
            "outcome": "no_law_on_file", "zone": "not judged",
            "distance_ft": facts.lake_distance_ft, "due": None, "message": facts.sentence,
            "flags": {"conflicts": bool(r["conflicts"]), "no_law": True}}



def overview(ws: Workspace, *, as_of: date,
             progress: Callable[[int, int], None] | None = None,
             cancelled: Callable[[], bool] = lambda: False,
             sbls: list[str] | None = None) -> list[dict[str, Any]]:
    """Rows for every parcel, or for the SBLs given (so a caller can work in chunks).

    The cases are read with one query per table and their geometries projected and
    measured together, the active layer read once, as the work lists do."""
    from ..geo.case_shapes import measure_cases, project_cases
    from ..storage.cases import load_cases
    from .shorelines import active_layer

    where, params = "", []
    if sbls is not None:
        where = f" AND p.sbl IN ({','.join('?' * len(sbls)) or 'NULL'})"
        params = list(sbls)
    rows = ws.store.query(
        "SELECT p.id, p.sbl, p.site_address, p.owner_name, p.municipality, p.is_demo,"
        " (SELECT max(date) FROM inspections i WHERE i.parcel_id = p.id AND"
        "  i.deleted_at IS NULL) AS last_inspection,"
        " (SELECT count(*) FROM sync_conflicts c WHERE c.parcel_id = p.id AND"
        "  c.resolved_at IS NULL) AS conflicts"
        " FROM parcels p WHERE p.deleted_at IS NULL" + where, params)
    rows.sort(key=lambda r: sbl_sort_key(r["sbl"]))
    issued = {}
    for r in ws.store.query("SELECT parcel_id, kind, max(letter_date) AS d FROM letters "
                            "WHERE status = 'issued' GROUP BY parcel_id, kind"):
        issued[(r["parcel_id"], r["kind"])] = r["d"]
    cases = load_cases(ws.store.conn, parcel_ids=[r["id"] for r in rows])
    projected = project_cases(cases[r["id"]] for r in rows)
    layer = active_layer(ws)
    if layer is not None:
        measure_cases(projected, layer.lake)
    out = []
    for n, (r, shapes) in enumerate(zip(rows, projected, strict=True), start=1):
        if cancelled():
            break
        case = cases[r["id"]]
        law = ws.laws.for_municipality(case.parcel.municipality)
        found = ws.assess_case(case, as_of=as_of, layer=layer, shapes=shapes)
        if law is None:  # listed, and said so, but judged under no law
            out.append(_no_law_row(r, found))
            if progress is not None and (n % 200 == 0 or n == len(rows)):
                progress(n, len(rows))
            continue
        e = found
        assert isinstance(e, Evaluation)
        last = r["last_inspection"]
        due = next_inspection_due(date.fromisoformat(last), law) if last else None
        codes = {v.code for v in e.violations}
        pending = [k.value for k in e.letters
                   if not issued.get((r["id"], k.value)) or (last and issued[(r["id"], k.value)]
                                                             < last)]
        flags = {
            "five_year": e.lake.zone is Zone.WITHIN and (due is None or (due - as_of).days <=
                                                         law.due_soon_days),
            "within": e.lake.zone is Zone.WITHIN,
            "undetermined": e.lake.zone is Zone.UNDETERMINED,
            "failure": e.outcome is Outcome.FAILURE,
            "substandard": e.outcome is Outcome.SUBSTANDARD,
            "etu": bool(codes & {"etu_no_service_contract", "etu_inspection_overdue",
                                 "etu_report_late"}),
            "holding": bool(codes & {"holding_tank_no_hauler_contract",
                                     "holding_tank_records_missing"}),
            "conflicts": bool(r["conflicts"]),
            "letters": bool(pending),
            "no_law": False,
        }
        out.append({"sbl": r["sbl"], "site_address": r["site_address"],
                    "owner_name": r["owner_name"], "municipality": r["municipality"],
                    "is_demo": bool(r["is_demo"]), "outcome": e.standing,
                    "zone": e.lake.zone.value, "distance_ft": e.lake.distance_ft,
                    "due": None if due is None else due.isoformat(), "flags": flags})
        if progress is not None and (n % 200 == 0 or n == len(rows)):
            progress(n, len(rows))
    return out
