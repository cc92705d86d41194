"""``make bench``: every benchmark, each a ratio against a baseline measured in the same run."""

import runpy
from pathlib import Path

HERE = Path(__file__).resolve().parent

for name in ("protocol", "verify_jobs", "explore", "ludo", "simulate", "solve", "page", "cluster", "many", "fuzz",
             "traces", "long_trace", "reports"):
    print(f"== {name}")
    runpy.run_path(str(HERE / f"{name}.py"), run_name="__main__")
    print()
