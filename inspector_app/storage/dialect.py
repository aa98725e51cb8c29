"""The storage's SQL, written once in SQLite's dialect, said in PostgreSQL's.

The schema (`migrations/`) and the statements of `storage/` are written for SQLite; an
office database on PostgreSQL runs the same text translated here, so that there is one
schema source, one migration history and one statement for each query. Only what the app's
own SQL uses is translated, and a statement this cannot translate is refused by name
rather than sent on (`Untranslatable`)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any


class Untranslatable(ValueError):
    """A statement uses SQLite that has no translation here."""


# --- reading SQL text: literals and identifiers apart from the rest ---------------------

_TOKENS = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|--[^\n]*")


def _segments(sql: str) -> Iterator[tuple[bool, str]]:
    """(is_code, text) pieces: string literals, quoted names and comments are not code."""
    at = 0
    for m in _TOKENS.finditer(sql):
        if m.start() > at:
            yield True, sql[at:m.start()]
        yield False, m.group(0)
        at = m.end()
    if at < len(sql):
        yield True, sql[at:]


def _in_code(sql: str, rewrite: re.Pattern[str], replace: str) -> str:
    return "".join(rewrite.sub(replace, text) if code else text
                   for code, text in _segments(sql))


def _matching_paren(sql: str, open_at: int) -> int:
    depth = 0
    quote = ""
    for i in range(open_at, len(sql)):
        ch = sql[i]
        if quote:
            if ch == quote:
                quote = ""
            continue
        if ch in "'\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return i
    raise Untranslatable(f"unbalanced parentheses in: {sql[:80]}")


_MINMAX = re.compile(r"\b(max|min)\s*\(", re.IGNORECASE)
_JSON_ARRAY = re.compile(r"\bjson_array\s*\(", re.IGNORECASE)


def _json_array(sql: str) -> str:
    """SQLite's json_array(...) is text; PostgreSQL's json_build_array, made text too (its
    spacing differs, its JSON does not)."""
    out, at = [], 0
    for m in _JSON_ARRAY.finditer(sql):
        if m.start() < at:
            continue
        close = _matching_paren(sql, m.end() - 1)
        out.append(sql[at:m.start()] + "CAST(json_build_array("
                   + _json_array(sql[m.end():close]) + ") AS text)")
        at = close + 1
    out.append(sql[at:])
    return "".join(out)


def _scalar_min_max(sql: str) -> str:
    """SQLite's two-argument max(a, b) and min(a, b) are PostgreSQL's greatest and least."""
    out, at = [], 0
    for m in _MINMAX.finditer(sql):
        if m.start() < at:
            continue
        close = _matching_paren(sql, m.end() - 1)
        inner = sql[m.end():close]
        if len(_top_level(inner, ",")) > 1:
            word = "greatest" if m.group(1).lower() == "max" else "least"
            out.append(sql[at:m.start()] + f"{word}(" + _scalar_min_max(inner) + ")")
        else:
            out.append(sql[at:m.end()] + _scalar_min_max(inner) + ")")
        at = close + 1
    out.append(sql[at:])
    return "".join(out)


_SUBQUERY = re.compile(r"\b(?:FROM|JOIN)\s*(\()\s*(?:SELECT|WITH|VALUES)\b", re.IGNORECASE)
_AFTER_SUBQUERY = re.compile(r"\s*(\w+)")
# words that may follow a subquery in FROM and are not its name
_NOT_AN_ALIAS = frozenset({
    "WHERE", "GROUP", "HAVING", "WINDOW", "ORDER", "LIMIT", "OFFSET", "UNION", "INTERSECT",
    "EXCEPT", "JOIN", "INNER", "LEFT", "RIGHT", "FULL", "CROSS", "NATURAL", "ON", "USING"})


def _subquery_aliases(sql: str, names: Iterator[int] | None = None) -> str:
    """A subquery in FROM or JOIN with no name gets one: SQLite (and PostgreSQL from 16)
    needs none, PostgreSQL 15 refuses it without."""
    names = itertools.count(1) if names is None else names
    literal = [m.span() for m in _TOKENS.finditer(sql)]
    out, at = [], 0
    for m in _SUBQUERY.finditer(sql):
        if m.start() < at or any(a <= m.start() < b for a, b in literal):
            continue
        open_at = m.start(1)
        close = _matching_paren(sql, open_at)
        inner = _subquery_aliases(sql[open_at + 1:close], names)
        out.append(sql[at:open_at + 1] + inner + ")")
        word = _AFTER_SUBQUERY.match(sql, close + 1)
        if word is None or word.group(1).upper() in _NOT_AN_ALIAS:
            out.append(f" AS subquery_{next(names)}")
        at = close + 1
    out.append(sql[at:])
    return "".join(out)


_TYPEOF = re.compile(r"\btypeof\s*\(", re.IGNORECASE)
# the type names PostgreSQL gives (`pg_typeof`) of the columns `create_table` makes, as
# SQLite's typeof says them
_SQLITE_TYPE = ("CASE WHEN ({0}) IS NULL THEN 'null' "
                "WHEN pg_typeof({0}) IN ('bigint'::regtype, 'integer'::regtype, "
                "'smallint'::regtype, 'boolean'::regtype) THEN 'integer' "
                "WHEN pg_typeof({0}) IN ('double precision'::regtype, 'real'::regtype, "
                "'numeric'::regtype) THEN 'real' "
                "WHEN pg_typeof({0}) = 'bytea'::regtype THEN 'blob' ELSE 'text' END")


def _typeof(sql: str) -> str:
    """SQLite's typeof(x): the storage class of a value, in SQLite's words (a column's
    declared type, on PostgreSQL)."""
    out, at = [], 0
    for m in _TYPEOF.finditer(sql):
        if m.start() < at:
            continue
        close = _matching_paren(sql, m.end() - 1)
        out.append(sql[at:m.start()] + _SQLITE_TYPE.format(_typeof(sql[m.end():close])))
        at = close + 1
    out.append(sql[at:])
    return "".join(out)


# --- statements -------------------------------------------------------------------------

_REWRITES: tuple[tuple[re.Pattern[str], str], ...] = (
    # `user` is a reserved word in PostgreSQL: the change log's column is quoted there
    (re.compile(r"(?<![\w.\"])user\b(?!\s*\()"), '"user"'),
    (re.compile(r"(?<=\.)user\b"), '"user"'),
    (re.compile(r"\binstr\s*\(", re.IGNORECASE), "strpos("),
    (re.compile(r"\bifnull\s*\(", re.IGNORECASE), "coalesce("),
    # a comparison with IS between two values is IS NOT DISTINCT FROM in PostgreSQL
    (re.compile(r"\bIS\s+NOT\s+(?!NULL\b|TRUE\b|FALSE\b|DISTINCT\b|1\b)", re.IGNORECASE),
     "IS DISTINCT FROM "),
    (re.compile(r"\bIS\s+(?!NOT\b|NULL\b|TRUE\b|FALSE\b|DISTINCT\b|1\b)", re.IGNORECASE),
     "IS NOT DISTINCT FROM "),
    (re.compile(r"\bIS\s+NOT\s+1\b", re.IGNORECASE), "IS NOT TRUE"),
    # SQLite's WHERE 1: any row
    (re.compile(r"\bWHERE\s+1\b(?!\s*[-+*/%=<>!|.])", re.IGNORECASE), "WHERE true"),
    (re.compile(r"\bCAST\s*\(([^()]*)\bAS\s+REAL\s*\)", re.IGNORECASE),
     r"CAST(\1AS double precision)"),
    (re.compile(r"\bLIKE\b", re.IGNORECASE), "ILIKE"),  # SQLite's LIKE ignores ASCII case
    # an empty list: SQLite's `IN ()`, no row
    (re.compile(r"\bIN\s*\(\s*\)", re.IGNORECASE), "IN (SELECT NULL WHERE false)"),
    # SQLite's hints to its planner
    (re.compile(r"\s+NOT\s+INDEXED\b", re.IGNORECASE), ""),
    (re.compile(r"\s+INDEXED\s+BY\s+\w+", re.IGNORECASE), ""),
    # SQLite's CROSS JOIN ... ON fixes the order of a join; PostgreSQL's planner chooses
    (re.compile(r"\bCROSS\s+JOIN\s+(\w+(?:\s+(?!ON\b)\w+)?)\s+ON\b", re.IGNORECASE),
     r"JOIN \1 ON"),
)
_QMARK = re.compile(r"\?")
_NUMBERED_MARK = re.compile(r"\?(\d+)")
_NAMED = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")
_PERCENT = re.compile(r"%")
_OR_IGNORE = re.compile(r"^\s*INSERT\s+OR\s+IGNORE\s+INTO\b", re.IGNORECASE)
_OR_OTHER = re.compile(r"\bINSERT\s+OR\s+(REPLACE|ABORT|FAIL|ROLLBACK)\b", re.IGNORECASE)
_JSON_EACH = re.compile(r"\bjson_each\s*\(([^()]*)\)\s+AS\s+(\w+)", re.IGNORECASE)
_REFUSED = re.compile(r"\b(PRAGMA|sqlite_master|sqlite_schema|json_extract|strftime|"
                      r"julianday|group_concat|glob|printf)\b", re.IGNORECASE)


def _expressions(sql: str) -> str:
    """The translations of functions and operators, in code only."""
    sql = _subquery_aliases(sql)
    for pattern, replace in _REWRITES:
        sql = _in_code(sql, pattern, replace)
    sql = _in_code(sql, _JSON_EACH, r"json_array_elements_text((\1)::json) AS \2(value)")
    return "".join(_typeof(_json_array(_scalar_min_max(text))) if code else text
                   for code, text in _segments(sql))


@lru_cache(maxsize=4096)
def statement(sql: str) -> str:
    """A statement of `storage/` in PostgreSQL's dialect, with psycopg's placeholders."""
    for code, text in _segments(sql):
        if code and (found := _REFUSED.search(text)):
            raise Untranslatable(f"{found.group(0)} has no PostgreSQL translation: {sql[:120]}")
        if code and (found := _OR_OTHER.search(text)):
            raise Untranslatable(f"INSERT OR {found.group(1)} has no translation: {sql[:120]}")
    ignore = bool(_OR_IGNORE.match(sql))
    if ignore:
        sql = _OR_IGNORE.sub("INSERT INTO", sql, count=1)
    sql = _expressions(sql)
    sql = "".join(
        _NAMED.sub(r"%(\1)s", _QMARK.sub("%s", _NUMBERED_MARK.sub(
            r"%(_\1)s", _PERCENT.sub("%%", text)))) if code
        else _PERCENT.sub("%%", text)
        for code, text in _segments(sql))
    if ignore:
        sql = sql.rstrip().rstrip(";") + " ON CONFLICT DO NOTHING"
    return sql


@lru_cache(maxsize=4096)
def numbered(sql: str) -> bool:
    """Whether a statement's placeholders are numbered (`?1`, `?2`): its parameters are
    then given to PostgreSQL by name (`parameters_by_name`)."""
    return any(code and _NUMBERED_MARK.search(text) for code, text in _segments(sql))


def parameters_by_name(params: Any) -> dict[str, Any]:
    return {f"_{i}": value for i, value in enumerate(params, start=1)}


# --- the schema -------------------------------------------------------------------------

_TYPES = {"INTEGER": "BIGINT", "REAL": "DOUBLE PRECISION", "TEXT": "TEXT", "BLOB": "BYTEA",
          "NUMERIC": "NUMERIC"}
_COLUMN_TYPE = re.compile(r"^(\s*)(\"?\w+\"?)\s+(INTEGER|REAL|TEXT|BLOB|NUMERIC)\b",
                          re.IGNORECASE)
_AUTO_PK = re.compile(r"\bINTEGER\s+PRIMARY\s+KEY(\s+AUTOINCREMENT)?\b", re.IGNORECASE)
_REFERENCES = re.compile(r"(\bREFERENCES\s+\w+\s*(?:\([^()]*\))?"
                         r"(?:\s+ON\s+(?:DELETE|UPDATE)\s+(?:CASCADE|RESTRICT|SET\s+NULL|"
                         r"SET\s+DEFAULT|NO\s+ACTION))*)", re.IGNORECASE)


def _top_level(body: str, separator: str) -> list[str]:
    """The pieces of `body` between the separators outside parentheses and quotes."""
    parts, depth, quote, current = [], 0, "", ""
    for ch in body:
        if quote:
            current += ch
            if ch == quote:
                quote = ""
            continue
        if ch in "'\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == separator and depth == 0:
            parts.append(current)
            current = ""
            continue
        current += ch
    parts.append(current)
    return parts


def _columns_and_constraints(body: str) -> list[str]:
    return _top_level(body, ",")


def _strip_comments(sql: str) -> str:
    return "".join(text if code else ("" if text.startswith("--") else text)
                   for code, text in _segments(sql))


def create_table(sql: str, *, row_numbers: bool = True) -> str:
    """A `CREATE TABLE` of the schema in PostgreSQL's words: INTEGER is BIGINT (an INTEGER
    PRIMARY KEY an identity), REAL DOUBLE PRECISION, BLOB BYTEA, foreign keys may be
    checked at commit (`SET CONSTRAINTS ALL DEFERRED`, SQLite's `defer_foreign_keys`)."""
    sql = _strip_comments(sql)
    head_end = sql.index("(")
    close = _matching_paren(sql, head_end)
    head = sql[:head_end]
    tail = sql[close + 1:].strip().rstrip(";").strip()
    if tail and tail.upper() not in ("", "STRICT"):
        raise Untranslatable(f"table option {tail!r} has no translation")
    defs = []
    for part in _columns_and_constraints(sql[head_end + 1:close]):
        text = part.strip()
        if not text:
            continue
        text = _AUTO_PK.sub("BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", text)
        m = _COLUMN_TYPE.match(text)
        if m and m.group(2).upper() not in ("CHECK", "UNIQUE", "PRIMARY", "FOREIGN",
                                            "CONSTRAINT"):
            text = (m.group(1) + m.group(2) + " " + _TYPES[m.group(3).upper()]
                    + text[m.end():])
        text = _REFERENCES.sub(r"\1 DEFERRABLE INITIALLY IMMEDIATE", text)
        defs.append(_expressions(text))
    name = head.split()[-1]
    key = re.search(r"(?:^|,)\s*(\w+)\s+INTEGER\s+PRIMARY\s+KEY",
                    sql[head_end + 1:close], re.IGNORECASE)
    if row_numbers:
        # SQLite numbers every row as it is inserted (its rowid, by which the storage orders
        # rows of one moment; an INTEGER PRIMARY KEY is that number); PostgreSQL has no
        # such number, so the table gets one. It is never given back (`postgres.Cursor`).
        defs.append(f"rowid BIGINT GENERATED ALWAYS AS ({key.group(1)}) STORED" if key
                    else "rowid BIGINT GENERATED ALWAYS AS IDENTITY")
    return f"CREATE TABLE {name} (\n    " + ",\n    ".join(defs) + "\n)"


def create_index(sql: str) -> str:
    return _expressions(_strip_comments(sql)).strip().rstrip(";")


_TRIGGER = re.compile(
    r"CREATE\s+TRIGGER\s+(?:IF\s+NOT\s+EXISTS\s+)?(\w+)\s+(BEFORE|AFTER)\s+"
    r"(INSERT|DELETE|UPDATE(?:\s+OF\s+[\w\s,]+?)?)\s+ON\s+(\w+)\s*"
    r"(?:FOR\s+EACH\s+ROW\s*)?(?:WHEN\s+(.*?))?\s*\bBEGIN\b(.*)\bEND\s*;?\s*$",
    re.IGNORECASE | re.DOTALL)
_RAISE = re.compile(r"^\s*SELECT\s+RAISE\s*\(\s*ABORT\s*,\s*('(?:[^']|'')*')\s*\)"
                    r"(?:\s+WHERE\s+(.*))?$", re.IGNORECASE | re.DOTALL)
_NOW_TEXT = re.compile(r"strftime\s*\(\s*'%Y-%m-%dT%H:%M:%f\+00:00'\s*,\s*'now'\s*\)",
                       re.IGNORECASE)
# what SQLite's strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now') writes
_PG_NOW_TEXT = ("to_char(clock_timestamp() AT TIME ZONE 'UTC', "
                "'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"+00:00\"')")


def _trigger_statements(body: str) -> list[str]:
    return [p.strip() for p in _top_level(body, ";") if p.strip()]


def _trigger_expression(text: str) -> str:
    return _expressions(_NOW_TEXT.sub(_PG_NOW_TEXT.replace("\\", "\\\\"), text))


def create_trigger(sql: str) -> list[str]:
    """A trigger of the schema as a PL/pgSQL function and the trigger that calls it, under
    the same name: SQLite's `SELECT RAISE(ABORT, '...')` is `RAISE EXCEPTION` (an
    integrity error, as in SQLite), its WHEN an IF around the body."""
    m = _TRIGGER.match(_strip_comments(sql).strip())
    if m is None:
        raise Untranslatable(f"trigger not understood: {sql[:120]}")
    name, timing, event, table, when, body = m.groups()
    lines = []
    for stmt in _trigger_statements(body):
        raised = _RAISE.match(stmt)
        if raised:
            message, where = raised.groups()
            act = (f"RAISE EXCEPTION USING MESSAGE = {message}, "
                   "ERRCODE = 'integrity_constraint_violation';")
            lines.append(f"IF {_trigger_expression(where)} THEN {act} END IF;" if where
                         else act)
        else:
            lines.append(_trigger_expression(stmt) + ";")
    code = "\n        ".join(lines)
    if when:
        code = f"IF ({_trigger_expression(when)}) IS TRUE THEN\n        {code}\n    END IF;"
    row = "OLD" if event.upper() == "DELETE" else "NEW"
    result = f"RETURN {row};" if timing.upper() == "BEFORE" else "RETURN NULL;"
    event_pg = re.sub(r"\s+", " ", event.strip())
    return [
        f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER "
        f"SET search_path = public AS $body$\nBEGIN\n    {code}\n    {result}\nEND\n$body$",
        f"CREATE TRIGGER {name} {timing.upper()} {event_pg} ON {table} FOR EACH ROW "
        f"EXECUTE FUNCTION {name}()",
    ]


def schema(objects: list[tuple[str, str, str, str]]) -> list[str]:
    """PostgreSQL's statements for a schema given as SQLite's `sqlite_master` rows (type,
    name, tbl_name, sql): the tables in an order their foreign keys allow, then the
    indexes, then the triggers."""
    tables = {name: sql for kind, name, _, sql in objects
              if kind == "table" and sql and not name.startswith("sqlite_")}
    refs = {name: set(re.findall(r"\bREFERENCES\s+(\w+)", sql, re.IGNORECASE)) - {name}
            for name, sql in tables.items()}
    ordered: list[str] = []
    while len(ordered) < len(tables):
        ready = [n for n in tables if n not in ordered and refs[n] <= set(ordered)]
        if not ready:
            left = sorted(set(tables) - set(ordered))
            raise Untranslatable(f"foreign keys in a cycle among {left}")
        ordered.extend(ready)
    out = [create_table(tables[n]) for n in ordered]
    out += [create_index(sql) for kind, name, _, sql in objects
            if kind == "index" and sql]
    for kind, _, _, sql in objects:
        if kind == "trigger":
            out += create_trigger(sql)
    if any(kind == "view" for kind, *_ in objects):
        raise Untranslatable("views are not translated")
    return out


_ADD_COLUMN = re.compile(r"^\s*ALTER\s+TABLE\s+(\w+)\s+ADD\s+(?:COLUMN\s+)?(.*?)\s*;?\s*$",
                         re.IGNORECASE | re.DOTALL)


def migration_statement(sql: str) -> list[str]:
    """One statement of a migration file in PostgreSQL's words (an office database
    brought forward by the same history as a data folder)."""
    text = _strip_comments(sql).strip()
    head = " ".join(text.split()[:3]).upper()
    if head.startswith("PRAGMA"):
        return []  # SQLite's own settings: nothing to say to PostgreSQL
    if head.startswith("CREATE TABLE"):
        return [create_table(text)]
    if head.startswith(("CREATE INDEX", "CREATE UNIQUE")):
        return [create_index(text)]
    if head.startswith("CREATE TRIGGER"):
        return create_trigger(text)
    if head.startswith("DROP TRIGGER"):
        name = text.split()[-1].rstrip(";")
        table = _TRIGGER_TABLES.get(name)
        return [f"DROP TRIGGER IF EXISTS {name} ON {table}" if table else "SELECT 1",
                f"DROP FUNCTION IF EXISTS {name}()"]
    added = _ADD_COLUMN.match(text)
    if added:
        column = create_table(f"CREATE TABLE t ({added.group(2)})", row_numbers=False)
        definition = column.split("(", 1)[1].rsplit(")", 1)[0].strip()
        return [f"ALTER TABLE {added.group(1)} ADD COLUMN {definition}"]
    return [statement(text)]


# The table of each trigger, for DROP TRIGGER (PostgreSQL names triggers per table);
# filled by `trigger_tables`.
_TRIGGER_TABLES: dict[str, str] = {}


def trigger_tables(objects: list[tuple[str, str, str, str]]) -> None:
    """Remember which table each trigger of a schema belongs to."""
    _TRIGGER_TABLES.update({name: table for kind, name, table, _ in objects
                            if kind == "trigger"})
