"""The richer reports cost nothing noticeable: the whole bundled suite (every trace and scenario) through
``refimpl verify`` against ``refimpl serve``, measured in this run three ways, alternating:

- base: the kit as it was before the richer reports (``--base``, default commit 6dcf9d3), from a temporary
  git worktree, with its default text report;
- now: this kit, default text report;
- now + every report: this kit writing the JSON, JUnit, HTML, badges and transcripts too.

The goal (issue 13): both ``now`` ratios within 1.10 of ``base``. Without git or the base commit, only the
two ``now`` runs are compared.

    python bench/reports.py [--rounds 3] [--base REF]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def timed(args: list[str], cwd: Path) -> float:
    started = time.perf_counter()
    proc = subprocess.run(args, cwd=cwd, capture_output=True, text=True)
    took = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(f"bench/reports.py: {' '.join(args[:4])}... exit {proc.returncode}\n{proc.stderr[-2000:]}")
    return took


def worktree(ref: str, folder: Path) -> Path | None:
    """A checkout of ``ref`` in ``folder`` (None without git or the commit)."""
    proc = subprocess.run(["git", "worktree", "add", "--detach", str(folder), ref], cwd=ROOT,
                          capture_output=True, text=True)
    return folder if proc.returncode == 0 else None


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--base", default="6dcf9d3", help="the commit before the richer reports")
    options = parser.parse_args()
    serve = f"{sys.executable} -m refimpl serve"
    verify = [sys.executable, "-m", "refimpl", "verify", "--impl", serve, "--quiet"]
    with tempfile.TemporaryDirectory(prefix="refimpl-bench-") as tmp:
        out = Path(tmp) / "reports"
        reports = ["--json", str(out / "verify.json"), "--junit-xml", str(out / "junit.xml"),
                   "--html", str(out / "report.html"), "--badges", str(out / "badges"), "--transcript", str(out / "tr")]
        base = worktree(options.base, Path(tmp) / "base")
        runs: dict[str, list[float]] = {"base": [], "now": [], "now + every report": []}
        try:
            for _ in range(options.rounds):
                if base is not None:  # python -m runs the package in the working folder: the base's own code
                    runs["base"].append(timed(verify, base))
                runs["now"].append(timed(verify, ROOT))
                runs["now + every report"].append(timed(verify + reports, ROOT))
        finally:
            if base is not None:
                subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT, capture_output=True)
        median = {name: statistics.median(times) for name, times in runs.items() if times}
        anchor = "base" if "base" in median else "now"
        print(f"verify, whole bundled suite, against refimpl serve (median of {options.rounds} rounds):")
        for name, seconds in median.items():
            print(f"  {name:20} {seconds:6.2f} s   {seconds / median[anchor]:.2f}x {anchor}")
        if anchor == "base":
            worst = max(median["now"], median["now + every report"]) / median["base"]
            print(f"  goal: within 1.10x of base: {'met' if worst <= 1.10 else 'NOT met'} ({worst:.2f}x)")
        else:
            print(f"  (no git worktree of {options.base}: compared with this kit's default run only)")


if __name__ == "__main__":
    main()
