"""Many builds in one run (issue 47): each build judged by ``verify`` as a run of its own, the builds spread
over local worker processes or a Dask cluster (harness/executor.py, the seam ``simulate`` and ``fuzz`` use),
and their reports gathered, in the builds' order, into one ``Matrix`` (reports/matrix.py).

What a build nobody trusts is held to here (docs/many-builds.md "Builds nobody trusts"):

- its environment is the allow-list (processes.ALLOWED_ENV, the locale's LC_*), the names the run passes on
  (``--pass-env``) and its own ``env:``; never the CI's tokens or GitHub's file-command paths;
- a build of a builds file starts in a temporary folder of its own, made for it and removed after;
- each answer is bounded in time (``--timeout``), the whole build in time (``--build-time``: the rest is not
  run), each of its processes in memory (``--memory``: RLIMIT_DATA) and its output (a response line of 1 MiB,
  a stderr tail of 64 lines: harness/buildprocess.py);
- a container image's containers carry the job's label and are removed when the build's run ends
  (verify/containers.py).

A job is one build's whole run, so one build's hang or flood costs its own limits alone: the other workers go
on. The matrix holds each build's verify JSON, so the same builds give the same matrix whatever the executor
and the order the builds end in."""

from __future__ import annotations

import contextlib
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ..harness.protocol import Build
from ..reports.jsondoc import verify_json
from ..reports.matrix import Entry, Matrix
from ..reports.runs import report_from_json
from .builds import BuildSpec
from .settings import VerifySettings


@dataclass(frozen=True)
class Job:
    """One build's run: its place in the run, what the builds file says of it, how the kit starts it and what
    its verify run is asked to do. Picklable, so it runs alike in this process, a worker or a cluster."""

    index: int
    spec: BuildSpec
    build: Build
    settings: VerifySettings
    page_notes: bool = False  # a page: note the requests it made outside its origin as warnings
    container: tuple[str, str] | None = None  # an image: (the engine, the job's label), removed after


@dataclass(frozen=True)
class Judged:
    """What a job hands back: the build's verify report as JSON (the one transport every executor carries
    alike) and the seconds it took."""

    index: int
    report: str
    seconds: float
    interrupted: str = ""  # Ctrl-C or SIGTERM reached the build's run


def judge(job: Job) -> Judged:
    """Run ``verify`` on one build (in whatever process the executor chose), in a fresh folder of its own when
    its spec asks for one; the folder and any container the build left are removed after."""
    from ..harness.processes import scope
    from .containers import remove_containers
    from .run import verify
    from .screens import NOTES, notes_file, refused

    started = time.monotonic()
    folder = tempfile.mkdtemp(prefix=f"refimpl-{job.spec.name}-") if job.spec.own_folder else None
    notes = notes_file(folder) if job.page_notes else None
    build = job.build
    if folder is not None:
        build = replace(build, cwd=folder)
    if notes is not None:
        build = replace(build, env={**build.env, NOTES: notes})
    try:
        with scope():
            report = verify(build, job.settings)
        if notes is not None:
            report.warnings += refused(notes)
        report.build = report.build or job.spec.name
        return Judged(job.index, verify_json(report), time.monotonic() - started, report.interrupted)
    finally:
        if job.container is not None:
            remove_containers(*job.container)
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
        elif notes is not None:  # (refused removed it, unless the run did not get that far)
            with contextlib.suppress(OSError):
                Path(notes).unlink(missing_ok=True)


def run_many(jobs_list: Sequence[Job], gate: Sequence[str], jobs: int = 1, cluster: str | None = None,
             heard: Callable[[Job, Judged], None] | None = None) -> Matrix:
    """Every job run (``jobs`` local workers, or the Dask cluster at ``cluster``), ``heard`` told of each as it
    ends, and the matrix of their reports in the jobs' order. Ctrl-C ends every worker and its builds; the
    KeyboardInterrupt carries on to the caller with ``done`` (what had finished) on the exception. Raises
    ExecutorError (a cluster that cannot be reached)."""
    from ..harness.executor import run_jobs

    done: dict[int, Judged] = {}
    by_index = {job.index: job for job in jobs_list}
    try:
        for job, judged in run_jobs(judge, list(jobs_list), jobs, cluster):
            done[job.index] = judged
            if heard is not None:
                heard(by_index[job.index], judged)
            if judged.interrupted:  # Ctrl-C reached the build's run (in this process): the rest is not run
                from ..harness.processes import Terminated

                raise Terminated if judged.interrupted == "SIGTERM" else KeyboardInterrupt
    except KeyboardInterrupt as exc:
        exc.done = matrix_of(jobs_list, done, gate)  # type: ignore[attr-defined]
        raise
    return matrix_of(jobs_list, done, gate)


def matrix_of(jobs_list: Sequence[Job], done: dict[int, Judged], gate: Sequence[str]) -> Matrix:
    """The matrix of the jobs that finished, in the jobs' order."""
    import json

    entries = []
    for job in jobs_list:
        judged = done.get(job.index)
        if judged is None:
            continue
        entries.append(Entry(name=job.spec.name, target=job.spec.target, report=report_from_json(json.loads(
            judged.report)), seconds=judged.seconds, games=job.spec.games))
    return Matrix(entries=entries, gate=tuple(gate), planned=tuple(job.spec.name for job in jobs_list))


__all__ = ["Job", "Judged", "judge", "matrix_of", "run_many"]
