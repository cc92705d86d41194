"""JSON for protocol messages: orjson where it reads and writes exactly what the standard library would,
the standard library everywhere else.

Every message of a verify run is decoded by the kit and encoded by ``refimpl serve``; for the large views of
Conquest King and Black Fog the standard library's ``json`` costs more than the rules do (bench/protocol.py).
orjson is 5-10x faster, but it is not a drop-in: it reads an integer past 64 bits as a float, refuses NaN,
Infinity, a lone surrogate escape and nesting past 1,024, and writes non-ASCII text unescaped. So:

- ``loads`` gives exactly ``json.loads``'s value or exception: orjson only reads text with no run of 19
  or more digits (an integer that could lie outside 64 bits), and whatever orjson refuses is read again by
  ``json`` (which then accepts it or raises its own error);
- ``dumps`` writes compact JSON as UTF-8 bytes; what orjson cannot write (an integer past 64 bits, a lone
  surrogate) is written by ``json``.

Without orjson installed (an unusual platform) both fall back to ``json`` entirely; tests/test_jsonio.py
checks that both paths agree.
"""

from __future__ import annotations

import json
from typing import Any

try:
    import orjson
except ImportError:  # pragma: no cover - orjson ships wheels for every mainstream platform
    # ignore: the module's name holds None instead, and every use below tests for it
    orjson = None  # type: ignore[assignment]

# 19 digits in a row: an integer that may not fit in 64 bits, which orjson would read as a float. Found by
# turning every digit into "D" (and any "D" into "x") and looking for 19 of them: 10x a regular expression.
_DIGITS = bytes.maketrans(b"0123456789D", b"DDDDDDDDDDx")
_LONG_RUN = b"D" * 19


def _long_digits(data: bytes | bytearray | str) -> bool:
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    return _LONG_RUN in raw.translate(_DIGITS)


def loads(data: bytes | bytearray | str) -> Any:
    """The value of one JSON document, as ``json.loads`` reads it. Raises what ``json.loads`` raises
    (ValueError for text that is not JSON, RecursionError for nesting Python cannot follow)."""
    if orjson is not None:
        if not _long_digits(data):
            try:
                return orjson.loads(data)
            except orjson.JSONDecodeError:
                pass  # NaN, a lone surrogate, deep nesting, not UTF-8...: json decides
    return json.loads(data)


def dumps(value: Any) -> bytes:
    """``value`` as compact JSON in UTF-8 (keys in their order, no spaces)."""
    if orjson is not None:
        try:
            return orjson.dumps(value)
        except TypeError:  # orjson.JSONEncodeError: an integer past 64 bits, a lone surrogate, a non-str key
            pass
    return json.dumps(value, separators=(",", ":")).encode()


__all__ = ["loads", "dumps"]
