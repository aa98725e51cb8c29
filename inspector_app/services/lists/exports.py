"""The period's inspections exported: one row per inspection as CSV or Excel (.xlsx), or
the systems inspected as GIS layers in a GeoPackage (`gis_export`); the format is the one
asked for, else the file's ending (docs/reports.md)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...errors import Cancelled, InputError
from ...storage import letters as letter_rows
from .program_report import Progress, period_results

if TYPE_CHECKING:
    from ..session.session import Session

EXPORT_COLUMNS = ("sbl", "municipality", "site_address", "date", "reason", "inspector",
                  "outcome", "lake_zone", "lake_distance_ft", "lake_distance_source",
                  "violations", "failed_components", "substandard_components",
                  "letters_called_for", "letters_issued")


def export_rows(ws: Session, start: date, end: date, *,
                municipalities: Sequence[str] | None = None, as_of: date | None = None,
                progress: Progress | None = None,
                cancelled: Callable[[], bool] = lambda: False) -> list[list[Any]]:
    """One row per inspection in the period (columns `EXPORT_COLUMNS`), by date then SBL.
    `letters_issued`: the parcel's issued letters dated from the inspection up to its next
    inspection."""
    results = period_results(ws, start, end, municipalities=municipalities, as_of=as_of,
                             progress=progress, cancelled=cancelled)
    issued: dict[str, list[tuple[str, str]]] = {}
    for row in letter_rows.issued_dates(ws.store.conn):
        issued.setdefault(row["parcel_id"], []).append((row["letter_date"], row["kind"]))
    following: dict[str, str] = {}
    rows = []
    for r in reversed(results):  # newest first, so each knows the parcel's next inspection
        upto = following.get(r.parcel_id)
        following[r.parcel_id] = r.date.isoformat()
        if not start <= r.date <= end:
            continue
        letters = [f"{kind} {day}" for day, kind in issued.get(r.parcel_id, [])
                   if day >= r.date.isoformat() and (upto is None or day < upto)]
        rows.append([r.sbl, r.municipality, r.site_address, r.date, r.reason,
                     r.inspector, r.outcome or "not_judged", r.zone or "not_judged",
                     r.distance_ft, r.distance_source or "",
                     "; ".join(f"{code} ({cite})" for code, cite in r.violations),
                     "; ".join(r.failed_components), "; ".join(r.substandard_components),
                     "; ".join(r.letters_called_for), "; ".join(letters)])
    rows.reverse()
    return rows


# The export's formats and the ending of each one's file.
EXPORT_FORMATS = {"csv": ".csv", "xlsx": ".xlsx", "gpkg": ".gpkg"}


def export_format(path: Path, given: str | None = None) -> str:
    """The format of an export to `path`: `given`, else its file's ending; InputError for
    an ending that is none of the formats', or one that contradicts `given`."""
    suffix = path.suffix.lower()
    by_suffix = {v: k for k, v in EXPORT_FORMATS.items()}.get(suffix)
    if given is not None and given not in EXPORT_FORMATS:
        raise InputError(f"--format {given!r} is not one of the export's formats: "
                         f"{', '.join(EXPORT_FORMATS)}.")
    if by_suffix is None:
        endings = list(EXPORT_FORMATS.values())
        raise InputError(f"The export file {path} must end in {', '.join(endings[:-1])} or "
                         f"{endings[-1]} (the ending decides the format).")
    if given is not None and given != by_suffix:
        raise InputError(f"--format {given} contradicts the file {path}, whose ending "
                         f"{suffix} is the {by_suffix} format's; give a file ending in "
                         f"{EXPORT_FORMATS[given]}.")
    return by_suffix


def export_inspections(ws: Session, start: date, end: date, path: Path, *,
                       format: str | None = None, public: bool = False,
                       municipalities: Sequence[str] | None = None,
                       as_of: date | None = None, progress: Progress | None = None,
                       cancelled: Callable[[], bool] = lambda: False) -> dict[str, Any]:
    """Write the period's inspections to FILE.csv or FILE.xlsx (one row per inspection)
    or to FILE.gpkg (GIS layers, `gis_export`), by `format` or else the file's ending.
    `public`: a GeoPackage without the owner's and renters' data (a spreadsheet holds
    none)."""
    chosen = export_format(path, format)
    if chosen != "gpkg":
        return _write_spreadsheet(ws, start, end, path, municipalities=municipalities,
                                  as_of=as_of, progress=progress, cancelled=cancelled)
    from ...geo.crs import MEASURE_CRS
    from ...paths import write_atomically
    from .gis_export import write_gpkg

    stopped = Cancelled("The export was cancelled; no file was written.")
    try:
        results = period_results(ws, start, end, municipalities=municipalities,
                                 as_of=as_of, progress=progress, cancelled=cancelled)
        in_period = [r for r in results if start <= r.date <= end]
        data, counts = write_gpkg(ws, in_period, public=public, cancelled=cancelled)
    except Cancelled:
        raise stopped from None
    if cancelled():
        raise stopped
    write_atomically(path, data)
    return {"path": str(path), "format": chosen, "inspections": len(in_period),
            "public": public, "crs": MEASURE_CRS, "layers": counts}


def _write_spreadsheet(ws: Session, start: date, end: date, path: Path, *,
                       municipalities: Sequence[str] | None = None,
                       as_of: date | None = None, progress: Progress | None = None,
                       cancelled: Callable[[], bool] = lambda: False) -> dict[str, Any]:
    """Write the period's inspections to FILE.csv or FILE.xlsx (by its suffix)."""
    from ...documents.spreadsheet import check_suffix, write_table

    stopped = Cancelled("The export was cancelled; no file was written.")
    try:
        rows = export_rows(ws, start, end, municipalities=municipalities, as_of=as_of,
                           progress=progress, cancelled=cancelled)
    except Cancelled:
        raise stopped from None
    if cancelled():
        raise stopped
    write_table(path, EXPORT_COLUMNS, rows)
    return {"path": str(path), "format": check_suffix(path).lstrip("."),
            "inspections": len(rows), "columns": list(EXPORT_COLUMNS)}
