"""The misreading catalogue as a power meter (``make misreadings``): every misreading served through the real
protocol (tests/builds/misread.py), judged by ``refimpl verify`` (restricted to its game) and by a default fuzz
campaign (its time budget, FUZZ_BUDGET seconds), each result a line of ``OUT/results.jsonl`` as it comes (a
stopped run resumes), then a table per game: misreadings, caught by verify, credited to the misread rule, found
by fuzz, median time to find and median reproducer length.

    python -m tests.misreadings.meter [--jobs 2] [--out misreadings-out] [--only KEY ...] [--format markdown]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from refimpl.campaigns.fuzz import FuzzSettings, fuzz  # noqa: E402
from refimpl.harness.executor import run_jobs  # noqa: E402
from tests.misreadings import MISREADINGS, game_of, rule_of  # noqa: E402

FUZZ_BUDGET = 60.0  # seconds of search per misreading (the bound)


def judge(key: str) -> dict[str, Any]:
    """One misreading: verify's verdict and credit, fuzz's finding."""
    game = game_of(key)
    build = f"{sys.executable} {ROOT / 'tests/builds/misread.py'} {key}"
    started = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "refimpl", "verify", "--impl", build, "--game", game, "--quiet",
                           "--format", "json"], cwd=ROOT, capture_output=True, text=True, timeout=1200)
    record: dict[str, Any] = {"key": key, "game": game, "rule": rule_of(key), "verify_exit": proc.returncode,
                              "verify_seconds": round(time.monotonic() - started, 1)}
    try:
        doc = json.loads(proc.stdout)
        rows = next(m["rules"] for m in doc["matrix"] if m["game"] == game)
        row = next((r for r in rows if r["rule"] == rule_of(key)), None)
        record["credited"] = bool(row and (row["failed"] or row["broke"]))
        # every rule its failures are credited to, and how many besides its own (issue 41: at most two others)
        blamed = sorted({r for c in doc["checks"] if c["status"] in ("failed", "broke") for r in c["credited_rules"]})
        record["blamed"] = blamed
        record["others"] = len(set(blamed) - {rule_of(key)})
    except (ValueError, StopIteration, KeyError):
        record["credited"] = False
    if os.environ.get("MISREADINGS_NO_FUZZ"):  # --no-fuzz: verify and its credit alone
        return record
    try:
        with tempfile.TemporaryDirectory() as out:  # the reproducer is not kept: its length is
            report = fuzz(build, FuzzSettings(game, max_time=FUZZ_BUDGET), out)
        finding = report.finding
        record.update(fuzz_found=finding is not None,
                      fuzz_seconds=None if finding is None else finding.found_after,
                      fuzz_steps=None if finding is None else finding.steps())
    except Exception as exc:  # noqa: BLE001 - a misreading that breaks at once is found at once
        record.update(fuzz_found=True, fuzz_seconds=0.0, fuzz_steps=0, fuzz_note=f"{type(exc).__name__}: {exc}")
    return record


STEP_BOUND = 10  # the longest reproducer the issue allows


def step_bound(key: str) -> int:
    """The reproducer length a misreading must be found within: STEP_BOUND, or its game's shortest possible
    route to the difference when that is longer (a misreading's ``shortest_reproducer``, with its reason)."""
    return max(STEP_BOUND, getattr(MISREADINGS.get(key), "shortest_reproducer", 0))


def summary(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per game (and all): misreadings, caught by verify, credited, found by fuzz (within budget, <= 10 steps),
    median seconds to find, median reproducer length."""
    rows = []
    for game in sorted({r["game"] for r in records}) + ["all"]:
        mine = [r for r in records if game in ("all", r["game"])]
        found = [r for r in mine if r.get("fuzz_found")]
        rows.append({
            "game": game, "misreadings": len(mine), "rules": len({r["rule"] for r in mine}),
            "verify": sum(r["verify_exit"] in (1, 3) for r in mine), "credited": sum(r["credited"] for r in mine),
            "fuzz": len(found), "fuzz_short": sum((r.get("fuzz_steps") or 0) <= step_bound(r["key"]) for r in found),
            "median_seconds": round(statistics.median([r["fuzz_seconds"] for r in found]), 1) if found else None,
            "median_steps": statistics.median([r["fuzz_steps"] for r in found]) if found else None,
            # the credit (issue 41): misreadings whose failures name at most two rules besides their own
            "few_others": sum(r.get("others", 99) <= 2 for r in mine),
            "median_others": statistics.median([r.get("others", 0) for r in mine]) if mine else None})
    return rows


def markdown(rows: list[dict[str, Any]]) -> str:
    head = ("| game | misreadings | rules | caught by verify | credited to the rule | at most 2 other rules credited "
            "| median other rules | found by fuzz (60 s) | of those, <= 10 steps (or the shortest possible) "
            "| median time to find | median reproducer |")
    lines = [head, "|" + "---|" * 11]
    for r in rows:
        name = f"**{r['game']}**" if r["game"] == "all" else r["game"]
        lines.append(f"| {name} | {r['misreadings']} | {r['rules']} | {r['verify']} | {r['credited']} | "
                     f"{r['few_others']} | {r['median_others']} | {r['fuzz']} | "
                     f"{r['fuzz_short']} | {r['median_seconds']} s | {r['median_steps']} steps |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", default="misreadings-out")
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--format", choices=["text", "markdown", "json"], default="markdown")
    parser.add_argument("--no-fuzz", action="store_true", help="verify (and its credit) alone, no fuzz campaign")
    args = parser.parse_args()
    if args.no_fuzz:
        os.environ["MISREADINGS_NO_FUZZ"] = "1"  # the jobs' processes inherit it
    out = ROOT / args.out
    out.mkdir(parents=True, exist_ok=True)
    results = out / "results.jsonl"
    done = {}
    if results.exists():
        for line in results.read_text().splitlines():
            record = json.loads(line)
            done[record["key"]] = record
    keys = [k for k in sorted(MISREADINGS) if (args.only is None or k in args.only)]
    todo = [k for k in keys if k not in done]
    if len(todo) < len(keys):
        print(f"resuming: {len(keys) - len(todo)} results already in {results} are kept (remove it for a fresh "
              f"run of the kit as it is now)", file=sys.stderr)
    for i, (_, record) in enumerate(run_jobs(judge, todo, args.jobs), 1):
        done[record["key"]] = record
        with results.open("a") as f:
            f.write(json.dumps(record) + "\n")
        print(f"[{i}/{len(todo)}] {record['key']}: verify {record['verify_exit']}, credited {record['credited']}, "
              f"fuzz {record.get('fuzz_seconds')} s / {record.get('fuzz_steps')} steps", file=sys.stderr)
    records = [done[k] for k in keys]
    rows = summary(records)
    if args.format == "json":
        print(json.dumps({"summary": rows, "missed": [r for r in records if r["verify_exit"] not in (1, 3)
                                                       or not r["credited"] or not r.get("fuzz_found")]}, indent=1))
    else:
        print(markdown(rows))
        missed = [r["key"] for r in records if r["verify_exit"] not in (1, 3)]
        uncredited = [r["key"] for r in records if not r["credited"]]
        unfound = [r["key"] for r in records if not r.get("fuzz_found")]
        print(f"\nverify missed: {missed}\nnot credited: {uncredited}\nfuzz missed: {unfound}")


if __name__ == "__main__":
    main()
