"""Hostile settings files, JSON and TOML texts, packages and kits, fed through the command
line as a user runs it: each is refused with one sentence on stderr and exit status 2, and
nothing is written (a data folder not made, or left as it was). The subprocess timeout
only guards against a hang; the answer itself comes within a second or two."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import hostile_settings as hostile

ROOT = Path(__file__).resolve().parents[2]
HANG_GUARD_S = 60
OVERDUE_SBL = "900.01-1-2"  # a demo parcel whose five-year inspection is overdue


def run(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "inspector_app", "--data-dir", str(data),
                           *args], capture_output=True, text=True, timeout=HANG_GUARD_S,
                          stdin=subprocess.DEVNULL, env=env)


def refused(result: subprocess.CompletedProcess[str], *words: str) -> str:
    """The one sentence of a refusal, checked to hold `words`."""
    assert result.returncode == 2, (result.returncode, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "unexpectedly" not in lines[0] and "Traceback" not in result.stderr
    for w in words:
        assert w in lines[0], lines[0]
    return lines[0]


def contents(folder: Path) -> dict[str, str]:
    """Every file of a data folder and the hash of its bytes (aside: the database's
    journal files, and the daily backup any command makes as it opens the folder)."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*"))
            if p.is_file() and not p.name.endswith(("-wal", "-shm", "-journal"))
            and p.relative_to(folder).parts[0] != "backups"}


@pytest.fixture(scope="module")
def demo_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = tmp_path_factory.mktemp("demo") / "data"
    assert run(data, "demo").returncode == 0
    return data


@pytest.fixture
def demo(demo_folder: Path, tmp_path: Path) -> Iterator[Path]:
    data = tmp_path / "data"
    shutil.copytree(demo_folder, data)
    yield data


# --- item 4: nesting ---------------------------------------------------------------------

@pytest.mark.parametrize("argv", [
    ["case", "import", "FILE"],
    ["evaluate", "FILE"],
    ["wording", "use", "FILE"],
    ["office", "use", "FILE"],
    ["jurisdiction", "check", "FILE"],
    ["jurisdiction", "use", "FILE"],
], ids=lambda argv: " ".join(argv[:2]))
@pytest.mark.parametrize("make", ["json", "toml arrays", "toml inline tables"])
def test_deep_nesting_is_one_sentence_at_every_door(tmp_path: Path, argv: list[str],
                                                      make: str) -> None:
    """(`site --file`, which needs a data folder, is below.)"""
    file = tmp_path / "deep.txt"
    if make == "json":
        hostile.deep_json(file)
    else:
        hostile.deep_toml(file, inline_tables=make == "toml inline tables")
    data = tmp_path / "data"
    result = run(data, *[str(file) if a == "FILE" else a for a in argv])
    refused(result, str(file), "nests 100,000 levels deep; at most 64 are taken")
    assert not data.exists()


def test_deep_nesting_in_a_stored_folder_changes_nothing(demo: Path, tmp_path: Path) -> None:
    before = contents(demo)
    deep = hostile.deep_json(tmp_path / "deep.json")
    for argv in (["case", "import", str(deep)], ["site", OVERDUE_SBL, "well", "--file",
                                                 str(deep)]):
        refused(run(demo, *argv), "nests 100,000 levels deep")
    assert contents(demo) == before


def test_nesting_within_the_bound_is_read(tmp_path: Path) -> None:
    """64 levels are read (and refused for what they are, not for their depth); 65 are not."""
    ok = hostile.deep_json(tmp_path / "ok.json", levels=64)
    assert "nests" not in refused(run(tmp_path / "d", "case", "import", str(ok)))
    over = hostile.deep_json(tmp_path / "over.json", levels=65)
    refused(run(tmp_path / "d", "case", "import", str(over)), "nests 65 levels deep")


def test_an_unsigned_package_is_refused_before_its_manifest_is_read(demo: Path,
                                                                    tmp_path: Path) -> None:
    before = contents(demo)
    deep = "[" * 100_000 + "]" * 100_000
    package = hostile.unsigned_package(tmp_path / "unsigned.zip", deep.encode())
    line = refused(run(demo, "sync", "import", str(package)), "it is unsigned",
                   "nothing was changed")
    assert "nests" not in line  # refused for what it lacks, not for what it says
    forged = hostile.signed_looking_package(tmp_path / "forged.zip", deep.encode())
    refused(run(demo, "sync", "import", str(forged)), "its manifest is not valid",
            "nests 100,000 levels deep")
    assert contents(demo) == before


def test_a_settings_file_over_the_size_bound_is_refused_unread(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * (1024**2) + "\n", "utf-8")
    for argv in (["wording", "use"], ["office", "use"], ["jurisdiction", "check"]):
        refused(run(tmp_path / "data", *argv, str(big)), "over the 1.0 MB limit")
    assert not (tmp_path / "data").exists()


# --- item 5: kits ------------------------------------------------------------------------

@pytest.mark.parametrize("params", [(2**20, 16, 4), (2**14, 8, 1), (2**15, 16, 1),
                                    (2**15, 8, 2)])
def test_a_kit_asking_for_other_key_derivation_is_refused_before_deriving(
        tmp_path: Path, params: tuple[int, int, int]) -> None:
    n, r, p = params
    kit = hostile.greedy_kit(tmp_path / "kit.zip", n=n, r=r, p=p)
    (tmp_path / "pass.txt").write_text("a passphrase of some length\n")
    data = tmp_path / "field"
    result = run(data, "sync", "join", str(kit), "--passphrase-file",
                 str(tmp_path / "pass.txt"))
    refused(result, "this kit was not made by this app's enrolment",
            f"n=2^{n.bit_length() - 1}, r={r}, p={p}", "n=2^15, r=8, p=1")
    assert not data.exists() or not any(data.iterdir())


@pytest.mark.parametrize("header", [
    b"[" * 400 + b"]" * 400,
    b'{"kdf": "scrypt", "n": 32768, "r": 8, "p": 1}',
    b'{"cipher": "aes-256-gcm", "kdf": "scrypt", "n": 32768.0, "nonce": "00", "p": 1, '
    b'"r": 8, "salt": "00", "extra": 1}',
    b"x" * 600,
], ids=["nested", "missing keys", "extra key", "no end of header"])
def test_a_kit_header_of_the_wrong_shape_is_refused_as_damaged(tmp_path: Path,
                                                               header: bytes) -> None:
    kit = hostile.greedy_kit(tmp_path / "kit.zip", header=header)
    (tmp_path / "pass.txt").write_text("a passphrase of some length\n")
    data = tmp_path / "field"
    refused(run(data, "sync", "join", str(kit), "--passphrase-file",
                str(tmp_path / "pass.txt")), "the field kit is damaged")
    assert not data.exists() or not any(data.iterdir())


# --- item 3: letters' wording and images -------------------------------------------------

SALUTATION_LINE = 45  # of the bundled wording: the first letter's salutation


@pytest.mark.parametrize("placeholder", ["{owner_name:W>2000000}", "{owner_name!r}",
                                         "{owner_name!s:>9}", "{owner_name:{sbl}}",
                                         "{cite[permit_required]:>99999}"])
def test_wording_use_refuses_formats_and_conversions(tmp_path: Path, placeholder: str) -> None:
    wording = hostile.wording_with_salutation(tmp_path / "w.toml", f"Dear {placeholder}:")
    data = tmp_path / "data"
    line = refused(run(data, "wording", "use", str(wording)),
                   f"{wording}, line {SALUTATION_LINE}:", f"the placeholder {placeholder}",
                   "a placeholder is a name only")
    assert "{owner_name}" in line or "{cite[permit_required]}" in line  # how to write it
    assert not data.exists()


@pytest.mark.parametrize("placeholder", ["{owner_name.upper}", "{owner_name[0]}"])
def test_wording_use_refuses_attributes_and_indexes(tmp_path: Path, placeholder: str) -> None:
    wording = hostile.wording_with_salutation(tmp_path / "w.toml", f"Dear {placeholder}:")
    refused(run(tmp_path / "data", "wording", "use", str(wording)),
            f"line {SALUTATION_LINE}:", f"the placeholder {placeholder}",
            "write it as {owner_name}")
    assert not (tmp_path / "data").exists()


def test_wording_texts_are_bounded(tmp_path: Path) -> None:
    many = hostile.wording_with_salutation(tmp_path / "many.toml", "{owner_name}" * 41)
    refused(run(tmp_path / "data", "wording", "use", str(many)),
            "has 41 placeholders; a text of the wording has at most 40")
    long = hostile.wording_with_salutation(tmp_path / "long.toml", "x" * 4001)
    refused(run(tmp_path / "data", "wording", "use", str(long)),
            "is 4,001 characters long; a text of the wording is at most 4,000")
    assert not (tmp_path / "data").exists()


def test_a_stored_wording_with_a_format_never_reaches_a_letter(demo: Path,
                                                                tmp_path: Path) -> None:
    """A wording file put in the folder before formats were refused (here: by hand)."""
    hostile.wording_with_salutation(demo / "letter-templates.toml",
                                    "Dear {owner_name:W>2000000}:")
    before = contents(demo)
    out = tmp_path / "draft.pdf"
    refused(run(demo, "register", "draft", OVERDUE_SBL, "--kind", "five_year_reminder",
                "--out", str(out)), "the placeholder {owner_name:W>2000000}")
    assert not out.exists()
    assert contents(demo) == before


def test_office_use_refuses_a_logo_too_large_from_its_header(tmp_path: Path) -> None:
    settings = tmp_path / "settings"
    logo = hostile.png_declaring(settings / "logo.png" if settings.mkdir() is None else
                                 settings, 17_000, 17_000)
    assert logo.stat().st_size < 1000
    office = hostile.office_with_images(settings, logo="logo.png")
    data = tmp_path / "data"
    refused(run(data, "office", "use", str(office)),
            f"[letterhead] logo {logo} is 17,000 x 17,000 px; at most 6,000 x 6,000 px is "
            "taken: scale it down")
    assert not data.exists()
    hostile.office_with_images(settings, image="logo.png")
    refused(run(data, "office", "use", str(office)), "[signature] image", "17,000 x 17,000 px")
    assert not data.exists()


def test_office_use_takes_a_logo_within_the_bound(tmp_path: Path) -> None:
    settings = tmp_path / "settings"
    settings.mkdir()
    hostile.png_declaring(settings / "logo.png", 6_000, 1)
    office = hostile.office_with_images(settings, logo="logo.png")
    result = run(tmp_path / "data", "office", "use", str(office))
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "data" / "logo.png").exists()


@pytest.mark.parametrize("what", ["logo", "image"])
def test_a_stored_office_image_too_large_is_a_sentence_at_every_letter(
        demo: Path, tmp_path: Path, what: str) -> None:
    hostile.png_declaring(demo / "big.png", 17_000, 17_000)
    hostile.office_with_images(demo, **{what: "big.png"})
    before = contents(demo)
    out = tmp_path / "draft.pdf"
    refused(run(demo, "register", "draft", OVERDUE_SBL, "--kind", "five_year_reminder",
                "--out", str(out)), "17,000 x 17,000 px", "scale it down")
    assert not out.exists()
    assert contents(demo) == before


def test_attest_refuses_a_signature_too_large_from_its_header(demo: Path,
                                                              tmp_path: Path) -> None:
    before = contents(demo)
    big = hostile.png_declaring(tmp_path / "sig.png", 17_000, 17_000)
    refused(run(demo, "attest", OVERDUE_SBL, "--name", "A. Smith", "--kind",
                "certified_inspector", "--number", "1", "--signature", str(big)),
            "is 17,000 x 17,000 pixels", "scale it down")
    assert contents(demo) == before


def test_a_recorded_text_of_nested_brackets_stays_text(demo: Path, tmp_path: Path) -> None:
    """A case file within the bound (a text is a string, however many brackets it holds)
    may record a text of 1,100 nested brackets; the parcel's history shows it as text."""
    exported = run(demo, "case", "export", OVERDUE_SBL)
    assert exported.returncode == 0, exported.stderr
    doc = json.loads(exported.stdout)
    brackets = "[" * 1100 + "]" * 1100
    doc["dwelling"]["ahj_design_reason"] = brackets
    case = tmp_path / "case.json"
    case.write_text(json.dumps(doc), "utf-8")
    assert run(demo, "case", "import", str(case)).returncode == 0
    history = run(demo, "history", OVERDUE_SBL)
    assert history.returncode == 0, history.stderr
    assert brackets in [e["new_value"] for e in json.loads(history.stdout)]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="address-space limit")
def test_a_member_inflating_past_its_declared_size_is_refused_in_bounded_memory(
        demo: Path, tmp_path: Path) -> None:
    """1 MB on disk, declared 128 bytes, inflating to 1 GB: read no further than declared,
    under an address-space limit the 1 GB would break."""
    import resource

    def limited() -> None:
        limit = 600 * 1024**2
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    before = contents(demo)
    package = hostile.lying_member_package(tmp_path / "bomb.zip")
    assert package.stat().st_size < 2 * 1024**2
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-m", "inspector_app", "--data-dir", str(demo),
                             "sync", "import", str(package)], capture_output=True, text=True,
                            timeout=HANG_GUARD_S, stdin=subprocess.DEVNULL, env=env,
                            preexec_fn=limited)
    refused(result, "signature cannot be read", "damaged", "nothing was changed")
    assert contents(demo) == before


# --- keys of many parts, numbers of many digits ------------------------------------------

SETTINGS_DOORS = [["office", "use"], ["wording", "use"], ["jurisdiction", "check"],
                  ["jurisdiction", "use"]]


@pytest.mark.parametrize("header", [False, True], ids=["dotted key", "table header"])
@pytest.mark.parametrize("argv", SETTINGS_DOORS, ids=" ".join)
def test_a_key_of_many_parts_is_refused_as_nesting(tmp_path: Path, argv: list[str],
                                                   header: bool) -> None:
    file = hostile.dotted_key_toml(tmp_path / "dotted.toml", header=header)
    refused(run(tmp_path / "data", *argv, str(file)), str(file),
            "nests 100,000 levels deep; at most 64 are taken")
    assert not (tmp_path / "data").exists()


def test_a_key_of_64_parts_is_read_and_65_are_not(tmp_path: Path) -> None:
    ok = hostile.dotted_key_toml(tmp_path / "ok.toml", parts=64)
    line = refused(run(tmp_path / "data", "office", "use", str(ok)))
    assert "nests" not in line  # refused for the key it does not know, not its depth
    over = hostile.dotted_key_toml(tmp_path / "over.toml", parts=65)
    refused(run(tmp_path / "data", "office", "use", str(over)), "nests 65 levels deep")


@pytest.mark.parametrize("argv", SETTINGS_DOORS, ids=" ".join)
def test_a_settings_number_of_many_digits_is_a_sentence(tmp_path: Path,
                                                        argv: list[str]) -> None:
    file = hostile.long_integer_toml(tmp_path / "long.toml")
    refused(run(tmp_path / "data", *argv, str(file)), str(file),
            "a number of 100,000 digits; at most 4,300 are taken")
    assert not (tmp_path / "data").exists()


@pytest.mark.parametrize("argv", [["case", "import"], ["evaluate"]], ids=" ".join)
def test_a_case_number_of_many_digits_is_a_sentence_naming_its_field(
        demo: Path, tmp_path: Path, argv: list[str]) -> None:
    before = contents(demo)
    file = hostile.long_integer_case(tmp_path / "long.json",
                                     ROOT / "tests" / "fixtures" / "full_case.json")
    line = refused(run(demo, *argv, str(file)), str(file),
                   "dwelling.bedrooms is a number of 100,000 digits; at most 4,300 are taken")
    assert "sys." not in line
    assert contents(demo) == before


def test_the_size_bound_of_a_settings_file_is_said_with_its_article(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * (1024**2) + "\n", "utf-8")
    refused(run(tmp_path / "data", "office", "use", str(big)),
            "over the 1.0 MB limit of an office settings file")


@pytest.mark.parametrize("argv", [["case", "import"], ["evaluate"]], ids=" ".join)
def test_a_case_file_of_a_million_components_is_told_its_length_alone(
        demo: Path, tmp_path: Path, argv: list[str]) -> None:
    before = contents(demo)
    file = hostile.case_with_components(tmp_path / "many.json",
                                        ROOT / "tests" / "fixtures" / "full_case.json")
    line = refused(run(demo, *argv, str(file)), str(file),
                   "components has 1,000,000 entries; at most 50 allowed")
    assert "problems" not in line
    assert contents(demo) == before


def test_a_list_within_its_bound_is_looked_into(tmp_path: Path) -> None:
    doc = json.loads((ROOT / "tests" / "fixtures" / "full_case.json").read_text("utf-8"))
    doc["components"][0]["defects"] = ["x"] * 1000
    file = tmp_path / "defects.json"
    file.write_text(json.dumps(doc), "utf-8")
    refused(run(tmp_path / "data", "evaluate", str(file)),
            "components[0].defects has 1,000 entries; at most")
