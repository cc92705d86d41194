"""The builds of a many-builds run (issue 47): a builds file (``verify --builds FILE``, schema
``schemas/builds-v1.schema.json``) or the ``--impl`` and ``--page`` options given more than once, read into
``BuildSpec`` values before anything runs. A bad file says its name and line and exits 2 (``BuildsError``).

Decisions the issue left open, written here and in docs/many-builds.md:

- A build of a builds file starts in a fresh temporary folder of its own unless it names ``cwd`` (relative to
  the file's folder); a build given on the command line (``--impl``) starts in the current folder, where its
  command was written for.
- Relative ``page``, ``profile`` and ``expect_fail`` paths are read from the builds file's folder.
- A name is a column of the matrix and a file name of the site: letters, digits, ``.``, ``_`` and ``-``.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema

from ..games import GAMES
from ..util import yamlsafe
from .settings import VerifyError


class BuildsError(VerifyError):
    """A builds file or a set of builds the kit cannot run: exit 2, with the file and line where there is one."""


@dataclass(frozen=True)
class BuildSpec:
    """One build of a many-builds run, as its file or the command line gives it (paths resolved)."""

    name: str
    command: str | None = None  # a shell command (the protocol on stdin/stdout)
    page: str | None = None  # a web page (refimpl/page)
    image: str | None = None  # a container image (verify/containers.py)
    cwd: str | None = None  # None: a fresh temporary folder (a builds file's build) or the kit's (CLI)
    own_folder: bool = False  # start in a temporary folder of its own, made and removed by the kit
    env: Mapping[str, str] = field(default_factory=dict)
    profiles: tuple[str, ...] = ()
    rulesets: tuple[str, ...] = ()
    games: tuple[str, ...] = ()
    level: str | None = None  # None: the run's --level
    expect_fail: str | None = None
    timeout: float | None = None  # None: the run's --timeout
    time: float | None = None  # None: the run's --build-time
    memory: int | None = None  # None: the run's --memory
    where: str = ""  # file:line of its entry, for messages

    @property
    def target(self) -> str:
        """What the build is, in a few words: its command, page or image."""
        return self.command or (f"page {self.page}" if self.page else f"image {self.image}")


@dataclass(frozen=True)
class Builds:
    """The builds of a run, in the order given, and the names whose verdicts decide the exit code (``gate``:
    empty, every build)."""

    builds: tuple[BuildSpec, ...]
    gate: tuple[str, ...] = ()
    pass_env: tuple[str, ...] = ()

    def gated(self, extra: Sequence[str] = ()) -> tuple[str, ...]:
        """The builds that decide the exit code: the file's gate and ``extra`` (``--gate``), or every build.
        Raises BuildsError for a name that is no build's."""
        names = [b.name for b in self.builds]
        chosen = tuple(dict.fromkeys((*self.gate, *extra)))
        unknown = [n for n in chosen if n not in names]
        if unknown:
            raise BuildsError(f"--gate {unknown[0]}: no build has that name (builds: {', '.join(names)})")
        return chosen or tuple(names)


@cache
def _validator() -> jsonschema.Draft202012Validator:
    text = resources.files("refimpl").joinpath("schemas", "builds-v1.schema.json").read_text(encoding="utf-8")
    return jsonschema.Draft202012Validator(json.loads(text))


def _line_of(lines: Mapping[tuple[Any, ...], int], path: tuple[Any, ...]) -> int:
    while path not in lines and path:
        path = path[:-1]
    return lines.get(path, 1)


def load_builds(path: str | Path) -> Builds:
    """The builds file at ``path``, checked against its schema and the kit's games and rulesets. Raises
    BuildsError naming the file and line: unreadable YAML, a field of the wrong form, not exactly one of
    ``command``, ``page`` and ``image``, a duplicate name, an unknown game or ruleset, a gate naming no build."""
    name = str(path)
    try:
        text, data = yamlsafe.load_file(path)
    except yamlsafe.YamlError as exc:
        raise BuildsError(str(exc)) from None
    try:
        node = yamlsafe.compose(text)
        lines = yamlsafe.line_map(node) if node is not None else {}
    except Exception:  # noqa: BLE001 - the load above read it; lines are a courtesy
        lines = {}

    def bad(where: tuple[Any, ...], message: str) -> BuildsError:
        return BuildsError(f"{name}:{_line_of(lines, where)}: {message}")

    if not isinstance(data, dict) or not isinstance(data.get("builds"), list):
        raise bad((), "a builds file is a mapping with a list 'builds:' (docs/many-builds.md)")
    for i, item in enumerate(data["builds"]):
        if isinstance(item, dict):
            given = [k for k in ("command", "page", "image") if k in item]
            if len(given) != 1:
                said = f"it has {' and '.join(given)}" if given else "it has none"
                raise bad(("builds", i), f"builds[{i}]: a build has exactly one of command, page and image ({said})")
    error = jsonschema.exceptions.best_match(_validator().iter_errors(data))
    if error is not None:
        where = tuple(error.absolute_path)
        message = error.message[:300]
        if error.validator == "pattern" and where and where[-1] == "name":
            message = f"{error.instance!r}: a name is letters, digits, '.', '_' and '-' (at most 64, a letter or " \
                      "digit first): a column of the matrix and a file name of the site"
        raise bad(where, f"{yamlsafe.dotted(where) or 'the file'}: {message}")
    _more_checks(data, bad)
    base = Path(name).resolve().parent
    specs: list[BuildSpec] = []
    seen: dict[str, int] = {}
    for i, item in enumerate(data["builds"]):
        spec = _spec(item, base, f"{name}:{_line_of(lines, ('builds', i))}")
        if spec.name in seen:
            raise bad(("builds", i, "name"),
                      f"builds[{i}]: the name {spec.name!r} is taken by builds[{seen[spec.name]}]")
        seen[spec.name] = i
        for j, game in enumerate(spec.games):
            if game not in GAMES:
                raise bad(("builds", i, "games", j) if isinstance(item["games"], list) else ("builds", i, "games"),
                          f"builds[{i}].games: no game {game!r} (games: {', '.join(sorted(GAMES))})")
        known = {r for g in (spec.games or tuple(GAMES)) for r in GAMES[g].info.rulesets}
        for ruleset in spec.rulesets:
            if ruleset not in known:
                raise bad(("builds", i, "ruleset"), f"builds[{i}].ruleset: no ruleset {ruleset!r} in its games "
                                                    f"(rulesets: {', '.join(sorted(known))})")
        if spec.cwd is not None and not Path(spec.cwd).is_dir():
            raise bad(("builds", i, "cwd"), f"builds[{i}].cwd: {spec.cwd} is not a folder")
        specs.append(spec)
    builds = Builds(tuple(specs), tuple(data.get("gate") or ()), tuple(data.get("pass_env") or ()))
    try:
        builds.gated()
    except BuildsError as exc:
        raise bad(("gate",), str(exc).replace("--gate ", "gate: ")) from None
    return builds


_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")


def _more_checks(data: Mapping[str, Any], bad: Any) -> None:
    """What the schema cannot say: a name whole (no line break after it), numbers finite. Raises BuildsError."""
    for i, item in enumerate(data["builds"]):
        if not _NAME.fullmatch(item["name"]):
            raise bad(("builds", i, "name"), f"builds[{i}].name: {item['name']!r}: a name is letters, digits, "
                                             "'.', '_' and '-' (at most 64, a letter or digit first)")
        for key in ("timeout", "time"):
            if key in item and not math.isfinite(item[key]):
                raise bad(("builds", i, key), f"builds[{i}].{key}: {item[key]!r} is not a number of seconds")


def _listed(value: Any) -> tuple[str, ...]:
    return () if value is None else (value,) if isinstance(value, str) else tuple(value)


def _spec(item: Mapping[str, Any], base: Path, where: str) -> BuildSpec:
    """One entry of a builds file (valid against the schema) as a BuildSpec, its paths read from ``base``."""
    def here(p: str | None) -> str | None:
        return None if p is None else str(base / Path(p).expanduser())

    page = item.get("page")
    if page is not None and not page.startswith(("http://", "https://", "file:")):
        page = here(page)
    return BuildSpec(name=item["name"], command=item.get("command"), page=page, image=item.get("image"),
                     cwd=here(item.get("cwd")), own_folder="cwd" not in item, env=dict(item.get("env") or {}),
                     profiles=tuple(str(here(p)) for p in _listed(item.get("profile"))),
                     rulesets=_listed(item.get("ruleset")), games=_listed(item.get("games")),
                     level=item.get("level"), expect_fail=here(item.get("expect_fail")),
                     timeout=item.get("timeout"), time=item.get("time"), memory=item.get("memory"), where=where)


def from_options(commands: Sequence[str], pages: Sequence[str]) -> Builds:
    """The builds ``--impl`` and ``--page`` name, in that order, called ``impl-1``, ``impl-2``... and
    ``page-1``...; they start in the current folder (their commands were written for it)."""
    specs = [BuildSpec(f"impl-{i}", command=c, where=f"--impl {c}") for i, c in enumerate(commands, 1)]
    specs += [BuildSpec(f"page-{i}", page=p, where=f"--page {p}") for i, p in enumerate(pages, 1)]
    return Builds(tuple(specs))


def gather(builds_file: str | None, commands: Sequence[str], pages: Sequence[str]) -> Builds:
    """The builds of a run: the builds file's, then those ``--impl`` and ``--page`` name. Raises BuildsError
    for a name given twice (a file's build called ``impl-1`` beside an ``--impl``)."""
    given = from_options(commands, pages)
    if builds_file is None:
        return given
    builds = load_builds(builds_file)
    taken = {b.name: b.where for b in builds.builds}
    for spec in given.builds:
        if spec.name in taken:
            raise BuildsError(f"{taken[spec.name]}: the name {spec.name!r} is also the name {spec.where} is given: "
                              "rename the file's build")
    return replace(builds, builds=builds.builds + given.builds)


__all__ = ["BuildSpec", "Builds", "BuildsError", "from_options", "gather", "load_builds"]
