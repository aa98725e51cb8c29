"""The program report's figures of the records sent in from outside the office (§ 202-8):
ETU service reports and pump-out records received in the period, those late, units reported
not fully functional, and service contracts lapsed at the period's end."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, timedelta
from typing import TYPE_CHECKING, Any

from ...domain.rules import contract_report
from ...storage import providers as stored
from ...storage.cases import stored_date
from .etu_reports import parcels_reports

if TYPE_CHECKING:
    from ..session.session import Session

KEYS = ("etu_reports_received", "etu_reports_late", "etu_reported_not_functional",
        "etu_contracts_lapsed_at_end", "pump_out_records_received",
        "pump_out_records_late")


def _in(day: date | None, start: date, end: date) -> bool:
    return day is not None and start <= day <= end


def received_figures(ws: Session, parcel_ids: Iterable[str], start: date, end: date,
                     *, total: str) -> dict[str, dict[str, int]]:
    """The figures by municipality and for all (`total`), counting only the parcels
    given. A report or record counts where its received date falls in the period (one
    typed with no date received is not counted); late is past the days the parcel's law
    allows after the service (or pump-out)."""
    chosen = set(parcel_ids)
    out: dict[str, dict[str, int]] = {}

    def add(municipality: str, key: str) -> None:
        for group in (municipality, total):
            out.setdefault(group, dict.fromkeys(KEYS, 0))[key] += 1

    for parcel, reports in parcels_reports(ws, chosen):
        town = parcel["municipality"]
        law = ws.laws.for_municipality(town)
        if law is None:
            continue
        for i in reports:
            if _in(i.report_received, start, end):
                add(town, "etu_reports_received")
                assert i.report_received is not None
                if i.report_received > i.date + timedelta(days=law.etu_report_within_days):
                    add(town, "etu_reports_late")
            if _in(i.date, start, end) and i.fully_functional is False:
                add(town, "etu_reported_not_functional")
        stated = contract_report(reports, end)
        if stated is not None and stated.service_contract_through is not None and \
                stated.service_contract_through < end:
            add(town, "etu_contracts_lapsed_at_end")
    for r in stored.pump_out_records(ws.store.conn):
        if r["parcel_id"] not in chosen:
            continue
        law = ws.laws.for_municipality(r["municipality"])
        received = stored_date(r["record_received_on"])
        if law is None or not _in(received, start, end) or not r["record_received"]:
            continue
        assert received is not None
        add(r["municipality"], "pump_out_records_received")
        day = stored_date(r["date"])
        assert day is not None
        if received > day + timedelta(days=law.holding_tank_record_within_days):
            add(r["municipality"], "pump_out_records_late")
    return out


def no_figures() -> dict[str, Any]:
    return dict.fromkeys(KEYS, 0)
