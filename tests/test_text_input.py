"""Text from outside the app: how its bytes are read, and a parser's complaint said in
words a user can act on (inspector_app/text_input.py)."""

from __future__ import annotations

import codecs
import json
import tomllib

import pytest

from inspector_app.errors import InputError
from inspector_app.text_input import UTF8, UTF16, WINDOWS_1252, decode, json_problem, toml_problem

TEXT = "owner = \"Ren\u00e9e M\u00fcller, Caf\u00e9\"\n"


def _decode(raw: bytes, *, windows: bool = False) -> tuple[str, str]:
    text, encoding = decode(raw, "f.txt", what="file", save_as="UTF-8", windows=windows)
    return text, encoding


def test_utf8_with_or_without_a_byte_order_mark_and_utf16_with_one() -> None:
    assert _decode(TEXT.encode("utf-8")) == (TEXT, UTF8)
    assert _decode(TEXT.encode("utf-8-sig")) == (TEXT, UTF8)
    assert _decode(TEXT.encode("utf-16")) == (TEXT, UTF16)
    assert _decode(codecs.BOM_UTF16_BE + TEXT.encode("utf-16-be")) == (TEXT, UTF16)


def test_windows_1252_is_read_only_where_windows_programs_write_it() -> None:
    raw = TEXT.encode("cp1252")
    assert _decode(raw, windows=True) == (TEXT, WINDOWS_1252)
    with pytest.raises(InputError) as refused:
        _decode(raw)
    assert str(refused.value) == (
        "f.txt: is not UTF-8 text (byte 12, on line 1, is 0xE9: text saved in another "
        "encoding, such as Windows-1252); save the file as UTF-8.")


@pytest.mark.parametrize("windows", [False, True])
def test_binary_data_is_not_text_in_any_encoding(windows: bool) -> None:
    with pytest.raises(InputError, match=r"^f\.txt: is not a text file \(it holds binary "
                                         r"data, such as byte 0x00 on line 2\); give the file "
                                         r"saved as UTF-8\.$"):
        _decode(b"first line\n\x00\x01\xff\xfe", windows=windows)


def _json(text: str) -> str:
    with pytest.raises(json.JSONDecodeError) as error:
        json.loads(text)
    return json_problem(error.value)


def test_json_faults_in_words() -> None:
    assert _json('{"a": [1, 2') == ("ends before its JSON is complete (line 1): the file was "
                                    "cut short; copy it again from where it came")
    assert _json('{"a": "cut') == _json('{"a": [1, 2')  # cut inside a text value
    assert _json("hello\n") == ("is not JSON: it begins with 'hello', where a JSON document "
                                "begins with { or [")
    assert _json('{"a": 1,\n "b" 2}') == ("is not valid JSON (line 2, column 6: a colon is "
                                         "missing after a key)")
    assert _json('{"a": 1,}') == ("is not valid JSON (line 1, column 9: a key must be written "
                                  "in double quotes, and no comma may follow the last item)")
    assert _json('{"a": 1} x') == ("is not valid JSON (line 1, column 10: more text follows "
                                   "the end of the JSON document)")
    for text in ('{"a": [1, 2', '{"a": 1,}', "hello"):
        assert "Expecting" not in _json(text) and "char " not in _json(text)


def test_toml_faults_in_words() -> None:
    def said(text: str) -> str:
        with pytest.raises(tomllib.TOMLDecodeError) as error:
            tomllib.loads(text)
        return toml_problem(error.value)

    assert said("[law\nx = 1") == ("is not valid TOML (line 1, column 5: expected ']' at the "
                                   "end of a table declaration)")
    assert said('x = "open') == ("is not valid TOML (at its end: unterminated string; the "
                                 "file may have been cut short)")
