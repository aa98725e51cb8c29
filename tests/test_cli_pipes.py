"""Output into a pipe whose reader has gone (`inspector-app parcels | head -1`)."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest

from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.workspace import Workspace


@pytest.mark.parametrize("parcels", [2, 300])  # flushed at exit / written while running
def test_a_closed_pipe_ends_the_command_quietly(tmp_path: Path, parcels: int) -> None:
    ws = Workspace(tmp_path / "data", user="clerk")
    install_demo(ws, count=parcels, today=date(2026, 11, 25))
    ws.close()
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before anything is written
    try:
        result = subprocess.run(
            [sys.executable, "-m", "inspector_app", "--data-dir", str(tmp_path / "data"),
             "parcels"], stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(write_end)
    assert result.stderr == ""
    assert result.returncode == 1


def test_head_gets_its_first_line(tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "data", user="clerk")
    install_demo(ws, count=300, today=date(2026, 11, 25))
    ws.close()
    result = subprocess.run(
        f"{sys.executable} -m inspector_app --data-dir {tmp_path / 'data'} parcels | head -1",
        shell=True, capture_output=True, text=True, timeout=120)
    assert result.stdout == "[\n"
    assert "Traceback" not in result.stderr and "BrokenPipe" not in result.stderr
