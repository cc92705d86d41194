"""Read YAML the kit is handed (traces, expect-fail files, reviewed-mutant lists) within fixed limits.

The data comes from yaml-rs (a YAML 1.2 parser written in Rust: a 50 MB trace loads in seconds, where
PyYAML's libyaml binding takes minutes), with its alias limits and duplicate keys refused. Lines are
found with PyYAML's event stream, which stops at the first problem, so a hostile file is named with its
line at once. The limits, documented in specs/trace-format.md:

- a file of at most ``MAX_BYTES`` bytes, checked as it is read;
- nesting at most ``MAX_DEPTH`` deep;
- aliases: at most ``MAX_ALIAS_EVENTS`` YAML events replayed by all aliases together (a "billion laughs"
  file is refused in milliseconds, not expanded);
- no mapping with the same key twice; no tags but the core schema's (a ``!custom`` or ``!!python/...`` tag is
  refused with its line, never dropped); UTF-8 text, a leading byte order mark allowed;
- a regular file: a FIFO or a device is refused at once (refimpl/util/files.py).
"""

from __future__ import annotations

import errno
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml
import yaml_rs

from ..errors import KitError

if TYPE_CHECKING:
    from array import array

MAX_BYTES = 64 << 20
MAX_DEPTH = 64
MAX_ALIAS_EVENTS = 100_000
BOM = "\ufeff"
CORE_TAGS = frozenset(f"tag:yaml.org,2002:{t}" for t in ("str", "int", "float", "bool", "null", "seq", "map"))

_ALIAS_LIMITS = yaml_rs.AliasLimits(max_total_replayed_events=MAX_ALIAS_EVENTS,
                                    max_alias_expansions_per_anchor=MAX_ALIAS_EVENTS,
                                    max_replay_stack_depth=MAX_DEPTH)
_LINE = re.compile(r"at line (\d+)")
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class YamlError(KitError):
    """A YAML file the kit cannot use; names the file, the line where known, and the reason."""

    def __init__(self, path: str, line: int | None, reason: str) -> None:
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: {reason}")
        self.path, self.line, self.reason = path, line, reason


def read_text(path: str | Path, limit: int = MAX_BYTES) -> str:
    """A file's UTF-8 text (a leading byte order mark, as Windows editors write, is dropped), read once with
    ``limit`` bytes at most; a FIFO, a device or a folder is refused at once. Raises YamlError."""
    from .files import read_bytes

    name = str(path)
    try:
        raw = read_bytes(path, limit)
    except OSError as exc:
        if exc.errno == errno.EFBIG:
            raise YamlError(name, None, os_reason(exc)) from None
        raise YamlError(name, None, f"cannot read: {os_reason(exc)}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise YamlError(name, line, f"not UTF-8 text: byte 0x{raw[exc.start]:02x} at column {column}") from None
    return text[1:] if text.startswith(BOM) else text


def os_reason(exc: OSError) -> str:
    if exc.errno == errno.ELOOP:
        return "a loop of symbolic links"
    return exc.strerror or str(exc)


def load(text: str, path: str = "<yaml>") -> Any:
    """The data of one YAML document, within the limits. Raises YamlError naming the line."""
    if len(text) > MAX_BYTES:
        raise YamlError(path, None, f"the text has {len(text)} characters; the limit is {MAX_BYTES}")
    if text.startswith(BOM):
        text = text[1:]
    if "!" in text or "%" in text:  # a tag or a directive may be there: only the core schema's are taken
        bad = _bad_tag(text)
        if bad is not None:
            raise YamlError(path, bad[0] or None, bad[1])
    try:
        data = yaml_rs.loads(text, parse_datetime=False, alias_limits=_ALIAS_LIMITS)
    except (yaml_rs.YAMLDecodeError, RecursionError, ValueError) as exc:
        message = str(exc)
        found = _LINE.search(message)
        if found:  # a syntax error: yaml-rs names the line
            raise YamlError(path, int(found.group(1)), f"malformed YAML: {message.splitlines()[-1]}") from None
        problem = _problem(text)  # a duplicate key or an alias limit: find the line
        if problem is not None:
            raise YamlError(path, problem[0] or None, problem[1]) from None
        raise YamlError(path, None, f"malformed YAML: {message.splitlines()[0] if message else exc}") from None
    if isinstance(data, list) and len(data) != 1 and _documents(text) > 1:
        raise YamlError(path, None, "more than one YAML document; a file holds one")
    if too_deep(data):
        problem = _problem(text)
        raise YamlError(path, problem[0] if problem else None,
                        problem[1] if problem else f"nested more than {MAX_DEPTH} deep")
    long = long_number(text)
    if long is not None and _has_huge_int(data):  # Python writes no such number in words: refused here, by line
        raise YamlError(path, text.count("\n", 0, long) + 1,
                        f"a whole number of {HUGE_DIGITS:,} digits or more; no field takes one")
    return data


HUGE_DIGITS = 4000  # a whole number this long is refused (Python converts at most 4,300 digits to text)
_LONG_NUMBER = re.compile(rf"[0-9]{{{HUGE_DIGITS},}}")


def long_number(text: str) -> int | None:
    """Where ``text`` holds a run of HUGE_DIGITS digits or more (a number load refuses), or None."""
    found = _LONG_NUMBER.search(text)
    return None if found is None else found.start()


def _has_huge_int(data: Any) -> bool:
    """Whether ``data`` holds a whole number of HUGE_DIGITS digits or more (visited without recursion)."""
    stack = [data]
    while stack:
        value = stack.pop()
        if type(value) is int and value.bit_length() >= HUGE_DIGITS * 3.32:
            return True
        if type(value) is dict:
            stack += list(value.values())
        elif type(value) is list:
            stack += value
    return False


def _bad_tag(text: str) -> tuple[int, str] | None:
    """The first tag that is not one of the core schema's (``!custom``, ``!!python/object``, ``!!set``) or the
    first ``%TAG`` directive (which could rename them), with its line; None when there is none. Syntax errors
    are left to the parser."""
    try:
        for token in yaml.scan(text, Loader=_Loader):
            line = token.start_mark.line + 1
            if isinstance(token, yaml.DirectiveToken) and token.name == "TAG":
                return line, "a %TAG directive: only the core schema's tags are taken"
            if isinstance(token, yaml.TagToken):
                handle, suffix = token.value
                tag = f"tag:yaml.org,2002:{suffix}" if handle == "!!" else f"{handle or ''}{suffix}"
                if tag not in CORE_TAGS:
                    shown = f"!!{suffix}" if handle == "!!" else f"!<{suffix}>" if handle is None else tag
                    return line, (f"the tag {shown} is not taken: only the core schema's tags are (!!str, !!int, "
                                  f"!!float, !!bool, !!null, !!seq, !!map)")
    except yaml.YAMLError:
        return None
    return None


def _documents(text: str) -> int:
    return sum(1 for _ in re.finditer(r"(?m)^---", text)) or 1


def may_be_too_deep(text: str) -> bool:
    """False when ``text`` cannot nest MAX_DEPTH deep: each level needs a bracket, a colon or a dash."""
    return sum(text.count(c) for c in "[{:-") >= MAX_DEPTH - 1


def too_deep(data: Any, below: int = 0, limit: int = MAX_DEPTH) -> bool:
    """Whether ``data`` nests more than ``limit`` deep (``below``: the levels it sits under in its document),
    without recursion. Only containers are visited."""
    if type(data) not in (dict, list):
        return False
    stack = [(data, 1 + below)]
    while stack:
        value, depth = stack.pop()
        if depth > limit:
            return True
        for item in (value.values() if type(value) is dict else value):
            if type(item) is dict or type(item) is list:
                stack.append((item, depth + 1))
    return False


def _problem(text: str) -> tuple[int, str] | None:
    """The first line breaking a limit or the YAML itself, from PyYAML's event stream (which stops there):
    nesting too deep, aliases replaying too much, a duplicate key, or a syntax error."""
    anchors: dict[str | None, int] = {}  # anchor -> events its node stands for, aliases expanded
    open_anchors: list[tuple[str, int, int]] = []  # (anchor, depth at start, expanded events before)
    frames: list[list[Any]] = []  # [is_mapping, keys seen, expecting a key]
    expanded = replayed = 0
    loader = _Loader(text)
    try:
        while loader.check_event():
            event = loader.get_event()
            line = event.start_mark.line + 1
            if frames and frames[-1][0]:
                frame = frames[-1]
                if frame[2] and isinstance(event, yaml.ScalarEvent):
                    if event.value in frame[1]:
                        return line, f"the key {event.value!r} appears twice in one mapping"
                    frame[1].add(event.value)
                if not isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                    frame[2] = not frame[2]
            if isinstance(event, yaml.AliasEvent):
                size = anchors.get(event.anchor, 1)
                replayed += size
                expanded += size
                if replayed > MAX_ALIAS_EVENTS:
                    return line, (f"aliases replay more than {MAX_ALIAS_EVENTS} YAML events "
                                  f"(a file that expands on loading)")
                continue
            expanded += 1
            anchor = getattr(event, "anchor", None)
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                frames.append([isinstance(event, yaml.MappingStartEvent), set(), True])
                if len(frames) > MAX_DEPTH:
                    return line, f"nested more than {MAX_DEPTH} deep"
                if anchor:
                    open_anchors.append((anchor, len(frames), expanded - 1))
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                if open_anchors and open_anchors[-1][1] == len(frames):
                    name, _, before = open_anchors.pop()
                    anchors[name] = expanded - before
                frames.pop()
            elif isinstance(event, yaml.ScalarEvent) and anchor:
                anchors[anchor] = 1
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        problem = getattr(exc, "problem", None) or str(exc)
        return (mark.line + 1 if mark else 0), f"malformed YAML: {problem}"
    finally:
        loader.dispose()
    return None


def load_file(path: str | Path, limit: int = MAX_BYTES) -> tuple[str, Any]:
    """A YAML file's text and data. Raises YamlError."""
    text = read_text(path, limit)
    return text, load(text, str(path))


def compose(text: str) -> yaml.Node | None:
    """PyYAML's node tree of ``text`` (for line numbers of small pieces). Raises yaml.YAMLError."""
    loader = _Loader(text)
    try:
        return loader.get_single_node()
    finally:
        loader.dispose()


def line_map(node: yaml.Node, path: tuple[Any, ...] = (), offset: int = 0) -> dict[tuple[Any, ...], int]:
    """Every path in a composed node tree mapped to its 1-based line (plus ``offset``)."""
    out: dict[tuple[Any, ...], int] = {}
    stack: list[tuple[yaml.Node, tuple[Any, ...]]] = [(node, path)]
    while stack:
        item, where = stack.pop()
        out[where] = item.start_mark.line + 1 + offset
        if isinstance(item, yaml.MappingNode):
            stack.extend((value, where + (key.value,)) for key, value in item.value)
        elif isinstance(item, yaml.SequenceNode):
            stack.extend((value, where + (i,)) for i, value in enumerate(item.value))
    return out


def item_lines(text: str, key: str, count: int) -> list[int] | None:
    """The 1-based first line of each item of the block sequence under the top-level ``key``, found by
    indentation alone (fast on any size); None when that does not give exactly ``count`` items (flow
    style, unusual layout), so the caller composes the file instead."""
    match = re.search(rf"(?m)^{re.escape(key)}\s*:[ \t]*(#.*)?$", text)
    if match is None:
        return None
    lines: list[int] = []
    number = text.count("\n", 0, match.start()) + 1
    indent: int | None = None
    for raw in _lines_after(text, match.end()):
        number += 1
        stripped = raw.lstrip(" ")
        if not stripped or stripped.startswith("#"):
            continue
        here = len(raw) - len(stripped)
        if indent is None:
            if not (stripped.startswith("- ") or stripped == "-"):
                return None
            indent = here
        if here < indent or (here == indent and not (stripped.startswith("- ") or stripped == "-")):
            break
        if here == indent:
            lines.append(number)
    return lines if len(lines) == count else None


def item_spans(text: str, key: str) -> tuple[int, int, array[int], array[int]] | None:
    """Where the block sequence under the top-level ``key`` lies, found by indentation alone: (the offset of
    the ``key:`` line, the offset just after the block, each item's first character offset, each item's
    1-based first line). None when that is not plain to see (no such key, flow style, an empty block), so the
    caller reads the whole document instead."""
    from array import array

    match = re.search(rf"(?m)^{re.escape(key)}\s*:[ \t]*(#.*)?$", text)
    if match is None:
        return None
    starts, lines = array("q"), array("q")
    number = text.count("\n", 0, match.start()) + 1
    pos = text.find("\n", match.end())
    indent: int | None = None
    end = len(text)
    while pos >= 0:
        begin = pos + 1
        pos = text.find("\n", begin)
        raw = text[begin:pos if pos >= 0 else len(text)]
        number += 1
        stripped = raw.lstrip(" ")
        if not stripped.strip() or stripped.startswith("#"):
            continue
        here = len(raw) - len(stripped)
        if indent is None:
            if not (stripped.startswith("- ") or stripped.rstrip("\r") == "-"):
                return None
            indent = here
        if here < indent or (here == indent and not (stripped.startswith("- ") or stripped.rstrip("\r") == "-")):
            end = begin
            break
        if here == indent:
            starts.append(begin)
            lines.append(number)
    if not starts:
        return None
    return match.start(), end, starts, lines


def _lines_after(text: str, start: int) -> Iterator[str]:
    end = text.find("\n", start)
    while end >= 0:
        nxt = text.find("\n", end + 1)
        yield text[end + 1:nxt if nxt >= 0 else len(text)].rstrip("\r")
        end = nxt


def chunk(text: str, first: int, last: int | None) -> str:
    """Lines ``first`` to ``last`` (1-based, inclusive; None: to the end) of ``text``."""
    lines = text.split("\n")
    return "\n".join(lines[first - 1:last])


def dotted(path: Iterable[Any]) -> str:
    """A data path as text: ``steps[3].expect.scores``."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "<top>"
