"""Measuring parcels on the active shoreline and lot layers, as `inspector-app measure` does:
every parcel whose site is new to the layer, or those named."""

from __future__ import annotations

from datetime import date
from typing import Any

from ...domain.case import Case
from ...errors import InputError
from ...storage import change_log, measurements, site_features
from ...storage.cases import load_case, load_cases
from ...storage.records import RecordWriter
from ..reference.shorelines import (
    NO_LAYER,
    NO_LAYER_IN_APP,
    ActiveLayer,
    active_layer,
    active_layer_info,
    record_map_measurement,
)
from ..session.session import Session
from .separations import measure_lots


def _unchanged_parcels(w: RecordWriter, layer_id: str, last: dict[str, float]) -> set[str]:
    """The parcels measuring again on the layer cannot give a new record: a fresh map
    measurement (above) holds the distance it would find, and that is the distance the
    parcel's latest one (`last`) holds. A parcel whose geometry changed but whose distance
    did not gets no new row, so it is measured again every time, as it must be: nothing
    newer than its geometry says what it measures (`measurements.fresh_map_distances`)."""
    layer_seq = change_log.last_change_to(w.conn, layer_id)
    unchanged = set()
    for parcel_id, distance_ft in measurements.fresh_map_distances(
            w.conn, layer_id=layer_id, device_id=w.actor.device_id, layer_seq=layer_seq):
        latest = last.get(parcel_id)
        if latest is not None and round(latest, 2) == round(distance_ft, 2):
            unchanged.add(parcel_id)
    return unchanged


def _measure_all(ws: Session, w: RecordWriter, day: date, *, progress: Any,
                 cancelled: Any) -> dict[str, Any]:

    info = active_layer_info(ws)  # its geometry is read only if something is measured
    if info is None:
        raise InputError(NO_LAYER, in_app=NO_LAYER_IN_APP)
    layer_id = info["id"]
    ids = [i for i in site_features.parcels_with_area_or_tank(w.conn)
           if w.may_change_parcel(i)]
    last = measurements.latest_map_distances(w.conn, layer_id)
    unchanged = _unchanged_parcels(w, layer_id, last)
    todo = [i for i in ids if i not in unchanged]
    recorded = 0
    if todo:
        layer = active_layer(ws)
        assert layer is not None and layer.id == layer_id
        # A map measurement reads the site's geometry and capture, nothing else.
        if len(todo) > len(ids) // 2:
            every = load_cases(w.conn, only=("site_features",))
        else:
            every = {}
            for start in range(0, len(todo), 500):
                every.update(load_cases(w.conn, only=("site_features",),
                                        parcel_ids=todo[start:start + 500]))
        cases = [every[i] for i in todo]
        recorded = _record_all(ws, w, day, layer, todo, cases, last, done=len(unchanged),
                               total=len(ids), progress=progress, cancelled=cancelled)
    elif progress is not None and ids:
        progress(len(ids), len(ids))
    return {"layer": info["label"], "parcels": len(ids), "new_measurements": recorded,
            "unchanged": len(unchanged), "lot_measurements": measure_lots(ws, w, day)}


def _record_all(ws: Session, w: RecordWriter, day: date, layer: ActiveLayer, ids: list[str],
                cases: list[Case], last: dict[str, float], *, done: int, total: int,
                progress: Any, cancelled: Any) -> int:
    """Measure the cases together and keep each new distance; returns how many were kept."""
    from ...geo.case_shapes import measure_cases, project_cases

    recorded = 0
    named_twice = len(set(ids)) < len(ids)
    projected = project_cases(cases)
    measure_cases(projected, layer.lake)
    for n, (parcel_id, case, shapes) in enumerate(
            zip(ids, cases, projected, strict=True), start=done + 1):
        if cancelled is not None and cancelled():
            raise InputError("Measuring was cancelled; no measurement was kept.")
        if record_map_measurement(w, ws, parcel_id, case, day, layer=layer, shapes=shapes,
                                  last=last.get(parcel_id)):
            recorded += 1
            if named_twice:  # a parcel named again is compared with the row just kept
                kept = measurements.latest_map_distance(w.conn, parcel_id, layer.id)
                assert kept is not None
                last[parcel_id] = kept
        if progress is not None:
            progress(n, total)
    return recorded


def measure_parcels(ws: Session, sbls: list[str] | None, *, today: date | None = None,
                    progress: Any = None, cancelled: Any = None) -> dict[str, Any]:
    """Measure parcels (all, or those named) on the active layer and keep new distances.

    Measuring all skips each parcel whose site cannot have changed since its latest map
    measurement on the layer (`unchanged` counts them); those named are all measured.
    Each located component's separation from the lot line of the active lot layer is kept
    too where it changed (`lot_measurements` counts the rows kept)."""

    day = today or ws.today()
    if sbls is None:
        with ws.store.transaction() as w:
            return _measure_all(ws, w, day, progress=progress, cancelled=cancelled)
    layer = active_layer(ws)
    if layer is None:
        raise InputError(NO_LAYER, in_app=NO_LAYER_IN_APP)
    ids = [ws.parcel_id(s) for s in sbls]
    with ws.store.transaction() as w:
        cases = [load_case(w.conn, i) for i in ids]
        recorded = _record_all(ws, w, day, layer, ids, cases,
                               measurements.latest_map_distances(w.conn, layer.id), done=0,
                               total=len(ids), progress=progress, cancelled=cancelled)
        lots = measure_lots(ws, w, day, ids)
    return {"layer": layer.label(), "parcels": len(ids), "new_measurements": recorded,
            "unchanged": 0, "lot_measurements": lots}

