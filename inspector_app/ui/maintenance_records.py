"""The form's record lists typed one per line: renters, field tests, ETU inspections and
pump-outs. Each is written out as text for its field and read back from it; a line that
cannot be read raises ValueError naming the line and how it must read."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date

from ..domain.case import EtuInspection, FieldTest, PumpOut, Renter
from ..domain.vocabulary import TestKind, TestResult
from .form_fields import iso, lines


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


def read_tests(text: str) -> tuple[FieldTest, ...]:
    tests = []
    for n, line in enumerate(lines(text), start=1):
        parts = [x.strip() for x in line.split(",")] + ["", "", "", ""]
        try:
            tests.append(FieldTest(kind=TestKind(parts[0]), result=TestResult(parts[1]),
                                   volume_gal=float(parts[2]) if parts[2] else None,
                                   duration_min=float(parts[3]) if parts[3] else None))
        except ValueError:
            raise ValueError(f"Tests, line {n} ({line!r}) must read: dye or "
                             "hydraulic_load, pass/fail/inconclusive, gallons, minutes"
                             ) from None
    return tuple(tests)


def etu_inspections_text(inspections: Iterable[EtuInspection]) -> str:
    return "\n".join(f"{x.date.isoformat()}, {iso(x.report_received)}" for x in inspections)


def read_etu_inspections(text: str) -> tuple[EtuInspection, ...]:
    rows = []
    for n, line in enumerate(lines(text), start=1):
        parts = [x.strip() for x in line.split(",")] + [""]
        try:
            rows.append(EtuInspection(date=date.fromisoformat(parts[0]),
                                      report_received=date.fromisoformat(parts[1])
                                      if parts[1] else None))
        except ValueError:
            raise ValueError(f"ETU inspections, line {n} ({line!r}) must read: "
                             "YYYY-MM-DD, YYYY-MM-DD (or blank)") from None
    return tuple(rows)


def pump_outs_text(pump_outs: Iterable[PumpOut]) -> str:
    return "\n".join(f"{x.date.isoformat()}, {'yes' if x.record_received else 'no'}"
                     for x in pump_outs)


def read_pump_outs(text: str) -> tuple[PumpOut, ...]:
    rows = []
    for n, line in enumerate(lines(text), start=1):
        parts = [x.strip() for x in line.split(",")] + [""]
        try:
            rows.append(PumpOut(date=date.fromisoformat(parts[0]),
                                record_received=parts[1].lower() in ("yes", "y", "true")))
        except ValueError:
            raise ValueError(f"Pump-outs, line {n} ({line!r}) must read: YYYY-MM-DD, "
                             "yes/no") from None
    return tuple(rows)
