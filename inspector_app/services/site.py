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


def set_from_state_plane(ws: Workspace, sbl: str, target: str,
                         points_ft: list[tuple[float, float]], *,
                         method: CaptureMethod = CaptureMethod.SKETCH) -> dict[str, Any]:
    """Points drawn on the site map or read off a survey plan (EPSG:2261 feet)."""
    from ..geo.capture import from_state_plane

    feature_kind, _, _ = parse_target(target)
    shape = "point" if feature_kind is None else SHAPES[feature_kind]
    if shape == "point" and len(points_ft) >= 3:
        shape = "polygon"
    return set_geometry(ws, sbl, target, from_state_plane(points_ft, shape, "the site map"),
                        method=method, accuracy_ft=None)


def set_from_lonlat(ws: Workspace, sbl: str, target: str, text: str) -> dict[str, Any]:
    """Typed longitude,latitude pairs."""
    from ..geo.capture import from_lonlat, parse_pairs

    feature_kind, _, _ = parse_target(target)
    pairs = parse_pairs(text, "typed coordinates")
    shape = "point" if feature_kind is None else SHAPES[feature_kind]
    if shape == "point" and len(pairs) >= 3:
        shape = "polygon"
    return set_geometry(ws, sbl, target, from_lonlat(pairs, shape, "typed coordinates"),
                        method=CaptureMethod.TYPED_LONLAT, accuracy_ft=None)


def set_from_gps_logs(ws: Workspace, sbl: str, target: str, logs: list[Any]) -> dict[str, Any]:
    """One averaged position per NMEA log: a point, or the corners of an area."""
    from ..geo.capture import average_log, from_lonlat

    fixes = [average_log(log) for log in logs]
    feature_kind, _, _ = parse_target(target)
    shape = "point" if feature_kind is None else SHAPES[feature_kind]
    pairs = [(f.longitude, f.latitude) for f in fixes]
    if len(pairs) == 1:
        shape = "point"
    elif shape == "point":
        shape = "polygon" if len(pairs) >= 3 else "line"
    result = set_geometry(ws, sbl, target, from_lonlat(pairs, shape, "GPS"),
                          method=CaptureMethod.GPS,
                          accuracy_ft=round(max(f.accuracy_ft for f in fixes), 1))
    result["gps"] = [f.as_json() for f in fixes]
    return result


def set_from_gps_device(ws: Workspace, sbl: str, target: str, port: str, *,
                        seconds: float = 10.0, baud: int = 4800) -> dict[str, Any]:
    """Average a serial GPS's fixes for some seconds into one position."""
    from ..geo.capture import average_device, from_lonlat

    fix = average_device(port, seconds=seconds, baud=baud)
    result = set_geometry(ws, sbl, target, from_lonlat([(fix.longitude, fix.latitude)],
                                                      "point", "GPS"),
                          method=CaptureMethod.GPS, accuracy_ft=round(fix.accuracy_ft, 1))
    result["gps"] = [fix.as_json()]
    return result


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
