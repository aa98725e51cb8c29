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
