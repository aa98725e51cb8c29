"""What a parcel's separations are measured against besides its own site map: its lot on
the active lot layer, and the wells recorded on neighbouring parcels.

One place works these out for everything that shows or judges separations: the
evaluation (its setback suggestions), the letters that list them and the site map.

The wells of every parcel are kept in one spatial index per data folder, built once and
brought up to date when the change log shows a change to site features or parcels since
(the newest change-log entry is compared, its sequence number and id together, so that a
rolled-back write cannot pass for a committed one); rebuilt from scratch when more than a
few parcels changed or the log is not what the index last saw.
"""

from __future__ import annotations

import json
import weakref
from dataclasses import dataclass
from datetime import date
from types import EllipsisType
from typing import TYPE_CHECKING

from ...domain.case import Case
from ...domain.jurisdiction import Jurisdiction
from ...storage import change_log, measurements, site_features
from ..session.session import FIELD

if TYPE_CHECKING:
    from ...geo.case_shapes import CaseShapes
    from ...geo.setbacks import LotLine, NearbyWell, WellIndex
    from ...storage.records import RecordWriter
    from ...storage.store import Store
    from ..reference.lot_lines import Lot, LotLayer
    from ..session.session import Session

# Parcels changed since the index was built that are read again one by one; more, and the
# index is built again from every well.
_FEW = 200
# Change-log entries read to learn what changed; more, and the index is built again.
_LOG_READ = 20_000
# A parcel's fields its wells are shown with (its SBL) or left out by (deleted).
_WELL_PARCEL_FIELDS = {"sbl", "deleted_at"}

@dataclass(frozen=True)
class SeparationInputs:
    """The parcel's lot (None: no lot layer is active, or the parcel has no lot on it) and
    the wells on other parcels within the largest well setback of its located components."""

    lot: LotLine | None
    wells: tuple[NearbyWell, ...]
    lot_record: Lot | None = None
    lot_layer: LotLayer | None = None


NONE = SeparationInputs(lot=None, wells=())


class _Wells:
    """Every parcel's wells, and the index over them, as of a change-log entry."""

    def __init__(self) -> None:
        self.mark: tuple[int, str] | None = None
        self.by_parcel: dict[str, list[NearbyWell]] = {}
        self.index: WellIndex | None = None

    def _read(self, store: Store, parcel_ids: list[str] | None) -> dict[str, list[NearbyWell]]:
        from ...geo.setbacks import project_wells

        rows = site_features.wells(store.conn, parcel_ids)
        wells = project_wells([(r[1], json.loads(r[2]), float(r[3] or 0.0),
                                None if r[4] is None else bool(r[4])) for r in rows])
        out: dict[str, list[NearbyWell]] = {i: [] for i in parcel_ids or ()}
        # project_wells leaves out a refused geometry: match the wells back by order
        by_sbl: dict[str, str] = {r[1]: r[0] for r in rows}
        for w in wells:
            out.setdefault(by_sbl[w.sbl], []).append(w)
        return out

    def current(self, store: Store) -> WellIndex:
        from ...geo.setbacks import WellIndex

        conn = store.conn
        mark = change_log.latest_entry(conn) or (0, "")
        if self.index is not None and mark == self.mark:
            return self.index
        changed: list[str] | None = None
        if self.index is not None and self.mark is not None and (
                change_log.change_id_at(conn, self.mark[0]) == self.mark[1]):
            entries = change_log.touched_since(conn, self.mark[0], _LOG_READ + 1)
            found = {pid for pid, table, op, name in entries if pid is not None and (
                table == "site_features" or (table == "parcels" and (
                    op != "update" or name in _WELL_PARCEL_FIELDS)))}
            changed = (None if len(entries) > _LOG_READ or len(found) > _FEW
                       else sorted(found))
        if changed is None:
            self.by_parcel = self._read(store, None)
        elif changed:
            self.by_parcel.update(self._read(store, changed))
        if changed is None or changed:
            self.index = WellIndex([w for ws in self.by_parcel.values() for w in ws])
        self.mark = mark
        assert self.index is not None
        return self.index


_INDEXES: weakref.WeakKeyDictionary[Store, _Wells] = weakref.WeakKeyDictionary()


def well_index(ws: Session) -> WellIndex:
    """The wells of every parcel of the data folder, up to date with its change log."""
    found = _INDEXES.get(ws.store)
    if found is None:
        found = _INDEXES[ws.store] = _Wells()
    return found.current(ws.store)


def largest_well_setback_ft(case: Case, law: Jurisdiction, shapes: CaseShapes) -> float:
    """The largest well separation the table asks of the parcel's located components, a
    shallow well's increase included: how far to look for other parcels' wells."""
    from ...geo.setbacks import located

    kinds = {kind for kind, _, _, _ in located(case, shapes)}
    rows = [row.distances.get("well", 0.0) for row in law.setback_rows.values()
            if row.kind in kinds]
    largest = max([float(law.setbacks_ft.get(kind, {}).get("well", 0.0)) for kind in kinds]
                  + [float(ft) for ft in rows], default=0.0)
    # a shallow well's distances increase (75-A Table 2, note (g))
    notes = law.setback_notes
    return largest * (1 + (notes.shallow_well_increase if notes is not None else 0.0))


def separation_inputs(ws: Session, case: Case, shapes: CaseShapes, *,
                      law: Jurisdiction | None, parcel_id: str | None = None,
                      lots: LotLayer | EllipsisType | None = ...,
                      wells: WellIndex | EllipsisType = ...) -> SeparationInputs:
    """The lot and the neighbours' wells the case's separations are measured against.
    `parcel_id` is the parcel's id when known (else found by its SBL; a case not stored
    has no lot); `lots` and `wells`, the active lot layer and the wells' index as read once
    for many parcels."""
    from ...geo.setbacks import LotLine, located
    from ...storage.cases import parcel_id_for
    from ..reference.lot_lines import active_lot_layer

    layer = active_lot_layer(ws) if isinstance(lots, EllipsisType) else lots
    lot_record = lot = None
    if layer is not None:
        pid = parcel_id if parcel_id is not None else parcel_id_for(ws.store.conn,
                                                                   case.parcel.sbl)
        lot_record = None if pid is None else layer.lot_for(pid)
        if lot_record is not None:
            lot = LotLine(lot_record.geometry, float(layer.accuracy_ft), lot_source(layer))
    near: tuple[NearbyWell, ...] = ()
    reach = 0.0 if law is None else largest_well_setback_ft(case, law, shapes)
    if reach > 0:
        geometries = [g for _, _, g, _ in located(case, shapes)]
        index = well_index(ws) if isinstance(wells, EllipsisType) else wells
        near = tuple(index.near(geometries, reach, besides_sbl=case.parcel.sbl))
    return SeparationInputs(lot=lot, wells=near, lot_record=lot_record, lot_layer=layer)


def lot_source(layer: LotLayer) -> str:
    """How a separation measured against the layer's lot line names its source."""
    return f"lot line, {layer.name} v{layer.version}"


# --- lot-line separations kept as evidence ----------------------------------------------

def located_things(case: Case) -> tuple[object, ...]:
    """What a case's lot-line separations are measured from, as recorded: the components
    in order with their geometry, and the site's absorption area and holding tank with
    their captures."""
    site = case.site
    return (tuple((c.kind, json.dumps(c.geometry, sort_keys=True)) for c in case.components),
            None if site is None else json.dumps(
                [site.absorption_area, site.holding_tank], sort_keys=True),
            None if site is None else (site.absorption_area_capture,
                                       site.holding_tank_capture))


def on_laptop(ws: Session) -> bool:
    """Whether this is an enrolled laptop whose packages may not carry lot-line
    separations (the sync policy's tables a laptop may change): it keeps none, and the
    office's next `measure` keeps those of the records the laptop sends."""
    from ...sync.policy import LAPTOP_TABLES

    return "lot_measurements" not in LAPTOP_TABLES and ws.role == FIELD


def record_lot_measurements(w: RecordWriter, ws: Session, parcel_id: str, case: Case,
                            today: date, *, lots: LotLayer | EllipsisType | None = ...,
                            shapes: CaseShapes | None = None,
                            last: dict[tuple[str, str, int], tuple[float, float]] | None = None
                            ) -> int:
    """Keep each located component's separation from the lot line of the active lot layer
    as evidence (layer, version, accuracy, who and when), a new row only where it changed
    since the parcel's latest on that layer. Returns how many rows were kept. `lots`,
    `shapes` and `last` (the latest rows, as `measurements.latest_lot_separations` reads
    them), when given, are
    read once for many parcels. A save calls it only when it changed what is located
    (`located_things`): a save that moves nothing keeps nothing (`measure` keeps the rest,
    and on a laptop it would otherwise repeat the office's rows, which a kit does not
    carry)."""
    from ...geo.case_shapes import CaseShapes
    from ...geo.setbacks import LotLine, lot_separations
    from ..reference.lot_lines import active_lot_layer

    layer = active_lot_layer(ws) if isinstance(lots, EllipsisType) else lots
    if layer is None or on_laptop(ws):
        return 0
    lot = layer.lot_for(parcel_id)
    if lot is None:
        return 0
    if shapes is None:
        shapes = CaseShapes(case)
    found = lot_separations(case, LotLine(lot.geometry, float(layer.accuracy_ft),
                                          lot_source(layer)), shapes)
    if not found:
        return 0
    if last is None:
        last = measurements.latest_lot_separations(w.conn, layer.id, [parcel_id])
    kept = 0
    for s in found:
        key = (parcel_id, s.component.value, s.ordinal)
        before = last.get(key)
        if before is not None and (round(before[0], 2), round(before[1], 2)) == (
                round(s.distance_ft, 2), round(s.accuracy_ft, 2)):
            continue
        w.insert("lot_measurements", {
            "component": s.component.value, "ordinal": s.ordinal,
            "distance_ft": s.distance_ft, "accuracy_ft": s.accuracy_ft,
            "lot_layer_id": layer.id, "lot_layer_version": layer.version,
            "measured_by": w.actor.user, "measured_on": today}, parcel_id=parcel_id)
        last[key] = (s.distance_ft, s.accuracy_ft)
        kept += 1
    return kept


def measure_lots(ws: Session, w: RecordWriter, today: date,
                 parcel_ids: list[str] | None = None) -> int:
    """Keep the lot-line separations of the parcels named (None: every parcel with a lot on
    the active lot layer and something located, but those whose kept rows cannot have
    changed) where they changed; how many rows."""
    from ...geo.case_shapes import project_cases
    from ...storage.cases import load_cases
    from ..reference.lot_lines import active_lot_layer

    layer = active_lot_layer(ws)
    if layer is None or on_laptop(ws):
        return 0
    if parcel_ids is None:
        ids = site_features.parcels_with_something_located(w.conn)
        fresh = measurements.fresh_lot_parcels(w.conn, layer_id=layer.id,
                                                device_id=w.actor.device_id)
        ids = [i for i in ids if i not in fresh and layer.lot_for(i) is not None
               and w.may_change_parcel(i)]
    else:
        ids = list(dict.fromkeys(parcel_ids))
    kept = 0
    for start in range(0, len(ids), 500):
        part = ids[start:start + 500]
        cases = load_cases(w.conn, only=("site_features", "components", "systems"),
                           parcel_ids=part)
        part = [i for i in part if i in cases]
        last = measurements.latest_lot_separations(w.conn, layer.id, part)
        for pid, shapes in zip(part, project_cases(cases[i] for i in part), strict=True):
            kept += record_lot_measurements(w, ws, pid, cases[pid], today, lots=layer,
                                            shapes=shapes, last=last)
    return kept
