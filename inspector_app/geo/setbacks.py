"""Measured separations between components and what the setback table names."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import shapely
import shapely.geometry
from shapely.geometry.base import BaseGeometry

from ..domain.case import Case
from ..domain.fields import setback_variant
from ..domain.rules import Separation, capture_accuracy, combined_accuracy
from ..domain.vocabulary import ComponentKind, SiteFeatureKind
from .case_shapes import CaseShapes

# Site features and the column of the separation table they are measured against.
TARGETS = {SiteFeatureKind.WELL: "well", SiteFeatureKind.DWELLING: "dwelling",
           SiteFeatureKind.PROPERTY_LINE: "property_line", SiteFeatureKind.WATERCOURSE: "lake",
           SiteFeatureKind.WATER_SERVICE_LINE: "water_service_line"}

# Said after the source of a lot-line separation of a component not inside its lot.
OUTSIDE_LOT = "outside the lot line"


@dataclass(frozen=True)
class LotLine:
    """The parcel's lot (EPSG:2261) on a lot layer: its accuracy and how a separation
    measured against it names its source (e.g. "lot line, NAME vN")."""

    geometry: BaseGeometry
    accuracy_ft: float
    source: str


@dataclass(frozen=True)
class NearbyWell:
    """A well recorded on another parcel (EPSG:2261) and its capture accuracy."""

    sbl: str
    geometry: BaseGeometry
    accuracy_ft: float
    # aquifer water enters it less than 50 ft below grade (75-A Table 2, note (g)); whether
    # a system is in the path of drainage to it (note (a)) is the other parcel's record of
    # its own system, not read here
    shallow_aquifer: bool | None = None

    @property
    def source(self) -> str:
        return f"well on parcel {self.sbl}"


Source = tuple[ComponentKind, int, BaseGeometry, float]


def _variants(case: Case) -> dict[tuple[ComponentKind, int], str | None]:
    """The variant of its separation row each component's details choose."""
    out: dict[tuple[ComponentKind, int], str | None] = {}
    seen: Counter[ComponentKind] = Counter()
    for c in case.components:
        seen[c.kind] += 1
        out[(c.kind, seen[c.kind])] = setback_variant(c.kind, c.details)
    return out


def located(case: Case, shapes: CaseShapes) -> list[Source]:
    """What separations are measured from: each located component, and the site's
    absorption area and holding tank where no component of that kind is located, each with
    its capture accuracy."""
    sources: list[Source] = []
    seen: Counter[ComponentKind] = Counter()
    for i, c in enumerate(case.components):
        seen[c.kind] += 1
        if c.geometry is not None:
            sources.append((c.kind, seen[c.kind], shapes.component(i), 0.0))
    site = case.site
    if site is None:
        return sources
    done = {(kind, n) for kind, n, _, _ in sources}
    for kind, name, geojson, capture in (
            (ComponentKind.ABSORPTION_AREA, "absorption_area", site.absorption_area,
             site.absorption_area_capture),
            (ComponentKind.HOLDING_TANK, "holding_tank", site.holding_tank,
             site.holding_tank_capture)):
        if geojson is not None and (kind, 1) not in done:
            sources.append((kind, 1, shapes.site(name, f"parcel {case.parcel.sbl}: site"),
                            capture_accuracy(capture)))
    return sources


def lot_separations(case: Case, lot: LotLine, shapes: CaseShapes | None = None
                    ) -> list[Separation]:
    """Each located component's separation from the lot line, in the order of `located`.

    A component inside its lot is measured to the lot's boundary. One that is not wholly
    inside it (it crosses the lot line, or lies outside the lot) has no separation from the
    lot line at all: it is given 0 ft, and its source says "outside the lot line", a
    property-line problem to look at (on the ground, or a lot line out by its accuracy)."""
    if shapes is None:
        shapes = CaseShapes(case)
    sources = located(case, shapes)
    if not sources:
        return []
    geoms = np.asarray([g for _, _, g, _ in sources], dtype=object)
    shapely.prepare(lot.geometry)
    inside = shapely.contains(lot.geometry, geoms)
    distances = shapely.distance(geoms, lot.geometry.boundary)
    out = []
    variants = _variants(case)
    for (kind, ordinal, _, accuracy), within, distance in zip(sources, inside, distances,
                                                              strict=True):
        out.append(Separation(
            component=kind, ordinal=ordinal, target="property_line",
            variant=variants.get((kind, ordinal)),
            distance_ft=round(float(distance), 2) if within else 0.0,
            accuracy_ft=combined_accuracy(accuracy, lot.accuracy_ft),
            source=lot.source if within else f"{lot.source}: {OUTSIDE_LOT}"))
    return out


Point = tuple[float, float]


@dataclass(frozen=True)
class SeparationLine:
    """A separation and where it is measured: from the nearest point of the component to
    the nearest point of the target (EPSG:2261 feet); None for a component outside its lot
    (0 ft, nothing to draw)."""

    separation: Separation
    between: tuple[Point, Point] | None


_Key = tuple[ComponentKind, int, str, bool | None, bool | None]


def _nearest(best: dict[_Key, tuple[Separation, BaseGeometry, BaseGeometry | None]]
             ) -> list[SeparationLine]:
    out = []
    for found, source, target in best.values():
        between = None
        if target is not None:
            (ax, ay), (bx, by) = shapely.get_coordinates(shapely.shortest_line(source, target))
            between = ((float(ax), float(ay)), (float(bx), float(by)))
        out.append(SeparationLine(found, between))
    return out


def _best(case: Case, shapes: CaseShapes | None, lot: LotLine | None,
          wells: Sequence[NearbyWell]
          ) -> dict[_Key, tuple[Separation, BaseGeometry, BaseGeometry | None]]:
    """The nearest of each kind of target for each located component, with the two
    geometries it was measured between (the target None where there is no line). Wells
    recorded with different conditions (shallow, in the path of drainage) are kinds of
    their own: a farther well may require more."""
    if shapes is None:
        shapes = CaseShapes(case)
    site = case.site
    sources = located(case, shapes)
    variants = _variants(case)
    best: dict[_Key, tuple[Separation, BaseGeometry, BaseGeometry | None]] = {}

    def keep(found: Separation, source: BaseGeometry, target: BaseGeometry | None) -> None:
        found = replace(found, variant=variants.get((found.component, found.ordinal)))
        key = (found.component, found.ordinal, found.target, found.shallow_well,
               found.drainage_path)
        if key not in best or found.distance_ft < best[key][0].distance_ft:
            best[key] = (found, source, target)

    for j, feature in enumerate(site.features if site is not None else ()):
        target = TARGETS.get(feature.kind)
        if target is None:
            continue
        geometry = shapes.feature(j)
        is_well = feature.kind is SiteFeatureKind.WELL
        for kind, ordinal, source, accuracy in sources:
            keep(Separation(component=kind, ordinal=ordinal, target=target,
                            distance_ft=round(float(source.distance(geometry)), 2),
                            accuracy_ft=combined_accuracy(accuracy,
                                                          feature.capture_accuracy_ft),
                            source="site map",
                            shallow_well=feature.shallow_aquifer if is_well else None,
                            drainage_path=feature.drainage_path if is_well else None),
                 source, geometry)
    if lot is not None:
        boundary = lot.geometry.boundary
        for found, (_, _, source, _) in zip(lot_separations(case, lot, shapes), sources,
                                            strict=True):
            inside = not found.source.endswith(OUTSIDE_LOT)
            keep(found, source, boundary if inside else None)
    for well in wells:
        for kind, ordinal, source, accuracy in sources:
            keep(Separation(component=kind, ordinal=ordinal, target="well",
                            distance_ft=round(float(source.distance(well.geometry)), 2),
                            accuracy_ft=combined_accuracy(accuracy, well.accuracy_ft),
                            source=well.source, shallow_well=well.shallow_aquifer),
                 source, well.geometry)
    return best


def separations(case: Case, shapes: CaseShapes | None = None, *, lot: LotLine | None = None,
                wells: Sequence[NearbyWell] = ()) -> list[Separation]:
    """The shortest distance from each located component to each kind of target: the
    site's features, the lot line of `lot` (the parcel's lot on the active lot layer) and
    the `wells` recorded on other parcels. The nearest of each kind decides and keeps its
    source; on a tie the site's own feature is kept. `shapes`, when given, are the case's
    geometries as projected for all its distances."""
    return [found for found, _, _ in _best(case, shapes, lot, wells).values()]


def separation_lines(case: Case, shapes: CaseShapes | None = None, *,
                     lot: LotLine | None = None, wells: Sequence[NearbyWell] = ()
                     ) -> list[SeparationLine]:
    """`separations`, each with the two nearest points it is measured between (to draw
    it as a dimension line)."""
    return _nearest(_best(case, shapes, lot, wells))


class WellIndex:
    """Wells recorded on parcels (EPSG:2261), in a spatial index built once: the wells
    near a parcel's components, those of the parcel itself left out."""

    def __init__(self, wells: Sequence[NearbyWell]) -> None:
        self._wells = list(wells)
        self._tree = shapely.STRtree([w.geometry for w in self._wells])

    def __len__(self) -> int:
        return len(self._wells)

    def near(self, geometries: Sequence[BaseGeometry], distance_ft: float, *,
             besides_sbl: str) -> list[NearbyWell]:
        """The wells within `distance_ft` of any of the geometries, not on `besides_sbl`,
        in the order they were given."""
        if not geometries or not self._wells or distance_ft <= 0:
            return []
        _, found = self._tree.query(np.asarray(list(geometries), dtype=object),
                                    predicate="dwithin", distance=float(distance_ft))
        return [self._wells[i] for i in sorted(set(int(i) for i in found))
                if self._wells[i].sbl != besides_sbl]


def project_wells(rows: Sequence[tuple[str, dict[str, object], float, bool | None]]
                  ) -> list[NearbyWell]:
    """Wells as recorded (SBL, WGS84 GeoJSON, capture accuracy, shallow aquifer) projected
    together; a well whose geometry would be refused is left out (its own parcel's
    evaluation names it)."""
    from .vector_files import geometry_from_lonlat, lonlat_many_to_measure_crs

    shapes: list[BaseGeometry] = []
    kept: list[tuple[str, dict[str, object], float, bool | None]] = []
    for sbl, geojson, accuracy, shallow in rows:
        try:
            shapes.append(shapely.geometry.shape(geojson))
        except Exception:
            continue
        kept.append((sbl, geojson, accuracy, shallow))
    projected = lonlat_many_to_measure_crs(shapes)
    if projected is not None:
        return [NearbyWell(sbl, g, accuracy, shallow)
                for (sbl, _, accuracy, shallow), g in zip(kept, projected, strict=True)]
    out = []
    for sbl, geojson, accuracy, shallow in kept:
        try:
            out.append(NearbyWell(sbl, geometry_from_lonlat(geojson, f"parcel {sbl}: well"),
                                  accuracy, shallow))
        except Exception:
            continue
    return out
