"""Many-builds benchmark (issue 47): 20 builds (the reference, the Node example build, the kit's 16 deliberately
wrong builds and two misbehaving ones), the whole suite each, judged

- one at a time, each a single-build ``verify`` (the baseline: the sum of the 20 runs' wall times);
- in one run on one worker, on 2 local workers, and on a 2-worker local Dask cluster;

and the HTML matrix of the run opened in the system's Chromium (its load time and size). Every ratio is against
a baseline measured in the same run; the bars: one worker at most 1.05x the sum, 2 workers at most 0.65x of one,
the Dask cluster at most 0.7x of one, the page under 2 s and 5 MB. The three matrices must be equal but for
times (checked).

    python bench/many.py [--quick]     (--quick: Lantern Quay alone, no exploration)

Writes bench/results/many.json and prints a table.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PY = shlex.quote(sys.executable)
WRONG = ["crossroads-to-north-pass", "tied-beacon-scores", "second-claim", "lists-a-claim-twice", "draft-timing-as-v1",
         "forge-spends-on-failure", "install-lights-two", "capture-bonus", "hard-ignores-risk",
         "given-faces-skip-the-stream", "one-step-toward-feed", "no-bonus-no-penalty", "leaks-the-ambush",
         "defender-wins-ties", "v0-tie-goes-to-the-beacon", "lenient-keepers"]


def builds() -> list[tuple[str, str]]:
    """(name, command) of the 20 builds."""
    out = [("reference", f"{PY} -m refimpl serve"), ("node", f"node {ROOT / 'examples/node-build/main.js'}")]
    out += [(name, f"{PY} {ROOT / 'tests/builds/wrong.py'} {name}") for name in WRONG]
    out += [(f"misbehave-{mode}", f"{PY} {ROOT / 'tests/builds/misbehave.py'} {mode}")
            for mode in ("crash-mid", "noisy-stderr")]
    return out


def timed(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "refimpl", *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=False)
    return time.perf_counter() - start


def without_times(path: Path) -> dict:
    doc = json.loads(path.read_text())
    for b in doc["builds"]:
        b["seconds"] = 0
    return doc


def page_load(path: Path) -> float:
    """Seconds from navigation to the load event of the page in headless Chromium (best of 3)."""
    from refimpl.util.browser import FLAGS, chromium, playwright

    best = float("inf")
    with playwright()() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=FLAGS, headless=True)
        try:
            for _ in range(3):
                tab = browser.new_page(viewport={"width": 1400, "height": 1000})
                start = time.perf_counter()
                tab.goto(path.as_uri(), wait_until="load")
                tab.wait_for_selector("#many")
                best = min(best, time.perf_counter() - start)
                tab.close()
        finally:
            browser.close()
    return best


def main() -> None:
    quick = ["--game", "lantern-quay", "--no-explore", "--no-scenarios"] if "--quick" in sys.argv else []
    work = Path(tempfile.mkdtemp(prefix="refimpl-bench-many-"))
    listed = builds()
    (work / "builds.yaml").write_text("builds:\n" + "".join(
        f"  - name: {name}\n    command: {json.dumps(command)}\n    cwd: {json.dumps(str(work))}\n"
        for name, command in listed))
    common = ["--quiet", *quick]
    single = sum(timed(["verify", "--impl", command, *common]) for _, command in listed)
    one = timed(["verify", "--builds", str(work / "builds.yaml"), "--jobs", "1", *common, "--json",
                 str(work / "one.json"), "--html", str(work / "matrix.html")])
    two = timed(["verify", "--builds", str(work / "builds.yaml"), "--jobs", "2", *common, "--json",
                 str(work / "two.json")])
    assert without_times(work / "one.json") == without_times(work / "two.json"), "2 workers: another matrix"
    dask = None
    try:
        from distributed import LocalCluster
    except ImportError:
        print("(the Dask cluster skipped: pip install -e '.[cluster]')")
    else:
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                          host="127.0.0.1") as cluster:
            dask = timed(["verify", "--builds", str(work / "builds.yaml"), "--cluster", cluster.scheduler_address,
                          *common, "--json", str(work / "dask.json")])
        assert without_times(work / "one.json") == without_times(work / "dask.json"), "Dask: another matrix"
    size = (work / "matrix.html").stat().st_size
    try:
        load = page_load(work / "matrix.html")
    except Exception as exc:  # noqa: BLE001 - no browser here: the rest stands
        print(f"(the page's load time skipped: {exc})")
        load = None
    results = {"builds": len(listed), "quick": bool(quick), "sum_of_single_runs_s": single, "one_worker_s": one,
               "two_workers_s": two, "dask_two_workers_s": dask, "one_worker_vs_sum": one / single,
               "two_workers_vs_one": two / one, "dask_vs_one": dask / one if dask else None,
               "html_bytes": size, "html_load_s": load}
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "many.json").write_text(json.dumps(results, indent=2) + "\n")
    print(f"{len(listed)} builds, {'Lantern Quay alone' if quick else 'the whole suite'} each:")
    print(f"  {'20 single-build runs, summed':34} {single:7.1f} s")
    print(f"  {'one run, 1 worker':34} {one:7.1f} s   {one / single:.2f}x the sum (bar 1.05x)")
    print(f"  {'one run, 2 local workers':34} {two:7.1f} s   {two / one:.2f}x of 1 worker (bar 0.65x)")
    if dask:
        print(f"  {'one run, 2-worker Dask cluster':34} {dask:7.1f} s   {dask / one:.2f}x of 1 worker (bar 0.7x)")
    print(f"  HTML matrix: {size / 1e6:.2f} MB (bar 5 MB)" + (f", loads in {load:.2f} s (bar 2 s)" if load else ""))


if __name__ == "__main__":
    main()
