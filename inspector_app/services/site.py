"""Recording where things are on a parcel, through the normal edit path."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from typing import Any

from ..domain.case import Capture, Site, SiteFeature
from ..domain.vocabulary import CaptureMethod, ComponentKind, SiteFeatureKind
from ..errors import InputError
from .workspace import Workspace

# What shape each kind of thing takes when captured from a list of points.
SHAPES = {
    SiteFeatureKind.ABSORPTION_AREA: "polygon", SiteFeatureKind.HOLDING_TANK: "point",
    SiteFeatureKind.WELL: "point", SiteFeatureKind.WATERCOURSE: "line",
    SiteFeatureKind.DWELLING: "polygon", SiteFeatureKind.PROPERTY_LINE: "line",
    SiteFeatureKind.WATER_SERVICE_LINE: "line", SiteFeatureKind.OTHER: "point",
}


def parse_target(text: str) -> tuple[SiteFeatureKind | None, ComponentKind | None, int]:
    """`well`, `absorption_area`, ... or `component:septic_tank#2`."""
    if text.startswith("component:"):
        name, _, number = text.removeprefix("component:").partition("#")
        try:
            return None, ComponentKind(name), int(number or 1)
        except ValueError:
            kinds = ", ".join(k.value for k in ComponentKind)
            raise InputError(f"{text!r} is not a component; write component:KIND[#N] with "
                             f"KIND one of {kinds}.") from None
    try:
        return SiteFeatureKind(text), None, 1
    except ValueError:
        kinds = ", ".join(k.value for k in SiteFeatureKind)
        raise InputError(f"{text!r} is not a site feature; use one of {kinds}, or "
                         "component:KIND[#N] for a component's location.") from None


def set_geometry(ws: Workspace, sbl: str, target: str, geometry: dict[str, Any], *,
                 method: CaptureMethod, accuracy_ft: float | None, note: str | None = None,
                 today: date | None = None) -> dict[str, Any]:
    feature_kind, component_kind, ordinal = parse_target(target)
    case = ws.load_case(sbl)
    site = case.site or Site()
    capture = Capture(method=method, accuracy_ft=accuracy_ft)
    if component_kind is not None:
        matches = [i for i, c in enumerate(case.components) if c.kind is component_kind]
        if len(matches) < ordinal:
            raise InputError(f"Parcel {sbl} has {len(matches)} {component_kind.value} "
                             f"component(s); there is no #{ordinal} to locate.")
        index = matches[ordinal - 1]
        components = list(case.components)
        components[index] = replace(components[index], geometry=geometry)
        case = replace(case, components=tuple(components))
    elif feature_kind is SiteFeatureKind.ABSORPTION_AREA:
        if geometry["type"] not in ("Polygon", "MultiPolygon"):
            raise InputError("The absorption area must be an area: give at least three "
                             "corners.")
        case = replace(case, site=replace(site, absorption_area=geometry,
                                          absorption_area_capture=capture))
    elif feature_kind is SiteFeatureKind.HOLDING_TANK:
        case = replace(case, site=replace(site, holding_tank=geometry,
                                          holding_tank_capture=capture))
    else:
        assert feature_kind is not None
        feature = SiteFeature(kind=feature_kind, geometry=geometry, capture_method=method,
                              capture_accuracy_ft=accuracy_ft, note=note)
        case = replace(case, site=replace(site, features=(*site.features, feature)))
    ws.save_case(case, today=today)
    out: dict[str, Any] = {"sbl": sbl, "target": target, "geometry": geometry,
                           "capture": {"method": method.value, "accuracy_ft": accuracy_ft}}
    if feature_kind in (SiteFeatureKind.ABSORPTION_AREA, SiteFeatureKind.HOLDING_TANK):
        lake = ws.evaluate_parcel(sbl, as_of=today).lake
        out["lake"] = {"distance_ft": lake.distance_ft, "source": lake.source,
                       "zone": lake.zone.value, "layer": lake.layer,
                       "accuracy_ft": lake.accuracy_ft}
    return out
