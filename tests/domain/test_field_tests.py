"""Dye and hydraulic-load tests: the volume preset worked out by hand from the bundled
jurisdiction file, and the warning for a test within its days after a pump-out."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta

import pytest

from inspector_app.domain import field_tests as ft
from inspector_app.domain.case import FieldTest, HoldingTankService, PumpOut
from inspector_app.domain.jurisdiction import JurisdictionError, parse_jurisdiction
from inspector_app.domain.rules import evaluate
from inspector_app.domain.vocabulary import TestKind as Kind
from inspector_app.domain.vocabulary import TestResult as Result
from inspector_app.paths import resource

from .builders import AS_OF, case, component, jurisdiction

BUNDLED = resource("jurisdictions", "town-of-canandaigua-ch202.toml").read_text("utf-8")
TESTED = date(2026, 11, 18)


def test_the_bundled_file_holds_the_office_s_presets_unconfirmed() -> None:
    j = jurisdiction()
    assert j.test_after_pump_out_days == 30
    assert {"field_tests.after_pump_out_days", "field_tests.dye",
            "field_tests.hydraulic_load"} <= j.unconfirmed_values


@pytest.mark.parametrize(("kind", "bedrooms", "volume", "minutes", "arithmetic"), [
    # Cayuga County: 20 gal per bedroom, at most 100; dosed at 5 gpm
    (Kind.DYE, 4, 80, 16, "4 bedrooms × 20 gal = 80 gal (cap 100); at 5 gpm, 80 gal "
                              "takes 16 min"),
    (Kind.DYE, 5, 100, 20, "5 bedrooms × 20 gal = 100 gal (cap 100); at 5 gpm, 100 gal "
                               "takes 20 min"),
    (Kind.DYE, 6, 100, 20, "6 bedrooms × 20 gal = 120 gal, capped at 100 gal; at 5 gpm, "
                               "100 gal takes 20 min"),
    (Kind.DYE, 1, 20, 4, "1 bedroom × 20 gal = 20 gal (cap 100); at 5 gpm, 20 gal "
                             "takes 4 min"),
    (Kind.DYE, 0, 20, 4, "0 bedrooms (loaded as 1) × 20 gal = 20 gal (cap 100); at 5 "
                             "gpm, 20 gal takes 4 min"),
    # CNY-ASHI's low ends: 50 gal per bedroom at 3 gpm, no cap; 200 / 3 = 66.7 -> 67 min
    (Kind.HYDRAULIC_LOAD, 4, 200, 67, "4 bedrooms × 50 gal = 200 gal; at 3 gpm, 200 gal "
                                          "takes 67 min"),
    (Kind.HYDRAULIC_LOAD, 3, 150, 50, "3 bedrooms × 50 gal = 150 gal; at 3 gpm, 150 gal "
                                          "takes 50 min"),
])
def test_presets_worked_by_hand(kind: Kind, bedrooms: int, volume: float, minutes: float,
                                arithmetic: str) -> None:
    preset = ft.volume_preset(kind, bedrooms, jurisdiction())
    assert preset is not None
    assert (preset.volume_gal, preset.duration_min, preset.arithmetic) == (
        volume, minutes, arithmetic)
    assert preset.unconfirmed


def test_no_preset_without_bedrooms_or_without_the_table() -> None:
    assert ft.volume_preset(Kind.DYE, None, jurisdiction()) is None
    assert ft.volume_preset(Kind.DYE, 3, jurisdiction(test_presets={})) is None


def test_another_office_s_numbers_change_the_preset_without_code() -> None:
    text = BUNDLED.replace("dye = { gal_per_bedroom = 20, max_gal = 100, dosing_gpm = 5 }",
                           "dye = { gal_per_bedroom = 75, max_gal = 250, dosing_gpm = 4 }")
    j = parse_jurisdiction(text, source="other.toml")
    preset = ft.volume_preset(Kind.DYE, 4, j)
    assert preset is not None and (preset.volume_gal, preset.duration_min) == (250, 63)


@pytest.mark.parametrize(("replaced", "by", "message"), [
    ("after_pump_out_days = 30", "after_pump_out_days = -1", "after_pump_out_days is -1"),
    ("hydraulic_load = { gal_per_bedroom = 50, dosing_gpm = 3 }",
     "percolation = { gal_per_bedroom = 50, dosing_gpm = 3 }", "'percolation' is not a kind"),
    ("hydraulic_load = { gal_per_bedroom = 50, dosing_gpm = 3 }",
     "hydraulic_load = { gal_per_bedroom = 50, dosing_gpm = 0 }", "dosing_gpm is 0"),
    ("hydraulic_load = { gal_per_bedroom = 50, dosing_gpm = 3 }",
     "hydraulic_load = { gal_per_bedroom = 50, dosing_gpm = 3, rate = 2 }",
     "unknown key 'rate'"),
])
def test_a_broken_field_tests_table_is_refused(replaced: str, by: str, message: str) -> None:
    assert replaced in BUNDLED
    with pytest.raises(JurisdictionError, match=message):
        parse_jurisdiction(BUNDLED.replace(replaced, by), source="broken.toml")


def _tested_after(days: int, *, holding: bool = True, started: bool = True):
    pumped = TESTED - timedelta(days=days)
    test = FieldTest(kind=Kind.HYDRAULIC_LOAD, result=Result.PASS,
                     started_at=f"{TESTED.isoformat()}T09:30" if started else None)
    c = case()
    assert c.inspection is not None
    inspection = replace(c.inspection, date=TESTED, tests=(test,))
    if holding:
        return replace(c, inspection=inspection, holding_tank_service=HoldingTankService(
            pump_outs=(PumpOut(date=pumped, record_received=True),)))
    return replace(c, inspection=inspection, components=(
        component("septic_tank", capacity_gal=1250, last_pumped=pumped),
        component("absorption_area")))


@pytest.mark.parametrize(("days", "warned"), [(0, True), (8, True), (29, True), (30, True),
                                              (31, False), (-1, False)])
def test_the_warning_at_the_edges_of_30_days(days: int, warned: bool) -> None:
    found = ft.test_warnings(_tested_after(days), jurisdiction())
    assert bool(found) is warned
    if warned:
        assert found[0].days == days
        assert found[0].pumped_on == TESTED - timedelta(days=days)


def test_the_warning_reads_as_the_report_prints_it() -> None:
    (w,) = ft.test_warnings(_tested_after(8), jurisdiction())
    assert w.text == ("a hydraulic test within 30 days after a pump-out proves little: the "
                      "holding tank was pumped 2026-11-10, 8 days before")
    assert w.unconfirmed


@pytest.mark.parametrize("days", [29, 30, 31])
def test_a_septic_tank_s_last_pumped_counts_too(days: int) -> None:
    found = ft.test_warnings(_tested_after(days, holding=False), jurisdiction())
    assert [w.pumped for w in found] == (["the septic tank"] if days <= 30 else [])


def test_a_test_without_a_start_is_dated_by_its_inspection() -> None:
    assert ft.test_warnings(_tested_after(30, started=False), jurisdiction())
    assert not ft.test_warnings(_tested_after(31, started=False), jurisdiction())


def test_the_window_is_the_file_s() -> None:
    assert not ft.test_warnings(_tested_after(20), jurisdiction(test_after_pump_out_days=14))
    assert ft.test_warnings(_tested_after(14), jurisdiction(test_after_pump_out_days=14))


def test_evaluate_carries_the_warnings_and_the_presets() -> None:
    e = evaluate(_tested_after(8), jurisdiction(), as_of=AS_OF)
    assert [w.days for w in e.test_warnings] == [8]
    assert {p.kind: p.volume_gal for p in e.test_presets} == {
        Kind.DYE: 60, Kind.HYDRAULIC_LOAD: 150}
