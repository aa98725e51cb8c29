"""The site sketch of a report: shoreline, setback band, areas, features, nearest line."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from ...documents.content import Sketch
from ...domain.case import Case
from ...domain.rules import LakeFinding, Zone
from ..reference.shorelines import active_layer

if TYPE_CHECKING:
    from ...geo.case_shapes import CaseShapes
    from ...geo.lake_line import LakeLine
    from ...geo.sketch import Dimension, SketchGeometry
    from ..session.session import Session
    from .separations import SeparationInputs


class SiteMapData(NamedTuple):
    geometry: SketchGeometry | None
    label: str  # "Shoreline: NAME vN (±A ft)"
    accuracy_ft: float
    layer: str | None = None  # "NAME vN", as the evaluation names a layer
    lot_label: str | None = None  # "Lot line: LAYER vN (±N ft)" where the lot is drawn


def _setback_ft(ws: Session, case: Case) -> float:
    """The parcel's law's setback; with no law on file no band is drawn (0 ft)."""
    law = ws.laws.for_municipality(case.parcel.municipality)
    return 0.0 if law is None else law.lake_setback_ft


# The neighbouring lots drawn: those within this distance of the parcel's lot and system.
NEIGHBOURS_FT = 300.0


def _geometry(ws: Session, case: Case, lake: LakeLine, setback_ft: float, *,
              whole_lot: bool = False) -> tuple[SketchGeometry | None, str | None]:
    """The sketch's geometry with the parcel's lot and the neighbouring lots (on the active
    lot layer) and the neighbours' wells its separations are measured against (as the
    evaluation finds them), and the lot line's label (None: no lot drawn). `whole_lot`:
    the window holds the whole lot, whatever its size (a map that zooms)."""
    from dataclasses import replace

    from ...geo.case_shapes import CaseShapes
    from ...geo.sketch import sketch_geometry
    from .separations import separation_inputs

    shapes = CaseShapes(case)
    inputs = separation_inputs(ws, case, shapes,
                               law=ws.laws.for_municipality(case.parcel.municipality))
    lots, own = inputs.lot_layer, inputs.lot_record
    neighbours = None
    if lots is not None:
        layer = lots

        def neighbours(focus: Any) -> list[tuple[str, Any]]:
            return [(lot.sbl or f"lot {lot.fid}", lot.geometry)
                    for lot in layer.lots_near(focus, NEIGHBOURS_FT)
                    if own is None or lot.parcel_id is None or lot.parcel_id != own.parcel_id]
    g = sketch_geometry(case, lake, setback_ft, lot=None if own is None else own.geometry,
                        neighbours=neighbours,
                        neighbour_wells=[(f"Well ({w.sbl})", w.geometry) for w in inputs.wells],
                        photos=photo_points(ws, case), whole_lot=whole_lot)
    if g is not None and whole_lot:
        g = replace(g, dimensions=dimensions(ws, case, shapes, inputs))
    label = (None if own is None or lots is None
             else f"Lot line: {lots.label()}")
    return g, label


def photo_points(ws: Session, case: Case) -> list[tuple[str, float, float]]:
    """Where the parcel's photos were taken, as their camera's GPS says: a label ("Photo:
    CAPTION", shortened), longitude, latitude."""
    from .attachments import photos_taken

    out = []
    for r in photos_taken(ws, case.parcel.sbl):
        words = str(r["caption"] or r["filename"])
        out.append((f"Photo: {words[:28] + '...' if len(words) > 30 else words}",
                    float(r["taken_longitude"]), float(r["taken_latitude"])))
    return out


# The setbacks drawn as dimension lines: the lot line's and the wells'.
DIMENSION_TARGETS = ("property_line", "well")


def dimensions(ws: Session, case: Case, shapes: CaseShapes, inputs: SeparationInputs
               ) -> tuple[Dimension, ...]:
    """The lot-line and well separations the evaluation measures (the same measure, the
    same nearest target), each between its two nearest points, with what the parcel's law
    requires and whether the measurement proves it short (as a suggested finding does)."""
    from ...domain.rules import proven_short, separation_requirement, separation_words
    from ...geo.setbacks import separation_lines
    from ...geo.sketch import Dimension

    law = ws.laws.for_municipality(case.parcel.municipality)
    out = []
    for line in separation_lines(case, shapes, lot=inputs.lot, wells=inputs.wells):
        s = line.separation
        if s.target not in DIMENSION_TARGETS or line.between is None:
            continue
        required = None if law is None else separation_requirement(s, law)
        what = s.component.value.replace("_", " ")
        if required is None:
            figure, words, short = (f"{s.distance_ft:,.1f} ft",
                                    f"{what}: {s.distance_ft:,.1f} ft from the "
                                    f"{s.target.replace('_', ' ')} ({s.source})", False)
        else:
            figure = f"{s.distance_ft:,.1f} ft ({required.ft:g} ft required)"
            words = f"{what}: {separation_words(s, required)}"
            short = proven_short(s, required.ft)
        if s.accuracy_ft:
            words += f"; measured to ±{s.accuracy_ft:,g} ft"
        out.append(Dimension(line.between[0], line.between[1], figure, words, short))
    return tuple(out)


def site_map(ws: Session, case: Case) -> SiteMapData:
    """Geometry for the on-screen site map, the active layer's label, accuracy and name,
    and the lot line's label."""
    layer = active_layer(ws)
    if layer is None:
        return SiteMapData(None, "No shoreline layer is active", 0.0)
    g, lot_label = _geometry(ws, case, layer.lake, _setback_ft(ws, case), whole_lot=True)
    return SiteMapData(g, f"Shoreline: {layer.label()}", layer.accuracy_ft,
                       f"{layer.name} v{layer.version}", lot_label)


def measured_legs(points_ft: Sequence[tuple[float, float]]) -> list[float]:
    """The legs of a path measured on the site map, in feet (EPSG:2261), each as the
    distances of the evaluation and the letters are measured."""
    from ...geo.sketch import leg_lengths

    return leg_lengths(points_ft)


FIELD_METHODS = {"tape": "Tape", "survey": "Survey", "rangefinder": "Rangefinder"}
FIELD_FORM = "the inspection form's “Measured distance to lake line” and “Measured by”"


def zone_words(zone: Zone) -> str:
    return zone.value.replace("_", " ").replace("200ft", "200 ft")


def lake_caption(lake: LakeFinding, map_ft: float | None, map_accuracy_ft: float,
                 layer: str | None) -> str:
    """Both distances to the lake line and which one the evaluation went by.

    `lake` is the evaluation's finding; `map_ft` the distance measured on the active layer
    for the sketch (None if nothing could be measured there)."""
    if lake.source == "map" and lake.distance_ft is not None:
        shown = (f"Map: {lake.distance_ft:,.1f} ft (±{lake.accuracy_ft or 0:,.0f} ft, "
                 f"{lake.layer})")
    elif map_ft is not None and layer is not None:
        shown = f"Map: {map_ft:,.1f} ft (±{map_accuracy_ft:,.0f} ft, {layer})"
    elif layer is None:
        shown = "Map: no shoreline layer is active"
    else:
        shown = "Map: not measured (no absorption area or holding tank drawn)"
    if lake.source == "field" and lake.distance_ft is not None:
        method = FIELD_METHODS.get(lake.method or "", "Measured")
        field = f"{method}: {lake.distance_ft:,.1f} ft"
        decides = (f"Decides: {method.lower() if lake.method else 'the measured distance'}, "
                   f"{zone_words(lake.zone)}, {lake.citation}")
    else:
        field = "Measured: none recorded"
        if lake.source == "map" and lake.zone is not Zone.UNDETERMINED:
            decides = f"Decides: map, {zone_words(lake.zone)}, {lake.citation}"
        elif lake.source == "map":
            decides = (f"Decides: nothing yet, {lake.citation}: the map (±"
                       f"{lake.accuracy_ft or 0:,.0f} ft) cannot settle it; enter the distance "
                       f"measured in the field in {FIELD_FORM}")
        else:
            decides = (f"Decides: nothing yet, {lake.citation}: "
                       f"{lake.prompt or 'the distance to the lake line is not known.'}")
    return "  ·  ".join((shown, field, decides))


def site_sketch(ws: Session, case: Case, lake: LakeFinding | None = None) -> Sketch | None:
    """The report's sketch (see `_site_sketch`), over the aerial imagery when the office's
    `report_imagery` setting is on and a basemap is active and readable."""
    from dataclasses import replace

    from ..reference.basemaps import report_imagery

    sketch = _site_sketch(ws, case, lake)
    if sketch is None:
        return None
    imagery = report_imagery(ws, sketch.window)
    if imagery is None:
        return sketch
    return replace(sketch, imagery=imagery[0], imagery_label=imagery[1])


def _site_sketch(ws: Session, case: Case, lake: LakeFinding | None = None) -> Sketch | None:
    """The report's sketch. It draws the distance that decides (`lake`, the evaluation's
    finding): a field measurement is labelled as such, and the map's setback band and
    nearest line are left out where they are not what decides or cannot settle it."""
    layer = active_layer(ws)
    if layer is None or case.site is None:
        return None
    setback_ft = _setback_ft(ws, case)
    g, lot_label = _geometry(ws, case, layer.lake, setback_ft)
    if g is None:
        return None
    map_decides = lake is None or (lake.source == "map" and lake.zone is not Zone.UNDETERMINED)
    caption = f"Shoreline: {layer.label()}."
    if lake is not None and lake.source == "field" and lake.distance_ft is not None:
        method = FIELD_METHODS.get(lake.method or "", "Measured").lower()
        accuracy = f"±{layer.accuracy_ft:,.0f} ft"
        outline = "coarse map outline" if layer.accuracy_ft > setback_ft else "map outline"
        site = case.site
        what = ("the absorption area" if site.absorption_area is not None else
                "the holding tank" if site.holding_tank is not None else "the system")
        caption += (f" Decides: {lake.distance_ft:,.1f} ft, field ({method}); shoreline "
                    f"approximate ({accuracy}), not to scale for the distance; no map distance "
                    "or band drawn.")
        notes = (f"Distance that decides: {lake.distance_ft:,.1f} ft from {what} to the lake "
                 f"line, measured in the field ({method}).",
                 f"The shoreline shown is the {outline} ({accuracy}): approximate, and not to "
                 "scale for that distance.")
        return Sketch(window=g.window, shore=g.shore, band=(), water=g.water, areas=g.areas,
                      features=g.features, nearest=None, distance_label="", caption=caption,
                      notes=notes, lot=g.lot, lot_label=lot_label or "", photos=g.photos)
    if map_decides:
        caption += f" Shaded: within {setback_ft:g} ft of the lake line."
    else:
        caption += f" The map cannot settle the {setback_ft:g}-ft question: no band drawn."
    how = f"map, ±{layer.accuracy_ft:,.0f} ft"
    if lake is not None and lake.source == "map" and lake.capture_accuracy_ft:
        how += f"; area captured to ±{lake.capture_accuracy_ft:,g} ft"
    return Sketch(window=g.window, shore=g.shore, band=g.band if map_decides else (),
                  water=g.water, areas=g.areas, features=g.features, nearest=g.nearest,
                  distance_label=f"{g.distance_ft:,.1f} ft ({how})",
                  caption=caption, lot=g.lot, lot_label=lot_label or "", photos=g.photos)
