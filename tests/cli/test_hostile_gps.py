"""GPS logs through the command line, as a user runs it: repetition buys no precision, a
few minutes of fixes are one sample, and a log too big or too long is refused in one
sentence, exit status 2, nothing written. The subprocess timeout only guards against a
hang; the answers take a second or two."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from inspector_app.geo import capture
from tests import hostile_gps
from tests.cli.test_hostile_files import assert_refused, cli, snapshot

SBL = "900.01-1-1"  # a demo parcel; its absorption area is about 150 ft south of WELL
WELL = (-77.31167, 42.80850)
# One autonomous fix at HDOP 0.9: its 2DRMS by the model, in feet.
ONE_FIX_FT = round(0.9 * capture.UERE_FT[1] * 2, 1)


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = tmp_path_factory.mktemp("demo") / "data"
    assert cli(data, "--user", "t.tester", "demo", "--parcels", "3").returncode == 0
    return data


def _gps(tmp_path: Path, log: Path) -> dict[str, object]:
    result = cli(tmp_path / "none", "gps", "--log", str(log))
    assert result.returncode == 0, result.stderr
    assert not (tmp_path / "none").exists()
    out: dict[str, object] = json.loads(result.stdout)
    return out


def test_one_fix_repeated_for_an_hour_is_one_fix(tmp_path: Path, demo: Path) -> None:
    """3,600 copies of one autonomous fix: the accuracy of that one fix (about 30 ft),
    not 0.5 ft; `site ... well --gps` records it so."""
    log = hostile_gps.repeated_fix_log(tmp_path / "hour.nmea", *WELL)
    out = _gps(tmp_path, log)
    assert out["fixes_used"] == 1 and out["fixes_repeated"] == 3_599
    assert out["independent_samples"] == 1 and out["spread_ft"] == 0
    assert out["accuracy_ft"] == ONE_FIX_FT

    site = cli(demo, "--user", "t.tester", "site", SBL, "well", "--gps", str(log))
    assert site.returncode == 0, site.stderr
    recorded = json.loads(site.stdout)
    assert recorded["capture"]["accuracy_ft"] == ONE_FIX_FT
    history = cli(demo, "evaluate", "--sbl", SBL)
    [well] = [s for s in json.loads(history.stdout)["separations"] if s["target"] == "well"]
    assert well["accuracy_ft"] >= ONE_FIX_FT


def test_an_rtk_fix_repeated_is_one_rtk_fix(tmp_path: Path) -> None:
    """The floor is the fix type's own: an RTK fixed fix repeated is one RTK fix."""
    log = hostile_gps.repeated_fix_log(tmp_path / "rtk.nmea", *WELL, quality=4, times=600)
    out = _gps(tmp_path, log)
    assert out["fix_quality"] == "RTK fixed" and out["fixes_used"] == 1
    assert out["accuracy_ft"] == round(0.9 * capture.UERE_FT[4] * 2, 1)


@pytest.mark.parametrize(("seconds", "samples"), [(120, 1), (300, 2), (900, 4)])
def test_fixes_count_as_independent_once_per_five_minutes(tmp_path: Path, seconds: int,
                                                          samples: int) -> None:
    """A fix a second, each at its own position: two minutes are one sample (one fix's
    accuracy, not 1/sqrt(121) of it), five minutes two, fifteen minutes four."""
    log = hostile_gps.independent_log(tmp_path / f"{seconds}.nmea", *WELL, seconds=seconds)
    out = _gps(tmp_path, log)
    fixes, repeated = out["fixes_used"], out["fixes_repeated"]
    assert isinstance(fixes, int) and isinstance(repeated, int)
    assert fixes + repeated == seconds + 1 and repeated < seconds / 50  # same to 0.6 ft
    assert out["independent_samples"] == samples
    spread = out["spread_ft"]
    assert isinstance(spread, float) and spread < ONE_FIX_FT / 2
    model = 0.9 * capture.UERE_FT[1] * 2 / math.sqrt(samples)
    assert out["accuracy_ft"] == round(max(spread, model), 1)


def test_a_log_the_size_of_a_disk_is_refused_unread(tmp_path: Path, demo: Path) -> None:
    log = hostile_gps.sparse_log(tmp_path / "huge.nmea", *WELL)
    before = snapshot(demo)
    for argv in (["gps", "--log", str(log)], ["site", SBL, "well", "--gps", str(log)]):
        assert_refused(cli(demo, "--user", "t.tester", *argv), log, "250.0 MB",
                       "32.0 MB limit of a NMEA log")
    assert snapshot(demo) == before
    fresh = tmp_path / "fresh"
    assert_refused(cli(fresh, "gps", "--log", str(log)), log, "250.0 MB")
    assert not fresh.exists()


def test_more_fixes_than_a_capture_takes_are_refused(tmp_path: Path, demo: Path) -> None:
    """Within the size bound, more than 10 hours of fixes a second: refused as read."""
    log = hostile_gps.endless_fixes_log(tmp_path / "long.nmea", *WELL,
                                        fixes=capture.MAX_GGA_FIXES + 1)
    assert log.stat().st_size < capture.MAX_NMEA_LOG_BYTES
    before = snapshot(demo)
    for argv in (["gps", "--log", str(log)], ["site", SBL, "well", "--gps", str(log)]):
        assert_refused(cli(demo, "--user", "t.tester", *argv), log,
                       f"more than {capture.MAX_GGA_FIXES:,} GGA fixes", "10 hours")
    assert snapshot(demo) == before


def test_a_file_without_a_sentence_in_its_first_megabyte_is_not_read_on(
        tmp_path: Path) -> None:
    """Ten megabytes of text with no NMEA sentence: refused as not a log."""
    log = tmp_path / "words.nmea"
    log.write_text(("not a sentence " * 60 + "\n") * 11_000, "ascii")
    fresh = tmp_path / "fresh"
    assert_refused(cli(fresh, "gps", "--log", str(log)), log, "is not an NMEA 0183 log")
    assert not fresh.exists()
