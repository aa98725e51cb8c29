"""`site ... --gps` and `gps --log` with receivers' logs: several logs of a well are one
point, a log recorded on the move is refused with exit status 2 and nothing stored."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from inspector_app.__main__ import main
from tests.geo.nmea import noisy_points, receiver_log

SBL = "900.01-1-1"  # the demo parcel whose absorption area is at about -77.31167, 42.80808
WELL = (-77.31167, 42.80850)  # about 150 ft north of it


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any, str]:
    status = main(["--user", "t.tester", *args])
    out, err = capsys.readouterr()
    return status, (json.loads(out) if out.strip() else None), err


@pytest.fixture
def demo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    folder = str(tmp_path / "data")
    assert _cli(capsys, "--data-dir", folder, "demo")[0] == 0
    return folder


def _log(path: Path, lines: list[str]) -> str:
    path.write_text("\r\n".join(lines) + "\r\n", "ascii")
    return str(path)


def _separations(capsys: pytest.CaptureFixture[str], folder: str) -> list[dict[str, Any]]:
    status, out, err = _cli(capsys, "--data-dir", folder, "evaluate", "--sbl", SBL)
    assert status == 0, err
    return [s for s in out["separations"] if s["target"] == "well"]


def test_two_logs_of_a_well_are_one_point(demo: str, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    first = _log(tmp_path / "well-1.nmea",
                 receiver_log(noisy_points(*WELL, 30, seed=1), checksum=False))
    second = _log(tmp_path / "well-2.nmea", receiver_log(noisy_points(*WELL, 30, seed=2)))
    status, out, err = _cli(capsys, "--data-dir", demo, "site", SBL, "well", "--gps", first,
                            second)
    assert status == 0, err
    assert out["geometry"]["type"] == "Point"
    assert len(out["gps"]) == 2 and out["gps_averaged"]["logs"] == 2
    assert out["gps_averaged"]["fixes_used"] == 60
    assert out["capture"]["accuracy_ft"] == out["gps_averaged"]["accuracy_ft"]
    [well] = _separations(capsys, demo)
    assert 120 < well["distance_ft"] < 135  # not "0.0 ft" from a line through the area


def test_a_log_recorded_while_driving_is_refused_and_nothing_stored(
        demo: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    drive = _log(tmp_path / "drive.nmea",
                 receiver_log([(WELL[0], 42.79 + 0.0003 * i) for i in range(60)]))
    before = _cli(capsys, "--data-dir", demo, "case", "export", SBL)[1]
    status, out, err = _cli(capsys, "--data-dir", demo, "site", SBL, "well", "--gps", drive)
    assert (status, out) == (2, None)
    assert "drive.nmea: its 60 fixes spread over 3,787 ft (2DRMS), more than the 100 ft" in err
    assert "stand still at the point and record again" in err
    assert err.count("\n") == 1
    assert _cli(capsys, "--data-dir", demo, "case", "export", SBL)[1] == before
    status, _, err = _cli(capsys, "gps", "--log", drive)
    assert status == 2 and "recorded on the move" in err


def test_a_log_without_hdop_says_how_it_was_judged(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    log = _log(tmp_path / "no-hdop.nmea", receiver_log(noisy_points(*WELL, 15), hdop=None,
                                                        checksum=False))
    status, out, err = _cli(capsys, "gps", "--log", log)
    assert status == 0, err
    assert out["judged_by"] == "spread" and out["fixes_without_hdop"] == 15
    assert "gps: note: the 15 fixes give no HDOP: they were judged by the spread" in err
