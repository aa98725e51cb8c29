"""A named pipe or a device given where a file is expected is refused at once, and a file
over its size limit is refused without being read whole."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from inspector_app.paths import UnreadableFile, read_regular_file

COMMANDS = {
    "case file": ["case", "import"],
    "sync package": ["sync", "import"],
    "NMEA log": ["gps", "--log"],
}


def _run(tmp_path: Path, args: list[str]) -> subprocess.CompletedProcess[str]:
    (tmp_path / "data").mkdir(exist_ok=True)  # `sync import` opens an existing folder only
    return subprocess.run([sys.executable, "-m", "inspector_app", "--data-dir",
                           str(tmp_path / "data"), *args], capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are a POSIX thing")
@pytest.mark.parametrize("what", COMMANDS)
def test_a_named_pipe_is_refused_at_once(tmp_path: Path, what: str) -> None:
    fifo = tmp_path / "input"
    os.mkfifo(fifo)
    result = _run(tmp_path, [*COMMANDS[what], str(fifo)])  # no writer: reading would hang
    assert result.returncode == 2, result.stderr
    assert f"{fifo}" in result.stderr and "named pipe (FIFO)" in result.stderr
    assert f"give the {what} as a file saved on disk" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
@pytest.mark.parametrize("what", COMMANDS)
def test_dev_zero_is_refused_at_once(tmp_path: Path, what: str) -> None:
    result = _run(tmp_path, [*COMMANDS[what], "/dev/zero"])  # endless: would fill memory
    assert result.returncode == 2, result.stderr
    assert "/dev/zero: is a device, not a file" in result.stderr


def test_reads_are_bounded(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    big.write_bytes(b" " * 2_000_001)
    with pytest.raises(UnreadableFile, match=r"it is 2.0 MB, over the 2.0 MB limit of a case "
                                             r"file"):
        read_regular_file(big, limit=2_000_000, what="case file")
    assert read_regular_file(big, limit=2_000_001, what="case file") == b" " * 2_000_001
    with pytest.raises(UnreadableFile, match="is a folder, not a file"):
        read_regular_file(tmp_path, limit=10, what="case file")
    with pytest.raises(FileNotFoundError):
        read_regular_file(tmp_path / "missing.json", limit=10, what="case file")
