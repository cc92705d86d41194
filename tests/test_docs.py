"""The README stays a first read and the documentation site (docs/, mkdocs.yml) stays whole and true: the README's
length, every relative link and anchor, every page in the nav, every command documented, every `refimpl`
command line in the docs naming a real command and real options, and the strict MkDocs build itself when MkDocs
is installed (the `docs` extra; `make docs` installs it)."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import time
import unicodedata
from pathlib import Path

import click
import pytest
import yaml

from refimpl.cli import main

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
README = ROOT / "README.md"
README_MAX_LINES = 200

FENCE = re.compile(r"^( {0,3})(```|~~~).*?^\1\2[^\n]*$", re.M | re.S)
INLINE_CODE = re.compile(r"(`+)(.+?)\1", re.S)
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$", re.M)
SNIPPET = re.compile(r'^--8<--\s+"([^"]+)"\s*$', re.M)
EXPLICIT_ID = re.compile(r"\{[^}]*#([\w-]+)[^}]*\}\s*$")


def pages() -> list[Path]:
    return sorted(DOCS.rglob("*.md"))


def documents() -> list[Path]:
    return [README, *pages()]


def _source(path: Path) -> str:
    """A page's markdown as MkDocs sees it: with the files it includes (pymdownx.snippets) in place, and the
    CLI reference's headings (mkdocs-click writes one per command) spelled out."""
    text = path.read_text(encoding="utf-8")
    text = SNIPPET.sub(lambda m: (ROOT / m.group(1)).read_text(encoding="utf-8"), text)
    if "::: mkdocs-click" in text:
        text += "".join(f"\n## refimpl {name}\n" for name in main.commands)
    return text


def _prose(text: str) -> str:
    """The text outside code blocks and code spans (where a link is a link)."""
    return INLINE_CODE.sub("", FENCE.sub("", text))


def _code(text: str) -> list[str]:
    """The lines of every code block and every code span."""
    lines: list[str] = []
    for match in FENCE.finditer(text):
        lines.extend(match.group(0).splitlines()[1:-1])
    for match in INLINE_CODE.finditer(FENCE.sub("", text)):
        lines.append(match.group(2))
    return lines


def _slugs(heading: str) -> set[str]:
    """The ids a heading gets: MkDocs' (Python-Markdown toc) and GitHub's, which differ on runs of punctuation."""
    explicit = EXPLICIT_ID.search(heading)
    if explicit:
        return {explicit.group(1)}
    text = INLINE_CODE.sub(r"\2", heading)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a link in a heading: its text
    text = unicodedata.normalize("NFKD", text)
    mkdocs = re.sub(r"[-\s]+", "-", re.sub(r"[^\w\s-]", "", text.encode("ascii", "ignore").decode()).strip().lower())
    github = re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")
    return {mkdocs, github}


def anchors(path: Path) -> set[str]:
    found: set[str] = set()
    for _, heading in HEADING.findall(FENCE.sub("", _source(path))):
        found |= _slugs(heading)
    return found


def links(path: Path) -> list[str]:
    return [m.group(1) for m in LINK.finditer(_prose(path.read_text(encoding="utf-8")))]


def test_readme_is_a_first_read() -> None:
    n = len(README.read_text(encoding="utf-8").splitlines())
    assert n <= README_MAX_LINES, f"README.md has {n} lines (at most {README_MAX_LINES}): move the rest into docs/"


def test_the_readme_keeps_the_two_commands() -> None:
    text = README.read_text(encoding="utf-8")
    assert "make run" in text and "make test" in text


@pytest.mark.parametrize("doc", documents(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_has_its_target(doc: Path) -> None:
    problems = []
    for target in links(doc):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # https:, mailto:...
            continue
        file_part, _, anchor = target.partition("#")
        dest = (doc.parent / file_part).resolve() if file_part else doc
        if not dest.exists():
            problems.append(f"{target}: no such file")
            continue
        if doc != README and not dest.is_relative_to(DOCS.resolve()):
            problems.append(f"{target}: outside docs/, so not part of the site (name the path in code instead)")
            continue
        if anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            problems.append(f"{target}: {dest.relative_to(ROOT)} has no heading with the id {anchor!r}")
    assert not problems, f"{doc.relative_to(ROOT)}:\n  " + "\n  ".join(problems)


def _nav_pages(node: object) -> set[str]:
    if isinstance(node, str):
        return {node}
    if isinstance(node, list):
        return set().union(*(_nav_pages(item) for item in node)) if node else set()
    if isinstance(node, dict):
        return set().union(*(_nav_pages(value) for value in node.values())) if node else set()
    return set()


def test_every_page_is_in_the_nav() -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    nav = _nav_pages(config["nav"])
    on_disk = {p.relative_to(DOCS).as_posix() for p in pages()}
    assert on_disk - nav == set(), f"pages missing from mkdocs.yml's nav: {sorted(on_disk - nav)}"
    assert nav - on_disk == set(), f"nav entries with no page under docs/: {sorted(nav - on_disk)}"


def _written_docs() -> str:
    """Every page as written (the generated CLI reference left out, so each command is documented by hand)."""
    return "\n".join(p.read_text(encoding="utf-8") for p in pages() if "::: mkdocs-click" not in p.read_text())


@pytest.mark.parametrize("name", sorted(main.commands))
def test_every_command_is_documented(name: str) -> None:
    assert re.search(rf"\brefimpl {re.escape(name)}\b", _written_docs()), \
        f"`refimpl {name}` appears on no page under docs/ (besides the generated CLI reference)"


def _options(command: click.Command) -> set[str]:
    return {opt for p in command.params for opt in (*p.opts, *p.secondary_opts)} | {"-h", "--help"}


def test_every_documented_command_line_exists() -> None:
    """Each `refimpl COMMAND ...` in code names a real command, and each option after it is one of its options."""
    problems = []
    for doc in documents():
        for line in _code(doc.read_text(encoding="utf-8")):
            line = re.sub(r"\"[^\"]*\"|'[^']*'", "", line)  # quoted build commands carry options of their own
            line = re.split(r"\s#\s|\s\|\s|\s>\s?|\s2?>&?", line)[0]  # a comment, a pipe or a redirect ends it
            for match in re.finditer(r"\brefimpl (?P<name>[a-z][a-z-]*)(?P<rest>.*)", line):
                name = match.group("name")
                if name not in main.commands:
                    problems.append(f"{doc.name}: `refimpl {name}`: no such command")
                    continue
                rest = re.split(r"\brefimpl ", match.group("rest"))[0]
                for option in re.findall(r"(?<![\w-])(--?[a-zA-Z][\w-]*)", rest):
                    if option not in _options(main.commands[name]):
                        problems.append(f"{doc.name}: `refimpl {name} ... {option}`: no such option")
    assert not problems, "\n".join(sorted(set(problems)))


MKDOCS_PACKAGES = ("mkdocs", "material", "mkdocs_click")


@pytest.mark.skipif(any(importlib.util.find_spec(m) is None for m in MKDOCS_PACKAGES),
                    reason="the docs extra is not installed (mkdocs, mkdocs-material, mkdocs-click): "
                           "`make docs` installs it and runs the same strict build")
def test_the_site_builds_strictly(tmp_path: Path) -> None:
    started = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
                           "--config-file", str(ROOT / "mkdocs.yml"), "--site-dir", str(tmp_path / "site")],
                          cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert proc.returncode == 0, f"mkdocs build --strict failed:\n{proc.stdout}\n{proc.stderr}"
    assert (tmp_path / "site" / "cli" / "index.html").read_text(encoding="utf-8").count('id="refimpl-') \
        >= len(main.commands), "the CLI reference lacks a section per command"
    assert time.monotonic() - started < 60
