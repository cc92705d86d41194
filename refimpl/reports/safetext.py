"""Text that never breaks a report. A build's stderr, names and answers can hold anything; every format
gets only what it may carry: a character no text can hold (a lone surrogate, the noncharacters U+FFFE and
U+FFFF) becomes U+FFFD; a control character becomes a visible escape such as ``\\x1b`` (in XML and text; JSON
escapes it itself); a value nested too deep or too large for a report is cut, saying so."""

from __future__ import annotations

import math
import re
from typing import Any

_SURROGATES = re.compile("[\ud800-\udfff]")
_UNHOLDABLE = re.compile("[\ud800-\udfff\ufffe\uffff]")
_XML_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")  # keeps \t \n \r
_TERMINAL_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # keeps \t \n


def _escape(match: re.Match[str]) -> str:
    return f"\\x{ord(match.group()):02x}"


def xml_safe(text: str) -> str:
    """``text`` with every character XML 1.0 forbids (or discourages: DEL, C1 controls) replaced."""
    return _XML_CONTROLS.sub(_escape, _UNHOLDABLE.sub("\ufffd", text))


# A line a CI runner reads as a command: GitHub Actions' workflow commands (``::error::``, ``::add-mask::``,
# ``::stop-commands::``...) and its log directives (``##[error]``), after any leading blanks; Azure's ``##vso[``.
_RUNNER_COMMAND = re.compile(r"^([ \t]*)(::|##\[|##vso\[)", re.M)


def printable(text: str) -> str:
    """``text`` fit for a UTF-8 terminal and a CI log: no lone surrogate (U+FFFD instead), no control character
    but tab and newline (a visible escape instead; CR LF becomes LF), and no line a CI runner would take for a
    command (``::add-mask::``, ``##[error]``): such a line gets a backslash before it, so build text printed in a
    report stays text. The kit's own annotations (reports/github.py) are not passed through here."""
    text = _TERMINAL_CONTROLS.sub(_escape, _UNHOLDABLE.sub("\ufffd", text.replace("\r\n", "\n")))
    return _RUNNER_COMMAND.sub(r"\1\\\2", text)


def one_line(text: str) -> str:
    """``text`` printable (see ``printable``) and on one line: each line break a visible ``\\n``."""
    return printable(text).replace("\n", "\\n").replace("\t", " ")


def json_safe(value: Any) -> Any:
    """``value`` fit for strict JSON: lone surrogates in strings and keys become U+FFFD, a NaN or infinity
    its name as a string, a tuple a list, anything else that is not JSON its ``repr``."""
    if isinstance(value, str):
        return _SURROGATES.sub("\ufffd", value)
    if value is None or isinstance(value, (bool, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value).replace("inf", "Infinity").replace("nan", "NaN")
    if isinstance(value, dict):
        return {json_safe(k if isinstance(k, str) else str(k)): json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    return json_safe(repr(value))


MAX_DEPTH = 64  # levels of nesting a report keeps of a build's answer (the protocol's own request limit)
MAX_ITEMS = 1000  # entries of one object or list a report keeps
MAX_TEXT = 10_000  # characters of one string a report keeps


def bounded(value: Any, depth: int = MAX_DEPTH) -> Any:
    """``value`` cut to what a report can hold: nesting below ``depth`` levels, objects and lists beyond
    MAX_ITEMS entries and strings beyond MAX_TEXT characters are replaced by a note saying what was cut.
    Iterative, so no answer is too deep for it."""
    if not isinstance(value, (dict, list, tuple, str)):
        return value
    root: list[Any] = [None]
    stack: list[tuple[Any, Any, Any, int]] = [(value, root, 0, 0)]  # (value, parent, key in parent, level)
    while stack:
        item, parent, key, level = stack.pop()
        if isinstance(item, str):
            parent[key] = item if len(item) <= MAX_TEXT else item[:MAX_TEXT] + f"... ({len(item)} characters)"
        elif isinstance(item, (dict, list, tuple)) and level >= depth:
            parent[key] = f"<nested deeper than {depth} levels: not kept>"
        elif isinstance(item, dict):
            out: dict[Any, Any] = {}
            parent[key] = out
            for i, (k, v) in enumerate(item.items()):
                if i == MAX_ITEMS:
                    out["<more>"] = f"{len(item) - MAX_ITEMS} more keys not kept"
                    break
                out[k] = None
                stack.append((v, out, k, level + 1))
        elif isinstance(item, (list, tuple)):
            kept = list(item[:MAX_ITEMS]) + ([f"<{len(item) - MAX_ITEMS} more items not kept>"]
                                             if len(item) > MAX_ITEMS else [])
            copy: list[Any] = [None] * len(kept)
            parent[key] = copy
            stack.extend((v, copy, i, level + 1) for i, v in enumerate(kept))
        else:
            parent[key] = item
    return root[0]
