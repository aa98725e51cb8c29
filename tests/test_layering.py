"""The architecture's dependency rule, checked on the source."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
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
    "holidays": "domain/business_days.py",
    "PIL": "documents",
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
SERVICE_ORDER = ("session", "reference", "parcel", "records", "lists", "letters", "exchange", "demo")
# What each part of the program may import, besides itself and the plain helpers at the
# top (errors, paths, filesystems, json_input, text_input, toml_input, nesting, zip_input,
# import_graph).
PLAIN = {"errors", "paths", "filesystems", "json_input", "text_input", "toml_input", "nesting",
         "zip_input", "import_graph", "__init__"}
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


# --- All SQL, and every write, in storage/ ------------------------------------------------

# A string literal that is SQL: it starts (after any white space) with one of these words,
# in capitals, as the program writes its statements.
_SQL_TEXT = re.compile(r"\s*(?:SELECT|INSERT|UPDATE|DELETE|WITH|PRAGMA|CREATE|ALTER|DROP|BEGIN"
                       r"|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|VACUUM|REPLACE)\b")
# Calls that run SQL, on whatever object: a connection, a cursor, `Store.query`.
_DATABASE_CALLS = frozenset({"execute", "executemany", "executescript", "query"})
SQL_TEXT = "SQL text"


@dataclass(frozen=True)
class Found:
    line: int
    kind: str  # SQL_TEXT, or the call: ".execute(", ".query(", ...
    detail: str


def sql_in(source: str) -> list[Found]:
    """Each string literal that is SQL and each call that runs SQL in a module's source."""
    found: list[Found] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.JoinedStr):
            # an f-string is SQL when its text begins so; its other text parts are no
            # strings of their own, but the expressions in it are looked into
            first = node.values[0] if node.values else None
            if isinstance(first, ast.Constant) and isinstance(first.value, str) and (
                    _SQL_TEXT.match(first.value)):
                found.append(Found(node.lineno, SQL_TEXT, repr(first.value.strip()[:50])))
            for part in node.values:
                if isinstance(part, ast.FormattedValue):
                    visit(part)
            return
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and (
                _SQL_TEXT.match(node.value)):
            found.append(Found(node.lineno, SQL_TEXT, repr(node.value.strip()[:50])))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in _DATABASE_CALLS):
            found.append(Found(node.lineno, f".{node.func.attr}(", ""))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(source))
    return found


@dataclass(frozen=True)
class Allowed:
    """SQL or a call of that name outside storage/ that is not SQL on the data folder's
    database: why, and which kinds of finding."""

    why: str
    kinds: frozenset[str] = frozenset({SQL_TEXT, *(f".{c}(" for c in _DATABASE_CALLS)})

    def covers(self, found: Found) -> bool:
        return found.kind in self.kinds


_STRTREE = Allowed("`STRtree.query`: shapely's spatial index, not SQL",
                   kinds=frozenset({".query("}))
ALLOWED_SQL: dict[str, Allowed] = {
    "geo/rasters.py": Allowed(
        "reads an MBTiles file's own tables (imagery being imported), not our database",
        kinds=frozenset({SQL_TEXT, ".execute("})),
    "geo/foreign_sqlite.py": Allowed(
        "checks an MBTiles or GeoPackage file being imported (its views and triggers), "
        "read-only under a step budget, not our database",
        kinds=frozenset({SQL_TEXT, ".execute("})),
    "geo/demo_image.py": _STRTREE,
    "geo/lake_line.py": _STRTREE,
    "geo/lots.py": _STRTREE,
    "geo/setbacks.py": _STRTREE,
}
# Moved by the sync rewrite: services/exchange/ and sync/ are being rewritten, their SQL
# into storage/, by other hands. This set only ever shrinks: a module that no longer needs
# its place fails `test_no_sql_exception_outlives_its_reason` until it is taken out.
NOT_YET_MOVED: frozenset[str] = frozenset()


def sql_outside_storage(package: Path) -> list[str]:
    """Each SQL text and database call in the package outside storage/ that no exception
    covers, as "MODULE:LINE: what"."""
    out = []
    for path in sorted(package.rglob("*.py")):
        module = path.relative_to(package).as_posix()
        if module.startswith("storage/") or module in NOT_YET_MOVED:
            continue
        allowed = ALLOWED_SQL.get(module)
        for f in sql_in(path.read_text("utf-8")):
            if allowed is None or not allowed.covers(f):
                out.append(f"{module}:{f.line}: {f.kind} {f.detail}".rstrip())
    return out


def test_sql_lives_in_storage() -> None:
    found = sql_outside_storage(PACKAGE)
    assert not found, (
        "SQL, and every write, lives in inspector_app/storage/, behind a function named for "
        "what it does (which hides the engine); found outside it:\n" + "\n".join(found))


def test_the_sql_scan_finds_what_it_looks_for(tmp_path: Path) -> None:
    package = tmp_path / "inspector_app"
    (package / "services").mkdir(parents=True)
    (package / "storage").mkdir()
    (package / "storage" / "rows.py").write_text('SQL = "SELECT 1"\n')
    (package / "services" / "planted.py").write_text(
        'def f(ws, conn, table):\n'
        '    """Selected parcels. SELECT-ing them is what storage does."""\n'
        '    ws.store.query("SELECT id FROM parcels")\n'
        '    conn.execute(f"  DELETE FROM {table}")\n'
        '    sql = """\n        UPDATE parcels SET x = 1"""\n'
        '    label = "Select a parcel", "select * from parcels"\n'
        '    conn.executemany(sql, [])\n')
    assert sql_outside_storage(package) == [
        "services/planted.py:3: .query(",
        "services/planted.py:3: SQL text 'SELECT id FROM parcels'",
        "services/planted.py:4: .execute(",
        "services/planted.py:4: SQL text 'DELETE FROM'",
        "services/planted.py:5: SQL text 'UPDATE parcels SET x = 1'",
        "services/planted.py:8: .executemany(",
    ]


def test_no_sql_exception_outlives_its_reason() -> None:
    stale = []
    for module in sorted(NOT_YET_MOVED | set(ALLOWED_SQL)):
        path = PACKAGE / module
        allowed = ALLOWED_SQL.get(module)
        found = sql_in(path.read_text("utf-8")) if path.exists() else []
        if not any(allowed is None or allowed.covers(f) for f in found):
            stale.append(module)
    assert not stale, ("no longer holds the SQL it is excused for; take it out of "
                       f"NOT_YET_MOVED or ALLOWED_SQL: {', '.join(stale)}")
