"""The accuracy a distance is judged with: what `--accuracy-ft` gives, else what the
shoreline file declares, else 0 ft said aloud; and the bundled coarse outline deciding
"beyond" for parcels far from it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import shapely

from inspector_app.cli import run
from inspector_app.paths import resource
from inspector_app.services.reference.shorelines import BUNDLED_ACCURACY_FT, BUNDLED_FILE
from tests.geo.helpers import TO_FEET, TO_LONLAT, box, lake_with_island, lonlat, write_wgs84

COARSE = resource(*BUNDLED_FILE)
WEST_VERTEX = (-77.366689, 42.705578)  # the outline's westernmost point


def _distance(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    status = run(["distance", *args])
    out, err = capsys.readouterr()
    assert status == 0, err
    return json.loads(out)


def _area_west_of_the_outline(tmp_path: Path, feet: float) -> Path:
    x, y = TO_FEET.transform(*WEST_VERTEX)
    square = shapely.box(x - feet - 40, y - 20, x - feet, y + 20)
    area = tmp_path / f"area_{feet:g}.geojson"
    area.write_text(shapely.to_geojson(shapely.transform(
        square, lambda xy: np.column_stack(TO_LONLAT.transform(xy[:, 0], xy[:, 1])))))
    return area


def test_without_accuracy_a_plain_file_is_taken_as_exact_and_the_result_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shore = write_wgs84(tmp_path / "lake.geojson", [lake_with_island()])
    area = tmp_path / "area.geojson"
    area.write_text(shapely.to_geojson(lonlat(box(10_150, 3000, 40, 60))))
    out = _distance(capsys, "--shoreline", str(shore), "--area", str(area))
    assert (out["shoreline_accuracy_ft"], out["shoreline_accuracy_basis"]) == (0, "assumed")
    assert "0 ft is assumed" in out["shoreline_accuracy_note"]
    given = _distance(capsys, "--shoreline", str(shore), "--area", str(area),
                      "--accuracy-ft", "0")
    assert given["shoreline_accuracy_basis"] == "given"
    assert "shoreline_accuracy_note" not in given


def test_the_bundled_outline_declares_its_accuracy_and_decides_only_far_parcels(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    declared = json.loads(COARSE.read_text("utf-8"))["features"][0]["properties"]
    assert declared["accuracy_ft"] == BUNDLED_ACCURACY_FT
    near = _distance(capsys, "--shoreline", str(COARSE), "--area",
                     str(_area_west_of_the_outline(tmp_path, 300)))
    assert (near["shoreline_accuracy_ft"], near["shoreline_accuracy_basis"]) == (
        BUNDLED_ACCURACY_FT, "declared")
    assert near["distance_ft"] == pytest.approx(300, abs=1)
    assert near["zone"] == "undetermined"  # not "within": the outline is too coarse
    far = _distance(capsys, "--shoreline", str(COARSE), "--area",
                    str(_area_west_of_the_outline(tmp_path, 2500)))
    assert far["distance_ft"] == pytest.approx(2500, abs=1)
    assert far["zone"] == "beyond_200ft"  # 2,500 - 1,500 > 200 ft


def test_a_new_data_folder_decides_beyond_for_a_far_parcel(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        contract_case: dict) -> None:
    doc = dict(contract_case)
    area = json.loads(_area_west_of_the_outline(tmp_path, 2500).read_text())
    doc["site"] = {"absorption_area": area}
    case = tmp_path / "case.json"
    case.write_text(json.dumps(doc))
    data = ["--data-dir", str(tmp_path / "d")]
    assert run([*data, "case", "import", str(case), "--as-of", "2026-11-25"]) == 0
    capsys.readouterr()
    assert run([*data, "evaluate", str(case), "--as-of", "2026-11-25"]) == 0
    lake = json.loads(capsys.readouterr().out)["lake"]
    assert (lake["source"], lake["zone"], lake["accuracy_ft"]) == (
        "map", "beyond_200ft", BUNDLED_ACCURACY_FT)
