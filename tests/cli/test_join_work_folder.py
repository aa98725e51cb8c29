"""`sync join` checks a kit's imagery in a work folder of the data folder it sets up: a
join killed during the check leaves nothing outside that folder, and the next opening
removes what it left there; the join then works."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.cli.test_hostile_files import ROOT, cli

# The command line, killed (SIGKILL) as it reads the kit's imagery, saying where it was.
KILLED_IN_THE_CHECK = r"""
import os, signal, sys
from inspector_app.geo import rasters
def killed_here(path, *args, **kwargs):
    print(path, flush=True)
    os.kill(os.getpid(), signal.SIGKILL)
rasters.inspect_raster = killed_here
from inspector_app.__main__ import main
sys.exit(main(sys.argv[1:]))
"""


def test_a_join_killed_in_the_imagery_check_leaves_nothing_outside(tmp_path: Path) -> None:
    office, field, temp = tmp_path / "office", tmp_path / "field", tmp_path / "temp"
    temp.mkdir()
    assert cli(office, "demo", "--parcels", "3").returncode == 0
    passphrase = tmp_path / "passphrase"
    passphrase.write_text("correct horse battery staple\n")
    kit = tmp_path / "laptop.wikit"
    enrolled = cli(office, "sync", "enroll", "--device", "Laptop 1", "--out", str(kit),
                   "--parcels", "900.01-1-1", "--passphrase-file", str(passphrase))
    assert enrolled.returncode == 0, enrolled.stderr
    join = ["--data-dir", str(field), "--user", "k.olmsted", "sync", "join", str(kit),
            "--passphrase-file", str(passphrase)]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(temp), "TEMP": str(temp),
           "TMP": str(temp)}
    killed = subprocess.run([sys.executable, "-c", KILLED_IN_THE_CHECK, *join],
                            capture_output=True, text=True, timeout=120, env=env,
                            stdin=subprocess.DEVNULL)
    assert killed.returncode == -9, killed.stderr
    checked = Path(killed.stdout.strip())
    assert checked.is_relative_to(field / "basemaps"), checked
    assert checked.parent.name.startswith(".work-") and checked.exists()
    assert list(temp.iterdir()) == []  # nothing of the join outside its data folder

    joined = subprocess.run([sys.executable, "-m", "inspector_app", *join],
                            capture_output=True, text=True, timeout=120, env=env,
                            stdin=subprocess.DEVNULL)
    assert joined.returncode == 0, joined.stderr
    assert not checked.parent.exists()
    assert [p.suffix for p in (field / "basemaps").iterdir()] == [".tif"]
    assert list(temp.iterdir()) == []
