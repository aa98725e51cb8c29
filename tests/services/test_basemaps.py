"""Basemaps kept by copy or by reference, the active one, and the office's settings."""

from __future__ import annotations

import os
import shutil
from datetime import date
from pathlib import Path

import numpy as np
import pytest

from inspector_app.errors import InputError
from inspector_app.services.reference.basemaps import (
    activate_basemap,
    active_basemap,
    basemap_label,
    deactivate_basemap,
    import_basemap,
    list_basemaps,
    office_setting,
    open_reader,
    set_office_setting,
)
from inspector_app.services.workspace import Workspace
from tests.geo.raster_helpers import ORIGIN_FT, write_geotiff, write_world_file_png

# A copy of the imagery in the data folder: an office database keeps basemaps only as
# references (services/reference/basemap_storage.py).
COPY_IN_THE_FOLDER = pytest.mark.sqlite_only

def _counts(ws: Workspace) -> tuple[int, int]:
    return (ws.store.query("SELECT count(*) AS n FROM basemaps")[0]["n"],
            ws.store.query("SELECT count(*) AS n FROM change_log")[0]["n"])
@COPY_IN_THE_FOLDER
def test_a_copy_survives_the_original_and_is_active(workspace: Workspace,
                                                    tmp_path: Path) -> None:
    src = write_geotiff(tmp_path / "ortho.tif")
    out = import_basemap(workspace, src, name="County 2024", copy=True,
                         source="Ontario County", captured_on=date(2024, 4, 10))
    assert out["storage"] == "copy" and out["active"] and out["problem"] is None
    assert "copied into the data folder" in out["storage_note"]
    assert Path(out["path"]).parent == workspace.folder.root / "basemaps"
    row = workspace.store.query("SELECT path, imported_by FROM basemaps")[0]
    assert not Path(row["path"]).is_absolute() and row["imported_by"] == "k.olmsted"
    src.unlink()
    ref = active_basemap(workspace)
    assert ref is not None and ref.problem is None and ref.name == "County 2024"
    assert ref.label == "County 2024 (Ontario County, captured 2024-04-10)"
    assert ref.captured_on == date(2024, 4, 10) and ref.resolution_ft == 1.0
    ox, oy = ORIGIN_FT
    with open_reader(ref) as reader:
        img = reader.render((ox, oy - 300, ox + 400, oy), 40, 30)
    assert (img[..., 3] == 255).all()


def test_a_reference_notices_a_moved_deleted_or_changed_file(workspace: Workspace,
                                                             tmp_path: Path) -> None:
    src = write_geotiff(tmp_path / "ortho.tif")
    out = import_basemap(workspace, src, name="County", copy=False)
    assert out["storage"] == "reference" and out["path"] == str(src.resolve())
    assert "referenced where it is" in out["storage_note"]
    ref = active_basemap(workspace)
    assert ref is not None and ref.problem is None and ref.source == "ortho.tif"
    moved = tmp_path / "moved.tif"
    src.rename(moved)
    ref = active_basemap(workspace)
    assert ref is not None and ref.problem is not None
    assert f"the file {src.resolve()} was moved or deleted" in ref.problem
    with pytest.raises(InputError, match="moved or deleted"):
        open_reader(ref)
    moved.rename(src)
    assert active_basemap(workspace).problem is None  # type: ignore[union-attr]
    # the same size, other contents
    data = bytearray(src.read_bytes())
    data[-10] ^= 0xFF
    src.write_bytes(bytes(data))
    problem = active_basemap(workspace).problem  # type: ignore[union-attr]
    assert problem is not None and "changed since it was imported" in problem
    # touched in the middle, size and first/last MiB unchanged: the modification time says
    st = src.stat()
    os.utime(src, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
    problem = active_basemap(workspace).problem  # type: ignore[union-attr]
    assert problem is not None and "changed" in problem
    src.unlink()
    assert "moved or deleted" in (active_basemap(workspace).problem or "")  # type: ignore[union-attr]
@COPY_IN_THE_FOLDER
def test_a_missing_copy_is_a_problem_too(workspace: Workspace, tmp_path: Path) -> None:
    out = import_basemap(workspace, write_geotiff(tmp_path / "o.tif"), name="O", copy=True)
    # a data folder copied or restored gives the copy another modification time: still it
    st = Path(out["path"]).stat()
    os.utime(out["path"], ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
    assert active_basemap(workspace).problem is None  # type: ignore[union-attr]
    data = bytearray(Path(out["path"]).read_bytes())
    data[-10] ^= 0xFF
    Path(out["path"]).write_bytes(bytes(data))
    assert "its contents differ" in (active_basemap(workspace).problem or "")  # type: ignore[union-attr]
    Path(out["path"]).unlink()
    assert "copy of the image" in (active_basemap(workspace).problem or "")  # type: ignore[union-attr]
@COPY_IN_THE_FOLDER
def test_the_newest_import_is_active_and_one_can_switch(workspace: Workspace,
                                                        tmp_path: Path) -> None:
    a = import_basemap(workspace, write_geotiff(tmp_path / "a.tif"), name="A", copy=True)
    b = import_basemap(workspace, write_geotiff(tmp_path / "b.tif"), name="B", copy=False)
    assert [(m["name"], m["active"]) for m in list_basemaps(workspace)] == [
        ("A", False), ("B", True)]
    assert activate_basemap(workspace, "A")["active"]
    assert active_basemap(workspace).id == a["id"]  # type: ignore[union-attr]
    activate_basemap(workspace, b["id"])
    assert active_basemap(workspace).name == "B"  # type: ignore[union-attr]
    deactivate_basemap(workspace)
    assert active_basemap(workspace) is None
    assert not any(m["active"] for m in list_basemaps(workspace))
    with pytest.raises(InputError, match="no basemap has that name"):
        activate_basemap(workspace, "C")
    import_basemap(workspace, write_geotiff(tmp_path / "a2.tif"), name="A", copy=True)
    with pytest.raises(InputError, match="several basemaps have that name"):
        activate_basemap(workspace, "A")
@COPY_IN_THE_FOLDER
def test_a_world_file_image_is_converted_when_copied(workspace: Workspace,
                                                     tmp_path: Path) -> None:
    src = write_world_file_png(tmp_path / "photo.png", pixel=2.0)
    out = import_basemap(workspace, src, name="Photo", copy=True)
    assert out["format"] == "geotiff" and out["path"].endswith(".tif")
    for p in (src, src.with_suffix(".pgw"), src.with_suffix(".prj")):
        p.unlink()
    ref = active_basemap(workspace)
    assert ref is not None and ref.problem is None
    ox, oy = ORIGIN_FT
    with open_reader(ref) as reader:
        img = reader.render((ox + 21, oy - 59, ox + 39, oy - 41), 1, 1)  # block (1, 2)
    assert abs(int(img[0, 0, 0]) - 1) <= 2 and abs(int(img[0, 0, 1]) - 2) <= 2
@COPY_IN_THE_FOLDER
def test_a_large_image_without_overviews_is_not_referenced(workspace: Workspace,
                                                           tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    import inspector_app.geo.rasters as rasters

    monkeypatch.setattr(rasters, "LARGE_WITHOUT_OVERVIEWS_PX", 100 * 100)
    src = write_geotiff(tmp_path / "big.tif", width=600, height=600)
    before = _counts(workspace)
    with pytest.raises(InputError, match="--copy"):
        import_basemap(workspace, src, name="Big", copy=False)
    assert _counts(workspace) == before
    out = import_basemap(workspace, src, name="Big", copy=True)
    ref = active_basemap(workspace)
    assert ref is not None and out["storage"] == "copy"
    from inspector_app.geo.rasters import inspect_raster

    assert inspect_raster(ref.path).overviews >= 1


@COPY_IN_THE_FOLDER
@pytest.mark.parametrize("make", ["text", "no_prj", "far", "future"])
def test_refused_imports_store_nothing(workspace: Workspace, tmp_path: Path,
                                       make: str) -> None:
    captured = None
    if make == "text":
        path = tmp_path / "notes.tif"
        path.write_text("hello\n" * 50)
    elif make == "no_prj":
        path = write_world_file_png(tmp_path / "p.png", prj_crs=None)
    elif make == "far":
        path = write_geotiff(tmp_path / "f.tif", origin=(2.35, 48.85), pixel=0.0001,
                             crs="EPSG:4326")
    else:
        path, captured = write_geotiff(tmp_path / "d.tif"), date(2026, 12, 1)
    before = _counts(workspace)
    with pytest.raises(InputError) as err:
        import_basemap(workspace, path, name="X", copy=True, captured_on=captured)
    assert path.name in str(err.value) or "future" in str(err.value)
    assert _counts(workspace) == before
    folder = workspace.folder.root / "basemaps"
    assert not folder.exists() or not any(folder.iterdir())


def test_settings_are_checked_in_one_place_and_attributed(workspace: Workspace) -> None:
    assert office_setting(workspace, "kit_imagery_radius_ft") == 1000.0
    assert office_setting(workspace, "report_imagery") is False
    out = set_office_setting(workspace, "kit_imagery_radius_ft", "500")
    assert out == {"kit_imagery_radius_ft": 500.0, "report_imagery": False}
    set_office_setting(workspace, "report_imagery", "on")
    set_office_setting(workspace, "kit_imagery_radius_ft", 750)
    assert office_setting(workspace, "report_imagery") is True
    assert office_setting(workspace, "kit_imagery_radius_ft") == 750.0
    log = workspace.store.query("SELECT user, device_id, op, field, old_value, new_value FROM "
                                "change_log WHERE table_name = 'office_settings' ORDER BY seq")
    assert [e["op"] for e in log] == ["insert", "insert", "update"]
    assert log[2]["field"] == "value" and log[2]["new_value"] in ('"750"', "750")
    assert all(e["user"] == "k.olmsted" and e["device_id"] == workspace.store.device_id
               for e in log)
    before = _counts(workspace)
    for key, value in [("kit_imagery_radius_ft", "10"), ("kit_imagery_radius_ft", "far"),
                       ("kit_imagery_radius_ft", 1e9), ("report_imagery", "maybe"),
                       ("colour", "red")]:
        with pytest.raises(InputError):
            set_office_setting(workspace, key, value)
    assert _counts(workspace) == before


def test_no_basemap_means_none(workspace: Workspace) -> None:
    assert active_basemap(workspace) is None and list_basemaps(workspace) == []


def test_an_image_is_read_only_where_asked(workspace: Workspace, tmp_path: Path) -> None:
    # the reference storage keeps the exact file: reading a window touches no other
    src = write_geotiff(tmp_path / "o.tif", width=256, height=256)
    shutil.copy(src, tmp_path / "keep.tif")
    import_basemap(workspace, src, name="O", copy=False)
    ref = active_basemap(workspace)
    assert ref is not None
    with open_reader(ref) as reader:
        img = reader.render(ref.bounds_ft, 64, 64)
    assert img.shape == (64, 64, 4) and np.all(img[..., 3] == 255)
    assert src.read_bytes() == (tmp_path / "keep.tif").read_bytes()


@COPY_IN_THE_FOLDER
@pytest.mark.parametrize("kind", ["as_is", "converted"])
def test_a_cancelled_copy_stores_nothing(workspace: Workspace, tmp_path: Path,
                                         kind: str) -> None:
    src = (write_geotiff(tmp_path / "o.tif") if kind == "as_is"
           else write_world_file_png(tmp_path / "p.png"))
    seen: list[tuple[int, int]] = []
    before = _counts(workspace)
    with pytest.raises(InputError, match="cancelled"):
        import_basemap(workspace, src, name="O", copy=True, progress=lambda d, t: seen.append(
            (d, t)), cancelled=lambda: True)
    assert _counts(workspace) == before
    assert not any((workspace.folder.root / "basemaps").iterdir())
    out = import_basemap(workspace, src, name="O", copy=True,
                         progress=lambda d, t: seen.append((d, t)), cancelled=lambda: False)
    assert out["active"] and seen


def test_a_copy_left_half_written_is_removed_when_old(tmp_path: Path) -> None:
    from inspector_app.paths import DEBRIS_AGE_S, DataFolder

    folder = DataFolder(tmp_path / "data")
    folder.create()
    (folder.root / "basemaps").mkdir()
    half = folder.root / "basemaps" / ".0123.tif.tmp"
    kept = folder.root / "basemaps" / "0123.tif"
    for f in (half, kept):
        f.write_bytes(b"x")
        old = f.stat().st_mtime - DEBRIS_AGE_S - 60
        os.utime(f, (old, old))
    assert folder.remove_debris() == [half]
    assert kept.exists()


def test_a_label_names_the_source_and_date_once() -> None:
    assert basemap_label("Ortho 2024", "Ontario County GIS", "2024-04-10") == (
        "Ortho 2024 (Ontario County GIS, captured 2024-04-10)")
    # a source that only repeats the name in other words is not said twice
    assert basemap_label("Invented demo imagery (not a photograph)",
                         "Invented demo imagery, not a photograph", None) == (
        "Invented demo imagery (not a photograph)")
    assert basemap_label("Ortho", "ortho", date(2024, 4, 10)) == "Ortho (captured 2024-04-10)"
