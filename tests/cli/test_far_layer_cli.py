"""`shoreline import` of another county's water: refused with exit status 2, one sentence
saying how far it lies, nothing created or stored; `--far-ok` keeps the confirmation,
shown by `shoreline list`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from inspector_app.__main__ import main

ONONDAGA = Path(__file__).parents[1] / "fixtures" / "onondaga_county_areawater.geojson"


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any, str]:
    status = main(["--user", "j.haldane", *args])
    out, err = capsys.readouterr()
    return status, (json.loads(out) if out.strip() else None), err


def test_a_new_folder_is_not_made_for_another_lake(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "new"
    status, out, err = _cli(capsys, "--data-dir", str(folder), "shoreline", "import",
                            str(ONONDAGA), "--name", "TIGER water", "--accuracy-ft", "10")
    assert (status, out) == (2, None) and err.count("\n") == 1
    assert "lies 219,874 ft (41.6 mi) from Canandaigua Lake" in err
    assert "import it again with --far-ok. Nothing was imported." in err
    assert not folder.exists()


def test_a_demo_folder_refuses_it_then_keeps_the_confirmation(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = str(tmp_path / "data")
    assert _cli(capsys, "--data-dir", folder, "demo")[0] == 0
    _, before, _ = _cli(capsys, "--data-dir", folder, "shoreline", "list")
    status, out, err = _cli(capsys, "--data-dir", folder, "shoreline", "import",
                            str(ONONDAGA), "--name", "TIGER water", "--accuracy-ft", "10")
    assert (status, out) == (2, None) and err.count("\n") == 1
    assert "(41.6 mi) from Canandaigua Lake" in err
    assert "from the nearest parcel located in this data folder, more than 79,200 ft" in err
    assert _cli(capsys, "--data-dir", folder, "shoreline", "list")[1] == before
    status, layer, err = _cli(capsys, "--data-dir", folder, "shoreline", "import",
                              str(ONONDAGA), "--name", "TIGER water", "--accuracy-ft", "10",
                              "--far-ok")
    assert status == 0, err
    _, after, _ = _cli(capsys, "--data-dir", folder, "shoreline", "list")
    assert [x["id"] for x in after[:-1]] == [x["id"] for x in before]
    assert not any(x["active"] for x in after[:-1])
    assert all(x["far_confirmed"] is None for x in after[:-1])
    listed = after[-1]
    assert listed["id"] == layer["id"] and listed["active"]
    assert listed["far_confirmed"]["by"] == "j.haldane"
    assert listed["far_confirmed"]["at"] == layer["imported_at"]
    assert listed["far_confirmed"]["finding"].startswith("lies 219,874 ft (41.6 mi) from "
                                                         "Canandaigua Lake")


def test_the_option_says_what_it_means(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["shoreline", "import", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert ("--far-ok import the layer even though it lies more than 5,280 ft (1.0 mi) from "
            "the law's water body, or more than 79,200 ft (15.0 mi) from every parcel") in text
