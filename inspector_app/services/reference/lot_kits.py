"""A lot layer's lots in a field kit: those of the laptop's parcels and their neighbours,
written by the office and checked on the laptop as an import of lot lines is."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ...errors import InputError
from ...storage import layers
from .lot_lines import (
    KIT_NEIGHBOUR_FT,
    MAX_KIT_LOTS,
    MAX_LOT_WKB,
    MAX_SBL,
    active_lot_layer,
    checked_lots,
    lot_digest,
)

if TYPE_CHECKING:
    from ..session.session import Session


_LAYER_COLUMNS = ("id", "created_at", "updated_at", "device_id", "version", "name", "source",
                  "accuracy_ft", "layer_version", "imported_at", "imported_by", "source_crs",
                  "sbl_field", "feature_count", "matched_count", "digest")
_ID = {"type": "string", "pattern": "^[0-9A-Za-z-]{8,64}$"}
_TEXT = {"type": "string", "maxLength": 2000}
_TIME = {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?\+00:00$"}
_COUNT = {"type": "integer", "minimum": 0, "maximum": 10_000_000}
KIT_LAYER_SCHEMA = {
    "type": "object", "additionalProperties": False, "required": ["layer"],
    "properties": {"layer": {
        "type": "object", "additionalProperties": False, "required": list(_LAYER_COLUMNS),
        "properties": {
            "id": _ID, "created_at": _TIME, "updated_at": _TIME, "device_id": _ID,
            "version": {"type": "integer", "minimum": 1, "maximum": 2**31 - 1},
            "name": {"type": "string", "minLength": 1, "maxLength": 500}, "source": _TEXT,
            "accuracy_ft": {"type": "number", "minimum": 0, "maximum": 10_000},
            "layer_version": {"type": "integer", "minimum": 1, "maximum": 2**31 - 1},
            "imported_at": _TIME, "imported_by": {"type": "string", "maxLength": 200},
            "source_crs": {"type": "string", "maxLength": 2000},
            "sbl_field": {"type": "string", "maxLength": 200},
            "feature_count": _COUNT, "matched_count": _COUNT,
            "digest": {"type": "string", "pattern": "^[0-9a-f]{64}$"}}}},
}
KIT_LOT_SCHEMA = {
    "type": "object", "additionalProperties": False,
    "required": ["fid", "sbl", "parcel_id", "wkb"],
    "properties": {
        "fid": {"type": "integer", "minimum": -2**63, "maximum": 2**63 - 1},
        "sbl": {"type": ["string", "null"], "maxLength": MAX_SBL},
        "parcel_id": {"anyOf": [_ID, {"type": "null"}]},
        "wkb": {"type": "string", "pattern": "^([0-9a-f]{2})+$", "maxLength": 2 * MAX_LOT_WKB},
    },
}


def kit_lot_lines(ws: Session, parcel_ids: Sequence[str], *,
                  neighbour_ft: float = KIT_NEIGHBOUR_FT) -> bytes | None:
    """What a field kit carries of the active lot layer (`lot_lines.jsonl`): its record,
    then the lots of the kit's parcels and every lot within `neighbour_ft` of one of them,
    one JSON object a line (fid, SBL, parcel id, WKB in EPSG:2261 as hex). A lot matched
    to a parcel the kit does not carry travels without its parcel id. None when no layer
    is active or none of the parcels has a lot."""
    layer = active_lot_layer(ws)
    if layer is None:
        return None
    lots = layer._lots
    mine = set(parcel_ids)
    own = sorted(i for p in mine for i in lots.by_parcel.get(p, []))
    if not own:
        return None
    index = lots.index()
    chosen = set(own)
    for i in own:
        chosen.update(index.near(lots.geometries[i], neighbour_ft))
    if len(chosen) > MAX_KIT_LOTS:
        raise InputError(f"The field kit would carry {len(chosen):,} lots of the lot layer "
                         f"{layer.label()}, over the limit of {MAX_KIT_LOTS:,}; assign fewer "
                         "parcels to the laptop.")
    row = layers.lot_layer(ws.store.conn, layer.id)
    out = [json.dumps({"layer": {k: row[k] for k in _LAYER_COLUMNS}}, ensure_ascii=False)]
    blobs = layers.lot_geometries(ws.store.conn, layer.id)
    for i in sorted(chosen, key=lambda i: lots.fids[i]):
        pid = lots.parcel_ids[i]
        out.append(json.dumps({"fid": lots.fids[i], "sbl": lots.sbls[i],
                               "parcel_id": pid if pid in mine else None,
                               "wkb": blobs[lots.fids[i]].hex()}, ensure_ascii=False))
    return "\n".join(out).encode()


def check_kit_lot_lines(data: bytes, *, parcels: set[str],
                        where: str) -> tuple[dict[str, Any], list[tuple[int, str | None,
                                                                          str | None, Any]]]:
    """A kit's lot layer checked as strictly as an import: its record and each lot against
    their schemas, the lots' parcels among the kit's, no fid twice, at most `MAX_KIT_LOTS`
    lots, and each geometry through the checks of a lot read from a file (inside NY State
    Plane Central's area of use, a valid polygon with an area). Returns the record and the
    lots; raises InputError naming the line."""
    from ...json_input import NonFiniteNumber, loads

    def refuse(n: int, why: str) -> InputError:
        return InputError(f"{where}: lot_lines.jsonl line {n} {why}; nothing was changed.")

    lines = [line for line in data.splitlines() if line.strip()]
    if not lines:
        raise refuse(1, "is missing (no lot layer record)")
    if len(lines) - 1 > MAX_KIT_LOTS:
        raise refuse(len(lines), f"is one lot too many (a kit carries at most {MAX_KIT_LOTS:,})")
    parsed = []
    for n, line in enumerate(lines, start=1):
        try:
            parsed.append(loads(line))
        except (NonFiniteNumber, ValueError, UnicodeDecodeError):
            raise refuse(n, "is not valid JSON") from None
    problem = _LAYER_CHECK(parsed[0])
    if problem:
        raise refuse(1, f"is not a lot layer record ({problem})")
    rows: list[tuple[int, str | None, str | None, Any]] = []
    seen: set[int] = set()
    blobs = []
    for n, lot in enumerate(parsed[1:], start=2):
        problem = _LOT_CHECK(lot)
        if problem:
            raise refuse(n, f"is not a lot ({problem})")
        if lot["fid"] in seen:
            raise refuse(n, f"repeats the lot {lot['fid']}")
        seen.add(lot["fid"])
        if lot["parcel_id"] is not None and lot["parcel_id"] not in parcels:
            raise refuse(n, f"names the parcel {lot['parcel_id']}, which the kit does not carry")
        blobs.append(bytes.fromhex(lot["wkb"]))
        rows.append((lot["fid"], lot["sbl"], lot["parcel_id"], None))
    from ...geo.lots import from_measure_wkb

    geometries = from_measure_wkb(blobs, f"{where}: lot_lines.jsonl")
    prepared = checked_lots(geometries)
    for n, (lot, blob) in enumerate(zip(prepared, blobs, strict=True), start=2):
        if lot.problem is not None or lot.repaired or lot.wkb != blob:
            raise refuse(n, f"is not a lot as the office keeps one ({lot.problem or 'invalid'})")
    return parsed[0]["layer"], [(fid, sbl, pid, lot) for (fid, sbl, pid, _), lot
                                in zip(rows, prepared, strict=True)]


def take_kit_lot_lines(conn: Any, layer: dict[str, Any],
                       lots: list[tuple[int, str | None, str | None, Any]]) -> None:
    """On a laptop joining from its kit (inside the join's transaction): the kit's lot
    layer becomes the active one. It holds only the lots the kit carried, so its record's
    `feature_count`, `matched_count` and `digest` describe what the laptop holds; the
    rest (id, name, versions, accuracy, who imported it and when) is the office's."""
    row = {**layer, "active": 1, "feature_count": len(lots),
           "matched_count": sum(pid is not None for _, _, pid, _ in lots),
           "digest": lot_digest((fid, sbl, pid, lot.wkb) for fid, sbl, pid, lot in lots)}
    layers.take_kit_lot_layer(conn, row, [(fid, sbl, pid, lot.wkb, *lot.bounds)
                                          for fid, sbl, pid, lot in lots])


def _compiled(schema: dict[str, Any]) -> Callable[[Any], str | None]:
    from ...json_input import schema_check

    return schema_check(schema)


_LAYER_CHECK = _compiled(KIT_LAYER_SCHEMA)
_LOT_CHECK = _compiled(KIT_LOT_SCHEMA)
