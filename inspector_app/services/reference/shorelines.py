"""Shoreline layers: import, versions, the active layer, and distances measured on it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from types import EllipsisType
from typing import TYPE_CHECKING, Any

from ...domain.case import Case
from ...domain.rules import ComponentDistance, MapDistance, measured_capture
from ...domain.units import plain_number
from ...domain.water_body import (
    LAYER_NEAR_FT,
    PARCELS_NEAR_FT,
    feet_and_miles,
    water_body_named,
)
from ...errors import InputError
from ...paths import resource
from ...storage import layers, measurements, site_features
from ...storage.records import RecordWriter

if TYPE_CHECKING:
    from ...geo.case_shapes import CaseShapes
    from ...geo.lake_line import LakeLine, Measurement
    from ..session.laws import Laws
    from ..session.session import Session

BUNDLED_FILE = ("shorelines", "canandaigua_lake_ne10m_coarse.geojson")
BUNDLED_NAME = "Natural Earth 1:10m outline of Canandaigua Lake (coarse)"
BUNDLED_SOURCE = ("Natural Earth ne_10m_lakes, public domain; a 23-vertex generalisation, off "
                  "by hundreds of feet: decides the 200-ft question only for parcels more "
                  "than its accuracy beyond the 200-ft line")
# Declared accuracy of the bundled outline: at least 1,000 ft. It is placed well beyond the
# worst generalisation error seen along the outline, so that the coarse layer can only ever
# say "undetermined" near the 200-ft line.
BUNDLED_ACCURACY_FT = 1500.0

# The most vertices a shoreline layer may have. The whole lake shore (about 36 miles) at
# one vertex every foot is about 190,000; a layer is one record, and every sync package
# and field kit that carries it holds all of its vertices (about 40 bytes each as GeoJSON,
# 8 MB at the limit), which keeps it far under a package member's limit
# (sync.package.MAX_MEMBER_BYTES, 200 MB).
MAX_LAYER_VERTICES = 200_000

_CACHE: dict[tuple[str, int], LakeLine] = {}


@dataclass(frozen=True)
class ActiveLayer:
    id: str
    name: str
    accuracy_ft: float
    version: int
    lake: LakeLine

    def label(self) -> str:
        return layer_label(self.name, self.version, self.accuracy_ft)


def layer_label(name: str, version: int, accuracy_ft: float) -> str:
    """A layer as the app names it: name, version and declared accuracy."""
    return f"{name} v{version} (±{accuracy_ft:,.0f} ft)"


def _layer_json(row: dict[str, Any]) -> dict[str, Any]:
    return {"id": row["id"], "name": row["name"], "source": row["source"],
            "accuracy_ft": plain_number(row["accuracy_ft"]), "version": row["layer_version"],
            "active": bool(row["active"]), "imported_at": row["imported_at"],
            "imported_by": row["imported_by"], "source_crs": row["source_crs"],
            "kind": row["geometry_kind"], "vertices": row["vertex_count"],
            "far_confirmed": _far_confirmed(row)}


def _far_confirmed(row: dict[str, Any]) -> dict[str, Any] | None:
    """What a person confirmed in importing a layer that lies far from the law's water
    body or from every parcel, who and when (the layer's import); None for a layer that
    was not far."""
    if not row.get("far_confirmed"):
        return None
    return {"finding": row["far_confirmed"], "by": row["imported_by"],
            "at": row["imported_at"]}


def far_confirmed_text(layer: dict[str, Any]) -> str | None:
    """The confirmation of a far layer in words, for where the layer is listed."""
    far = layer.get("far_confirmed")
    if not far:
        return None
    return (f"imported although it {far['finding']}: confirmed by {far['by']} at "
            f"{far['at']}")


def list_layers(ws: Session) -> list[dict[str, Any]]:
    return [_layer_json(r) for r in layers.shoreline_layers(ws.store.conn)]


def _store_layer(w: RecordWriter, *, lake: LakeLine, name: str, source: str,
                 accuracy_ft: float, source_crs: str, far_confirmed: str | None = None) -> str:
    version = layers.next_layer_version(w.conn, layers.SHORELINE_LAYERS, name)
    layers.deactivate_layers(w, layers.SHORELINE_LAYERS)
    return w.insert("shoreline_layers", {
        "name": name, "source": source, "accuracy_ft": accuracy_ft, "layer_version": version,
        "active": 1, "imported_at": w.now, "imported_by": w.actor.user,
        "source_crs": source_crs, "geometry_kind": lake.kind, "geometry": lake.to_geojson(),
        "vertex_count": lake.vertex_count, "far_confirmed": far_confirmed}, parcel_id=None)


class FarLayer(InputError):
    """A shoreline layer that lies far from the law's water body or from every parcel
    located in the data folder: imported only when a person confirms it."""

    def __init__(self, path: Path, finding: str) -> None:
        super().__init__(
            f"{path}: the shoreline layer {finding}: it is not the line this data folder's "
            "lake distances are measured to; if it is the layer you mean, import it again "
            "with --far-ok. Nothing was imported.",
            in_app=f"{path.name}: the shoreline layer {finding}: it is not the line this "
                   "data folder's lake distances are measured to.")
        self.finding = finding


def far_finding(lake: LakeLine, laws: Laws, located_ft: list[tuple[float, float]]
                ) -> str | None:
    """What lies far about a layer, in words ("lies 219,874 ft (41.6 mi) from Canandaigua
    Lake ..."), or None: more than LAYER_NEAR_FT from the extent of the water body the laws
    in force name (where this program knows its place), or more than PARCELS_NEAR_FT from
    the nearest of the located points of the data folder's parcels (none located: the
    water body alone decides)."""
    parts = []
    bodies = {w.name: (w, j) for j in laws.files
              if (w := water_body_named(j.water_body)) is not None}
    if bodies:
        feet, body, law = min((lake.feet_from_extent(w.extent_ft), w, j)
                              for w, j in bodies.values())
        if feet > LAYER_NEAR_FT:
            parts.append(f"{feet_and_miles(feet)} from {body.name}, the water body of the "
                         f"law in force ({law.name}), more than the "
                         f"{feet_and_miles(LAYER_NEAR_FT)} within which a layer of it lies")
    nearest = lake.nearest_ft(located_ft)
    if nearest is not None and nearest > PARCELS_NEAR_FT:
        parts.append(f"{feet_and_miles(nearest)} from the nearest parcel located in this "
                     f"data folder, more than {feet_and_miles(PARCELS_NEAR_FT)}")
    return f"lies {', and '.join(parts)}" if parts else None


def located_points(ws: Session) -> list[tuple[float, float]]:
    """Where the data folder's parcels are (EPSG:2261 feet): a point of each geometry on a
    site map, and the centre of each lot of the active lot layer matched to a parcel."""
    import json as json_text

    from ...geo.crs import lonlat_to_feet

    firsts = []
    for text in site_features.located_geometries(ws.store.conn):
        try:
            coordinates = json_text.loads(text).get("coordinates")
            while isinstance(coordinates, list) and coordinates and isinstance(
                    coordinates[0], list):
                coordinates = coordinates[0]
            firsts.append((float(coordinates[0]), float(coordinates[1])))
        except (ValueError, TypeError, IndexError, AttributeError):
            continue  # a geometry no door would have stored: no place to judge by
    points = layers.matched_lot_centres(ws.store.conn)
    if firsts:
        xs, ys = lonlat_to_feet([p[0] for p in firsts], [p[1] for p in firsts])
        points += [(float(x), float(y)) for x, y in zip(xs, ys, strict=True)]
    return points


def read_layer_file(path: Path) -> tuple[LakeLine, str]:
    # The geometry stack (numpy, shapely, pyproj, GDAL) loads on first use, not at start-up.
    from ...geo.lake_line import LakeLine, classify
    from ...geo.vector_files import read_vector_file

    features = read_vector_file(path)
    _check_vertices(features.vertex_count, path)
    kind, geometry = classify(features.geometries, str(path))
    lake = LakeLine(kind, geometry)
    _check_vertices(lake.vertex_count, path)
    return lake, features.source_crs


def _check_vertices(count: int, path: Path) -> None:
    if count > MAX_LAYER_VERTICES:
        raise InputError(f"{path}: the shoreline layer has {count:,} vertices, over the limit "
                         f"of {MAX_LAYER_VERTICES:,} vertices for a layer; simplify it to "
                         "its survey accuracy (for example to one vertex every few feet) "
                         "and import it again. Nothing was imported.")


def far_layer(ws: Session, path: Path) -> FarLayer | None:
    """The refusal `import_layer` would make of the file for lying far from the law's water
    body or from every located parcel, found before its name and accuracy are asked for;
    None when it lies where it should. A file that cannot be read is refused as the import
    refuses it."""
    lake, _ = read_layer_file(path)
    finding = far_finding(lake, ws.laws, located_points(ws))
    return None if finding is None else FarLayer(path, finding)


def import_layer(ws: Session, path: Path, *, name: str, accuracy_ft: float,
                 source: str | None = None, far_ok: bool = False) -> dict[str, Any]:
    """Store a layer and make it active; earlier layers and their measurements stay. A
    layer that lies far from the law's water body or from every located parcel is refused
    (FarLayer) unless `far_ok`: a person confirmed it, and what they confirmed is kept
    with the layer."""
    if not name.strip():
        raise InputError("shoreline import: --name is empty; give the layer a name.")
    if not (0 <= accuracy_ft <= 100_000):
        raise InputError(f"shoreline import: --accuracy-ft {accuracy_ft:g} is not plausible; "
                         "give the layer's accuracy in feet (0 to 100000).")
    lake, source_crs = read_layer_file(path)
    finding = far_finding(lake, ws.laws, located_points(ws))
    if finding is not None and not far_ok:
        raise FarLayer(path, finding)
    with ws.store.transaction() as w:
        layer_id = _store_layer(w, lake=lake, name=name.strip(),
                                source=(source or str(path.name)).strip(),
                                accuracy_ft=accuracy_ft, source_crs=source_crs,
                                far_confirmed=finding)
    return _layer_json(layers.shoreline_layer(ws.store.conn, layer_id))


def ensure_default_layer(ws: Session) -> None:
    """A new data folder starts with the bundled coarse outline as its active layer."""
    if layers.has_shoreline_layer(ws.store.conn):
        return
    lake, source_crs = read_layer_file(resource(*BUNDLED_FILE))
    with ws.store.transaction() as w:
        _store_layer(w, lake=lake, name=BUNDLED_NAME, source=BUNDLED_SOURCE,
                     accuracy_ft=BUNDLED_ACCURACY_FT, source_crs=source_crs)


def active_layer_info(ws: Session) -> dict[str, Any] | None:
    """The active layer's name, version and accuracy, and the far placement confirmed in
    importing it (`far_confirmed`), without loading its geometry."""
    info = active_info(ws, layers.SHORELINE_LAYERS)
    if info is not None:
        facts = layers.shoreline_import_facts(ws.store.conn, info["id"])
        info["far_confirmed"] = None if facts is None else _far_confirmed(facts)
    return info


def active_info(ws: Session, table: str) -> dict[str, Any] | None:
    """The id, name, version, accuracy and label of a layer table's active layer
    (`shoreline_layers` or `lot_layers`)."""
    r = layers.active_layer_info(ws.store.conn, table)
    if r is None:
        return None
    return {"id": r["id"], "name": r["name"], "version": r["layer_version"],
            "accuracy_ft": r["accuracy_ft"],
            "label": layer_label(r["name"], r["layer_version"], r["accuracy_ft"])}


def active_layer(ws: Session) -> ActiveLayer | None:
    r = layers.active_shoreline_layer(ws.store.conn)
    if r is None:
        return None
    key = (r["id"], r["version"])
    if key not in _CACHE:
        from ...geo.lake_line import LakeLine

        geometry = layers.shoreline_geometry(ws.store.conn, r["id"])
        _CACHE.clear()
        _CACHE[key] = LakeLine.from_geojson(r["geometry_kind"], geometry)
    return ActiveLayer(id=r["id"], name=r["name"], accuracy_ft=r["accuracy_ft"],
                       version=r["layer_version"], lake=_CACHE[key])


def measured_geometry(case: Case, where: str, shapes: CaseShapes | None = None) -> Any:
    """The geometry a lake distance is measured from: the absorption area, else the
    holding tank (EPSG:2261), or None. `shapes`, when given, are the case's geometries as
    projected for all its distances."""
    site = case.site
    if site is None:
        return None
    name = "absorption_area" if site.absorption_area else "holding_tank"
    if getattr(site, name) is None:
        return None
    if shapes is None:
        from ...geo.case_shapes import CaseShapes

        shapes = CaseShapes(case)
    return shapes.site(name, where)


def map_distance(ws: Session, case: Case, *, layer: ActiveLayer | EllipsisType | None = ...,
                 shapes: CaseShapes | None = None) -> tuple[MapDistance, Measurement] | None:
    """The distance on the active layer (`layer`, when given, is the active layer as read
    once for many parcels; `shapes`, the case's projected geometries)."""
    if isinstance(layer, EllipsisType):
        layer = active_layer(ws)
    geometry = measured_geometry(case, f"parcel {case.parcel.sbl}: site geometry", shapes)
    if layer is None or geometry is None:
        return None
    m = layer.lake.measure(geometry) if shapes is None else shapes.lake_measurement(
        layer.lake, geometry)
    return (MapDistance(distance_ft=round(m.distance_ft, 2), accuracy_ft=layer.accuracy_ft,
                        layer_name=layer.name, layer_version=layer.version), m)


def component_map_distances(ws: Session, case: Case, *,
                            layer: ActiveLayer | EllipsisType | None = ...,
                            shapes: CaseShapes | None = None) -> list[ComponentDistance]:
    """Each located component's distance to the active layer's lake line, with the layer's
    declared accuracy (the design-load zone of § 202-6 C rests on the nearest). `shapes`,
    when given, are the case's projected geometries."""
    if isinstance(layer, EllipsisType):
        layer = active_layer(ws)
    seen: dict[str, int] = {}
    located = []
    for i, c in enumerate(case.components):
        seen[c.kind.value] = seen.get(c.kind.value, 0) + 1
        if c.geometry is not None:
            located.append((c, c.geometry, seen[c.kind.value], i))
    if layer is None or not located:
        return []
    if shapes is None:
        from ...geo.case_shapes import CaseShapes

        shapes = CaseShapes(case)
    geometries = [shapes.component(i) for _, _, _, i in located]
    label = f"{layer.name} v{layer.version}"
    return [ComponentDistance(component=c.kind, ordinal=n, distance_ft=round(m.distance_ft, 2),
                              accuracy_ft=layer.accuracy_ft, source="map", layer=label)
            for (c, _, n, _), m in zip(located, layer.lake.measure_many(geometries),
                                       strict=True)]


def record_map_measurement(w: RecordWriter, ws: Session, parcel_id: str, case: Case,
                           today: date, *, layer: ActiveLayer | EllipsisType | None = ...,
                           shapes: CaseShapes | None = None,
                           last: float | EllipsisType | None = ...) -> bool:
    """Keep the map distance as evidence: layer, version, accuracy, who and when.

    A new row is written only when the distance on the active layer has changed. `layer`,
    `shapes` and `last` (the parcel's latest map distance on the layer, None for none),
    when given, are read once for many parcels."""
    if isinstance(layer, EllipsisType):
        layer = active_layer(ws)
    found = map_distance(ws, case, layer=layer, shapes=shapes)
    if found is None:
        return False
    distance, m = found
    assert layer is not None
    if isinstance(last, EllipsisType):
        last = measurements.latest_map_distance(w.conn, parcel_id, layer.id)
    if last is not None and round(last, 2) == distance.distance_ft:
        return False
    nearest = m.nearest_lonlat()
    capture = measured_capture(case.site)
    w.insert("lake_measurements", {
        "capture_accuracy_ft": None if capture is None else capture.accuracy_ft,
        "distance_ft": distance.distance_ft, "method": "map", "shoreline_layer_id": layer.id,
        "shoreline_layer_version": layer.version, "accuracy_ft": layer.accuracy_ft,
        "measured_by": w.actor.user, "measured_on": today,
        "note": json.dumps({"nearest": nearest}, separators=(",", ":"))}, parcel_id=parcel_id)
    return True


NO_LAYER = "No shoreline layer is active; import one with `inspector-app shoreline import`."
NO_LAYER_IN_APP = ("No shoreline layer is active; import one with File > Import shoreline "
                    "layer...")


