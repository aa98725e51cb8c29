"""A case's geometries in EPSG:2261, each projected at most once and shared by every
distance measured on the case (separations, the lake distance, the components' lake
distances)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import shapely.geometry
from shapely.geometry.base import BaseGeometry

from ..domain.case import Case
from .vector_files import geometry_from_lonlat, lonlat_many_to_measure_crs

if TYPE_CHECKING:
    from .lake_line import LakeLine, Measurement

# Which geometry of a case: ("component", i), ("feature", j), ("absorption_area", 0) or
# ("holding_tank", 0).
Key = tuple[str, int]


class CaseShapes:
    """The projected geometries of one case. A geometry not projected yet is projected on
    first use, checked and named by `where` exactly as `geometry_from_lonlat` names it."""

    def __init__(self, case: Case) -> None:
        self.case = case
        self._projected: dict[Key, BaseGeometry] = {}
        self._lake: dict[LakeLine, Measurement] = {}

    def _get(self, key: Key, geojson: dict[str, Any], where: str) -> BaseGeometry:
        found = self._projected.get(key)
        if found is None:
            found = self._projected[key] = geometry_from_lonlat(geojson, where)
        return found

    def component(self, i: int) -> BaseGeometry:
        geojson = self.case.components[i].geometry
        assert geojson is not None
        return self._get(("component", i), geojson,
                         f"parcel {self.case.parcel.sbl}: components[{i}].geometry")

    def feature(self, j: int) -> BaseGeometry:
        assert self.case.site is not None
        return self._get(("feature", j), self.case.site.features[j].geometry,
                         f"parcel {self.case.parcel.sbl}: site.features[{j}].geometry")

    def lake_measurement(self, lake: LakeLine, geometry: BaseGeometry) -> Measurement:
        """The distance from `geometry` (the case's measured geometry) to the lake line."""
        found = self._lake.get(lake)
        if found is None:
            found = self._lake[lake] = lake.measure(geometry)
        return found

    def site(self, name: str, where: str) -> BaseGeometry:
        """The site's `absorption_area` or `holding_tank`; `where` names it in an error."""
        assert self.case.site is not None
        geojson = getattr(self.case.site, name)
        assert geojson is not None
        return self._get((name, 0), geojson, where)


def _geometries(case: Case) -> list[tuple[Key, dict[str, Any]]]:
    out: list[tuple[Key, dict[str, Any]]] = [
        (("component", i), c.geometry) for i, c in enumerate(case.components)
        if c.geometry is not None]
    site = case.site
    if site is not None:
        out += [((name, 0), g) for name, g in (("absorption_area", site.absorption_area),
                                               ("holding_tank", site.holding_tank))
                if g is not None]
        out += [(("feature", j), f.geometry) for j, f in enumerate(site.features)]
    return out


def _fill(shapes: list[CaseShapes]) -> bool:
    """Project every geometry of these cases in one call; False (nothing kept) when any
    geometry would be refused."""
    keys: list[tuple[CaseShapes, Key]] = []
    geoms: list[BaseGeometry] = []
    for s in shapes:
        for key, geojson in _geometries(s.case):
            try:
                geom = shapely.geometry.shape(geojson)
            except Exception:
                return False
            keys.append((s, key))
            geoms.append(geom)
    projected = lonlat_many_to_measure_crs(geoms)
    if projected is None:
        return False
    for (s, key), geom in zip(keys, projected, strict=True):
        s._projected[key] = geom
    return True


def project_cases(cases: Iterable[Case]) -> list[CaseShapes]:
    """The shapes of many cases, projected together. Should any geometry be refused, each
    case is projected on its own, and a case that holds a refused geometry is left to be
    projected on use, where the refusal names the parcel and the geometry."""
    shapes = [CaseShapes(c) for c in cases]
    if not _fill(shapes):
        for s in shapes:
            _fill([s])
    return shapes


def measure_cases(shapes: list[CaseShapes], lake: LakeLine) -> None:
    """Measure the site geometry of every case whose geometry is projected already against
    the lake line in one call (each distance is the one `LakeLine.measure` finds)."""
    todo: list[tuple[CaseShapes, BaseGeometry]] = []
    for s in shapes:
        site = s.case.site
        if site is None:
            continue
        geometry = s._projected.get(
            ("absorption_area" if site.absorption_area else "holding_tank", 0))
        if geometry is not None:
            todo.append((s, geometry))
    for (s, _), m in zip(todo, lake.measure_many([g for _, g in todo]), strict=True):
        s._lake[lake] = m


def centre_lonlat(geometry: dict[str, Any]) -> tuple[float, float]:
    """The centre of a GeoJSON geometry (WGS84): longitude, latitude."""
    point = shapely.geometry.shape(geometry).centroid
    return (float(point.x), float(point.y))
