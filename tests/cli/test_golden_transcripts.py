"""Golden transcripts of the command line: every command of README's "Using the command
line" table that needs no display, run on a demo data folder, compared with what the
code printed when the transcripts were recorded (tests/fixtures/golden/, one JSON file
per command: the command, its exit status, its stdout as parsed JSON and the first line of
its stderr).

Their purpose is to pin what the command line prints across refactors: a change that
alters an answer fails here and has to be looked at. Everything goes through the entry
point `inspector_app.__main__.main(argv)` in-process, never through internal modules.

Normalised before comparing (so that the run's date, machine and folder do not matter):
UUIDs -> "<uuid>", date-times -> "<time>", compact backup stamps -> "<stamp>", the run's
temporary folders -> "<dir>", the checkout -> "<repo>", key fingerprints ->
"<fingerprint>", today's date -> "<today>", the host name (a device's default name) ->
"<host>", the digests of things that embed a time or a random key (`NONDETERMINISTIC_KEYS`)
-> "<digest>", and floats rounded to 6 decimals. Every command that takes `--as-of` is
given AS_OF. PDFs, spreadsheets and packages the commands write are not compared, only
what the commands print about them.

To record the transcripts again (after a deliberate change of an answer; review the diff
of tests/fixtures/golden/ before committing it):

    INSPECTOR_UPDATE_GOLDEN=1 .venv/bin/pytest tests/cli/test_golden_transcripts.py

With INSPECTOR_UPDATE_GOLDEN=1 the tests rewrite the golden files instead of comparing
(and pass); a golden file no scenario writes any more fails
`test_every_golden_file_is_used`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import struct
import zlib
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from functools import reduce
from pathlib import Path
from typing import Any

import pytest

import inspector_app
from inspector_app.__main__ import main
from tests.attesting import signature_png

GOLDEN = Path(__file__).resolve().parents[1] / "fixtures" / "golden"
UPDATE = os.environ.get("INSPECTOR_UPDATE_GOLDEN") == "1"
AS_OF = "2025-06-01"
NEXT_DAY = "2025-06-02"
USER = "golden.tester"
REPO = Path(inspector_app.__file__).resolve().parents[1]
# Values that differ from run to run although no UUID or time shows: keys made at random
# and digests of things that embed record ids or times (a lot layer's `digest`).
NONDETERMINISTIC_KEYS = frozenset({"digest", "signing_key", "public_key"})
# A letter's PDF is byte for byte the same on one installation, but its digest would change
# with reportlab's version (not pinned): the letter steps pass this as `volatile`.
LETTER_DIGEST = frozenset({"sha256"})

_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I)
_TIME = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?"
                   r"(?:Z|[+-]\d{2}:?\d{2})?")
_STAMP = re.compile(r"\d{8}T\d{6,12}Z")
_FINGERPRINT = re.compile(r"\b[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}\b")
_HEX64 = re.compile(r"\A[0-9a-f]{64}\Z")
_LETTER_FILE = re.compile(r"-[0-9a-f]{8}\.pdf\b")  # a letter's file: its id's first 8 digits
# a letter named in a sentence by its short id ("letter 3f2a9c1b")
_LETTER_SHORT = re.compile(r"(?<=letter )[0-9a-f]{8}\b")

_used: set[str] = set()
_completed: set[str] = set()


def _todays() -> list[str]:
    now = datetime.now(UTC)
    days = {now.date(), date.today(), (now - timedelta(hours=14)).date(),
            (now + timedelta(hours=14)).date()}
    return sorted(d.isoformat() for d in days)


class Normaliser:
    def __init__(self, dirs: dict[Path, str], volatile: frozenset[str] = frozenset()) -> None:
        paths = {str(REPO): "<repo>"}
        for d, name in dirs.items():
            paths |= {str(d): name, str(d.resolve()): name}
        self.paths = sorted(paths.items(), key=lambda p: len(p[0]), reverse=True)
        self.host = socket.gethostname()
        self.dirs = dirs
        self.volatile = NONDETERMINISTIC_KEYS | volatile

    def text(self, value: str) -> str:
        for path, name in self.paths:  # longest first
            value = value.replace(path, name)
        value = _UUID.sub("<uuid>", value)
        value = _LETTER_FILE.sub("-<id8>.pdf", value)
        value = _LETTER_SHORT.sub("<id8>", value)
        value = _TIME.sub("<time>", value)
        value = _STAMP.sub("<stamp>", value)
        value = _FINGERPRINT.sub("<fingerprint>", value)
        for today in _todays():
            value = value.replace(today, "<today>")
        return "<host>" if value == self.host else value

    def __call__(self, value: Any, key: str | None = None) -> Any:
        if isinstance(value, dict):
            return {self.text(k): self(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [self(v, key) for v in value]
        if isinstance(value, float):
            return round(value, 6)
        if isinstance(value, str):
            if key in self.volatile and _HEX64.match(value):
                return "<digest>"
            return self.text(value)
        return value


class Transcript:
    """Runs commands on one data folder and compares each with its golden file."""

    def __init__(self, scenario: str, data: Path, work: Path, normalise: Normaliser,
                 capsys: pytest.CaptureFixture[str]) -> None:
        self.scenario, self.data, self.work = scenario, data, work
        self.normalise, self.capsys = normalise, capsys

    def __call__(self, step: str, *argv: str | Path, status: int = 0,
                 data: Path | bool | None = True, volatile: frozenset[str] = frozenset(),
                 unordered: bool = False) -> Any:
        """Run one command and compare it with its golden file; `volatile`: more keys whose
        64-digit digests are normalised; `unordered`: the printed list's order is not
        compared (items the app orders by a random id when their times tie)."""
        folder = self.data if data is True else data if isinstance(data, Path) else None
        args = ["--user", USER] + (["--data-dir", str(folder)] if folder else [])
        args += [str(a) for a in argv]
        self.capsys.readouterr()
        code = main(args)
        out, err = self.capsys.readouterr()
        try:
            printed = json.loads(out) if out.strip() else None
        except json.JSONDecodeError:
            pytest.fail(f"{self.scenario}/{step}: stdout is not JSON: {out[:300]!r}")
        normalise = Normaliser(self.normalise.dirs, volatile) if volatile else self.normalise
        shown = normalise(printed)
        if unordered:
            shown = sorted(shown, key=lambda item: json.dumps(item, sort_keys=True))
        actual = {
            "command": self.normalise.text(" ".join(["inspector-app", *args])),
            "exit_status": code,
            "stdout": shown,
            "stderr_first_line": self.normalise.text(err.splitlines()[0]) if err.strip()
            else None,
        }
        check_golden(f"{self.scenario}--{step}", actual)
        assert code == status, f"{self.scenario}/{step}: exit {code}: {err}"
        return printed

    def done(self) -> None:
        _completed.add(self.scenario)


def check_golden(name: str, actual: dict[str, Any]) -> None:
    assert name not in _used, f"two steps named {name}"
    _used.add(name)
    path = GOLDEN / f"{name}.json"
    if UPDATE:
        GOLDEN.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(actual, indent=2, ensure_ascii=False, sort_keys=True)
                        + "\n", "utf-8")
        return
    assert path.is_file(), (f"no golden file {path.name}; record it with "
                            "INSPECTOR_UPDATE_GOLDEN=1")
    expected = json.loads(path.read_text("utf-8"))
    assert actual == expected, f"{name}: the command's answer differs from {path.name}"


# --- input files --------------------------------------------------------------------------

def _png() -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body)))
    rows = b"".join(b"\x00" + b"\x20\x80\x20" * 2 for _ in range(2))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def _gga(lon: float, lat: float, second: int, hdop: float) -> str:
    def dm(value: float, width: int) -> str:
        degrees = int(abs(value))
        return f"{degrees:0{width}d}{(abs(value) - degrees) * 60:07.4f}"
    body = (f"GPGGA,1200{second:02d}.00,{dm(lat, 2)},N,{dm(lon, 3)},W,1,09,{hdop:.1f},"
            "210.0,M,-34.0,M,,")
    return f"${body}*{reduce(lambda a, c: a ^ ord(c), body, 0):02X}"


def _square(lon: float, lat: float, half: float) -> list[list[list[float]]]:
    return [[[lon - half, lat - half], [lon + half, lat - half], [lon + half, lat + half],
             [lon - half, lat + half], [lon - half, lat - half]]]


def _geojson(path: Path, features: list[tuple[dict[str, Any], dict[str, Any]]],
             **extra: Any) -> Path:
    path.write_text(json.dumps({"type": "FeatureCollection", **extra, "features": [
        {"type": "Feature", "properties": props, "geometry": geom}
        for props, geom in features]}), "utf-8")
    return path


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("inputs")
    files: dict[str, Path] = {}
    files["photo"] = d / "tank-lid.png"
    files["photo"].write_bytes(_png())
    files["roll"] = d / "roll.csv"
    files["roll"].write_text(
        "SBL,Municipality,Site Address,Owner Name,Mailing Address 1,Mailing Address 2,"
        "Owner Phone\n"
        "900.02-1-1,Town of Canandaigua,5000 County Road 16,Ann Golden,5000 County Road 16,"
        "\"Canandaigua, NY 14424\",585-555-0100\n"
        "900.02-1-2,Town of Canandaigua,5010 County Road 16,Bo Golden,PO Box 12,"
        "\"Rushville, NY 14544\",\n", "utf-8")
    # 900.01-1-1's absorption area is at about -77.31168, 42.80806.
    files["shoreline"] = _geojson(d / "shore.geojson", [(
        {"name": "golden line"},
        {"type": "LineString", "coordinates": [[-77.3105, 42.80], [-77.3105, 42.82]]})],
        accuracy_ft=5)
    files["area"] = _geojson(d / "area.geojson", [(
        {}, {"type": "Polygon", "coordinates": _square(-77.3117, 42.8081, 0.00008)})])
    files["areas"] = _geojson(d / "areas.geojson", [
        ({"id": "a"}, {"type": "Polygon", "coordinates": _square(-77.3117, 42.8081, 0.00008)}),
        ({"id": "b"}, {"type": "Polygon", "coordinates": _square(-77.3090, 42.8100, 0.00005)})])
    files["lots"] = _geojson(d / "lots.geojson", [
        ({"SBL": "900.01-1-1"}, {"type": "Polygon", "coordinates": _square(-77.3117, 42.8081,
                                                                           0.0006)}),
        ({"SBL": "900.01-01-002"}, {"type": "Polygon", "coordinates": _square(
            -77.3100, 42.8095, 0.0005)}),
        ({"SBL": "999.99-9-9"}, {"type": "Polygon", "coordinates": _square(-77.30, 42.83,
                                                                           0.0004)})])
    files["gps"] = d / "fixes.nmea"
    files["gps"].write_text("\n".join(
        _gga(-77.31180 + 0.000004 * (i % 3), 42.80830 + 0.000003 * (i % 4), i, 0.8 + 0.1 * (i % 2))
        for i in range(12)) + "\n", "ascii")
    files["bad_toml"] = d / "broken-law.toml"
    files["bad_toml"].write_text("id = 'broken'\n[not closed\n", "utf-8")
    files["garbage"] = d / "not-a-package.zip"
    files["garbage"].write_bytes(b"this is not a zip file")
    files["bad_case"] = d / "bad-case.json"
    files["bad_case"].write_text(json.dumps({"format": "watershed-inspector/case/1",
                                             "parcel": {"sbl": "900.01-1-1"}}), "utf-8")
    files["passphrase"] = d / "passphrase.txt"
    files["passphrase"].write_text("golden transcripts passphrase\n", "utf-8")
    return files


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A demo data folder built once, never opened again: scenarios work on copies."""
    folder = tmp_path_factory.mktemp("demo") / "data"
    assert main(["--user", USER, "--data-dir", str(folder), "demo", "--as-of", AS_OF]) == 0
    return folder


@pytest.fixture
def session(demo: Path, inputs: dict[str, Path], tmp_path: Path,
            tmp_path_factory: pytest.TempPathFactory,
            capsys: pytest.CaptureFixture[str]) -> Callable[[str], Transcript]:
    normalise = Normaliser({tmp_path: "<work>", inputs["photo"].parent: "<inputs>",
                            tmp_path_factory.getbasetemp(): "<tmp>"})

    def start(scenario: str) -> Transcript:
        data = tmp_path / "data"
        shutil.copytree(demo, data)
        return Transcript(scenario, data, tmp_path, normalise, capsys)
    return start


def _edited(path: Path, printed: Any, **changes: Any) -> Path:
    case = json.loads(json.dumps(printed))
    for key, value in changes.items():
        section, field = key.split("__")
        case[section][field] = value
    path.write_text(json.dumps(case, indent=2), "utf-8")
    return path


# --- the scenarios ------------------------------------------------------------------------

def test_demo(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory,
              capsys: pytest.CaptureFixture[str]) -> None:
    run = Transcript("demo", tmp_path / "fresh", tmp_path,
                     Normaliser({tmp_path: "<work>", tmp_path_factory.getbasetemp(): "<tmp>"}),
                     capsys)
    run("demo", "demo", "--as-of", AS_OF)
    run("demo-parcels-5", "demo", "--parcels", "5", "--as-of", AS_OF,
        data=tmp_path / "small")
    run("parcels-of-small-demo", "parcels", data=tmp_path / "small")
    run.done()


def test_reading_commands(session: Callable[[str], Transcript], inputs: dict[str, Path]) -> None:
    run = session("read")
    run("parcels", "parcels")
    case = run("case-export", "case", "export", "900.01-1-7")
    run("case-export-no-inspection", "case", "export", "900.01-1-1")
    run("history", "history", "900.01-1-7")
    run("evaluate-sbl", "evaluate", "--sbl", "900.01-1-7", "--as-of", AS_OF)
    run("evaluate-sbl-substandard", "evaluate", "--sbl", "900.01-1-4", "--as-of", AS_OF)
    run("evaluate-sbl-no-law", "evaluate", "--sbl", "900.01-1-17", "--as-of", AS_OF)
    case_file = run.work / "case-900.01-1-7.json"
    case_file.write_text(json.dumps(case), "utf-8")
    run("evaluate-file", "evaluate", case_file, "--as-of", AS_OF, data=None)
    run("letters", "letters", case_file, "--out", run.work / "drafts", "--as-of", AS_OF,
        data=None)
    run("worklist", "worklist", "--as-of", AS_OF)
    for name in ("five-year-inspections", "etu-reports", "holding-tank-records",
                 "notices-past-deadline", "no-law-on-file", "lake-distance-needed"):
        run(f"worklist-{name}", "worklist", name, "--as-of", AS_OF)
    run("jurisdiction-list", "jurisdiction", "list")
    run("jurisdiction-show", "jurisdiction", "show")
    run("jurisdiction-show-municipality", "jurisdiction", "show", "--municipality",
        "Town of Canandaigua")
    run("shoreline-list", "shoreline", "list")
    run("basemap-list", "basemap", "list")
    run("parcels-lines", "parcels", "lines")
    run("register-list", "register", "list")
    run("register-pending", "register", "pending")
    run("office-show", "office", "show")
    run("sync-status", "sync", "status")
    run("sync-conflicts", "sync", "conflicts")
    run("gps-log", "gps", "--log", inputs["gps"], data=None)
    run("distance-area", "distance", "--shoreline", inputs["shoreline"], "--area",
        inputs["area"], data=None)
    run("distance-areas", "distance", "--shoreline", inputs["shoreline"], "--areas",
        inputs["areas"], "--accuracy-ft", "0", data=None)
    run.done()


def test_bad_input(session: Callable[[str], Transcript], inputs: dict[str, Path]) -> None:
    run = session("bad")
    missing = run.work / "no-such-folder"
    run("parcels-missing-folder", "parcels", status=2, data=missing)
    run("case-export-missing-folder", "case", "export", "900.01-1-1", status=2, data=missing)
    run("worklist-missing-folder", "worklist", "--as-of", AS_OF, status=2, data=missing)
    assert not missing.exists()
    run("case-export-unknown-sbl", "case", "export", "999.99-9-99", status=2)
    run("history-unknown-sbl", "history", "999.99-9-99", status=2)
    run("evaluate-unknown-sbl", "evaluate", "--sbl", "999.99-9-99", "--as-of", AS_OF,
        status=2)
    run("register-issue-unknown-sbl", "register", "issue", "999.99-9-99", "--as-of", AS_OF,
        status=2)
    run("worklist-unknown-name", "worklist", "no-such-list", "--as-of", AS_OF, status=2)
    run("case-import-bad-case", "case", "import", inputs["bad_case"], "--as-of", AS_OF,
        status=2)
    run("case-import-missing-file", "case", "import", run.work / "absent.json", "--as-of",
        AS_OF, status=2)
    run("sync-import-garbage", "sync", "import", inputs["garbage"], status=2)
    run("jurisdiction-check-broken", "jurisdiction", "check", inputs["bad_toml"], status=2)
    run("suggestion-unknown-key", "suggestion", "accept", "900.01-1-2", "no/such#key",
        "--as-of", AS_OF, status=2)
    run("demo-bad-as-of", "demo", "--as-of", "2025-02-30", status=2,
        data=run.work / "never-made")
    # nothing of the refused commands was stored
    run("parcels-after", "parcels")
    run.done()


def test_editing_commands(session: Callable[[str], Transcript],
                          inputs: dict[str, Path]) -> None:
    run = session("edit")
    case = run("case-export", "case", "export", "900.01-1-7")
    edited = _edited(run.work / "edited.json", case, parcel__owner_phone="585-555-0199",
                     dwelling__bedrooms=4)
    run("case-import-edit", "case", "import", edited, "--as-of", AS_OF)
    run("case-import-same-again", "case", "import", edited, "--as-of", AS_OF)
    new = json.loads(json.dumps(case))
    new["parcel"]["sbl"] = "900.01-1-99"
    new["parcel"]["site_address"] = "4999 County Road 16 (West Lake Road)"
    created = run.work / "new.json"
    created.write_text(json.dumps(new), "utf-8")
    run("case-import-new", "case", "import", created, "--as-of", AS_OF)
    run("case-export-new", "case", "export", "900.01-1-99")
    run("history-after-edit", "history", "900.01-1-7")
    run("parcels-import", "parcels", "import", inputs["roll"])
    run("parcels-import-again", "parcels", "import", inputs["roll"])
    run("parcels-after-import", "parcels")
    run("attach", "attach", "900.01-1-1", inputs["photo"], "--caption", "Tank lid")
    run("suggestion-accept", "suggestion", "accept", "900.01-1-2",
        "septic_tank_capacity/septic_tank#1", "--note", "measured 900 gal", "--as-of", AS_OF)
    run("suggestion-reject", "suggestion", "reject", "900.01-1-5",
        "setback/absorption_area#1/lake", "--note", "tape says 230 ft", "--as-of", AS_OF)
    run("evaluate-after-suggestions", "evaluate", "--sbl", "900.01-1-2", "--as-of", AS_OF)
    run("site-lonlat", "site", "900.01-1-1", "well", "--lonlat", "-77.31190,42.80830",
        "--accuracy-ft", "10", "--note", "from the owner", "--as-of", AS_OF)
    run("site-gps", "site", "900.01-1-1", "dwelling", "--gps", inputs["gps"], "--as-of",
        AS_OF)
    run("site-file", "site", "900.01-1-3", "absorption_area", "--file", inputs["area"],
        "--as-of", AS_OF)
    run("measure-one", "measure", "900.01-1-1", "--as-of", AS_OF)
    run("measure-all", "measure", "--as-of", AS_OF)
    run("history-after-site", "history", "900.01-1-1")
    run("backup", "backup")
    run.done()


def test_layers(session: Callable[[str], Transcript], inputs: dict[str, Path]) -> None:
    run = session("layers")
    run("shoreline-import", "shoreline", "import", inputs["shoreline"], "--name",
        "Golden line", "--accuracy-ft", "5", "--source", "drawn for the golden tests")
    run("shoreline-list", "shoreline", "list")
    run("measure-new-shoreline", "measure", "--as-of", AS_OF)
    run("evaluate-on-new-shoreline", "evaluate", "--sbl", "900.01-1-1", "--as-of", AS_OF)
    listed = run("basemap-list-before", "basemap", "list")
    image = run.work / "imagery.tif"
    shutil.copyfile(listed["basemaps"][0]["path"], image)
    run("basemap-import-reference", "basemap", "import", image, "--name", "Golden reference",
        "--reference", "--source", "the demo's image", "--date", "2024-05-01")
    run("basemap-list", "basemap", "list")
    run("basemap-use", "basemap", "use", "Invented demo imagery (not a photograph)")
    run("basemap-off", "basemap", "off")
    run("basemap-settings", "basemap", "settings", "--kit-radius-ft", "250",
        "--report-imagery", "on")
    run("basemap-settings-show", "basemap", "settings")
    run("parcels-import-lines", "parcels", "import-lines", inputs["lots"], "--sbl-field",
        "SBL", "--name", "Golden lots", "--accuracy-ft", "3", "--source", "drawn")
    run("parcels-lines", "parcels", "lines")
    run("parcels-lines-use", "parcels", "lines-use", "Golden lots")
    run("worklist-lake-distance-needed", "worklist", "lake-distance-needed", "--as-of", AS_OF)
    run.done()


def test_law_and_letters(session: Callable[[str], Transcript]) -> None:
    run = session("letters")
    law = run("jurisdiction-list", "jurisdiction", "list")[0]["source"]
    copy = run.work / "law.toml"
    shutil.copyfile(law, copy)
    run("jurisdiction-check", "jurisdiction", "check", copy)
    run("jurisdiction-use", "jurisdiction", "use", copy)
    office = Path(run("office-show", "office", "show")["source"])
    office_copy = run.work / "office.toml"
    office_copy.write_text(office.read_text("utf-8").replace(
        "(585) 394-1120", "(585) 555-0000"), "utf-8")
    run("office-use", "office", "use", office_copy)
    run("office-show-after", "office", "show")
    wording = run.work / "templates.toml"
    shutil.copyfile(office.with_name("templates.toml"), wording)
    run("wording-use", "wording", "use", wording)
    run("register-issue-refused", "register", "issue", "900.01-1-20", "--as-of", AS_OF,
        status=2)  # a suggested finding awaits a decision (its tank's capacity)
    run("suggestion-accept-7", "suggestion", "accept", "900.01-1-7",
        "baffle/inlet_baffle/septic_tank#1", "--as-of", AS_OF)
    run("suggestion-accept-4", "suggestion", "accept", "900.01-1-4",
        "baffle/outlet_baffle/septic_tank#1", "--as-of", AS_OF)
    pdf = LETTER_DIGEST
    issued = run("register-issue", "register", "issue", "900.01-1-7", "--as-of", AS_OF,
                 volatile=pdf)
    run("register-issue-unattested", "register", "issue", "900.01-1-4", "--kind",
        "report_of_findings", "--as-of", AS_OF, status=2)
    signature = run.work / "signature.png"
    signature.write_bytes(signature_png())
    run("attest", "attest", "900.01-1-4", "--name", "Dana Whitfield, P.E.", "--kind",
        "design_professional", "--number", "PE 089123", "--signature", signature, "--on",
        AS_OF)
    run("register-issue-kind", "register", "issue", "900.01-1-4", "--kind",
        "substandard_notice", "report_of_findings", "--as-of", AS_OF, volatile=pdf)
    run("register-draft", "register", "draft", "900.01-1-7", "--kind", "report_of_findings",
        "--out", run.work / "draft.pdf", "--as-of", AS_OF)
    # Letters issued by one command tie on their time and are listed in their ids' order.
    run("register-list", "register", "list", volatile=pdf, unordered=True)
    run("register-list-sbl", "register", "list", "900.01-1-4", volatile=pdf, unordered=True)
    run("register-pending", "register", "pending", volatile=pdf, unordered=True)
    run("register-print", "register", "print", "--out", run.work / "batch.pdf", "--labels",
        run.work / "labels.pdf", volatile=pdf)
    run("register-pending-after-print", "register", "pending")
    letter_id = issued[0]["id"]
    run("register-show", "register", "show", letter_id, "--out", run.work / "again.pdf",
        volatile=pdf)
    # a correction that would say word for word what the letter says is refused
    run("register-issue-replaces", "register", "issue", "900.01-1-7", "--kind",
        "notice_of_violation", "--replaces", letter_id, "--as-of", AS_OF, status=2)
    run("register-serve", "register", "serve", letter_id, "--method", "certified_mail",
        "--article", "7019 0700 0000 1234 5678", "--on", NEXT_DAY)
    run("worklist-service-unconfirmed", "worklist", "notices-service-unconfirmed", "--as-of",
        "2025-06-17")
    run("register-delivered", "register", "delivered", letter_id, "--on", "2025-06-05",
        "--signed-by", "R. Owner")
    run("register-list-after-correction", "register", "list", "900.01-1-7", volatile=pdf)
    run.done()


def test_reports(session: Callable[[str], Transcript]) -> None:
    run = session("reports")
    run("program-json", "report", "program", "--from", "2020-01-01", "--to", AS_OF, "--json",
        "--as-of", AS_OF)
    run("program-municipality-json", "report", "program", "--from", "2024-01-01", "--to",
        AS_OF, "--municipality", "Town of Canandaigua", "--json", "--as-of", AS_OF)
    run("program-pdf", "report", "program", "--from", "2020-01-01", "--to", AS_OF, "--out",
        run.work / "program.pdf", "--as-of", AS_OF)
    run("export-csv", "report", "export", "--from", "2020-01-01", "--to", AS_OF, "--out",
        run.work / "inspections.csv", "--as-of", AS_OF)
    run("export-xlsx", "report", "export", "--from", "2020-01-01", "--to", AS_OF, "--out",
        run.work / "inspections.xlsx", "--as-of", AS_OF)
    run("export-gpkg-public", "report", "export", "--from", "2020-01-01", "--to", AS_OF,
        "--out", run.work / "systems.gpkg", "--public", "--as-of", AS_OF)
    run("export-gpkg-contradicting-format", "report", "export", "--from", "2020-01-01",
        "--to", AS_OF, "--out", run.work / "systems.gpkg", "--format", "xlsx", "--as-of",
        AS_OF, status=2)
    run.done()


def test_sync(session: Callable[[str], Transcript], inputs: dict[str, Path]) -> None:
    run = session("sync")
    laptop = run.work / "laptop"
    kit = run.work / "kit.wik"
    run("enroll", "sync", "enroll", "--device", "L1", "--parcels", "900.01-1-1,900.01-1-7",
        "--out", kit, "--passphrase-file", inputs["passphrase"])
    run("enroll-worklist", "sync", "enroll", "--device", "L2", "--worklist",
        "five-year-inspections", "--out", run.work / "kit2.wik", "--passphrase-file",
        inputs["passphrase"])
    run("join", "sync", "join", kit, "--passphrase-file", inputs["passphrase"], data=laptop)
    run("join-again-refused", "sync", "join", kit, "--passphrase-file", inputs["passphrase"],
        data=laptop, status=2)
    run("laptop-parcels", "parcels", data=laptop)
    run("laptop-status-before", "sync", "status", data=laptop)
    case = run("laptop-case-export", "case", "export", "900.01-1-7", data=laptop)
    run("laptop-case-import", "case", "import",
        _edited(run.work / "laptop-case.json", case, parcel__owner_phone="585-555-0111",
                dwelling__bedrooms=5), data=laptop)
    package = run.work / "laptop-1.zip"
    run("laptop-export", "sync", "export", "--out", package, data=laptop)
    office_case = run("office-case-export", "case", "export", "900.01-1-7")
    run("office-case-import", "case", "import",
        _edited(run.work / "office-case.json", office_case, parcel__owner_phone="585-555-0122"))
    run("office-import", "sync", "import", package)
    run("office-import-again", "sync", "import", package)
    conflicts = run("office-conflicts", "sync", "conflicts")
    run("office-resolve", "sync", "resolve", conflicts[0]["id"], "--keep-local")
    run("office-conflicts-after", "sync", "conflicts")
    run("office-status", "sync", "status")
    run("office-case-after", "case", "export", "900.01-1-7")
    back = run.work / "office-1.zip"
    run("office-export-for-L1", "sync", "export", "--device", "L1", "--out", back)
    run("office-export-without-device", "sync", "export", "--out", run.work / "x.zip",
        status=2)
    run("laptop-import", "sync", "import", back, data=laptop)
    run("laptop-status-after", "sync", "status", data=laptop)
    run("laptop-case-after", "case", "export", "900.01-1-7", data=laptop)
    run("laptop-history", "history", "900.01-1-7", data=laptop)
    run.done()


def test_every_golden_file_is_used() -> None:
    """Runs after the scenarios (file order): no golden file of a scenario that ran to its
    end is left unused (a renamed or dropped step leaves one behind)."""
    if not _completed:
        pytest.skip("no scenario of this module ran to its end")
    unused = sorted(p.stem for p in GOLDEN.glob("*.json")
                    if p.stem.split("--")[0] in _completed and p.stem not in _used)
    if UPDATE:
        for name in unused:
            (GOLDEN / f"{name}.json").unlink()
        return
    assert not unused, f"golden files no step writes any more: {unused}"
