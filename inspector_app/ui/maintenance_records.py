"""The form's record lists typed one per line: renters, field tests, ETU inspections and
pump-outs. Each is written out as text for its field and read back from it; a line that
cannot be read raises ValueError naming the line and how it must read."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import date
from typing import TypeVar

from ..domain.case import EtuInspection, FieldTest, PumpOut, Renter
from ..domain.vocabulary import TestKind, TestResult
from .form_fields import iso, lines

T = TypeVar("T")


def _g(value: float | None) -> str:
    return "" if value is None else f"{value:g}"


def renters_text(renters: Iterable[Renter]) -> str:
    return "\n".join(" | ".join((r.name, *r.mailing_address)) for r in renters)


def read_renters(text: str) -> tuple[Renter, ...]:
    """One renter per line: name | address line | address line."""
    return tuple(Renter(name=parts[0], mailing_address=tuple(parts[1:]))
                 for parts in ([x.strip() for x in line.split("|") if x.strip()]
                               for line in lines(text))
                 if parts)


def tests_text(tests: Iterable[FieldTest]) -> str:
    return "\n".join(f"{t.kind.value}, {t.result.value}, {_g(t.volume_gal)}, "
                     f"{_g(t.duration_min)}" for t in tests)


def read_tests(text: str, shown: Sequence[FieldTest] = ()) -> tuple[FieldTest, ...]:
    """One test per line: kind, result, gallons, minutes. `shown`: the tests as loaded; a
    line of the same kind in the same place keeps what a line does not show (its note,
    times and observations)."""
    tests = []
    for n, line in enumerate(lines(text), start=1):
        parts = [x.strip() for x in line.split(",")] + ["", "", "", ""]
        try:
            typed = FieldTest(kind=TestKind(parts[0]), result=TestResult(parts[1]),
                              volume_gal=float(parts[2]) if parts[2] else None,
                              duration_min=float(parts[3]) if parts[3] else None)
        except ValueError:
            raise ValueError(f"Tests, line {n} ({line!r}) must read: dye or "
                             "hydraulic_load, pass/fail/inconclusive, gallons, minutes"
                             ) from None
        was = shown[n - 1] if n <= len(shown) else None
        tests.append(replace(was, result=typed.result, volume_gal=typed.volume_gal,
                             duration_min=typed.duration_min)
                     if was is not None and was.kind is typed.kind else typed)
    return tuple(tests)


def etu_inspections_text(inspections: Iterable[EtuInspection]) -> str:
    return "\n".join(f"{x.date.isoformat()}, {iso(x.report_received)}" for x in inspections)


def _as_shown(items: Sequence[T], day: date) -> T | None:
    """The first item of that date the form was given (what a line does not show, such as
    a report's provider and document, is kept from it); None if there is none."""
    return next((x for x in items if getattr(x, "date", None) == day), None)


def read_etu_inspections(text: str, shown: Sequence[EtuInspection] = ()
                         ) -> tuple[EtuInspection, ...]:
    """One inspection per line: its date and the report's. `shown`: the inspections as
    loaded, whose other values (provider, unit, contract, document) a line keeps."""
    rows = []
    left = list(shown)
    for n, line in enumerate(lines(text), start=1):
        parts = [x.strip() for x in line.split(",")] + [""]
        try:
            day = date.fromisoformat(parts[0])
            received = date.fromisoformat(parts[1]) if parts[1] else None
        except ValueError:
            raise ValueError(f"ETU inspections, line {n} ({line!r}) must read: "
                             "YYYY-MM-DD, YYYY-MM-DD (or blank)") from None
        was = _as_shown(left, day)
        if was is not None:
            left.remove(was)
        rows.append(EtuInspection(date=day, report_received=received) if was is None
                    else replace(was, report_received=received))
    return tuple(rows)


def pump_outs_text(pump_outs: Iterable[PumpOut]) -> str:
    return "\n".join(f"{x.date.isoformat()}, {'yes' if x.record_received else 'no'}"
                     for x in pump_outs)


def read_pump_outs(text: str, shown: Sequence[PumpOut] = ()) -> tuple[PumpOut, ...]:
    """One pump-out per line: its date and whether its record was received. `shown`: the
    pump-outs as loaded, whose other values (gallons, hauler, document) a line keeps."""
    rows = []
    left = list(shown)
    for n, line in enumerate(lines(text), start=1):
        parts = [x.strip() for x in line.split(",")] + [""]
        try:
            day = date.fromisoformat(parts[0])
        except ValueError:
            raise ValueError(f"Pump-outs, line {n} ({line!r}) must read: YYYY-MM-DD, "
                             "yes/no") from None
        received = parts[1].lower() in ("yes", "y", "true")
        was = _as_shown(left, day)
        if was is not None:
            left.remove(was)
        rows.append(PumpOut(date=day, record_received=received) if was is None
                    else replace(was, record_received=received,
                                 record_received_on=was.record_received_on if received
                                 else None))
    return tuple(rows)
