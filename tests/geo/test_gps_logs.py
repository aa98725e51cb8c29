"""NMEA logs as real receivers write them: GGA among RMC, GSA and GSV, GPGGA or GNGGA,
with or without checksums, no-fix epochs with empty fields; a log recorded on the move,
fixes without HDOP, several logs of one point; every refusal names its cause."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector_app.geo import capture
from tests.geo.helpers import TO_FEET
from tests.geo.nmea import gga, gga_no_fix, gsa, gsv, noisy_points, receiver_log, rmc

# A well on the west shore of Canandaigua Lake.
LON, LAT = -77.31167, 42.80850


def _write(path: Path, lines: list[str], newline: str = "\n") -> Path:
    path.write_text(newline.join(lines) + newline, "ascii")
    return path


def _feet_apart(a: tuple[float, float], b: tuple[float, float]) -> float:
    ax, ay = TO_FEET.transform(*a)
    bx, by = TO_FEET.transform(*b)
    return float(((ax - bx) ** 2 + (ay - by) ** 2) ** 0.5)


def test_a_receiver_without_checksums_is_read(tmp_path: Path) -> None:
    """GNGGA without checksums (legal NMEA 0183), CRLF line ends, RMC/GSA/GSV between,
    three no-fix epochs first: read, not told to wait for a fix."""
    log = _write(tmp_path / "no-checksums.nmea",
                 receiver_log(noisy_points(LON, LAT, 30), checksum=False), "\r\n")
    fix = capture.average_log(log)
    assert fix.fixes_used == 30 and fix.fixes_rejected == 3
    assert fix.sentences_unreadable == 0 and fix.best_quality == "GPS"
    assert _feet_apart((fix.longitude, fix.latitude), (LON, LAT)) < 3


def test_a_wrong_checksum_still_refuses_the_sentence(tmp_path: Path) -> None:
    lines = receiver_log(noisy_points(LON, LAT, 10))
    damaged = gga(LON + 0.01, LAT, second=50).rsplit("*", 1)[0] + "*00"
    fix = capture.average_log(_write(tmp_path / "one-damaged.nmea", [*lines, damaged]))
    assert fix.fixes_used == 10 and fix.sentences_unreadable == 1
    assert _feet_apart((fix.longitude, fix.latitude), (LON, LAT)) < 5


def test_a_log_recorded_on_the_move_is_refused(tmp_path: Path) -> None:
    """Driving north along West Lake Road for a minute: refused with the spread and the
    limit, and what to do."""
    drive = [(LON, LAT + 0.0003 * i) for i in range(60)]
    log = _write(tmp_path / "driving.nmea", receiver_log(drive))
    with pytest.raises(capture.CaptureError) as refused:
        capture.average_log(log)
    message = str(refused.value)
    assert "driving.nmea: its 60 fixes spread over 3,787 ft (2DRMS)" in message
    assert f"more than the {capture.MAX_SPREAD_FT:g} ft of a receiver standing still" in message
    assert "recorded on the move; stand still at the point and record again" in message


def test_fixes_without_hdop_are_judged_by_their_spread_and_say_so(tmp_path: Path) -> None:
    still = _write(tmp_path / "no-hdop.nmea",
                   receiver_log(noisy_points(LON, LAT, 20), hdop=None))
    fix = capture.average_log(still)
    out = fix.as_json()
    assert out["fixes_without_hdop"] == 20 and out["judged_by"] == "spread"
    assert out["mean_hdop"] is None
    assert out["note"] == ("the 20 fixes give no HDOP: they were judged by the spread of the "
                           "fixes alone (at most 100 ft)")
    some = [*receiver_log(noisy_points(LON, LAT, 10), hdop=None),
            *receiver_log(noisy_points(LON, LAT, 10, seed=3), hdop=1.1, no_fix_first=0)]
    mixed = capture.average_log(_write(tmp_path / "some-hdop.nmea", some))
    assert mixed.note is not None and mixed.note.startswith("10 of the 20 fixes give no HDOP")
    assert mixed.mean_hdop == pytest.approx(1.1)
    moving = _write(tmp_path / "no-hdop-moving.nmea",
                    receiver_log([(LON + 0.0002 * i, LAT) for i in range(30)], hdop=None))
    with pytest.raises(capture.CaptureError, match="recorded on the move"):
        capture.average_log(moving)


def test_fixes_with_hdop_say_nothing_of_it(tmp_path: Path) -> None:
    fix = capture.average_log(_write(tmp_path / "hdop.nmea",
                                     receiver_log(noisy_points(LON, LAT, 20))))
    assert fix.note is None and fix.as_json()["judged_by"] == "hdop_and_spread"


@pytest.mark.parametrize(("lines", "cause"), [
    pytest.param([rmc(LON, LAT, second=i) for i in range(10)] + [gsa(), gsv()],
                 r"its 12 NMEA sentences \(GSA, GSV, RMC\) include no GGA sentence, the one "
                 r"that carries a position fix; set the receiver to log GGA", id="no-gga"),
    pytest.param([gga_no_fix(i) for i in range(8)] + [rmc(LON, LAT), gsa()],
                 r"none of its 8 GGA sentences has a position fix \(fix quality 0: no fix\); "
                 r"wait where the receiver sees open sky", id="no-fix"),
    pytest.param([gga(LON, LAT, second=i).rsplit("*", 1)[0] + "*00" for i in range(6)],
                 r"none of its 6 NMEA sentences could be read \(6 sentences with a checksum "
                 r"that does not match: the log is damaged\)", id="damaged"),
    pytest.param([gga(LON, LAT, second=i, hdop=7.2 + i) for i in range(10)],
                 r"none of its 10 fixes has an HDOP of at most 5 \(the lowest is 7.2\)",
                 id="poor-hdop"),
    pytest.param([gga(LON, LAT, second=i, quality=6) for i in range(10)],
                 r"none of its 10 fixes is of a kind that measures a position \(estimated\)",
                 id="dead-reckoning"),
    pytest.param(receiver_log(noisy_points(LON, LAT, 3)),
                 r"only 3 usable fixes \(3 others without a fix or with HDOP above 5\); at "
                 r"least 5 are needed", id="too-few"),
])
def test_each_refusal_names_its_cause(tmp_path: Path, lines: list[str], cause: str) -> None:
    log = _write(tmp_path / "log.nmea", lines)
    with pytest.raises(capture.CaptureError, match=cause) as refused:
        capture.average_log(log)
    assert "wait for a fix with HDOP" not in str(refused.value)


def test_several_logs_of_one_point_are_averaged_together(tmp_path: Path) -> None:
    a = capture.average_log(_write(tmp_path / "a.nmea",
                                   receiver_log(noisy_points(LON, LAT, 20, seed=1))))
    b = capture.average_log(_write(tmp_path / "b.nmea", receiver_log(
        noisy_points(LON + 0.00004, LAT, 40, seed=2), checksum=False)))  # 10.7 ft east
    both = capture.average_together([a, b], ["a.nmea", "b.nmea"])
    assert both.logs == 2 and both.fixes_used == 60
    # weighted by fixes: a third of the way from b to a
    expected = ((a.longitude + 2 * b.longitude) / 3, (a.latitude + 2 * b.latitude) / 3)
    assert _feet_apart((both.longitude, both.latitude), expected) < 0.05
    assert both.spread_ft > max(a.spread_ft, b.spread_ft)


def test_logs_recorded_at_different_places_are_refused_as_one_point(tmp_path: Path) -> None:
    a = capture.average_log(_write(tmp_path / "a.nmea", receiver_log(noisy_points(LON, LAT, 20))))
    c = capture.average_log(_write(tmp_path / "c.nmea", receiver_log(
        noisy_points(LON, LAT + 0.002, 20))))  # about 730 ft north
    with pytest.raises(capture.CaptureError,
                       match=r"a.nmea and c.nmea: these logs of one point lie 7\d\d ft apart"):
        capture.average_together([a, c], ["a.nmea", "c.nmea"])


def _at(line: str, hhmmss: str) -> str:
    """A GGA sentence given another time of day (without its checksum, which NMEA 0183
    makes optional)."""
    fields = line.split("*")[0].split(",")
    fields[1] = f"{hhmmss}.00"
    return ",".join(fields)


def test_a_log_across_midnight_is_as_long_as_it_lasted(tmp_path: Path) -> None:
    """23:58 to 00:02 UTC is four minutes, one sample; 23:50 to 00:10 is twenty, five."""
    short = [_at(gga(x, y), f"{t}") for (x, y), t in zip(
        noisy_points(LON, LAT, 5), ["235800", "235900", "000000", "000100", "000200"],
        strict=True)]
    assert capture.average_log(_write(tmp_path / "short.nmea", short)).independent_samples == 1
    times = [f"{(23 * 60 + 50 + m) // 60 % 24:02d}{(50 + m) % 60:02d}00" for m in range(21)]
    long = [_at(gga(x, y), t) for (x, y), t in zip(noisy_points(LON, LAT, 21), times,
                                                   strict=True)]
    assert capture.average_log(_write(tmp_path / "long.nmea", long)).independent_samples == 5


def test_fixes_without_a_time_are_one_sample(tmp_path: Path) -> None:
    lines = [_at(gga(x, y), "").replace(",.00,", ",,") for x, y in noisy_points(LON, LAT, 20)]
    fix = capture.average_log(_write(tmp_path / "untimed.nmea", lines))
    assert fix.fixes_used == 20 and fix.independent_samples == 1
    assert fix.accuracy_ft == pytest.approx(max(fix.spread_ft, 0.9 * capture.UERE_FT[1] * 2))
