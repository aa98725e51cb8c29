from __future__ import annotations

import random
from dataclasses import replace
from datetime import date, timedelta
from fractions import Fraction

import pytest

from inspector_app.domain.case import (
    AhjDetermination,
    Dwelling,
    EtuInspection,
    EtuService,
    FactorFinding,
    HoldingTankService,
    Observations,
    ProposedWork,
    PumpOut,
    Site,
)
from inspector_app.domain.rules import (
    ComponentDistance,
    LetterKind,
    MapDistance,
    Outcome,
    Separation,
    SuggestionStatus,
    Zone,
    design_load,
    evaluate,
    required_tank_gal,
    zone_for,
)
from inspector_app.domain.vocabulary import ComponentKind, LakeDistanceMethod
from tests.domain.builders import AS_OF, case, component, jurisdiction

J = jurisdiction()


def run(c, **kw):
    return evaluate(c, kw.pop("j", J), as_of=kw.pop("as_of", AS_OF), **kw)


# --- design load: the worked examples and every boundary -------------------------------

def test_worked_example_seven_bedrooms_within_200_ft() -> None:
    d = design_load(bedrooms=7, living_area_sqft=3000, zone=Zone.WITHIN, j=J)
    assert (d.design_bedrooms, d.design_load_gpd, d.standard) == (7, 970, "75-A")
    assert d.arithmetic == "5 × 150 gpd + 2 × 110 gpd = 970 gpd"


def test_worked_example_eight_bedrooms_within_200_ft() -> None:
    d = design_load(bedrooms=8, living_area_sqft=3000, zone=Zone.WITHIN, j=J)
    assert (d.design_load_gpd, d.standard) == (1080, "NYSDEC-intermediate")
    assert "§ 202-6 B" in d.citations


@pytest.mark.parametrize(("living", "expected"), [
    (0, 2), (1200, 2), (1200.5, 3), (1201, 3), (2250, 3), (2251, 4), (3300, 4), (3301, 5),
    (4050, 5)])
def test_floor_area_bands(living: float, expected: int) -> None:
    assert design_load(bedrooms=1, living_area_sqft=living, zone=Zone.BEYOND,
                       j=J).design_bedrooms == expected


def test_never_below_two_bedrooms() -> None:
    d = design_load(bedrooms=0, living_area_sqft=400, zone=Zone.BEYOND, j=J)
    assert (d.design_bedrooms, d.design_load_gpd) == (2, 260)


def test_the_design_bedrooms_say_why_they_differ_from_those_recorded() -> None:
    def why(bedrooms: int, living: float, ahj: int | None = None) -> str:
        return design_load(bedrooms=bedrooms, living_area_sqft=living, zone=Zone.WITHIN, j=J,
                           ahj_design_bedrooms=ahj).why_bedrooms

    assert why(3, 2800) == ("3 bedrooms recorded, counted as 4 for 2,800 sq ft of floor area "
                            "(§ 202-6 C(3))")
    assert why(1, 900) == ("1 bedroom recorded, counted as the minimum design of 2 "
                           "(§ 202-6 C(3)(a))")
    assert why(4, 4300, ahj=6) == ("4 bedrooms recorded, 6 as determined by the authority "
                                   "having jurisdiction (§ 202-6 C(3)(g))")
    assert why(4, 2800) == ""  # the bedrooms recorded


def test_counted_bedrooms_win_over_a_smaller_band() -> None:
    d = design_load(bedrooms=4, living_area_sqft=1100, zone=Zone.BEYOND, j=J)
    assert (d.design_bedrooms, d.basis, d.design_load_gpd) == (4, "counted bedrooms", 520)


@pytest.mark.parametrize(("distance", "zone", "rate"), [
    (0, Zone.WITHIN, 150), (199.99, Zone.WITHIN, 150), (200, Zone.WITHIN, 150),
    (200.01, Zone.BEYOND, 130), (5000, Zone.BEYOND, 130)])
def test_the_200_ft_line_from_a_field_measurement(distance: float, zone: Zone,
                                                  rate: int) -> None:
    e = run(case(lake_ft=distance))
    assert (e.lake.zone, e.lake.source, e.design.gpd_per_bedroom) == (zone, "field", rate)
    assert e.design.provisional is False


def test_undetermined_zone_computes_at_150_and_is_provisional() -> None:
    e = run(case(lake_ft=None))
    assert e.lake.zone is Zone.UNDETERMINED and e.lake.distance_ft is None
    assert (e.design.gpd_per_bedroom, e.design.provisional) == (150, True)
    assert "measure" in e.lake.prompt


@pytest.mark.parametrize(("threshold", "standard"), [(970, "NYSDEC-intermediate"),
                                                     (971, "75-A")])
def test_standard_switches_at_the_threshold_inclusive(threshold: int, standard: str) -> None:
    d = design_load(bedrooms=7, living_area_sqft=3000, zone=Zone.WITHIN,
                    j=jurisdiction(intermediate_threshold_gpd=threshold))
    assert (d.design_load_gpd, d.standard) == (970, standard)


def test_large_house_with_few_bedrooms_needs_the_ahj() -> None:
    e = run(case(bedrooms=4, living=4600))
    assert e.design.ahj_determination_required
    assert e.design.design_bedrooms == 5
    assert "§ 202-6 C(3)(g)" in e.design.citations
    assert any("AHJ must make the final determination" in p for p in e.prompts)
    at_limit = run(case(bedrooms=4, living=4050))
    assert not at_limit.design.ahj_determination_required


def test_an_entered_ahj_determination_is_used() -> None:
    c = case(bedrooms=4, living=4600)
    c = replace(c, dwelling=replace(c.dwelling, ahj_design_bedrooms=7, ahj_design_by="CEO"))
    d = run(c).design
    assert (d.design_bedrooms, d.basis, d.design_load_gpd, d.ahj_determination_required) == (
        7, "ahj", 970, False)


def test_six_counted_bedrooms_in_a_big_house_still_ask_the_ahj() -> None:
    # § 202-6 C(3)(f) adds 110 gpd per additional bedroom, but not how many more bedrooms
    # 5,000 sq ft makes: the counted six are a floor, the AHJ decides (g).
    e = run(case(bedrooms=6, living=5000))
    d = e.design
    assert (d.design_bedrooms, d.design_load_gpd, d.ahj_determination_required) == (
        6, 860, True)
    assert "§ 202-6 C(3)(g)" in d.citations
    assert any("AHJ must make the final determination" in p for p in e.prompts)
    assert not run(case(bedrooms=6, living=4050)).design.ahj_determination_required


# --- lake zone from a map distance ---------------------------------------------------

@pytest.mark.parametrize(("distance", "accuracy", "zone"), [
    (190, 10, Zone.WITHIN), (190, 10.01, Zone.UNDETERMINED), (210, 10, Zone.UNDETERMINED),
    (210.01, 10, Zone.BEYOND), (150, 0, Zone.WITHIN), (200, 0, Zone.WITHIN),
    (200.01, 0, Zone.BEYOND), (400, 1000, Zone.UNDETERMINED)])
def test_zone_accuracy_rule(distance: float, accuracy: float, zone: Zone) -> None:
    assert zone_for(distance, accuracy, 200) is zone


def test_field_measurement_wins_over_the_map() -> None:
    with_area = case(lake_ft=None)
    with_area = replace(with_area, site=Site(
        absorption_area={"type": "Polygon", "coordinates": [[[-77.3, 42.8], [-77.3, 42.81],
                                                             [-77.31, 42.8], [-77.3, 42.8]]]}))
    coarse = MapDistance(distance_ft=450, accuracy_ft=1000, layer_name="Natural Earth",
                         layer_version=1)
    e = run(with_area, map_distance=coarse)
    assert (e.lake.source, e.lake.zone) == ("map", Zone.UNDETERMINED)
    assert "±1,000 ft" in e.lake.prompt and "measure the distance" in e.lake.prompt
    fine = MapDistance(distance_ft=450, accuracy_ft=5, layer_name="LiDAR 689.40", layer_version=2)
    assert run(with_area, map_distance=fine).lake.zone is Zone.BEYOND
    measured = replace(with_area, site=replace(with_area.site, lake_distance_ft=120.0,
                                               lake_distance_method=LakeDistanceMethod.TAPE))
    e = run(measured, map_distance=fine)
    assert (e.lake.source, e.lake.distance_ft, e.lake.zone) == ("field", 120.0, Zone.WITHIN)


# --- triggers ------------------------------------------------------------------------

def _triggers(work: ProposedWork, **kw) -> list[str]:
    return [t.code for t in run(case(proposed_work=work, **kw)).triggers]


def test_each_trigger_and_its_strict_boundary() -> None:
    assert _triggers(ProposedWork(conveyance=True)) == ["conveyance"]
    assert _triggers(ProposedWork(change_of_use=True)) == ["change_of_use"]
    assert _triggers(ProposedWork(bedrooms=4), bedrooms=3) == ["bedroom_increase"]
    assert _triggers(ProposedWork(bedrooms=3), bedrooms=3) == []
    assert _triggers(ProposedWork(living_area_sqft=2250), living=1800) == []  # exactly 25 %
    assert _triggers(ProposedWork(living_area_sqft=2250.01), living=1800) == [
        "floor_area_increase_over_25_percent"]
    assert _triggers(ProposedWork(work_area_sqft=1000), living=1800, building=2000) == []
    assert _triggers(ProposedWork(work_area_sqft=1000.5), living=1800, building=2000) == [
        "work_area_over_50_percent"]
    # without a building area, the living area is the building's aggregate area
    assert _triggers(ProposedWork(work_area_sqft=901), living=1800) == [
        "work_area_over_50_percent"]
    assert all(t.citation.startswith("§ 202-5 B") for t in run(case(proposed_work=ProposedWork(
        conveyance=True, change_of_use=True))).triggers)


def test_proposed_design_is_given_when_the_plan_changes_the_house() -> None:
    e = run(case(bedrooms=3, living=1800, proposed_work=ProposedWork(bedrooms=6)))
    assert e.proposed_design.design_bedrooms == 6
    assert e.proposed_design.design_load_gpd == 860
    assert run(case(proposed_work=ProposedWork(conveyance=True))).proposed_design is None


# --- determination and letters --------------------------------------------------------

def test_outcomes() -> None:
    assert run(case()).outcome is Outcome.ACCEPTABLE
    sub = run(case(components=(component("septic_tank", "substandard"),)))
    assert (sub.outcome, sub.substandard_components) == (Outcome.SUBSTANDARD,
                                                         (ComponentKind.SEPTIC_TANK,))
    failed = run(case(components=(component("absorption_area", "failed"),
                                  component("septic_tank", "substandard"))))
    assert failed.outcome is Outcome.FAILURE
    assert [v.code for v in failed.violations] == ["system_in_failure"]
    assert failed.violations[0].since == date(2026, 11, 20)
    evidence = case()
    evidence = replace(evidence, inspection=replace(evidence.inspection,
                                                    failure_evidence=("sewage backup",)))
    assert run(evidence).outcome is Outcome.FAILURE
    unlocated = run(case(components=(component("septic_tank"),
                                     component("distribution_box", "not_located"))))
    assert (unlocated.outcome, unlocated.unlocated_components) == (
        Outcome.INCOMPLETE, (ComponentKind.DISTRIBUTION_BOX,))


SUBSTANDARD = (component("septic_tank", "substandard"),)


def test_letters_follow_the_zone_and_the_ahj() -> None:
    beyond = run(case(lake_ft=350, components=SUBSTANDARD))
    assert beyond.letters == (LetterKind.SUBSTANDARD_NOTICE,)
    assert beyond.substandard_path.citation == "§ 202-7 C(1)"
    assert not beyond.substandard_path.upgrade_required
    limited = AhjDetermination(factors_weighed=(FactorFinding(
        factor="(d)", finding="the lot is 60 ft deep between the road and the lake"),))
    within = run(case(lake_ft=120, components=SUBSTANDARD, ahj=limited))
    assert within.letters == ()
    assert within.substandard_path.citation == "§ 202-7 B"
    assert len(within.substandard_path.waiver_factors) == 5
    acknowledged = run(case(lake_ft=120, components=SUBSTANDARD,
                            ahj=AhjDetermination(greatest_extent_possible=True)))
    assert acknowledged.letters == (LetterKind.LETTER_OF_ACKNOWLEDGEMENT,)
    unknown = run(case(lake_ft=None, components=SUBSTANDARD))
    assert unknown.letters == ()
    assert "measure it in the field" in unknown.substandard_path.summary
    assert unknown.substandard_path.upgrade_required is None
    failed = run(case(lake_ft=350, components=(component("absorption_area", "failed"),)))
    assert failed.letters == (LetterKind.NOTICE_OF_VIOLATION,)
    assert failed.substandard_path.upgrade_required


def test_site_violations() -> None:
    e = run(case(observations=Observations(absorption_area_encroachments=("driveway",),
                                           clear_water_connections=("roof drains",))))
    assert [(v.code, v.citation) for v in e.violations] == [
        ("absorption_area_encroachment", "§ 202-5 E (unconfirmed)"),
        ("clear_water_discharge", "§ 202-5 F (unconfirmed)")]
    assert e.outcome is Outcome.ACCEPTABLE
    assert e.letters == (LetterKind.NOTICE_OF_VIOLATION,)
    assert "driveway" in e.violations[0].detail


# --- maintenance duties ----------------------------------------------------------------

def _etu(inspections=(), months=None, contract=True):
    return case(etu=EtuService(service_contract=contract, manufacturer_interval_months=months,
                               inspections=tuple(inspections)))


def _codes(e) -> list[str]:
    return [v.code for v in e.violations]


def test_etu_report_on_the_10th_day_is_on_time_and_the_11th_late() -> None:
    done = date(2026, 10, 1)
    on_time = _etu([EtuInspection(date=done, report_received=date(2026, 10, 11))])
    late = _etu([EtuInspection(date=done, report_received=date(2026, 10, 12))])
    assert "etu_report_late" not in _codes(run(on_time))
    (found,) = [v for v in run(late).violations if v.code == "etu_report_late"]
    assert found.since == date(2026, 10, 12)
    missing = _etu([EtuInspection(date=done)])
    assert "etu_report_late" not in _codes(run(missing, as_of=date(2026, 10, 11)))
    assert "etu_report_late" in _codes(run(missing, as_of=date(2026, 10, 12)))


def test_etu_interval_is_the_stricter_and_overdue_the_day_after() -> None:
    last = [EtuInspection(date=date(2026, 3, 1), report_received=date(2026, 3, 5))]
    assert "etu_inspection_overdue" not in _codes(run(_etu(last), as_of=date(2027, 3, 1)))
    overdue = [v for v in run(_etu(last), as_of=date(2027, 3, 2)).violations
               if v.code == "etu_inspection_overdue"]
    assert overdue[0].since == date(2027, 3, 2)
    six = _etu(last, months=6)
    assert "etu_inspection_overdue" not in _codes(run(six, as_of=date(2026, 9, 1)))
    assert "etu_inspection_overdue" in _codes(run(six, as_of=date(2026, 9, 2)))
    eighteen = _etu(last, months=18)  # a laxer manufacturer interval does not apply
    assert "etu_inspection_overdue" in _codes(run(eighteen, as_of=date(2027, 3, 2)))


def test_etu_without_inspections_or_contract() -> None:
    assert _codes(run(_etu(contract=False))) == ["etu_no_service_contract",
                                                 "etu_inspection_overdue"]
    only_component = case(components=(component("enhanced_treatment_unit"),))
    assert _codes(run(only_component)) == ["etu_inspection_overdue"]
    assert _codes(run(_etu(contract=None))) == ["etu_inspection_overdue"]  # not recorded


def test_holding_tank_duties() -> None:
    e = run(case(holding_tank_service=HoldingTankService(
        hauler_contract=False, pump_outs=(PumpOut(date=date(2026, 6, 1), record_received=True),
                                          PumpOut(date=date(2026, 9, 1),
                                                  record_received=False)))))
    assert [(v.code, v.since) for v in e.violations] == [
        ("holding_tank_no_hauler_contract", None),
        ("holding_tank_records_missing", date(2026, 10, 2))]  # 30 days allowed
    assert all(v.citation == "§ 202-8 B (unconfirmed)" for v in e.violations)


# --- suggestions ---------------------------------------------------------------------

@pytest.mark.parametrize(("bedrooms", "grinder", "gallons"), [
    (2, False, 1000), (3, False, 1000), (3, True, 1250), (4, False, 1250), (5, False, 1500),
    (6, False, 1750), (7, False, 2000), (8, True, 2500)])
def test_septic_tank_table(bedrooms: int, grinder: bool, gallons: int) -> None:
    assert required_tank_gal(bedrooms, grinder, J) == gallons


def test_undersized_tank_is_suggested_never_decided() -> None:
    c = case(bedrooms=4, living=2000, components=(component("septic_tank", capacity_gal=1000),))
    e = run(c)
    (s,) = e.suggestions
    assert s.key == "septic_tank_capacity/septic_tank#1"
    assert "below the 1,250 gal required for 4 design bedrooms" in s.defect
    assert s.status is SuggestionStatus.PENDING
    assert e.outcome is Outcome.ACCEPTABLE  # a suggestion changes nothing by itself
    grinder = replace(c, dwelling=replace(c.dwelling, garbage_grinder=True),
                      components=(component("septic_tank", capacity_gal=1250),))
    assert "plus a garbage grinder" in run(grinder).suggestions[0].defect
    decided = run(c, decisions={s.key: SuggestionStatus.REJECTED})
    assert decided.suggestions[0].status is SuggestionStatus.REJECTED


def test_setback_shortfalls_are_suggested_only_when_proven() -> None:
    close = run(case(lake_ft=80))
    (s,) = close.suggestions
    assert s.key == "setback/absorption_area#1/lake"
    assert "100 ft required" in s.defect
    assert not run(case(lake_ft=100)).suggestions
    well = Separation(component=ComponentKind.ABSORPTION_AREA, ordinal=1, target="well",
                      distance_ft=85, accuracy_ft=10)
    assert [x.key for x in run(case(), separations=[well]).suggestions] == [
        "setback/absorption_area#1/well"]
    uncertain = replace(well, accuracy_ft=20)
    assert not run(case(), separations=[uncertain]).suggestions


# --- every result carries its section -------------------------------------------------

def test_every_judgement_carries_a_citation() -> None:
    c = case(bedrooms=6, living=5000, lake_ft=80,
             components=(component("septic_tank", "substandard", capacity_gal=900),
                         component("absorption_area", "failed")),
             proposed_work=ProposedWork(conveyance=True, change_of_use=True, bedrooms=8,
                                        living_area_sqft=7000, work_area_sqft=4000),
             observations=Observations(absorption_area_encroachments=("shed",),
                                       clear_water_connections=("sump",)),
             etu=EtuService(service_contract=False),
             holding_tank_service=HoldingTankService(hauler_contract=False, pump_outs=(
                 PumpOut(date=date(2026, 1, 1), record_received=False),)))
    e = run(c)
    assert e.triggers and e.violations and e.suggestions
    for finding in (*e.triggers, *e.violations, *e.suggestions):
        assert finding.citation.strip()
    for d in (e.design, e.proposed_design):
        assert d.citations and all(x.startswith("§ 202-6") for x in d.citations)
    assert e.lake.citation and e.outcome_citation and e.substandard_path.citation


def test_no_dwelling_means_no_design_and_a_prompt() -> None:
    e = run(replace(case(), dwelling=None))
    assert e.design is None
    assert any("bedrooms and living area" in p for p in e.prompts)


def test_a_dwelling_with_no_bedrooms_recorded_is_still_valid() -> None:
    e = run(case(dwelling=Dwelling(bedrooms=0, living_area_sqft=0)))
    assert e.design.design_bedrooms == 2


def test_dates_move_with_as_of() -> None:
    c = _etu([EtuInspection(date=AS_OF - timedelta(days=5))])
    assert "etu_report_late" not in _codes(run(c))
    assert "etu_report_late" in _codes(run(c, as_of=AS_OF + timedelta(days=6)))


# --- the substandard path: the zone, and the lot's recorded limitations -----------------

def test_upgrade_is_unknown_while_the_zone_is_undetermined() -> None:
    e = run(case(lake_ft=None, components=SUBSTANDARD))
    assert e.lake.zone is Zone.UNDETERMINED
    assert e.substandard_path.upgrade_required is None
    failed = run(case(lake_ft=None, components=(component("absorption_area", "failed"),)))
    assert failed.substandard_path.upgrade_required is True  # a failure is corrected anyway


def test_greatest_extent_possible_only_for_a_lot_with_recorded_limitations() -> None:
    plain = run(case(lake_ft=120, components=SUBSTANDARD)).substandard_path
    assert "greatest extent possible" in plain.summary and "is not offered" in plain.summary
    assert (plain.waiver_factors, plain.holding_tank_option, plain.acknowledgement) == (
        (), None, None)
    assert plain.citation == "§ 202-5 D (unconfirmed)"
    undecided = run(case(lake_ft=120, components=SUBSTANDARD,
                         ahj=AhjDetermination(greatest_extent_possible=False)))
    assert undecided.substandard_path.waiver_factors == ()
    for ahj in (AhjDetermination(greatest_extent_possible=True),
                AhjDetermination(waiver_granted=True, waiver_description="lake setback"),
                AhjDetermination(factors_weighed=(FactorFinding(factor="(d)",
                                                                finding="small lot"),))):
        offered = run(case(lake_ft=120, components=SUBSTANDARD, ahj=ahj)).substandard_path
        assert offered.citation == "§ 202-7 B"
        assert "to the greatest extent possible" in offered.summary
        assert len(offered.waiver_factors) == 5 and offered.holding_tank_option


# --- § 202-6 C(2): the nearest located component decides the design-load zone -----------

def _tank_at(distance_ft: float, accuracy_ft: float = 0.0) -> ComponentDistance:
    return ComponentDistance(component=ComponentKind.SEPTIC_TANK, ordinal=1,
                             distance_ft=distance_ft, accuracy_ft=accuracy_ft, source="map",
                             layer="Survey v1")


def test_a_tank_within_200_ft_puts_the_system_partially_within() -> None:
    e = run(case(lake_ft=250, components=SUBSTANDARD), component_distances=[_tank_at(150)])
    assert e.lake.zone is Zone.BEYOND  # § 202-5 D and § 202-7 stay with the absorption area
    d = e.design
    assert (d.gpd_per_bedroom, d.design_load_gpd, d.provisional) == (150, 450, False)
    assert d.citations[0] == "§ 202-6 C(2)"
    z = d.zone_basis
    assert (z.zone, z.component, z.distance_ft, z.citation) == (
        Zone.WITHIN, ComponentKind.SEPTIC_TANK, 150, "§ 202-6 C(2)")
    assert "septic tank, 150.0 ft" in z.detail and "partially within 200 ft" in z.detail
    assert e.letters == (LetterKind.SUBSTANDARD_NOTICE,)
    assert e.substandard_path.citation == "§ 202-7 C(1)"


def test_every_located_component_beyond_keeps_130_and_names_the_nearest() -> None:
    e = run(case(lake_ft=320), component_distances=[_tank_at(260)])
    z = e.design.zone_basis
    assert (e.design.gpd_per_bedroom, z.zone, z.component, z.distance_ft) == (
        130, Zone.BEYOND, ComponentKind.SEPTIC_TANK, 260)
    assert z.citation == "§ 202-6 C(1)"
    alone = run(case(lake_ft=320)).design.zone_basis
    assert (alone.component, alone.source, alone.distance_ft) == (
        ComponentKind.ABSORPTION_AREA, "field", 320)


def test_a_component_the_map_cannot_place_makes_the_design_provisional() -> None:
    e = run(case(lake_ft=320), component_distances=[_tank_at(260, accuracy_ft=100)])
    assert e.lake.zone is Zone.BEYOND
    assert (e.design.gpd_per_bedroom, e.design.provisional) == (150, True)
    assert any("design load is provisional" in p and "septic tank" in p for p in e.prompts)


def test_a_field_measured_absorption_area_is_not_second_guessed_by_its_map_position() -> None:
    area_on_map = ComponentDistance(component=ComponentKind.ABSORPTION_AREA, ordinal=1,
                                    distance_ft=150, accuracy_ft=1500, source="map")
    d = run(case(lake_ft=320), component_distances=[area_on_map]).design
    assert (d.gpd_per_bedroom, d.provisional) == (130, False)


def _zone_exactly(distance: float, accuracy: float, setback: float) -> Zone:
    d, a, s = (Fraction(str(x)) for x in (distance, accuracy, setback))
    return Zone.WITHIN if d + a <= s else Zone.BEYOND if d - a > s else Zone.UNDETERMINED


def test_zone_is_decided_as_in_exact_decimal_arithmetic() -> None:
    rng = random.Random(202)
    cases = [(199.9, 0.1, 200), (200.1, 0.1, 200), (0.1 + 0.2, 199.7, 200), (199.7, 0.3, 200),
             (200.3, 0.3, 200), (1e-320, 0, 0), (0, 0, 0), (5e5, 5e5, 0), (100, 1500, 200)]
    for _ in range(20_000):
        setback = rng.choice([200.0, 150.0, 100.0, 75.5])
        accuracy = round(rng.choice([0.0, 1500.0, rng.uniform(0, 50)]), rng.randint(0, 3))
        near = setback + rng.choice([-accuracy, accuracy])
        distance = round(near + rng.choice([0.0, 0.01, -0.01, rng.uniform(-3, 3)]),
                         rng.randint(0, 3))
        cases.append((distance, accuracy, setback))
    for distance, accuracy, setback in cases:
        assert zone_for(distance, accuracy, setback) is _zone_exactly(distance, accuracy,
                                                                      setback)


# --- hand-worked: the lake zone from the layer's and the capture's accuracy -------------

_AREA = {"type": "Polygon", "coordinates": [[[-77.30, 42.80], [-77.30, 42.8001],
                                             [-77.3001, 42.8001], [-77.30, 42.80]]]}


def _captured_area(capture_ft: float | None, *, tank: str = "substandard",
                   bedrooms: int = 4, living: float = 2000):
    """A system whose absorption area is drawn on the map (no field distance), captured to
    ± `capture_ft`, with a septic tank of the given condition."""
    from inspector_app.domain.case import Capture
    from inspector_app.domain.vocabulary import CaptureMethod

    site = Site(absorption_area=_AREA, absorption_area_capture=None if capture_ft is None
                else Capture(method=CaptureMethod.GPS, accuracy_ft=capture_ft))
    return case(bedrooms=bedrooms, living=living, lake_ft=None, site=site,
                components=(component("septic_tank", tank, capacity_gal=1250),
                            component("absorption_area")))


def _line(distance_ft: float, layer_ft: float) -> MapDistance:
    return MapDistance(distance_ft=distance_ft, accuracy_ft=layer_ft, layer_name="Line",
                       layer_version=1)


def test_gps_capture_at_30_ft_leaves_215_ft_from_an_exact_line_undetermined() -> None:
    # 215 ft from an exact line (±0), the area captured by GPS to ±30 ft: 185-245 ft, so
    # it may be within 200 ft. Undetermined: 4 bedrooms at 150 gpd = 600 gpd, provisional,
    # and no § 202-7 letter (neither B nor C is settled).
    e = run(_captured_area(30), map_distance=_line(215, 0))
    assert (e.lake.zone, e.lake.accuracy_ft, e.lake.layer_accuracy_ft,
            e.lake.capture_accuracy_ft) == (Zone.UNDETERMINED, 30.0, 0.0, 30.0)
    assert e.lake.component is ComponentKind.ABSORPTION_AREA
    assert e.design is not None
    assert (e.design.gpd_per_bedroom, e.design.design_load_gpd, e.design.provisional) == (
        150, 600, True)
    assert e.outcome is Outcome.SUBSTANDARD and e.letters == ()
    assert e.substandard_path is not None and e.substandard_path.upgrade_required is None
    assert "captured to ±30 ft" in (e.lake.prompt or "")
    # Captured to ±10 ft: 205-225 ft, beyond. 4 x 130 = 520 gpd, the § 202-7 C(1) letter.
    beyond = run(_captured_area(10), map_distance=_line(215, 0))
    assert beyond.lake.zone is Zone.BEYOND and beyond.design is not None
    assert beyond.design.design_load_gpd == 520
    assert beyond.letters == (LetterKind.SUBSTANDARD_NOTICE,)
    # No capture accuracy recorded: the layer's alone decides.
    assert run(_captured_area(None), map_distance=_line(215, 0)).lake.zone is Zone.BEYOND


def test_layer_and_capture_accuracy_add_up_at_the_setback() -> None:
    # layer ±10 + capture ±5 = ±15: 215 - 15 = 200, exactly the setback, which counts as
    # within, so it may be within: undetermined. 215.01 - 15 = 200.01 > 200: beyond.
    # 185 + 15 = 200: within.
    assert run(_captured_area(5), map_distance=_line(215, 10)).lake.zone is Zone.UNDETERMINED
    assert run(_captured_area(5), map_distance=_line(215.01, 10)).lake.zone is Zone.BEYOND
    assert run(_captured_area(5), map_distance=_line(185, 10)).lake.zone is Zone.WITHIN
    # The design-load zone rests on the same sum: the area decides at ±15 ft.
    basis = run(_captured_area(5), map_distance=_line(185, 10)).design
    assert basis is not None and basis.zone_basis is not None
    assert (basis.zone_basis.zone, basis.zone_basis.accuracy_ft) == (Zone.WITHIN, 15.0)


def test_the_lake_setback_suggestion_counts_the_capture_as_the_zone_does() -> None:
    # The absorption area needs 100 ft from the lake: 90 ft on an exact line, captured to
    # ±15 ft, may be 105 ft away: no shortfall proven. Captured to ±5 ft: at most 95 ft.
    assert not [s for s in run(_captured_area(15, tank="acceptable"),
                               map_distance=_line(90, 0)).suggestions
                if s.key.startswith("setback/")]
    (s,) = [s for s in run(_captured_area(5, tank="acceptable"),
                           map_distance=_line(90, 0)).suggestions
            if s.key.startswith("setback/")]
    assert s.key == "setback/absorption_area#1/lake" and "100 ft required" in s.defect


# --- hand-worked: a parcel whose only system is a holding tank --------------------------

def _holding_tank_only(lake_ft: float):
    return case(bedrooms=3, living=2800, lake_ft=lake_ft,
                components=(component("holding_tank", capacity_gal=2000),))


def test_a_holding_tank_alone_is_measured_as_the_holding_tank() -> None:
    # 900.01-1-22 of the demo: a holding tank 60 ft from the lake (tape). The table asks 50
    # ft of a holding tank: nothing to suggest; the rate is decided by the holding tank.
    e = run(_holding_tank_only(60))
    assert e.lake.component is ComponentKind.HOLDING_TANK
    assert e.design is not None and e.design.zone_basis is not None
    assert e.design.zone_basis.component is ComponentKind.HOLDING_TANK
    assert "the holding tank, 60.0 ft" in e.design.zone_basis.detail
    assert e.design.design_load_gpd == 4 * 150  # 2,800 sq ft: 4 bedrooms, within 200 ft
    assert e.suggestions == ()
    # 45 ft: short of the holding tank's 50 ft.
    (s,) = run(_holding_tank_only(45)).suggestions
    assert s.key == "setback/holding_tank#1/lake" and "50 ft required" in s.defect
    assert s.changes_record


def test_a_suggestion_whose_acceptance_changes_nothing_holds_up_no_letter() -> None:
    from inspector_app.documents.content import pending_suggestions

    # An absorption area 80 ft from the lake with no absorption area among the components:
    # accepting would mark nothing.
    nothing = run(case(lake_ft=80, components=(component("septic_tank", capacity_gal=1250),
                                               component("distribution_box"))))
    (s,) = nothing.suggestions
    assert s.key == "setback/absorption_area#1/lake" and not s.changes_record
    assert pending_suggestions("notice_of_violation", nothing) == ()
    # With the absorption area recorded, the same suggestion holds the letter up.
    (t,) = run(case(lake_ft=80)).suggestions
    assert t.changes_record
    assert pending_suggestions("notice_of_violation", run(case(lake_ft=80))) == (t,)


def test_a_finding_already_recorded_in_other_words_changes_nothing() -> None:
    # The inspector recorded "inlet baffle damaged" and marked the tank substandard: the
    # suggestion "inlet baffle/tee damaged" adds nothing.
    recorded = component("septic_tank", "substandard", capacity_gal=1250,
                         inlet_baffle="damaged")
    recorded = replace(recorded, defects=("inlet baffle damaged",))
    (s,) = run(case(components=(recorded, component("absorption_area")))).suggestions
    assert s.defect == "inlet baffle/tee damaged"
    assert s.recorded_in(["Inlet baffle damaged (§ 202-6 A)"])
    assert not s.changes_record
    # Recorded in words, but the tank still acceptable: accepting raises its condition.
    acceptable = replace(recorded, condition=component("septic_tank").condition)
    (t,) = run(case(components=(acceptable, component("absorption_area")))).suggestions
    assert t.changes_record
    assert not t.recorded_in(["outlet baffle damaged", "inlet baffle missing"])


# --- hand-worked: the time allowed for a pump-out record (§ 202-8 B) --------------------

def _pump_out(day: date, received: bool = False):
    return case(components=(component("holding_tank"),),
                holding_tank_service=HoldingTankService(
                    hauler_contract=True, pump_outs=(PumpOut(date=day, record_received=received),)))


def test_a_pump_out_is_no_violation_until_the_days_allowed_have_passed() -> None:
    # § 202-8 B sets no time; the bundled file allows 30 days (unconfirmed). Pumped out
    # 2026-09-01: the record is due by 2026-10-01; missing, it stands from 2026-10-02.
    assert J.holding_tank_record_within_days == 30
    assert "holding_tank.record_within_days" in J.unconfirmed_values
    c = _pump_out(date(2026, 9, 1))
    assert _codes(run(c, as_of=date(2026, 9, 1))) == []  # the day of the pump-out
    assert _codes(run(c, as_of=date(2026, 10, 1))) == []  # the 30th day
    late = run(c, as_of=date(2026, 10, 2))
    assert _codes(late) == ["holding_tank_records_missing"]
    assert late.violations[0].since == date(2026, 10, 2)
    assert "the 30 days this office allows passed 2026-10-01" in late.violations[0].detail
    assert late.letters == (LetterKind.NOTICE_OF_VIOLATION,)
    assert _codes(run(_pump_out(date(2026, 9, 1), received=True),
                      as_of=date(2027, 1, 1))) == []
    # A file that allows no days: due the day of the pump-out, missing the day after.
    none = jurisdiction(holding_tank_record_within_days=0)
    assert _codes(run(c, j=none, as_of=date(2026, 9, 1))) == []
    assert _codes(run(c, j=none, as_of=date(2026, 9, 2))) == ["holding_tank_records_missing"]
