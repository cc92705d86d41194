"""The map of the code held to the code (docs/architecture.md, issue 44): what each room may import when its
modules are imported, and the size rule (no module over 500 lines, no function over 80). Imports inside a
function (the few that go across, where the function needs them) and under ``TYPE_CHECKING`` are not import-time
edges and are not held here. The modules and functions over the size rule today are listed by name: the list may
only shrink."""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "refimpl"

BASE = {"errors", "status"}  # the two contracts every room reads
ALLOWED: dict[str, set[str]] = {  # room -> the rooms its modules may import at import time (besides its own)
    "errors": set(),
    "status": set(),
    "games": set(),
    # a game's unit's parts (refimpl/games/<game>/kit/<part>.py): written in the rooms' vocabularies, imported by
    # nothing at import time (games/registry.py's Part loads them when a room first asks), so no room above them
    "units": BASE | {"games", "util", "suite", "rulebook", "harness", "scenarios", "reports", "campaigns"},
    "util": {"errors"},
    "page": BASE | {"util"},  # the bridge to a web page: a build process of the kit's own (issue 46)
    "suite": BASE | {"util"},
    "rulebook": BASE | {"games", "suite", "util"},
    "harness": BASE | {"games", "util", "suite", "rulebook", "version"},
    "scenarios": BASE | {"games", "util", "suite", "harness", "rulebook"},
    "reports": BASE | {"games", "util", "suite", "harness", "rulebook", "scenarios", "version"},
    "verify": BASE | {"games", "util", "suite", "harness", "rulebook", "scenarios", "reports"},
    "campaigns": BASE | {"games", "util", "suite", "harness", "rulebook", "scenarios", "reports", "verify"},
    "commands": BASE | {"games", "util", "suite", "harness", "rulebook", "scenarios", "reports", "verify",
                        "campaigns", "version", "page"},
    "cli": BASE | {"commands", "harness", "reports", "suite", "version"},
    "pytest_plugin": BASE | {"version"},
    "pytest_suite": BASE | {"games", "util", "suite", "harness", "rulebook", "scenarios", "reports", "verify",
                            "page"},
    "__main__": {"cli"},
    "__init__": set(),
}
MAX_MODULE, MAX_FUNCTION = 500, 80
OVER: dict[str, str] = {  # name -> why; the list may only shrink (a name gone from it must stay under the rule)
}


def room(module: str) -> str:
    """``refimpl.harness.protocol`` -> ``harness``; ``refimpl`` itself (its ``__version__``) -> ``version``; a part
    of a game's unit (``refimpl.games.ludo.kit.picture``) -> ``units`` (the unit itself, ``refimpl.games.ludo.kit``,
    is the games': it names its parts and imports none of them)."""
    parts = module.split(".")
    if parts[1:2] == ["games"] and len(parts) >= 5 and parts[3] == "kit":
        return "units"
    return "version" if parts == ["refimpl"] else parts[1]


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_time_imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of the kit's modules ``path`` imports when it is imported: module-level statements, and
    those inside module-level if/try blocks but for ``if TYPE_CHECKING``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = module_name(path).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    found: list[tuple[int, str]] = []

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                continue
            if isinstance(node, (ast.If, ast.Try)):
                visit(node.body)
                visit(getattr(node, "orelse", []))
                for handler in getattr(node, "handlers", []):
                    visit(handler.body)
            elif isinstance(node, ast.Import):
                found.extend((node.lineno, a.name) for a in node.names if a.name.split(".")[0] == "refimpl")
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package[:len(package) - node.level + 1]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                if target.split(".")[0] != "refimpl":
                    continue
                if node.module is None or target == "refimpl":  # from . import x, from .. import x: submodules
                    found.extend((node.lineno, f"{target}.{a.name}" if target != "refimpl" or a.name not in
                                  ("__version__", "PROTOCOL_VERSION") else target) for a in node.names)
                else:
                    found.append((node.lineno, target))

    visit(tree.body)
    return found


def modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def test_each_room_imports_only_what_the_map_allows() -> None:
    wrong = []
    for path in modules():
        mine = room(module_name(path)) if module_name(path) != "refimpl" else "__init__"
        for line, target in import_time_imports(path):
            theirs = room(target)
            if theirs != mine and theirs not in ALLOWED[mine]:
                wrong.append(f"{path.relative_to(ROOT)}:{line} ({mine}) imports {target} ({theirs})")
    assert not wrong, "imports the map (docs/architecture.md) does not allow:\n" + "\n".join(wrong)


def test_nothing_imports_a_games_units_parts_at_import_time() -> None:
    """A unit's parts are loaded through ``games.registry.Part`` when a room asks: a module that imported one when
    imported would import every room with the engines. (Tests may import them; the kit may not.)"""
    wrong = [f"{path.relative_to(ROOT)}:{line} imports {target}" for path in modules()
             if room(module_name(path)) != "units"
             for line, target in import_time_imports(path) if room(target) == "units"]
    assert not wrong, "\n".join(wrong)


def test_no_topic_module_of_an_engine_imports_the_engine_back() -> None:
    """One shape of engine (issue 44): a game's topic modules are functions over a protocol its model declares, so
    none imports the game's ``engine`` module, even for its types; only the package and its unit do."""
    wrong = []
    for engine in sorted((PACKAGE / "games").glob("*/engine.py")):
        for path in sorted(engine.parent.glob("*.py")):
            if path.name in ("engine.py", "__init__.py"):
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module == "engine":
                    wrong.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not wrong, "topic modules importing their engine back: " + ", ".join(wrong)


def test_no_module_over_500_lines_and_no_function_over_80_but_those_listed() -> None:
    over = {}
    for path in modules():
        rel = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8")
        if text.count("\n") > MAX_MODULE:
            over[rel] = text.count("\n")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MAX_FUNCTION:
                    over[f"{rel}::{node.name}"] = length
    unlisted = sorted(set(over) - set(OVER))
    assert not unlisted, f"over {MAX_MODULE} lines a module or {MAX_FUNCTION} a function: " + \
        ", ".join(f"{k} ({over[k]})" for k in unlisted)
    fixed = sorted(set(OVER) - set(over))
    assert not fixed, f"now within the rule: take them off OVER: {fixed}"


def _circles(imports: Callable[[Path], list[tuple[int, str]]]) -> list[str]:
    """Every circle of the modules' imports as ``imports`` finds them (a package's ``__init__`` importing its own
    modules is the package, not a circle)."""
    names = {module_name(p): p for p in modules()}
    edges: dict[str, set[str]] = {}
    for name, path in names.items():
        targets = set()
        for _, target in imports(path):
            while target not in names and "." in target:
                target = target.rsplit(".", 1)[0]  # a name imported from a module: the module
            if target in names and target != name and not name.startswith(target + "."):
                targets.add(target)
        edges[name] = targets
    circles = []
    state: dict[str, int] = {}

    def walk(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(edges[node]):
            if state.get(nxt) == 1:
                circles.append(" -> ".join(trail[trail.index(nxt):] + [nxt]))
            elif nxt not in state:
                walk(nxt, [*trail, nxt])
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            walk(node, [node])
    return circles


def every_import(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every import of the kit's modules in ``path``: at import time, inside functions and under
    ``TYPE_CHECKING`` alike."""
    here = module_name(path).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, a.name) for a in node.names if a.name.split(".")[0] == "refimpl")
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else [])) if node.level else node.module or ""
            if target.split(".")[0] == "refimpl":
                found.append((node.lineno, target))
                found.extend((node.lineno, f"{target}.{a.name}") for a in node.names)
    return found


def test_no_module_imports_itself_back_at_import_time() -> None:
    circles = _circles(import_time_imports)
    assert not circles, "import-time circles:\n" + "\n".join(circles)


def test_no_circle_of_modules_even_through_the_imports_inside_functions() -> None:
    """Issue 44: no circle at all, counting the imports a function makes when it runs and those made for types
    alone (the rooms may still import across inside a function: docs/architecture.md names those edges)."""
    circles = _circles(every_import)
    assert not circles, "circles:\n" + "\n".join(circles)
