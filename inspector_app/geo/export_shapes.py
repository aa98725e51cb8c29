"""The shapes a GIS layer of the records needs: a point for a parcel or a located
component, and a polygon for every system (EPSG:2261 feet)."""

from __future__ import annotations

import shapely
from shapely.geometry.base import BaseGeometry

from .crs import lonlat_to_feet


def point_feet(longitude: float, latitude: float) -> BaseGeometry:
    """A WGS84 position as a point in EPSG:2261."""
    x, y = lonlat_to_feet([longitude], [latitude])
    return shapely.Point(float(x[0]), float(y[0]))


def inside_point(geometry: BaseGeometry) -> BaseGeometry:
    """A point of the geometry: a point itself, a point inside a polygon (its centre when
    that lies inside), the middle of a line along it."""
    if geometry.geom_type in ("Point", "MultiPoint"):
        return geometry.centroid
    if geometry.geom_type in ("LineString", "MultiLineString"):
        return shapely.line_interpolate_point(geometry, 0.5, normalized=True)
    centre = geometry.centroid
    return centre if geometry.contains(centre) else geometry.representative_point()


def as_polygon(geometry: BaseGeometry, point_radius_ft: float) -> tuple[BaseGeometry, bool]:
    """The geometry as a polygon: itself when it is one, else a circle of `point_radius_ft`
    around it (True: drawn so)."""
    if geometry.geom_type in ("Polygon", "MultiPolygon"):
        return geometry, False
    return geometry.buffer(point_radius_ft), True
