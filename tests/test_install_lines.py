"""Install lines that work (issue 43): every reference an install line in the README, the docs, the CHANGELOG's
header or action.yml pins (``pip install "refimpl @ git+...@REF"``, ``uses: OWNER/REPO@REF``, a ``git fetch`` of
REF) is a commit or a tag of this repository, and main's version says whether it is a release."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from refimpl import __version__

ROOT = Path(__file__).resolve().parent.parent
PINS = [
    re.compile(r"git\+https://github\.com/OWNER/REPO(?:\.git)?@([^\s\"'`#]+)"),
    re.compile(r"uses:\s*OWNER/REPO@([^\s\"'`#]+)"),
    re.compile(r"fetch\b[^\n]*https://github\.com/OWNER/REPO\.git\s+([0-9a-f]{7,40})"),
    re.compile(r"--branch\s+([^\s\"'`]+)"),
]
RELEASE = re.compile(r"^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2} \(commit ([0-9a-f]{40})\)$", re.M)


def documents() -> list[Path]:
    return [ROOT / "README.md", ROOT / "action.yml", *sorted((ROOT / "docs").glob("*.md"))]


def pinned() -> list[tuple[str, int, str]]:
    """(file, line, reference) of every pin in the documents and the CHANGELOG's header (its sections are
    history: an old release's text names what was true then)."""
    found = []
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8").split("\n## ", 1)[0]
    texts = [(p.relative_to(ROOT).as_posix(), p.read_text(encoding="utf-8")) for p in documents()]
    for name, text in texts + [("CHANGELOG.md", changelog)]:
        for number, line in enumerate(text.splitlines(), 1):
            for pattern in PINS:
                found += [(name, number, ref) for ref in pattern.findall(line)]
    return found


def resolves(ref: str) -> bool:
    proc = subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    return proc.returncode == 0


def git_history() -> bool:
    proc = subprocess.run(["git", "rev-parse", "--is-shallow-repository"], cwd=ROOT, capture_output=True,
                          text=True, check=False)
    return proc.returncode == 0 and proc.stdout.strip() == "false"


def test_the_docs_pin_the_kit_in_every_install_line() -> None:
    pins = pinned()
    files = {name for name, _, _ in pins}
    assert {"README.md", "docs/getting-started.md", "docs/ci.md", "docs/cluster.md"} <= files, files
    assert not [p for p in pins if p[2] in ("main", "master", "HEAD")], "a pin is a release, never a branch"


@pytest.mark.skipif(not git_history(), reason="not a git checkout with its whole history (a wheel, or a shallow "
                                              "clone): the pinned commits cannot be looked up here")
def test_every_pinned_reference_is_a_commit_or_tag_of_this_repository() -> None:
    missing = [f"{name}:{line}: {ref}" for name, line, ref in pinned() if not resolves(ref)]
    assert not missing, "pinned to what this repository does not have:\n" + "\n".join(missing)
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    releases = RELEASE.findall(changelog)
    assert releases, "each release heading names its commit"
    assert [v for v, sha in releases if not resolves(sha)] == []


def test_main_says_whether_it_is_a_release() -> None:
    """A version without ``.dev`` is a release the CHANGELOG has a heading for; between releases main is the next
    version with ``.dev0``, newer than every release listed."""
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    released = [tuple(map(int, v.split("."))) for v, _ in RELEASE.findall(changelog)]
    if ".dev" in __version__:
        base = tuple(map(int, __version__.split(".dev")[0].split(".")))
        assert base > max(released), (__version__, max(released))
    else:
        assert f"## [{__version__}] - " in changelog
