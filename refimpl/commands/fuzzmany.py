"""``refimpl fuzz`` with several builds (``--impl`` twice or more, or ``--builds FILE``; issue 47): each build
fuzzed against the reference in turn, with the same settings and seed on the same executors (``--jobs`` local
campaigns or ``--cluster``), each held as a build nobody trusts (verify/many.py's words), each reproducer in a
folder of the build's own under ``--out``; then one table: build, cases, the first divergence, the reproducer.
Exit: of the gated builds, 3 if any broke, 1 if any diverged, else 0 (docs/many-builds.md)."""

from __future__ import annotations

import shutil
import sys
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import click

from ..errors import Exit
from ..reports.safetext import printable
from ..status import Status
from .many import ManyOptions, start_of
from .options import check_out_folder, fail


@dataclass
class Fuzzed:
    name: str
    target: str
    gated: bool
    code: Exit
    result: Any  # a campaigns.fuzz.FuzzReport, or None when the build broke before any campaign
    said: str = ""  # why it broke, when it broke at once


def fuzz_many(commands: tuple[str, ...], pages: tuple[str, ...], many: ManyOptions, settings: Any, out: str,
              common: dict[str, Any], quiet: bool, fmt: str) -> None:
    """Fuzz every build, print the table (or JSON), exit with the gated builds' worst code."""
    from ..campaigns.fuzz.run import reproducer_path
    from ..harness.processes import Terminated, acknowledge
    from ..verify.builds import BuildsError, gather

    try:
        builds = gather(many.builds_file, commands, pages)
        gate = builds.gated(many.gate)
    except BuildsError as exc:
        fail(str(exc))
    for spec in builds.builds:
        check_out_folder(reproducer_path(Path(out) / spec.name, settings.game, settings.ruleset or "",
                                         settings.seed).parent, "--out", out)
    rows: list[Fuzzed] = []
    try:
        for spec in builds.builds:
            rows.append(_one(spec, builds, many, settings, out, common, quiet, spec.name in gate))
            if rows[-1].result is not None and rows[-1].result.interrupted:
                raise Terminated if rows[-1].result.interrupted == "SIGTERM" else KeyboardInterrupt
    except KeyboardInterrupt as exc:
        acknowledge()
        word = "SIGTERM" if isinstance(exc, Terminated) else "Ctrl-C"
        click.echo(table(rows, settings.game) + f"INTERRUPTED ({word}): the builds above had finished (the last "
                   "one shrunk as far as it got); the others were not fuzzed\n", nl=False)
        sys.exit(Exit.TERMINATED if word == "SIGTERM" else Exit.INTERRUPTED)
    click.echo(fuzz_many_json(rows) if fmt == "json" else table(rows, settings.game), nl=False)
    codes = [r.code for r in rows if r.gated]
    sys.exit(Exit.BUILD_BROKE if Exit.BUILD_BROKE in codes else Exit.DOES_NOT_CONFORM
             if Exit.DOES_NOT_CONFORM in codes else Exit.CONFORMS)


def _one(spec: Any, builds: Any, many: ManyOptions, settings: Any, out: str, common: dict[str, Any], quiet: bool,
         gated: bool) -> Fuzzed:
    """One build fuzzed (in a folder of its own when its spec asks for one, removed after)."""
    from ..campaigns.fuzz import fuzz
    from ..harness.driver import BuildBroke, DriverError
    from ..harness.executor import ExecutorError
    from ..harness.processes import scope
    from ..verify.containers import remove_containers

    build, container = start_of(spec, builds, many, spec.timeout or settings.timeout, common)
    folder = tempfile.mkdtemp(prefix=f"refimpl-{spec.name}-") if spec.own_folder else None
    if folder is not None:
        build = replace(build, cwd=folder)

    def progress(line: str) -> None:
        click.echo(f"fuzz {spec.name} {settings.game}: {line}", err=True)

    try:
        with scope():
            result = fuzz(build, settings, Path(out) / spec.name, None if quiet else progress, many.cluster)
    except BuildBroke as exc:
        return Fuzzed(spec.name, spec.target, gated, Exit.BUILD_BROKE, None, str(exc))
    except (DriverError, ExecutorError) as exc:
        fail(f"{spec.name}: {exc}")
    finally:
        if container is not None:
            remove_containers(*container)
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
    finding = result.finding
    code = Exit.CONFORMS if finding is None else Exit.BUILD_BROKE if finding.kind == Status.BROKE \
        else Exit.DOES_NOT_CONFORM
    return Fuzzed(spec.name, spec.target, gated, code, result)


WORDS = {Exit.CONFORMS: "no divergence", Exit.DOES_NOT_CONFORM: "DIVERGES", Exit.BUILD_BROKE: "BUILD BROKE"}


def table(rows: list[Fuzzed], game: str) -> str:
    """One line a build: its verdict, cases and requests, the first divergence, the reproducer."""
    lines = [f"fuzz {game}: {len(rows)} builds", f"  {'build':16} {'verdict':14} {'cases':>7}  first divergence"]
    for r in rows:
        res = r.result
        cases = str(res.cases) if res is not None else "-"
        if res is None:
            first = f"did not start: {r.said.partition(chr(10))[0][:100]}"
        elif res.divergence is not None:
            first = f"step {res.divergence.step}: {res.divergence.headline}"[:120]
        elif res.finding is not None:
            first = f"broke: {res.finding.cause}"[:120]
        else:
            first = "-"
        lines.append(f"  {r.name:16} {WORDS[r.code]:14} {cases:>7}  {first}")
        if res is not None and res.trace_path:
            lines.append(f"  {'':16} reproducer: {res.trace_path}")
    return printable("\n".join(lines) + "\n")


def fuzz_many_json(rows: list[Fuzzed]) -> str:
    """The builds' fuzz reports side by side (schema: fuzz-matrix.schema.json)."""
    from ..reports.jsondoc import dumps

    return dumps({"kind": "refimpl-fuzz-matrix", "version": 1,
                  "builds": [{"name": r.name, "target": r.target, "gated": r.gated, "exit_code": int(r.code),
                              "verdict": WORDS[r.code].lower(), "broke_at_start": r.said or None,
                              "fuzz": r.result.json() if r.result is not None else None} for r in rows]})
