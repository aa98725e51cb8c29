"""Work lists read from the ETU service reports on record (§ 202-8 A): units the latest
report did not certify fully functional, and service contracts about to end. Each parcel's
reports are judged by the same rules as its evaluation (`rules.not_certified`,
`rules.contract_report`)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, timedelta
from itertools import groupby
from typing import TYPE_CHECKING, Any

from ...domain.case import EtuInspection
from ...domain.rules import contract_report, not_certified
from ...domain.sbl import sbl_sort_key
from ...storage import providers as stored
from ...storage.mapping import from_row

if TYPE_CHECKING:
    from ..session.session import Session


def parcels_reports(ws: Session, parcel_ids: set[str] | None = None
                    ) -> Iterator[tuple[dict[str, Any], list[EtuInspection]]]:
    """Each parcel's row (SBL, address, owner, municipality) and its ETU inspections as
    reported, in the order on record (of the parcels given, or all)."""
    rows = stored.service_reports(ws.store.conn)
    for parcel_id, found in groupby(rows, key=lambda r: r["parcel_id"]):
        if parcel_ids is None or parcel_id in parcel_ids:
            mine = list(found)
            yield mine[0], [from_row("etu_reports", r) for r in mine]


def _item(parcel: dict[str, Any], i: EtuInspection, **extra: Any) -> dict[str, Any]:
    return {"sbl": parcel["sbl"], "site_address": parcel["site_address"],
            "owner_name": parcel["owner_name"], "service_date": i.date.isoformat(),
            "report_received": i.report_received.isoformat() if i.report_received else None,
            "provider": i.provider_name, "certification_number": i.provider_number,
            "unit": i.unit, "document": i.document, **extra}


def not_functional(ws: Session, as_of: date) -> list[dict[str, Any]]:
    """Units whose latest report says they are not fully functional: a follow-up until a
    later report certifies them."""
    items = []
    for parcel, reports in parcels_reports(ws):
        last = not_certified(reports, as_of)
        if last is not None:
            items.append(_item(parcel, last, days_since=(as_of - last.date).days))
    return sorted(items, key=lambda i: sbl_sort_key(i["sbl"]))


def contracts_expiring(ws: Session, as_of: date) -> list[dict[str, Any]]:
    """Service contracts that, as the latest report stating one says, end within the days
    the parcel's law sets (`[etu] contracts_expiring_within_days`), soonest first; one
    already ended is a violation (`etu_no_service_contract`), listed with the ETU reports."""
    items = []
    for parcel, reports in parcels_reports(ws):
        stated = contract_report(reports, as_of)
        law = ws.laws.for_municipality(parcel["municipality"])
        if stated is None or stated.service_contract_through is None or law is None:
            continue
        through, ahead = stated.service_contract_through, law.etu_contracts_expiring_within_days
        if as_of <= through <= as_of + timedelta(days=ahead):
            items.append(_item(parcel, stated, contract_through=through.isoformat(),
                               days_left=(through - as_of).days, within_days=ahead))
    return sorted(items, key=lambda i: (i["contract_through"], sbl_sort_key(i["sbl"])))
