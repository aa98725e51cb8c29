"""Recording where things are on a parcel, through the normal edit path."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from typing import TYPE_CHECKING, Any

from ..domain.case import Capture, Site, SiteFeature
from ..domain.vocabulary import CaptureMethod, ComponentKind, SiteFeatureKind
from ..errors import InputError

if TYPE_CHECKING:
    from .workspace import Workspace

# What shape each kind of thing takes when captured from a list of points.
SHAPES = {
    SiteFeatureKind.ABSORPTION_AREA: "polygon", SiteFeatureKind.HOLDING_TANK: "point",
    SiteFeatureKind.WELL: "point", SiteFeatureKind.WATERCOURSE: "line",
    SiteFeatureKind.DWELLING: "polygon", SiteFeatureKind.PROPERTY_LINE: "line",
    SiteFeatureKind.WATER_SERVICE_LINE: "line", SiteFeatureKind.OTHER: "point",
}


def _shape(target: str, points: int) -> str:
    """The shape a list of points makes for a target: a point, a line or an area."""
    feature_kind, _, _ = parse_target(target)
    shape = "point" if feature_kind is None else SHAPES[feature_kind]
    if points == 1:
        return "point"
    if shape == "point":
        return "polygon" if points >= 3 else "line"
    return shape


def parse_points(text: str, where: str) -> list[tuple[float, float]]:
    """'x,y x,y ...' as typed or copied off a plan."""
    from ..geo.capture import parse_pairs

    return parse_pairs(text, where)


def set_from_state_plane(ws: Workspace, sbl: str, target: str,
                         points_ft: list[tuple[float, float]], *,
                         method: CaptureMethod = CaptureMethod.SKETCH,
                         accuracy_ft: float | None = None, note: str | None = None,
                         today: date | None = None) -> dict[str, Any]:
    """Points drawn on the site map or read off a survey plan (EPSG:2261 feet)."""
    from ..geo.capture import from_state_plane

    geometry = from_state_plane(points_ft, _shape(target, len(points_ft)), "State Plane "
                                "coordinates")
    return set_geometry(ws, sbl, target, geometry, method=method, accuracy_ft=accuracy_ft,
                        note=note, today=today)


def set_from_lonlat(ws: Workspace, sbl: str, target: str, text: str, *,
                    accuracy_ft: float | None = None, note: str | None = None,
                    today: date | None = None) -> dict[str, Any]:
    """Typed longitude,latitude pairs."""
    from ..geo.capture import from_lonlat, parse_pairs

    pairs = parse_pairs(text, "typed coordinates")
    return set_geometry(ws, sbl, target, from_lonlat(pairs, _shape(target, len(pairs)),
                                                     "typed coordinates"),
                        method=CaptureMethod.TYPED_LONLAT, accuracy_ft=accuracy_ft, note=note,
                        today=today)


def set_from_file(ws: Workspace, sbl: str, target: str, path: Any, *,
                  accuracy_ft: float | None = None, note: str | None = None,
                  today: date | None = None) -> dict[str, Any]:
    """One geometry from a GeoJSON, Shapefile or GeoPackage file."""
    from ..geo.capture import from_file

    return set_geometry(ws, sbl, target, from_file(path), method=CaptureMethod.FILE,
                        accuracy_ft=accuracy_ft, note=note, today=today)


def _from_fixes(ws: Workspace, sbl: str, target: str, fixes: list[Any], *,
                accuracy_ft: float | None, note: str | None,
                today: date | None) -> dict[str, Any]:
    from ..geo.capture import from_lonlat

    pairs = [(f.longitude, f.latitude) for f in fixes]
    result = set_geometry(ws, sbl, target, from_lonlat(pairs, _shape(target, len(pairs)), "GPS"),
                          method=CaptureMethod.GPS,
                          accuracy_ft=accuracy_ft if accuracy_ft is not None
                          else round(max(f.accuracy_ft for f in fixes), 1),
                          note=note, today=today)
    result["gps"] = [f.as_json() for f in fixes]
    return result


def set_from_gps_logs(ws: Workspace, sbl: str, target: str, logs: list[Any], *,
                      accuracy_ft: float | None = None, note: str | None = None,
                      today: date | None = None) -> dict[str, Any]:
    """One averaged position per NMEA log: a point, or the corners of an area."""
    from ..geo.capture import average_log

    return _from_fixes(ws, sbl, target, [average_log(log) for log in logs],
                       accuracy_ft=accuracy_ft, note=note, today=today)


def set_from_gps_device(ws: Workspace, sbl: str, target: str, port: str, *,
                        seconds: float = 10.0, baud: int = 4800,
                        accuracy_ft: float | None = None, note: str | None = None,
                        today: date | None = None) -> dict[str, Any]:
    """Average a serial GPS's fixes for some seconds into one position."""
    from ..geo.capture import average_device

    return _from_fixes(ws, sbl, target, [average_device(port, seconds=seconds, baud=baud)],
                       accuracy_ft=accuracy_ft, note=note, today=today)


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
