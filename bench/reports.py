"""The richer reports cost nothing noticeable: the whole bundled suite (every trace and scenario) through
``refimpl verify`` against ``refimpl serve``, measured in this run three ways, alternating:

- base: the kit as it was before the richer reports (``--base``, default commit 6dcf9d3), from a temporary
  git worktree, with its default text report;
- now: this kit, default text report;
- now + every report: this kit writing the JSON, JUnit, HTML, badges and transcripts too.

The goal (issue 13): both ``now`` runs within 1.10 of ``base`` per unit of work (trace steps plus scenarios:
the suite grows with the kit, so the two kits do not run the same amount). Without git or the base commit,
only the two ``now`` runs are compared.

    python bench/reports.py [--rounds 3] [--base REF]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def timed(args: list[str], cwd: Path, fatal: bool = True) -> float | None:
    """Seconds ``args`` took in ``cwd``; a failure ends the bench (``fatal``) or gives None."""
    started = time.perf_counter()
    # Both kits keep their bytecode (the base's worktree is fresh), or the one without a cache pays to compile
    # every module on every run.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    proc = subprocess.run(args, cwd=cwd, capture_output=True, text=True, env=env)
    took = time.perf_counter() - started
    if proc.returncode != 0:
        if not fatal:
            print(f"  (the base kit did not run here, exit {proc.returncode}: {proc.stderr.strip()[-300:]})")
            return None
        raise SystemExit(f"bench/reports.py: {' '.join(args[:4])}... exit {proc.returncode}\n{proc.stderr[-2000:]}")
    return took


def work(root: Path) -> int:
    """The size of a kit's bundled suite: its trace steps plus its scenarios (Outline rows counted one by one),
    so kits whose suites differ are compared per unit of work."""
    import yaml

    steps = sum(len((yaml.safe_load(p.read_text(encoding="utf-8")) or {}).get("steps") or ())
                for p in sorted((root / "traces").rglob("*.yaml")))
    scenarios = 0
    for feature in sorted((root / "features").rglob("*.feature")):
        outline = ""  # "", "outline", "header" (the Examples' header row is next), "rows"
        for line in feature.read_text(encoding="utf-8").splitlines():
            text = line.strip()
            if text.startswith(("Scenario:", "Example:")):
                scenarios, outline = scenarios + 1, ""
            elif text.startswith(("Scenario Outline:", "Scenario Template:")):
                outline = "outline"
            elif text.startswith(("Examples:", "Scenarios:")) and outline:
                outline = "header"
            elif text.startswith("|") and outline == "header":
                outline = "rows"
            elif text.startswith("|") and outline == "rows":
                scenarios += 1
    return steps + scenarios


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
                    # The base ran its scenarios through pytest-bdd, which the kit no longer installs: without
                    # it, the base cannot run here and the two ``now`` runs are compared alone.
                    took = timed(verify, base, fatal=False)
                    if took is None:
                        subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT,
                                       capture_output=True)
                        base, runs["base"] = None, []
                    else:
                        runs["base"].append(took)
                runs["now"].append(timed(verify, ROOT) or 0.0)
                runs["now + every report"].append(timed(verify + reports, ROOT) or 0.0)
            size = {"base": work(base) if base is not None else 0, "now": work(ROOT)}
        finally:
            if base is not None:
                subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT, capture_output=True)
        size["now + every report"] = size["now"]
        median = {name: statistics.median(times) for name, times in runs.items() if times}
        anchor = "base" if "base" in median else "now"
        # The suite grows with the kit, so time is compared per unit of work (trace steps + scenarios).
        per_unit = {name: seconds / size[name] for name, seconds in median.items()}
        print(f"verify, whole bundled suite, against refimpl serve (median of {options.rounds} rounds):")
        for name, seconds in median.items():
            print(f"  {name:20} {seconds:6.2f} s   {size[name]:5} steps+scenarios   "
                  f"{seconds / median[anchor]:.2f}x {anchor}, {per_unit[name] / per_unit[anchor]:.2f}x per unit")
        if "now" in median:  # the same suite both ways: what writing every report costs, fixed costs included
            print(f"  every report on vs off, this suite: {median['now + every report'] / median['now']:.2f}x")
        if anchor == "base":
            worst = max(per_unit["now"], per_unit["now + every report"]) / per_unit["base"]
            met = "met" if worst <= 1.10 else "NOT met"
            print(f"  goal: within 1.10x of base per unit of work: {met} ({worst:.2f}x)")
        else:
            print(f"  (no run of the base {options.base} here: compared with this kit's default run only)")


if __name__ == "__main__":
    main()
