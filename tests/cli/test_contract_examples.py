"""Every example of the public command-line contract (CLI-CONTRACT.md), read from the
contract itself and run: the case file it shows is accepted, and each command it documents
prints the shape it documents (extra keys are the app's additions).

The contract is pinned in the repository, byte for byte, at
tests/fixtures/contract/CLI-CONTRACT.md, so that every clone checks it (a missing pin fails,
it does not skip). Where the shared design folder is beside the project
(../shared/design/CLI-CONTRACT.md), the pin must equal it: a new version of the shared
contract fails `test_the_pinned_contract_is_the_shared_one` until the pin is copied
again (and these examples then run against it)."""

from __future__ import annotations

import copy
import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest
import shapely

from inspector_app.__main__ import main
from tests.geo.helpers import box, lake_with_island, lonlat, write, write_wgs84

ROOT = Path(__file__).resolve().parents[2]
CONTRACT = ROOT / "tests" / "fixtures" / "contract" / "CLI-CONTRACT.md"
SHARED_CONTRACT = ROOT.parent / "shared" / "design" / "CLI-CONTRACT.md"
AS_OF = "2026-11-25"
# The commands whose output the contract shows, in the words it names them by.
DOCUMENTED = {"case file", "evaluate", "distance", "shoreline list", "letters", "sync enroll",
              "sync join", "case import", "parcels", "sync export", "sync import",
              "sync conflicts"}

_COMMAND = re.compile(r"`inspector-app ((?:[a-z]+)(?: [a-z]+)?)")
_BLOCK = re.compile(r"```jsonc?\n(.*?)```", re.S)
_INLINE = re.compile(r"`(\[?\{\".*?\}\]?)`", re.S)
_SUBCOMMANDS = {"sync", "case", "shoreline", "register"}


def _strip_comments(text: str) -> str:
    """JSONC to JSON: drop // comments outside strings."""
    out = []
    for line in text.splitlines():
        in_string, i = False, 0
        while i < len(line):
            ch = line[i]
            if ch == '"' and (i == 0 or line[i - 1] != "\\"):
                in_string = not in_string
            if not in_string and line.startswith("//", i):
                line = line[:i]
                break
            i += 1
        out.append(line)
    return "\n".join(out)


def contract_examples(text: str) -> dict[str, Any]:
    """The contract's JSON examples by the command they document (the last
    `inspector-app ...` named before them; the case file by its format key)."""
    found: dict[str, Any] = {}
    events = sorted([(m.start(), "command", m.group(1)) for m in _COMMAND.finditer(text)]
                    + [(m.start(), "block", m.group(1)) for m in _BLOCK.finditer(text)]
                    + [(m.start(), "inline", m.group(1)) for m in _INLINE.finditer(text)])
    command = None
    for _, kind, body in events:
        if kind == "command":
            words = body.split()
            command = " ".join(words if words[0] in _SUBCOMMANDS else words[:1])
            continue
        doc = json.loads(_strip_comments(body))
        name = "case file" if isinstance(doc, dict) and "format" in doc else command
        assert name is not None, f"an example before any command: {body[:60]}"
        assert name not in found, f"two examples for {name}"
        found[name] = doc
    return found


@pytest.fixture(scope="module")
def examples() -> dict[str, Any]:
    assert CONTRACT.is_file(), f"the pinned public contract {CONTRACT} is missing"
    return contract_examples(CONTRACT.read_text("utf-8"))


# The pin's SHA-256: the contract this code implements (version 2), so that the pin cannot
# change unseen where no shared folder is there to compare it with.
PINNED_SHA256 = "7edd3bd55e8b8a28810b88229a96fa23080365c525f71c08447c7f3234e7cd0b"


def test_the_pinned_contract_is_the_shared_one() -> None:
    """Beside the shared design folder, the pin is its contract byte for byte; in a clone
    without it, the pin is still the contract this code implements (its digest)."""
    assert CONTRACT.is_file(), f"the pinned public contract {CONTRACT} is missing"
    pinned = CONTRACT.read_bytes()
    if SHARED_CONTRACT.is_file():
        assert pinned == SHARED_CONTRACT.read_bytes(), (
            f"the shared contract changed: copy {SHARED_CONTRACT} to {CONTRACT} (byte for "
            "byte), make the app and these examples follow it, and pin its digest here")
    assert hashlib.sha256(pinned).hexdigest() == PINNED_SHA256, (
        f"the pinned contract {CONTRACT} is not the one this code implements")
    assert b"Version 2 " in pinned


def assert_shape(actual: Any, example: Any, where: str = "") -> None:
    """`actual` has every key the example shows, with values of the example's kind."""
    if example is None or example == "...":
        return
    if isinstance(example, dict):
        assert isinstance(actual, dict), f"{where}: {actual!r} is not an object"
        for key, value in example.items():
            assert key in actual, f"{where}.{key} is missing from {sorted(actual)}"
            assert_shape(actual[key], value, f"{where}.{key}")
    elif isinstance(example, list):
        assert isinstance(actual, list), f"{where}: {actual!r} is not a list"
        if example and not isinstance(example[0], list | int | float) and actual:
            for i, item in enumerate(actual):
                assert_shape(item, example[0], f"{where}[{i}]")
    elif isinstance(example, bool):
        assert isinstance(actual, bool), f"{where}: {actual!r} is not true/false"
    elif isinstance(example, int | float):
        assert isinstance(actual, int | float) and not isinstance(actual, bool), (
            f"{where}: {actual!r} is not a number")
    elif isinstance(example, str):
        assert isinstance(actual, str), f"{where}: {actual!r} is not text"


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    status = main(list(args))
    out, err = capsys.readouterr()
    assert status == 0, f"inspector-app {' '.join(args)}: exit {status}: {err}"
    return json.loads(out)


def _case_file(example: dict[str, Any]) -> dict[str, Any]:
    """The contract's case as a file: its geometry placeholder ("...") made a real ring."""
    doc = copy.deepcopy(example)
    ring = doc["site"]["absorption_area"]["coordinates"][0]
    assert "..." in ring  # the contract abbreviates the ring
    x, y = ring[0]
    doc["site"]["absorption_area"]["coordinates"] = [[
        [x, y], [x + 0.0002, y], [x + 0.0002, y + 0.0001], [x, y + 0.0001], [x, y]]]
    return doc


def test_the_contract_names_every_documented_example(examples: dict[str, Any]) -> None:
    assert set(examples) == DOCUMENTED


def test_the_contract_case_file_and_its_commands(examples: dict[str, Any], tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    case = tmp_path / "case.json"
    case.write_text(json.dumps(_case_file(examples["case file"])))
    data = tmp_path / "office"
    d = ("--data-dir", str(data))

    evaluated = cli(capsys, *d, "evaluate", str(case), "--as-of", AS_OF)
    assert_shape(evaluated, examples["evaluate"], "evaluate")
    assert evaluated["outcome"] in ("acceptable", "substandard", "failure", "incomplete")
    assert evaluated["lake"]["zone"] in ("within_200ft", "beyond_200ft", "undetermined")
    assert evaluated["design"]["standard"] in ("75-A", "NYSDEC-intermediate")

    written = cli(capsys, *d, "letters", str(case), "--out", str(tmp_path / "letters"),
                  "--as-of", AS_OF)
    assert_shape(written, examples["letters"], "letters")
    assert [x["kind"] for x in written] == evaluated["letters"]
    assert all(Path(x["path"]).is_file() for x in written)

    imported = cli(capsys, *d, "case", "import", str(case), "--as-of", AS_OF)
    assert_shape(imported, examples["case import"], "case import")
    sbl = examples["case file"]["parcel"]["sbl"]
    assert (imported["sbl"], imported["created"]) == (sbl, True)
    exported = cli(capsys, *d, "case", "export", sbl)
    assert exported["format"] == "watershed-inspector/case/1"
    assert_shape(cli(capsys, *d, "parcels"), examples["parcels"], "parcels")
    layers = cli(capsys, *d, "shoreline", "list")
    assert_shape(layers, examples["shoreline list"], "shoreline list")
    assert layers[0]["accuracy_ft"] >= 1000 and layers[0]["active"] is True


def test_a_version_1_ahj_design_determination_is_accepted(
        examples: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The contract's `dwelling.ahj_design_bedrooms`, with none of the app's own keys.
    doc = _case_file(examples["case file"])
    doc["dwelling"] = {"bedrooms": 4, "living_area_sqft": 4600, "ahj_design_bedrooms": 6}
    assert not {k for k in doc["dwelling"] if k.startswith("ahj_design_")} - {
        "ahj_design_bedrooms"}
    case = write(tmp_path / "case.json", doc)
    imported = cli(capsys, "--data-dir", str(tmp_path / "d"), "case", "import", str(case),
                   "--as-of", AS_OF)
    assert imported["created"] is True
    out = cli(capsys, "--data-dir", str(tmp_path / "d"), "evaluate", str(case),
              "--as-of", AS_OF)
    assert_shape(out, examples["evaluate"], "evaluate")
    assert (out["design"]["design_bedrooms"], out["design"]["ahj_determination_required"]) == (
        6, False)


def test_distance_prints_the_documented_shape(examples: dict[str, Any], tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    shore = write_wgs84(tmp_path / "lake.geojson", [lake_with_island()])
    area = tmp_path / "area.geojson"
    area.write_text(shapely.to_geojson(lonlat(box(10_150, 3000, 40, 60))))
    out = cli(capsys, "distance", "--shoreline", str(shore), "--area", str(area),
              "--accuracy-ft", "0")
    assert_shape(out, examples["distance"], "distance")
    assert (round(out["distance_ft"], 1), out["zone"], out["crs"]) == (
        150.0, "within_200ft", "EPSG:2261")


def test_the_sync_examples(examples: dict[str, Any], tmp_path: Path,
                           capsys: pytest.CaptureFixture[str]) -> None:
    case = tmp_path / "case.json"
    case.write_text(json.dumps(_case_file(examples["case file"])))
    office, laptop = ("--data-dir", str(tmp_path / "office")), (
        "--data-dir", str(tmp_path / "laptop"))
    sbl = examples["case file"]["parcel"]["sbl"]
    cli(capsys, *office, "case", "import", str(case), "--as-of", AS_OF)
    secret = tmp_path / "passphrase.txt"
    secret.write_text("correct horse battery staple\n")
    kit = tmp_path / "kit.zip"
    # This app encrypts field kits and names the laptop's parcels; both options are its own.
    enrolled = cli(capsys, *office, "sync", "enroll", "--device", "laptop-1", "--out",
                   str(kit), "--parcels", sbl, "--passphrase-file", str(secret))
    assert_shape(enrolled, examples["sync enroll"], "sync enroll")
    joined = cli(capsys, *laptop, "sync", "join", str(kit), "--passphrase-file", str(secret))
    assert_shape(joined, examples["sync join"], "sync join")
    assert joined["device"] == "laptop-1"
    package = tmp_path / "package.zip"
    exported = cli(capsys, *laptop, "sync", "export", "--out", str(package))
    assert_shape(exported, examples["sync export"], "sync export")
    applied = cli(capsys, *office, "sync", "import", str(package))
    assert_shape(applied, examples["sync import"], "sync import")
    again = cli(capsys, *office, "sync", "import", str(package))
    assert (again["applied"], again["already_imported"]) == (0, True)
    conflicts = cli(capsys, *office, "sync", "conflicts")
    assert_shape(conflicts, examples["sync conflicts"], "sync conflicts")
