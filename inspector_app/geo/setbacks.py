"""Measured separations between components and what the setback table names."""

from __future__ import annotations

from collections import Counter

from shapely.geometry.base import BaseGeometry

from ..domain.case import Case
from ..domain.rules import Separation
from ..domain.vocabulary import ComponentKind, SiteFeatureKind
from .case_shapes import CaseShapes

# Site features and the column of the separation table they are measured against.
TARGETS = {SiteFeatureKind.WELL: "well", SiteFeatureKind.DWELLING: "dwelling",
           SiteFeatureKind.PROPERTY_LINE: "property_line", SiteFeatureKind.WATERCOURSE: "lake"}


def separations(case: Case, shapes: CaseShapes | None = None) -> list[Separation]:
    """The shortest distance from each located component to each kind of target.
    `shapes`, when given, are the case's geometries as projected for all its distances."""
    if shapes is None:
        shapes = CaseShapes(case)
    sources: list[tuple[ComponentKind, int, BaseGeometry, float]] = []
    seen: Counter[ComponentKind] = Counter()
    for i, c in enumerate(case.components):
        seen[c.kind] += 1
        if c.geometry is not None:
            sources.append((c.kind, seen[c.kind], shapes.component(i), 0.0))
    site = case.site
    if site is None:
        return []
    located = {(kind, n) for kind, n, _, _ in sources}
    for kind, name, geojson, capture in (
            (ComponentKind.ABSORPTION_AREA, "absorption_area", site.absorption_area,
             site.absorption_area_capture),
            (ComponentKind.HOLDING_TANK, "holding_tank", site.holding_tank,
             site.holding_tank_capture)):
        if geojson is not None and (kind, 1) not in located:
            sources.append((kind, 1, shapes.site(name, f"parcel {case.parcel.sbl}: site"),
                            (capture.accuracy_ft or 0.0) if capture else 0.0))
    best: dict[tuple[ComponentKind, int, str], Separation] = {}
    for j, feature in enumerate(site.features):
        target = TARGETS.get(feature.kind)
        if target is None:
            continue
        geometry = shapes.feature(j)
        for kind, ordinal, source, accuracy in sources:
            distance = float(source.distance(geometry))
            total_accuracy = accuracy + (feature.capture_accuracy_ft or 0.0)
            key = (kind, ordinal, target)
            if key not in best or distance < best[key].distance_ft:
                best[key] = Separation(component=kind, ordinal=ordinal, target=target,
                                       distance_ft=round(distance, 2),
                                       accuracy_ft=total_accuracy, source="site map")
    return list(best.values())
