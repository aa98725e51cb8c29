from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from inspector_app import __version__
from inspector_app.cli import run


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any, str]:
    status = run(list(args))
    out, err = capsys.readouterr()
    return status, (json.loads(out) if out.strip() else None), err


def _tree(path: Path) -> dict[str, bytes]:
    return {str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*"))
            if p.is_file()}


def test_version_from_the_installed_entry_point() -> None:
    done = subprocess.run([sys.executable, "-m", "inspector_app", "--version"],
                          capture_output=True, text=True, check=True)
    assert done.stdout.strip() == f"inspector-app {__version__}"


def test_case_import_then_export_gives_back_the_case(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path) -> None:
    source = Path(__file__).parent / "fixtures" / "full_case.json"
    data = str(tmp_path / "new" / "folder")
    status, out, err = cli(capsys, "--data-dir", data, "case", "import", str(source),
                           "--as-of", "2026-11-25")
    assert (status, out, err) == (0, {"sbl": "98.00-1-23.100", "created": True}, "")
    status, out, _ = cli(capsys, "--data-dir", data, "case", "import", str(source),
                         "--as-of", "2026-11-25")
    assert out == {"sbl": "98.00-1-23.100", "created": False}
    status, exported, _ = cli(capsys, "--data-dir", data, "case", "export", "98.00-1-23.100")
    assert status == 0
    # the stored inspection is a record now: the export names it (`inspection.id`)
    assert exported["inspection"].pop("id")
    assert exported == json.loads(source.read_text())
    status, parcels, _ = cli(capsys, "--data-dir", data, "parcels")
    assert parcels == [{"sbl": "98.00-1-23.100", "municipality": "Town of Canandaigua",
                        "site_address": "6120 West Lake Road", "owner_name": "Robert Whitaker"}]


def test_a_refused_case_changes_nothing_on_disk(capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path, full_case: dict) -> None:
    data = tmp_path / "data"
    bad = tmp_path / "bad.json"
    full_case["dwelling"]["bedrooms"] = -2
    bad.write_text(json.dumps(full_case))
    status, out, err = cli(capsys, "--data-dir", str(data), "case", "import", str(bad))
    assert status == 2 and out is None
    assert err.strip() == (f"{bad}: dwelling.bedrooms is -2, which is not plausible; it must "
                           "be between 0 and 50.")
    assert not data.exists()

    good = Path(__file__).parent / "fixtures" / "contract_example_case.json"
    cli(capsys, "--data-dir", str(data), "case", "import", str(good), "--as-of", "2026-11-25")
    before = _tree(data)
    status, _, err = cli(capsys, "--data-dir", str(data), "case", "import", str(bad))
    assert status == 2
    assert _tree(data) == before


def test_a_future_inspection_date_is_judged_against_as_of(capsys: pytest.CaptureFixture[str],
                                                         tmp_path: Path) -> None:
    good = Path(__file__).parent / "fixtures" / "contract_example_case.json"
    status, _, err = cli(capsys, "--data-dir", str(tmp_path), "case", "import", str(good),
                         "--as-of", "2026-11-19")
    assert status == 2
    assert "inspection.date is 2026-11-20, which is after today (2026-11-19)" in err


def test_unknown_sbl_and_bad_arguments_exit_2(capsys: pytest.CaptureFixture[str],
                                              tmp_path: Path) -> None:
    status, _, err = cli(capsys, "--data-dir", str(tmp_path), "case", "export", "1-2-3")
    assert status == 2 and "No parcel with SBL '1-2-3'" in err
    status, _, err = cli(capsys, "--data-dir", str(tmp_path), "demo", "--as-of", "tomorrow")
    assert status == 2 and "'tomorrow' is not a date; write YYYY-MM-DD" in err
    status, _, err = cli(capsys, "--data-dir", str(tmp_path), "frobnicate")
    assert status == 2 and "'frobnicate' is not a command; the commands are case, " in err


def test_a_foreign_database_exits_1_and_stays_untouched(capsys: pytest.CaptureFixture[str],
                                                        tmp_path: Path) -> None:
    (tmp_path / "inspector.sqlite").write_bytes(b"not a database at all" * 20)
    before = _tree(tmp_path)
    status, _, err = cli(capsys, "--data-dir", str(tmp_path), "parcels")
    assert status == 1 and "is not a Watershed Inspector database" in err
    assert _tree(tmp_path) == before


def test_a_roll_with_a_refused_row_imports_nothing_and_creates_no_folder(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    roll = tmp_path / "roll.csv"
    roll.write_text("sbl,municipality,site_address,owner_name,mailing_address_1\n"
                    "1-2-3,Town of Italy,1 Main St,Ann Lee,1 Main St\n"
                    "1-2-4,Town of Italy,2 Main St,,2 Main St\n")
    status, out, err = cli(capsys, "--data-dir", str(tmp_path / "d"), "parcels", "import",
                           str(roll))
    assert (status, out) == (2, None)
    assert err.splitlines() == [f"{roll}: 1 of 2 rows were refused, so nothing was imported:",
                                "  line 3 (SBL '1-2-4'): owner_name is empty."]
    assert not (tmp_path / "d").exists()


def test_history_shows_who_changed_what(capsys: pytest.CaptureFixture[str],
                                        tmp_path: Path, contract_case: dict) -> None:
    data = str(tmp_path)
    path = tmp_path / "case.json"
    path.write_text(json.dumps(contract_case))
    cli(capsys, "--data-dir", data, "--user", "clerk.one", "case", "import", str(path),
        "--as-of", "2026-11-25")
    contract_case["parcel"]["owner_name"] = "John Roe"
    path.write_text(json.dumps(contract_case))
    cli(capsys, "--data-dir", data, "--user", "clerk.two", "case", "import", str(path),
        "--as-of", "2026-11-25")
    _, history, _ = cli(capsys, "--data-dir", data, "history", "112.09-1-7.2")
    last = history[-1]
    assert (last["user"], last["field"], last["old_value"], last["new_value"]) == (
        "clerk.two", "owner_name", "Jane Roe", "John Roe")
    assert {h["user"] for h in history[:-1]} == {"clerk.one"}


def test_environment_selects_the_data_folder(tmp_path: Path) -> None:
    env = {**os.environ, "INSPECTOR_APP_HOME": str(tmp_path / "home")}
    done = subprocess.run([sys.executable, "-m", "inspector_app", "demo", "--parcels", "3"],
                          capture_output=True, text=True, env=env, check=True)
    assert json.loads(done.stdout) == {"parcels": 3, "created": 3, "lots": 9}
    assert (tmp_path / "home" / "inspector.sqlite").exists()


def test_evaluate_gives_the_contract_example_figures(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path) -> None:
    case = Path(__file__).parent / "fixtures" / "contract_example_case.json"
    status, out, err = cli(capsys, "--data-dir", str(tmp_path), "evaluate", str(case),
                           "--as-of", "2026-11-25")
    assert status == 0, err
    assert {k: out["design"][k] for k in ("design_bedrooms", "gpd_per_bedroom",
                                          "design_load_gpd", "standard",
                                          "ahj_determination_required", "provisional")} == {
        "design_bedrooms": 4, "gpd_per_bedroom": 150, "design_load_gpd": 600,
        "standard": "75-A", "ahj_determination_required": False, "provisional": False}
    assert {k: out["lake"][k] for k in ("distance_ft", "source", "zone")} == {
        "distance_ft": 185.0, "source": "field", "zone": "within_200ft"}
    assert [t["code"] for t in out["inspection_triggers"]] == ["bedroom_increase"]
    assert out["outcome"] == "substandard"
    assert out["substandard_components"] == ["septic_tank"]
    assert "absorption_area_encroachment" in [v["code"] for v in out["violations"]]
    assert out["letters"] == ["notice_of_violation"]
    assert all(v["citation"] for v in out["violations"] + out["inspection_triggers"])


def test_evaluate_a_stored_parcel_and_decide_a_suggestion(capsys: pytest.CaptureFixture[str],
                                                          tmp_path: Path,
                                                          contract_case: dict) -> None:
    contract_case["components"][0]["capacity_gal"] = 600
    path = tmp_path / "case.json"
    path.write_text(json.dumps(contract_case))
    data = str(tmp_path / "d")
    cli(capsys, "--data-dir", data, "case", "import", str(path), "--as-of", "2026-11-25")
    _, out, _ = cli(capsys, "--data-dir", data, "evaluate", "--sbl", "112.09-1-7.2",
                    "--as-of", "2026-11-25")
    (suggestion,) = out["suggested_findings"]
    assert suggestion["status"] == "pending"
    status, decided, _ = cli(capsys, "--data-dir", data, "suggestion", "reject",
                             "112.09-1-7.2", suggestion["key"], "--note", "new tank 2024")
    assert status == 0 and decided["status"] == "rejected"
    status, _, err = cli(capsys, "--data-dir", data, "evaluate")
    assert status == 2 and "give either a case file or --sbl" in err


def test_worklist_and_jurisdiction_commands(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    data = str(tmp_path)
    cli(capsys, "--data-dir", data, "demo", "--as-of", "2026-11-25")
    status, lists, _ = cli(capsys, "--data-dir", data, "worklist", "--as-of", "2026-11-25")
    assert status == 0 and set(lists) == {"five-year-inspections", "etu-reports",
                                          "holding-tank-records", "notices-past-deadline",
                                          "no-law-on-file", "lake-distance-needed",
                                          "notices-service-unconfirmed",
                                          "etu-not-functional", "etu-contracts-expiring"}
    status, etu, _ = cli(capsys, "--data-dir", data, "worklist", "etu-reports",
                         "--as-of", "2026-11-25")
    assert etu == lists["etu-reports"]
    status, shown, _ = cli(capsys, "--data-dir", data, "jurisdiction", "show")
    assert shown["gpd_per_bedroom_within"] == 150
    assert "system_in_failure" in shown["unconfirmed_citations"]
    broken = tmp_path / "broken.toml"
    broken.write_text("format = 'watershed-inspector/jurisdiction/1'\n")
    status, _, err = cli(capsys, "--data-dir", data, "jurisdiction", "use", str(broken))
    assert status == 2 and "the table [jurisdiction] is missing" in err
    assert not (tmp_path / "jurisdiction.toml").exists()


def test_distance_command_matches_the_contract(capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path) -> None:
    from tests.geo.helpers import box, lake_with_island, write_wgs84

    lake = write_wgs84(tmp_path / "lake.geojson", [lake_with_island()])
    area = write_wgs84(tmp_path / "area.geojson", [box(10_199.5, 3000, 40, 60)])
    status, out, err = cli(capsys, "distance", "--shoreline", str(lake), "--area", str(area))
    assert status == 0, err
    assert {"distance_ft", "zone", "crs", "shoreline_accuracy_ft", "nearest"} <= set(out)
    assert (out["distance_ft"], out["zone"], out["crs"], out["shoreline_accuracy_ft"]) == (
        199.5, "within_200ft", "EPSG:2261", 0)
    assert set(out["nearest"]) == {"area", "shoreline"}
    status, out, _ = cli(capsys, "distance", "--shoreline", str(lake), "--areas", str(area),
                         "--accuracy-ft", "1")
    assert status == 0 and out[0]["id"] == 1 and out[0]["zone"] == "undetermined"
    status, _, err = cli(capsys, "distance", "--shoreline", str(lake))
    assert status == 2 and "one of the arguments --area --areas is required" in err


def test_shoreline_import_and_list(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from tests.geo.helpers import lake_with_island, write_wgs84

    data = str(tmp_path / "d")
    assert not (tmp_path / "d").exists()  # importing a first layer makes the data folder
    lake = write_wgs84(tmp_path / "lake.geojson", [lake_with_island()])
    status, layer, err = cli(capsys, "--data-dir", data, "shoreline", "import", str(lake),
                             "--name", "County LiDAR contour", "--accuracy-ft", "3")
    assert status == 0, err
    assert {k: layer[k] for k in ("name", "source", "accuracy_ft", "version", "active")} == {
        "name": "County LiDAR contour", "source": "lake.geojson", "accuracy_ft": 3,
        "version": 1, "active": True}
    _, layers, _ = cli(capsys, "--data-dir", data, "shoreline", "list")
    assert [x["active"] for x in layers] == [False, True]
    assert layers[0]["accuracy_ft"] >= 1000
    bad = tmp_path / "bad.geojson"
    bad.write_text('{"type": "FeatureCollection", "features": []}')
    status, _, err = cli(capsys, "--data-dir", str(tmp_path / "new"), "shoreline", "import",
                         str(bad), "--name", "x", "--accuracy-ft", "1")
    assert status == 2 and "contains no geometry" in err
    assert not (tmp_path / "new").exists()


def test_site_command_with_a_negative_longitude_and_a_gps_log(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, contract_case: dict) -> None:
    from tests.geo.nmea import noisy_log

    data = str(tmp_path / "d")
    path = tmp_path / "case.json"
    path.write_text(json.dumps(contract_case))
    cli(capsys, "--data-dir", data, "case", "import", str(path), "--as-of", "2026-11-25")
    status, out, err = cli(capsys, "--data-dir", data, "site", "112.09-1-7.2", "well",
                           "--lonlat", "-77.30030,42.80005", "--accuracy-ft", "10")
    assert status == 0, err
    assert out["geometry"] == {"type": "Point", "coordinates": [-77.3003, 42.80005]}
    logs = []
    for i, (lon, lat) in enumerate([(-77.3001, 42.8), (-77.2999, 42.8), (-77.2999, 42.8001)]):
        log = tmp_path / f"corner{i}.nmea"
        log.write_text("\n".join(noisy_log(lon, lat, 10, jitter_deg=0.000001)))
        logs.append(str(log))
    status, out, err = cli(capsys, "--data-dir", data, "site", "112.09-1-7.2",
                           "absorption_area", "--gps", *logs)
    assert status == 0, err
    assert out["geometry"]["type"] == "Polygon" and len(out["gps"]) == 3
    assert out["capture"]["method"] == "gps" and out["capture"]["accuracy_ft"] > 0
    assert out["lake"]["source"] == "field"  # the case's tape measurement still wins
    _, exported, _ = cli(capsys, "--data-dir", data, "case", "export", "112.09-1-7.2")
    assert exported["site"]["absorption_area_capture"]["method"] == "gps"
    assert exported["site"]["features"][0]["kind"] == "well"
