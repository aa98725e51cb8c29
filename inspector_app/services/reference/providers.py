"""The providers the office knows: ETU representatives (certification), septage haulers
(NYSDEC permit) and private certified inspectors (certification). A record that names a
provider is checked here, whichever way it arrives (`provider_problem`)."""

from __future__ import annotations

from datetime import date
from typing import Any

from ...casefile.values import value_problem
from ...domain.case import Case
from ...domain.records import PROVIDER_KINDS
from ...errors import InputError
from ...storage import providers as stored
from ..session.session import FIELD, Session

# What each kind's number is, in words.
NUMBER_WORDS = {"etu-representative": "ETU representative's certification",
                "hauler": "hauler's NYSDEC permit",
                "inspector": "inspector's certification"}


def _office(ws: Session, doing: str) -> None:
    if ws.role == FIELD:
        raise InputError(f"This data folder is a field laptop; {doing} at the office.")


def _checked(values: dict[str, Any]) -> dict[str, Any]:
    words = {"name": "--name", "number": "--number", "company": "--company",
             "valid_through": "--valid-through"}
    out = {}
    for key, value in values.items():
        if isinstance(value, str):
            value = value.strip() or None
        if isinstance(value, date):
            value = value.isoformat()
        problem = value_problem("providers", key, value, words.get(key, key))
        if problem is not None:
            raise InputError(f"providers: {problem}; nothing was changed.")
        out[key] = value
    return out


def _shown(row: dict[str, Any], today: date) -> dict[str, Any]:
    through = row["valid_through"]
    return {"kind": row["kind"], "name": row["name"], "number": row["number"],
            "company": row["company"], "valid_through": through,
            "valid": through is None or through >= today.isoformat(),
            "added": row["created_at"], "changed": row["updated_at"]}


def add_provider(ws: Session, *, kind: str, name: str, number: str,
                 company: str | None = None, valid_through: date | None = None
                 ) -> dict[str, Any]:
    _office(ws, "providers are registered")
    if kind not in PROVIDER_KINDS:
        raise InputError(f"providers add: --kind {kind!r} is not one of "
                         f"{', '.join(PROVIDER_KINDS)}.")
    values = _checked({"kind": kind, "name": name, "number": number, "company": company,
                       "valid_through": valid_through})
    with ws.store.transaction() as w:
        known = stored.by_number(w.conn, kind, values["number"])
        if known is not None:
            raise InputError(
                f"A {kind} with number {known['number']} is already registered "
                f"({known['name']}); change it with `providers set --kind {kind} --number "
                f"{known['number']} ...`. Nothing was changed.")
        stored.add(w, {k: v for k, v in values.items() if v is not None})
    found = stored.by_number(ws.store.conn, kind, values["number"])
    assert found is not None
    return _shown(found, ws.today())


def set_provider(ws: Session, *, kind: str, number: str, name: str | None = None,
                 company: str | None = None, valid_through: date | None = None
                 ) -> dict[str, Any]:
    """Change a provider's name, company or date of validity (a renewed certification); the
    change log keeps what it was."""
    _office(ws, "providers are changed")
    given = {k: v for k, v in (("name", name), ("company", company),
                               ("valid_through", valid_through)) if v is not None}
    if not given:
        raise InputError("providers set: give --name, --company or --valid-through to "
                         "change; nothing was changed.")
    values = _checked(given)
    with ws.store.transaction() as w:
        known = stored.by_number(w.conn, kind, number)
        if known is None:
            raise InputError(f"No {kind} with number {number.strip()!r} is registered; "
                             "`providers list` lists them. Nothing was changed.")
        stored.change(w, known["id"], values)
    found = stored.by_number(ws.store.conn, kind, number)
    assert found is not None
    return _shown(found, ws.today())


def list_providers(ws: Session, kind: str | None = None) -> list[dict[str, Any]]:
    today = ws.today()
    return [_shown(r, today) for r in stored.listed(ws.store.conn, kind)]


def provider_problem(conn: Any, kind: str, number: str, on: date
                     ) -> tuple[dict[str, Any] | None, str | None]:
    """The provider a record names by its number, and why the record is refused (None if
    it is not): a number the office does not know as this kind's, or a certification or
    permit no longer valid on the record's date."""
    words = NUMBER_WORDS[kind]
    if not number.strip():
        return None, f"the {words} is empty"
    found = stored.by_number(conn, kind, number.strip())
    if found is None:
        return None, (f"{words} {number.strip()!r} is not registered with the office "
                      f"(`providers add --kind {kind} ...`)")
    through = found["valid_through"]
    if through is not None and through < on.isoformat():
        return found, (f"the {words} {found['number']} ({found['name']}) was valid "
                       f"through {through}, before {on.isoformat()}")
    return found, None


def named_provider_problem(conn: Any, before: Case | None, after: Case) -> str | None:
    """Why an edit (a case file, the form) is refused for the providers its new or changed
    ETU reports and pump-outs name (None if it is not): the same check as a provider's
    file, so that no door lets in a number the office does not know or one no longer
    valid on the record's date."""
    def named(case: Case | None) -> set[tuple[str, str, date]]:
        out: set[tuple[str, str, date]] = set()
        if case is not None and case.etu is not None:
            out |= {("etu-representative", i.provider_number, i.date)
                    for i in case.etu.inspections if i.provider_number}
        if case is not None and case.holding_tank_service is not None:
            out |= {("hauler", p.hauler_permit, p.date)
                    for p in case.holding_tank_service.pump_outs if p.hauler_permit}
        return out

    for kind, number, day in sorted(named(after) - named(before)):
        _, problem = provider_problem(conn, kind, number, day)
        if problem is not None:
            return problem
    return None
