"""A field kit carries the active basemap clipped to its parcels' surroundings."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from inspector_app.geo.crs import lonlat_to_feet
from inspector_app.geo.rasters import inspect_raster
from inspector_app.services import exchange as sync
from inspector_app.services.demo.imagery import DEMO_IMAGERY_NAME
from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.reference.basemaps import (
    active_basemap,
    deactivate_basemap,
    import_basemap,
    list_basemaps,
    open_reader,
    set_office_setting,
)
from inspector_app.services.workspace import Workspace
from inspector_app.sync import keys
from inspector_app.sync.package import PackageError, package_bytes, write_private
from tests.geo.raster_helpers import write_geotiff
from tests.sync.conftest import KIT_PASSPHRASE, TODAY

RADIUS_FT = 300.0


@pytest.fixture
def office(tmp_path: Path) -> Workspace:
    ws = Workspace(tmp_path / "office", user="clerk")
    install_demo(ws, count=6, today=TODAY)
    return ws


def _parcel_feet(ws: Workspace, sbls: list[str]) -> list[tuple[float, float]]:
    rows = [ws.store.query("SELECT longitude, latitude FROM parcels WHERE sbl = ?", (s,))[0]
            for s in sbls]
    xs, ys = lonlat_to_feet([r["longitude"] for r in rows], [r["latitude"] for r in rows])
    return list(zip(xs.tolist(), ys.tolist(), strict=True))


def _office_image(ws: Workspace, tmp_path: Path) -> Path:
    """A synthetic 8-ft image over all the demo parcels, 2,000 ft beyond them."""
    points = _parcel_feet(ws, [p["sbl"] for p in ws.parcels()])
    x0 = min(p[0] for p in points) - 2000
    y1 = max(p[1] for p in points) + 2000
    width = int((max(p[0] for p in points) + 2000 - x0) / 8)
    height = int((y1 - (min(p[1] for p in points) - 2000)) / 8)
    rng = np.random.default_rng(7)
    data = rng.integers(60, 200, size=(3, height, width), dtype=np.uint8)
    return write_geotiff(tmp_path / "county.tif", width=width, height=height, pixel=8.0,
                         origin=(x0, y1), data=data)


def _enrol(office: Workspace, tmp_path: Path, sbls: list[str], kit: Path) -> None:
    sync.enroll(office, f"laptop-{kit.stem}", kit, sbls, passphrase=KIT_PASSPHRASE)


def test_the_kit_carries_the_imagery_around_its_parcels_and_it_becomes_active(
        office: Workspace, tmp_path: Path) -> None:
    image = _office_image(office, tmp_path)
    import_basemap(office, image, name="County 2024", copy=False, source="Ontario County")
    set_office_setting(office, "kit_imagery_radius_ft", RADIUS_FT)
    sbls = [p["sbl"] for p in office.parcels()][:3]
    kit = tmp_path / "kit.zip"
    _enrol(office, tmp_path, sbls, kit)
    sync.join(tmp_path / "field", kit, user="k.olmsted", passphrase=KIT_PASSPHRASE)
    field = Workspace(tmp_path / "field", user="k.olmsted")
    try:
        ref = active_basemap(field)
        assert ref is not None and ref.problem is None
        assert ref.name == "County 2024" and ref.source == "Ontario County"
        [row] = list_basemaps(field)
        assert row["storage"] == "copy" and row["active"]
        carried, whole = inspect_raster(ref.path), inspect_raster(image)
        assert ref.path.stat().st_size < image.stat().st_size / 4
        assert carried.source_crs == "EPSG:2261" and carried.overviews >= 1
        with open_reader(ref) as reader:
            for x, y in _parcel_feet(office, sbls):
                # every assigned parcel's surroundings are there, to the radius
                r = RADIUS_FT - 10
                img = reader.render((x - r, y - r, x + r, y + r), 60, 60)
                assert (img[..., 3] == 255).all()
            for x, y in _parcel_feet(office, [p["sbl"] for p in office.parcels()][4:]):
                # a parcel not assigned: not carried
                img = reader.render((x - 50, y - 50, x + 50, y + 50), 10, 10)
                assert (img[..., 3] == 0).all()
        assert carried.bounds_ft[2] - carried.bounds_ft[0] < (
            whole.bounds_ft[2] - whole.bounds_ft[0])
        # a local record: logged, never numbered for sync
        log = field.store.query("SELECT device_seq FROM change_log WHERE table_name = "
                                "'basemaps'")
        assert log and all(e["device_seq"] is None for e in log)
    finally:
        field.close()
        office.close()


def test_a_kit_without_an_active_basemap_carries_none(office: Workspace,
                                                      tmp_path: Path) -> None:
    import_basemap(office, _office_image(office, tmp_path), name="County", copy=False)
    deactivate_basemap(office)
    kit = tmp_path / "kit.zip"
    _enrol(office, tmp_path, [p["sbl"] for p in office.parcels()][:2], kit)
    names = zipfile.ZipFile(io.BytesIO(keys.unseal(kit.read_bytes(), KIT_PASSPHRASE,
                                                   source="kit"))).namelist()
    assert not any(n.startswith("basemaps/") for n in names)
    sync.join(tmp_path / "field", kit, user="k.olmsted", passphrase=KIT_PASSPHRASE)
    with Workspace(tmp_path / "field", user="k.olmsted") as field:
        assert active_basemap(field) is None
    office.close()


def _members(kit: Path) -> tuple[bytes, bytes, dict[str, bytes]]:
    with zipfile.ZipFile(io.BytesIO(keys.unseal(kit.read_bytes(), KIT_PASSPHRASE,
                                                source="kit"))) as z:
        members = {n: z.read(n) for n in z.namelist()}
    return members.pop("manifest.json"), members.pop("signature"), members


def test_a_tampered_image_is_refused_and_nothing_is_imported(office: Workspace,
                                                             tmp_path: Path) -> None:
    import_basemap(office, _office_image(office, tmp_path), name="County", copy=False)
    set_office_setting(office, "kit_imagery_radius_ft", RADIUS_FT)
    kit = tmp_path / "kit.zip"
    _enrol(office, tmp_path, [p["sbl"] for p in office.parcels()][:2], kit)
    manifest, signature, members = _members(kit)
    [name] = [n for n in members if n.startswith("basemaps/")]
    # changed under the office's signature
    changed = bytearray(members[name])
    changed[len(changed) // 2] ^= 0xFF
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr("manifest.json", manifest)
        z.writestr("signature", signature)
        for n, data in members.items():
            z.writestr(n, bytes(changed) if n == name else data)
    bad = tmp_path / "bad.zip"
    write_private(bad, keys.seal(buffer.getvalue(), KIT_PASSPHRASE))
    with pytest.raises(PackageError, match="does not match its hash"):
        sync.join(tmp_path / "field", bad, user="k.olmsted", passphrase=KIT_PASSPHRASE)
    assert not (tmp_path / "field").exists()
    # signed properly by the office, but not an image this app reads: refused too
    office_private = office.store.query("SELECT private_key FROM devices WHERE role = "
                                        "'this'")[0]["private_key"]
    junk = b"not a GeoTIFF at all" * 100
    digest = __import__("hashlib").sha256(junk).hexdigest()
    kit_json = json.loads(members["kit.json"])
    kit_json["basemap"]["member"] = f"basemaps/{digest}"
    members = {n: d for n, d in members.items() if n != name}
    members[f"basemaps/{digest}"] = junk
    members["kit.json"] = json.dumps(kit_json).encode()
    m = json.loads(manifest)
    m.pop("members")
    write_private(bad, keys.seal(package_bytes(m, members, office_private), KIT_PASSPHRASE))
    with pytest.raises(Exception, match="imagery cannot be read"):
        sync.join(tmp_path / "field", bad, user="k.olmsted", passphrase=KIT_PASSPHRASE)
    assert not (tmp_path / "field").exists()
    office.close()


def own_imagery(ws: Workspace) -> list[str]:
    return [b["name"] for b in list_basemaps(ws) if b["name"] != DEMO_IMAGERY_NAME]


def test_imagery_and_settings_stay_out_of_sync_packages(pair: Any, tmp_path: Path) -> None:
    """Basemaps and office settings belong to their data folder: changing them on either
    side leaves the packages between them as they were, with no gap in the numbers."""
    image = write_geotiff(tmp_path / "o.tif")
    # as the office keeps imagery: a copy in its data folder, a reference at an office database
    import_basemap(pair.office, image, name="Office imagery", copy=None)
    set_office_setting(pair.office, "report_imagery", "on")
    import_basemap(pair.field, image, name="Laptop imagery", copy=False)
    set_office_setting(pair.field, "kit_imagery_radius_ft", 400)
    pair.edit(pair.field, pair.sbls[0], lambda d: d["parcel"].update(owner_name="New Owner"))
    up = pair.up()
    assert up["applied"] >= 1 and up["conflicts"] == 0
    assert pair.office.load_case(pair.sbls[0]).parcel.owner_name == "New Owner"
    down = pair.down()
    assert down["conflicts"] == 0
    # each keeps its own (and the demo's imagery, the laptop's clipped, where the office
    # has it)
    assert own_imagery(pair.field) == ["Laptop imagery"]
    assert own_imagery(pair.office) == ["Office imagery"]
    [laptop] = sync.status(pair.office)["devices"]
    assert laptop["gaps"] == [] and laptop["missing_changes"] == 0
    assert sync.status(pair.field)["waiting_to_send"] == 0
