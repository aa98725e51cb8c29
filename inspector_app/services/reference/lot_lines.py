"""Lot layers: the county's tax-parcel lines, imported, matched to parcels by SBL, kept in
versions like shoreline layers, and read by the measures that use them (docs/lots.md).

A layer is a record (`lot_layers`); its lots (`lot_lines`) are kept exactly as imported
and never changed or removed: a new import is a new version of the layer. One layer is
active at a time.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...domain.sbl import sbl_key, sbl_sort_key, sbl_swis
from ...domain.units import plain_number
from ...errors import InputError, NotFoundError
from ...storage import layers
from ...storage import parcels as parcel_rows
from ...storage.records import RecordWriter
from ..session.session import FIELD
from .shorelines import active_info, layer_label

if TYPE_CHECKING:
    from ...geo.lots import BaseGeometry, LotIndex, PreparedLot
    from ..session.session import Session

# County tax maps are drawn from deeds and surveys onto orthophotos; their lines are
# commonly within about 10 ft of the monuments on the ground (often better in a village,
# worse on old rural lots). A measure against the lot line carries this accuracy unless
# the import declares another (--accuracy-ft).
DEFAULT_ACCURACY_FT = 10.0
# Field names a county file commonly keeps the tax map number in, tried in this order
# (without case) when the import names none.
SBL_FIELDS = ("SBL", "PRINT_KEY", "PRINTKEY", "SWIS_SBL_ID", "SWISSBL", "SWIS_SBL", "SBL_ID",
              "TAX_ID", "TAXID", "TAX_MAP", "TAXMAP", "PARCEL_ID", "PARCELID", "PARCEL_NUM",
              "PIN")
# The lots within this distance of an assigned parcel's lot travel with a field kit, so
# that a laptop has the neighbours' lots (their wells, their lot lines) too.
KIT_NEIGHBOUR_FT = 500.0
KIT_MEMBER = "lot_lines.jsonl"
MAX_KIT_LOTS = 50_000  # lots in one field kit
MAX_LOT_WKB = 4 * 1024**2  # bytes of one lot's geometry (about 250,000 vertices)
MAX_SBL = 100  # characters of a lot's SBL as a file gives it
_CHUNK = 5000

Progress = Callable[[int, int], None] | None
Cancelled = Callable[[], bool] | None

_NO_SUCH_PARCEL = "no such parcel in this data folder"


@dataclass(frozen=True)
class Lot:
    """One lot of a layer: the feature's id in the file, its SBL as the file spells it,
    the parcel it was matched to at import (or None), and its polygon in EPSG:2261."""

    fid: int
    sbl: str | None
    parcel_id: str | None
    geometry: BaseGeometry


class _Lots:
    """A layer's lots as read from the data folder, decoded once, indexed on first use."""

    def __init__(self, fids: list[int], sbls: list[str | None], parcel_ids: list[str | None],
                 blobs: list[bytes] | None = None,
                 geometries: list[BaseGeometry] | None = None) -> None:
        from ...geo.lots import decode

        self.fids, self.sbls, self.parcel_ids = fids, sbls, parcel_ids
        self.geometries = geometries if geometries is not None else decode(blobs or [])
        self.by_parcel: dict[str, list[int]] = {}
        for i, parcel_id in enumerate(parcel_ids):
            if parcel_id is not None:
                self.by_parcel.setdefault(parcel_id, []).append(i)
        self._index: LotIndex | None = None

    def index(self) -> LotIndex:
        if self._index is None:
            from ...geo.lots import LotIndex

            self._index = LotIndex(self.geometries)
        return self._index

    def lot(self, i: int) -> Lot:
        return Lot(self.fids[i], self.sbls[i], self.parcel_ids[i], self.geometries[i])


@dataclass(frozen=True)
class LotLayer:
    """A lot layer as the measures read it."""

    id: str
    name: str
    version: int
    accuracy_ft: float
    _lots: _Lots = field(repr=False, compare=False)

    def label(self) -> str:
        return layer_label(self.name, self.version, self.accuracy_ft)

    @classmethod
    def of(cls, lots: Sequence[Lot], *, id: str = "layer", name: str = "Lots",
           version: int = 1, accuracy_ft: float = DEFAULT_ACCURACY_FT) -> LotLayer:
        """A layer holding these lots, not read from a data folder (for a measure of a
        case file, or a test)."""
        return cls(id=id, name=name, version=version, accuracy_ft=accuracy_ft,
                   _lots=_Lots([x.fid for x in lots], [x.sbl for x in lots],
                               [x.parcel_id for x in lots],
                               geometries=[x.geometry for x in lots]))

    def __len__(self) -> int:
        return len(self._lots.fids)

    def lot_for(self, parcel_id: str) -> Lot | None:
        """The parcel's lot: the feature its SBL matched at import (the lowest fid's, with
        the polygons of every feature of the same SBL joined into one), or None."""
        found = self._lots.by_parcel.get(parcel_id)
        if not found:
            return None
        first = self._lots.lot(found[0])
        if len(found) == 1:
            return first
        from ...geo.lots import join

        return Lot(first.fid, first.sbl, parcel_id,
                   join([self._lots.geometries[i] for i in found]))

    def lots_near(self, geometry: BaseGeometry, distance_ft: float) -> list[Lot]:
        """Every lot (one per feature) within `distance_ft` of the geometry, in fid order."""
        return [self._lots.lot(i) for i in self._lots.index().near(geometry, distance_ft)]


_CACHE: dict[tuple[str, int], _Lots] = {}


# --- reading the layers ------------------------------------------------------------------

def _layer_json(row: dict[str, Any]) -> dict[str, Any]:
    return {"id": row["id"], "name": row["name"], "source": row["source"],
            "accuracy_ft": plain_number(row["accuracy_ft"]), "version": row["layer_version"],
            "active": bool(row["active"]), "imported_at": row["imported_at"],
            "imported_by": row["imported_by"], "source_crs": row["source_crs"],
            "sbl_field": row["sbl_field"], "features": row["feature_count"],
            "matched": row["matched_count"], "digest": row["digest"],
            "label": layer_label(row["name"], row["layer_version"], row["accuracy_ft"])}


def list_lot_layers(ws: Session) -> list[dict[str, Any]]:
    """Every lot layer, oldest first, the active one marked."""
    return [_layer_json(r) for r in layers.lot_layers(ws.store.conn)]


def active_lot_layer_info(ws: Session) -> dict[str, Any] | None:
    """The active layer's id, name, version and accuracy, without reading its lots."""
    return active_info(ws, layers.LOT_LAYERS)


def active_lot_layer(ws: Session) -> LotLayer | None:
    """The active lot layer with its lots (read once per layer and record version)."""
    r = layers.active_lot_layer(ws.store.conn)
    if r is None:
        return None
    key = (r["id"], r["version"])
    if key not in _CACHE:
        fids, sbls, parcels, blobs = layers.lots_of(ws.store.conn, r["id"])
        _CACHE.clear()
        _CACHE[key] = _Lots(fids, sbls, parcels, blobs)
    return LotLayer(id=r["id"], name=r["name"], version=r["layer_version"],
                    accuracy_ft=r["accuracy_ft"], _lots=_CACHE[key])


def activate_lot_layer(ws: Session, name_or_id: str) -> dict[str, Any]:
    """Make a layer the active one: by id, or by name (its newest version)."""
    _refuse_on_laptop(ws, "lot layers are chosen at the office; a laptop uses its kit's")
    wanted = name_or_id.strip()
    rows = layers.lot_layers_called(ws.store.conn, wanted)
    if not rows:
        names = sorted(layers.lot_layer_names(ws.store.conn))
        known = ", ".join(names) or "none (import one with `parcels import-lines FILE`)"
        raise NotFoundError(f"No lot layer named {wanted!r} in {ws.folder.root}; the layers "
                            f"are: {known}.")
    row = rows[0]
    if not row["active"]:
        with ws.store.transaction() as w:
            layers.deactivate_layers(w, layers.LOT_LAYERS)
            w.update("lot_layers", row["id"], {"active": 1})
    return _layer_json(layers.lot_layer(ws.store.conn, row["id"]))


def _refuse_on_laptop(ws: Session, why: str) -> None:
    if ws.role == FIELD:
        raise InputError(f"This data folder is an enrolled laptop: {why} (they are never "
                         "sent back to the office). Nothing was changed.")


# --- import ------------------------------------------------------------------------------

def lot_digest(rows: Iterable[tuple[int, str | None, str | None, bytes]]) -> str:
    """SHA-256 over a layer's lots in fid order: each lot's fid, SBL, parcel and geometry
    (WKB) as stored."""
    h = hashlib.sha256()
    for fid, sbl, parcel_id, wkb in sorted(rows, key=lambda r: r[0]):
        # fid, SBL, parcel id (a NUL byte for none), the WKB's length, each ending in a
        # unit separator; then the WKB
        h.update(f"{fid}\x1f{_NONE if sbl is None else sbl}\x1f"
                 f"{_NONE if parcel_id is None else parcel_id}\x1f{len(wkb)}\x1f".encode())
        h.update(wkb)
    return h.hexdigest()


_NONE = "\x00"


def _text(value: Any) -> str | None:
    """A field's value as SBL text: a number as its digits, blank as None."""
    if value is None:
        return None
    if isinstance(value, float):
        if value != value:  # NaN: no value
            return None
        value = int(value) if value.is_integer() else value
    text = str(value).strip()
    return text or None


@dataclass
class _Matched:
    parcel_ids: list[str | None]
    spelled: list[dict[str, Any]]
    unmatched: list[dict[str, Any]]
    same_sbl: list[dict[str, Any]]

    @property
    def count(self) -> int:
        return sum(p is not None for p in self.parcel_ids)


def match_sbls(fids: Sequence[int], sbls: Sequence[str | None],
               parcels: dict[str, str], field_name: str) -> _Matched:
    """Match each lot's SBL to a parcel (`parcels`: SBL -> parcel id).

    An SBL the data folder has exactly is matched. Otherwise the SBL's parts are compared
    as numbers without their leading zeros (`domain.sbl.sbl_key`): when exactly one parcel
    has the same parts, it is matched and listed as spelled differently; when several do,
    none is. Features whose SBLs match the same parcel are that lot's parts (kept, and
    listed), unless their SWIS codes differ: then they are lots of different
    municipalities and none of them is matched."""
    keyed: dict[tuple[str, ...], list[str]] = {}
    for known in parcels:
        key = sbl_key(known)
        if key is not None:
            keyed.setdefault(key, []).append(known)
    out = _Matched([None] * len(fids), [], [], [])
    for i, (fid, sbl) in enumerate(zip(fids, sbls, strict=True)):
        if sbl is None:
            out.unmatched.append({"fid": fid, "sbl": None,
                                  "reason": f"no SBL in field {field_name}"})
            continue
        if sbl in parcels:
            out.parcel_ids[i] = parcels[sbl]
            continue
        key = sbl_key(sbl)
        found = keyed.get(key, []) if key is not None else []
        if len(found) == 1:
            out.parcel_ids[i] = parcels[found[0]]
            out.spelled.append({"fid": fid, "sbl": sbl, "parcel_sbl": found[0],
                                "reason": f"SBL spelled differently: matched {sbl} as "
                                          f"{found[0]}"})
        elif found:
            out.unmatched.append({"fid": fid, "sbl": sbl,
                                  "reason": "SBL matches several parcels ("
                                            f"{', '.join(sorted(found, key=sbl_sort_key))}); "
                                            "none was matched"})
        else:
            out.unmatched.append({"fid": fid, "sbl": sbl, "reason": _NO_SUCH_PARCEL})
    by_parcel: dict[str, list[int]] = {}
    for i, parcel_id in enumerate(out.parcel_ids):
        if parcel_id is not None:
            by_parcel.setdefault(parcel_id, []).append(i)
    for found_at in by_parcel.values():
        if len(found_at) < 2:
            continue
        swis = {s for s in (sbl_swis(sbls[i]) for i in found_at) if s is not None}
        parts = [fids[i] for i in found_at]
        entry = {"fids": parts, "sbl": sbls[found_at[0]]}
        if len(swis) > 1:
            for i in found_at:
                out.parcel_ids[i] = None
                out.unmatched.append({"fid": fids[i], "sbl": sbls[i], "reason": (
                    "two features carry the same SBL in different municipalities (SWIS "
                    f"{', '.join(sorted(swis))}); none of them was matched")})
            out.spelled = [s for s in out.spelled if s["fid"] not in parts]
        else:
            out.same_sbl.append({**entry, "reason": "two features carry the same SBL: both "
                                 "are kept as parts of the parcel's one lot"})
    out.unmatched.sort(key=lambda u: u["fid"])
    return out


def _sbl_field(fields: list[str], wanted: str | None, path: Path) -> list[str]:
    """The field named (checked), or every field that may hold SBLs, best guess first."""
    listed = ", ".join(fields) or "none"
    if wanted is not None:
        exact = [f for f in fields if f == wanted] or [
            f for f in fields if f.casefold() == wanted.strip().casefold()]
        if not exact:
            raise InputError(f"{path}: has no field {wanted!r}; its fields are: {listed}. "
                             "Name the field that holds the tax map numbers with "
                             "--sbl-field. Nothing was imported.")
        return exact[:1]
    folded = {f.casefold(): f for f in fields}
    found = [folded[n.casefold()] for n in SBL_FIELDS if n.casefold() in folded]
    if not found:
        raise InputError(f"{path}: no field looks like it holds tax map numbers (tried "
                         f"{', '.join(SBL_FIELDS)}); its fields are: {listed}. Name the "
                         "field with --sbl-field. Nothing was imported.",
                         in_app=f"{path}: no field looks like it holds tax map numbers; its "
                                f"fields are: {listed}. Choose the field in the import "
                                "dialog. Nothing was imported.")
    return found


def checked_lots(geometries: Sequence[BaseGeometry | None]) -> list[PreparedLot]:
    from ...geo.lots import prepare

    return prepare(geometries)


def read_lot_file(path: Path, sbl_field: str | None = None
                  ) -> tuple[Any, list[str], list[PreparedLot]]:
    """Read a parcel file: (the features, the candidate SBL fields, each feature checked
    as a lot). Refuses a file this app cannot read, with no CRS, out of the area, without
    polygons or without an SBL field."""
    from ...geo.vector_files import read_vector_table

    chosen: list[str] = []

    def columns(fields: list[str]) -> list[str]:
        chosen.extend(_sbl_field(fields, sbl_field, path))
        return chosen

    table = read_vector_table(path, columns)
    prepared = checked_lots(table.geometries)
    if not any(p.problem is None for p in prepared):
        kinds = sorted({p.problem for p in prepared if p.problem})
        raise InputError(f"{path}: holds no polygon a lot can be made of ({'; '.join(kinds)}); "
                         "give the county's parcel polygons. Nothing was imported.")
    return table, chosen, prepared


def import_lot_lines(ws: Session, path: Path, *, name: str | None = None,
                     sbl_field: str | None = None, accuracy_ft: float = DEFAULT_ACCURACY_FT,
                     source: str | None = None, progress: Progress = None,
                     cancelled: Cancelled = None) -> dict[str, Any]:
    """Import a file of parcel polygons as a new version of a lot layer, matched to the
    parcels by SBL, and make it the active layer (earlier layers and versions stay).
    Returns the report (docs/lots.md); refuses, storing nothing, a file it cannot use."""
    _refuse_on_laptop(ws, "lot layers are imported at the office and come in the field kit")
    if not (0 <= accuracy_ft <= 10_000) or accuracy_ft != accuracy_ft:
        raise InputError(f"parcels import-lines: --accuracy-ft {accuracy_ft:g} is not "
                         "plausible; give the lines' accuracy in feet (0 to 10000).")
    layer_name = (name if name is not None else f"Tax parcel lines ({path.name})").strip()
    if not layer_name:
        raise InputError("parcels import-lines: --name is empty; give the layer a name.")
    table, candidates, prepared = read_lot_file(path, sbl_field)
    _tick(progress, cancelled, 0, 3)
    parcels = parcel_rows.ids_by_sbl(ws.store.conn)
    kept = [i for i, p in enumerate(prepared) if p.problem is None]
    fids = [table.ids[i] for i in kept]
    tried = []
    for candidate in candidates:
        sbls = [_text(v) for v in (table.fields[candidate][i] for i in kept)]
        tried.append((candidate, sbls, match_sbls(fids, sbls, parcels, candidate)))
    used, sbls, matched = max(tried, key=lambda t: t[2].count)
    _tick(progress, cancelled, 1, 3)
    if matched.count == 0:
        raise InputError(
            f"{path}: none of its {len(kept):,} lots matched a parcel of this data folder by "
            f"the SBL in field {used}"
            + (f" (fields tried: {', '.join(t[0] for t in tried)})" if len(tried) > 1 else "")
            + "; it is probably the wrong file, or the SBLs are in another field (name it "
            "with --sbl-field). Nothing was imported.")
    for sbl in sbls:
        if sbl is not None and len(sbl) > MAX_SBL:
            raise InputError(f"{path}: the SBL {sbl[:40]!r}... in field {used} is over "
                             f"{MAX_SBL} characters; name the field that holds the tax map "
                             "numbers with --sbl-field. Nothing was imported.")
    rows = [(fid, sbl, parcel_id, prepared[i])
            for fid, sbl, parcel_id, i in zip(fids, sbls, matched.parcel_ids, kept,
                                              strict=True)]
    with ws.store.transaction() as w:
        layer_id, version = _store(w, layer_name, rows, source=(source or path.name).strip(),
                                   accuracy_ft=accuracy_ft, source_crs=table.source_crs,
                                   sbl_field=used, progress=progress, cancelled=cancelled)
    skipped = [{"fid": table.ids[i], "sbl": _text(table.fields[used][i]),
                "reason": f"not kept: {p.problem}"}
               for i, p in enumerate(prepared) if p.problem is not None]
    with_lot = set(matched.parcel_ids) - {None}
    without = sorted((s for s, pid in parcels.items() if pid not in with_lot), key=sbl_sort_key)
    unmatched = sorted(matched.unmatched + skipped, key=lambda u: u["fid"])
    counts: dict[str, int] = {}
    for u in unmatched:
        reason = "SBL matches several parcels" if u["reason"].startswith(
            "SBL matches several") else u["reason"]
        counts[reason] = counts.get(reason, 0) + 1
    return {"id": layer_id, "name": layer_name, "version": version,
            "label": layer_label(layer_name, version, accuracy_ft),
            "accuracy_ft": plain_number(accuracy_ft), "source_crs": table.source_crs,
            "sbl_field": used, "sbl_field_guessed": sbl_field is None,
            "features": len(table.ids), "stored": len(rows), "matched": matched.count,
            "repaired": [table.ids[i] for i in kept if prepared[i].repaired],
            "spelled_differently": matched.spelled, "same_sbl": matched.same_sbl,
            "unmatched": unmatched, "unmatched_counts": counts,
            "parcels_without_lot": len(without), "parcels_without_lot_sbls": without[:100]}


def _tick(progress: Progress, cancelled: Cancelled, done: int, total: int) -> None:
    if cancelled is not None and cancelled():
        raise InputError("The lot-line import was cancelled; nothing was imported.")
    if progress is not None:
        progress(done, total)


def _store(w: RecordWriter, name: str, rows: list[tuple[int, str | None, str | None, Any]], *,
           source: str, accuracy_ft: float, source_crs: str, sbl_field: str,
           progress: Progress = None, cancelled: Cancelled = None,
           digest: str | None = None) -> tuple[str, int]:
    """Store a layer record and its lots, and make it the active layer (inside the
    caller's transaction). `rows`: (fid, sbl, parcel id, PreparedLot); `digest`, when
    given, is their `lot_digest`."""
    version = layers.next_layer_version(w.conn, layers.LOT_LAYERS, name)
    layers.deactivate_layers(w, layers.LOT_LAYERS)
    if digest is None:
        digest = lot_digest((fid, sbl, pid, lot.wkb) for fid, sbl, pid, lot in rows)
    layer_id = w.insert("lot_layers", {
        "name": name, "source": source, "accuracy_ft": accuracy_ft, "layer_version": version,
        "active": 1, "imported_at": w.now, "imported_by": w.actor.user,
        "source_crs": source_crs, "sbl_field": sbl_field, "feature_count": len(rows),
        "matched_count": sum(pid is not None for _, _, pid, _ in rows), "digest": digest},
        parcel_id=None)
    total = len(rows)
    for start in range(0, total, _CHUNK):
        _tick(progress, cancelled, 2, 3)
        layers.add_lot_lines(w.conn, layer_id, [(fid, sbl, pid, lot.wkb, *lot.bounds)
                                                for fid, sbl, pid, lot
                                                in rows[start:start + _CHUNK]])
    _tick(progress, cancelled, 3, 3)
    return layer_id, version


# --- the demo's invented lots ------------------------------------------------------------

DEMO_LOTS_NAME = "Invented demo lot lines (not the county's tax map)"
DEMO_LOTS_SOURCE = ("Invented for the demo: a rectangle from the lake line inland around each "
                    "demo site, and the two neighbouring lots sharing its sides (SBL sections "
                    "901 and 902, no parcel), cut where they would overlap another site's; "
                    "not any county's tax map")
# How far each demo lot's left side, right side and rear line lie beyond its absorption
# area, in feet, in turn: some areas sit within 10 ft of a lot line (at 6 ft, a shortfall
# the demo suggests), most well inside.
_DEMO_SIDES = ((6.0, 45.0, 30.0), (30.0, 8.0, 90.0), (55.0, 25.0, 9.0), (15.0, 70.0, 150.0),
               (90.0, 12.0, 40.0), (40.0, 40.0, 60.0), (25.0, 60.0, 9.0))
_HALF_TANK_DEG = 0.00005  # a holding tank's demo lot is drawn around a 25-ft square
# The invented lines are exact as drawn; they are declared as accurate as a surveyed
# subdivision map (not the county tax map's 10 ft, under which no shortfall of a 10-ft
# setback is proved), so that an area a few feet from its lot line shows the property-line
# suggestion a measured shortfall gets.
_DEMO_ACCURACY_FT = 2.0


def _demo_area(site: Any) -> dict[str, Any] | None:
    if site is None:
        return None
    if site.absorption_area:
        return dict(site.absorption_area)
    tank = site.holding_tank
    if tank and tank.get("type") == "Point":
        lon, lat = tank["coordinates"][:2]
        d = _HALF_TANK_DEG
        return {"type": "Polygon", "coordinates": [[[lon - d, lat - d], [lon + d, lat - d],
                                                    [lon + d, lat + d], [lon - d, lat + d],
                                                    [lon - d, lat - d]]]}
    return None


def store_demo_lots(w: RecordWriter, lake: dict[str, Any],
                    parcels: Sequence[tuple[str, Any]]) -> int:
    """Inside the demo's transaction: invented lots for the demo parcels (parcel id, case)
    and their neighbours, kept as a lot layer named as invented and made active, unless
    the active layer already holds exactly these lots. Returns the lots stored."""
    from ...geo.lots import invented_lots

    placed = [(pid, case.parcel.sbl, area) for pid, case in parcels
              if (area := _demo_area(case.site)) is not None]
    if not placed:
        return 0
    sides = [_DEMO_SIDES[i % len(_DEMO_SIDES)] for i in range(len(placed))]
    made = invented_lots(lake, [a for _, _, a in placed], sides)
    rows: list[tuple[int, str | None, str | None, Any]] = []
    for k, ((pid, sbl, _), (own, west, east)) in enumerate(zip(placed, made, strict=True)):
        rest = sbl.partition(".")[2]
        for fid, lot_sbl, lot_pid, lot in ((3 * k + 1, sbl, pid, own),
                                           (3 * k + 2, f"901.{rest}" if rest else None, None,
                                            west),
                                           (3 * k + 3, f"902.{rest}" if rest else None, None,
                                            east)):
            if lot is not None:  # a neighbour's lot where the next site's lies is not made
                rows.append((fid, lot_sbl, lot_pid, lot))
    digest = lot_digest((fid, sbl, pid, lot.wkb) for fid, sbl, pid, lot in rows)
    if layers.is_active_lot_layer(w.conn, name=DEMO_LOTS_NAME, digest=digest):
        return 0
    _store(w, DEMO_LOTS_NAME, rows, source=DEMO_LOTS_SOURCE, accuracy_ft=_DEMO_ACCURACY_FT,
           source_crs="EPSG:2261", sbl_field="SBL", digest=digest)
    return len(rows)
