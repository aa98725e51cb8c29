"""Every command that reads a file refuses a missing file, a folder given for a file and a
file it may not read with one sentence naming the file and exit status 2, before any data
folder is made or touched. The commands are found from the parser itself, so a new file
argument without a case here fails the test."""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from inspector_app.cli.main import build_parser

# Each reading argument, by the command words and the option (or positional name), with a
# command line in which FILE is the file under test and OK a readable file.
CASES: dict[tuple[str, str], list[str]] = {
    ("case import", "file"): ["case", "import", "FILE"],
    ("parcels import", "file"): ["parcels", "import", "FILE"],
    ("parcels import-lines", "file"): ["parcels", "import-lines", "FILE"],
    ("attach", "file"): ["attach", "1.-1-1", "FILE"],
    ("records import", "file"): ["records", "import", "FILE", "--kind", "pump-out"],
    ("evaluate", "file"): ["evaluate", "FILE"],
    ("jurisdiction check", "file"): ["jurisdiction", "check", "FILE"],
    ("jurisdiction use", "file"): ["jurisdiction", "use", "FILE"],
    ("distance", "--shoreline"): ["distance", "--shoreline", "FILE", "--area", "OK"],
    ("distance", "--area"): ["distance", "--shoreline", "OK", "--area", "FILE"],
    ("distance", "--areas"): ["distance", "--shoreline", "OK", "--areas", "FILE"],
    ("shoreline import", "file"): ["shoreline", "import", "FILE", "--name", "x",
                                   "--accuracy-ft", "1"],
    ("basemap import", "file"): ["basemap", "import", "FILE", "--name", "x"],
    ("site", "--file"): ["site", "1.-1-1", "well", "--file", "FILE"],
    ("site", "--gps"): ["site", "1.-1-1", "well", "--gps", "OK", "FILE"],
    ("gps", "--log"): ["gps", "--log", "FILE"],
    ("letters", "file"): ["letters", "FILE", "--out", "OUT"],
    ("attest", "--signature"): ["attest", "1.-1-1", "--name", "A. Smith", "--kind",
                                "certified_inspector", "--number", "1", "--signature",
                                "FILE"],
    ("office use", "file"): ["office", "use", "FILE"],
    ("wording use", "file"): ["wording", "use", "FILE"],
    ("sync enroll", "--passphrase-file"): ["sync", "enroll", "--device", "x", "--out", "OUT",
                                           "--passphrase-file", "FILE"],
    ("sync join", "file"): ["sync", "join", "FILE"],
    ("sync join", "--passphrase-file"): ["sync", "join", "OK", "--passphrase-file", "FILE"],
    ("sync import", "file"): ["sync", "import", "FILE"],
}

# Arguments typed as a plain path are where the command writes.
WRITTEN = {"out", "labels"}


def _walk(parser: argparse.ArgumentParser, words: tuple[str, ...] = ()):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _walk(sub, (*words, name))
        else:
            yield words, action


def test_every_reading_argument_has_a_case() -> None:
    reading, plain_paths = set(), set()
    for words, action in _walk(build_parser()):
        name = action.option_strings[-1] if action.option_strings else action.dest
        if getattr(action.type, "reads", None):
            reading.add((" ".join(words), name))
        elif action.type is Path and action.dest not in WRITTEN:
            plain_paths.add((" ".join(words), name))
    assert plain_paths == set(), "a file argument that is read must be typed input_file"
    assert reading == set(CASES)


def _unprivileged() -> list[str]:
    """A prefix under which a file of mode 000 really cannot be read: nothing for a user
    other than root; for root, the capabilities that let it read anything taken away."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: a mode-000 file is readable")
    return [setpriv, "--bounding-set=-dac_override,-dac_read_search"]


def _run(tmp_path: Path, argv: list[str], file: Path) -> tuple[subprocess.CompletedProcess[str],
                                                                  Path]:
    ok = tmp_path / "ok.txt"
    ok.write_text("readable\n")
    data = tmp_path / "data"
    args = [{"FILE": str(file), "OK": str(ok), "OUT": str(tmp_path / "out")}.get(a, a)
            for a in argv]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    result = subprocess.run([*_unprivileged(), sys.executable, "-m", "inspector_app",
                             "--data-dir", str(data), *args], capture_output=True, text=True,
                            timeout=120, stdin=subprocess.DEVNULL, env=env)
    return result, data


def _assert_refused(result: subprocess.CompletedProcess[str], data: Path, file: Path,
                    words: str) -> None:
    assert result.returncode == 2, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"{file}: ") and words in lines[0], lines[0]
    assert "unexpectedly" not in lines[0] and "Errno" not in lines[0]
    assert result.stdout == ""
    assert not data.exists(), "a refused command made the data folder"
    assert not (data.parent / "out").exists()


@pytest.mark.parametrize("case", CASES, ids=" ".join)
def test_a_folder_for_the_file(tmp_path: Path, case: tuple[str, str]) -> None:
    folder = tmp_path / "given"
    folder.mkdir()
    result, data = _run(tmp_path, CASES[case], folder)
    _assert_refused(result, data, folder, "is a folder, not a file; give the path of the ")


@pytest.mark.parametrize("case", CASES, ids=" ".join)
def test_a_file_that_may_not_be_read(tmp_path: Path, case: tuple[str, str]) -> None:
    tmp_path.chmod(0o755)
    file = tmp_path / "closed.txt"
    file.write_text("secret\n")
    file.chmod(0o000)
    result, data = _run(tmp_path, CASES[case], file)
    _assert_refused(result, data, file, "(permission denied); ask its owner for read access")
    assert file.read_text() == "secret\n"


@pytest.mark.parametrize("case", CASES, ids=" ".join)
def test_a_missing_file(tmp_path: Path, case: tuple[str, str]) -> None:
    file = tmp_path / "missing.txt"
    result, data = _run(tmp_path, CASES[case], file)
    _assert_refused(result, data, file, "; check its name and the folder it is in")
    assert result.stderr.startswith(f"{file}: no such ")


def _demo(data: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    return subprocess.run([*_unprivileged(), sys.executable, "-m", "inspector_app",
                           "--data-dir", str(data), "demo"], capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL, env=env)


def test_demo_in_a_file_given_for_the_data_folder(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.write_text("not a folder\n")
    result = _demo(data)
    assert result.returncode == 2, result.stderr
    assert result.stderr.splitlines() == [
        f"The data folder {data} is a file, not a folder; give --data-dir a folder."]
    assert data.read_text() == "not a folder\n"


def test_demo_in_a_data_folder_that_may_not_be_used(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    data.chmod(0o000)
    try:
        result = _demo(data)
        assert result.returncode == 2, result.stderr
        lines = result.stderr.splitlines()
        assert len(lines) == 1, result.stderr
        assert lines[0].startswith(f"Cannot write {data}: the folder {data} may not be "
                                   "written to"), lines[0]
        assert "choose a folder you can write to" in lines[0]
    finally:
        data.chmod(0o700)
    assert list(data.iterdir()) == []
