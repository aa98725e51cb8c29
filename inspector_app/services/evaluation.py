"""Evaluating cases under the data folder's jurisdiction, and the contract's JSON for it."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

from ..domain.jurisdiction import Jurisdiction, JurisdictionError, parse_jurisdiction
from ..domain.rules import Design, Evaluation, Finding, Suggestion
from ..paths import resource

DEFAULT_JURISDICTION = ("jurisdictions", "town-of-canandaigua-ch202.toml")
DATA_FOLDER_JURISDICTION = "jurisdiction.toml"


def load_jurisdiction_file(path: Path) -> Jurisdiction:
    try:
        text = path.read_text("utf-8")
    except FileNotFoundError:
        raise JurisdictionError(f"{path}: no such jurisdiction file.") from None
    except UnicodeDecodeError:
        raise JurisdictionError(f"{path}: is not UTF-8 text.") from None
    return parse_jurisdiction(text, source=str(path))


def jurisdiction_for(data_dir: Path) -> Jurisdiction:
    """The data folder's own jurisdiction file if it has one, else the bundled default."""
    own = data_dir / DATA_FOLDER_JURISDICTION
    return load_jurisdiction_file(own if own.exists() else resource(*DEFAULT_JURISDICTION))


def _date(value: date | None) -> str | None:
    return None if value is None else value.isoformat()


def _design(d: Design | None) -> dict[str, Any] | None:
    if d is None:
        return None
    return {"design_bedrooms": d.design_bedrooms, "gpd_per_bedroom": d.gpd_per_bedroom,
            "design_load_gpd": d.design_load_gpd, "standard": d.standard,
            "ahj_determination_required": d.ahj_determination_required,
            "provisional": d.provisional, "basis": d.basis, "arithmetic": d.arithmetic,
            "citations": list(d.citations)}


def _finding(f: Finding) -> dict[str, Any]:
    out: dict[str, Any] = {"code": f.code, "citation": f.citation, "detail": f.detail}
    if f.since is not None:
        out["since"] = f.since.isoformat()
    return out


def _suggestion(s: Suggestion) -> dict[str, Any]:
    return {"key": s.key, "component": None if s.component is None else s.component.value,
            "condition": "substandard", "defect": s.defect, "citation": s.citation,
            "status": s.status.value}


def evaluation_json(e: Evaluation, j: Jurisdiction) -> dict[str, Any]:
    """The `evaluate` document: the contract's keys, then this app's additions."""
    out: dict[str, Any] = {
        "design": _design(e.design),
        "lake": {"distance_ft": e.lake.distance_ft, "source": e.lake.source,
                 "zone": e.lake.zone.value, "accuracy_ft": e.lake.accuracy_ft,
                 "method": e.lake.method, "layer": e.lake.layer, "citation": e.lake.citation},
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
    out["prompts"] = list(e.prompts)
    out["as_of"] = e.as_of.isoformat()
    out["jurisdiction"] = {"id": j.id, "name": j.name, "file": j.source}
    return out
