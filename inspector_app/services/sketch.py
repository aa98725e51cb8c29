"""The site sketch of a report: shoreline, setback band, areas, features, nearest line."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..domain.case import Case
from ..letters.content import Sketch
from .shorelines import active_layer

if TYPE_CHECKING:
    from ..geo.sketch import SketchGeometry
    from .workspace import Workspace


def site_map(ws: Workspace, case: Case) -> tuple[SketchGeometry | None, str, float]:
    """Geometry for the on-screen site map, the active layer's label and accuracy."""
    from ..geo.sketch import sketch_geometry

    layer = active_layer(ws)
    if layer is None:
        return None, "No shoreline layer is active", 0.0
    return (sketch_geometry(case, layer.lake, ws.jurisdiction.lake_setback_ft),
            f"Shoreline: {layer.label()}", layer.accuracy_ft)


def site_sketch(ws: Workspace, case: Case) -> Sketch | None:
    from ..geo.sketch import sketch_geometry

    layer = active_layer(ws)
    if layer is None or case.site is None:
        return None
    g: SketchGeometry | None = sketch_geometry(case, layer.lake, ws.jurisdiction.lake_setback_ft)
    if g is None:
        return None
    return Sketch(window=g.window, shore=g.shore, band=g.band, water=g.water, areas=g.areas,
                  features=g.features, nearest=g.nearest,
                  distance_label=f"{g.distance_ft:,.1f} ft (map, ±{layer.accuracy_ft:,.0f} ft)",
                  caption=(f"Shoreline: {layer.label()}. Shaded: within "
                           f"{ws.jurisdiction.lake_setback_ft:g} ft of the lake line."))
