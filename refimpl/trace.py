"""Load and check YAML action traces (format version 1, specs/trace-format.md).

Every problem is reported as a TraceError that names the file, the line and the reason, so the CLI
can print it without a traceback.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Iterable, Mapping

import jsonschema
import yaml

from .compare import flatten
from .games import GAMES, JSON, RuleViolation

SCHEMA: Mapping[str, Any] = json.loads(
    resources.files(__package__).joinpath("schemas", "trace-v1.schema.json").read_text(encoding="utf-8"))
_VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


class TraceError(Exception):
    """A trace that cannot be used: unreadable, malformed YAML, schema error, unknown game or action."""

    def __init__(self, path: str, line: int | None, reason: str) -> None:
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: {reason}")
        self.path, self.line, self.reason = path, line, reason


@dataclass(frozen=True)
class Step:
    """One step: an action, a restart or a new start; then the expected partial view, rejection code
    (an action) or protocol error code (a start)."""

    number: int  # 1-based, as reports count
    line: int
    action: JSON | None  # any JSON value for an action step (garbage included); None for a restart or start
    expect: Mapping[str, JSON] | None = None
    reject: str | None = None
    error: str | None = None  # a start the build must refuse with this protocol error code
    start: Mapping[str, JSON] | None = None  # the fields of a start step, or the whole request of a request step
    kind: str = "action"  # action | restart | start | request
    note: str | None = None
    views: Mapping[str, Mapping[str, JSON]] | None = None  # partial views by observer
    legal: list[JSON] | None = None  # the legal actions expected after the step, as a set
    field_lines: Mapping[str, int] = field(default_factory=dict, repr=False, compare=False)

    def line_of(self, path: str) -> int:
        """The line of the expectation at ``path`` (``scores.red``), else of the step itself."""
        while path:
            if path in self.field_lines:
                return self.field_lines[path]
            path = path.rpartition(".")[0] if "." in path else ""
        return self.line

    @property
    def is_restart(self) -> bool:
        return self.kind == "restart"

    def label(self) -> str:
        """A short human form of the step's request, for ledgers."""
        if self.kind == "restart":
            return "restart"
        if self.kind in ("start", "request"):
            return " ".join([self.kind] + flatten(dict(self.start or {})))
        if not isinstance(self.action, dict):
            return json.dumps(self.action)
        rest = {k: v for k, v in self.action.items() if k != "type"}
        return " ".join([str(self.action.get("type", "?"))] + flatten(rest))


@dataclass(frozen=True)
class Trace:
    path: str
    game: str
    ruleset: str
    seed: int | None
    setup: Mapping[str, JSON]
    title: str
    rules: tuple[str, ...]
    source: str
    steps: tuple[Step, ...]
    start: Mapping[str, JSON] | None = None
    description: str = ""
    data: Mapping[str, JSON] = field(default_factory=dict, repr=False, compare=False)

    @property
    def name(self) -> str:
        return Path(self.path).stem


def _line_map(node: yaml.Node, path: tuple[Any, ...] = (), out: dict | None = None) -> dict:
    """Map every path in a composed YAML document to its 1-based line."""
    out = {} if out is None else out
    out[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            _line_map(value, path + (key.value,), out)
    elif isinstance(node, yaml.SequenceNode):
        for i, value in enumerate(node.value):
            _line_map(value, path + (i,), out)
    return out


def _line_of(lines: Mapping[tuple, int], path: Iterable[Any]) -> int | None:
    parts = tuple(path)
    while parts not in lines and parts:
        parts = parts[:-1]
    return lines.get(parts)


def _dotted(path: Iterable[Any]) -> str:
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "<top>"


_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when PyYAML has it: 20x faster


def _compose_and_load(text: str) -> tuple[yaml.Node | None, Any]:
    """The YAML document's node tree (for line numbers) and its data, from one parse."""
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        return node, (loader.construct_document(node) if node is not None else None)
    finally:
        loader.dispose()


def parse_trace(text: str, path: str = "<trace>") -> Trace:
    """Parse and check a trace's text. Raises TraceError naming ``path`` and the line."""
    try:
        node, data = _compose_and_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        reason = getattr(exc, "problem", None) or str(exc)
        raise TraceError(path, mark.line + 1 if mark else None, f"malformed YAML: {reason}") from None
    if node is None:
        raise TraceError(path, None, "empty file: a trace is a YAML mapping")
    lines = _line_map(node)
    errors = sorted(_VALIDATOR.iter_errors(data), key=lambda e: (len(e.absolute_path), list(map(str, e.absolute_path))))
    if errors:
        err = jsonschema.exceptions.best_match(errors)
        where = _dotted(err.absolute_path)
        raise TraceError(path, _line_of(lines, err.absolute_path), f"schema error at {where}: {err.message}")
    if data["game"] not in GAMES:
        raise TraceError(path, lines[("game",)],
                         f"unknown game {data['game']!r} (known: {', '.join(sorted(GAMES))})")
    game = GAMES[data["game"]]
    ruleset = data.get("ruleset", game.info.default_ruleset)
    if ruleset not in game.info.rulesets:
        raise TraceError(path, lines[("ruleset",)],
                         f"unknown ruleset {ruleset!r} for {game.info.name} (known: {', '.join(game.info.rulesets)})")
    expect_lines: dict[int, list[tuple[tuple[Any, ...], int]]] = {}  # step -> its expect's paths, in one pass
    for p, n in lines.items():
        if len(p) > 3 and p[0] == "steps" and p[2] == "expect":
            expect_lines.setdefault(p[1], []).append((p, n))
    steps = []
    for i, raw in enumerate(data["steps"]):
        line = lines[("steps", i)]
        kind = next((k for k in ("restart", "start", "request") if k in raw), "action")
        action = raw.get("action")
        if kind == "action" and "reject" not in raw:
            # A step that expects success must name a real action of the game; a step that expects a
            # rejection may hold anything, so traces can check that builds refuse garbage.
            try:
                game.parse_action(action)
            except RuleViolation as exc:
                raise TraceError(path, lines.get(("steps", i, "action"), line),
                                 f"step {i + 1}: not a {game.info.title} action: {exc.message}") from None
        if "reject" in raw or "error" in raw:
            key = "reject" if "reject" in raw else "error"
            field_lines = {"rejected" if key == "reject" else "error": lines[("steps", i, key)]}
        else:
            field_lines = {_dotted(p[3:]): n for p, n in expect_lines.get(i, [])}
        steps.append(Step(number=i + 1, line=line, action=action, expect=raw.get("expect"),
                          reject=raw.get("reject"), note=raw.get("note"), views=raw.get("views"), legal=raw.get("legal"),
                          error=raw.get("error"), start=raw.get("start") or raw.get("request"), kind=kind,
                          field_lines=field_lines))
    return Trace(path=path, game=data["game"], ruleset=ruleset, seed=data.get("seed"),
                 setup=data.get("setup", {}), title=data["title"], rules=tuple(data["rules"]),
                 source=data["source"], steps=tuple(steps), start=data.get("start"),
                 description=data.get("description", ""), data=data)


_LOADED: dict[tuple[str, int, int], Trace] = {}  # (path, size, mtime): a trace read once per process


def load_trace(path: str | Path) -> Trace:
    """Read and check one trace file (from a cache while the file is unchanged). Raises TraceError."""
    try:
        stat = os.stat(path)
        key = (str(path), stat.st_size, stat.st_mtime_ns)
        if key in _LOADED:
            return _LOADED[key]
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise TraceError(str(path), None, f"cannot read: {exc}") from None
    trace = parse_trace(text, str(path))
    if len(_LOADED) > 4096:
        _LOADED.clear()
    _LOADED[key] = trace
    return trace


def find_traces(paths: Iterable[str | Path]) -> list[Path]:
    """Expand files and folders (recursively, ``*.yaml``/``*.yml``) in a stable order. Raises TraceError."""
    found: list[Path] = []
    for item in paths:
        p = Path(item)
        if p.is_dir():
            found.extend(sorted(q for q in p.rglob("*") if q.suffix in (".yaml", ".yml") and q.is_file()))
        elif p.is_file():
            found.append(p)
        else:
            raise TraceError(str(p), None, "no such file or folder")
    return found


class _TraceDumper(yaml.SafeDumper):
    """Short lists of plain values on one line (``[-1, -1, 12, 4]``, ``[3, 2]``), the rest in block style."""

    def represent_list(self, data: list[Any]) -> yaml.Node:
        flat = all(not isinstance(x, (dict, list)) for x in data) and len(repr(data)) <= 60
        return self.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flat)


_TraceDumper.add_representer(list, _TraceDumper.represent_list)


def dump_trace(data: Mapping[str, JSON]) -> str:
    """A trace mapping as YAML text in the key order the format documents."""
    return yaml.dump(dict(data), Dumper=_TraceDumper, sort_keys=False, allow_unicode=True, width=110)
