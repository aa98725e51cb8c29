from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from inspector_app.errors import InputError
from inspector_app.geo import capture
from tests.geo.helpers import TO_FEET, TO_LONLAT, X0, Y0
from tests.geo.nmea import gga, noisy_log

LON, LAT = TO_LONLAT.transform(X0, Y0)


def test_typed_lonlat_area_is_closed_and_checked() -> None:
    g = capture.from_lonlat([(LON, LAT), (LON + 0.0002, LAT), (LON + 0.0002, LAT + 0.0002)],
                            "polygon")
    ring = g["coordinates"][0]
    assert g["type"] == "Polygon" and ring[0] == ring[-1] and len(ring) == 4
    with pytest.raises(InputError, match="latitude and longitude look swapped"):
        capture.from_lonlat([(LAT, LON)], "point")
    with pytest.raises(InputError, match="do not outline an area"):
        capture.from_lonlat([(LON, LAT), (LON + 1e-4, LAT), (LON + 2e-4, LAT)], "polygon")
    with pytest.raises(InputError, match="at least three corners"):
        capture.from_lonlat([(LON, LAT), (LON + 1e-4, LAT)], "polygon")


def test_state_plane_coordinates_off_a_survey_plan() -> None:
    g = capture.from_state_plane([(X0, Y0)], "point")
    x, y = TO_FEET.transform(*g["coordinates"])
    assert (x, y) == pytest.approx((X0, Y0), abs=0.05)
    with pytest.raises(InputError, match="outside the area of use"):
        capture.from_state_plane([(10, 10)], "point")


def test_parse_pairs() -> None:
    assert capture.parse_pairs("-77.3,42.8 -77.31,42.81;-77.32,42.8", "x") == [
        (-77.3, 42.8), (-77.31, 42.81), (-77.32, 42.8)]
    with pytest.raises(InputError, match="'-77.3' is not a coordinate pair"):
        capture.parse_pairs("-77.3", "x")


def test_nmea_log_is_averaged_with_quality_and_hdop_kept(tmp_path: Path) -> None:
    lines = noisy_log(LON, LAT, 30, hdop=1.2)
    lines += [gga(LON + 0.01, LAT, quality=0, hdop=99)]          # no fix: ignored
    lines += [gga(LON + 0.01, LAT, hdop=12.0)]                    # poor HDOP: rejected
    lines += ["$GPGGA,120000.00,4248.0000,N,07718.0000,W,1,09,0.9,210.0,M,-34.0,M,,*00"]
    lines += ["$GPRMC,120000.00,A,4248.0000,N,07718.0000,W,0.0,0.0,291126,,,A*7C", "garbage"]
    log = tmp_path / "corner.nmea"
    log.write_text("\n".join(lines) + "\n")
    fix = capture.average_log(log)
    assert fix.fixes_used == 30 and fix.fixes_rejected == 2 and fix.sentences_unreadable >= 1
    assert fix.best_quality == "GPS" and fix.mean_hdop == pytest.approx(1.2)
    x, y = TO_FEET.transform(fix.longitude, fix.latitude)
    assert ((x - X0) ** 2 + (y - Y0) ** 2) ** 0.5 < 3  # the jitter averages out
    assert fix.spread_ft > 0 and fix.accuracy_ft >= fix.spread_ft


def test_a_log_without_a_usable_fix_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "nofix.nmea"
    log.write_text("\n".join([gga(LON, LAT, quality=0)] * 5))
    with pytest.raises(InputError, match="none of its 5 GGA sentences has a position fix"):
        capture.average_log(log)


def test_a_serial_gps_device_is_read_for_some_seconds() -> None:
    controller, device = os.openpty()
    name = os.ttyname(device)
    lines = noisy_log(LON, LAT, 20, quality=2, hdop=0.8)

    def feed() -> None:
        for line in lines:
            os.write(controller, (line + "\r\n").encode())
            time.sleep(0.02)

    threading.Thread(target=feed, daemon=True).start()
    fix = capture.average_device(name, seconds=1.2, baud=4800)
    os.close(controller)
    os.close(device)
    assert fix.fixes_used >= 15 and fix.best_quality == "DGPS"
    with pytest.raises(InputError, match="cannot open the GPS device"):
        capture.average_device("/dev/no-such-gps", seconds=0.1)
