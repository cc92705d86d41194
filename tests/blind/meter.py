"""The blind misreadings as a power meter (``make blind``): each one a patch to the Node example build written by
someone who read only specs/ and the protocol page, never the kit's checks (tests/blind/README.md). Every
misreading is applied to a fresh copy of examples/node-build and judged by ``refimpl verify`` (its game only),
by ``verify --no-explore`` (the traces and scenarios alone) and by a default ``refimpl fuzz`` of its game; a
line of ``OUT/results.jsonl`` each, then a table per batch.

    python -m tests.blind.meter [--batch batch1] [--jobs 2] [--out blind-out] [--only KEY ...] [--no-fuzz]

These builds are a measuring stick, not a target: no check of the kit is written for one of them.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
NODE_BUILD = ROOT / "examples" / "node-build"


def entries(batch: str) -> list[dict[str, Any]]:
    """The misreadings of a batch, from its ``manifest-*.yaml`` files, in key order."""
    found: list[dict[str, Any]] = []
    for manifest in sorted((HERE / batch).glob("manifest-*.yaml")):
        found += [dict(e, batch=batch) for e in yaml.safe_load(manifest.read_text(encoding="utf-8")) or []]
    return sorted(found, key=lambda e: str(e["key"]))


def build_copy(entry: dict[str, Any], where: Path) -> Path:
    """A copy of the Node build with the misreading's patch applied, in ``where``. Raises RuntimeError when the
    patch no longer applies."""
    target = where / "build"
    shutil.copytree(NODE_BUILD, target)
    patch = HERE / entry["batch"] / f"{entry['key']}.diff"
    done = subprocess.run(["patch", "-p1", "--quiet", "-i", str(patch)], cwd=target, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{patch.name} does not apply: {done.stdout}{done.stderr}")
    return target


def _refimpl(args: list[str], cwd: Path, env: dict[str, str], timeout: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "refimpl", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout)


def _verify(build: Path, entry: dict[str, Any], env: dict[str, str], extra: list[str]) -> dict[str, Any]:
    started = time.monotonic()
    proc = _refimpl(["verify", "--impl", "node main.js", "--game", entry["game"], "--quiet", "--format", "json",
                     *_profile(entry), *extra], build, env, 1200)
    out: dict[str, Any] = {"exit": proc.returncode, "seconds": round(time.monotonic() - started, 1)}
    try:
        doc = json.loads(proc.stdout)
        bad = [c for c in doc["checks"] if c["status"] in ("failed", "broke")]
        credited = {r for c in bad for r in c["credited_rules"]}
        out.update(failed=len(bad), credited=sorted(credited)[:12],
                   own_rule=bool(set(entry["rules"]) & credited),
                   kinds=sorted({c["kind"] for c in bad}))
    except (ValueError, KeyError, TypeError):
        out["error"] = proc.stderr[-400:]
    return out


def _profile(entry: dict[str, Any]) -> list[str]:
    """``--profile FILE`` for a misreading of a variant (batch7): the build plays, and is judged, under it."""
    return ["--profile", str(HERE / entry["batch"] / entry["profile"])] if entry.get("profile") else []


KIT = [ROOT]  # the kit checkout judging (--kit: another one, such as an earlier commit's worktree)


def judge(entry: dict[str, Any], fuzz: bool) -> dict[str, Any]:
    """One misreading: verify with and without the exploration, and default fuzz."""
    record: dict[str, Any] = {"key": entry["key"], "game": entry["game"], "rules": entry["rules"]}
    env = {**os.environ, **{str(k): str(v) for k, v in (entry.get("env") or {}).items()}}
    env["PYTHONPATH"] = str(KIT[0])
    with tempfile.TemporaryDirectory(prefix="blind-") as tmp:
        try:
            build = build_copy(entry, Path(tmp))
        except RuntimeError as exc:
            return {**record, "error": str(exc)}
        record["verify"] = _verify(build, entry, env, [])
        if KIT[0] == ROOT:  # an earlier kit (--kit) may have no exploration to leave out
            record["traces_scenarios"] = _verify(build, entry, env, ["--no-explore"])
        if fuzz:
            started = time.monotonic()
            proc = _refimpl(["fuzz", "--impl", "node main.js", "--game", entry["game"], "--quiet", "--format",
                             "json", "--out", str(Path(tmp) / "fuzz-out"), *_profile(entry)], build, env, 600)
            record["fuzz"] = {"exit": proc.returncode, "seconds": round(time.monotonic() - started, 1)}
    return record


def caught(result: dict[str, Any] | None) -> bool:
    return bool(result) and result.get("exit") in (1, 3)  # type: ignore[union-attr]


def table(records: list[dict[str, Any]]) -> str:
    """Per game: misreadings, caught by verify (and credited to the misread rule), by verify without the
    exploration, found by default fuzz."""
    games: dict[str, list[dict[str, Any]]] = {}
    for r in records:
        games.setdefault(r["game"], []).append(r)
    rows = ["| game | misreadings | verify | credited to its rule | traces and scenarios alone | default fuzz |",
            "|---|---|---|---|---|---|"]
    for game, mine in [*sorted(games.items()), ("all", records)]:
        v = sum(caught(r.get("verify")) for r in mine)
        own = sum(bool(r.get("verify", {}).get("own_rule")) for r in mine)
        ts = sum(caught(r.get("traces_scenarios")) for r in mine)
        fz = sum(caught(r.get("fuzz")) for r in mine) if any("fuzz" in r for r in mine) else "-"
        rows.append(f"| {game} | {len(mine)} | {v} | {own} | {ts} | {fz} |")
    return "\n".join(rows) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch", action="append", help="batch folder(s) under tests/blind (default: all)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", default="blind-out")
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--no-fuzz", action="store_true")
    parser.add_argument("--kit", help="judge with the kit in this checkout (default: this one)")
    args = parser.parse_args()
    if args.kit:
        KIT[0] = Path(args.kit).resolve()
    batches = args.batch or sorted(p.name for p in HERE.iterdir() if p.is_dir() and p.name.startswith("batch"))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for batch in batches:
        todo = [e for e in entries(batch) if not args.only or e["key"] in args.only]
        with ThreadPoolExecutor(args.jobs) as pool:
            records = list(pool.map(lambda e: judge(e, not args.no_fuzz), todo))
        with open(out / f"{batch}.jsonl", "w", encoding="utf-8") as f:
            for r in records:
                f.write(json.dumps(r) + "\n")
        print(f"\n{batch}\n" + table(records))
        for r in records:
            print(f"  {r['key']:45} verify={r.get('verify', {}).get('exit')} "
                  f"alone={r.get('traces_scenarios', {}).get('exit')} fuzz={r.get('fuzz', {}).get('exit')} "
                  f"own_rule={r.get('verify', {}).get('own_rule')} {r.get('error', '')}")


if __name__ == "__main__":
    main()
