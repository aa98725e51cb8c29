"""Text that comes from outside the app: a roll, a case file, GeoJSON, a settings file, a
passphrase. Its bytes are decoded here, and a parser's complaint about it is said here, in
words a user can act on (never the codec's or the parser's own), so that every door that
reads such a file says the same thing about the same fault.
"""

from __future__ import annotations

import codecs
import json
import re
from pathlib import Path
from typing import NamedTuple

from .errors import InputError

UTF8 = "UTF-8"
# What Excel on Windows writes when a sheet is saved as "CSV (Comma delimited)".
WINDOWS_1252 = "Windows-1252"
UTF16 = "UTF-16"

# Control characters no text file holds (all but tab, line feed, form feed, carriage
# return), whose presence means the bytes are not text at all.
_BINARY = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")


class Decoded(NamedTuple):
    text: str
    encoding: str  # UTF8, WINDOWS_1252 or UTF16: how the bytes were read


def decode(raw: bytes, path: Path | str, *, what: str, save_as: str,
           windows: bool = False, error: type[InputError] = InputError) -> Decoded:
    """The text of a file's bytes: UTF-8 (a byte order mark dropped), or UTF-16 when it
    begins with a UTF-16 byte order mark, or (when `windows`, for the files Windows
    programs write, such as CSV) Windows-1252. Anything else is an InputError naming the
    file, the first byte at fault and how to save it (`save_as`: "CSV UTF-8"), raised as
    `error`."""
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return _text(raw.decode("utf-16"), path, what, save_as, UTF16, error)
        except UnicodeDecodeError:
            raise error(f"{path}: is not a text file (it starts as UTF-16 text but is "
                             f"not); give the {what} saved as {save_as}.") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        bad = exc.start
    else:
        return _text(text, path, what, save_as, UTF8, error)
    # Binary data is refused as such, in any encoding (the control bytes are the same).
    _text(raw.decode("latin-1"), path, what, save_as, UTF8, error)
    if windows:
        try:
            return Decoded(raw.decode("cp1252"), WINDOWS_1252)
        except UnicodeDecodeError:
            pass
    line = raw.count(b"\n", 0, bad) + 1
    raise error(f"{path}: is not UTF-8 text (byte {bad}, on line {line}, is "
                     f"0x{raw[bad]:02X}: text saved in another encoding, such as "
                     f"Windows-1252); save the {what} as {save_as}.")


def _text(text: str, path: Path | str, what: str, save_as: str, encoding: str,
          error: type[InputError]) -> Decoded:
    found = _BINARY.search(text)
    if found is not None:
        line = text.count("\n", 0, found.start()) + 1
        raise error(f"{path}: is not a text file (it holds binary data, such as byte "
                         f"0x{ord(found.group()):02X} on line {line}); give the {what} "
                         f"saved as {save_as}.")
    return Decoded(text, encoding)


# Python's words for a JSON syntax error, and ours.
_JSON_WORDS = {
    "Expecting ',' delimiter": "a comma or a closing bracket is missing",
    "Expecting ':' delimiter": "a colon is missing after a key",
    "Expecting property name enclosed in double quotes":
        "a key must be written in double quotes, and no comma may follow the last item",
    "Expecting value": "a value is missing or is not JSON (text needs double quotes; NaN "
                       "and Infinity are not JSON)",
    "Extra data": "more text follows the end of the JSON document",
    "Invalid control character at": "a text value holds a line break or tab; write it as "
                                     "\\n or \\t",
    "Unterminated string starting at": "a text value is not closed with a double quote",
    "Invalid \\escape": "a backslash is not followed by a JSON escape (write \\\\ for a "
                        "backslash)",
    "Invalid \\uXXXX escape": "a \\u escape needs four hexadecimal digits",
}


def json_problem(exc: json.JSONDecodeError) -> str:
    """What is wrong with a JSON document, in words, with where (no path; no Python
    wording): a file cut short, a file that is not JSON at all, or the line and column of
    the fault."""
    text = exc.doc
    open_string = exc.msg.startswith("Unterminated string") and '"' not in text[exc.pos + 1:]
    if exc.pos >= len(text.rstrip()) or open_string:
        return (f"ends before its JSON is complete (line {exc.lineno}): the file was cut "
                "short; copy it again from where it came")
    if exc.pos == len(text) - len(text.lstrip()) and exc.msg == "Expecting value":
        start = text.strip().splitlines()[0][:20]
        return (f"is not JSON: it begins with {start!r}, where a JSON document begins with "
                "{ or [")
    words = _JSON_WORDS.get(exc.msg, exc.msg[:1].lower() + exc.msg[1:])
    return f"is not valid JSON (line {exc.lineno}, column {exc.colno}: {words})"


_TOML_AT = re.compile(r"\s*\(at (line \d+, column \d+|end of document)\)\s*$")


def toml_problem(exc: ValueError) -> str:
    """What is wrong with a TOML file, with where, as a clause (no path)."""
    message = str(exc)
    found = _TOML_AT.search(message)
    where = found.group(1) if found else ""
    words = message[:found.start()] if found else message
    words = words[:1].lower() + words[1:]
    if where == "end of document":
        return f"is not valid TOML (at its end: {words}; the file may have been cut short)"
    return f"is not valid TOML ({where + ': ' if where else ''}{words})"
