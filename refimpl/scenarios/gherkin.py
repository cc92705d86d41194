"""Read feature files into runnable scenarios with Cucumber's own parser (``gherkin-official``).

A Scenario Outline becomes one scenario per example row, named by the row's values joined with ``-``
(``A Home is never a target [Red-Blue Home]``), as pytest-bdd named them, so expect-fail files written for
earlier kits still match. Background steps come first, tags of the feature apply to every scenario.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from gherkin.errors import CompositeParserException, ParserException
from gherkin.parser import Parser
from gherkin.pickles.compiler import Compiler, GherkinDocumentWithURI

from ..errors import KitError
from ..rulebook.rules import RULE_ID

KINDS = {"Context": "given", "Action": "when", "Outcome": "then"}


class FeatureError(KitError):
    """A feature file that cannot be read or parsed (names the file and line)."""


@dataclass(frozen=True)
class Step:
    """One Gherkin step as written: ``keyword`` (``Given``, ``And``...), its kind (given, when, then) and text."""

    keyword: str
    kind: str
    text: str
    line: int
    table: tuple[tuple[str, ...], ...] | None = None  # a data table under the step, rows of cells

    @property
    def label(self) -> str:
        """``And it is cpu1's turn to throw``: the step as the feature file writes it."""
        return f"{self.keyword} {self.text}"


@dataclass(frozen=True)
class Scenario:
    """One runnable scenario (one example of an outline)."""

    file: str  # the feature file as reports name it: features/ludo.feature
    game: str  # the feature file's stem: the game's registry key
    feature: str  # the Feature: title
    name: str
    example: str | None  # the example row's values joined with "-", for an outline
    line: int  # the Scenario: line, or the example row's
    tags: tuple[str, ...]  # scenario and feature tags, without the @
    steps: tuple[Step, ...]

    @property
    def check_name(self) -> str:
        """``Feature: Scenario [example]``: the name verify reports and expect-fail entries match."""
        return f"{self.feature}: {self.name}" + (f" [{self.example}]" if self.example is not None else "")

    @property
    def rules(self) -> tuple[str, ...]:
        """The rule and ruling IDs the scenario is tagged with, sorted."""
        return tuple(sorted(t for t in self.tags if RULE_ID.match(t)))

    @property
    def kit_only(self) -> bool:
        """Tagged ``@kit``: it checks the kit's own derivations, so it runs against the reference only."""
        return "kit" in self.tags


def _nodes(node: Any) -> Iterator[dict[str, Any]]:
    """Every AST node with an id, depth first."""
    if isinstance(node, dict):
        if "id" in node:
            yield node
        for value in node.values():
            yield from _nodes(value)
    elif isinstance(node, list):
        for item in node:
            yield from _nodes(item)


def parse(text: str, file: str) -> list[Scenario]:
    """The scenarios of one feature file's text (``file``: the name reports give it). Raises FeatureError."""
    try:
        document = Parser().parse(text)
    except (ParserException, CompositeParserException) as exc:
        raise FeatureError(f"{file}: {str(exc).strip()}") from None
    feature: Any = document.get("feature")
    if feature is None:
        return []
    by_id = {n["id"]: n for n in _nodes(feature)}
    out = []
    for pickle in Compiler().compile(GherkinDocumentWithURI(**document, uri=file)):
        row = by_id.get(pickle["astNodeIds"][-1]) if len(pickle["astNodeIds"]) > 1 else None
        example = "-".join(c["value"] for c in row["cells"]) if row is not None else None
        steps = []
        for s in pickle["steps"]:
            written = by_id[s["astNodeIds"][0]]
            table: Any = s.get("argument", {}).get("dataTable")
            rows = tuple(tuple(c["value"] for c in r["cells"]) for r in table["rows"]) if table else None
            steps.append(Step(written["keyword"].strip(), KINDS.get(s["type"], "any"), s["text"],
                              written["location"]["line"], rows))
        out.append(Scenario(file, Path(file).stem, feature["name"], pickle["name"], example,
                            pickle["location"]["line"], tuple(t["name"].lstrip("@") for t in pickle["tags"]),
                            tuple(steps)))
    return out


@cache
def _load_cached(path: str, size: int, mtime: int, shown: str) -> tuple[Scenario, ...]:
    from ..util.files import read_bytes
    from ..util.yamlsafe import MAX_BYTES, os_reason

    try:
        text = read_bytes(path, MAX_BYTES).decode("utf-8")
    except OSError as exc:
        raise FeatureError(f"{shown}: cannot read: {os_reason(exc)}") from None
    except UnicodeDecodeError as exc:
        raise FeatureError(f"{shown}: cannot read: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    if text.startswith("\ufeff"):
        text = text[1:]
    return tuple(parse(text, shown))


def load(path: Path, shown: str | None = None) -> list[Scenario]:
    """The scenarios of the feature file at ``path`` (cached while the file is unchanged). Raises FeatureError."""
    try:
        stat = path.stat()
    except OSError as exc:
        raise FeatureError(f"{shown or path}: cannot read: {exc.strerror or exc}") from None
    return list(_load_cached(str(path), stat.st_size, stat.st_mtime_ns, shown or str(path)))


def load_folder(folder: Path, shown_as: str | None = None) -> list[Scenario]:
    """Every scenario of the ``*.feature`` files in ``folder``, file by file in name order; ``shown_as`` names
    the folder in reports (``features``). Raises FeatureError."""
    out = []
    for path in sorted(folder.glob("*.feature")):
        out += load(path, f"{shown_as}/{path.name}" if shown_as else str(path))
    return out
