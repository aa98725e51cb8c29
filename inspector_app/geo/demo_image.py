"""An invented aerial image for the demo: fields, hedgerows and woods, roofs where the demo
houses are, and the lake where the lake outline is. Made with numpy, the same every time;
not a photograph of anything."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import shapely

# Colours (RGB)
_FIELDS = np.array([(118, 146, 74), (134, 158, 86), (150, 160, 96), (104, 132, 66),
                    (168, 156, 104), (126, 150, 92)], dtype=np.float32)
_TREES = np.array((58, 84, 46), dtype=np.float32)
_WATER = np.array((58, 92, 122), dtype=np.float32)
_ROOF = np.array((92, 90, 94), dtype=np.float32)
_DRIVE = np.array((172, 168, 160), dtype=np.float32)


def _smooth_noise(rng: np.random.Generator, h: int, w: int, cell: int) -> np.ndarray:
    """Values in 0..1 varying smoothly over about `cell` pixels (bilinear upsampling,
    worked out at a quarter of the size when the cells allow and enlarged)."""
    k = 4 if cell >= 8 else 1
    if k > 1:
        small = _smooth_noise(rng, -(-h // k), -(-w // k), cell // k)
        return np.repeat(np.repeat(small, k, axis=0), k, axis=1)[:h, :w]
    gh, gw = h // cell + 2, w // cell + 2
    grid = rng.random((gh, gw), dtype=np.float32)
    y = np.arange(h, dtype=np.float32) / cell
    x = np.arange(w, dtype=np.float32) / cell
    y0, x0 = y.astype(int), x.astype(int)
    fy, fx = (y - y0)[:, None], (x - x0)[None, :]
    a = grid[y0][:, x0]
    b = grid[y0][:, x0 + 1]
    c = grid[y0 + 1][:, x0]
    d = grid[y0 + 1][:, x0 + 1]
    out: np.ndarray = (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy
    return out


def demo_aerial(bounds_ft: tuple[float, float, float, float], pixel_ft: float,
                lake_ft: Any, houses_ft: Sequence[tuple[float, float]], *,
                seed: int = 2261) -> np.ndarray:
    """The image as RGB bands (3, height, width), uint8, row 0 at the north edge.
    `lake_ft` is the lake's polygon in EPSG:2261; `houses_ft` the houses' positions."""
    minx, miny, maxx, maxy = bounds_ft
    w = max(1, round((maxx - minx) / pixel_ft))
    h = max(1, round((maxy - miny) / pixel_ft))
    rng = np.random.default_rng(seed)
    xs = minx + (np.arange(w, dtype=np.float64) + 0.5) * pixel_ft
    ys = maxy - (np.arange(h, dtype=np.float64) + 0.5) * pixel_ft
    # fields: a patchwork of about 600 x 420 ft, each its own crop
    fx, fy = np.floor(xs / 600).astype(np.int64), np.floor(ys / 420).astype(np.int64)
    crop = (fx[None, :] * 73_856_093 ^ fy[:, None] * 19_349_663) % len(_FIELDS)
    img = _FIELDS[crop]
    shade = _smooth_noise(rng, h, w, max(2, int(300 / pixel_ft)))
    img *= (0.85 + 0.3 * shade)[..., None]
    # hedgerows along the field edges and woods where a slow noise is high
    edge_x = np.minimum(xs % 600, 600 - xs % 600) < max(12.0, pixel_ft * 0.8)
    edge_y = np.minimum(ys % 420, 420 - ys % 420) < max(12.0, pixel_ft * 0.8)
    woods = _smooth_noise(rng, h, w, max(2, int(900 / pixel_ft))) > 0.68
    trees = woods | edge_x[None, :] | edge_y[:, None]
    canopy = _TREES * (0.8 + 0.4 * rng.random((h, w), dtype=np.float32))[..., None]
    np.copyto(img, canopy, where=trees[..., None])
    # the lake, where its outline is
    from .rasters import polygon_mask

    water = polygon_mask(shapely.geometry.mapping(lake_ft), (minx, maxy), pixel_ft, (h, w))
    ripple = _smooth_noise(rng, h, w, max(8, int(200 / pixel_ft)))
    np.copyto(img, _WATER * (0.9 + 0.2 * ripple)[..., None], where=water[..., None])
    # a roof and a driveway at each house
    roof_w, roof_h = max(2, round(56 / pixel_ft)), max(2, round(40 / pixel_ft))
    drive = max(1, round(10 / pixel_ft))
    for x, y in houses_ft:
        c, r = int((x - minx) / pixel_ft), int((maxy - y) / pixel_ft)
        if 0 <= c < w and 0 <= r < h and not water[r, c]:
            img[max(0, r - roof_h):r, max(0, c - roof_w // 2):c + roof_w // 2 + 1] = _ROOF
            img[r:r + 2 * roof_h, c:c + drive] = _DRIVE
    return np.moveaxis(np.clip(img, 0, 255).astype(np.uint8), 2, 0)
