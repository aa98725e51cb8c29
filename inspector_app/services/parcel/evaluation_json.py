"""An evaluation as the command line's JSON (the public contract's keys and the app's own)."""

from __future__ import annotations

from datetime import date
from typing import Any

from ...domain.field_tests import TestWarning, VolumePreset
from ...domain.jurisdiction import Jurisdiction
from ...domain.rules import (
    Design,
    DesignZone,
    Evaluation,
    Finding,
    Separation,
    Suggestion,
    pump_basis,
    requirement_citation,
    separation_requirement,
)
from ...domain.tank import TankSolids
from ..session.laws import NoLawFacts


def no_law_json(f: NoLawFacts) -> dict[str, Any]:
    """The `evaluate` document of a parcel with no law on file: the contract's keys hold
    no judgement (no design, no zone, no outcome, no findings, no letters)."""
    insp = f.inspection
    return {
        "status": f.status, "message": f.sentence, "municipality": f.municipality,
        "design": None,
        "lake": {"distance_ft": f.lake_distance_ft, "source": f.lake_source, "zone": None,
                 "accuracy_ft": f.lake_accuracy_ft, "method": f.lake_method,
                 "layer": f.lake_layer, "citation": None,
                 "layer_accuracy_ft": f.lake_layer_accuracy_ft,
                 "capture_accuracy_ft": f.lake_capture_accuracy_ft,
                 "measured_from": None},
        "inspection_triggers": [], "outcome": None, "substandard_components": [],
        "violations": [], "letters": [],
        "recorded": {
            "components": [{"kind": c.kind.value, "condition": c.condition.value,
                            "defects": list(c.defects)} for c in f.components],
            "inspection": None if insp is None else {
                "date": insp.date.isoformat(), "inspector": insp.inspector,
                "failure_evidence": list(insp.failure_evidence)},
            "observations": None if f.observations is None else {
                "absorption_area_encroachments": list(
                    f.observations.absorption_area_encroachments),
                "clear_water_connections": list(f.observations.clear_water_connections),
                # as the case file has it: only where a discharge was recorded
                **({"holding_tank_discharges": list(f.observations.holding_tank_discharges)}
                   if f.observations.holding_tank_discharges else {})}},
        "inspected": insp is not None, "suggested_findings": [], "prompts": [],
        "as_of": f.as_of.isoformat(), "jurisdiction": None,
    }


def _date(value: date | None) -> str | None:
    return None if value is None else value.isoformat()


def _design(d: Design | None) -> dict[str, Any] | None:
    if d is None:
        return None
    return {"design_bedrooms": d.design_bedrooms, "gpd_per_bedroom": d.gpd_per_bedroom,
            "design_load_gpd": d.design_load_gpd, "standard": d.standard,
            "ahj_determination_required": d.ahj_determination_required,
            "provisional": d.provisional, "basis": d.basis, "arithmetic": d.arithmetic,
            "citations": list(d.citations), "zone": _design_zone(d.zone_basis)}


def _design_zone(z: DesignZone | None) -> dict[str, Any] | None:
    """Which component decided the design-load zone (§ 202-6 C(1)-(2)), and how far."""
    if z is None:
        return None
    return {"zone": z.zone.value, "component": None if z.component is None else z.component.value,
            "ordinal": z.ordinal, "distance_ft": z.distance_ft, "accuracy_ft": z.accuracy_ft,
            "source": z.source, "citation": z.citation, "detail": z.detail}


def _finding(f: Finding) -> dict[str, Any]:
    out: dict[str, Any] = {"code": f.code, "citation": f.citation, "detail": f.detail}
    if f.since is not None:
        out["since"] = f.since.isoformat()
    return out


def _suggestion(s: Suggestion) -> dict[str, Any]:
    return {"key": s.key, "component": None if s.component is None else s.component.value,
            "condition": s.condition.value, "defect": s.defect, "citation": s.citation,
            "status": s.status.value, "changes_record": s.changes_record}


def _separation(s: Separation, j: Jurisdiction) -> dict[str, Any]:
    required = separation_requirement(s, j)
    out: dict[str, Any] = {"component": s.component.value, "ordinal": s.ordinal, "target": s.target,
           "distance_ft": s.distance_ft, "accuracy_ft": s.accuracy_ft, "source": s.source,
           # a whole number of feet as the jurisdiction file writes it: 10, not 10.0
           "required_ft": None if required is None else (
               int(required.ft) if float(required.ft).is_integer() else required.ft),
           "citation": None if required is None else requirement_citation(required, j),
           # what made the required distance: the table's row and the notes applied
           "required_basis": None if required is None else required.basis}
    if s.target == "well":
        out["well_conditions"] = {"shallow": s.shallow_well, "drainage_path": s.drainage_path}
    return out


def _test_warning(w: TestWarning) -> dict[str, Any]:
    return {"test": w.test, "kind": w.kind.value, "tested_on": w.tested_on.isoformat(),
            "pumped_on": w.pumped_on.isoformat(), "days": w.days, "pumped": w.pumped,
            "detail": w.text, "unconfirmed": w.unconfirmed}


def _test_preset(p: VolumePreset) -> dict[str, Any]:
    return {"kind": p.kind.value, "bedrooms": p.bedrooms, "volume_gal": p.volume_gal,
            "duration_min": p.duration_min, "arithmetic": p.arithmetic,
            "unconfirmed": p.unconfirmed}


def _tank(kind: str, ordinal: int, t: TankSolids, j: Jurisdiction) -> dict[str, Any]:
    """A septic tank's solids share with its arithmetic, and the share that suggests
    pumping (the office's practice; `pump_at_unconfirmed` while the Town has not confirmed
    it)."""
    share = t.share
    return {"component": kind, "ordinal": ordinal, "sludge_depth_in": t.sludge_in,
            "scum_depth_in": t.scum_in, "liquid_depth_in": t.liquid_depth_in,
            "solids_depth_in": t.solids_in,
            "solids_share": None if share is None else round(float(share), 4),
            "solids_percent": t.percent, "arithmetic": t.arithmetic,
            "pump_at_share": str(j.pump_at_solids_share),
            "pump_suggested": t.reaches(j.pump_at_solids_share),
            "pump_basis": pump_basis(j)}


def evaluation_json(e: Evaluation, j: Jurisdiction) -> dict[str, Any]:
    """The `evaluate` document: the contract's keys, then this app's additions."""
    out: dict[str, Any] = {
        "status": "evaluated",
        "design": _design(e.design),
        # accuracy_ft: what the zone was decided with, the sum of the layer's declared
        # accuracy and the capture accuracy of what was measured (`measured_from`)
        "lake": {"distance_ft": e.lake.distance_ft, "source": e.lake.source,
                 "zone": e.lake.zone.value, "accuracy_ft": e.lake.accuracy_ft,
                 "method": e.lake.method, "layer": e.lake.layer, "citation": e.lake.citation,
                 "layer_accuracy_ft": e.lake.layer_accuracy_ft,
                 "capture_accuracy_ft": e.lake.capture_accuracy_ft,
                 "measured_from": e.lake.component.value},
        "inspection_triggers": [_finding(t) for t in e.triggers],
        "outcome": e.outcome.value,
        "substandard_components": [k.value for k in e.substandard_components],
        "violations": [_finding(v) for v in e.violations],
        "letters": [k.value for k in e.letters],
    }
    if e.proposed_design is not None:
        out["proposed_design"] = _design(e.proposed_design)
    if e.unlocated_components:
        out["unlocated_components"] = [k.value for k in e.unlocated_components]
    if e.failed_components:
        out["failed_components"] = [k.value for k in e.failed_components]
    if e.outcome_citation:
        out["outcome_citation"] = e.outcome_citation
    if e.lake.prompt:
        out["lake"]["prompt"] = e.lake.prompt
    if e.substandard_path is not None:
        p = e.substandard_path
        out["substandard_requirements"] = {
            "citation": p.citation, "zone": p.zone.value, "summary": p.summary,
            "upgrade_required": p.upgrade_required, "waiver_factors": list(p.waiver_factors),
            "holding_tank_option": p.holding_tank_option, "acknowledgement": p.acknowledgement}
    # False when no inspection is on record: "acceptable" then rests on no inspection.
    out["inspected"] = e.inspected
    out["suggested_findings"] = [_suggestion(s) for s in e.suggestions]
    # What the setback suggestions went by: each component's nearest well, dwelling,
    # property line (drawn, or the lot line of the tax map) and water, with its source.
    out["separations"] = [_separation(s, j) for s in e.separations]
    if e.tanks:
        out["tanks"] = [_tank(kind, n, t, j) for kind, n, t in e.tanks]
    out["prompts"] = list(e.prompts)
    # Field tests made soon after a recorded pump-out, where there are any, and the volume
    # preset of each kind of test at this dwelling (the jurisdiction file's [field_tests]).
    if e.test_warnings:
        out["test_warnings"] = [_test_warning(w) for w in e.test_warnings]
    if e.test_presets:
        out["test_presets"] = [_test_preset(p) for p in e.test_presets]
    out["as_of"] = e.as_of.isoformat()
    out["jurisdiction"] = {"id": j.id, "name": j.name, "law": j.title, "file": j.source,
                           "example": j.example}
    return out
