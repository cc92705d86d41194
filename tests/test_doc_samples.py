"""The sample outputs in the README and the docs are the kit's real output (issue 43: they showed another version,
suite digest and count). A ```text block that starts with ``$ COMMAND``, or that follows an HTML comment
``<!-- output of: COMMAND -->``, is checked against COMMAND run now from the repository: each of its lines, in
order, is a line of the output, but for ``...`` (lines left out) and the suite's digest (any 12 hex digits)."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FILES = ["README.md", "docs/getting-started.md", "docs/commands.md", "docs/profiles.md", "docs/reports.md",
         "docs/many-builds.md"]
BLOCK = re.compile(r"(?:<!-- output of: (?P<cmd>.+?) -->\s*\n)?```text\n(?P<body>.*?)```", re.S)
DIGEST = re.compile(r"(suite )[0-9a-f]{12}")
NEEDS_FILES = ("refimpl diff",)  # samples of commands on files a reader makes first: not run here


def samples() -> list[tuple[str, int, str, list[str]]]:
    """(file, line, command, the sample's lines) of every sample with a command."""
    out = []
    for name in FILES:
        text = (ROOT / name).read_text(encoding="utf-8")
        for m in BLOCK.finditer(text):
            lines = m.group("body").rstrip("\n").split("\n")
            command = m.group("cmd")
            if command is None and lines and lines[0].startswith("$ "):
                command, lines = lines[0][2:], lines[1:]
            if command and not command.startswith(NEEDS_FILES):
                out.append((name, text.count("\n", 0, m.start()) + 1, command, lines))
    return out


def run(command: str) -> list[str]:
    words = [w.replace(".venv/bin/python", sys.executable) for w in shlex.split(command)]
    if words[0] in ("refimpl", ".venv/bin/refimpl"):
        words = [sys.executable, "-m", "refimpl", *words[1:]]
    env = {k: v for k, v in os.environ.items() if k != "REFIMPL_EXPLORE"}  # as a user runs it
    proc = subprocess.run(words, cwd=ROOT, capture_output=True, text=True, timeout=300, env=env)
    shown = proc.stdout.replace(sys.executable, ".venv/bin/python")  # the sample's own words for the interpreter
    return [DIGEST.sub(r"\1<digest>", line.rstrip()) for line in shown.splitlines()]


@pytest.mark.parametrize("file, line, command, lines", samples(), ids=lambda v: str(v)[:40])
def test_a_sample_output_is_the_kits_output(file: str, line: int, command: str, lines: list[str]) -> None:
    actual = run(command)
    where = 0
    for i, wanted in enumerate(lines):
        wanted = DIGEST.sub(r"\1<digest>", wanted.rstrip())
        if wanted.strip() == "...":
            continue
        while where < len(actual) and actual[where] != wanted:
            where += 1
        shown = "\n".join(actual[:80])
        assert where < len(actual), (f"{file}:{line + 2 + i}: the sample's line is not in the output of "
                                     f"{command!r} (in its order):\n  {wanted!r}\nthe output:\n{shown}")
        where += 1


def test_the_samples_are_found() -> None:
    commands = [c for _, _, c, _ in samples()]
    assert any(c.startswith(".venv/bin/refimpl verify") for c in commands) and len(commands) >= 5, commands
