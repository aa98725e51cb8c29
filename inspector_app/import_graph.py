"""Which of the program's modules import which, read from the source.

Every import counts: at the top of a module, inside a function (an import put off until
it is needed still runs) and under `TYPE_CHECKING`. The layering test reads the graph to
keep the dependencies pointing one way, and the kept summaries name the code they were
worked out by as the modules the evaluation reaches through it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
NAME = PACKAGE.name


def module_name(path: Path, root: Path = PACKAGE) -> str:
    """`inspector_app/services/lists/summaries.py` -> `inspector_app.services.lists.summaries`."""
    parts = [root.name, *path.relative_to(root).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules(root: Path = PACKAGE) -> Mapping[str, Path]:
    """Every module of the package by name."""
    return {module_name(p, root): p for p in sorted(root.rglob("*.py"))}


def _imported(path: Path, name: str, known: Mapping[str, Path]) -> set[str]:
    tree = ast.parse(path.read_text("utf-8"), filename=str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base_parts = parts[:len(parts) - (node.level - 1)]
                base = ".".join([*base_parts, *([node.module] if node.module else [])])
            else:
                base = node.module or ""
            # `from package import module` names the module (the package's own code runs
            # first, but it is not what the importer uses); `from module import name`
            # names the module
            subs = [f"{base}.{alias.name}" for alias in node.names
                    if f"{base}.{alias.name}" in known]
            targets = subs if len(subs) == len(node.names) else [base, *subs]
        else:
            continue
        found.update(t for t in targets if t in known and t != name)
    return found


@cache
def graph(root: Path = PACKAGE) -> Mapping[str, frozenset[str]]:
    """Each module of the package -> the package's modules it names in an import anywhere
    (`from a.b import c` names a.b, and a.b.c if c is a module)."""
    known = modules(root)
    return {name: frozenset(_imported(path, name, known)) for name, path in known.items()}


def reached(starts: Iterable[str], root: Path = PACKAGE) -> frozenset[str]:
    """The modules these reach through their imports, themselves included, with the
    packages that hold them (importing a.b.c runs a and a.b first)."""
    edges = graph(root)
    known = modules(root)
    seen: set[str] = set()
    todo = list(starts)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo.extend(edges.get(name, ()))
        parts = name.split(".")
        todo.extend(p for n in range(1, len(parts))
                    if (p := ".".join(parts[:n])) in known)
    return frozenset(seen)


def cycles(root: Path = PACKAGE) -> list[list[str]]:
    """The groups of modules that import one another in a circle (Tarjan's strongly
    connected components of more than one module, or a module importing itself)."""
    edges = graph(root)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(start: str) -> None:
        nonlocal counter
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1 or node in edges.get(node, ()):
                    found.append(sorted(group))

    for name in sorted(edges):
        if name not in index:
            visit(name)
    return found
