"""Protocol benchmark: cost per message, measured as ratios against an echo build that answers
instantly, all in the same run on the same machine.

- echo lock-step / echo pipelined: the floor, one request at a time vs all written before reading;
- refimpl serve, pipelined, replaying the bundled traces of each game (and of all games), as verify
  sends them: wall time per message and its ratio to the floor (the goal: within 2x), both best against best
  and paired (each run against a floor measured just before it, the median and range), and where the time
  goes: CPU per message of the build (serve: reading, rules, views, writing) and of the kit (reading the
  answers, checking them);
- the same with serve writing and reading JSON with the standard library instead of orjson (refimpl/util/jsonio.py),
  to show what the library buys;
- serve lock-step on Beacon Lines and Lantern Quay (the games of the first 2x goal);
- the whole bundled suite (traces and scenarios) through ``refimpl verify``, for the reference and,
  where node exists, the independent Node build.
Writes bench/results/protocol.json (not committed) and prints a table.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from refimpl.games import GAMES
from refimpl.harness.plan import plan
from refimpl.harness.protocol import ProtocolDriver
from refimpl.harness.replay import replay_all
from refimpl.harness.requests import Apply
from refimpl.harness.tracefile import find_traces, load_trace

PY = shlex.quote(sys.executable)
ECHO = f"{PY} {shlex.quote(str(ROOT / 'bench' / 'echo_build.py'))}"
SERVE = f"{PY} -m refimpl serve"
# refimpl serve with orjson hidden, so refimpl/util/jsonio.py falls back to the standard library's json.
SERVE_STDLIB_JSON = f"{PY} -c " + shlex.quote(
    "import sys; sys.modules['orjson'] = None; from refimpl.cli import main; sys.argv[1:] = ['serve']; main()")
MESSAGES = 10_000
ROUNDS = 10  # replays of a game's whole trace set per measurement
REPEATS = 5  # each figure is the best of this many runs (the least disturbed by the machine)
TARGET_GAMES = ("beacon-lines", "lantern-quay")  # the games the first 2x target was set on (issue 3)


def echo_floor(pipeline: bool) -> float:
    """Seconds per message against the echo build."""
    driver = ProtocolDriver(ECHO, pipeline=pipeline)
    ops = [Apply({"type": "x"})] * MESSAGES
    start = time.perf_counter()
    for _ in driver.batch(ops):
        pass
    elapsed = time.perf_counter() - start
    driver.close()
    return elapsed / MESSAGES


def _build_cpu(driver: ProtocolDriver) -> float | None:
    """CPU seconds the build's process has used so far (Linux /proc; None elsewhere). The command runs under
    /bin/sh -c, which may stay as the parent of the build's process."""
    pid = driver.process.proc.pid
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        fields = Path(f"/proc/{children[0] if children else pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def serve_replay(pipeline: bool, games: tuple[str, ...] = TARGET_GAMES,
                 command: str = SERVE) -> tuple[float, int, float | None, float]:
    """Replaying the bundled traces of ``games`` against ``command``, ROUNDS times, as verify does (every
    trace's requests in one batch): (seconds per message, messages, the build's CPU seconds per message or
    None, the kit's CPU seconds per message)."""
    traces = [t for t in map(load_trace, find_traces([ROOT / "traces"])) if t.game in games]
    driver = ProtocolDriver(command, pipeline=pipeline)
    lists_legal = "legal" in driver.capabilities
    messages = sum(len(plan(t, lists_legal)[0]) for t in traces) * ROUNDS
    build_before, kit_before = _build_cpu(driver), time.process_time()
    start = time.perf_counter()
    for _ in range(ROUNDS):
        assert all(r.status == "conforms" for r in replay_all(traces, driver))
    elapsed = time.perf_counter() - start
    kit = time.process_time() - kit_before
    build_after = _build_cpu(driver)
    driver.close()
    build = None if build_before is None or build_after is None else (build_after - build_before) / messages
    return elapsed / messages, messages, build, kit / messages


def whole_suite(command: str) -> float:
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "refimpl", "verify", "--impl", command], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"verify failed for {command}:\n{proc.stdout[-2000:]}")
    return time.perf_counter() - start


def best(measure, *args):  # type: ignore[no-untyped-def]
    runs = [measure(*args) for _ in range(REPEATS)]
    return min(runs, key=lambda r: r[0] if isinstance(r, tuple) else r)


def paired(games: tuple[str, ...], command: str = SERVE) -> tuple[tuple[float, int, float | None, float], list[float]]:
    """The best serve replay of ``games`` (as ``best``), and the ratio of each run to an echo floor measured just
    before it. On a shared machine the speed drifts between runs (the floor alone ranged 13-24 µs in a day on a
    small VM); a ratio of two runs side by side keeps most of the drift out."""
    runs, ratios = [], []
    for _ in range(REPEATS):
        floor = echo_floor(True)
        run = serve_replay(True, games, command)
        runs.append(run)
        ratios.append(run[0] / floor)
    return min(runs, key=lambda r: r[0]), sorted(ratios)


def _us(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds * 1e6:.1f}"


def main() -> None:
    results: dict[str, object] = {}
    floor = best(echo_floor, True)
    results["echo_lockstep_us"] = best(echo_floor, False) * 1e6
    results["echo_pipelined_us"] = floor * 1e6
    suites = {game: (game,) for game in GAMES}
    suites["beacon-lines + lantern-quay"] = TARGET_GAMES
    suites["all games"] = tuple(GAMES)
    rows = []
    per_game: dict[str, dict[str, object]] = {}
    for name, games in suites.items():
        (wall, messages, build, kit), ratios = paired(games)
        stdlib = best(serve_replay, True, games, SERVE_STDLIB_JSON)
        per_game[name] = {"messages": messages, "serve_pipelined_us": wall * 1e6, "vs_echo": wall / floor,
                          "vs_echo_paired": ratios, "serve_cpu_us": None if build is None else build * 1e6,
                          "kit_cpu_us": kit * 1e6, "stdlib_json_us": stdlib[0] * 1e6,
                          "stdlib_json_vs_echo": stdlib[0] / floor}
        rows.append((name, messages, wall, ratios, build, kit, stdlib[0]))
    results["pipelined"] = per_game
    serve_lock, _n, _b, _k = best(serve_replay, False)
    results["serve_lockstep_us"] = serve_lock * 1e6
    results["verify_reference_s"] = whole_suite(SERVE)
    if shutil.which("node"):
        results["verify_node_s"] = whole_suite(f"node {shlex.quote(str(ROOT / 'examples/node-build/main.js'))}")
    out = ROOT / "bench" / "results"
    out.mkdir(exist_ok=True)
    (out / "protocol.json").write_text(json.dumps(results, indent=2))

    print(f"best of {REPEATS}; echo: {MESSAGES} messages; serve: the bundled traces of each game, {ROUNDS} rounds\n")
    print(f"{'echo build, lock-step':38} {results['echo_lockstep_us']:.1f} µs/message")
    print(f"{'echo build, pipelined (the floor)':38} {floor * 1e6:.1f} µs/message\n")
    print(f"{'refimpl serve, pipelined':28} {'messages':>8} {'µs/msg':>7} {'vs echo':>8} {'paired (range)':>20} "
          f"{'serve cpu':>10} {'kit cpu':>8}   {'with stdlib json':>16}")
    for name, messages, wall, ratios, build, kit, stdlib in rows:
        pair = f"{ratios[len(ratios) // 2]:.2f}x ({ratios[0]:.2f}-{ratios[-1]:.2f})"
        print(f"{name:28} {messages:8} {wall * 1e6:7.1f} {wall / floor:7.2f}x {pair:>20} {_us(build):>10} "
              f"{_us(kit):>8}   {stdlib * 1e6:8.1f} ({stdlib / floor:.2f}x)")
    print("\n(target: every game within 2x of the floor. vs echo: the best run against the best floor; paired: the\n"
          " median (and range) of each run's ratio to a floor measured just before it; cpu: µs per message used\n"
          " by serve and by the kit)")
    print(f"\n{'refimpl serve, lock-step (BL + LQ)':38} {results['serve_lockstep_us']:.1f} µs/message")
    print(f"{'verify, whole suite, reference':38} {results['verify_reference_s']:.2f} s")
    if "verify_node_s" in results:
        print(f"{'verify, whole suite, Node build':38} {results['verify_node_s']:.2f} s")


if __name__ == "__main__":
    main()
