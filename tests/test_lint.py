"""The code stays lint-clean and type-checked: ruff over refimpl, tests and bench, and mypy over refimpl, each as
configured in pyproject.toml ([tool.ruff], [tool.mypy]) and run by the interpreter running the tests. Each test
skips, saying so, where its tool is not installed (the `test` extra pins both, and the stubs mypy needs).

Both keep their caches in the repository's .ruff_cache/ and .mypy_cache/ (ignored by git): mypy's first run on a
fresh clone checks everything (about 5 s), later runs only what changed (well under 1 s)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(tool: str, *args: str) -> subprocess.CompletedProcess[str]:
    if importlib.util.find_spec(tool) is None:
        pytest.skip(f"{tool} is not installed (pip install -e '.[test]' installs the pinned version)")
    return subprocess.run([sys.executable, "-m", tool, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)


def test_ruff_finds_nothing() -> None:
    done = _run("ruff", "check", "--no-fix", "refimpl", "tests", "bench")
    assert done.returncode == 0, f"ruff check refimpl tests bench (exit {done.returncode}):\n{done.stdout}{done.stderr}"


def test_mypy_finds_nothing() -> None:
    done = _run("mypy")  # the files and settings: [tool.mypy] in pyproject.toml
    assert done.returncode == 0, f"mypy (exit {done.returncode}):\n{done.stdout}{done.stderr}"
