"""An invented aerial image for the demo: fields, hedgerows and woods, a house with its
roof, driveway and lawn at each demo parcel, the road behind, and the lake where the lake
outline is. Made with numpy, the same every time; not a photograph of anything.

Every colour is a function of the position in EPSG:2261 feet (hash-based value noise and
trees on a jittered grid), never of the window asked for, so that any two windows agree
where they overlap: the image can be drawn block by block, seamless."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely

# Colours (RGB)
_FIELDS = np.array([(118, 146, 74), (134, 158, 86), (150, 160, 96), (104, 132, 66),
                    (168, 156, 104), (126, 150, 92)], dtype=np.float32)
_TREES = np.array((56, 82, 44), dtype=np.float32)
_WATER = np.array((58, 92, 122), dtype=np.float32)
_SHALLOW = np.array((92, 122, 130), dtype=np.float32)
_LAWN = np.array((104, 150, 70), dtype=np.float32)
_ROOFS = np.array([(98, 92, 96), (132, 74, 62), (80, 86, 98), (120, 112, 104)],
                  dtype=np.float32)
_LUSH = np.array((0.72, 0.9, 0.62), dtype=np.float32)
_DRIVE = np.array((170, 166, 158), dtype=np.float32)
_ROAD = np.array((84, 84, 86), dtype=np.float32)
_LINE = np.array((206, 184, 92), dtype=np.float32)

_HOUSE_ALONG, _HOUSE_ACROSS = 48.0, 34.0  # ft: the house's sides, along and across the shore
_TREE_CELL = 26.0  # ft: one tree at most in each cell of this grid
_SHORE_ROAD_FT = 520.0  # ft from the shore: the lake road
_SHADOW = (5.0, -5.0)  # ft: where a crown's shadow falls (south-east of it)


@dataclass(frozen=True)
class Homestead:
    """One demo parcel as drawn: the absorption area's centre (x, y, EPSG:2261 ft), the
    unit vector inland (square to the shore), and where the house, driveway and road are
    in the parcel's own frame (u along the shore, v inland, ft from the centre)."""

    x: float
    y: float
    nx: float
    ny: float
    house_v: float  # the house's centre, inland of the area (negative: lakeward)
    house_u: float
    drive_u: float
    road_v: float
    lawn: tuple[float, float, float, float]  # u0, v0, u1, v1
    roof: int  # which roof colour

    def extent(self) -> tuple[float, float, float, float]:
        """The box (EPSG:2261 ft) holding all the homestead draws: lawn, house, driveway
        and its stretch of road, with a margin."""
        u0, v0, u1, v1 = self.lawn
        tx, ty = -self.ny, self.nx
        corners = [(u, v) for u in (u0, u1) for v in (v0, v1)] + [
            (u, self.road_v + d) for u in (-700.0, 700.0) for d in (-15.0, 15.0)]
        xs = [self.x + u * tx + v * self.nx for u, v in corners]
        ys = [self.y + u * ty + v * self.ny for u, v in corners]
        return min(xs) - 40, min(ys) - 40, max(xs) + 40, max(ys) + 40

    def house_xy(self) -> tuple[float, float]:
        tx, ty = -self.ny, self.nx
        return (self.x + self.house_u * tx + self.house_v * self.nx,
                self.y + self.house_u * ty + self.house_v * self.ny)


def homestead(x: float, y: float, shore_x: float, shore_y: float, index: int) -> Homestead:
    """The homestead of a demo absorption area centred at (x, y), whose nearest shore point
    is (shore_x, shore_y): the house lakeward of the area where there is room for it, else
    inland of it, 20 ft or more from the area either way; the driveway beside the area to a
    road inland; lawn around house and area."""
    reach = math.hypot(x - shore_x, y - shore_y) or 1.0
    nx, ny = (x - shore_x) / reach, (y - shore_y) / reach
    to_lake = reach - 30.0  # from the area's lakeward edge (the area is 60 ft deep)
    gap = 24.0 + _HOUSE_ACROSS / 2
    house_v = -(30.0 + gap) if to_lake >= 30.0 + _HOUSE_ACROSS + 40.0 else 30.0 + gap
    house_u = 6.0 if index % 2 else -6.0
    drive_u = 20.0 + 22.0  # beside the area, clear of it by 22 ft
    back = max(30.0, house_v + _HOUSE_ACROSS / 2)  # the inland edge of house or area
    # one road along the shore serves the parcels near it; one further inland has its own
    road_v = _SHORE_ROAD_FT - reach
    if road_v < back + 60.0:
        road_v = back + 90.0 + 30.0 * (index % 3)
    lake_v = -reach + 12.0
    lawn = (-70.0 - 10.0 * (index % 4), max(lake_v, min(-30.0, house_v - 17.0) - 70.0),
            80.0 + 12.0 * (index % 3), min(road_v - 14.0, back + 70.0 + 15.0 * (index % 2)))
    return Homestead(x=x, y=y, nx=nx, ny=ny, house_v=house_v, house_u=house_u,
                     drive_u=drive_u, road_v=road_v, lawn=lawn, roof=index % len(_ROOFS))


# --- noise that is a function of position -----------------------------------------------

def _hash(ix: np.ndarray, iy: np.ndarray, seed: int) -> np.ndarray:
    """Values in [0, 1) for integer lattice points, the same for the same point."""
    with np.errstate(over="ignore"):
        h = (ix.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15)
             ^ iy.astype(np.uint64) * np.uint64(0xC2B2AE3D27D4EB4F)
             ^ np.uint64(seed * 0x165667B1 + 0x27D4EB2F))
        h ^= h >> np.uint64(31)
        h *= np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(29)
        h *= np.uint64(0x94D049BB133111EB)
        h ^= h >> np.uint64(32)
    out: np.ndarray = ((h >> np.uint64(40)).astype(np.float32) / np.float32(1 << 24))
    return out


def _noise(xs: np.ndarray, ys: np.ndarray, cell: float, seed: int) -> np.ndarray:
    """Value noise in 0..1 varying smoothly over about `cell` feet, at the grid of points
    (xs along a row, ys down a column): (len(ys), len(xs)), float32."""
    gx, gy = xs / cell, ys / cell
    ix0, iy0 = np.floor(gx).astype(np.int64), np.floor(gy).astype(np.int64)
    bx, by = int(ix0.min()), int(iy0.min())
    lattice = _hash(np.arange(bx, int(ix0.max()) + 2)[None, :],
                    np.arange(by, int(iy0.max()) + 2)[:, None], seed)
    fx, fy = (gx - ix0).astype(np.float32), (gy - iy0).astype(np.float32)
    fx, fy = fx * fx * (3 - 2 * fx), fy * fy * (3 - 2 * fy)
    cx, cy = ix0 - bx, iy0 - by
    top = lattice[cy][:, cx] * (1 - fx) + lattice[cy][:, cx + 1] * fx
    bottom = lattice[cy + 1][:, cx] * (1 - fx) + lattice[cy + 1][:, cx + 1] * fx
    out: np.ndarray = top * (1 - fy[:, None]) + bottom * fy[:, None]
    return out


def _trees(xs: np.ndarray, ys: np.ndarray, density: np.ndarray, seed: int
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Round crowns on a jittered grid, a tree standing in a cell where the cell's hash is
    below `density` there: (in a crown, the crown's shading 0..1, in a crown's shadow)."""
    h, w = len(ys), len(xs)
    crown = np.zeros((h, w), dtype=bool)
    shade = np.zeros((h, w), dtype=np.float32)
    shadow = np.zeros((h, w), dtype=bool)
    cell = _TREE_CELL
    ix = np.floor(xs / cell).astype(np.int64)
    iy = np.floor(ys / cell).astype(np.int64)
    bx, by = int(ix.min()) - 1, int(iy.min()) - 1
    lx = np.arange(bx, int(ix.max()) + 2)[None, :]
    ly = np.arange(by, int(iy.max()) + 2)[:, None]
    jx = (lx + 0.15 + 0.7 * _hash(lx, ly, seed)) * cell
    jy = (ly + 0.15 + 0.7 * _hash(lx, ly, seed + 1)) * cell
    radius = 6.0 + 9.0 * _hash(lx, ly, seed + 2)
    chance = _hash(lx, ly, seed + 3)
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            cx, cy = ix - bx + dx, iy - by + dy
            tx, ty = jx[cy[:, None], cx[None, :]], jy[cy[:, None], cx[None, :]]
            r = radius[cy[:, None], cx[None, :]]
            present = chance[cy[:, None], cx[None, :]] < density
            ddx, ddy = xs[None, :] - tx, ys[:, None] - ty
            d2 = ddx * ddx + ddy * ddy
            inside = present & (d2 < r * r)
            # lit from the north-west: brighter on that side of the crown
            lit = np.clip(0.55 + 0.45 * (-ddx + ddy) / (1.4 * r) - 0.35 * d2 / (r * r), 0, 1)
            np.copyto(shade, np.maximum(shade, lit.astype(np.float32)), where=inside)
            crown |= inside
            sx, sy = ddx - _SHADOW[0], ddy - _SHADOW[1]
            shadow |= present & (sx * sx + sy * sy < r * r)
    return crown, shade, shadow & ~crown


# --- the image ---------------------------------------------------------------------------

def _built(xs: np.ndarray, ys: np.ndarray, homes: Sequence[Homestead], pixel_ft: float
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                      list[tuple[np.ndarray, np.ndarray, int]], np.ndarray]:
    """What the homesteads make of a grid: (lawn, paved, road, road's centre line, the
    density of trees in yards (NaN outside them, -1 where none may stand), the houses as
    (walls, distance across the house, roof colour), the absorption areas' laterals)."""
    h, w = len(ys), len(xs)
    lawn = np.zeros((h, w), dtype=bool)
    paved = np.zeros((h, w), dtype=bool)
    road = np.zeros((h, w), dtype=bool)
    line = np.zeros((h, w), dtype=bool)
    lush = np.zeros((h, w), dtype=bool)
    yard = np.full((h, w), np.nan, dtype=np.float32)
    house: list[tuple[np.ndarray, np.ndarray, int]] = []
    x0, x1, y0, y1 = xs[0], xs[-1], ys[-1], ys[0]
    for home in homes:
        ex0, ey0, ex1, ey1 = home.extent()
        if ex1 < x0 or ex0 > x1 or ey1 < y0 or ey0 > y1:
            continue
        tx, ty = -home.ny, home.nx
        ox, oy = xs[None, :] - home.x, ys[:, None] - home.y
        u = (ox * tx + oy * ty).astype(np.float32)
        v = (ox * home.nx + oy * home.ny).astype(np.float32)
        on_road = (np.abs(v - home.road_v) < 12) & (np.abs(u) < 700)
        road |= on_road
        line |= on_road & (np.abs(v - home.road_v) < 0.5 + 0.3 * pixel_ft) & ((u % 30) < 18)
        u0, v0, u1, v1 = home.lawn
        mine = (u >= u0) & (u <= u1) & (v >= v0) & (v <= v1)
        if not mine.any():
            yard[on_road] = -1
            continue
        lawn |= mine
        # the absorption area's four laterals: lusher lines in the lawn, 14 ft apart
        lush |= (np.abs(u) < 19) & (np.abs(v) < 28) & (np.abs((v + 28.0) % 14.0 - 7.0) < 2.2)
        np.copyto(yard, np.where((np.abs(u - u0) < 12) | (np.abs(u - u1) < 12), 0.7, 0.04),
                  where=mine)
        hv, hu = home.house_v, home.house_u
        start = min(hv, 0.0) if hv < 0 else hv
        drive = (np.abs(u - home.drive_u) < 6) & (v >= start) & (v <= home.road_v)
        spur = (u >= hu) & (u <= home.drive_u + 6) & (np.abs(v - hv) < 8)
        pad = (np.abs(u - home.drive_u) < 13) & (np.abs(v - hv - (
            _HOUSE_ACROSS / 2 + 12 if hv > 0 else 0)) < 11)
        paved |= drive | spur | pad
        du, dv = u - hu, v - hv
        walls = (np.abs(du) < _HOUSE_ALONG / 2) & (np.abs(dv) < _HOUSE_ACROSS / 2)
        if walls.any():
            house.append((walls, dv, home.roof))
        yard[(np.abs(du) < _HOUSE_ALONG / 2 + 10) & (np.abs(dv) < _HOUSE_ACROSS / 2 + 10)] = -1
        yard[paved | on_road] = -1
    yard[road] = -1
    return lawn | lush, paved, road, line, yard, house, lush


def demo_aerial(bounds_ft: tuple[float, float, float, float], pixel_ft: float,
                lake_ft: Any, homes: Sequence[Homestead], *, shallows_ft: Any = None,
                coarse: int = 2, seed: int = 2261) -> np.ndarray:
    """The image of one window as RGB bands (3, height, width), uint8, row 0 at the north
    edge. `lake_ft` is the lake's polygon in EPSG:2261 (prepared, for speed, if drawn
    often), `shallows_ft`, when given, the lake less a rim along its shore (drawn paler);
    `homes` the demo homesteads. Fields, trees and water are worked out `coarse` times
    coarser than the pixel and enlarged (the window's sides should be a multiple of it,
    on a grid of such cells, for neighbouring windows to match); the houses, driveways
    and roads at the pixel."""
    minx, miny, maxx, maxy = bounds_ft
    w = max(1, round((maxx - minx) / pixel_ft))
    h = max(1, round((maxy - miny) / pixel_ft))
    k = max(1, coarse)
    step = pixel_ft * k
    wc, hc = -(-w // k), -(-h // k)
    xs = minx + (np.arange(wc, dtype=np.float64) + 0.5) * step
    ys = maxy - (np.arange(hc, dtype=np.float64) + 0.5) * step
    # fields: a patchwork of about 600 x 420 ft, each its own crop, with rows and texture
    fx, fy = np.floor(xs / 600).astype(np.int64), np.floor(ys / 420).astype(np.int64)
    crop = (fx[None, :] * 73_856_093 ^ fy[:, None] * 19_349_663) % len(_FIELDS)
    img = _FIELDS[crop]
    rows = (crop % 2 == 0) & (np.sin(xs / 3.2)[None, :] > 0.3)
    texture = (0.85 + 0.3 * _noise(xs, ys, 300.0, seed)
               + 0.12 * _noise(xs, ys, 9.0, seed + 1) - 0.06 * rows)
    img *= texture[..., None]
    # trees: woods where a slow noise is high, hedgerows along field edges, a few in yards
    edge = (np.minimum(xs % 600, 600 - xs % 600)[None, :] < 14.0) | (
        np.minimum(ys % 420, 420 - ys % 420)[:, None] < 14.0)
    woods = _noise(xs, ys, 900.0, seed + 2)
    density = np.where(edge, 0.85, np.clip((woods - 0.55) * 6.0, 0.0, 0.95)).astype(
        np.float32)
    yard_c = _built(xs, ys, homes, step)[4]
    density = np.where(np.isnan(yard_c), density, np.maximum(yard_c, 0)).astype(np.float32)
    # the lake, where its outline is, and a shallow rim along the shore
    from .rasters import polygon_mask

    block = shapely.box(minx, miny, maxx, maxy)
    if shapely.contains(lake_ft, block):
        water = np.ones((hc, wc), dtype=bool)
        shallow = np.zeros((hc, wc), dtype=bool)
    elif shapely.intersects(lake_ft, block):
        water = polygon_mask(shapely.geometry.mapping(lake_ft), (minx, maxy), step, (hc, wc))
        shallow = np.zeros((hc, wc), dtype=bool) if shallows_ft is None else (
            water & ~polygon_mask(shapely.geometry.mapping(shallows_ft), (minx, maxy),
                                  step, (hc, wc)))
    else:
        water = shallow = np.zeros((hc, wc), dtype=bool)
    density[water] = 0
    crown, shade, shadow = _trees(xs, ys, density, seed + 3)
    canopy = _TREES * (0.6 + 0.6 * shade)[..., None] * (
        0.9 + 0.2 * _noise(xs, ys, 5.0, seed + 6))[..., None]
    ripple = _noise(xs, ys, 40.0, seed + 7) * 0.6 + _noise(xs, ys, 8.0, seed + 8) * 0.4
    liquid = np.where(shallow[..., None], _SHALLOW, _WATER) * (0.9 + 0.2 * ripple)[..., None]
    grass = _LAWN * (0.92 + 0.1 * _noise(xs, ys, 6.0, seed + 4))[..., None]
    dim = np.where(shadow & ~water, np.float32(0.62), np.float32(1.0))[..., None]
    img, grass = img * dim, grass * dim
    # from here on in whole colours, at the pixel: the built things, sharp
    over = crown.astype(np.uint8) | (water.astype(np.uint8) << 1)

    def fine(a: np.ndarray) -> np.ndarray:
        a = np.clip(a, 8, 255).astype(np.uint8) if a.dtype != np.uint8 else a
        if k == 1:
            return a
        out: np.ndarray = np.repeat(np.repeat(a, k, axis=0), k, axis=1)[:h, :w]
        return out

    img, canopy, liquid, grass, over = (fine(img), fine(canopy), fine(liquid), fine(grass),
                                        fine(over))
    crown, water = (over & 1).astype(bool), (over & 2).astype(bool)
    fxs = minx + (np.arange(w, dtype=np.float64) + 0.5) * pixel_ft
    fys = maxy - (np.arange(h, dtype=np.float64) + 0.5) * pixel_ft
    lawn, paved, road, line, _, house, lush = _built(fxs, fys, homes, pixel_ft)
    if lawn.any():
        np.copyto(img, grass, where=lawn[..., None])
        np.copyto(img, np.clip(grass * _LUSH, 0, 255).astype(np.uint8), where=lush[..., None])
    if paved.any() or road.any():
        np.copyto(img, _DRIVE.astype(np.uint8), where=paved[..., None])
        np.copyto(img, _ROAD.astype(np.uint8), where=road[..., None])
        np.copyto(img, _LINE.astype(np.uint8), where=line[..., None])
        crown &= ~(paved | road)
    np.copyto(img, canopy, where=crown[..., None])
    for walls, dv, roof in house:
        # a gable roof: its ridge along the house, one slope lit, the eaves darker
        lit = np.where(dv > 0, 1.12, 0.82).astype(np.float32)
        eave = (np.abs(np.abs(dv) - _HOUSE_ACROSS / 2) < 1.5) | (np.abs(dv) < 0.8)
        tone = np.where(eave, 0.7, lit)
        np.copyto(img, np.clip(_ROOFS[roof] * tone[..., None], 8, 255).astype(np.uint8),
                  where=walls[..., None])
    np.copyto(img, liquid, where=water[..., None])
    return np.ascontiguousarray(np.moveaxis(img, 2, 0))


def homesteads(xs: Sequence[float], ys: Sequence[float], indices: Sequence[int],
               lake_ft: Any) -> list[Homestead]:
    """The homesteads of demo absorption areas centred at (xs, ys) (EPSG:2261 ft), the
    demo's parcel numbers `indices`, beside the lake `lake_ft`."""
    if not len(xs):
        return []
    shore = shapely.get_point(shapely.shortest_line(lake_ft.exterior,
                                                    shapely.points(xs, ys)), 0)
    return [homestead(float(x), float(y), sx, sy, i) for x, y, sx, sy, i in zip(
        xs, ys, shapely.get_x(shore).tolist(), shapely.get_y(shore).tolist(), indices,
        strict=True)]


def block_painter(lake_ft: Any, homes: Sequence[Homestead], pixel_ft: float
                  ) -> Callable[[float, float, int, int], np.ndarray]:
    """`paint(left, top, cols, rows)`: the RGB bands of one block of the image (north-west
    corner left, top), drawn with the homesteads that can reach it."""
    shapely.prepare(lake_ft)
    shallows = lake_ft.buffer(-14.0)
    near = shapely.STRtree(np.asarray([shapely.Point(h.x, h.y) for h in homes],
                                      dtype=object))

    def paint(left: float, top: float, cols: int, rows: int) -> np.ndarray:
        bounds = (left, top - rows * pixel_ft, left + cols * pixel_ft, top)
        found = near.query(shapely.box(*bounds), predicate="dwithin",
                           distance=1500.0)  # a road's reach from its homestead
        return demo_aerial(bounds, pixel_ft, lake_ft, [homes[int(i)] for i in sorted(found)],
                           shallows_ft=shallows)

    return paint
