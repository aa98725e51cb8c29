"""The architecture's dependency rule, checked on the source."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parent.parent / "inspector_app"

# third-party library -> the only part of the package allowed to import it
OWNERS = {
    "PySide6": "ui",
    "sqlite_utils": "storage",
    "shapely": "geo",
    "pyproj": "geo",
    "pyogrio": "geo",
    "rasterio": "geo/rasters.py",
    "pynmea2": "geo",
    "serial": "geo",
    "reportlab": "documents",
    "pypdf": "documents",
    "pypdfium2": "documents",
    "jsonschema": "casefile",
    "fastjsonschema": "json_input.py",
    "openpyxl": "documents/spreadsheet.py",
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text("utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(
    p.relative_to(PACKAGE)))
def test_each_library_is_imported_only_by_its_owner(path: Path) -> None:
    part = path.relative_to(PACKAGE).parts[0]
    module = path.relative_to(PACKAGE).as_posix()
    for library in _imports(path) & set(OWNERS):
        owners = OWNERS[library]
        allowed = owners if isinstance(owners, tuple) else (owners,)
        assert part in allowed or module in allowed, (
            f"{path.relative_to(PACKAGE)} imports {library}")


def test_domain_has_no_io_or_app_layers() -> None:
    for path in (PACKAGE / "domain").rglob("*.py"):
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level > 0 and node.module:
                assert node.module.split(".")[0] not in {"storage", "services", "ui", "geo",
                                                          "documents", "sync"}, path


# --- the import graph, every import counted (inside functions and TYPE_CHECKING too) ------

# The services' sub-packages from the bottom: each imports only those below it (and
# `workspace`, the facade the command line and the app hold, sits on top of them all).
SERVICE_ORDER = ("session", "reference", "parcel", "lists", "letters", "exchange", "demo")
# What each part of the program may import, besides itself and the plain helpers at the
# top (errors, paths, json_input, import_graph).
PLAIN = {"errors", "paths", "json_input", "import_graph", "__init__"}
ALLOWED = {
    "domain": set(),
    "storage": {"domain"},
    "casefile": {"domain"},
    "geo": {"domain"},
    "documents": {"domain"},
    "sync": {"domain", "casefile", "storage"},
    "services": {"domain", "casefile", "storage", "geo", "documents", "sync", "services"},
    "cli": {"domain", "casefile", "storage", "geo", "documents", "sync", "services", "cli",
            "desktop"},
    "ui": {"domain", "casefile", "storage", "geo", "documents", "sync", "services", "ui"},
}


def _part(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def test_no_module_imports_itself_round_a_circle() -> None:
    from inspector_app import import_graph

    assert import_graph.cycles() == []


def test_each_part_imports_only_the_parts_below_it() -> None:
    from inspector_app import import_graph

    wrong = []
    for module, imported in import_graph.graph().items():
        part = _part(module)
        if part not in ALLOWED:
            continue
        for target in imported:
            other = _part(target)
            if other != part and other not in PLAIN and other not in ALLOWED[part]:
                wrong.append(f"{module} imports {target}")
    assert wrong == []


def test_the_services_import_downwards() -> None:
    from inspector_app import import_graph

    def rank(module: str) -> int | None:
        parts = module.split(".")
        if len(parts) > 2 and parts[1] == "services" and parts[2] in SERVICE_ORDER:
            return SERVICE_ORDER.index(parts[2])
        return None

    wrong = []
    for module, imported in import_graph.graph().items():
        mine = rank(module)
        if mine is None:
            continue
        for target in imported:
            theirs = rank(target)
            if target == "inspector_app.services.workspace" or (
                    theirs is not None and theirs > mine):
                wrong.append(f"{module} imports {target}")
    assert wrong == []


@pytest.mark.parametrize("part", ["ui", "services", "cli"])
def test_no_module_of_the_window_the_services_or_the_command_line_is_over_600_lines(
        part: str) -> None:
    long = {str(p.relative_to(PACKAGE)): n for p in (PACKAGE / part).rglob("*.py")
            if (n := len(p.read_text("utf-8").splitlines())) > 600}
    assert long == {}
