"""The power meter: serve single-point mutants of the reference engines as outside builds and see
whether ``verify`` tells them from the reference.

Each mutant runs in a copy of the ``refimpl`` package in a temporary folder, with the one file changed,
started as ``python -I -B -c ...`` with that folder first on ``sys.path``: isolated mode keeps the
working directory (where the pristine kit lives) off the path, ``-B`` keeps stale bytecode out, and the
build checks that it imported the copy. The harness that judges it (``verify``, the traces, the
features) is the pristine kit of this process.

The judge is ``verify`` (the default) or ``fuzz`` (``--judge fuzz``: a default-settings fuzz campaign per
game, at most ``FUZZ_BUDGET`` seconds of search each, recording the time to the first divergence and the
reproducer's length), so the fuzzer's power is measured on the same mutants.

Verdicts: ``killed`` (verify exit 1: a check failed), ``broke`` (exit 3: the mutant crashed or hung,
which verify reports too), ``survived`` (exit 0: a gap in the kit, unless a review judged the mutant
equivalent), ``error`` (the kit could not run it). Results are appended to ``results.jsonl`` in the
output folder as they come, so a run can be stopped and resumed; a result is reused only while the
kit's checks and the mutated file are unchanged.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ...errors import KitError
from ...games.registry import KIT_FOLDER, engine_files
from ...harness.executor import run_jobs
from ...status import Status
from ...util import yamlsafe
from .judges import _fuzz_mutant, _verify_mutant, _verify_variants, build_command, game_of
from .operators import Site, data_sites, mutate, python_sites

PACKAGE = Path(__file__).resolve().parents[2]  # the pristine refimpl package
EQUIVALENTS = Path(__file__).resolve().parent / "equivalents.yaml"


class MutantsError(KitError):
    """Bad input to the power meter (an unreadable or stale equivalents file, an unknown game): exit 2."""


# --- the population ------------------------------------------------------------------------------

def population(games_dir: Path = PACKAGE / "games") -> list[Site]:
    """Every mutant of the engines and their data files (not the games' units: ``engine_files``), in a stable
    order."""
    sites: list[Site] = []
    for path in engine_files(games_dir):
        file = path.relative_to(games_dir.parent.parent).as_posix()
        if path.suffix == ".py":
            sites += python_sites(file, path.read_text(encoding="utf-8"))
        elif path.suffix == ".yaml":
            sites += data_sites(file, path.read_text(encoding="utf-8"))
    return sites


def sample(sites: list[Site], size: int, seed: int) -> list[Site]:
    """``size`` mutants spread over the games in proportion to their number of mutants (largest
    remainder), each game's share drawn with its own seeded generator; all of them when ``size`` is 0
    or at least the population. The same seed gives the same sample."""
    if size <= 0 or size >= len(sites):
        return list(sites)
    by_game: dict[str, list[Site]] = {}
    for site in sites:
        by_game.setdefault(game_of(site.file), []).append(site)
    exact = {g: size * len(s) / len(sites) for g, s in by_game.items()}
    shares = {g: int(x) for g, x in exact.items()}
    for g in sorted(exact, key=lambda g: (shares[g] - exact[g], g))[: size - sum(shares.values())]:
        shares[g] += 1
    chosen = {s.id for g, group in by_game.items()
              for s in random.Random(f"{seed}:{g}").sample(group, shares[g])}
    return [s for s in sites if s.id in chosen]


# --- equivalent mutants --------------------------------------------------------------------------

@dataclass(frozen=True)
class Judgement:
    """A reviewed mutant (``id``) or a whole function (``function``: file::qualname) judged equivalent."""

    reason: str
    id: str | None = None
    mutant: str | None = None  # "file qualname: before -> after", checked against the current code
    function: str | None = None


def _label(site: Site) -> str:
    return f"{site.file} {site.qualname}: {site.before} -> {site.after}"


def load_equivalents(path: Path = EQUIVALENTS) -> list[Judgement]:
    """The reviewed judgements. Raises MutantsError for a malformed file."""
    try:
        data = yamlsafe.load_file(path)[1] if path.exists() else []
    except yamlsafe.YamlError as exc:
        raise MutantsError(str(exc)) from None
    out = []
    for i, entry in enumerate(data or [], 1):
        if not isinstance(entry, dict) or not str(entry.get("reason", "")).strip() \
                or ("id" in entry) == ("function" in entry):
            raise MutantsError(f"{path}: entry {i} needs a reason and exactly one of id, function")
        out.append(Judgement(str(entry["reason"]), entry.get("id"), entry.get("mutant"), entry.get("function")))
    return out


def stale_judgements(judgements: list[Judgement], sites: list[Site]) -> list[str]:
    """Judgements that no longer fit the code: an id no mutant has, a text that changed, a function
    that is gone. A review must look at them again."""
    by_id = {s.id: s for s in sites}
    functions = {f"{s.file}::{s.qualname}" for s in sites}
    problems = []
    for j in judgements:
        if j.id is not None:
            site = by_id.get(j.id)
            if site is None:
                problems.append(f"{j.id} ({j.mutant}): no such mutant any more")
            elif j.mutant is not None and j.mutant != _label(site):
                problems.append(f"{j.id}: was {j.mutant!r}, is now {_label(site)!r}")
        elif j.function not in functions:
            problems.append(f"{j.function}: no such function any more")
    return problems


def equivalence(site: Site, judgements: Iterable[Judgement]) -> str | None:
    """The reason ``site`` was judged equivalent, or None."""
    for j in judgements:
        if j.id == site.id or j.function == f"{site.file}::{site.qualname}":
            return j.reason
    return None


# --- running one mutant --------------------------------------------------------------------------

@dataclass(frozen=True)
class Job:
    site: Site
    timeout: float
    judge: str = "verify"
    folder: str | None = None  # where the package copy goes: the run's own folder, removed by the run however it
    # ends (a worker killed on Ctrl-C never removes its copy itself); None or absent (a cluster's worker): $TMPDIR


def run_mutant(job: Job) -> dict[str, Any]:
    """Serve one mutant and judge it (verify stopping at the first failure, or fuzz). Never raises."""
    site = job.site
    started = time.monotonic()
    record: dict[str, Any] = {"status": Status.ERROR, "by": "", "detail": ""}
    try:
        here = job.folder if job.folder and os.path.isdir(job.folder) else None
        with tempfile.TemporaryDirectory(prefix="refimpl-mutant-", dir=here) as tmp:
            shutil.copytree(PACKAGE, Path(tmp) / "refimpl", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            target = Path(tmp) / site.file
            target.write_text(mutate(target.read_text(encoding="utf-8"), site), encoding="utf-8")
            command = build_command(Path(tmp), f"mutant {site.id}")
            judged = _fuzz_mutant(command, site, job.timeout, tmp) if job.judge == "fuzz" else \
                _verify_mutant(command, site, job.timeout)
            if judged.get("status") == Status.SURVIVED and job.judge != "fuzz":
                judged = _verify_variants(Path(tmp), site, job.timeout) or judged
            record.update(judged)
    except Exception as exc:  # noqa: BLE001 - a kit problem, recorded with the mutant
        record.update(status=Status.ERROR, detail=f"{type(exc).__name__}: {exc}")
    record["detail"] = str(record["detail"]).splitlines()[0][:300] if record["detail"] else ""
    record["seconds"] = round(time.monotonic() - started, 2)
    return record


# --- the campaign --------------------------------------------------------------------------------

# The folders of the package whose Python files judge no build, left out of the kit's fingerprint: the engines
# under test (a mutant's own file is digested apart: Results.get), the campaigns (this power meter, simulate; the
# fuzzer counts for ``judge`` fuzz alone) and the pictures of the reports. Every other Python file, in any folder,
# counts: the games' units (``games/<game>/kit/``) judge (their scenario steps, own-chance judges, fuzzer hints)
# but for their pictures.
NOT_JUDGING = ("games", "campaigns", "reports/pictures")
_UNIT_PICTURE = "picture.py"
FUZZER = "campaigns/fuzz"


def _within(path: Path, folders: Iterable[str]) -> bool:
    name = path.relative_to(PACKAGE).as_posix()
    return any(name.startswith(folder + "/") for folder in folders)


def kit_fingerprint(judge: str = "verify") -> str:
    """A digest of everything that judges a build: the harness, verify, the reports, the schemas, the scenario
    runner and steps, traces and features (and the fuzzer, for ``judge`` fuzz), by their names inside the package
    and their bytes. Python files are found in every folder of the package but NOT_JUDGING."""
    from ... import suite

    digest = hashlib.sha1(judge.encode() if judge != "verify" else b"")
    files = sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts and not _within(p, NOT_JUDGING))
    files += sorted(p for p in (PACKAGE / "games").glob(f"*/{KIT_FOLDER}/*.py") if p.name != _UNIT_PICTURE)
    files += sorted((PACKAGE / "schemas").rglob("*.json"))
    if judge == "fuzz":
        files += sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts and _within(p, (FUZZER,)))
    named = [(p.relative_to(PACKAGE.parent).as_posix(), p) for p in files] + suite.files()
    for name, path in named:
        digest.update(name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def _file_digest(file: str) -> str:
    return hashlib.sha1((PACKAGE.parent / file).read_bytes()).hexdigest()[:12]


class Results:
    """``results.jsonl`` in the output folder: one record a mutant, appended as it finishes."""

    def __init__(self, folder: Path, kit: str) -> None:
        self.path = folder / "results.jsonl"
        self.kit = kit
        self.records: dict[str, dict[str, Any]] = {}
        if self.path.exists():
            for line in self.path.read_text(encoding="utf-8").splitlines():
                try:
                    record = json.loads(line)
                except ValueError:
                    continue  # a line cut short by a stopped run
                if isinstance(record, dict) and record.get("kit") == kit:
                    self.records[record["id"]] = record

    def get(self, site: Site) -> dict[str, Any] | None:
        record = self.records.get(site.id)
        return record if record is not None and record.get("source") == _file_digest(site.file) else None

    def add(self, record: dict[str, Any]) -> None:
        self.records[record["id"]] = record
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as out:
            out.write(json.dumps(record, sort_keys=True) + "\n")


def run_campaign(sites: list[Site], out: Path, jobs: int = 1, timeout: float = 5.0, fresh: bool = False,
                 progress: Callable[[int, int, dict[str, Any]], None] | None = None,
                 judge: str = "verify", cluster: str | None = None) -> list[dict[str, Any]]:
    """Run every mutant in ``sites`` not already done (unless ``fresh``) under ``judge`` (verify or fuzz),
    ``jobs`` at once in local processes or on the Dask cluster at ``cluster``; the records, in site order.
    Raises ExecutorError when the cluster cannot run them."""
    kit = kit_fingerprint(judge)
    if fresh and (out / "results.jsonl").exists():
        (out / "results.jsonl").unlink()
    results = Results(out, kit)
    todo = [s for s in sites if results.get(s) is None]
    done = len(sites) - len(todo)
    folder = tempfile.mkdtemp(prefix="refimpl-mutants-")
    try:
        for job, record in run_jobs(run_mutant, [Job(s, timeout, judge, folder) for s in todo], jobs, cluster):
            site = job.site
            record.update(id=site.id, file=site.file, line=site.line, qualname=site.qualname,
                          operator=site.operator, before=site.before, after=site.after, game=game_of(site.file),
                          kit=kit, source=_file_digest(site.file), judge=judge)
            results.add(record)
            done += 1
            if progress is not None:
                progress(done, len(sites), record)
    finally:  # after the workers have ended (run_jobs reaps them): no package copy is left behind
        shutil.rmtree(folder, ignore_errors=True)
    return [results.get(s) or {} for s in sites]


# --- the score -----------------------------------------------------------------------------------

@dataclass
class Tally:
    sampled: int = 0
    killed: int = 0
    broke: int = 0
    survived: int = 0
    equivalent: int = 0
    error: int = 0

    @property
    def detected(self) -> int:
        return self.killed + self.broke

    @property
    def score(self) -> float | None:
        """Detected among the mutants that are not equivalent (and not errors)."""
        judged = self.sampled - self.equivalent - self.error
        return None if judged <= 0 else self.detected / judged

    @property
    def raw(self) -> float | None:
        """Detected among all sampled mutants: equivalents count as survivors."""
        judged = self.sampled - self.error
        return None if judged <= 0 else self.detected / judged


@dataclass
class Score:
    records: list[dict[str, Any]]
    by_game: dict[str, Tally]
    by_operator: dict[str, Tally]
    total: Tally
    survivors: list[dict[str, Any]]  # survived and not judged equivalent: the kit's gaps
    contradicted: list[dict[str, Any]]  # judged equivalent, yet verify told them apart: the judgement is wrong


def score(records: list[dict[str, Any]], sites: list[Site], judgements: list[Judgement]) -> Score:
    by_game: dict[str, Tally] = {}
    by_operator: dict[str, Tally] = {}
    total = Tally()
    survivors, contradicted = [], []
    for site, record in zip(sites, records):
        reason = equivalence(site, judgements)
        record = {**record, "equivalent": reason}
        for tally in (by_game.setdefault(game_of(site.file), Tally()),
                      by_operator.setdefault(site.operator, Tally()), total):
            tally.sampled += 1
            status = record.get("status", Status.ERROR)
            if status == Status.ERROR:
                tally.error += 1
            elif reason is not None:
                tally.equivalent += 1
                if status in (Status.KILLED, Status.BROKE) and tally is total:
                    contradicted.append(record)
            elif status == Status.KILLED:
                tally.killed += 1
            elif status == Status.BROKE:
                tally.broke += 1
            else:
                tally.survived += 1
        if record.get("status") == Status.SURVIVED and reason is None:
            survivors.append(record)
    return Score(records, dict(sorted(by_game.items())), dict(sorted(by_operator.items())), total, survivors,
                 contradicted)


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def score_text(result: Score, header: str = "") -> str:
    """The score per game and per operator, then every survivor by file:line."""
    cols = ("sampled", "killed", "broke", "survived", "equivalent", "error")
    lines = [header] if header else []

    def table(title: str, rows: Mapping[str, Tally]) -> None:
        lines.append(f"{title:15}" + "".join(f"{c:>11}" for c in cols) + f"{'score':>9}{'raw':>9}")
        for name, t in {**rows, "all": result.total}.items():
            lines.append(f"{name:15}" + "".join(f"{getattr(t, c):>11}" for c in cols)
                         + f"{_pct(t.score):>9}{_pct(t.raw):>9}")
        lines.append("")

    table("game", result.by_game)
    table("operator", result.by_operator)
    found = [r for r in result.records if r.get("found_after") is not None and r.get("steps") is not None]
    if found:
        lines.append(f"{'fuzz findings':15}{'found':>7}{'median s':>10}{'max s':>8}{'median steps':>14}"
                     f"{'max steps':>11}{'shrink cut':>12}")
        by_game: dict[str, list[dict[str, Any]]] = {}
        for r in found:
            by_game.setdefault(r.get("game", "?"), []).append(r)
        for name, rows in {**dict(sorted(by_game.items())), "all": found}.items():
            times, steps = [r["found_after"] for r in rows], [r["steps"] for r in rows]
            lines.append(f"{name:15}{len(rows):>7}{_median(times):>10.1f}{max(times):>8.1f}{_median(steps):>14g}"
                         f"{max(steps):>11}{sum(bool(r.get('shrink_cut')) for r in rows):>12}")
        lines.append("")
    lines.append("score: killed + broke among the mutants not judged equivalent; raw: equivalents count as survivors")
    if result.survivors:
        lines += ["", f"Survivors ({len(result.survivors)}): mutants the judge could not tell from the reference"]
        for r in sorted(result.survivors, key=lambda r: (r["file"], r["line"])):
            lines.append(f"  {r['file']}:{r['line']} {r['qualname']}: {r['before']} -> {r['after']}  [{r['id']}]")
    if result.contradicted:
        lines += ["", "Judged equivalent but told apart by the judge (fix refimpl/campaigns/mutants/equivalents.yaml):"]
        for r in result.contradicted:
            lines.append(f"  {r['file']}:{r['line']} {r['qualname']}: {r['before']} -> {r['after']}  [{r['id']}]"
                         f" by {r.get('by')}")
    errors = [r for r in result.records if r.get("status") == Status.ERROR]
    if errors:
        lines += ["", f"Errors ({len(errors)}): the kit could not run these (a bug of the kit, not of the mutant)"]
        lines += [f"  {r.get('file')}:{r.get('line')} [{r.get('id')}]: {r.get('detail')}" for r in errors[:10]]
        if len(errors) > 10:
            lines.append(f"  ... and {len(errors) - 10} more in results.jsonl")
    return "\n".join(lines) + "\n"


def score_json(result: Score) -> dict[str, Any]:
    """The score for machines (schema: refimpl/schemas/output/mutants.schema.json): games and operators as
    lists of rows, score and raw as fractions (numerator, denominator, probability), safe for strict JSON."""
    from ...reports.jsondoc import fraction
    from ...reports.safetext import json_safe

    def tally(t: Tally) -> dict[str, Any]:
        return {**asdict(t), "score": fraction(t.detected, t.sampled - t.equivalent - t.error),
                "raw": fraction(t.detected, t.sampled - t.error)}

    return json_safe({"games": [{"game": g, **tally(t)} for g, t in result.by_game.items()],
                      "operators": [{"operator": o, **tally(t)} for o, t in result.by_operator.items()],
                      "total": tally(result.total), "survivors": result.survivors,
                      "contradicted": result.contradicted, "mutants": result.records})
