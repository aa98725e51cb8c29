"""Chapter 202 as code: design load, triggers, lake zone, determination, maintenance duties.

Pure functions of a case, a jurisdiction and a date. Every number comes from the
jurisdiction; every result carries the section it comes from. Where the law leaves a
judgement to a person (the AHJ's design determination, a suggested finding), the rules
say so and never decide silently.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache

from dateutil.relativedelta import relativedelta

from .business_days import HolidayCalendar, next_business_day
from .case import (
    Capture,
    Case,
    Component,
    Dwelling,
    EtuInspection,
    EtuService,
    HoldingTankService,
    Site,
)
from .field_tests import TestWarning, VolumePreset, test_warnings, volume_preset
from .fields import setback_variant
from .jurisdiction import PUMP_SHARE_VALUE, Jurisdiction
from .tank import SOLIDS_KINDS, TankSolids, share_words
from .vocabulary import ComponentKind, Condition, LakeDistanceMethod, TestKind


class Zone(StrEnum):
    WITHIN = "within_200ft"
    BEYOND = "beyond_200ft"
    UNDETERMINED = "undetermined"


class Outcome(StrEnum):
    ACCEPTABLE = "acceptable"
    SUBSTANDARD = "substandard"
    FAILURE = "failure"
    INCOMPLETE = "incomplete"


class LetterKind(StrEnum):
    NOTICE_OF_VIOLATION = "notice_of_violation"
    SUBSTANDARD_NOTICE = "substandard_notice"
    LETTER_OF_ACKNOWLEDGEMENT = "letter_of_acknowledgement"


class SuggestionStatus(StrEnum):
    PENDING = "pending"
    ACCEPTED = "accepted"
    REJECTED = "rejected"


@dataclass(frozen=True, kw_only=True)
class MapDistance:
    """A distance measured on a shoreline layer, with the layer's declared accuracy."""

    distance_ft: float
    accuracy_ft: float
    layer_name: str
    layer_version: int


@dataclass(frozen=True, kw_only=True)
class Separation:
    """A measured distance from a component to something the setback table names."""

    component: ComponentKind
    ordinal: int  # 1 for the first component of its kind
    target: str  # well | lake | dwelling | property_line | water_service_line
    distance_ft: float
    accuracy_ft: float = 0.0
    source: str = "map"
    # the variant of its kind's separation row the component's details choose
    # (`fields.setback_variant`), and for a well, its recorded conditions (None: not known)
    variant: str | None = None
    shallow_well: bool | None = None
    drainage_path: bool | None = None


@dataclass(frozen=True, kw_only=True)
class ComponentDistance:
    """A located component's distance to the lake line, with the accuracy it carries."""

    component: ComponentKind
    ordinal: int  # 1 for the first component of its kind
    distance_ft: float
    accuracy_ft: float
    source: str  # field | map
    layer: str | None = None


@dataclass(frozen=True, kw_only=True)
class DesignZone:
    """Which side of the lake setback the system is on for its design load (§ 202-6 C(1)
    and (2)): decided by the nearest of its located components."""

    zone: Zone
    component: ComponentKind | None
    ordinal: int | None
    distance_ft: float | None
    accuracy_ft: float | None
    source: str | None
    citation: str
    detail: str


@dataclass(frozen=True, kw_only=True)
class LakeFinding:
    distance_ft: float | None
    source: str | None  # field | map | None
    zone: Zone
    accuracy_ft: float | None
    method: str | None
    layer: str | None
    citation: str
    prompt: str | None
    # The parts of `accuracy_ft`, what the zone was decided with (None with no distance):
    # the shoreline layer's declared accuracy (0 for a field measurement) and how well the
    # measured absorption area (or holding tank) was captured on the map.
    layer_accuracy_ft: float | None = None
    capture_accuracy_ft: float | None = None
    # What the distance is measured from: the absorption area, else the holding tank.
    component: ComponentKind = ComponentKind.ABSORPTION_AREA


@dataclass(frozen=True, kw_only=True)
class Design:
    design_bedrooms: int
    gpd_per_bedroom: int
    design_load_gpd: int
    standard: str
    ahj_determination_required: bool
    provisional: bool
    basis: str
    arithmetic: str
    citations: tuple[str, ...]
    zone_basis: DesignZone | None = None
    # Why the design bedrooms are not the bedrooms recorded, in words with the section
    # ("3 bedrooms recorded, counted as 4 for 2,800 sq ft of floor area (§ 202-6 C(3))");
    # empty where they are the bedrooms recorded.
    why_bedrooms: str = ""


@dataclass(frozen=True, kw_only=True)
class Finding:
    """An inspection trigger or a violation: a code, its section and what it rests on."""

    code: str
    citation: str
    detail: str
    since: date | None = None
    # A lapse cured since (a late report received): the day it was cured. Whether it still
    # calls for a notice is the office's decision, offered as a suggestion (`cured_key`);
    # until it is made, the finding calls for none.
    cured: date | None = None
    calls_for_notice: bool = True


@dataclass(frozen=True, kw_only=True)
class DatedFinding:
    """A violation as the record alone makes it: it stands at once (`after` None), or only
    once the date is past `after` (an ETU inspection or report, a pump-out record, that
    falls due)."""

    finding: Finding
    after: date | None = None

    def stands(self, as_of: date) -> bool:
        return self.after is None or as_of > self.after


def standing_findings(dated: Sequence[DatedFinding], as_of: date) -> tuple[Finding, ...]:
    """The violations that stand as of a date, in the order the record makes them."""
    return tuple(d.finding for d in dated if d.stands(as_of))


@dataclass(frozen=True, kw_only=True)
class Decision:
    """An inspector's decision on a suggested finding: what, who, when and why."""

    status: SuggestionStatus
    decided_by: str
    decided_on: date
    note: str | None = None
    defect: str = ""  # the defect as it read when decided (or last brought up to date)
    citation: str = ""


@dataclass(frozen=True, kw_only=True)
class Suggestion:
    key: str
    component: ComponentKind | None
    ordinal: int | None
    defect: str
    citation: str  # as a draft shows it, "(unconfirmed)" included
    section: str = ""  # the section alone, as the record states it
    status: SuggestionStatus = SuggestionStatus.PENDING
    decision: Decision | None = None
    condition: Condition = Condition.SUBSTANDARD  # what accepting makes of the component
    # Other words for the same finding ("inlet baffle damaged" for "inlet baffle/tee
    # damaged"): a component whose defects already say one of them has it on record.
    same_as: tuple[str, ...] = ()
    # Whether accepting it would change the record (the component it names is recorded,
    # and does not already bear the finding at its condition); one that would change
    # nothing never holds up a letter.
    changes_record: bool = True

    @property
    def record_text(self) -> str:
        """The defect as an accepted finding puts it on the component: the finding and its
        section, without draft marks."""
        return finding_text(self.defect, self.section or self.citation)

    def recorded_in(self, defects: Sequence[str]) -> bool:
        """Whether a component's defects already state this finding, in its words or in
        other words for it, with or without a section."""
        words = {_plain_defect(d) for d in (self.defect, *self.same_as)}
        return any(_plain_defect(d) in words for d in defects)


def finding_text(defect: str, section: str) -> str:
    return f"{defect} ({section})" if section else defect


def _plain_defect(text: str) -> str:
    """A defect compared by its words alone: its section in brackets at the end, case and
    punctuation left out."""
    text = re.sub(r"\s*\([^()]*\)\s*$", "", text)
    return " ".join(re.sub(r"[^0-9a-z]+", " ", text.casefold()).split())


_CONDITION_RANK = {Condition.ACCEPTABLE: 0, Condition.SUBSTANDARD: 1, Condition.FAILED: 2}


def acceptance_changes(case: Case, s: Suggestion) -> bool:
    """Whether accepting the suggestion would change the case: it names a recorded
    component that does not yet bear the finding, or whose condition is below the one the
    finding gives (a component not located stays so)."""
    if s.component is None or s.ordinal is None:
        return False
    found = [c for c in case.components if c.kind is s.component]
    if len(found) < s.ordinal:
        return False
    c = found[s.ordinal - 1]
    return not s.recorded_in(c.defects) or (
        _CONDITION_RANK.get(c.condition, 9) < _CONDITION_RANK[s.condition])


@dataclass(frozen=True, kw_only=True)
class SubstandardPath:
    citation: str
    zone: Zone
    summary: str
    upgrade_required: bool | None  # None: not known until the lake zone is settled
    waiver_factors: tuple[str, ...] = ()
    holding_tank_option: str | None = None
    acknowledgement: str | None = None
    # § 202-7 B's "to the greatest extent possible" is offered: a limitation of the lot is
    # on record within the setback.
    greatest_extent_offered: bool = False


@dataclass(frozen=True, kw_only=True)
class Evaluation:
    as_of: date
    design: Design | None
    proposed_design: Design | None
    lake: LakeFinding
    triggers: tuple[Finding, ...]
    outcome: Outcome
    outcome_citation: str | None
    substandard_components: tuple[ComponentKind, ...]
    failed_components: tuple[ComponentKind, ...]
    unlocated_components: tuple[ComponentKind, ...]
    violations: tuple[Finding, ...]
    letters: tuple[LetterKind, ...]
    substandard_path: SubstandardPath | None
    suggestions: tuple[Suggestion, ...] = field(default=())
    prompts: tuple[str, ...] = field(default=())
    # No inspection on record: an "acceptable" outcome then only means nothing recorded
    # says otherwise (the contract's outcome is unchanged; `standing` says so).
    inspected: bool = True
    # Accepted findings the case no longer bears out; each stays on its component until a
    # person undoes the decision.
    unsupported: tuple[Suggestion, ...] = field(default=())
    # Every violation the record makes, as of any date: `violations` are those standing
    # as of `as_of`.
    dated_violations: tuple[DatedFinding, ...] = field(default=())
    # The separations measured (the nearest of each kind for each component, with its
    # source), as the setback suggestions went by them.
    separations: tuple[Separation, ...] = field(default=())
    # Field tests made soon after a recorded pump-out (`field_tests.test_warnings`), and the
    # volume preset of each kind of test at this dwelling.
    test_warnings: tuple[TestWarning, ...] = field(default=())
    test_presets: tuple[VolumePreset, ...] = field(default=())
    # Each septic tank's depths as its solids share is worked out (kind, ordinal, depths):
    # only tanks with a depth recorded.
    tanks: tuple[tuple[str, int, TankSolids], ...] = field(default=())

    @property
    def standing(self) -> str:
        """What to show as the outcome: the outcome, or "not_inspected" when no inspection
        is on record and nothing recorded makes the system substandard or failed."""
        if not self.inspected and self.outcome in (Outcome.ACCEPTABLE, Outcome.INCOMPLETE):
            return NOT_INSPECTED
        return self.outcome.value


NOT_INSPECTED = "not_inspected"


# --- lake zone -------------------------------------------------------------------------

def zone_for(distance_ft: float, accuracy_ft: float, setback_ft: float) -> Zone:
    """Within only if distance + accuracy <= setback; beyond only if distance - accuracy >
    setback; otherwise undetermined. Exactly the setback counts as within.

    The numbers are taken as written (decimal), exactly. Where the float sums are farther
    from the setback than any rounding of the floats could carry them, they decide alone;
    only a near tie is settled in exact arithmetic."""
    fd, fa, fs = float(distance_ft), float(accuracy_ft), float(setback_ft)
    margin = 1e-9 * (abs(fd) + abs(fa) + abs(fs))
    low, high = fd - fa - fs, fd + fa - fs
    if high < -margin:
        return Zone.WITHIN
    if high > margin and low > margin:
        return Zone.BEYOND
    if high > margin and low < -margin:
        return Zone.UNDETERMINED
    d, a, s = Fraction(str(distance_ft)), Fraction(str(accuracy_ft)), Fraction(str(setback_ft))
    if d + a <= s:
        return Zone.WITHIN
    if d - a > s:
        return Zone.BEYOND
    return Zone.UNDETERMINED


def capture_accuracy(capture: Capture | None) -> float:
    """How far a geometry drawn on the map may lie from where it is: its recorded capture
    accuracy (0 when none is recorded)."""
    return float(capture.accuracy_ft or 0.0) if capture is not None else 0.0


def combined_accuracy(*accuracies: float | None) -> float:
    """The accuracy of a distance between two things each placed within its own accuracy
    (a layer's, a capture's): their sum, as each may lie toward or away from the other.
    Every separation and the lake zone are judged with it."""
    return float(sum(a or 0.0 for a in accuracies))


def lake_component(case: Case) -> ComponentKind:
    """What the lake distance is measured from (§ 202-5 D, the five-year cycle): the
    absorption area, else, on a parcel with a holding tank and no absorption area, the
    holding tank (its map geometry, or the field measurement of a parcel whose system is
    a holding tank)."""
    site = case.site
    kinds = {c.kind for c in case.components}
    absorption = (site is not None and site.absorption_area is not None) or (
        ComponentKind.ABSORPTION_AREA in kinds)
    holding = (site is not None and site.holding_tank is not None) or (
        ComponentKind.HOLDING_TANK in kinds)
    return ComponentKind.HOLDING_TANK if holding and not absorption else (
        ComponentKind.ABSORPTION_AREA)


def measured_capture(site: Site | None) -> Capture | None:
    """The capture of the geometry a map distance to the lake is measured from: the
    absorption area's, else the holding tank's."""
    if site is None:
        return None
    return site.absorption_area_capture if site.absorption_area is not None else (
        site.holding_tank_capture)


def lake_finding(case: Case, j: Jurisdiction, map_distance: MapDistance | None) -> LakeFinding:
    citation = j.cite("within_200ft")
    site = case.site
    setback = j.lake_setback_ft
    measured = lake_component(case)
    if site is not None and site.lake_distance_ft is not None:
        method = site.lake_distance_method.value if site.lake_distance_method else None
        return LakeFinding(distance_ft=site.lake_distance_ft, source="field",
                           zone=zone_for(site.lake_distance_ft, 0, setback), accuracy_ft=0.0,
                           method=method, layer=None, citation=citation, prompt=None,
                           layer_accuracy_ft=0.0, capture_accuracy_ft=0.0, component=measured)
    has_geometry = site is not None and (site.absorption_area is not None
                                         or site.holding_tank is not None)
    if has_geometry and map_distance is not None:
        assert site is not None
        measured = (ComponentKind.ABSORPTION_AREA if site.absorption_area is not None
                    else ComponentKind.HOLDING_TANK)
        captured = capture_accuracy(measured_capture(site))
        accuracy = combined_accuracy(map_distance.accuracy_ft, captured)
        zone = zone_for(map_distance.distance_ft, accuracy, setback)
        prompt = None
        if zone is Zone.UNDETERMINED:
            words = measured.value.replace("_", " ")
            how = f"accurate to ±{map_distance.accuracy_ft:,.0f} ft"
            if captured:
                how += f"; the {words} captured to ±{captured:,g} ft"
            prompt = (f"The map distance ({map_distance.distance_ft:,.1f} ft on "
                      f"{map_distance.layer_name}, {how}) cannot settle the {setback:g}-ft "
                      "question: measure the distance to the lake line in the field (tape, "
                      "survey or rangefinder)"
                      + (f", or capture the {words} more accurately." if captured else "."))
        return LakeFinding(distance_ft=map_distance.distance_ft, source="map", zone=zone,
                           accuracy_ft=accuracy, method="map",
                           layer=f"{map_distance.layer_name} v{map_distance.layer_version}",
                           citation=citation, prompt=prompt,
                           layer_accuracy_ft=map_distance.accuracy_ft,
                           capture_accuracy_ft=captured, component=measured)
    what = ("draw or import the absorption area (or holding tank) so it can be measured on "
            "the shoreline layer, or measure it in the field") if not has_geometry else (
            "measure it in the field; no shoreline layer is active")
    return LakeFinding(distance_ft=None, source=None, zone=Zone.UNDETERMINED, accuracy_ft=None,
                       method=None, layer=None, citation=citation,
                       prompt=f"The distance to the lake line is not known: {what}.",
                       component=measured)


def design_zone(case: Case, lake: LakeFinding, components: Sequence[ComponentDistance],
                j: Jurisdiction) -> DesignZone:
    """§ 202-6 C(1)-(2): 150 gpd a bedroom for a system wholly or partially within the
    setback, so the nearest of all located components decides (tank, distribution box,
    absorption area, ETU, holding tank...). § 202-5 D and § 202-7 stay with the absorption
    area (the lake finding). A field measurement of the absorption area (or holding tank)
    stands for it over the map."""
    setback = j.lake_setback_ft
    candidates = list(components)
    if lake.source == "field":
        candidates = [c for c in candidates if c.component is not lake.component]
    if lake.distance_ft is not None and lake.accuracy_ft is not None and lake.source:
        candidates.append(ComponentDistance(
            component=lake.component, ordinal=1, distance_ft=lake.distance_ft,
            accuracy_ft=lake.accuracy_ft, source=lake.source, layer=lake.layer))
    zoned = [(zone_for(c.distance_ft, c.accuracy_ft, setback), c) for c in candidates]
    within = [c for z, c in zoned if z is Zone.WITHIN]
    if within:
        zone, pool = Zone.WITHIN, within
    elif zoned and all(z is Zone.BEYOND for z, _ in zoned):
        zone, pool = Zone.BEYOND, candidates
    else:
        zone, pool = Zone.UNDETERMINED, [c for z, c in zoned if z is Zone.UNDETERMINED]
    key = "rate_beyond_200ft" if zone is Zone.BEYOND else "rate_within_200ft"
    citation = j.cite(key)
    if not pool:
        return DesignZone(zone=zone, component=None, ordinal=None, distance_ft=None,
                          accuracy_ft=None, source=None, citation=citation,
                          detail="no component of the system is located relative to the lake "
                                 f"line; {j.gpd_per_bedroom_within} gpd a bedroom is used "
                                 f"until one is ({citation})")
    nearest = min(pool, key=lambda c: (c.distance_ft, c.component.value, c.ordinal))
    words = nearest.component.value.replace("_", " ")
    if nearest.ordinal > 1:
        words += f" #{nearest.ordinal}"
    how = nearest.source + (f" on {nearest.layer}" if nearest.layer else "")
    if nearest.accuracy_ft:
        how += f", ±{nearest.accuracy_ft:,.0f} ft"
    measured = f"the {words}, {nearest.distance_ft:,.1f} ft from the lake line ({how})"
    detail = {
        Zone.WITHIN: f"{measured}, puts the system wholly or partially within {setback:g} ft",
        Zone.BEYOND: f"the nearest located component, {measured}, is more than {setback:g} ft "
                     "away",
        Zone.UNDETERMINED: f"{measured}, may be within {setback:g} ft; "
                           f"{j.gpd_per_bedroom_within} gpd a bedroom is used until it is "
                           "measured",
    }[zone]
    return DesignZone(zone=zone, component=nearest.component, ordinal=nearest.ordinal,
                      distance_ft=nearest.distance_ft, accuracy_ft=nearest.accuracy_ft,
                      source=nearest.source, citation=citation,
                      detail=f"{detail} ({citation})")


# --- design load -----------------------------------------------------------------------

def floor_area_bedrooms(living_area_sqft: float, j: Jurisdiction) -> int | None:
    """The band's bedroom count, or None above the last band."""
    for band in j.floor_area_bands:
        if living_area_sqft <= band.max_sqft:
            return band.bedrooms
    return None


def design_load(*, bedrooms: int, living_area_sqft: float, zone: Zone, j: Jurisdiction,
                ahj_design_bedrooms: int | None = None,
                zone_basis: DesignZone | None = None) -> Design:
    """§ 202-6 C: the design bedrooms and flow for a dwelling."""
    citations = [j.cite("floor_area_bands"), j.cite("minimum_bedrooms")]
    band = floor_area_bedrooms(living_area_sqft, j)
    last = j.floor_area_bands[-1]
    ahj_required = False
    if ahj_design_bedrooms is not None:
        design, basis = ahj_design_bedrooms, "ahj"
        citations.append(j.cite("ahj_final_determination"))
    else:
        candidates = {"counted bedrooms": bedrooms, "minimum": j.minimum_bedrooms}
        if band is not None:
            candidates["floor area"] = band
        else:
            # Over the largest band the law adds 110 gpd per additional bedroom but does not
            # say how many the floor area makes, whatever the count: the AHJ makes the final
            # determination.
            candidates["floor area"] = last.bedrooms
            ahj_required = True
            citations.append(j.cite("ahj_final_determination"))
        basis, design = max(candidates.items(), key=lambda kv: (kv[1], kv[0] == "counted "
                                                                          "bedrooms"))
    if zone is Zone.BEYOND:
        rate = j.gpd_per_bedroom_beyond
        citations.insert(0, j.cite("rate_beyond_200ft"))
    else:
        rate = j.gpd_per_bedroom_within
        citations.insert(0, j.cite("rate_within_200ft"))
    base = min(design, j.base_rate_bedrooms)
    extra = max(design - j.base_rate_bedrooms, 0)
    load = base * rate + extra * j.gpd_per_additional_bedroom
    arithmetic = f"{base} × {rate} gpd"
    if extra:
        arithmetic += f" + {extra} × {j.gpd_per_additional_bedroom} gpd"
        citations.append(j.cite("additional_bedrooms"))
    arithmetic += f" = {load:,} gpd"
    if load >= j.intermediate_threshold_gpd:
        standard = j.standard_at_threshold
        citations.append(j.cite("design_standard_intermediate"))
    else:
        standard = j.standard_below_threshold
        citations.append(j.cite("design_standard_75a"))
    return Design(design_bedrooms=design, gpd_per_bedroom=rate, design_load_gpd=load,
                  standard=standard, ahj_determination_required=ahj_required,
                  provisional=zone is Zone.UNDETERMINED, basis=basis, arithmetic=arithmetic,
                  citations=tuple(citations), zone_basis=zone_basis,
                  why_bedrooms=_why_bedrooms(basis, design, bedrooms, living_area_sqft,
                                             ahj_required, j))


def _why_bedrooms(basis: str, design: int, bedrooms: int, living_area_sqft: float,
                  ahj_required: bool, j: Jurisdiction) -> str:
    """Why `design_load` counts `design` bedrooms where `bedrooms` are recorded, in words
    with the section it went by; empty where it counts the bedrooms recorded."""
    if design == bedrooms and basis != "ahj":
        return ""
    recorded = f"{bedrooms} bedroom{'s' if bedrooms != 1 else ''} recorded"
    if basis == "ahj":
        return (f"{recorded}, {design} as determined by the authority having jurisdiction "
                f"({j.cite('ahj_final_determination')})")
    if basis == "minimum":
        return (f"{recorded}, counted as the minimum design of {design} "
                f"({j.cite('minimum_bedrooms')})")
    area = f"{living_area_sqft:,g} sq ft of floor area"
    if ahj_required:
        return (f"{recorded}, counted as at least {design} for {area}, over the last band; the "
                f"final count is the authority having jurisdiction's "
                f"({j.cite('ahj_final_determination')})")
    return f"{recorded}, counted as {design} for {area} ({j.cite('floor_area_bands')})"


def _designs(case: Case, basis: DesignZone, j: Jurisdiction
             ) -> tuple[Design | None, Design | None]:
    d = case.dwelling
    if d is None:
        return None, None
    zone = basis.zone
    current = design_load(bedrooms=d.bedrooms, living_area_sqft=d.living_area_sqft, zone=zone,
                          j=j, ahj_design_bedrooms=d.ahj_design_bedrooms, zone_basis=basis)
    w = case.proposed_work
    if w is None:
        return current, None
    bedrooms = w.bedrooms if w.bedrooms is not None else d.bedrooms
    living = w.living_area_sqft if w.living_area_sqft is not None else d.living_area_sqft
    if bedrooms == d.bedrooms and living == d.living_area_sqft:
        return current, None
    # An AHJ determination was made for the dwelling as it is, not for the planned one.
    return current, design_load(bedrooms=bedrooms, living_area_sqft=living, zone=zone, j=j,
                                zone_basis=basis)


# --- triggers --------------------------------------------------------------------------

def _exact(value: float) -> Fraction:
    return Fraction(str(value))


def inspection_triggers(case: Case, j: Jurisdiction) -> tuple[Finding, ...]:
    """§ 202-5 B, from the proposed work only; strict inequalities."""
    w, d = case.proposed_work, case.dwelling
    if w is None:
        return ()
    cite = j.cite("inspection_triggers")
    out = []
    if w.change_of_use:
        out.append(Finding(code="change_of_use", citation=cite,
                           detail="a change of use of the property or a building"))
    if w.conveyance:
        out.append(Finding(code="conveyance", citation=cite,
                           detail="a conveyance of the property"))
    if d is not None and w.bedrooms is not None and w.bedrooms > d.bedrooms:
        out.append(Finding(code="bedroom_increase", citation=cite,
                           detail=f"bedrooms and equivalents rise from {d.bedrooms} to "
                                  f"{w.bedrooms}"))
    if d is not None and w.living_area_sqft is not None:
        limit = _exact(d.living_area_sqft) * (1 + _exact(j.floor_area_increase_over_fraction))
        if _exact(w.living_area_sqft) > limit:
            out.append(Finding(
                code="floor_area_increase_over_25_percent", citation=cite,
                detail=f"living area rises from {d.living_area_sqft:,g} to "
                       f"{w.living_area_sqft:,g} sq ft, more than "
                       f"{j.floor_area_increase_over_fraction:.0%} (limit {float(limit):,g} "
                       "sq ft)"))
    if d is not None and w.work_area_sqft is not None:
        building = d.building_area_sqft if d.building_area_sqft is not None else (
            d.living_area_sqft)
        limit = _exact(building) * _exact(j.work_area_over_fraction)
        if _exact(w.work_area_sqft) > limit:
            out.append(Finding(
                code="work_area_over_50_percent", citation=cite,
                detail=f"work area {w.work_area_sqft:,g} sq ft exceeds "
                       f"{j.work_area_over_fraction:.0%} of the existing building's "
                       f"{building:,g} sq ft"))
    return tuple(out)


# --- maintenance -----------------------------------------------------------------------

def etu_violations(etu: EtuService | None, has_etu: bool, as_of: date,
                   j: Jurisdiction) -> list[Finding]:
    """§ 202-8 A: service contract, inspections at the stricter interval, 10-day reports."""
    return list(standing_findings(etu_findings(etu, has_etu, j), as_of))


def etu_findings(etu: EtuService | None, has_etu: bool, j: Jurisdiction
                 ) -> list[DatedFinding]:
    """`etu_violations` for every date at once: each with the date after which it stands."""
    if etu is None and not has_etu:
        return []
    cite = j.cite("etu_service")
    out: list[DatedFinding] = []
    if etu is not None and etu.service_contract is False:
        out.append(DatedFinding(finding=Finding(
            code="etu_no_service_contract", citation=cite,
            detail="no service contract with a certified manufacturer's representative")))
    elif (stated := contract_report(etu.inspections if etu else ())) is not None and (
            through := stated.service_contract_through) is not None:
        reported = stated.date
        out.append(DatedFinding(after=through, finding=Finding(
            code="etu_no_service_contract", citation=cite, since=through + timedelta(days=1),
            detail=f"the service contract, as the report of the {reported.isoformat()} "
                   f"inspection states it, ran through {through.isoformat()}")))
    months = j.etu_max_interval_months
    if etu is not None and etu.manufacturer_interval_months is not None:
        months = min(months, etu.manufacturer_interval_months)
    inspections = sorted(etu.inspections if etu else (), key=lambda i: i.date)
    if not inspections:
        out.append(DatedFinding(finding=Finding(code="etu_inspection_overdue", citation=cite,
                                                detail="no ETU inspection is on record")))
    else:
        due = inspections[-1].date + relativedelta(months=months)
        out.append(DatedFinding(after=due, finding=Finding(
            code="etu_inspection_overdue", citation=cite, since=due + timedelta(days=1),
            detail=f"the inspection due {due.isoformat()} ({months} months after "
                   f"{inspections[-1].date.isoformat()}) is not on record")))
    window = j.etu_report_within_days
    for i in inspections:
        deadline = i.date + timedelta(days=window)
        if i.report_received is not None and i.report_received > deadline:
            out.append(DatedFinding(finding=Finding(
                code="etu_report_late", citation=cite, since=deadline + timedelta(days=1),
                cured=i.report_received,
                detail=f"the report of the {i.date.isoformat()} inspection arrived "
                       f"{i.report_received.isoformat()}, more than {window} days after it")))
        elif i.report_received is None:
            out.append(DatedFinding(after=deadline, finding=Finding(
                code="etu_report_late", citation=cite, since=deadline + timedelta(days=1),
                detail=f"the report of the {i.date.isoformat()} inspection has not been "
                       f"received ({window} days passed {deadline.isoformat()})")))
    return out


def _latest_stating(inspections: Sequence[EtuInspection], as_of: date | None,
                    states: Callable[[EtuInspection], bool]) -> EtuInspection | None:
    """The latest ETU inspection (up to the date, if given) whose report states what
    `states` looks for; of two the same day, the later on record."""
    found = sorted((i for i in inspections if (as_of is None or i.date <= as_of)
                    and states(i)), key=lambda i: i.date)
    return found[-1] if found else None


def not_certified(inspections: Sequence[EtuInspection], as_of: date
                  ) -> EtuInspection | None:
    """The latest ETU service report up to the date that states the unit's function, if
    it does not certify it fully functional: a follow-up until a later report does."""
    latest = _latest_stating(inspections, as_of, lambda i: i.fully_functional is not None)
    return latest if latest is not None and latest.fully_functional is False else None


def contract_report(inspections: Sequence[EtuInspection], as_of: date | None = None
                    ) -> EtuInspection | None:
    """The latest ETU service report (up to the date, if given) stating the service
    contract's last day: the contract as the record knows it."""
    return _latest_stating(inspections, as_of,
                           lambda i: i.service_contract_through is not None)


def etu_report_prompts(etu: EtuService | None, as_of: date, j: Jurisdiction) -> list[str]:
    """What the latest ETU service report up to the date asks of the office, in words: a
    unit it does not certify fully functional (a follow-up until a later report does), and
    a service contract ending within the days the office looks ahead."""
    reports = etu.inspections if etu else ()
    out = []
    last = not_certified(reports, as_of)
    if last is not None:
        by = f" by {last.provider_name} ({last.provider_number})" if last.provider_name \
            else ""
        out.append(f"The ETU service report of the {last.date.isoformat()} inspection{by} "
                   "does not certify the unit fully functional and operating properly "
                   f"({j.cite('etu_service')}): follow up until a report does.")
    stated = contract_report(reports, as_of)
    if stated is not None and stated.service_contract_through is not None:
        through = stated.service_contract_through
        days = (through - as_of).days
        if 0 <= days <= j.etu_contracts_expiring_within_days:
            out.append(f"The ETU's service contract ends {through.isoformat()}, in {days} "
                       f"days, as the report of the {stated.date.isoformat()} inspection "
                       f"states: a lapsed contract is a violation ({j.cite('etu_service')}).")
    return out


def holding_tank_findings(service: HoldingTankService | None, has_tank: bool,
                          j: Jurisdiction) -> list[DatedFinding]:
    """§ 202-8 B: a hauler contract (stands at once), and a copy of every pump-out record:
    the law sets no time for sending it, so a missing record stands only once the days the
    jurisdiction file allows after the pump-out have passed."""
    if service is None and not has_tank:
        return []
    cite = j.cite("holding_tank_service")
    out: list[DatedFinding] = []
    if service is not None and service.hauler_contract is False:
        out.append(DatedFinding(finding=Finding(
            code="holding_tank_no_hauler_contract", citation=cite,
            detail="no contract with a NYSDEC-permitted septage hauler")))
    grace = j.holding_tank_record_within_days
    for pump_out in (service.pump_outs if service else ()):
        due = pump_out.date + timedelta(days=grace)
        # the office's practice, not the law's: § 202-8 B sets no time
        allowed = f" (the {grace} days this office allows passed {due.isoformat()})" \
            if grace else ""
        received = pump_out.record_received_on
        if pump_out.record_received and received is not None and received > due:
            out.append(DatedFinding(finding=Finding(
                code="holding_tank_records_missing", citation=cite,
                since=due + timedelta(days=1), cured=received,
                detail=f"the record of the {pump_out.date.isoformat()} pump-out arrived "
                       f"{received.isoformat()}{allowed}")))
        if pump_out.record_received:
            continue
        out.append(DatedFinding(after=due, finding=Finding(
            code="holding_tank_records_missing", citation=cite,
            since=due + timedelta(days=1),
            detail=f"no record received for the {pump_out.date.isoformat()} pump-out"
                   f"{allowed}")))
    return out


# --- suggestions -----------------------------------------------------------------------

def required_tank_gal(design_bedrooms: int, garbage_grinder: bool, j: Jurisdiction) -> int:
    bedrooms = design_bedrooms + (1 if garbage_grinder and j.garbage_grinder_adds_bedroom
                                  else 0)
    table = j.septic_tank_minimum_gal
    top = max(table)
    if bedrooms <= top:
        return table[max(bedrooms, 1)]
    return table[top] + (bedrooms - top) * j.septic_tank_additional_gal_per_bedroom


def _ordinals(components: Sequence[Component]) -> list[int]:
    seen: dict[ComponentKind, int] = {}
    out = []
    for c in components:
        n = seen[c.kind] = seen.get(c.kind, 0) + 1
        out.append(n)
    return out


@dataclass(frozen=True, kw_only=True)
class Requirement:
    """A separation the table requires, with what made it: the row, and the notes applied.
    `basis` says it whole ("150 ft: 100 ft (75-A Table 2, absorption field to well) + 50 %
    (note (g): shallow well)"); `notes` are the letters of the notes applied."""

    ft: float
    basis: str
    row: str
    notes: tuple[str, ...] = ()
    # what a finding's words add after "N ft required" (empty for a kind's own row)
    short: str = ""


def separation_requirement(s: Separation, j: Jurisdiction) -> Requirement | None:
    """What the separation table (10 NYCRR Appendix 75-A, Table 2) asks between the
    component and the target, and why (None: it asks nothing). Its notes, where the file
    has them: (e) every component 10 ft from any water service line; for a well recorded
    as shallow, (g) the row's well distance + 50 %; for a well the system is recorded
    upgrade and in the general path of drainage to, (a) 200 ft on the rows that carry the
    note. Where (a) and (g) both apply the larger is required (neither note adds to the
    other)."""
    row = j.setback_row(s.component, s.variant)
    notes = j.setback_notes
    target = s.target.replace("_", " ")
    if s.target == "water_service_line":
        if row is None or notes is None:
            return None
        ft = notes.water_service_line_ft
        where = f"{row.source}, note (e): any water service line"
        return Requirement(ft=ft, basis=f"{ft:g} ft ({where})", row=where, notes=("e",),
                           short=" by note (e), any water service line")
    if row is None:
        found = j.setbacks_ft.get(s.component, {}).get(s.target)
        if found is None:
            return None
        where = f"{s.component.value.replace('_', ' ')} to {target}"
        return Requirement(ft=float(found), basis=f"{float(found):g} ft ({where})", row=where)
    base = row.distances.get(s.target)
    if base is None:
        return None
    where = f"{row.source}, {row.row} to {target}"
    plain = Requirement(ft=float(base), basis=f"{base:g} ft ({where})", row=where,
                        short="" if row.variant is None else f" as {row.row}")
    if s.target != "well" or notes is None:
        return plain
    shallow = s.shallow_well is True and notes.shallow_well_increase > 0
    drainage = s.drainage_path is True and "a" in row.notes
    g_ft = base * (1 + notes.shallow_well_increase)
    g_words = (f"{base:g} ft ({where}) + {notes.shallow_well_increase * 100:g} % "
               f"(note (g): shallow well)")
    a_ft = notes.drainage_path_well_ft
    a_words = f"{a_ft:g} ft (note (a): system upgrade and in the general path of drainage)"
    pct = f"{notes.shallow_well_increase * 100:g} %"
    if shallow and drainage:
        ft = max(base, g_ft, a_ft)
        return Requirement(ft=ft, row=where, notes=("a", "g"),
                           basis=f"{ft:g} ft: the larger of {a_words} and {g_ft:g} ft, "
                                 f"{g_words}",
                           short=(f": {base:g} ft + {pct} by note (g), more than note "
                                  f"(a)'s {a_ft:g} ft" if g_ft >= a_ft else
                                  f" by note (a), more than {g_ft:g} ft by note (g)"))
    if shallow:
        return Requirement(ft=g_ft, basis=f"{g_ft:g} ft: {g_words}", row=where, notes=("g",),
                           short=f": {base:g} ft + {pct} by note (g), shallow well")
    if drainage and a_ft > base:
        return Requirement(ft=a_ft, basis=f"{a_ft:g} ft: {a_words}, in place of {base:g} ft "
                                          f"({where})", row=where, notes=("a",),
                           short=" by note (a), in the path of drainage")
    return plain


def required_separation_ft(s: Separation, j: Jurisdiction) -> float | None:
    """What the separation table asks between the component and the target (None: it
    asks nothing), its notes applied (`separation_requirement`)."""
    found = separation_requirement(s, j)
    return None if found is None else found.ft


def requirement_citation(r: Requirement, j: Jurisdiction) -> str:
    """The citation of a required separation: the table, and the notes that made it."""
    cite = j.cite("setbacks")
    if not r.notes or j.setback_notes is None:
        return cite
    marked = " (unconfirmed)" if cite.endswith(" (unconfirmed)") else ""
    return "; ".join([cite] + [j.setback_notes.cites[n] + marked for n in r.notes])


def proven_short(s: Separation, required_ft: float) -> bool:
    """A shortfall the measurement proves, its accuracy included: only this is suggested
    as a finding (and drawn red on the site map)."""
    return s.distance_ft + s.accuracy_ft < required_ft


def separation_words(s: Separation, required: float | Requirement) -> str:
    """A separation as the evaluation tells it: "62.3 ft from the well, measured on the site
    map (accuracy ±12 ft; not a survey); 100 ft required", saying what raised it where a
    variant row or a note did ("...; 150 ft required: 100 ft + 50 % by note (g), shallow
    well"). Short, as an accepted finding is a defect of at most `NAME_LENGTH` characters
    with its section (10 NYCRR Appendix 75-A, Table 2), and never ending in brackets, which
    a recorded defect keeps for its section. `Requirement.basis` says it whole."""
    target = s.target.replace("_", " ")
    said = f"{s.distance_ft:,.1f} ft from the {target}, {measured_how(s)}; "
    if not isinstance(required, Requirement):
        return said + f"{required:g} ft required"
    return said + f"{required.ft:g} ft required{required.short}"


def well_condition_prompts(separations: Sequence[Separation], j: Jurisdiction
                           ) -> list[str]:
    """The wells whose conditions are not recorded and would decide a shortfall: far
    enough for the table's row, too near if a note applies (75-A Table 2, (g) a shallow
    well, (a) a system upgrade and in the path of drainage to it). Record them
    (`well-conditions`) so the notes are applied."""
    out = []
    for s in separations:
        if s.target != "well" or (s.shallow_well is not None and s.drainage_path is not None):
            continue
        # what the conditions recorded ask, an unknown one taken as no
        plain = separation_requirement(replace(s, shallow_well=s.shallow_well or False,
                                               drainage_path=s.drainage_path or False), j)
        if plain is None or proven_short(s, plain.ft):
            continue
        ifs = []
        # a neighbour's well brings its depth, never the path of drainage (its parcel's
        # record of its own system)
        own = s.source == "site map"
        for value, note, raised in (
                (s.shallow_well, "g", separation_requirement(replace(s, shallow_well=True), j)),
                (s.drainage_path if own else False, "a",
                 separation_requirement(replace(s, drainage_path=True), j))):
            if value is None and raised is not None and note in raised.notes \
                    and proven_short(s, raised.ft):
                ifs.append(f"{raised.ft:g} ft if "
                           + ("aquifer water enters it less than 50 ft below grade (note (g))"
                              if note == "g" else "the system is upgrade and in the general "
                              "path of drainage to it (note (a))"))
        if ifs:
            what = s.component.value.replace("_", " ")
            out.append(f"The well {s.distance_ft:,.1f} ft from {what} #{s.ordinal} "
                       f"({s.source}) is far enough for {plain.ft:g} ft, but "
                       f"{' and '.join(ifs)} ({j.cite('setbacks')}): record the well's "
                       "conditions.")
    return out


def separation_line(s: Separation, j: Jurisdiction) -> str:
    """A measured separation as the report of findings lists it, with what the table
    requires and what made it: "absorption area #1 to well: 111.4 ft (site map); 150 ft:
    100 ft (75-A Table 2, absorption field to well) + 50 % (note (g): shallow well)
    required"."""
    line = (f"{s.component.value.replace('_', ' ')} #{s.ordinal} to "
            f"{s.target.replace('_', ' ')}: {s.distance_ft:,.1f} ft ({s.source})")
    required = separation_requirement(s, j)
    return line if required is None else f"{line}; {required.basis} required"


_FIELD_METHODS = frozenset(m.value for m in LakeDistanceMethod)


def measured_how(s: Separation) -> str:
    """How a separation was measured, in words: "by tape" in the field, or on a map layer
    (the site map, a lot layer, the shoreline layer) with its accuracy, which is no survey:
    "measured on Lots v1 (accuracy ±2 ft; not a survey)"."""
    if s.source in _FIELD_METHODS:
        return f"measured by {s.source}"
    where = s.source
    if where.startswith("lot line, "):
        where = where.removeprefix("lot line, ")
    elif where in ("site map", "map"):
        where = "the site map" if where == "site map" else "the shoreline map"
    return f"measured on {where} (accuracy \u00b1{s.accuracy_ft:,.3g} ft; not a survey)"


def suggestions(case: Case, design: Design | None, lake: LakeFinding,
                separations: Sequence[Separation], j: Jurisdiction,
                decisions: Mapping[str, SuggestionStatus | Decision]
                ) -> tuple[Suggestion, ...]:
    out: list[Suggestion] = []
    dwelling: Dwelling | None = case.dwelling
    if design is not None and dwelling is not None:
        grinder = bool(dwelling.garbage_grinder)
        required = required_tank_gal(design.design_bedrooms, grinder, j)
        for c, n in zip(case.components, _ordinals(case.components), strict=True):
            capacity = c.details.get("capacity_gal")
            if c.kind is ComponentKind.SEPTIC_TANK and isinstance(capacity, int | float) and (
                    capacity < required):
                out.append(Suggestion(
                    key=f"septic_tank_capacity/septic_tank#{n}", component=c.kind, ordinal=n,
                    defect=f"capacity {capacity:,g} gal is below the {required:,} gal required "
                           f"for {design.design_bedrooms} design bedrooms"
                           + (" plus a garbage grinder" if grinder else "")
                           + (f": {design.why_bedrooms}" if design.why_bedrooms else ""),
                    citation=j.cite("septic_tank_capacity"),
                    section=j.citations["septic_tank_capacity"]))
    out += _observed_findings(case, design, j)
    out += pump_findings(case, j)
    measured = list(separations)
    if lake.distance_ft is not None and lake.accuracy_ft is not None and case.site:
        first = next((c for c in case.components if c.kind is lake.component), None)
        measured.append(Separation(component=lake.component, ordinal=1, target="lake",
                                   variant=None if first is None
                                   else setback_variant(first.kind, first.details),
                                   distance_ft=lake.distance_ft, accuracy_ft=lake.accuracy_ft,
                                   source=(lake.method if lake.source == "field"
                                           and lake.method else lake.layer or "map")))
    # the worst shortfall of each component to each kind of target (wells of different
    # recorded conditions are measured apart, and may require different distances)
    worst: dict[str, tuple[float, Separation, Requirement]] = {}
    for s in measured:
        needs = separation_requirement(s, j)
        if needs is None or not proven_short(s, needs.ft):
            continue
        key = f"setback/{s.component.value}#{s.ordinal}/{s.target}"
        by = needs.ft - s.distance_ft - s.accuracy_ft
        if key not in worst or by > worst[key][0]:
            worst[key] = (by, s, needs)
    for key, (_, s, needs) in worst.items():
        out.append(Suggestion(
            key=key, component=s.component,
            ordinal=s.ordinal, defect=separation_words(s, needs),
            citation=requirement_citation(needs, j), section=j.citations["setbacks"]))
    return tuple(_decided(replace(s, changes_record=acceptance_changes(case, s)),
                          decisions.get(s.key)) for s in out)


_BREAKOUT_KINDS = (ComponentKind.ABSORPTION_AREA, ComponentKind.SEEPAGE_PIT)
_BAFFLES = {"inlet_baffle": "inlet baffle/tee", "outlet_baffle": "outlet baffle/tee"}
_BAFFLE_DEFECTS = ("damaged", "missing")


def _observed_findings(case: Case, design: Design | None, j: Jurisdiction) -> list[Suggestion]:
    """What the recorded observations point to, for the inspector to accept or reject:
    effluent breaking out over the absorption area is a failure (§ 202-5 C); a damaged or
    missing baffle falls short of the design standard (§ 202-6 A, or B at the NYSDEC
    threshold)."""
    out: list[Suggestion] = []
    standard = ("design_standard_intermediate" if design is not None
                and design.standard == j.standard_at_threshold else "design_standard_75a")
    for c, n in zip(case.components, _ordinals(case.components), strict=True):
        words = c.kind.value.replace("_", " ")
        if c.kind in _BREAKOUT_KINDS and c.details.get("breakout") is True:
            out.append(Suggestion(
                key=f"failure/breakout/{c.kind.value}#{n}", component=c.kind, ordinal=n,
                defect=f"surface breakout of effluent observed on the {words}: the system is "
                       "in failure",
                citation=j.cite("system_in_failure"), section=j.citations["system_in_failure"],
                condition=Condition.FAILED))
        if c.kind is ComponentKind.SEPTIC_TANK:
            for name, label in _BAFFLES.items():
                value = c.details.get(name)
                if value in _BAFFLE_DEFECTS:
                    out.append(Suggestion(
                        key=f"baffle/{name}/{c.kind.value}#{n}", component=c.kind, ordinal=n,
                        defect=f"{label} {value}", same_as=(
                            f"{name.replace('_', ' ')} {value}",),
                        citation=j.cite(standard),
                        section=j.citations[standard]))
        if c.kind is ComponentKind.CESSPOOL:
            # 75-A knows no cesspool: sewage into a pit with no septic tank before it is no
            # acceptable system for new or replacement work
            out.append(Suggestion(
                key=f"cesspool/{c.kind.value}#{n}", component=c.kind, ordinal=n,
                defect="a cesspool (sewage into a pit, no septic tank before it) is not an "
                       "acceptable system under 10 NYCRR Appendix 75-A and is not allowed "
                       "for new or replacement work",
                citation=j.cite(standard), section=j.citations[standard]))
    return out


PUMP_KEY = "pump/"


def pump_basis(j: Jurisdiction) -> str:
    """What a "pump the tank" suggestion cites, as a draft shows it: the office's practice,
    marked while the share is unconfirmed."""
    unconfirmed = PUMP_SHARE_VALUE in j.unconfirmed_values
    return f"{j.pump_basis} (unconfirmed)" if unconfirmed else j.pump_basis


def tank_solids(case: Case) -> tuple[tuple[Component, int, TankSolids], ...]:
    """Each tank whose solids share is worked out, with its ordinal among its kind and its
    depths (recorded or not)."""
    return tuple((c, n, TankSolids.of(c.details))
                 for c, n in zip(case.components, _ordinals(case.components), strict=True)
                 if c.kind in SOLIDS_KINDS)


def pump_findings(case: Case, j: Jurisdiction) -> list[Suggestion]:
    """A septic tank whose sludge and scum take the jurisdiction's share of its liquid depth
    or more: "pump the tank", suggested after the office's practice (no section of the law;
    accepting records the finding without making the tank substandard). No liquid depth,
    no share and no suggestion."""
    out = []
    for c, n, t in tank_solids(case):
        if not t.reaches(j.pump_at_solids_share):
            continue
        out.append(Suggestion(
            key=f"{PUMP_KEY}{c.kind.value}#{n}", component=c.kind, ordinal=n,
            defect=f"pump the tank: {t.arithmetic}, at or above "
                   f"{share_words(j.pump_at_solids_share)}",
            citation=pump_basis(j), section=j.pump_basis, condition=Condition.ACCEPTABLE))
    return out


def _decided(s: Suggestion, decision: SuggestionStatus | Decision | None) -> Suggestion:
    if decision is None:
        return s
    if isinstance(decision, Decision):
        return replace(s, status=decision.status, decision=decision)
    return replace(s, status=decision)


def unsupported_findings(current: Sequence[Suggestion],
                         decisions: Mapping[str, SuggestionStatus | Decision],
                         ) -> tuple[Suggestion, ...]:
    """Accepted decisions whose suggestion the case no longer makes."""
    offered = {s.key for s in current}
    return tuple(
        Suggestion(key=key, component=None, ordinal=None, defect=d.defect, citation=d.citation,
                   section=d.citation, status=d.status, decision=d)
        for key, d in sorted(decisions.items())
        if key not in offered and isinstance(d, Decision)
        and d.status is SuggestionStatus.ACCEPTED)


# --- the whole evaluation --------------------------------------------------------------

def record_violations(case: Case, j: Jurisdiction, outcome: Outcome,
                      failed: Sequence[ComponentKind], evidence: Sequence[str]
                      ) -> tuple[DatedFinding, ...]:
    """Every violation the record makes, each with the date after which it stands."""
    out: list[DatedFinding] = []
    if outcome is Outcome.FAILURE:
        parts = [f"{k.value.replace('_', ' ')} failed" for k in failed] + list(evidence)
        out.append(DatedFinding(finding=Finding(
            code="system_in_failure", citation=j.cite("system_in_failure"),
            detail="; ".join(parts), since=case.inspection.date if case.inspection else None)))
    obs = case.observations
    if obs is not None and obs.absorption_area_encroachments:
        out.append(DatedFinding(finding=Finding(
            code="absorption_area_encroachment", citation=j.cite("absorption_area_encroachment"),
            detail="on the absorption area: " + ", ".join(obs.absorption_area_encroachments))))
    if obs is not None and obs.clear_water_connections:
        out.append(DatedFinding(finding=Finding(
            code="clear_water_discharge", citation=j.cite("clear_water_discharge"),
            detail="clear water into the system: " + ", ".join(obs.clear_water_connections))))
    if obs is not None and obs.holding_tank_discharges:
        # § 202-8 B: no discharge from the tank at any time; it stands from the inspection
        out.append(DatedFinding(finding=Finding(
            code="holding_tank_discharging", citation=j.cite("holding_tank_service"),
            detail="sewage discharging from the holding tank: "
                   + ", ".join(obs.holding_tank_discharges),
            since=case.inspection.date if case.inspection else None)))
    kinds = [c.kind for c in case.components]
    out += etu_findings(case.etu, ComponentKind.ENHANCED_TREATMENT_UNIT in kinds, j)
    out += holding_tank_findings(case.holding_tank_service,
                                 ComponentKind.HOLDING_TANK in kinds, j)
    return tuple(out)


def cured_key(f: Finding) -> str:
    """The key of the office's decision whether a cured lapse still calls for a notice."""
    return f"notice/{f.code}/{f.since.isoformat() if f.since else ''}"


def cured_lapses(dated: Sequence[DatedFinding],
                 decisions: Mapping[str, SuggestionStatus | Decision]
                 ) -> tuple[tuple[DatedFinding, ...], tuple[Suggestion, ...]]:
    """A lapse cured since is reported as cured; whether it still calls for a notice is the
    office's decision, offered as a suggestion. Returns the dated findings without those
    the office decided call for none (a cured lapse undecided calls for none), and the
    suggestions."""
    kept, offered = [], []
    for d in dated:
        f = d.finding
        if f.cured is None:
            kept.append(d)
            continue
        s = _decided(Suggestion(
            key=cured_key(f), component=None, ordinal=None,
            defect=f"{f.detail}: cured on {f.cured.isoformat()}; does it still call for a "
                   "notice of violation?", citation=f.citation, section=f.citation),
            decisions.get(cured_key(f)))
        offered.append(s)
        if s.status is not SuggestionStatus.REJECTED:
            kept.append(replace(d, finding=replace(
                f, calls_for_notice=s.status is SuggestionStatus.ACCEPTED)))
    return tuple(kept), tuple(offered)


def letters_for(outcome: Outcome, violations: Sequence[Finding], zone: Zone,
                greatest_extent: bool) -> tuple[LetterKind, ...]:
    """The letters an outcome, the standing violations and the lake zone call for (a cured
    lapse only where the office decided it still calls for a notice)."""
    letters: list[LetterKind] = []
    if outcome is Outcome.FAILURE or any(f.calls_for_notice for f in violations):
        letters.append(LetterKind.NOTICE_OF_VIOLATION)
    if outcome is Outcome.SUBSTANDARD and zone is Zone.BEYOND:
        letters.append(LetterKind.SUBSTANDARD_NOTICE)
    if outcome is Outcome.SUBSTANDARD and zone is Zone.WITHIN and greatest_extent:
        letters.append(LetterKind.LETTER_OF_ACKNOWLEDGEMENT)
    return tuple(letters)


def evaluate(case: Case, j: Jurisdiction, *, as_of: date,
             map_distance: MapDistance | None = None, separations: Sequence[Separation] = (),
             decisions: Mapping[str, SuggestionStatus | Decision] | None = None,
             component_distances: Sequence[ComponentDistance] = ()
             ) -> Evaluation:
    lake = lake_finding(case, j, map_distance)
    basis = design_zone(case, lake, component_distances, j)
    design, proposed = _designs(case, basis, j)
    failed = tuple(c.kind for c in case.components if c.condition is Condition.FAILED)
    substandard = tuple(c.kind for c in case.components if c.condition is Condition.SUBSTANDARD)
    unlocated = tuple(c.kind for c in case.components if c.condition is Condition.NOT_LOCATED)
    evidence = case.inspection.failure_evidence if case.inspection else ()

    outcome_citation: str | None
    if failed or evidence:
        outcome, outcome_citation = Outcome.FAILURE, j.cite("system_in_failure")
    elif substandard:
        outcome = Outcome.SUBSTANDARD
        # which of § 202-7 B and C applies waits on the zone: no section while undetermined
        path = {Zone.WITHIN: "substandard_within_200ft",
                Zone.BEYOND: "substandard_beyond_200ft"}.get(lake.zone)
        outcome_citation = None if path is None else j.cite(path)
    elif unlocated:
        outcome, outcome_citation = Outcome.INCOMPLETE, None
    else:
        outcome, outcome_citation = Outcome.ACCEPTABLE, None

    dated, cured = cured_lapses(record_violations(case, j, outcome, failed, evidence),
                                decisions or {})
    violations = standing_findings(dated, as_of)
    greatest_extent = bool(case.ahj and case.ahj.greatest_extent_possible)
    letters = letters_for(outcome, violations, lake.zone, greatest_extent)

    prompts = [lake.prompt] if lake.prompt else []
    if design is not None and basis.zone is not lake.zone and basis.zone is Zone.UNDETERMINED:
        prompts.append(f"The design load is provisional: {basis.detail}. Measure that "
                       "component's distance to the lake line, or import a shoreline layer "
                       "accurate enough to settle it.")
    if design is not None and design.ahj_determination_required:
        prompts.append(f"The living area is over {j.floor_area_bands[-1].max_sqft:,g} sq ft: "
                       "the AHJ must make the final determination of the design bedrooms "
                       f"({j.cite('ahj_final_determination')}).")
    if case.dwelling is None:
        prompts.append("Record the bedrooms and living area to compute the design load.")
    if unlocated:
        prompts.append("Locate " + ", ".join(k.value.replace("_", " ") for k in unlocated)
                       + " to complete the determination.")
    prompts += etu_report_prompts(case.etu, as_of, j)
    prompts += well_condition_prompts(separations, j)

    offered = suggestions(case, design, lake, separations, j, decisions or {}) + cured
    return Evaluation(
        as_of=as_of, design=design, proposed_design=proposed, lake=lake,
        triggers=inspection_triggers(case, j), outcome=outcome,
        outcome_citation=outcome_citation, substandard_components=substandard,
        failed_components=failed, unlocated_components=unlocated,
        violations=violations, letters=letters, dated_violations=dated,
        substandard_path=_substandard_path(outcome, lake.zone, greatest_extent, j,
                                           limitations=lot_limitations_recorded(case)),
        suggestions=offered, prompts=tuple(prompts), inspected=case.inspection is not None,
        unsupported=unsupported_findings(offered, decisions or {}),
        separations=tuple(separations), test_warnings=test_warnings(case, j),
        test_presets=tuple(p for k in TestKind if (p := volume_preset(
            k, case.dwelling.bedrooms if case.dwelling else None, j)) is not None),
        tanks=tuple((c.kind.value, n, t) for c, n, t in tank_solids(case) if t.recorded))


def next_inspection_due(last_inspection: date, j: Jurisdiction) -> date:
    """Article III: the next inspection of a lakefront system falls due one cycle after
    the last; a due date on a Saturday, a Sunday or a public holiday moves to the next
    business day (GCL § 25-a), as every date a letter, a work list or the program report
    states. The one place the due date is worked out."""
    return _due_after(last_inspection, j.inspection_cycle_years, j.holiday_calendar)


@lru_cache(maxsize=4096)
def _due_after(day: date, years: int, calendar: HolidayCalendar) -> date:
    # Remembered: the work lists ask it for thousands of parcels inspected on few dates.
    after: date = day + relativedelta(years=years)
    return next_business_day(after, calendar)


def lot_limitations_recorded(case: Case) -> bool:
    """Whether the record shows the lot's limitations (§ 202-7 B): the AHJ's findings on
    the B(1) factors, a local waiver, or its greatest-extent-possible determination."""
    a = case.ahj
    return a is not None and bool(a.greatest_extent_possible or a.waiver_granted
                                  or a.factors_weighed)


def _substandard_path(outcome: Outcome, zone: Zone, greatest_extent: bool,
                      j: Jurisdiction, *, limitations: bool = True) -> SubstandardPath | None:
    if outcome not in (Outcome.SUBSTANDARD, Outcome.FAILURE):
        return None
    failure = outcome is Outcome.FAILURE
    if zone is Zone.WITHIN and not limitations:
        return SubstandardPath(
            citation=j.cite("within_200ft"), zone=zone, upgrade_required=True,
            summary=("Within the lake setback the system must also comply with § 202-7. No "
                     "topographic, physiographic, lot size or other limitation of the lot is "
                     "on record, so meeting the design standards of § 202-6 \u201cto the "
                     "greatest extent possible\u201d "
                     f"({j.cite('substandard_within_200ft')}) is not offered: the design "
                     "standards of § 202-6 apply. If the lot has such limitations, record the "
                     f"AHJ's findings on the factors of {j.cite('greatest_extent_possible')}.")
            + (" The system is in failure and must be corrected." if failure else ""))
    if zone is Zone.WITHIN:
        return SubstandardPath(
            citation=j.cite("substandard_within_200ft"), zone=zone, upgrade_required=True,
            summary=("Within the lake setback: the owner must meet the design standards of "
                     "§ 202-6 to the greatest extent possible "
                     f"({j.cite('greatest_extent_possible')}); the AHJ may grant a local "
                     "waiver, weighing the factors below.")
            + (" The system is in failure and must be corrected." if failure else ""),
            waiver_factors=j.waiver_factors, greatest_extent_offered=True,
            holding_tank_option=(f"On a previously developed site the AHJ may allow a holding "
                                 f"tank as the best available technology "
                                 f"({j.cite('holding_tank_option')})."),
            acknowledgement=(f"The AHJ has determined the greatest extent possible: a building "
                             f"permit and a letter of acknowledgement follow "
                             f"({j.cite('letter_of_acknowledgement')})." if greatest_extent else
                             f"Once the AHJ determines the greatest extent possible, a letter of "
                             f"acknowledgement follows ({j.cite('letter_of_acknowledgement')})."))
    if zone is Zone.BEYOND:
        return SubstandardPath(
            citation=j.cite("substandard_beyond_200ft"), zone=zone, upgrade_required=failure,
            summary=("Beyond the lake setback: the owner is notified in writing that the system "
                     "is substandard, with every substandard component listed; "
                     + ("the system is in failure, so it must be corrected."
                        if failure else "no upgrade is required unless the system is in "
                                        "failure.")))
    return SubstandardPath(
        citation=j.cite("within_200ft"), zone=zone, upgrade_required=True if failure else None,
        summary=(f"Whether § 202-7 B (within {j.lake_setback_ft:g} ft) or C (beyond) applies "
                 "depends on the distance to the lake line, which is not settled: measure it "
                 "in the field."))
