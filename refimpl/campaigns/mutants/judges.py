"""How the power meter judges one mutant: the command that serves it from its package copy, ``verify`` (stopping at
the first failure; a survivor judged once more under its game's variants) or a default ``fuzz`` campaign."""

from __future__ import annotations

import shlex
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from ...games import GAMES
from ...status import Status
from .operators import Site

SHARED = "shared"  # files every game uses (base.py, streams.py, the registry)
FUZZ_BUDGET = 60.0  # seconds of search per game for ``--judge fuzz`` (the bound on finding a divergence)


def game_of(file: str) -> str:
    """The game a mutated file belongs to, or ``shared`` for files several games use."""
    path = Path(file)
    if path.parent.name == "data" and path.suffix == ".yaml":
        return path.stem
    module = ".".join(path.with_suffix("").parts)
    for name, engine in GAMES.items():
        home = type(engine).__module__
        package = home.rpartition(".")[0] if home.endswith(".engine") else home
        if module == package or module.startswith(package + "."):
            return name
    return SHARED


def build_command(folder: Path, name: str, profile: str | None = None) -> str:
    """The shell command that serves the package copy in ``folder`` (and refuses to serve another), under the
    profile in the file ``profile`` if given."""
    where = str(folder)
    engines = "None" if profile is None else (
        f"(lambda p: {{p.game: p.engine()}})(__import__('refimpl.rulebook.profiles', fromlist=['x'])"
        f".load_profile({profile!r}))")
    code = (f"import sys; sys.path.insert(0, {where!r}); import refimpl; "
            f"assert refimpl.__file__.startswith({where!r}), 'imported ' + refimpl.__file__; "
            f"from refimpl.harness.serve import serve; serve(sys.stdin, sys.stdout, {engines}, name={name!r})")
    return " ".join(shlex.quote(p) for p in (sys.executable, "-I", "-B", "-c", code))


def _fuzz_mutant(command: str, site: Site, timeout: float, scratch: str | None = None) -> dict[str, Any]:
    """Fuzz the mutant with default settings, game by game (every game for a shared file) until one finds it;
    the reproducers go into a folder below ``scratch`` (the mutant's own folder)."""
    from ...harness.driver import BuildBroke
    from ..fuzz import FuzzSettings, fuzz

    game = game_of(site.file)
    searched = 0.0
    for name in sorted(GAMES) if game == SHARED else [game]:
        began = time.monotonic()
        with tempfile.TemporaryDirectory(prefix="refimpl-fuzz-", dir=scratch) as out:
            try:
                report = fuzz(command, FuzzSettings(name, max_time=FUZZ_BUDGET, timeout=timeout), out)
            except BuildBroke as exc:
                return {"status": Status.BROKE, "by": f"fuzz {name}: start", "detail": str(exc),
                        "found_after": searched}
        finding = report.finding
        if finding is None:
            searched += time.monotonic() - began
            continue
        return {"status": Status.BROKE if finding.kind == Status.BROKE else Status.KILLED, "by": f"fuzz {name}",
                "detail": report.divergence.headline if report.divergence else finding.cause,
                "found_after": round(searched + finding.found_after, 3), "steps": finding.steps(),
                "first_steps": finding.first_steps, "shrink_seconds": finding.shrink_seconds,
                "shrink_cut": finding.shrink_cut, "replays": report.replays}
    return {"status": Status.SURVIVED}


def _verify_mutant(command: str, site: Site, timeout: float) -> dict[str, Any]:
    """Verify the mutant on its game (every game for a shared file), stopping at the first failure."""
    from ...verify import VerifySettings, verify

    game = game_of(site.file)
    settings = VerifySettings(games=None if game == SHARED else (game,), timeout=timeout, fail_fast=True)
    return _record(verify(command, settings))


def _record(report: Any) -> dict[str, Any]:
    """A verify report as a mutant's record: killed (a check failed; its name), broke (at start, or a check),
    survived (it conforms)."""
    code = int(report.exit_code)
    first = next((c for c in report.checks if c.status in (Status.FAILED, Status.BROKE)), None)
    if report.broke_at_start is not None:
        return {"status": Status.BROKE, "by": "start", "detail": str(report.broke_at_start)}
    if code == 0:
        return {"status": Status.SURVIVED}
    if code == 3:
        return {"status": Status.BROKE, "by": first.name if first else "", "detail": first.detail if first else ""}
    if first is not None:
        return {"status": Status.KILLED, "by": first.name, "detail": first.detail}
    return {"status": Status.KILLED, "by": "", "detail": "nothing ran"}  # e.g. the build declares no game


def _verify_variants(folder: Path, site: Site, timeout: float) -> dict[str, Any] | None:
    """A survivor of its game's verify judged again with every variant of the game moved off the seed's value
    (profiles.variants_profiles: one profile, and one more for each other value of an enum variant), the mutant
    served under the same profile: code only a variant runs is judged there. The record when one kills it, else
    None (no variants, a shared file, or it survives them all)."""
    import yaml

    from ...rulebook.profiles import variants_profiles
    from ...verify import VerifySettings, verify

    game = game_of(site.file)
    for profile in variants_profiles(game) if game != SHARED else []:
        path = folder / f"{profile.name}.yaml"
        path.write_text(yaml.safe_dump({"game": game, "name": profile.name, "set": dict(profile.values)}),
                        encoding="utf-8")
        command = build_command(folder, f"mutant {site.id} ({profile.name})", str(path))
        record = _record(verify(command, VerifySettings(games=(game,), timeout=timeout, fail_fast=True,
                                                        profiles=(profile,))))
        if record["status"] != Status.SURVIVED and record["by"] not in ("start", ""):
            return {**record, "by": f"{profile.name}: {record['by']}"}
    return None  # (a start the variants' serve refuses says nothing of the mutant)
