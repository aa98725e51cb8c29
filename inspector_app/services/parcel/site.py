"""Recording where things are on a parcel, through the normal edit path."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from datetime import date
from types import EllipsisType
from typing import TYPE_CHECKING, Any

from ...domain.case import Capture, Case, Site, SiteFeature
from ...domain.vocabulary import CaptureMethod, ComponentKind, SiteFeatureKind
from ...domain.water_body import CANANDAIGUA_LAKE, NEAR_LAKE_MI
from ...errors import InputError
from .cases import store_case
from .evaluation import assess_parcel

if TYPE_CHECKING:
    from ..session.session import Session

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
    from ...geo.capture import parse_pairs

    return parse_pairs(text, where)


def set_from_state_plane(ws: Session, sbl: str, target: str,
                         points_ft: list[tuple[float, float]], *,
                         method: CaptureMethod = CaptureMethod.SKETCH,
                         accuracy_ft: float | None = None, note: str | None = None,
                         today: date | None = None) -> dict[str, Any]:
    """Points drawn on the site map or read off a survey plan (EPSG:2261 feet)."""
    from ...geo.capture import from_state_plane

    geometry = from_state_plane(points_ft, _shape(target, len(points_ft)), "State Plane "
                                "coordinates")
    return set_geometry(ws, sbl, target, geometry, method=method, accuracy_ft=accuracy_ft,
                        note=note, today=today)


def set_from_lonlat(ws: Session, sbl: str, target: str,
                    text: str | Sequence[tuple[float, float]], *,
                    accuracy_ft: float | None = None, note: str | None = None,
                    today: date | None = None) -> dict[str, Any]:
    """Typed longitude,latitude pairs (as text, or as pairs already checked)."""
    from ...geo.capture import from_lonlat, parse_pairs

    pairs = parse_pairs(text, "typed coordinates") if isinstance(text, str) else list(text)
    return set_geometry(ws, sbl, target, from_lonlat(pairs, _shape(target, len(pairs)),
                                                     "typed coordinates"),
                        method=CaptureMethod.TYPED_LONLAT, accuracy_ft=accuracy_ft, note=note,
                        today=today)


# --- typed coordinates, in either coordinate system ------------------------------------

COORDINATE_SYSTEMS = {
    "lonlat": "Longitude, latitude (WGS84 degrees, as GPS and web maps give them)",
    "state_plane": "NY State Plane Central easting, northing (US survey feet, EPSG:2261)",
}
_ORDER = {"lonlat": "longitude,latitude", "state_plane": "easting,northing"}
_EXAMPLE = {"lonlat": "-77.3001,42.8001", "state_plane": "628400.25,1021000.50"}
_US_FT_PER_M = 1 / 0.3048006096
_NY_LAT = (40.0, 46.0)
_NY_LON = (-80.5, -71.0)
_SHOWN_PROBLEMS = 5


def target_label(target: str) -> str:
    """`absorption_area` -> "Absorption area"; `component:septic_tank#2` -> "Septic tank #2"."""
    feature_kind, component_kind, ordinal = parse_target(target)
    if component_kind is not None:
        words = component_kind.value.replace("_", " ")
        return f"{words.capitalize()}{f' #{ordinal}' if ordinal > 1 else ''}"
    assert feature_kind is not None
    return feature_kind.value.replace("_", " ").capitalize()


def points_needed(target: str) -> tuple[int, str]:
    """The fewest points a target takes, and what they are called."""
    feature_kind, _, _ = parse_target(target)
    shape = "point" if feature_kind is None else SHAPES[feature_kind]
    return {"point": (1, "point"), "line": (2, "points"), "polygon": (3, "corners")}[shape]


def _miles_from_lake(x_ft: float, y_ft: float) -> float:
    return CANANDAIGUA_LAKE.miles_from(x_ft, y_ft)


def _near_lake(x_ft: float, y_ft: float) -> bool:
    return _miles_from_lake(x_ft, y_ft) <= NEAR_LAKE_MI


def _in(value: float, bounds: tuple[float, float]) -> bool:
    return bounds[0] <= value <= bounds[1]


def _point_problem(x: float, y: float, tx: str, ty: str, system: str) -> str | None:
    """Why a typed pair cannot be a point near the lake in the chosen system, or None."""
    from ...geo.crs import lonlat_to_feet

    pair = f"{tx}, {ty}"
    degrees = -180 <= x <= 180 and -90 <= y <= 90
    if system == "lonlat":
        if not degrees:
            if _near_lake(x, y):
                return (f"{pair} look like State Plane feet (easting, northing), not degrees: "
                        f"choose “{COORDINATE_SYSTEMS['state_plane']}” as the "
                        f"coordinate system, or type longitude,latitude such as "
                        f"{_EXAMPLE['lonlat']}.")
            return (f"{pair} are not degrees (longitude -180 to 180, latitude -90 to 90): "
                    f"type longitude,latitude such as {_EXAMPLE['lonlat']}.")
        if _in(x, _NY_LAT) and _in(y, _NY_LON):
            return (f"latitude and longitude look swapped ({pair}): put the longitude first: "
                    f"{ty},{tx}.")
        if _in(-x, _NY_LON) and _in(y, _NY_LAT):
            return (f"longitude {tx} is east of Greenwich; at the lake longitudes are "
                    f"negative: write -{tx.lstrip('+')}.")
        fx, fy = (float(v) for v in lonlat_to_feet(x, y))
        miles = _miles_from_lake(fx, fy)
        if miles > NEAR_LAKE_MI:
            return (f"{pair} is {_far(miles)} from Canandaigua Lake: check the numbers (at "
                    "the lake, longitude is about -77.3 and latitude about 42.8).")
        return None
    if degrees:
        return (f"{pair} look like longitude,latitude in degrees, not feet: choose "
                f"“{COORDINATE_SYSTEMS['lonlat']}” as the coordinate system, or "
                f"type easting,northing in feet such as {_EXAMPLE['state_plane']}.")
    miles = _miles_from_lake(x, y)
    if miles <= NEAR_LAKE_MI:
        return None
    if _near_lake(y, x):
        return (f"easting and northing look swapped ({pair}): put the easting first: "
                f"{ty},{tx}.")
    if _near_lake(x * _US_FT_PER_M, y * _US_FT_PER_M):
        return (f"{pair} look like metres: this coordinate system takes US survey feet "
                "(multiply metres by 3.2808333).")
    return (f"{pair} is {_far(miles)} from Canandaigua Lake: check the numbers (at the lake, "
            "easting is about 610,000 to 640,000 ft and northing about 980,000 to "
            "1,055,000 ft).")


def _far(miles: float) -> str:
    """How far off a point is, said against the margin it is outside of."""
    distance = "very far" if not math.isfinite(miles) else (
        f"about {miles:,.1f} mi" if miles < 100 else f"about {miles:,.0f} mi")
    return f"{distance} (more than {NEAR_LAKE_MI:g} mi)"


def typed_points(text: str, system: str, target: str) -> list[tuple[float, float]]:
    """Coordinates typed one point per line, checked line by line: numbers, pairs, the
    chosen coordinate system and the Canandaigua Lake area. Raises InputError naming each
    bad line and its fix."""
    if system not in COORDINATE_SYSTEMS:
        choices = " or ".join(repr(k) for k in COORDINATE_SYSTEMS)
        raise InputError(f"{system!r} is not a coordinate system this app takes; use "
                         f"{choices}.")
    order, example = _ORDER[system], _EXAMPLE[system]
    points: list[tuple[float, float]] = []
    problems: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        cleaned = line.replace("\u2212", "-").replace("\u00b0", " ")
        tokens = cleaned.replace(",", " ").replace(";", " ").split()
        if not tokens:
            continue
        values: list[float] = []
        for token in tokens:
            try:
                value = float(token)
            except ValueError:
                value = math.nan
            if not math.isfinite(value):
                problems.append(f"Line {number}: {token!r} is not a number; write each point "
                                f"as {order}, e.g. {example}.")
                break
            values.append(value)
        else:
            if len(values) % 2:
                fix = (" Write feet without thousands separators (628400.25, not 628,400.25)."
                       if system == "state_plane" else "")
                problems.append(f"Line {number}: {len(values)} numbers; each point takes two, "
                                f"{order}, e.g. {example}.{fix}")
                continue
            for i in range(0, len(values), 2):
                problem = _point_problem(values[i], values[i + 1], tokens[i], tokens[i + 1],
                                         system)
                if problem is None:
                    points.append((values[i], values[i + 1]))
                else:
                    problems.append(f"Line {number}: {problem}")
    if problems:
        shown = problems[:_SHOWN_PROBLEMS]
        if len(problems) > len(shown):
            shown.append(f"... and {len(problems) - len(shown)} more lines like these.")
        raise InputError("\n".join([*shown, "Nothing was saved."]))
    needed, called = points_needed(target)
    label = target_label(target).lower()
    if not points:
        raise InputError(f"No coordinates were typed: write {order} of each point on its own "
                         f"line, e.g. {example}. Nothing was saved.")
    if len(points) < needed:
        typed = f"{len(points)} {'was' if len(points) == 1 else 'were'} typed"
        raise InputError(f"The {label} needs at least {needed} {called}, one per line; only "
                         f"{typed}. Nothing was saved.")
    return points


def set_from_typed(ws: Session, sbl: str, target: str, text: str, system: str, *,
                   accuracy_ft: float | None = None, note: str | None = None,
                   today: date | None = None) -> dict[str, Any]:
    """Coordinates typed in the chosen system (`lonlat` or `state_plane`), checked line by
    line before anything is saved."""
    points = typed_points(text, system, target)
    if system == "state_plane":
        return set_from_state_plane(ws, sbl, target, points, method=CaptureMethod.SURVEY_PLAN,
                                    accuracy_ft=accuracy_ft, note=note, today=today)
    return set_from_lonlat(ws, sbl, target, points, accuracy_ft=accuracy_ft, note=note,
                           today=today)


def recorded_points(case: Case, target: str) -> list[tuple[float, float]]:
    """The longitude,latitude points of the shape typing coordinates for `target` would
    replace: the absorption area's corners (without the ring's closing point), the holding
    tank's or a component's point. Nothing for a site feature (typing adds another one) or
    a shape not recorded."""
    feature_kind, component_kind, ordinal = parse_target(target)
    site = case.site
    geometry: dict[str, Any] | None = None
    if component_kind is not None:
        located = [c for c in case.components if c.kind is component_kind]
        geometry = located[ordinal - 1].geometry if len(located) >= ordinal else None
    elif site is not None and feature_kind is SiteFeatureKind.ABSORPTION_AREA:
        geometry = site.absorption_area
    elif site is not None and feature_kind is SiteFeatureKind.HOLDING_TANK:
        geometry = site.holding_tank
    if geometry is None:
        return []
    coordinates = geometry.get("coordinates") or ()
    if geometry.get("type") == "Polygon":
        ring = _positions(coordinates[0] if coordinates else ())
        return ring[:-1] if len(ring) > 1 and ring[0] == ring[-1] else ring
    if geometry.get("type") == "MultiPolygon":
        return []  # several areas: typing gives one, so nothing is offered to edit
    return _positions(coordinates)


def typed_text(points_lonlat: Sequence[tuple[float, float]], system: str) -> str:
    """Points as the coordinates dialog takes them, one per line: longitude,latitude to 8
    decimals (about 1 mm), or State Plane easting,northing in feet to 2 decimals."""
    if not points_lonlat:
        return ""
    if system == "state_plane":
        from ...geo.crs import lonlat_to_feet

        xs, ys = lonlat_to_feet([p[0] for p in points_lonlat], [p[1] for p in points_lonlat])
        return "\n".join(f"{float(x):.2f},{float(y):.2f}" for x, y in zip(xs, ys, strict=True))
    return "\n".join(f"{lon:.8f},{lat:.8f}" for lon, lat in points_lonlat)


def set_from_file(ws: Session, sbl: str, target: str, path: Any, *,
                  accuracy_ft: float | None = None, note: str | None = None,
                  today: date | None = None) -> dict[str, Any]:
    """One geometry from a GeoJSON, Shapefile or GeoPackage file."""
    from ...geo.capture import from_file

    return set_geometry(ws, sbl, target, from_file(path), method=CaptureMethod.FILE,
                        accuracy_ft=accuracy_ft, note=note, today=today)


def _from_fixes(ws: Session, sbl: str, target: str, fixes: list[Any], sources: list[str], *,
                accuracy_ft: float | None, note: str | None, today: date | None,
                averaged: Any = None) -> dict[str, Any]:
    """Store what GPS fixes give: one averaged position per source (a log, a device), or
    `averaged`, when given, the sources' fixes averaged together into one point."""
    from ...geo.capture import from_lonlat

    kept = fixes if averaged is None else [averaged]
    pairs = [(f.longitude, f.latitude) for f in kept]
    result = set_geometry(ws, sbl, target, from_lonlat(pairs, _shape(target, len(pairs)), "GPS"),
                          method=CaptureMethod.GPS,
                          accuracy_ft=accuracy_ft if accuracy_ft is not None
                          else round(max(f.accuracy_ft for f in kept), 1),
                          note=note, today=today)
    result["gps"] = [f.as_json() for f in fixes]
    if averaged is not None:
        result["gps_averaged"] = averaged.as_json()
    notes = [f"{source}: {f.note}" for f, source in zip(fixes, sources, strict=True) if f.note]
    if notes:
        result["notes"] = notes
    return result


def set_from_gps_logs(ws: Session, sbl: str, target: str, logs: list[Any], *,
                      accuracy_ft: float | None = None, note: str | None = None,
                      today: date | None = None) -> dict[str, Any]:
    """NMEA logs, each averaged on its own: for a point (a well, a tank, a component) all
    the logs are averaged together into the one point; for a line or an area each log is
    one point or corner, in order."""
    from ...geo.capture import average_log, average_together

    fixes = [average_log(log) for log in logs]
    names = [str(log) for log in logs]
    averaged = (average_together(fixes, names)
                if points_needed(target)[0] == 1 and len(fixes) > 1 else None)
    return _from_fixes(ws, sbl, target, fixes, names, accuracy_ft=accuracy_ft, note=note,
                       today=today, averaged=averaged)


def set_from_gps_device(ws: Session, sbl: str, target: str, port: str, *,
                        seconds: float = 10.0, baud: int = 4800,
                        accuracy_ft: float | None = None, note: str | None = None,
                        today: date | None = None) -> dict[str, Any]:
    """Average a serial GPS's fixes for some seconds into one position."""
    from ...geo.capture import average_device

    return _from_fixes(ws, sbl, target, [average_device(port, seconds=seconds, baud=baud)],
                       [port], accuracy_ft=accuracy_ft, note=note, today=today)


def parse_component(text: str, *, prefix: str = "") -> tuple[ComponentKind, int]:
    """A component as the site map and `attach` name it: `septic_tank` or `septic_tank#2`
    (the second septic tank of the case), after `prefix` ("component:")."""
    name, _, number = text.removeprefix(prefix).partition("#")
    try:
        ordinal = int(number or 1)
        if not 1 <= ordinal <= 1000:
            raise ValueError(number)
        return ComponentKind(name), ordinal
    except ValueError:
        kinds = ", ".join(k.value for k in ComponentKind)
        raise InputError(f"{text!r} is not a component; write {prefix}KIND[#N] with "
                         f"KIND one of {kinds}.") from None


def parse_target(text: str) -> tuple[SiteFeatureKind | None, ComponentKind | None, int]:
    """`well`, `absorption_area`, ... or `component:septic_tank#2`."""
    if text.startswith("component:"):
        return None, *parse_component(text, prefix="component:")
    try:
        return SiteFeatureKind(text), None, 1
    except ValueError:
        kinds = ", ".join(k.value for k in SiteFeatureKind)
        raise InputError(f"{text!r} is not a site feature; use one of {kinds}, or "
                         "component:KIND[#N] for a component's location.") from None


def _positions(coordinates: Any) -> list[tuple[float, float]]:
    if coordinates and isinstance(coordinates[0], int | float):
        return [(float(coordinates[0]), float(coordinates[1]))]
    return [p for part in coordinates or () for p in _positions(part)]


def far_from_lake(geometry: dict[str, Any]) -> str | None:
    """A warning when a stored geometry (WGS84) lies more than NEAR_LAKE_MI from the lake's
    extent (`domain.water_body`): most likely a slip in the numbers, though kept as given."""
    from ...geo.crs import lonlat_to_feet

    points = _positions(geometry.get("coordinates"))
    if not points:
        return None
    xs, ys = lonlat_to_feet([p[0] for p in points], [p[1] for p in points])
    miles = max(_miles_from_lake(float(x), float(y)) for x, y in zip(xs, ys, strict=True))
    if miles <= NEAR_LAKE_MI:
        return None
    return (f"the location is {_far(miles)} from Canandaigua Lake, outside the area this "
            "app serves; it was stored as given: check the coordinates and record it again "
            "if they are wrong")


def set_geometry(ws: Session, sbl: str, target: str, geometry: dict[str, Any], *,
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
    store_case(ws, case, today=today)
    out: dict[str, Any] = {"sbl": sbl, "target": target, "geometry": geometry,
                           "capture": {"method": method.value, "accuracy_ft": accuracy_ft}}
    far = far_from_lake(geometry)
    if far is not None:
        out["warnings"] = [far]
    if feature_kind in (SiteFeatureKind.ABSORPTION_AREA, SiteFeatureKind.HOLDING_TANK):
        from ..session.laws import NoLawFacts

        found = assess_parcel(ws, sbl, as_of=today)
        if isinstance(found, NoLawFacts):  # measured, but no law to judge the zone by
            out["lake"] = {"distance_ft": found.lake_distance_ft, "source": found.lake_source,
                           "zone": None, "layer": found.lake_layer,
                           "accuracy_ft": found.lake_accuracy_ft, "method": found.lake_method,
                           "citation": None, "message": found.sentence,
                           "layer_accuracy_ft": found.lake_layer_accuracy_ft,
                           "capture_accuracy_ft": found.lake_capture_accuracy_ft}
            return out
        lake = found.lake
        out["lake"] = {"distance_ft": lake.distance_ft, "source": lake.source,
                       "zone": lake.zone.value, "layer": lake.layer,
                       "accuracy_ft": lake.accuracy_ft, "method": lake.method,
                       "citation": lake.citation, "layer_accuracy_ft": lake.layer_accuracy_ft,
                       "capture_accuracy_ft": lake.capture_accuracy_ft}
    return out


def set_well_conditions(ws: Session, sbl: str, well: int, *,
                        shallow_aquifer: bool | EllipsisType | None = ...,
                        drainage_path: bool | EllipsisType | None = ...,
                        today: date | None = None) -> dict[str, Any]:
    """Record a well's conditions that change its separations (10 NYCRR Appendix 75-A,
    Table 2): aquifer water enters it less than 50 ft below grade (note (g)); the system is
    upgrade and in the general path of drainage to it (note (a)). True, False or None (not
    known); a condition not given (...) is kept as recorded. `well` counts the parcel's
    wells from 1, in the order they were located."""
    case = ws.load_case(sbl)
    features = list(case.site.features) if case.site is not None else []
    wells = [i for i, f in enumerate(features) if f.kind is SiteFeatureKind.WELL]
    if not 1 <= well <= len(wells):
        raise InputError(f"Parcel {sbl} has {len(wells)} well(s) on its site map; there is "
                         f"no well #{well} (locate it first: site {sbl} well ...).")
    index = wells[well - 1]
    changes: dict[str, bool | None] = {}
    if not isinstance(shallow_aquifer, EllipsisType):
        changes["shallow_aquifer"] = shallow_aquifer
    if not isinstance(drainage_path, EllipsisType):
        changes["drainage_path"] = drainage_path
    features[index] = replace(features[index], **changes)  # type: ignore[arg-type]
    assert case.site is not None
    store_case(ws, replace(case, site=replace(case.site, features=tuple(features))),
               today=today)
    f = features[index]
    return {"sbl": sbl, "target": "well", "well": well, "shallow_aquifer": f.shallow_aquifer,
            "drainage_path": f.drainage_path}
