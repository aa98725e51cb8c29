"""Where the law's water body lies, declared once: the typed coordinates of a site, a
stored location and a shoreline layer are all judged against it.

A jurisdiction file names its water body (`[jurisdiction] water_body`); this module knows
where the water bodies it names lie, as an extent in NY State Plane Central feet
(EPSG:2261). Distances to an extent are to its nearest edge (0 inside it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

FT_PER_MI = 5280.0


@dataclass(frozen=True)
class WaterBody:
    name: str
    # (min x, min y, max x, max y), EPSG:2261 feet
    extent_ft: tuple[float, float, float, float]

    def feet_from(self, x_ft: float, y_ft: float) -> float:
        """How far a point lies from the water body's extent (0 inside it; inf for a
        point that is no number)."""
        if not (math.isfinite(x_ft) and math.isfinite(y_ft)):
            return math.inf
        minx, miny, maxx, maxy = self.extent_ft
        return math.hypot(max(minx - x_ft, 0.0, x_ft - maxx), max(miny - y_ft, 0.0, y_ft - maxy))

    def miles_from(self, x_ft: float, y_ft: float) -> float:
        return self.feet_from(x_ft, y_ft) / FT_PER_MI


# Canandaigua Lake's extent (about the bundled Natural Earth outline's bounds).
CANANDAIGUA_LAKE = WaterBody("Canandaigua Lake", (609_780.0, 979_979.0, 641_565.0, 1_055_151.0))
WATER_BODIES = (CANANDAIGUA_LAKE,)

# How far from the lake a typed or stored location may lie before it is taken for a slip
# in the numbers: a generous margin for parcels anywhere in the lake's watershed.
NEAR_LAKE_MI = 15.0

# A shoreline layer is imported without a question only when it comes within this of the
# law's water body's extent (a layer of the lake lies in it; one a mile beyond it is
# another water's) and within NEAR_LAKE_MI of the nearest parcel located in the data
# folder. Every lake distance is measured to the layer: another water's layer would call
# every parcel "beyond 200 ft".
LAYER_NEAR_FT = FT_PER_MI
PARCELS_NEAR_FT = NEAR_LAKE_MI * FT_PER_MI


def water_body_named(name: str) -> WaterBody | None:
    """The water body a jurisdiction file names (case and spaces ignored), if its place is
    known."""
    key = " ".join(name.split()).casefold()
    return next((w for w in WATER_BODIES if w.name.casefold() == key), None)


def feet_and_miles(feet: float) -> str:
    """"236,094 ft (44.7 mi)"."""
    return f"{feet:,.0f} ft ({feet / FT_PER_MI:,.1f} mi)"
