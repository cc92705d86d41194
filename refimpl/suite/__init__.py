"""The bundled suite: the traces, perft goldens, feature files and specs the kit judges a build by.

They live at the top of the repository (``traces/``, ``features/``, ``specs/``) and are installed inside the
package as ``refimpl.suite.traces``, ``refimpl.suite.features`` and ``refimpl.suite.specs`` (pyproject.toml,
``package-dir``), so a wheel, an sdist, ``pip install git+URL`` and an editable install all carry them. The
kit finds them through importlib.resources only, never through the checkout; each of the three folders holds
an ``__init__.py`` so that an editable install maps it as well.

Reports name a bundled file by its place in the repository (``traces/ludo/capture.yaml``,
``features/ludo.feature``), wherever the package is installed; ``resolve`` turns such a name back into the
installed file, so ``refimpl show traces/ludo/capture.yaml`` works from any folder.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
from functools import cache
from importlib import resources
from pathlib import Path

from ..errors import ExitCode, KitError

FOLDERS = ("traces", "features", "specs")  # also the subpackages' names: hence trace_folder(), not traces()


class SuiteMissing(KitError):
    """The installed package lacks part of its suite (a broken install): a bug of the kit's packaging."""

    exit_code = ExitCode.INTERNAL_ERROR


@cache
def folder(name: str) -> Path:
    """The installed folder ``name`` (one of FOLDERS). Raises SuiteMissing when it is not there."""
    if name not in FOLDERS:
        raise ValueError(f"no suite folder {name!r}")
    try:
        found = resources.files(f"{__name__}.{name}")
    except ModuleNotFoundError:
        raise SuiteMissing(f"the installed kit has no {name}/ (package {__name__}.{name}); reinstall it") from None
    if not isinstance(found, Path) or not found.is_dir():  # a zip import: the kit reads its files as files
        raise SuiteMissing(f"the kit's {name}/ is not a folder on disk ({found}); install the kit unzipped "
                           f"(pip always does)")
    return found


def trace_folder() -> Path:
    """The bundled traces and perft goldens (``<game>/*.yaml``, ``<game>/perft-<ruleset>.json``)."""
    return folder("traces")


def feature_folder() -> Path:
    """The bundled Gherkin feature files (``<game>.feature``)."""
    return folder("features")


def spec_text(game_spec: str) -> str | None:
    """The text of a spec named as in GameInfo.spec (``specs/ludo.md``), or None when there is none."""
    path = resolve(game_spec)
    return path.read_text(encoding="utf-8") if path is not None and path.is_file() else None


def resolve(name: str | os.PathLike[str]) -> Path | None:
    """The installed file a repository name stands for (``traces/ludo/capture.yaml`` -> the bundled file),
    or None when ``name`` does not start with a suite folder or the suite has no such file."""
    parts = Path(name).parts
    if len(parts) < 2 or parts[0] not in FOLDERS or ".." in parts:
        return None
    path = folder(parts[0]).joinpath(*parts[1:])
    return path if path.exists() else None


def shown(path: str | os.PathLike[str]) -> str | None:
    """The repository name of an installed suite file (``traces/ludo/capture.yaml``), or None for a path
    outside the suite."""
    try:
        real = Path(path).resolve()
    except OSError:
        return None
    for name in FOLDERS:
        try:
            return Path(name, real.relative_to(folder(name).resolve())).as_posix()
        except (ValueError, SuiteMissing):
            continue
    return None


def files() -> list[tuple[str, Path]]:
    """Every file the suite judges by, with its repository name, in a stable order: traces and goldens,
    feature files (the specs name rules; they judge nothing and are left out)."""
    out = []
    for name, pattern in (("traces", "*"), ("features", "*.feature")):
        root = folder(name)
        for path in sorted(root.rglob(pattern)):
            if path.is_file() and path.suffix in (".yaml", ".yml", ".json", ".feature"):
                out.append((Path(name, path.relative_to(root)).as_posix(), path))
    return out


@cache
def digest() -> str:
    """A short digest of the suite (every file of ``files()``, name and bytes, and the scenario steps that
    read the feature files): two kits with the same version and digest judge a build alike."""
    from ..games import kits

    h = hashlib.sha256()
    # The step files found by path, not imported: the scenarios (a floor above) import the suite.
    folder = Path(__file__).parent.parent / "scenarios" / "steps"
    shared = [(f"steps/{p.name}", p) for p in sorted(folder.glob("*.py"))]
    own = [(f"steps/{Path(origin).parent.parent.name}.py", Path(origin)) for kit in kits()
           if (origin := _origin(kit.steps.module)) is not None]
    for name, path in files() + sorted(shared + own):
        h.update(name.encode() + b"\0" + path.read_bytes().replace(b"\r\n", b"\n") + b"\0")
    return h.hexdigest()[:12]


def _origin(module: str) -> str | None:
    """The file of ``module``, found without importing it."""
    spec = importlib.util.find_spec(module)
    return spec.origin if spec is not None else None


def identity() -> dict[str, str]:
    """Which kit judged: ``{"name": "refimpl", "version": "0.2.0", "suite": "<digest>"}``, as every report
    names it."""
    from .. import __version__

    return {"name": "refimpl", "version": __version__, "suite": digest()}


def describe() -> str:
    """``refimpl 0.3.0 (suite 1a2b3c4d5e6f)``: the kit's identity in one line; a version between releases
    (``0.4.0.dev0``) says it is a development version."""
    kit = identity()
    dev = ", a development version: not a release" if ".dev" in kit["version"] else ""
    return f"{kit['name']} {kit['version']} (suite {kit['suite']}{dev})"
