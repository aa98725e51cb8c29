"""`basemap import|list|use|off|settings`: JSON on stdout, bad input refused with status 2."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from inspector_app.cli import run
from tests import pg_engine
from tests.geo.raster_helpers import write_geotiff


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    status = run(list(argv))
    out, err = capsys.readouterr()
    return status, json.loads(out) if out.strip() else None, err


def test_import_list_use_off_and_settings(capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path) -> None:
    data, image = str(tmp_path / "data"), write_geotiff(tmp_path / "ortho.tif")
    status, out, _ = _cli(capsys, "--data-dir", data, "basemap", "import", str(image),
                          "--name", "County", "--source", "Ontario County", "--date",
                          "2024-04-10")
    # by default a copy in the data folder; at an office database a reference to the file
    kept = "reference" if pg_engine.active() else "copy"
    assert status == 0 and out["storage"] == kept and out["active"]
    assert out["label"] == "County (Ontario County, captured 2024-04-10)"
    status, ref, _ = _cli(capsys, "--data-dir", data, "basemap", "import", str(image),
                          "--name", "Ref", "--reference")
    assert status == 0 and ref["storage"] == "reference" and ref["path"] == str(image)
    status, out, _ = _cli(capsys, "--data-dir", data, "basemap", "use", "County")
    assert status == 0 and out["active"]
    status, out, _ = _cli(capsys, "--data-dir", data, "basemap", "list")
    assert [(b["name"], b["active"]) for b in out["basemaps"]] == [("County", True),
                                                                   ("Ref", False)]
    assert out["settings"] == {"kit_imagery_radius_ft": 1000.0, "report_imagery": False}
    status, out, _ = _cli(capsys, "--data-dir", data, "basemap", "settings",
                          "--kit-radius-ft", "400", "--report-imagery", "on")
    assert status == 0 and out == {"kit_imagery_radius_ft": 400.0, "report_imagery": True}
    status, out, err = _cli(capsys, "--data-dir", data, "basemap", "settings",
                            "--kit-radius-ft", "5", "--report-imagery", "off")
    assert status == 2 and "not plausible" in err and "Nothing was changed" in err
    status, out, _ = _cli(capsys, "--data-dir", data, "basemap", "settings")
    assert out == {"kit_imagery_radius_ft": 400.0, "report_imagery": True}
    status, out, _ = _cli(capsys, "--data-dir", data, "basemap", "off")
    assert status == 0
    _, out, _ = _cli(capsys, "--data-dir", data, "basemap", "list")
    assert not any(b["active"] for b in out["basemaps"])


@pytest.mark.parametrize("date_arg, words", [("2099-01-01", "in the future"),
                                             ("2024-02-30", "is not a date")])
def test_a_bad_date_is_refused_and_nothing_is_made(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path, date_arg: str,
                                                   words: str) -> None:
    image = write_geotiff(tmp_path / "ortho.tif")
    status, out, err = _cli(capsys, "--data-dir", str(tmp_path / "data"), "basemap", "import",
                            str(image), "--name", "X", "--date", date_arg)
    assert status == 2 and words in err and out is None
    assert not (tmp_path / "data").exists()


def test_a_file_that_is_not_imagery_is_refused_before_the_folder_is_made(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("hello\n")
    status, _, err = _cli(capsys, "--data-dir", str(tmp_path / "data"), "basemap", "import",
                          str(text), "--name", "X")
    assert status == 2 and "notes.txt" in err and "not an image" in err
    assert not (tmp_path / "data").exists()
