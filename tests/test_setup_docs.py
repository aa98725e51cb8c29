"""The README's two commands, scripts/setup.sh and CI are one set-up, and stay one."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _block_under(heading: str, text: str) -> str:
    section = text.split(f"\n{heading}\n", 1)[1]
    found = re.search(r"```sh\n(.*?)\n```", section, re.S)
    assert found, f"no sh block under {heading}"
    return found.group(1).strip()


def _ci_test_command() -> str:
    """The test command exactly as .ci/run takes it from the README (its own awk line)."""
    ci = (ROOT / ".ci" / "run").read_text("utf-8")
    awk = re.search(r"readme_tests=\$\((awk .*? README\.md)\)", ci)
    assert awk, ".ci/run no longer takes its test command from README.md"
    assert 'sh -c "$readme_tests"' in ci
    done = subprocess.run(["sh", "-c", awk.group(1)], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    return done.stdout.strip()


def test_ci_runs_the_readmes_test_command_which_uses_the_setup_script() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    tests = _block_under("## Run the tests", readme)
    assert _ci_test_command() == tests
    assert tests.startswith("sh scripts/setup.sh --test && ")
    assert tests.endswith(".venv/bin/pytest")


def test_the_set_up_command_uses_the_same_script_then_opens_the_demo() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    steps = [s.strip() for s in _block_under("## Set up and open the app on demo data",
                                             readme).split("&&")]
    assert steps == ["sh scripts/setup.sh",
                     ".venv/bin/inspector-app --data-dir demo-data demo",
                     ".venv/bin/inspector-app --data-dir demo-data"]
    assert "sudo" not in readme.split("## The app")[0].split("```sh")[1]


def test_the_setup_script_installs_what_qt_printing_and_the_tests_load() -> None:
    script = (ROOT / "scripts" / "setup.sh").read_text("utf-8")
    packages = re.search(r'PACKAGES="(.*?)"', script, re.S)
    assert packages
    names = set(packages.group(1).split())
    assert {"libglib2.0-0", "libcups2", "libxcb-cursor0", "libegl1", "libfontconfig1",
            "poppler-utils", "python3-venv"} <= names
    assert "apt-get update" in script
    assert 'id -u' in script  # sudo only when not root


def test_the_readme_renders_its_headings_and_tables_whole() -> None:
    lines = (ROOT / "README.md").read_text("utf-8").splitlines()
    for n, line in enumerate(lines, 1):
        if line.startswith("#"):
            assert len(line) < 70, f"README.md line {n}: a heading runs into its text"
        if line == "" and 1 < n < len(lines):
            before, after = lines[n - 2], lines[n]
            assert not (before.startswith("|") and after.startswith("|")), (
                f"README.md line {n}: a blank line splits a table")


def test_the_setup_script_refuses_an_unknown_option_before_doing_anything(
        tmp_path: Path) -> None:
    done = subprocess.run(["sh", str(ROOT / "scripts" / "setup.sh"), "--office-server",
                           "--server"], cwd=tmp_path, capture_output=True, text=True,
                          check=False)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("scripts/setup.sh: unknown option '--server'; use no option, "
                           "--test or --office-server.\n")


def test_the_setup_script_and_the_test_cluster_ask_for_the_same_postgresql() -> None:
    from tests import pg_cluster

    script = (ROOT / "scripts" / "setup.sh").read_text("utf-8")
    found = re.search(r"^PG_MAJOR_MIN=(\d+)$", script, re.M)
    assert found and int(found.group(1)) == pg_cluster.MAJOR_MIN
    # the server and its PostGIS, for --test and --office-server, never started here
    assert 'postgresql "postgresql-$major-postgis-3"' in script
    assert "--test) mode=test; postgresql=yes" in script
    assert "--office-server) postgresql=yes" in script
    assert not re.search(r"pg_ctl|pg_ctlcluster|systemctl|service postgresql", script)
