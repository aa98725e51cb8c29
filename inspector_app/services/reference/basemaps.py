"""Offline aerial imagery (basemaps): import, list, the active one, and the office's
settings for imagery in field kits and reports.

A basemap is a record naming an image file. Storage 'copy': the data folder holds the
image in `basemaps/` (its path is kept relative to the data folder), so it survives the
original being moved or deleted. Storage 'reference': the record holds the file's
absolute path, size and fingerprint; a file moved, deleted or changed since it was
imported is noticed (`BasemapRef.problem`) and not drawn.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...domain.units import plain_number
from ...errors import InputError, NotFoundError
from ...paths import UnwritablePath, work_folder
from ...storage import basemaps as basemap_rows
from ...storage import office_settings as office_settings_rows
from ...storage.records import RecordWriter, new_id
from .basemap_storage import keeps_copy
from .kit_boxes import kit_boxes

if TYPE_CHECKING:
    from ...geo.rasters import RasterInfo, RasterReader
    from ..session.session import Session

FOLDER = basemap_rows.FOLDER  # inside the data folder: the copies
_MIB = 1024 * 1024
_SUFFIX = {"geotiff": ".tif", "mbtiles": ".mbtiles"}


# ---- the office's settings -------------------------------------------------------------

@dataclass(frozen=True)
class _Setting:
    default: Any
    parse: Any  # text as stored or given -> value; raises ValueError with the fix
    show: Any  # value -> stored text


def _radius(value: Any) -> float:
    try:
        radius = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{value!r} is not a number of feet") from None
    if not (50 <= radius <= 10_000):
        raise ValueError(f"{radius:g} ft is not plausible; give 50 to 10000 ft")
    return radius


def _on_off(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("on", "true", "yes", "1"):
        return True
    if text in ("off", "false", "no", "0"):
        return False
    raise ValueError(f"{value!r} is neither on nor off")


SETTINGS: dict[str, _Setting] = {
    # how far around each assigned parcel a field kit carries the imagery
    "kit_imagery_radius_ft": _Setting(1000.0, _radius, lambda v: plain_number(float(v))),
    # whether the report of findings' site sketch shows the imagery
    "report_imagery": _Setting(False, _on_off, lambda v: "on" if v else "off"),
}


def _setting(key: str) -> _Setting:
    if key not in SETTINGS:
        raise InputError(f"{key!r} is not an office setting; the settings are "
                         f"{', '.join(SETTINGS)}.")
    return SETTINGS[key]


def office_setting(ws: Session, key: str) -> Any:
    """A setting's value (its default when never set)."""
    spec = _setting(key)
    row = office_settings_rows.setting(ws.store.conn, key)
    if row is None:
        return spec.default
    try:
        return spec.parse(row["value"])
    except ValueError:
        return spec.default


def office_settings(ws: Session) -> dict[str, Any]:
    return {key: office_setting(ws, key) for key in SETTINGS}


def set_office_setting(ws: Session, key: str, value: Any) -> dict[str, Any]:
    """Check and keep a setting (an attributable record change); returns all settings."""
    spec = _setting(key)
    try:
        parsed = spec.parse(value)
    except ValueError as exc:
        raise InputError(f"office setting {key}: {exc}. Nothing was changed.") from None
    text = spec.show(parsed)
    with ws.store.transaction() as w:
        setting_id = office_settings_rows.setting_id(w.conn, key)
        if setting_id is None:
            w.insert("office_settings", {"key": key, "value": text}, parcel_id=None)
        else:
            w.update("office_settings", setting_id, {"value": text})
    return office_settings(ws)


# ---- basemaps --------------------------------------------------------------------------

@dataclass(frozen=True)
class BasemapRef:
    id: str
    name: str
    label: str
    path: Path
    format: str
    bounds_ft: tuple[float, float, float, float]
    resolution_ft: float
    source: str
    captured_on: date | None
    problem: str | None


def basemap_label(name: str, source: str, captured_on: str | date | None) -> str:
    """"NAME (SOURCE, captured DATE)"; the source is left out where it only repeats the
    name in other words."""
    def words(text: str) -> list[str]:
        return re.findall(r"[a-z0-9]+", text.casefold())

    parts = [] if words(source) == words(name) else [source]
    if captured_on:
        parts.append(f"captured {captured_on}")
    return f"{name} ({', '.join(parts)})" if parts else name


_FINGERPRINTS: dict[tuple[str, int, int], str] = {}


def fingerprint(path: Path) -> str:
    """A cheap fingerprint: size, modification time and SHA-256 of the first and last
    MiB. Noticed: a file replaced, truncated, extended or rewritten."""
    st = path.stat()
    key = (str(path), st.st_size, st.st_mtime_ns)
    if key not in _FINGERPRINTS:
        h = hashlib.sha256()
        with path.open("rb") as f:
            h.update(f.read(_MIB))
            if st.st_size > _MIB:
                f.seek(max(_MIB, st.st_size - _MIB))
                h.update(f.read(_MIB))
        if len(_FINGERPRINTS) > 64:
            _FINGERPRINTS.clear()
        _FINGERPRINTS[key] = f"{st.st_size}:{st.st_mtime_ns}:{h.hexdigest()}"
    return _FINGERPRINTS[key]


def _resolved(ws: Session, row: dict[str, Any]) -> Path:
    path = Path(row["path"])
    return path if path.is_absolute() else ws.folder.root / path


def _problem(path: Path, row: dict[str, Any]) -> str | None:
    copy = row["storage"] == "copy"
    try:
        st = path.stat()
    except OSError:
        if copy:
            return (f"the data folder's copy of the image ({path}) is missing; import the "
                    "image again.")
        return (f"the file {path} was moved or deleted; import it again or put it back.")
    if st.st_size != row["size_bytes"]:
        return (f"the file {path} changed since it was imported (it was "
                f"{row['size_bytes']:,} bytes, it is {st.st_size:,} bytes); import it again.")
    try:
        now = fingerprint(path)
    except OSError as exc:
        return f"the file {path} cannot be read ({exc.strerror or exc})."
    size_and_contents = now.split(":")[::2] == row["fingerprint"].split(":")[::2]
    # The data folder's own copy is known by its size and contents alone: copying or
    # restoring the data folder gives its files new modification times.
    if now != row["fingerprint"] and not (copy and size_and_contents):
        if size_and_contents:
            when = "its modification time is not the one it had"
        else:
            when = "its contents differ"
        return f"the file {path} changed since it was imported ({when}); import it again."
    return None


def _captured(row: dict[str, Any]) -> date | None:
    return date.fromisoformat(row["captured_on"]) if row["captured_on"] else None


def _ref(ws: Session, row: dict[str, Any]) -> BasemapRef:
    path = _resolved(ws, row)
    bounds = json.loads(row["bounds"])
    return BasemapRef(id=row["id"], name=row["name"],
                      label=basemap_label(row["name"], row["source"], row["captured_on"]),
                      path=path, format=row["format"],
                      bounds_ft=(bounds[0], bounds[1], bounds[2], bounds[3]),
                      resolution_ft=row["resolution_ft"], source=row["source"],
                      captured_on=_captured(row), problem=_problem(path, row))


def _json(ws: Session, row: dict[str, Any]) -> dict[str, Any]:
    path = _resolved(ws, row)
    return {"id": row["id"], "name": row["name"],
            "label": basemap_label(row["name"], row["source"], row["captured_on"]),
            "format": row["format"], "storage": row["storage"], "path": str(path),
            "size_bytes": row["size_bytes"], "source": row["source"],
            "captured_on": row["captured_on"], "source_crs": row["source_crs"],
            "bounds_ft": json.loads(row["bounds"]),
            "resolution_ft": plain_number(round(row["resolution_ft"], 3)),
            "width_px": row["width_px"], "height_px": row["height_px"],
            "active": bool(row["active"]), "imported_at": row["imported_at"],
            "imported_by": row["imported_by"], "problem": _problem(path, row)}


def _rows(ws: Session) -> list[dict[str, Any]]:
    return basemap_rows.basemaps(ws.store.conn)


def list_basemaps(ws: Session) -> list[dict[str, Any]]:
    return [_json(ws, r) for r in _rows(ws)]


def active_basemap(ws: Session) -> BasemapRef | None:
    """The active basemap (cheap: the row and a look at the file; the image is not read)."""
    row = basemap_rows.active_basemap(ws.store.conn)
    return None if row is None else _ref(ws, row)


def open_reader(ref: BasemapRef) -> RasterReader:
    """A reader of the basemap's image, for one thread. InputError if it has a problem."""
    if ref.problem is not None:
        raise InputError(f"basemap {ref.name}: {ref.problem}")
    from ...geo.rasters import RasterReader

    return RasterReader(ref.path, ref.format)


def _find(ws: Session, name_or_id: str) -> dict[str, Any]:
    rows = _rows(ws)
    by_id = [r for r in rows if r["id"] == name_or_id]
    if by_id:
        return by_id[0]
    named = [r for r in rows if r["name"] == name_or_id.strip()]
    if len(named) > 1:
        ids = ", ".join(r["id"] for r in named)
        raise InputError(f"basemap {name_or_id!r}: several basemaps have that name ({ids}); "
                         "give the id of the one to use.")
    if not named:
        raise NotFoundError(f"basemap {name_or_id!r}: no basemap has that name or id; "
                            "`inspector-app basemap list` shows them.",
                            in_app=f"No basemap is named {name_or_id!r}.")
    return named[0]


def activate_basemap(ws: Session, name_or_id: str) -> dict[str, Any]:
    row = _find(ws, name_or_id)
    with ws.store.transaction() as w:
        basemap_rows.make_active(w, row["id"])
    return _json(ws, basemap_rows.basemap(ws.store.conn, row["id"]))


def deactivate_basemap(ws: Session) -> None:
    """No imagery is shown until a basemap is made active again."""
    with ws.store.transaction() as w:
        basemap_rows.make_active(w, None)


def _check_date(captured_on: date | None, today: date) -> None:
    if captured_on is not None and captured_on > today:
        raise InputError(f"basemap import: --date {captured_on.isoformat()} is in the "
                         "future; give the date the imagery was captured (YYYY-MM-DD).")


def _copy_file(src: Path, dest: Path, progress: Any = None, cancelled: Any = None) -> None:
    total = src.stat().st_size
    with src.open("rb") as fin, dest.open("wb") as fout:
        done = 0
        while chunk := fin.read(8 * _MIB):
            if cancelled is not None and cancelled():
                raise InputError(f"{src}: importing was cancelled; nothing was imported.")
            fout.write(chunk)
            done += len(chunk)
            if progress is not None:
                progress(done, total)
        fout.flush()
        os.fsync(fout.fileno())


def _fast_as_is(info: RasterInfo) -> bool:
    """Whether the image draws quickly at every zoom without conversion."""
    if info.format == "mbtiles":
        return True
    small = info.width_px * info.height_px < _large_px()
    return small or (info.overviews > 0 and info.tiled)


def _large_px() -> int:
    from ...geo.rasters import LARGE_WITHOUT_OVERVIEWS_PX

    return LARGE_WITHOUT_OVERVIEWS_PX


def _make_copy(path: Path, info: RasterInfo, work: Path, record_id: str, *,
               progress: Any = None, cancelled: Any = None) -> tuple[Path, RasterInfo]:
    """The data folder's copy, made in the job's work folder under the name it will have:
    the file as it is when it draws quickly as it is (an MBTiles file, a tiled GeoTIFF with
    overviews, a small GeoTIFF), else a tiled GeoTIFF with overviews in EPSG:2261 made from
    it (a JPEG or PNG with its world file is converted)."""
    from ...geo.rasters import clip_to_geotiff

    if info.format != "world_file" and _fast_as_is(info):
        made = work / f"{record_id}{_SUFFIX[info.format]}"
        _copy_file(path, made, progress, cancelled)
        return made, info
    made = work / f"{record_id}.tif"
    return made, clip_to_geotiff(path, info.format, info.bounds_ft, made, progress=progress,
                                 cancelled=cancelled)


def check_importable(path: Path, *, copy: bool) -> RasterInfo:
    """The image described, or RasterFileError (from its header, before any pixel is
    read) when it cannot be imported so: not an image this app places, too slow to draw
    where it is, or too many pixels to convert into the data folder's copy."""
    from ...geo.rasters import RasterFileError, check_clip_budget, inspect_raster

    info = inspect_raster(path)
    if not copy and not _fast_as_is(info):
        raise RasterFileError(
            f"{path}: the image is {info.width_px:,} x {info.height_px:,} pixels with no "
            "overviews (or not tiled), too slow to draw zoomed out from where it is; import "
            "it with --copy (the data folder then keeps a tiled copy with overviews), or "
            "build overviews first (for example `gdaladdo -r average FILE`).")
    if copy and (info.format == "world_file" or not _fast_as_is(info)):
        check_clip_budget(path, info, info.width_px * info.height_px)
    return info


def import_basemap(ws: Session, path: Path, *, name: str, copy: bool | None,
                   source: str | None = None, captured_on: date | None = None,
                   progress: Callable[[int, int], None] | None = None,
                   cancelled: Callable[[], bool] | None = None) -> dict[str, Any]:
    """Check an image, keep it (a copy in the data folder, or a reference to the file) and
    make it the active basemap. Nothing is stored when the image is refused, or when
    `cancelled()` says so while a copy is made (`progress(done, total)` follows it). A
    copy is made in a work folder inside the data folder and appears under its name in
    `basemaps/` only in the transaction that records it; one left by a killed import is
    removed when the data folder is next opened."""
    if not name.strip():
        raise InputError("basemap import: --name is empty; give the imagery a name.")
    copy = keeps_copy(ws, copy)
    _check_date(captured_on, ws.today())
    path = Path(path).expanduser().resolve()
    info = check_importable(path, copy=copy)
    record_id = new_id()
    if not copy:
        _record(ws, record_id, info, path, path, stored_as=str(path), copy=False,
                name=name, source=source, captured_on=captured_on)
    else:
        folder = ws.folder.root / FOLDER
        with work_folder(folder, record_id) as work:
            try:
                made, info = _make_copy(path, info, work, record_id, progress=progress,
                                        cancelled=cancelled)
            except OSError as exc:
                raise UnwritablePath(folder, exc, what="folder") from None
            final = folder / made.name
            try:
                _record(ws, record_id, info, path, made,
                        stored_as=final.relative_to(ws.folder.root).as_posix(), copy=True,
                        name=name, source=source, captured_on=captured_on,
                        keep=lambda: os.replace(made, final))
            except BaseException:
                final.unlink(missing_ok=True)
                raise
    stored = final if copy else path
    out = _json(ws, basemap_rows.basemap(ws.store.conn, record_id))
    out["storage_note"] = (
        f"copied into the data folder ({stored.relative_to(ws.folder.root).as_posix()}); "
        "the original may be moved or deleted" if copy else
        "referenced where it is; if the file is moved, changed or deleted the imagery is "
        "not shown until it is imported again or put back")
    return out


def _record(ws: Session, record_id: str, info: RasterInfo, path: Path, file: Path, *,
            stored_as: str, copy: bool, name: str, source: str | None,
            captured_on: date | None, keep: Callable[[], None] | None = None) -> None:
    """The basemap's record, made active; `keep()`, inside the same transaction, puts the
    copy `file` where the record says it is."""
    with ws.store.transaction() as w:
        w.insert("basemaps", {
            "name": name.strip(), "format": info.format,
            "storage": "copy" if copy else "reference", "path": stored_as,
            "size_bytes": file.stat().st_size, "fingerprint": fingerprint(file),
            "source": (source or path.name).strip(),
            "captured_on": captured_on.isoformat() if captured_on else None,
            "source_crs": info.source_crs, "bounds": list(info.bounds_ft),
            "resolution_ft": info.resolution_ft, "width_px": info.width_px,
            "height_px": info.height_px, "active": 0, "imported_at": w.now,
            "imported_by": w.actor.user}, parcel_id=None, record_id=record_id)
        basemap_rows.make_active(w, record_id)
        if keep is not None:
            try:
                keep()
            except OSError as exc:
                raise UnwritablePath(file.parent, exc, what="folder") from None


# ---- the report of findings' sketch -----------------------------------------------------

REPORT_IMAGE_PX = 1000  # the longer side of the imagery printed under a sketch (~150 dpi)


def imagery_label(ref: BasemapRef) -> str:
    when = ref.captured_on.isoformat() if ref.captured_on else "date not recorded"
    return f"Imagery: {ref.source}, {when}"


def report_imagery(ws: Session, window: tuple[float, float, float, float]
                   ) -> tuple[bytes, str] | None:
    """The imagery under a report's sketch (PNG bytes, flattened on white) and the words
    naming its source and date; None when the office's `report_imagery` setting is off, no
    basemap is active, its file has a problem, or it does not reach the window."""
    if not office_setting(ws, "report_imagery"):
        return None
    ref = active_basemap(ws)
    if ref is None or ref.problem is not None:
        return None
    minx, miny, maxx, maxy = window
    w, h = maxx - minx, maxy - miny
    if w <= 0 or h <= 0:
        return None
    scale = REPORT_IMAGE_PX / max(w, h)
    width, height = max(1, round(w * scale)), max(1, round(h * scale))
    from ...geo.rasters import RasterFileError, png_bytes

    try:
        with open_reader(ref) as reader:
            rgba = reader.render(window, width, height)
    except (RasterFileError, OSError):
        return None
    if not rgba[..., 3].any():
        return None
    return png_bytes(rgba), imagery_label(ref)


# ---- field kits ------------------------------------------------------------------------

KIT_MEMBER_PREFIX = "basemaps/"


def kit_imagery(ws: Session, parcel_ids: list[str]) -> tuple[dict[str, Any], bytes] | None:
    """The active basemap clipped to the parcels' surroundings (`kit_imagery_radius_ft`),
    as a GeoTIFF's bytes and its description for kit.json; None when no basemap is active
    (or it does not reach the parcels)."""
    from ...geo.rasters import (
        KIT_PX_PER_PARCEL,
        KIT_READ_PX_PER_PARCEL,
        RasterFileError,
        clip_pixels,
        clip_to_geotiff,
        inspect_raster,
        read_level_ft,
    )
    from ...sync.package import MAX_MEMBER_BYTES

    ref = active_basemap(ws)
    if ref is None:
        return None
    if ref.problem is not None:
        raise InputError(f"The field kit would carry the basemap {ref.name}, but "
                         f"{ref.problem} Or turn the imagery off (`basemap off`) to enrol "
                         "without it. Nothing was written.",
                         in_app=f"The field kit would carry the basemap {ref.name}, but "
                                f"{ref.problem}")
    boxes = [b for b in kit_boxes(ws, parcel_ids, office_setting(ws, "kit_imagery_radius_ft"))
             if b[0] < ref.bounds_ft[2] and b[2] > ref.bounds_ft[0]
             and b[1] < ref.bounds_ft[3] and b[3] > ref.bounds_ft[1]]
    if not boxes:
        return None
    bbox = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
            max(b[3] for b in boxes))
    # Estimated before clipping: imagery finer than a kit needs is clipped at the coarser
    # pixel that keeps each parcel's surroundings within KIT_PX_PER_PARCEL, read from the
    # level of the image nearest that pixel.
    try:
        info = inspect_raster(ref.path)
    except RasterFileError:
        return None
    pixel_ft = info.resolution_ft * max(1.0, math.sqrt(
        clip_pixels(bbox, info.resolution_ft, boxes) / (KIT_PX_PER_PARCEL * len(boxes))))
    level_ft = read_level_ft(info, pixel_ft)
    read = clip_pixels(bbox, level_ft, boxes)
    if read > KIT_READ_PX_PER_PARCEL * len(boxes):
        raise InputError(
            f"The field kit would carry the basemap {ref.name}, but its imagery is "
            f"{level_ft:.2g} ft a pixel with no coarser levels, so clipping it for "
            f"{len(boxes)} parcel(s) would read {read:,} pixels, over the "
            f"{KIT_READ_PX_PER_PARCEL:,} a parcel this app reads for a kit; import the "
            "imagery with coarser levels (overviews, or lower MBTiles zooms), or turn the "
            "imagery off (`basemap off`) to enrol without it. Nothing was written.",
            in_app=f"The field kit would carry the basemap {ref.name}, but its imagery is "
                   f"{level_ft:.2g} ft a pixel with no coarser levels, too fine to clip for "
                   "a kit; import it with coarser levels, or show no imagery.")
    # the clip is made inside the data folder, in a work folder removed however it ends
    with work_folder(ws.folder.root / FOLDER, f"kit-{new_id()}") as work:
        out = work / "kit-imagery.tif"
        try:
            info = clip_to_geotiff(ref.path, ref.format, bbox, out, within=boxes,
                                   pixel_ft=pixel_ft)
        except RasterFileError:
            return None
        except OSError as exc:
            raise UnwritablePath(ws.folder.root / FOLDER, exc, what="folder") from None
        data = out.read_bytes()
    if len(data) > MAX_MEMBER_BYTES:
        raise InputError(f"The imagery for this field kit is {len(data) / 1e6:,.0f} MB, over "
                         f"the {MAX_MEMBER_BYTES / 1e6:,.0f} MB a kit may carry; lower the "
                         "radius (`basemap settings --kit-radius-ft N`) or assign fewer "
                         "parcels. Nothing was written.")
    digest = hashlib.sha256(data).hexdigest()
    meta = {"member": f"{KIT_MEMBER_PREFIX}{digest}", "name": ref.name, "source": ref.source,
            "captured_on": ref.captured_on.isoformat() if ref.captured_on else None,
            "bounds_ft": list(info.bounds_ft),
            "radius_ft": office_setting(ws, "kit_imagery_radius_ft")}
    return meta, data


def check_kit_imagery(kit_path: Path, meta: Any, members: dict[str, bytes],
                      root: Path) -> RasterInfo:
    """The kit's image, checked by the reader every import uses, from a work folder of the
    data folder `root` (removed however the check ends; by the next opening if the program
    is killed); InputError naming the kit if it is not one this app can place."""
    from ...geo.rasters import RasterFileError, inspect_raster

    def refuse(why: str) -> InputError:
        return InputError(f"{kit_path}: the kit's imagery {why}; the kit was refused and "
                          "nothing was imported. Ask the office for a new kit.")

    if not isinstance(meta, dict) or not isinstance(meta.get("member"), str) or not all(
            isinstance(meta.get(k), str) for k in ("name", "source")):
        raise refuse("is not described properly in kit.json")
    data = members.get(meta["member"])
    if data is None:
        raise refuse(f"({meta['member']}) is missing")
    captured = meta.get("captured_on")
    if captured is not None:
        try:
            date.fromisoformat(captured)
        except (TypeError, ValueError):
            raise refuse("has a capture date that is not a date") from None
    with work_folder(root / FOLDER, f"kit-check-{new_id()}") as work:
        tmp = work / "kit-imagery.tif"
        try:
            tmp.write_bytes(data)
        except OSError as exc:
            raise UnwritablePath(root / FOLDER, exc, what="folder") from None
        try:
            info = inspect_raster(tmp)
        except RasterFileError as exc:
            raise refuse(f"cannot be read ({str(exc).split(': ', 1)[-1]})") from None
    if info.format != "geotiff":
        raise refuse("is not a GeoTIFF")
    return info


def store_kit_imagery(w: RecordWriter, root: Path, meta: dict[str, Any], data: bytes,
                      info: RasterInfo, write: Any) -> str:
    """On the laptop, inside the join's transaction: keep the kit's image as a copy and
    make it the active basemap. `write(path, bytes)` writes a file (undone if the join
    fails)."""
    record_id = new_id()
    relative = f"{FOLDER}/{record_id}.tif"
    write(root / relative, data)
    w.insert("basemaps", {
        "name": meta["name"], "format": "geotiff", "storage": "copy", "path": relative,
        "size_bytes": len(data), "fingerprint": fingerprint(root / relative),
        "source": meta["source"], "captured_on": meta.get("captured_on"),
        "source_crs": info.source_crs, "bounds": list(info.bounds_ft),
        "resolution_ft": info.resolution_ft, "width_px": info.width_px,
        "height_px": info.height_px, "active": 0, "imported_at": w.now,
        "imported_by": w.actor.user}, parcel_id=None, record_id=record_id)
    basemap_rows.make_active(w, record_id)
    return record_id
