"""Measuring all parcels skips those whose site cannot have changed since their latest map
measurement on the active layer, and writes exactly the records measuring every one writes."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
import shapely
import shapely.affinity
import shapely.geometry

from inspector_app.domain.case import Capture, Case
from inspector_app.paths import resource
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.parcel import measure_all
from inspector_app.services.parcel.measure_all import measure_parcels
from inspector_app.services.reference import shorelines
from inspector_app.services.reference.shorelines import BUNDLED_FILE, import_layer
from inspector_app.services.workspace import Workspace
from inspector_app.storage.records import Actor
from tests import pg_engine
from tests.conftest import Clock

TODAY = date(2026, 11, 25)
PARCELS = 40
LAPTOP = Actor(user="field.laptop", device_id="laptop-device")


def _folder(root: Path, clock: Clock) -> Workspace:
    ws = Workspace(root, user="k.olmsted", clock=clock)
    install_demo(ws, count=PARCELS, today=TODAY)
    return ws


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[tuple[Workspace, Workspace]]:
    """Two copies of one demo folder, each with its own clock set to the same time."""
    clocks = [Clock(datetime(2026, 11, 25, 15, 30, tzinfo=UTC)) for _ in range(2)]
    _folder(tmp_path / "skipping", clocks[0]).close()
    shutil.copytree(tmp_path / "skipping", tmp_path / "full")
    pg_engine.folder_copied(tmp_path / "skipping", tmp_path / "full")
    spaces = [Workspace(tmp_path / name, user="k.olmsted", clock=c)
              for name, c in zip(("skipping", "full"), clocks, strict=True)]
    yield spaces[0], spaces[1]
    for ws in spaces:
        ws.close()


def _measure(ws: Workspace, *, full: bool, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    ws.clock.advance(minutes=1)  # type: ignore[attr-defined]  # no two rows at one time
    with monkeypatch.context() as m:
        if full:
            m.setattr(measure_all, "_unchanged_parcels", lambda *args: set())
        result = measure_parcels(ws, None, today=TODAY)
    ws.clock.advance(minutes=1)  # type: ignore[attr-defined]
    return result


def _records(ws: Workspace) -> list[tuple[Any, ...]]:
    """Every map measurement, without its id and timestamps (the layer by name and
    version, since each copy gives a layer it imports its own id)."""
    rows = ws.store.conn.execute(
        "SELECT m.parcel_id, m.distance_ft, m.method, l.name, l.layer_version, "
        "m.shoreline_layer_version, m.accuracy_ft, m.capture_accuracy_ft, m.measured_by, "
        "m.measured_on, m.note, m.deleted_at IS NULL FROM lake_measurements m "
        "LEFT JOIN shoreline_layers l ON l.id = m.shoreline_layer_id WHERE m.method = 'map'"
    ).fetchall()
    return sorted(rows, key=repr)


def _cases(ws: Workspace) -> list[tuple[str, Case]]:
    return [(p["sbl"], ws.load_case(p["sbl"])) for p in ws.parcels()]


def _with_area(ws: Workspace, *, holding_tank: bool = False, skip: int = 0) -> tuple[str, Case]:
    found = [(sbl, c) for sbl, c in _cases(ws) if c.site is not None
             and c.site.absorption_area is not None
             and (c.site.holding_tank is not None) == holding_tank]
    return found[skip]


def _moved(geometry: dict[str, Any], east: float, north: float = 0.0) -> dict[str, Any]:
    shape = shapely.affinity.translate(shapely.geometry.shape(geometry), east, north)
    moved: dict[str, Any] = json.loads(shapely.to_geojson(shape))
    return moved


def _shifted_layer(path: Path, east: float) -> Path:
    bundled = json.loads(resource(*BUNDLED_FILE).read_text())
    geometry = shapely.geometry.shape(bundled["features"][0]["geometry"])
    moved = shapely.segmentize(shapely.affinity.translate(geometry, east, 0.0), 0.001)
    path.write_text(json.dumps({
        "type": "FeatureCollection", "crs": bundled["crs"],
        "features": [{"type": "Feature", "properties": {},
                      "geometry": json.loads(shapely.to_geojson(moved))}]}))
    return path


def _feature_id(ws: Workspace, sbl: str, kind: str) -> str:
    return str(ws.store.conn.execute(
        "SELECT id FROM site_features WHERE parcel_id = ? AND kind = ? AND deleted_at IS NULL",
        (ws.parcel_id(sbl), kind)).fetchone()[0])


def _as_laptop(ws: Workspace, table: str, record_id: str, values: dict[str, Any], *,
               behind_days: float = 0) -> None:
    """A change as a sync applies it: made on another device, whose clock may be behind."""
    ws.clock.advance(days=-behind_days)  # type: ignore[attr-defined]
    try:
        with ws.store.transaction(LAPTOP) as w:
            w.update(table, record_id, values)
    finally:
        ws.clock.advance(days=behind_days)  # type: ignore[attr-defined]


def _laptop_measurement(ws: Workspace, sbl: str, distance_ft: float) -> None:
    """A map measurement received from a laptop, made from the laptop's own records."""
    layer = shorelines.active_layer(ws)
    assert layer is not None
    ws.clock.advance(days=30)  # type: ignore[attr-defined]  # the laptop's clock is ahead
    try:
        with ws.store.transaction(LAPTOP) as w:
            w.insert("lake_measurements", {
                "distance_ft": distance_ft, "method": "map", "shoreline_layer_id": layer.id,
                "shoreline_layer_version": layer.version, "accuracy_ft": layer.accuracy_ft,
                "measured_by": LAPTOP.user, "measured_on": TODAY, "note": "{}"},
                parcel_id=ws.parcel_id(sbl))
    finally:
        ws.clock.advance(days=-30)  # type: ignore[attr-defined]


def _edits(ws: Workspace, tmp: Path) -> Iterator[str]:
    """The same series of edits on either copy, one step at a time (named)."""
    sbl, case = _with_area(ws)
    assert case.site is not None and case.site.absorption_area is not None
    ws.save_case(replace(case, site=replace(
        case.site, absorption_area=_moved(case.site.absorption_area, 0.004))), today=TODAY)
    yield "absorption area moved"

    sbl, case = _with_area(ws, skip=1)
    assert case.site is not None and case.site.absorption_area is not None
    tank = _moved(case.site.absorption_area, -0.003, 0.001)
    ws.save_case(replace(case, site=replace(case.site, holding_tank=tank)), today=TODAY)
    yield "holding tank added beside an absorption area"
    case = ws.load_case(sbl)
    assert case.site is not None
    ws.save_case(replace(case, site=replace(case.site, absorption_area=None,
                                            absorption_area_capture=None)), today=TODAY)
    yield "absorption area deleted: the holding tank is measured"
    case = ws.load_case(sbl)
    assert case.site is not None
    ws.save_case(replace(case, site=replace(case.site, absorption_area=case.site.holding_tank,
                                            holding_tank=None)), today=TODAY)
    yield "holding tank feature deleted, its place now the absorption area"

    sbl, case = next((s, c) for s, c in _cases(ws) if c.site is not None
                     and c.site.absorption_area is None and c.site.holding_tank is not None)
    assert case.site is not None
    ws.save_case(replace(case, site=replace(case.site, holding_tank=None,
                                            holding_tank_capture=None)), today=TODAY)
    yield "the holding tank of a parcel with no absorption area deleted"
    ws.save_case(case, today=TODAY)
    yield "the same holding tank drawn again where it was"

    sbl, case = _with_area(ws, skip=2)
    assert case.site is not None and case.site.absorption_area is not None
    ws.save_case(replace(case, site=replace(case.site, absorption_area_capture=Capture(
        accuracy_ft=0.5))), today=TODAY)
    yield "capture accuracy changed"

    sbl, case = _with_area(ws, skip=7)
    assert case.site is not None and case.site.absorption_area is not None
    tank = _moved(case.site.absorption_area, 0.002, -0.002)
    ws.save_case(replace(case, site=replace(
        case.site, holding_tank=tank, absorption_area=_moved(case.site.absorption_area, -0.001))),
        today=TODAY)
    yield "holding tank added beside another absorption area, which moved"
    with ws.store.transaction(LAPTOP) as w:
        w.delete("site_features", _feature_id(ws, sbl, "absorption_area"))
    yield "that absorption area deleted on a laptop: the holding tank is measured"

    sbl, case = _with_area(ws, skip=3)
    assert case.site is not None and case.site.absorption_area is not None
    _as_laptop(ws, "site_features", _feature_id(ws, sbl, "absorption_area"),
               {"geometry": json.dumps(_moved(case.site.absorption_area, 0.006))},
               behind_days=400)
    yield "absorption area moved on a laptop whose clock is a year behind"

    sbl, _ = _with_area(ws, skip=4)
    _laptop_measurement(ws, sbl, 12_345.0)
    yield "a laptop's map measurement, made from its own records, received"

    sbl, _ = _with_area(ws, skip=6)
    (latest,) = ws.store.conn.execute(
        "SELECT id FROM lake_measurements WHERE parcel_id = ? AND method = 'map' AND "
        "deleted_at IS NULL ORDER BY created_at DESC LIMIT 1", (ws.parcel_id(sbl),)).fetchone()
    _as_laptop(ws, "lake_measurements", latest, {"distance_ft": 999.0})
    yield "a laptop's change to a map measurement made here received"

    import_layer(ws, _shifted_layer(tmp / f"{ws.folder.root.name}-east.geojson", 0.002),
                 name="Survey east", accuracy_ft=3)
    yield "new layer imported"

    sbl, case = _with_area(ws, skip=5)
    assert case.site is not None and case.site.absorption_area is not None
    ws.save_case(replace(case, site=replace(
        case.site, absorption_area=_moved(case.site.absorption_area, 0.0, 0.003))), today=TODAY)
    yield "absorption area moved on the new layer"


def test_skipping_writes_exactly_what_measuring_everything_writes(
        pair: tuple[Workspace, Workspace], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    skipping, full = pair
    assert _records(skipping) == _records(full)
    skipped = 0
    for step, other in zip(_edits(skipping, tmp_path), _edits(full, tmp_path), strict=True):
        assert step == other
        fast = _measure(skipping, full=False, monkeypatch=monkeypatch)
        slow = _measure(full, full=True, monkeypatch=monkeypatch)
        assert _records(skipping) == _records(full), step
        assert (fast["parcels"], fast["new_measurements"]) == (
            slow["parcels"], slow["new_measurements"]), step
        skipped += fast["unchanged"]
        # Measured again right away, every parcel that gave no new row is still measured
        # or skipped to the same effect.
        again = _measure(skipping, full=False, monkeypatch=monkeypatch)
        assert _measure(full, full=True, monkeypatch=monkeypatch)["new_measurements"] == (
            again["new_measurements"])
        assert _records(skipping) == _records(full), step
    assert skipped > 0


def test_an_edited_parcel_is_measured_again_and_an_unedited_one_is_skipped(
        workspace: Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    install_demo(workspace, count=PARCELS, today=TODAY)
    measured: list[str] = []
    record = shorelines.record_map_measurement

    def spy(w: Any, ws: Any, parcel_id: str, *args: Any, **kwargs: Any) -> bool:
        measured.append(parcel_id)
        return record(w, ws, parcel_id, *args, **kwargs)

    monkeypatch.setattr(measure_all, "record_map_measurement", spy)
    first = measure_parcels(workspace, None, today=TODAY)
    assert first["unchanged"] == first["parcels"] > 0 and measured == []

    sbl, case = _with_area(workspace)
    assert case.site is not None and case.site.absorption_area is not None
    workspace.save_case(replace(case, site=replace(case.site, absorption_area_capture=Capture(
        accuracy_ft=0.5))), today=TODAY)
    for _ in range(2):  # the distance did not change: no new row, so measured each time
        measured.clear()
        result = measure_parcels(workspace, None, today=TODAY)
        assert measured == [workspace.parcel_id(sbl)]
        assert (result["unchanged"], result["new_measurements"]) == (first["parcels"] - 1, 0)

    # Moved as a sync applies a laptop's change (saving a case measures it at once).
    workspace.clock.advance(minutes=1)  # type: ignore[attr-defined]
    _as_laptop(workspace, "site_features", _feature_id(workspace, sbl, "absorption_area"),
               {"geometry": json.dumps(_moved(case.site.absorption_area, 0.004))})
    measured.clear()
    result = measure_parcels(workspace, None, today=TODAY)
    assert measured == [workspace.parcel_id(sbl)] and result["new_measurements"] == 1
    measured.clear()
    assert measure_parcels(workspace, None, today=TODAY)["unchanged"] == first["parcels"]
    assert measured == []
    # Those named are measured as asked.
    assert measure_parcels(workspace, [sbl], today=TODAY)["new_measurements"] == 0
    assert measured == [workspace.parcel_id(sbl)]


def test_never_stale_across_a_layer_switch(pair: tuple[Workspace, Workspace], tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    skipping, full = pair

    def both(step: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        step(skipping)
        step(full)
        fast = _measure(skipping, full=False, monkeypatch=monkeypatch)
        slow = _measure(full, full=True, monkeypatch=monkeypatch)
        assert _records(skipping) == _records(full)
        return fast, slow

    first_ids = {ws.folder.root.name: str(shorelines.active_layer(ws).id)  # type: ignore[union-attr]
                 for ws in pair}
    fast, slow = both(lambda ws: import_layer(
        ws, _shifted_layer(tmp_path / f"{ws.folder.root.name}-east.geojson", 0.002),
        name="Survey east", accuracy_ft=3))
    assert fast["unchanged"] == 0 and fast["new_measurements"] == slow["new_measurements"] > 0

    def move_one(ws: Workspace) -> None:
        _, case = _with_area(ws)
        assert case.site is not None and case.site.absorption_area is not None
        ws.save_case(replace(case, site=replace(
            case.site, absorption_area=_moved(case.site.absorption_area, 0.005))), today=TODAY)

    fast, _ = both(move_one)
    assert fast["new_measurements"] == 0  # saving the case measured it on the active layer

    def back_to_first(ws: Workspace) -> None:
        # The first layer made active again (as a sync could): the parcel moved while the
        # other was active has only a measurement older than its move on it.
        now = shorelines.active_layer(ws)
        assert now is not None
        with ws.store.transaction() as w:
            w.update("shoreline_layers", now.id, {"active": 0})
            w.update("shoreline_layers", first_ids[ws.folder.root.name], {"active": 1})

    fast, slow = both(back_to_first)
    assert fast["new_measurements"] == slow["new_measurements"] >= 1

    def layer_redrawn(ws: Workspace) -> None:
        # The active layer's geometry replaced under the same id (as a sync could), here
        # moved 300 ft west.
        layer_id = first_ids[ws.folder.root.name]
        (stored,) = ws.store.conn.execute("SELECT geometry FROM shoreline_layers WHERE id = ?",
                                          (layer_id,)).fetchone()
        geometry = shapely.to_geojson(shapely.affinity.translate(
            shapely.from_geojson(stored), -300.0, 0.0))
        with ws.store.transaction() as w:
            w.update("shoreline_layers", layer_id, {"geometry": geometry})

    fast, slow = both(layer_redrawn)
    assert fast["unchanged"] == 0 and fast["new_measurements"] == slow["new_measurements"] > 0
