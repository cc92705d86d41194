"""Read, check and write YAML action traces (format version 1, specs/trace-format.md): a trace's text parsed
and checked against the schema and the game's action forms, a long trace's steps read lazily, block by block,
files and folders found, a reproducer written. Every problem is a TraceError (trace.py) naming the file, the
line and the reason."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from ..games import GAMES, JSON, RuleViolation
from ..util import yamlsafe
from .trace import Step, Steps, Trace, TraceError

SCHEMA: Mapping[str, Any] = json.loads(
    resources.files("refimpl").joinpath("schemas", "trace-v1.schema.json").read_text(encoding="utf-8"))
_VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
_STEP_VALIDATOR = jsonschema.Draft202012Validator({"$schema": SCHEMA["$schema"], "$defs": SCHEMA["$defs"],
                                                   "$ref": "#/$defs/step"})


class _Lines:
    """Where things are in a trace's text: each step's first line at once, everything else only when a
    report or an error asks (composing a big file costs far more than loading it)."""

    def __init__(self, text: str, steps: int, found: Sequence[int] | None = None) -> None:
        self.text = text
        if found is None:
            found = yamlsafe.item_lines(text, "steps", steps)
        self._all: dict[tuple[Any, ...], int] | None = None
        if found is None:
            self._all = self.everything()
            found = [self._all.get(("steps", i), 1) for i in range(steps)]
        self.steps = found
        self._text_lines: list[str] | None = None

    def everything(self) -> dict[tuple[Any, ...], int]:
        if self._all is None:
            try:
                node = yamlsafe.compose(self.text)
            except yaml.YAMLError:
                node = None
            self._all = yamlsafe.line_map(node) if node is not None else {}
        return self._all

    def of_step(self, index: int) -> dict[tuple[Any, ...], int]:
        """The lines inside step ``index`` (paths relative to the step), from that step's text alone."""
        if self._all is not None:
            return {p[2:]: n for p, n in self._all.items() if len(p) >= 2 and p[0] == "steps" and p[1] == index}
        if self._text_lines is None:
            self._text_lines = self.text.split("\n")
        first = self.steps[index]
        last = self.steps[index + 1] - 1 if index + 1 < len(self.steps) else len(self._text_lines)
        piece = "\n".join(self._text_lines[first - 1:last])
        try:
            node = yamlsafe.compose(piece)
        except yaml.YAMLError:  # an alias to an anchor outside the step: compose the whole file
            return {p[2:]: n for p, n in self.everything().items()
                    if len(p) >= 2 and p[0] == "steps" and p[1] == index}
        if not isinstance(node, yaml.SequenceNode) or not node.value:
            return {(): first}
        return yamlsafe.line_map(node.value[0], (), first - 1)

    def of(self, path: Iterable[Any]) -> int | None:
        """The line of ``path`` in the document (or of its nearest enclosing part)."""
        parts = tuple(path)
        if len(parts) >= 2 and parts[0] == "steps" and isinstance(parts[1], int) and parts[1] < len(self.steps):
            inside = self.of_step(parts[1])
            rest = parts[2:]
            while rest not in inside and rest:
                rest = rest[:-1]
            return inside.get(rest, self.steps[parts[1]])
        lines = self.everything()
        while parts not in lines and parts:
            parts = parts[:-1]
        return lines.get(parts)


class _FieldLines(Mapping[str, int]):
    """A step's expectation lines by dotted path (``scores.red``), worked out on first use."""

    def __init__(self, lines: _Lines, index: int, key: str) -> None:
        self._lines, self._index, self._key = lines, index, key
        self._map: dict[str, int] | None = None

    def _load(self) -> dict[str, int]:
        if self._map is None:
            inside = self._lines.of_step(self._index)
            if self._key in ("reject", "error"):
                line = inside.get((self._key,))
                self._map = {} if line is None else {"rejected" if self._key == "reject" else "error": line}
            else:
                self._map = {yamlsafe.dotted(p[1:]): n for p, n in inside.items()
                             if len(p) > 1 and p[0] == "expect"}
        return self._map

    def __getitem__(self, key: str) -> int:
        return self._load()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())


_ACTION_KEYS = frozenset({"action", "expect", "reject", "note", "views", "legal", "rules"})
_RESTART_KEYS = frozenset({"restart", "expect", "note", "views", "legal", "rules"})
_START_KEYS = frozenset({"start", "expect", "error", "note", "views", "legal", "rules"})
_START_FIELDS = frozenset({"ruleset", "seed", "setup"})
_CODE = re.compile(r"^[a-z][a-z0-9-]*$")
_RULE = re.compile(r"^[A-Z]{2}-(?:[A-Z]+-[0-9]+|R[0-9]+)$")


def _plainly_valid(step: Any) -> bool:
    """True only for the common forms of a step (an action, a restart, a start) that the schema surely
    accepts; everything else is left to jsonschema, whose checks cost a trace load a third of its time
    (tests/test_trace_loading.py checks that this never accepts what the schema refuses)."""
    if type(step) is not dict:
        return False
    keys = step.keys()
    if "action" in step:
        if not keys <= _ACTION_KEYS:
            return False
        if "reject" in step:
            if "expect" in step or not (type(step["reject"]) is str and _CODE.match(step["reject"])):
                return False
        elif not (type(step["action"]) is dict and "type" in step["action"]):
            return False
    elif step.get("restart") is True:
        if not keys <= _RESTART_KEYS:
            return False
    elif "start" in step:
        if not keys <= _START_KEYS or type(step["start"]) is not dict or not step["start"].keys() <= _START_FIELDS:
            return False
        if "error" in step and ("expect" in step or not (type(step["error"]) is str and _CODE.match(step["error"]))):
            return False
    else:
        return False
    if "rules" in step:
        rules = step["rules"]
        if type(rules) is not list or not rules or len(set(map(str, rules))) != len(rules) \
                or not all(type(r) is str and _RULE.match(r) for r in rules):
            return False
    if "expect" in step and type(step["expect"]) is not dict:
        return False
    if "note" in step and type(step["note"]) is not str:
        return False
    views = step.get("views", {})
    if type(views) is not dict or not all(type(v) is dict for v in views.values()):
        return False
    legal = step.get("legal", [])
    return type(legal) is list and all(type(a) is dict for a in legal)


def _best(errors: Iterable[jsonschema.ValidationError]) -> jsonschema.ValidationError | None:
    found = sorted(errors, key=lambda e: (len(e.absolute_path), list(map(str, e.absolute_path))))
    return jsonschema.exceptions.best_match(found) if found else None


EAGER_STEPS = 2000  # a trace with more steps is parsed step by step as it is replayed, never held whole



class _Raw:
    """Where a trace's raw step mappings come from: the whole document's list, or the text step by step
    (``yamlsafe.item_spans``) while no step's text fails to read on its own; then the whole document decides."""

    def __init__(self, text: str, path: str, spans: tuple[int, int, Any, Any] | None,
                 whole: list[Any] | None) -> None:
        self.text, self.path, self.spans, self.whole = text, path, spans, whole
        self._block: list[Any] = []
        self._block_at = -1

    def __len__(self) -> int:
        # ignore: spans is set whenever whole is None
        return len(self.whole) if self.whole is not None else len(self.spans[2])  # type: ignore[index]

    BLOCK = 256  # steps read together (one parser call): a long trace is read a block at a time

    def __getitem__(self, i: int) -> Any:
        if self.whole is not None:
            return self.whole[i]
        first = i - i % self.BLOCK
        if self._block_at != first:
            self._block, self._block_at = self._read(first), first
        return self._block[i - first]

    def _read(self, first: int) -> list[Any]:
        """Steps ``first`` to ``first + BLOCK`` from their text, read together; when they cannot be read apart
        from the rest of the document, the whole document decides (and is kept)."""
        _, end, starts, _ = self.spans  # type: ignore[misc]  # read from the spans only while they are set
        last = min(first + self.BLOCK, len(starts))
        piece = self.text[starts[first]:starts[last] if last < len(starts) else end]
        try:
            items = yamlsafe.yaml_rs.loads(piece, parse_datetime=False, alias_limits=yamlsafe._ALIAS_LIMITS)
            if isinstance(items, list) and len(items) == last - first and (
                    not yamlsafe.may_be_too_deep(piece) or not yamlsafe.too_deep(items, 1)):
                return items
        except (yamlsafe.yaml_rs.YAMLDecodeError, RecursionError, ValueError):
            pass
        self.whole = _whole_steps(self.text, self.path)
        return self.whole[first:last]


def _whole_steps(text: str, path: str) -> list[Any]:
    """The steps of the whole document (a step that could not be read alone). Raises TraceError."""
    try:
        data = yamlsafe.load(text, path)
    except yamlsafe.YamlError as exc:
        raise TraceError(path, exc.line, exc.reason) from None
    steps = data.get("steps") if isinstance(data, dict) else None
    if not isinstance(steps, list):
        raise TraceError(path, None, "the steps cannot be read")
    return steps


def _header(text: str, path: str) -> tuple[Any, _Raw]:
    """The trace's mapping without its steps, and where its steps come from. Raises TraceError."""
    spans = yamlsafe.item_spans(text, "steps")
    if spans is not None:
        key, end, _, _ = spans
        block = text[key:end]
        # no anchors, aliases or tags in the steps, nor a number too long to write: each step reads alone (a tag
        # or the rest is for the whole document's reading, which refuses what it must by line)
        if not any(c in block for c in "&*!") and yamlsafe.long_number(block) is None:
            header_text = text[:key] + "steps: []\n" + text[end:]
            try:
                header = yamlsafe.load(header_text, path) if not text.startswith(yamlsafe.BOM) else None
            except yamlsafe.YamlError:
                header = None  # the whole document names the problem and its line
            if isinstance(header, dict) and header.get("steps") == []:
                return header, _Raw(text, path, spans, None)
    try:
        data = yamlsafe.load(text, path)
    except yamlsafe.YamlError as exc:
        raise TraceError(path, exc.line, exc.reason) from None
    raw = data.get("steps") if isinstance(data, dict) else None
    return data, _Raw(text, path, None, raw if isinstance(raw, list) else [])


def parse_trace(text: str, path: str = "<trace>", eager: int = EAGER_STEPS) -> Trace:
    """Parse and check a trace's text: the header and the first step at once, every step when the trace has at
    most ``eager`` steps, a longer trace's other steps as they are used (see Steps). Raises TraceError naming
    ``path`` and the line."""
    if text.startswith(yamlsafe.BOM):
        text = text[1:]
    data, raw = _header(text, path)
    if data is None:
        raise TraceError(path, None, "empty file: a trace is a YAML mapping")
    count = len(raw)
    lines = _Lines(text, count, raw.spans[3] if raw.spans is not None else None)
    first = raw[0] if count else None
    problem = _best(_VALIDATOR.iter_errors({**data, "steps": [first] if count else data.get("steps", [])})
                    if isinstance(data, dict) else _VALIDATOR.iter_errors(data))
    if problem is not None:
        where = yamlsafe.dotted(problem.absolute_path)
        raise TraceError(path, lines.of(problem.absolute_path), f"schema error at {where}: {problem.message}")
    if data["game"] not in GAMES:
        raise TraceError(path, lines.of(("game",)),
                         f"unknown game {data['game']!r} (known: {', '.join(sorted(GAMES))})")
    game = GAMES[data["game"]]
    ruleset = data.get("ruleset", game.info.default_ruleset)
    if ruleset not in game.info.rulesets:
        raise TraceError(path, lines.of(("ruleset",)),
                         f"unknown ruleset {ruleset!r} for {game.info.name} (known: {', '.join(game.info.rulesets)})")

    def make(i: int) -> Step:
        return _step(game, raw[i], i, lines, path)

    steps = Steps(count, make, eager=count <= eager)
    if count and count > eager:
        steps[0]  # the first step is checked at once, as a short trace's all are
    return Trace(path=path, game=data["game"], ruleset=ruleset, seed=data.get("seed"),
                 setup=data.get("setup", {}), title=data["title"], rules=tuple(data["rules"]),
                 source=data["source"], steps=steps, start=data.get("start"),
                 description=data.get("description", ""), lines=lines)


def _step(game: Any, raw: Any, i: int, lines: _Lines, path: str) -> Step:
    """Step ``i`` from its raw mapping, checked against the schema and, for an action expected to succeed,
    against the game's action forms. Raises TraceError naming the line."""
    if not _plainly_valid(raw):
        problem = _best(_STEP_VALIDATOR.iter_errors(raw))
        if problem is not None:
            at = ("steps", i, *problem.absolute_path)
            raise TraceError(path, lines.of(at), f"schema error at {yamlsafe.dotted(at)}: {problem.message}")
    line = lines.steps[i]
    kind = next((k for k in ("restart", "start", "request") if k in raw), "action")
    action = raw.get("action")
    if kind == "action" and "reject" not in raw:
        # A step that expects success must name a real action of the game; a step that expects a
        # rejection may hold anything, so traces can check that builds refuse garbage.
        try:
            game.parse_action(action)
        except RuleViolation as exc:
            raise TraceError(path, lines.of(("steps", i, "action")),
                             f"step {i + 1}: not a {game.info.title} action: {exc.message}") from None
    key = "reject" if "reject" in raw else "error" if "error" in raw else "expect"
    # A frozen dataclass's __init__ sets each field through object.__setattr__: filling the instance's dict at
    # once builds the same value in a quarter of the time, which counts for a trace of a million steps.
    step = object.__new__(Step)
    step.__dict__.update(number=i + 1, line=line, action=action, expect=raw.get("expect"),
                         reject=raw.get("reject"), error=raw.get("error"),
                         start=raw.get("start") or raw.get("request"), kind=kind, note=raw.get("note"),
                         views=raw.get("views"), legal=raw.get("legal"), rules=tuple(raw.get("rules", ())),
                         field_lines=_FieldLines(lines, i, key))
    return step


_LOADED: dict[tuple[str, int, int], Trace] = {}  # (path, size, mtime): a trace read once per process


def load_trace(path: str | Path) -> Trace:
    """Read and check one trace file (from a cache while the file is unchanged). Raises TraceError."""
    try:
        stat = os.stat(path)
    except OSError as exc:
        raise TraceError(str(path), None, f"cannot read: {yamlsafe.os_reason(exc)}") from None
    key = (str(path), stat.st_size, stat.st_mtime_ns)
    if key in _LOADED:
        return _LOADED[key]
    try:
        text = yamlsafe.read_text(path)
    except yamlsafe.YamlError as exc:
        raise TraceError(exc.path, exc.line, exc.reason) from None
    trace = parse_trace(text, str(path))
    if len(_LOADED) > 4096:
        _LOADED.clear()
    _LOADED[key] = trace
    return trace


class TraceErrors(TraceError):
    """Several traces that cannot be used: every one is named, one per line."""

    def __init__(self, errors: list[TraceError]) -> None:
        first = errors[0]
        super().__init__(first.path, first.line, first.reason)
        self.errors = errors
        self.args = ("\n".join(str(e) for e in errors) + f"\n({len(errors)} traces cannot be used)",)


def load_traces(paths: Iterable[str | Path]) -> list[Trace]:
    """Every trace in ``paths`` (files and folders). Raises TraceError for a path that is not there or
    holds no trace, and TraceErrors naming every bad trace (not only the first)."""
    paths = list(paths)
    found = find_traces(paths)
    if not found:
        raise TraceError(", ".join(map(str, paths)), None, "no traces (*.yaml, *.yml) found")
    traces, errors = [], []
    for p in found:
        try:
            traces.append(load_trace(p))
        except TraceError as exc:
            errors.append(exc)
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise TraceErrors(errors)
    return traces


def find_traces(paths: Iterable[str | Path]) -> list[Path]:
    """Expand files and folders (recursively, ``*.yaml``/``*.yml``) in a stable order. A path that is not
    there but names a bundled one is the bundled one: by its file (``traces/ludo/capture.yaml``, as reports name
    files) or by its check's name (``ludo/capture``, as ``verify`` names a trace check). Raises TraceError."""
    from .. import suite

    found: list[Path] = []
    for item in paths:
        p = Path(item)
        if not os.path.lexists(p):
            p = suite.resolve(p) or _by_check_name(p) or p
        if p.is_dir():
            for q in sorted(q for q in p.rglob("*") if q.suffix in (".yaml", ".yml") and not q.is_dir()):
                if not q.is_file():  # a FIFO, a device or a dangling link named like a trace: never opened
                    raise TraceError(str(q), None, "cannot read: " + _not_regular(q))
                found.append(q)
        elif p.is_file():
            found.append(p)
        else:
            try:
                os.stat(p)
                reason = "not a file or a folder"
            except OSError as exc:
                reason = "no such file or folder" if not os.path.lexists(p) else yamlsafe.os_reason(exc)
            raise TraceError(str(p), None, reason)
    return found


def _by_check_name(name: Path) -> Path | None:
    """The bundled trace a verify check name (``ludo/capture``: game, then the trace's name) stands for."""
    from .. import suite

    parts = name.parts
    if len(parts) != 2 or name.suffix in (".yaml", ".yml"):
        return None
    return suite.resolve(Path("traces", parts[0], parts[1] + ".yaml"))


def _not_regular(path: Path) -> str:
    from ..util.files import read_bytes

    try:
        read_bytes(path, 0)
    except OSError as exc:
        return yamlsafe.os_reason(exc)
    return "not a regular file"


class _TraceDumper(yaml.SafeDumper):
    """Short lists of plain values on one line (``[-1, -1, 12, 4]``, ``[3, 2]``), the rest in block style."""

    def represent_list(self, data: Iterable[Any]) -> yaml.SequenceNode:  # data: a list
        flat = all(not isinstance(x, (dict, list)) for x in data) and len(repr(data)) <= 60
        return self.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flat)


_TraceDumper.add_representer(list, _TraceDumper.represent_list)


def dump_trace(data: Mapping[str, JSON]) -> str:
    """A trace mapping as YAML text in the key order the format documents."""
    return yaml.dump(dict(data), Dumper=_TraceDumper, sort_keys=False, allow_unicode=True, width=110)
