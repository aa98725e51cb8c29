"""`parcels import-lines|lines|lines-use`: JSON on stdout, bad input refused with status 2,
and `parcels` with no subcommand still lists the parcels."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from inspector_app.cli import run
from inspector_app.services.workspace import Workspace
from tests.services.lot_files import add_parcels, lot_box, write_lots

SBLS = ["098.00-1-12", "098.00-1-13"]


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    status = run(list(argv))
    out, err = capsys.readouterr()
    return status, json.loads(out) if out.strip() else None, err


def test_import_list_and_use(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = tmp_path / "data"
    with Workspace(data, user="clerk") as ws:
        add_parcels(ws, tmp_path, SBLS)
    lots = write_lots(tmp_path / "lots.gpkg", [lot_box(0), lot_box(1), lot_box(2)],
                      ["98.-1-12", "098.00-1-13", "098.00-1-99"], field="PRINT_KEY")
    status, out, _ = _cli(capsys, "--data-dir", str(data), "parcels", "import-lines",
                          str(lots), "--name", "County", "--source", "Ontario County GIS")
    assert status == 0 and out["matched"] == 2 and out["sbl_field"] == "PRINT_KEY"
    assert out["label"] == "County v1 (±10 ft)" and out["unmatched"] == [
        {"fid": 3, "sbl": "098.00-1-99", "reason": "no such parcel in this data folder"}]
    status, again, _ = _cli(capsys, "--data-dir", str(data), "parcels", "import-lines",
                            str(lots), "--name", "County", "--sbl-field", "print_key",
                            "--accuracy-ft", "2.5")
    assert status == 0 and again["version"] == 2 and again["accuracy_ft"] == 2.5
    status, layers, _ = _cli(capsys, "--data-dir", str(data), "parcels", "lines")
    assert [(x["version"], x["active"]) for x in layers] == [(1, False), (2, True)]
    status, used, _ = _cli(capsys, "--data-dir", str(data), "parcels", "lines-use", out["id"])
    assert status == 0 and used["active"] and used["version"] == 1
    status, parcels, _ = _cli(capsys, "--data-dir", str(data), "parcels")
    assert status == 0 and [p["sbl"] for p in parcels] == SBLS


def test_refusals_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = tmp_path / "data"
    with Workspace(data, user="clerk") as ws:
        add_parcels(ws, tmp_path, SBLS)
    shp = write_lots(tmp_path / "lots.shp", [lot_box(0)], SBLS[:1])
    shp.with_suffix(".prj").unlink()
    status, out, err = _cli(capsys, "--data-dir", str(data), "parcels", "import-lines",
                            str(shp))
    assert status == 2 and out is None and "the shapefile's .prj file" in err
    other = write_lots(tmp_path / "other.gpkg", [lot_box(0)], SBLS[:1], field="OWNER")
    status, _, err = _cli(capsys, "--data-dir", str(data), "parcels", "import-lines",
                          str(other))
    assert status == 2 and "its fields are: OWNER" in err
    status, _, err = _cli(capsys, "--data-dir", str(data), "parcels", "lines-use", "Nope")
    assert status == 2 and "No lot layer named 'Nope'" in err
