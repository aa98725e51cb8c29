"""Work lists read from the ETU service reports on record (§ 202-8 A): units the latest
report did not certify fully functional, and service contracts about to end."""

from __future__ import annotations

from datetime import date, timedelta
from itertools import groupby
from typing import TYPE_CHECKING, Any

from ...domain.sbl import sbl_sort_key
from ...storage import providers as stored
from ...storage.cases import stored_date

if TYPE_CHECKING:
    from ..session.session import Session


def _latest(ws: Session, as_of: date) -> list[list[dict[str, Any]]]:
    """Each parcel's reports of inspections on or before the date, latest first."""
    out = []
    reports = [r for r in stored.service_reports(ws.store.conn)
               if (stored_date(r["inspection_date"]) or date.max) <= as_of]
    for _, found in groupby(reports, key=lambda r: r["parcel_id"]):
        out.append(list(found))
    return out


def _item(r: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"sbl": r["sbl"], "site_address": r["site_address"], "owner_name": r["owner_name"],
            "service_date": r["inspection_date"], "report_received": r["report_received"],
            "provider": r["provider_name"], "certification_number": r["provider_number"],
            "unit": r["unit"], "document": r["document"], **extra}


def not_functional(ws: Session, as_of: date) -> list[dict[str, Any]]:
    """Units whose latest report says they are not fully functional: a follow-up until a
    later report certifies them."""
    items = []
    for reports in _latest(ws, as_of):
        stated = [r for r in reports if r["fully_functional"] is not None]
        if stated and not stated[0]["fully_functional"]:
            items.append(_item(stated[0], days_since=(
                as_of - (stored_date(stated[0]["inspection_date"]) or as_of)).days))
    return sorted(items, key=lambda i: sbl_sort_key(i["sbl"]))


def contracts_expiring(ws: Session, as_of: date) -> list[dict[str, Any]]:
    """Service contracts that, as the latest report stating one says, end within the days
    the parcel's law sets (`[etu] contracts_expiring_within_days`), soonest first; one
    already ended is a violation (`etu_no_service_contract`), listed with the ETU reports."""
    items = []
    for reports in _latest(ws, as_of):
        stated = [r for r in reports if r["service_contract_through"]]
        if not stated:
            continue
        law = ws.laws.for_municipality(reports[0]["municipality"])
        if law is None:
            continue
        through = stored_date(stated[0]["service_contract_through"])
        assert through is not None
        if as_of <= through <= as_of + timedelta(days=law.etu_contracts_expiring_within_days):
            items.append(_item(stated[0], contract_through=through.isoformat(),
                               days_left=(through - as_of).days,
                               within_days=law.etu_contracts_expiring_within_days))
    return sorted(items, key=lambda i: (i["contract_through"], sbl_sort_key(i["sbl"])))
