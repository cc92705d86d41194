"""Protocol benchmark: cost per message, measured as ratios against an echo build that answers
instantly, all in the same run on the same machine.

- echo lock-step / echo pipelined: the floor, one request at a time vs all written before reading;
- serve lock-step / serve pipelined: replaying every bundled trace against ``refimpl serve``;
- the whole bundled suite (traces and scenarios) through ``refimpl verify``, for the reference and,
  where node exists, the independent Node build.
Writes bench/results/protocol.json (not committed) and prints a table.
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from refimpl.games import GAMES  # noqa: E402
from refimpl.protocol import ProtocolDriver  # noqa: E402
from refimpl.replay import plan, replay_all  # noqa: E402
from refimpl.trace import find_traces, load_trace  # noqa: E402

PY = shlex.quote(sys.executable)
ECHO = f"{PY} {shlex.quote(str(ROOT / 'bench' / 'echo_build.py'))}"
SERVE = f"{PY} -m refimpl serve"
MESSAGES = 10_000
ROUNDS = 20  # replays of the whole trace set
REPEATS = 5  # each figure is the best of this many runs (the least disturbed by the machine)


def echo_floor(pipeline: bool) -> float:
    """Seconds per message against the echo build."""
    driver = ProtocolDriver(ECHO, pipeline=pipeline)
    ops = [("apply", {"type": "x"})] * MESSAGES
    start = time.perf_counter()
    for _ in driver.batch(ops):
        pass
    elapsed = time.perf_counter() - start
    driver.close()
    return elapsed / MESSAGES


TARGET_GAMES = ("beacon-lines", "lantern-quay")  # the games the 2x target was set on (issue 3)


def serve_replay(pipeline: bool, games: tuple[str, ...] = TARGET_GAMES) -> tuple[float, int]:
    """Seconds per message replaying the bundled traces of ``games`` against refimpl serve, and the
    message count. (Conquest King's views are ten times the size of these, so its messages cost more.)"""
    traces = [t for t in map(load_trace, find_traces([ROOT / "traces"])) if t.game in games]
    driver = ProtocolDriver(SERVE, pipeline=pipeline)
    lists_legal = "legal" in driver.capabilities
    per_round = sum(len(plan(t, lists_legal)[0]) for t in traces)
    start = time.perf_counter()
    for _ in range(ROUNDS):  # as verify does: every trace's requests in one batch
        assert all(r.status == "conforms" for r in replay_all(traces, driver))
    elapsed = time.perf_counter() - start
    driver.close()
    return elapsed / (per_round * ROUNDS), per_round * ROUNDS


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


def main() -> None:
    results: dict[str, float] = {}
    results["echo_lockstep_us"] = best(echo_floor, False) * 1e6
    results["echo_pipelined_us"] = best(echo_floor, True) * 1e6
    serve_lock, n = best(serve_replay, False)
    serve_pipe, _ = best(serve_replay, True)
    every_game = tuple(GAMES)
    all_pipe, n_all = best(serve_replay, True, every_game)
    results["serve_pipelined_all_games_us"] = all_pipe * 1e6
    results["serve_lockstep_us"] = serve_lock * 1e6
    results["serve_pipelined_us"] = serve_pipe * 1e6
    results["serve_pipelined_vs_echo_pipelined"] = serve_pipe / (results["echo_pipelined_us"] / 1e6)
    results["serve_lockstep_steps_per_s"] = 1 / serve_lock
    results["serve_pipelined_steps_per_s"] = 1 / serve_pipe
    results["verify_reference_s"] = whole_suite(SERVE)
    if shutil.which("node"):
        results["verify_node_s"] = whole_suite(f"node {shlex.quote(str(ROOT / 'examples/node-build/main.js'))}")
    out = ROOT / "bench" / "results"
    out.mkdir(exist_ok=True)
    (out / "protocol.json").write_text(json.dumps(results, indent=2))
    rows = [
        ("echo build, lock-step", f"{results['echo_lockstep_us']:.1f} µs/message"),
        ("echo build, pipelined (the floor)", f"{results['echo_pipelined_us']:.1f} µs/message"),
        ("refimpl serve, lock-step replay", f"{results['serve_lockstep_us']:.1f} µs/message "
                                            f"({results['serve_lockstep_steps_per_s']:,.0f} steps/s)"),
        ("refimpl serve, pipelined replay", f"{results['serve_pipelined_us']:.1f} µs/message "
                                            f"({results['serve_pipelined_steps_per_s']:,.0f} steps/s)"),
        ("serve pipelined / echo pipelined", f"{results['serve_pipelined_vs_echo_pipelined']:.2f}x (target <= 2x)"),
        ("refimpl serve, pipelined, all games", f"{results['serve_pipelined_all_games_us']:.1f} µs/message "
                                                f"({n_all} messages; Ludo and Conquest King views are larger)"),
        ("verify, whole suite, reference", f"{results['verify_reference_s']:.2f} s"),
    ]
    if "verify_node_s" in results:
        rows.append(("verify, whole suite, Node build", f"{results['verify_node_s']:.2f} s"))
    print(f"best of {REPEATS}: {MESSAGES} echo messages; {n} Beacon Lines and Lantern Quay trace messages\n")
    for name, value in rows:
        print(f"{name:38} {value}")


if __name__ == "__main__":
    main()
