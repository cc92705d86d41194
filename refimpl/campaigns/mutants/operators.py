"""Single-point mutation operators over Python source (AST) and YAML data files.

A *site* is one place where one operator changes one thing: ``<=`` to ``<``, ``+`` to ``-``, ``4`` to
``5``, ``and`` to ``or``, a statement to ``pass``. Sites are found in a fixed order (the order of the
syntax tree), and each gets an id that does not depend on line numbers: the file, the enclosing
function, the operator, the code before and after, and which occurrence of that same change in that
function it is. So an edit elsewhere in a file does not rename the mutants a review judged equivalent.

Nothing inside the message of an error (the arguments after its code) is mutated: messages are free text
for people and the kit compares only codes. Nor is what an engine has only for the kit itself, which no
build is judged on: ``setup_of``, ``describe`` and ``rules_of`` (the fuzzer's shrinking and wording) and the
``field_rules`` table (the rules a message cites). Nor are declarations of types only: a ``Protocol``'s body (what a
game's topic modules read of its engine) never runs. Operators (after mutmut's and cosmic-ray's usual sets):

- ``compare``: ``<``/``<=``, ``>``/``>=``, ``==``/``!=``, ``in``/``not in``, ``is``/``is not`` swapped;
- ``arith``: ``+``/``-`` swapped, ``*`` to ``+``, ``//`` and ``/`` to ``*``, ``%`` to ``//``, bit
  operators swapped, unary minus dropped (in expressions and augmented assignments);
- ``constant``: an integer ``n`` to ``n + 1`` and ``n - 1``, ``True``/``False`` swapped, a string to
  another string (not docstrings or f-strings);
- ``boolean``: ``and``/``or`` swapped, ``not x`` to ``x``, an ``if``/``while``/ternary condition negated,
  ``min``/``max`` and ``any``/``all`` swapped;
- ``delete``: a simple statement replaced by ``pass``;
- ``data``: an integer or boolean in a YAML data file changed (``+ 1``, or negated).
"""

from __future__ import annotations

import ast
import copy
import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import yaml

OPERATORS = ("compare", "arith", "constant", "boolean", "delete", "data")

_COMPARE_SWAP: dict[type, type] = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq,
    ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
}
_ARITH_SWAP: dict[type, type] = {
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Add, ast.Div: ast.Mult, ast.FloorDiv: ast.Mult,
    ast.Mod: ast.FloorDiv, ast.BitXor: ast.BitOr, ast.BitOr: ast.BitAnd, ast.BitAnd: ast.BitOr,
    ast.LShift: ast.RShift, ast.RShift: ast.LShift, ast.Pow: ast.Mult,
}
_CALL_SWAP = {"min": "max", "max": "min", "any": "all", "all": "any"}
# Calls whose arguments after the first are free-text messages (the first is a stable code).
_MESSAGE_CALLS = {"IllegalAction", "MalformedAction", "BadSetup", "RuleViolation", "RequestError",
                  "ValueError", "KeyError", "TypeError", "AssertionError"}
# What an engine has for the kit alone (the fuzzer's set-ups and wording, the rules a message cites).
_KIT_ONLY_FUNCTIONS = {"setup_of", "describe", "rules_of"}
_KIT_ONLY_KEYWORDS = {"field_rules"}
_SIMPLE_STATEMENTS = (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return, ast.Raise,
                      ast.Continue, ast.Break, ast.Delete, ast.Assert)


@dataclass(frozen=True)
class Site:
    """One mutation in one file. ``path`` locates the node in the file's syntax tree (for data files:
    the byte span of the scalar)."""

    file: str  # path relative to the package root's parent, with / separators
    qualname: str  # enclosing class/function, "<module>" at top level, the YAML key path for data
    operator: str
    line: int
    col: int
    before: str
    after: str
    occurrence: int  # how many earlier sites share (qualname, operator, before, after)
    path: tuple[Any, ...]  # AST: (field, index) steps plus the mutation key; data: (start, end)

    @property
    def id(self) -> str:
        text = "|".join(map(str, (self.file, self.qualname, self.operator, self.before, self.after,
                                   self.occurrence)))
        return hashlib.sha1(text.encode("utf-8")).hexdigest()[:10]

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"

    def describe(self) -> str:
        return f"{self.where} {self.qualname}: {self.before} -> {self.after}"


# --- Python --------------------------------------------------------------------------------------

def _children(node: ast.AST) -> Iterator[tuple[tuple[Any, ...], ast.AST]]:
    for name, value in ast.iter_fields(node):
        if isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, ast.AST):
                    yield (name, i), item
        elif isinstance(value, ast.AST):
            yield (name, None), value


def _is_docstring(parent: ast.AST, node: ast.AST) -> bool:
    if not isinstance(parent, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    body = parent.body
    return (bool(body) and body[0] is node and isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str))


def _is_dunder_all(node: ast.AST) -> bool:
    """``__all__ = [...]``: the names ``import *`` takes, never an answer to a request."""
    return isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)


def _call_name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Name):
            return node.func.id
        if isinstance(node.func, ast.Attribute):
            return node.func.attr
    return None


class _Finder:
    """Walks a module and lists every site, in tree order."""

    def __init__(self, file: str, source: str) -> None:
        self.file, self.source = file, source
        self.sites: list[Site] = []
        self._seen: dict[tuple[str, str, str, str], int] = {}

    def add(self, path: tuple[Any, ...], qualname: str, operator: str, node: ast.AST, key: Any,
            before: str, after: str) -> None:
        count_key = (qualname, operator, before, after)
        n = self._seen.get(count_key, 0)
        self._seen[count_key] = n + 1
        self.sites.append(Site(self.file, qualname, operator, getattr(node, "lineno", 0),
                               getattr(node, "col_offset", 0), before, after, n, path + (key,)))

    def walk(self, node: ast.AST, path: tuple[Any, ...], qualname: str, skip_strings: bool = False,
             annotation: bool = False, in_function: bool = False) -> None:
        if isinstance(node, (ast.Import, ast.ImportFrom)) or _is_dunder_all(node):
            return
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in _KIT_ONLY_FUNCTIONS:
            return
        if isinstance(node, ast.keyword) and node.arg in _KIT_ONLY_KEYWORDS:
            return
        if isinstance(node, ast.ClassDef) and any(ast.unparse(b) in ("Protocol", "typing.Protocol")
                                                  for b in node.bases):
            return
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            qualname = node.name if qualname == "<module>" else f"{qualname}.{node.name}"
            in_function = isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or in_function
        if not annotation:
            self.visit(node, path, qualname, skip_strings, in_function)
        for (name, index), child in _children(node):
            child_path = path + ((name, index),)
            if _is_docstring(node, child):
                continue
            if _call_name(node) in _MESSAGE_CALLS and not (name == "args" and index == 0):
                continue  # the message of an error is free text for people: only its code is compared
            # Type annotations and decorators never change an answer; leave them alone.
            is_annotation = annotation or name in ("annotation", "returns", "decorator_list")
            no_strings = skip_strings or isinstance(node, ast.JoinedStr)
            self.walk(child, child_path, qualname, no_strings, is_annotation, in_function)

    def visit(self, node: ast.AST, path: tuple[Any, ...], qualname: str, skip_strings: bool,
              in_function: bool) -> None:
        show = lambda n: ast.unparse(n)  # noqa: E731
        if isinstance(node, ast.Compare):
            for i, op in enumerate(node.ops):
                swap = _COMPARE_SWAP.get(type(op))
                if swap is not None:
                    mutated = copy.deepcopy(node)
                    mutated.ops[i] = swap()
                    self.add(path, qualname, "compare", node, ("op", i), show(node), show(mutated))
        elif isinstance(node, (ast.BinOp, ast.AugAssign)):
            swap = _ARITH_SWAP.get(type(node.op))
            if swap is not None:
                swapped = copy.deepcopy(node)
                swapped.op = swap()
                self.add(path, qualname, "arith", node, ("op",), show(node), show(swapped))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            if not (isinstance(node.operand, ast.Constant)):  # -1 is a constant: the constant operator has it
                self.add(path, qualname, "arith", node, ("drop-minus",), show(node), show(node.operand))
        elif isinstance(node, ast.BoolOp):
            other = ast.Or() if isinstance(node.op, ast.And) else ast.And()
            flipped = copy.deepcopy(node)
            flipped.op = other
            self.add(path, qualname, "boolean", node, ("boolop",), show(node), show(flipped))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            self.add(path, qualname, "boolean", node, ("drop-not",), show(node), show(node.operand))
        elif isinstance(node, ast.Constant):
            value = node.value
            if isinstance(value, bool):
                self.add(path, qualname, "constant", node, ("bool",), repr(value), repr(not value))
            elif isinstance(value, int):
                for delta in (1, -1):
                    self.add(path, qualname, "constant", node, ("int", delta), repr(value), repr(value + delta))
            elif isinstance(value, str) and not skip_strings:
                self.add(path, qualname, "constant", node, ("str",), repr(value), repr(_other_string(value)))
        if isinstance(node, (ast.If, ast.While, ast.IfExp)):
            self.add(path, qualname, "boolean", node, ("negate",), f"if {show(node.test)}",
                     f"if not ({show(node.test)})")
        name = _call_name(node)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and name in _CALL_SWAP:
            self.add(path, qualname, "boolean", node, ("call",), f"{name}(...)", f"{_CALL_SWAP[name]}(...)")
        if isinstance(node, _SIMPLE_STATEMENTS) and in_function:
            self.add(path, qualname, "delete", node, ("delete",), show(node).splitlines()[0], "pass")


def _other_string(value: str) -> str:
    return "XX" + value + "XX" if value else "XX"


def python_sites(file: str, source: str) -> list[Site]:
    """Every mutation site of a Python module, in tree order."""
    finder = _Finder(file, source)
    finder.walk(ast.parse(source), (), "<module>")
    return finder.sites


def _locate(tree: ast.AST, steps: tuple[Any, ...]) -> tuple[ast.AST, Any, Any]:
    """(parent, field, index) of the node at ``steps`` (a path of (field, index) pairs)."""
    parent: ast.AST = tree
    for name, index in steps[:-1]:
        value = getattr(parent, name)
        parent = value[index] if index is not None else value
    name, index = steps[-1]
    return parent, name, index


def mutate_python(source: str, site: Site) -> str:
    """The module's source with ``site`` applied (unparsed: comments are gone, behaviour is not)."""
    tree = ast.parse(source)
    *steps, key = site.path
    if steps:
        parent, name, index = _locate(tree, tuple(steps))
        node = getattr(parent, name) if index is None else getattr(parent, name)[index]
    else:
        parent, name, index, node = None, None, None, tree

    def put(new: ast.AST) -> None:
        assert parent is not None
        if index is None:
            setattr(parent, name, new)
        else:
            getattr(parent, name)[index] = new

    kind = key[0]
    if kind == "op" and isinstance(node, ast.Compare):
        node.ops[key[1]] = _COMPARE_SWAP[type(node.ops[key[1]])]()
    elif kind == "op":
        node.op = _ARITH_SWAP[type(node.op)]()
    elif kind in ("drop-minus", "drop-not"):
        put(node.operand)
    elif kind == "boolop":
        node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
    elif kind == "bool":
        node.value = not node.value
    elif kind == "int":
        node.value = node.value + key[1]
    elif kind == "str":
        node.value = _other_string(node.value)
    elif kind == "negate":
        node.test = ast.UnaryOp(op=ast.Not(), operand=node.test)
    elif kind == "call":
        node.func = ast.Name(id=_CALL_SWAP[node.func.id], ctx=ast.Load())
    elif kind == "delete":
        put(ast.Pass())
    else:
        raise ValueError(f"unknown mutation {key!r}")
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


# --- YAML data -----------------------------------------------------------------------------------

def data_sites(file: str, text: str) -> list[Site]:
    """Every integer and boolean scalar of a YAML data file: integers + 1, booleans negated."""
    sites: list[Site] = []
    seen: dict[tuple[str, str, str], int] = {}

    def walk(node: yaml.Node, keys: tuple[str, ...]) -> None:
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                walk(value, keys + (str(key.value),))
        elif isinstance(node, yaml.SequenceNode):
            for i, value in enumerate(node.value):
                walk(value, keys + (str(i),))
        elif isinstance(node, yaml.ScalarNode) and node.style is None:
            value = yaml.safe_load(node.value) if node.value else None
            if isinstance(value, bool):
                after = "false" if value else "true"
            elif isinstance(value, int):
                after = str(value + 1)
            else:
                return
            where = ".".join(keys)
            n = seen.get((where, node.value, after), 0)
            seen[(where, node.value, after)] = n + 1
            sites.append(Site(file, where, "data", node.start_mark.line + 1, node.start_mark.column, node.value,
                              after, n, (node.start_mark.index, node.end_mark.index)))

    root = yaml.compose(text, Loader=yaml.SafeLoader)
    if root is not None:
        walk(root, ())
    return sites


def mutate_data(text: str, site: Site) -> str:
    start, end = site.path
    assert text[start:end] == site.before, (text[start:end], site.before)
    return text[:start] + site.after + text[end:]


def mutate(text: str, site: Site) -> str:
    """``text`` (the file the site was found in) with the site applied."""
    return mutate_data(text, site) if site.operator == "data" else mutate_python(text, site)
