"""The kit's JavaScript adapter module (refimpl/page/js/refimpl-adapter.mjs, written by ``refimpl adapter js``) and
the skeletons built on it (issue 46): the skeletons carry the shipped module as it is, run as ES modules in a
"type": "module" project and a CommonJS one, and can declare every capability the protocol names; the module
keeps a game's statistics as the protocol counts them."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.node import missing_reason

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "refimpl" / "page" / "js" / "refimpl-adapter.mjs"
SKELETON_JS = ROOT / "examples" / "skeleton-js"
SKELETON_PY = ROOT / "examples" / "skeleton-python"
# How each skeleton declares each capability the protocol names: (the file, the text as shipped, the text that
# declares it); None where it declares it as shipped.
SWITCHES: dict[str, dict[str, tuple[str, str, str] | None]] = {
    "legal": {"js": None, "python": None},
    "stats": {"js": None, "python": None},
    "explicit-chance": {"js": ("game.mjs", "explicitChance: false,", "explicitChance: true,"),
                        "python": ("game.py", "EXPLICIT_CHANCE = False", "EXPLICIT_CHANCE = True")},
}


def _node() -> None:
    reason = missing_reason("the JavaScript adapter")
    if reason is not None:
        pytest.skip(reason)


def _talk(command: list[str], requests: list[dict[str, Any]], cwd: Path) -> list[dict[str, Any]]:
    done = subprocess.run(command, input="".join(json.dumps(r) + "\n" for r in requests), capture_output=True,
                          text=True, timeout=20, cwd=cwd)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def documented_capabilities() -> set[str]:
    """The capabilities specs/protocol.md names in its `hello` section."""
    text = (ROOT / "specs" / "protocol.md").read_text()
    hello = text[text.index("### `hello`"):text.index("### `start`")]
    part = hello[hello.index("`capabilities`: optional features."):]
    part = part[:part.index("\n- ")]  # the capabilities' bullet alone
    return set(re.findall(r"`([a-z][a-z-]+)`: the build", part))


def test_the_skeletons_and_the_example_page_carry_the_shipped_module() -> None:
    for copy in (SKELETON_JS / "refimpl-adapter.mjs", ROOT / "examples" / "web-lantern-quay" / "refimpl-adapter.mjs"):
        assert copy.read_bytes() == SHIPPED.read_bytes(), f"{copy} differs: refimpl adapter js --out {copy.parent}"


@pytest.mark.parametrize("kind", ["module", "commonjs"])
def test_the_js_skeleton_runs_as_an_es_module_in_either_kind_of_project(tmp_path: Path, kind: str) -> None:
    _node()
    project = tmp_path / "project"
    shutil.copytree(SKELETON_JS, project)
    (project / "package.json").write_text(json.dumps({"name": "p", "type": kind, "private": True}))
    answers = _talk(["node", "main.mjs"], [{"id": 0, "op": "hello", "protocol": 1}, {"id": 1, "op": "stats"},
                                           {"id": 2, "op": "quit"}], project)
    assert answers[0]["capabilities"] == ["legal", "stats"] and answers[1] == {"id": 1, "ok": True, "stats": {}}


@pytest.mark.parametrize("language", ["js", "python"])
def test_every_capability_the_protocol_names_a_skeleton_can_declare(tmp_path: Path, language: str) -> None:
    documented = documented_capabilities()
    assert {"legal", "stats", "explicit-chance"} <= documented, documented
    missing = documented - set(SWITCHES)
    assert not missing, f"specs/protocol.md names capabilities the skeletons lack: {sorted(missing)}"
    if language == "js":
        _node()
    source = SKELETON_JS if language == "js" else SKELETON_PY
    command = ["node", "main.mjs"] if language == "js" else [sys.executable, "adapter.py"]
    for capability in sorted(documented):
        copy = tmp_path / f"{language}-{capability}"
        shutil.copytree(source, copy, ignore=shutil.ignore_patterns("__pycache__"))
        switch = SWITCHES[capability][language]
        if switch is not None:
            name, shipped, declared = switch
            text = (copy / name).read_text()
            assert shipped in text, f"{name} no longer has {shipped!r}"
            (copy / name).write_text(text.replace(shipped, declared))
        hello = _talk(command, [{"id": 0, "op": "hello", "protocol": 1}], copy)[0]
        assert capability in hello["capabilities"], (language, capability, hello)


RECORDING_GAME = """
import { createHandler, serveStdio, reject } from './refimpl-adapter.mjs';
const game = {
  name: 'ludo', rulesets: ['v1'],
  start: (ruleset, seed, setup) => (setup.bad ? reject('bad-request', 'no') : { over: null }),
  apply: (state, action) => (action.type === 'win' ? { over: action.who } : reject('unknown-action', 'no')),
  view: (state) => ({ over: state.over }),
  result: (state) => state.over,
  statistics: { keys: ['played', 'won', 'lost'],
                record: (r, result) => ({ played: r.played + 1, won: r.won + (result === 'human'),
                                          lost: r.lost + (result !== null && result !== 'human') }) },
};
serveStdio(createHandler([game], { build: { name: 'recording' } }));
"""


def test_the_module_counts_a_game_once_when_it_ends_or_is_left(tmp_path: Path) -> None:
    """A game counts when it ends, or unfinished when a start or restart leaves it; a refused start leaves
    nothing; the game in progress is not counted yet (specs/protocol.md, "`stats`")."""
    _node()
    shutil.copy(SHIPPED, tmp_path / "refimpl-adapter.mjs")
    (tmp_path / "main.mjs").write_text(RECORDING_GAME)

    def start(i: int, bad: bool = False) -> dict[str, Any]:
        return {"id": i, "op": "start", "game": "ludo", "ruleset": "v1", "seed": None, "setup": {"bad": bad}}

    requests = [{"id": 0, "op": "hello", "protocol": 1}, {"id": 1, "op": "stats"}, start(2),
                {"id": 3, "op": "apply", "action": {"type": "win", "who": "human"}}, {"id": 4, "op": "stats"},
                start(5), start(6, bad=True), {"id": 7, "op": "stats"}, {"id": 8, "op": "restart"},
                {"id": 9, "op": "stats"}, {"id": 10, "op": "apply", "action": {"type": "win", "who": "cpu1"}},
                {"id": 11, "op": "apply", "action": {"type": "nope"}}, {"id": 12, "op": "stats"},
                {"id": 13, "op": "apply", "action": 5}]
    answers = {a["id"]: a for a in _talk(["node", "main.mjs"], requests, tmp_path)}
    played = {i: tuple(answers[i]["stats"]["ludo"].values()) for i in (1, 4, 7, 9, 12)}
    assert played == {1: (0, 0, 0), 4: (1, 1, 0), 7: (1, 1, 0), 9: (2, 1, 0), 12: (3, 1, 1)}
    assert answers[6]["error"]["code"] == "bad-request" and answers[11]["rejected"]["code"] == "unknown-action"
    assert answers[13]["rejected"]["code"] == "malformed-action"
