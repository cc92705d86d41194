"""Trace loading: a 50 MB trace, against reading the same data as JSON (the floor) and against PyYAML's
libyaml binding on a 5 MB slice (what the kit used before), all measured in this run.

    python bench/traces.py [--megabytes 50]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from refimpl.harness.tracefile import load_trace

STEP = ("  - action: {type: claim, claims: {red: north-pass, blue: south-pass}}\n"
        "    expect:\n      round: 2\n      markers:\n        north-pass: {red: 1, blue: 0}\n")
HEAD = "version: 1\ngame: beacon-lines\ntitle: long\nrules: [BL-WIN-1]\nsource: bench\nsteps:\n"


def write(path: Path, megabytes: float) -> int:
    steps = int(megabytes * (1 << 20) / len(STEP))
    path.write_text(HEAD + STEP * steps)
    return steps


def seconds(work) -> float:  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--megabytes", type=float, default=50)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        big, small = Path(tmp) / "big.yaml", Path(tmp) / "small.yaml"
        steps = write(big, args.megabytes)
        write(small, 5)
        size = big.stat().st_size / (1 << 20)
        kit = seconds(lambda: all(True for _ in load_trace(big).steps))  # a long trace reads its steps lazily
        data = json.dumps(yaml.load(small.read_text(), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)))
        kit_small = seconds(lambda: all(True for _ in load_trace(small).steps))
        libyaml = seconds(lambda: yaml.load(small.read_text(), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)))
        floor = seconds(lambda: json.loads(data))
    print(f"trace of {size:.0f} MB ({steps} steps): loaded and checked in {kit:.1f} s ({size / kit:.1f} MB/s)")
    print(f"5 MB slice: kit {kit_small:.2f} s, PyYAML/libyaml parse alone {libyaml:.2f} s "
          f"({libyaml / kit_small:.1f}x the kit), the same data as JSON {floor:.3f} s "
          f"(kit = {kit_small / floor:.0f}x the JSON floor)")


if __name__ == "__main__":
    main()
