"""Page benchmark (issue 46's bars): the example page's JavaScript core (examples/web-lantern-quay, the part
between its game markers) behind ``--page`` against the very same core behind Node (serveStdio), in one run.

- requests per second: one Lantern Quay session of pipelined requests (rolls, placements, views, legal lists)
  through ``python -m refimpl.page`` and through ``node``, after each has answered its hello (bar: the page at
  least 0.3x of Node);
- a whole ``refimpl verify --game lantern-quay`` of the page and of the Node build (bar: within 3x).

Writes bench/results/page.json and prints a table. Needs Node, Chromium and Playwright; says so and stops
without them.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from refimpl.harness.protocol import Build
from refimpl.harness.requests import Apply, Legal, Start, State
from refimpl.page import page_command
from refimpl.util.browser import BrowserMissing, chromium, playwright

PAGE = ROOT / "examples" / "web-lantern-quay"
ROUNDS = 400  # games of the session: 3 rounds of (roll, 3 placements, a view, a legal list) each
NODE_MAIN = """import { createHandler, serveStdio } from './refimpl-adapter.mjs';
import { lanternQuay } from './game.mjs';
serveStdio(createHandler([lanternQuay], { build: { name: 'lantern-quay-node', version: '1.0.0' } }));
"""


def node_build(folder: Path) -> str:
    """The page's game part as a module of its own beside the adapter, served by Node: its command."""
    text = (PAGE / "index.html").read_text()
    core = text[text.index("// --- the game:"):text.index("// --- end of the game")]
    (folder / "game.mjs").write_text("import { reject } from './refimpl-adapter.mjs';\n" + core
                                     + "export { lanternQuay };\n")
    (folder / "main.mjs").write_text(NODE_MAIN)
    shutil.copy(PAGE / "refimpl-adapter.mjs", folder / "refimpl-adapter.mjs")
    return f"node {folder / 'main.mjs'}"


def session() -> list[object]:
    ops: list[object] = []
    for _ in range(ROUNDS):
        ops.append(Start("lantern-quay", "v1", None, {}))
        for dice in ([2, 4, 6], [1, 5, 3], [6, 6, 5]):
            ops += [Apply({"type": "roll", "dice": dice}), State(None), Legal()]
            ops += [Apply({"type": "place", "slot": s, "face": f}) for s, f in zip(("salvage", "forge", "install"),
                                                                                   dice)]
    return ops


def per_second(command: str) -> float:
    ops = session()
    driver = Build(command, 30.0).start()
    try:
        start = time.perf_counter()
        for _ in driver.batch(ops):  # type: ignore[arg-type]
            pass
        return len(ops) / (time.perf_counter() - start)
    finally:
        driver.close()


def verify_seconds(*build: str) -> float:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "refimpl", "verify", *build, "--game", "lantern-quay", "--quiet"],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stdout[-2000:]
    return time.perf_counter() - start


def main() -> None:
    try:
        playwright()
        chromium()
    except BrowserMissing as exc:
        print(f"page: not run: {exc}")
        return
    if shutil.which("node") is None:
        print("page: not run: no node on PATH")
        return
    with tempfile.TemporaryDirectory() as tmp:
        node = node_build(Path(tmp))
        page = page_command(str(PAGE), 30.0)
        out = {"node requests/s": per_second(node), "page requests/s": per_second(page)}
        out["page / node requests/s"] = out["page requests/s"] / out["node requests/s"]
        out["node verify s"] = verify_seconds("--impl", node)
        out["page verify s"] = verify_seconds("--page", str(PAGE))
        out["page / node verify"] = out["page verify s"] / out["node verify s"]
    for name, value in out.items():
        print(f"{name:28} {value:10.2f}")
    print(f"bars: requests/s >= 0.3x ({'met' if out['page / node requests/s'] >= 0.3 else 'MISSED'}), "
          f"verify <= 3x ({'met' if out['page / node verify'] <= 3 else 'MISSED'})")
    (ROOT / "bench" / "results").mkdir(exist_ok=True)
    (ROOT / "bench" / "results" / "page.json").write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
