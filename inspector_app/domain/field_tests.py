"""Dye and hydraulic-load tests: the volume a test introduces, worked out from the
jurisdiction file and the dwelling, and the warning that a test soon after a pump-out
proves little. Pure functions of a case and a `Jurisdiction`; Chapter 202 sets neither, so
every number comes from the file's [field_tests] (unconfirmed until the Town adopts it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date, datetime

from .case import Case, FieldTest
from .jurisdiction import Jurisdiction
from .units import plain_number
from .vocabulary import ComponentKind, TestKind

KIND_WORDS = {TestKind.DYE: "dye test", TestKind.HYDRAULIC_LOAD: "hydraulic-load test"}


@dataclass(frozen=True, kw_only=True)
class VolumePreset:
    """The water a test of one kind introduces at a dwelling, with its arithmetic."""

    kind: TestKind
    bedrooms: int
    volume_gal: float
    duration_min: float
    arithmetic: str
    unconfirmed: bool


def _number(value: float) -> str:
    return f"{plain_number(value):,}"


def volume_preset(kind: TestKind, bedrooms: int | None, j: Jurisdiction
                  ) -> VolumePreset | None:
    """The file's preset for a test of `kind` at a dwelling of `bedrooms` (None: not
    recorded, or no preset for that kind): gallons per bedroom, at most the cap, at the
    dosing rate. A dwelling of no bedrooms is loaded as one."""
    rule = j.test_presets.get(kind)
    if rule is None or bedrooms is None:
        return None
    counted = max(bedrooms, 1)
    raw = counted * rule.gal_per_bedroom
    volume = min(raw, rule.max_gal) if rule.max_gal is not None else raw
    duration = math.ceil(volume / rule.dosing_gpm)  # whole minutes, never short
    named = f"{bedrooms} bedroom{'' if bedrooms == 1 else 's'}"
    if counted != bedrooms:
        named += f" (loaded as {counted})"
    text = f"{named} × {_number(rule.gal_per_bedroom)} gal = {_number(raw)} gal"
    if rule.max_gal is not None:
        text += (f" (cap {_number(rule.max_gal)})" if raw <= rule.max_gal
                 else f", capped at {_number(rule.max_gal)} gal")
    text += (f"; at {_number(rule.dosing_gpm)} gpm, {_number(volume)} gal takes "
             f"{_number(duration)} min")
    return VolumePreset(kind=kind, bedrooms=bedrooms, volume_gal=plain_number(volume),
                        duration_min=plain_number(duration), arithmetic=text,
                        unconfirmed=f"field_tests.{kind.value}" in j.unconfirmed_values)


@dataclass(frozen=True, kw_only=True)
class TestWarning:
    """A test made within the file's days after a recorded pump-out."""

    test: int              # the test's place in the inspection's list, from 0
    kind: TestKind
    tested_on: date
    pumped_on: date
    days: int              # from the pump-out to the test
    pumped: str            # what was pumped, as recorded
    text: str
    unconfirmed: bool      # the number of days is not confirmed law


def test_day(test: FieldTest, case: Case) -> date | None:
    """The day of a test: its start, else the inspection's date."""
    if test.started_at is not None:
        return datetime.fromisoformat(test.started_at).date()
    return case.inspection.date if case.inspection is not None else None


def pump_outs(case: Case) -> tuple[tuple[date, str], ...]:
    """Every recorded pump-out: the holding tank's, and a septic tank's "last pumped"."""
    found: list[tuple[date, str]] = []
    if case.holding_tank_service is not None:
        found += [(p.date, "the holding tank") for p in case.holding_tank_service.pump_outs]
    for c in case.components:
        pumped = c.details.get("last_pumped")
        if c.kind is ComponentKind.SEPTIC_TANK and isinstance(pumped, date):
            found.append((pumped, "the septic tank"))
    return tuple(sorted(found))


def test_warnings(case: Case, j: Jurisdiction) -> tuple[TestWarning, ...]:
    """Each test of the case's inspection made within `test_after_pump_out_days` after a
    recorded pump-out (on the day itself included), with the latest such pump-out."""
    if case.inspection is None or j.test_after_pump_out_days <= 0:
        return ()
    window = j.test_after_pump_out_days
    pumped = pump_outs(case)
    out = []
    for n, test in enumerate(case.inspection.tests):
        day = test_day(test, case)
        if day is None:
            continue
        before = [(d, what) for d, what in pumped if 0 <= (day - d).days <= window]
        if not before:
            continue
        on, what = before[-1]
        days = (day - on).days
        ago = "the same day" if days == 0 else f"{days} day{'' if days == 1 else 's'} before"
        text = (f"a {KIND_WORDS[test.kind].replace('-load', '')} within {window} days after "
                f"a pump-out proves little: {what} was pumped {on.isoformat()}, {ago}")
        out.append(TestWarning(test=n, kind=test.kind, tested_on=day, pumped_on=on,
                               days=days, pumped=what, text=text,
                               unconfirmed="field_tests.after_pump_out_days"
                               in j.unconfirmed_values))
    return tuple(out)
