"""Long traces stream: ``refimpl replay`` of 1,000,000 tiny steps (18 MB), its wall time and peak memory, set
against 100,000 steps in the same run (time per step at both sizes: 1.0x is linear). Goal (issue 26): at most
30 s and 300 MB for the million.

    python bench/long_trace.py [--steps 1000000]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEAD = (ROOT / "traces/beacon-lines/round-1.yaml").read_text().split("steps:")[0]


def replay(path: Path) -> tuple[float, int]:
    """Seconds and peak KiB of one ``refimpl replay`` of ``path`` (in a process of its own)."""
    probe = ("import resource, subprocess, sys, time\n"
             "t = time.perf_counter()\n"
             "p = subprocess.run([sys.executable, '-m', 'refimpl', 'replay', sys.argv[1]], stdout=subprocess.DEVNULL)\n"
             "print(p.returncode, time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
    out = subprocess.run([sys.executable, "-c", probe, str(path)], capture_output=True, text=True, check=True,
                         cwd=ROOT).stdout.split()
    if out[0] != "0":
        raise SystemExit(f"replay of {path} exited {out[0]}")
    return float(out[1]), int(out[2])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=1_000_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        rows = []
        for steps in (args.steps // 10, args.steps):
            path = Path(tmp) / f"long-{steps}.yaml"
            path.write_text(HEAD + "steps:\n" + "- {restart: true}\n" * steps)
            seconds, kib = replay(path)
            rows.append((steps, path.stat().st_size, seconds, kib))
    (small, _, t_small, _), (big, size, t_big, kib) = rows
    per_small, per_big = t_small / small * 1e6, t_big / big * 1e6
    print(f"replay of {big:,} steps ({size / 1e6:.0f} MB): {t_big:.1f} s, peak {kib / 1024:.0f} MiB "
          f"(goal: 30 s, 300 MB)")
    print(f"per step: {per_big:.1f} us at {big:,}, {per_small:.1f} us at {small:,} "
          f"(ratio {per_big / per_small:.2f}x; 1.0x is linear)")


if __name__ == "__main__":
    main()
