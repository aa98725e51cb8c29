"""A package's change is read from its line as `json.loads` reads the line's bytes: the
same value, or the same refusal."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from inspector_app.sync.package import _json_line

CHANGE = json.dumps({"change_id": "c-1", "new": "Étang \u2028 \u0085 \ufeff", "n": [1.5, -0]},
                    ensure_ascii=False).encode()
PIECES = [CHANGE, b"{", b"}", b'{"a": 1}', b"[1, 2]", b'"\\ud800"', b"\xed\xa0\x80",
          b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\x00", b"\xc3", b"\xc3\xa9", b" ",
          b"\t", b"\n", b"\r", b"\x0c", b"NaN", b"1e999", b"\\", b'"', b":", b",", b"[", b"]",
          b"null", b'{"a": {"b": [{}]}}' * 2]


def _read(line: bytes) -> tuple[str, Any]:
    try:
        return "value", json.loads(line)
    except ValueError as exc:
        return type(exc).__name__, str(exc)


def _read_fast(line: bytes) -> tuple[str, Any]:
    try:
        return "value", _json_line(line)
    except ValueError as exc:
        return type(exc).__name__, str(exc)


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(PIECES), st.binary(max_size=4)), max_size=10))
def test_a_line_reads_as_json_loads_reads_it(pieces: list[bytes]) -> None:
    line = b"".join(pieces)
    assert repr(_read_fast(line)) == repr(_read(line))  # repr: NaN equal to NaN
    framed = b"{" + line + b"}"
    assert repr(_read_fast(framed)) == repr(_read(framed))


def test_a_package_s_change_line_reads_as_its_value() -> None:
    assert _json_line(CHANGE) == json.loads(CHANGE)
    assert _read_fast(b'{"a": 1} ') == ("value", {"a": 1})
    assert _read_fast(b'{"a": 1}{}') == _read(b'{"a": 1}{}') != ("value", {"a": 1})
    assert _read_fast(b"\xef\xbb\xbf{}") == ("value", {})  # json.loads takes the mark off
