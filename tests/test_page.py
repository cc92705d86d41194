"""A web page as the build (issue 46): ``--page`` speaks the protocol to ``window.refimpl.handle`` in the system's
headless Chromium through the bridge (refimpl/page). The example page conforms, its broken copy fails with the
rule named; pages that throw, stay silent, hang, navigate away or flood their console break the build (exit 3)
with the cause said, and leave no browser running; nothing outside the page's origin is fetched."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from refimpl.util.browser import BrowserMissing, chromium, playwright
from tests.marks import left

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "web-lantern-quay"
HELLO = ("if (req.op === 'hello') return {id: req.id, ok: true, protocol: 1, build: {name: 'test'}, "
         "games: {'lantern-quay': ['v1']}, capabilities: []};")


@pytest.fixture(autouse=True)
def _browser() -> None:
    try:
        playwright()
        chromium()
    except BrowserMissing as exc:
        pytest.skip(f"{exc} (.ci/run installs both)")


def refimpl(*args: str, cwd: Path = ROOT, mark: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "REFIMPL_TEST_MARK": mark} if mark else None
    return subprocess.run([sys.executable, "-m", "refimpl", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300, env=env)


def _page(tmp_path: Path, name: str, script: str) -> Path:
    page = tmp_path / f"{name}.html"
    page.write_text(f"<!DOCTYPE html><html><body><script>{script}</script></body></html>")
    return page


def test_the_example_page_conforms_through_page_from_a_relative_path() -> None:
    done = refimpl("verify", "--page", "web-lantern-quay", "--game", "lantern-quay", "--no-explore",
                   "--format", "json", cwd=ROOT / "examples")
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    doc = json.loads(done.stdout)
    assert doc["build"].startswith("lantern-quay-page") and doc["summary"]["passed"] > 60


def test_the_broken_copy_fails_with_the_rule_named_and_the_pages_screen_beside(tmp_path: Path) -> None:
    done = refimpl("verify", "--page", str(EXAMPLE / "broken.html"), "--game", "lantern-quay", "--no-explore",
                   "--no-scenarios", "--json", "r.json", "--html", "r.html", cwd=tmp_path)
    assert done.returncode == 1, done.stderr[-2000:]
    doc = json.loads((tmp_path / "r.json").read_text())
    rules = {f["rule"] for c in doc["checks"] if c["status"] == "failed" for f in c["failure"]["fields"]}
    assert "LQ-SALV-1" in rules, rules
    pictured = [c for c in doc["checks"] if c.get("screens")]
    assert pictured and all(c["status"] == "failed" for c in pictured)
    for c in pictured:
        assert [Path(p).name.split("-")[1] for p in c["screens"]] == ["before.png", "after.png"]
        assert all((tmp_path / p).read_bytes().startswith(b"\x89PNG") for p in c["screens"])
    html = (tmp_path / "r.html").read_text()
    assert html.count('class="screen"') == 2 * len(pictured) and "the page after the step: its own screen" in html


CAUSES = {
    "throws": ("console.log('starting'); throw new Error('boom at load');", "the page threw while loading: "),
    "silent": ("document.title = 'nothing here';", "did not set window.refimpl"),
    "hangs": ("window.refimpl = {handle(req) {" + HELLO + " return new Promise(() => {});}};", "hung"),
    "leaves": ("window.refimpl = {handle(req) {" + HELLO + " location.href = 'about:blank'; "
               "return new Promise(() => {});}};", "navigated away"),
    "floods": ("window.refimpl = {handle(req) {" + HELLO + " for (let i = 0; i < 5000; i++) console.log('x' + i);"
               " return {id: req.id, ok: true, state: {}};}};", "flooded its console"),
    "fails-in-handle": ("window.refimpl = {handle(req) {" + HELLO + " throw new TypeError('no such thing');}};",
                        "the page threw while answering: "),
}


@pytest.mark.parametrize("name", sorted(CAUSES))
def test_a_page_that_misbehaves_is_a_broken_build_and_leaves_no_browser(tmp_path: Path, name: str) -> None:
    script, cause = CAUSES[name]
    mark = f"{name}-{os.getpid()}"
    done = refimpl("verify", "--page", str(_page(tmp_path, name, script)), "--game", "lantern-quay",
                   "--no-scenarios", "--no-explore", "-k", "start-and-forms", "--timeout", "10", mark=mark)
    assert done.returncode == 3, done.stdout[-2000:]
    assert cause in done.stdout, done.stdout[-2000:]
    assert left(mark) == [], "a process of the run (a browser, the bridge) is still running"


def test_nothing_outside_the_pages_origin_is_fetched(tmp_path: Path) -> None:
    script = ("let outcome = 'pending'; fetch('https://example.com/x.js').then(() => { outcome = 'fetched'; },"
              " () => { outcome = 'refused'; });"
              "window.refimpl = {async handle(req) { await new Promise((r) => setTimeout(r, 300));"
              " return {id: req.id, ok: true, protocol: 1, build: {name: outcome}, games: {}, capabilities: []};}};")
    page = _page(tmp_path, "fetches", script)
    lines = '{"id":0,"op":"hello","protocol":1}\n{"id":1,"op":"quit"}\n'
    done = subprocess.run([sys.executable, "-m", "refimpl.page", str(page)], input=lines, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[0])["build"]["name"] == "refused"


def test_a_page_that_conforms_but_asks_outside_its_origin_is_told(tmp_path: Path) -> None:
    """The example page with a script that fetches from outside its origin: it still conforms (the fetch is
    refused), and the report warns of it."""
    page = _variant(tmp_path, "fetches", lambda text: text.replace(
        "</body>", "<script>fetch('https://example.com/track.js').catch(() => {});</script></body>"))
    done = refimpl("verify", "--page", str(page), "--game", "lantern-quay", "--no-scenarios", "--no-explore",
                   "--format", "json")
    assert done.returncode == 0, done.stdout[-2000:]
    warnings = json.loads(done.stdout)["warnings"]
    assert any("https://example.com/track.js" in w and "refused" in w for w in warnings), warnings


def test_a_missing_page_or_both_impl_and_page_are_bad_input(tmp_path: Path) -> None:
    done = refimpl("verify", "--page", str(tmp_path / "nothing.html"))
    assert done.returncode == 2 and "no such file or folder" in done.stderr
    # --impl beside --page: two builds side by side (docs/many-builds.md), so a one-build option is refused
    done = refimpl("verify", "--page", str(EXAMPLE), "--impl", "true", "--badges", str(tmp_path / "b"))
    assert done.returncode == 2 and "--badges judges one build" in done.stderr
    done = refimpl("verify", "--page", str(tmp_path))
    assert done.returncode == 2 and "no index.html" in done.stderr


def test_the_bridge_takes_a_screenshot_of_the_page(tmp_path: Path) -> None:
    shot = tmp_path / "shot.png"
    lines = "\n".join(json.dumps(r) for r in (
        {"id": 0, "op": "hello", "protocol": 1},
        {"id": 1, "op": "start", "game": "lantern-quay", "ruleset": "v1", "seed": None, "setup": {}},
        {"id": 2, "op": "x-refimpl-screenshot", "path": str(shot)}, {"id": 3, "op": "quit"})) + "\n"
    done = subprocess.run([sys.executable, "-m", "refimpl.page", str(EXAMPLE)], input=lines, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert [json.loads(line)["id"] for line in done.stdout.splitlines()] == [0, 1, 2, 3]
    assert shot.read_bytes().startswith(b"\x89PNG")


def test_the_example_pages_adapter_is_the_one_the_kit_writes(tmp_path: Path) -> None:
    done = refimpl("adapter", "js", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "refimpl-adapter.mjs").read_bytes() == (EXAMPLE / "refimpl-adapter.mjs").read_bytes()
    assert (tmp_path / "refimpl-adapter.d.ts").exists()


def _variant(tmp_path: Path, name: str, change: Callable[[str], str]) -> Path:
    """A copy of the example page with ``change`` made to its text, beside the kit's adapter."""
    (tmp_path / "refimpl-adapter.mjs").write_bytes((EXAMPLE / "refimpl-adapter.mjs").read_bytes())
    page = tmp_path / f"{name}.html"
    text = (EXAMPLE / "index.html").read_text()
    assert change(text) != text
    page.write_text(change(text))
    return page


def test_level_play_judges_refusals_but_not_their_codes(tmp_path: Path) -> None:
    """A page that refuses every illegal action with a code of its own conforms at level play (not at full); one
    that accepts a die on a taken slot fails at both; every report names the level."""
    codes = _variant(tmp_path, "codes", lambda text: re.sub(r"reject\('[a-z-]+'", "reject('nope'", text))
    illegal = _variant(tmp_path, "illegal", lambda text: text.replace(
        "if (state.placed[action.slot] !== null) return reject('slot-taken', `${action.slot} holds a die`);", ""))
    quick = ("--game", "lantern-quay", "--no-scenarios", "--no-explore")
    played = refimpl("verify", "--page", str(codes), *quick, "--level", "play", "--format", "json")
    assert played.returncode == 0, played.stdout[-3000:]
    assert json.loads(played.stdout)["level"] == "play"
    full = refimpl("verify", "--page", str(codes), *quick)
    assert full.returncode == 1 and "Level: full" in full.stdout
    wrong = refimpl("verify", "--page", str(illegal), *quick, "--level", "play")
    assert wrong.returncode == 1 and "DOES NOT CONFORM at level play" in wrong.stdout
    assert "LQ-PLACE-1" in wrong.stdout or "slot" in wrong.stdout


def test_pytest_judges_a_page_too(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--page", str(EXAMPLE),
                           "--kit-games", "lantern-quay", "-k", "start or forms"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and " passed" in done.stdout, done.stdout[-2000:]


def test_fuzz_finds_the_broken_copy_and_writes_a_reproducer(tmp_path: Path) -> None:
    done = refimpl("fuzz", "--page", str(EXAMPLE / "broken.html"), "--game", "lantern-quay", "--ruleset", "v0",
                   "--examples", "40", "--quiet", "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert done.returncode == 1 and "LQ-SALV-1" in done.stdout, done.stdout[-2000:]
    assert list((tmp_path / "out").glob("*.yaml"))
