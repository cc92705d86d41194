"""refimpl.util.jsonio reads exactly what the standard library reads, and writes JSON the standard library reads back
to the same value, with orjson underneath or without it."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from refimpl.util import jsonio

EDGE_TEXTS = [
    "123456789012345678901234567890", "18446744073709551615", "18446744073709551616", "-9223372036854775809",
    "1234567890123456789", "-0", "-0.0", "1e400", "-1e400", "1e-400", "NaN", "Infinity", "-Infinity",
    '{"a":1,"a":2}', '"\\ud800"', '"\\udc00\\ud800"', '"\\u00e9"', '"é"', "1.0", "1E2", " {\"x\": [1, true]} ",
    "[" * 1100 + "]" * 1100, "[" * 50 + "]" * 50, '"\\u0000"', "0.1", "123.456e7", '{"D":"DDDDDDDDDDDDDDDDDDDD"}',
    '"12345678901234567890"', "[1.2345678901234567890]", "true", "null",
]
BAD_TEXTS = ['"\x01"', '{"a":1} x', "", "[1,]", "{'a':1}", "01", "[", '"\\x"', "tru", "\xff", "1 2"]


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON values: same types (1 is not 1.0 is not True), NaN equal to NaN."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b


def _outcome(read: Any, text: str | bytes) -> Any:
    try:
        return ("value", read(text))
    except RecursionError:
        return ("error", "RecursionError")
    except ValueError:
        return ("error", "ValueError")


@pytest.mark.parametrize("text", EDGE_TEXTS + BAD_TEXTS)
@pytest.mark.parametrize("as_bytes", [False, True])
@pytest.mark.parametrize("with_orjson", [True, False])
def test_loads_reads_what_json_reads(text: str, as_bytes: bool, with_orjson: bool,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    if not with_orjson:
        monkeypatch.setattr(jsonio, "orjson", None)
    data = text.encode("utf-8", "surrogatepass") if as_bytes else text
    ours, theirs = _outcome(jsonio.loads, data), _outcome(json.loads, data)
    assert ours[0] == theirs[0] and (_same(ours[1], theirs[1]) if ours[0] == "value" else ours == theirs)


@pytest.mark.parametrize("data", [b"\xef\xbb\xbf{}", b'{"a":"\xed\xa0\x80"}', b"\x00{", b"\xff", "\ufeff{}".encode(),
                                  '{"a": 1}'.encode("utf-16"), '[2]'.encode("utf-32-le")])
def test_loads_reads_bytes_as_json_does(data: bytes) -> None:
    ours, theirs = _outcome(jsonio.loads, data), _outcome(json.loads, data)
    assert ours[0] == theirs[0] and (_same(ours[1], theirs[1]) if ours[0] == "value" else ours == theirs)


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2 ** 80), max_value=2 ** 80)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(_json_values)
def test_any_json_text_reads_the_same_and_writes_back_the_same(value: Any) -> None:
    for text in (json.dumps(value), json.dumps(value, ensure_ascii=False, separators=(",", ":"))):
        assert _same(jsonio.loads(text), json.loads(text))
        assert _same(jsonio.loads(text.encode("utf-8", "surrogatepass")), json.loads(text))
    written = jsonio.dumps(value)
    assert isinstance(written, bytes) and b"\n" not in written
    assert _same(json.loads(written), value)


def test_what_orjson_cannot_write_is_written_by_json() -> None:
    value = {"big": 2 ** 70, "lone": "\ud800", "keys": {1: "one"}}
    assert json.loads(jsonio.dumps(value)) == {"big": 2 ** 70, "lone": "\ud800", "keys": {"1": "one"}}
