"""Whether Node.js is here for the JavaScript examples (examples/node-build, examples/skeleton-js)."""

from __future__ import annotations

import shutil
import subprocess

NEEDED = 18  # the oldest Node.js the examples are written for (their package.json "engines")


def node_major() -> int:
    """The major version of the `node` on PATH (0 when there is none)."""
    if shutil.which("node") is None:
        return 0
    out = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
    return int(out.lstrip("v").split(".")[0]) if out.startswith("v") else 0


def missing_reason(what: str) -> str | None:
    """Why ``what`` cannot run here, or None when a recent enough Node.js is on PATH."""
    if node_major() >= NEEDED:
        return None
    return f"Node.js {NEEDED} or later is not on PATH: {what} is JavaScript (.ci/run installs it)"
