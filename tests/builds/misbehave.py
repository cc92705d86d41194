"""A build that misbehaves in one chosen way, to test the kit's verdicts (exit 3) and clean-up.

    python tests/builds/misbehave.py MODE [--after N] [--pidfile PATH]

It behaves like the reference until the N-th apply request (default 3), then misbehaves. With
--pidfile it writes its own pid (and that of any child it starts) so tests can check nothing is left.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from refimpl.games import GAMES  # noqa: E402
from refimpl.harness.serve import Session  # noqa: E402

MODES = ["crash-at-start", "silent-at-start", "crash-mid", "hang-mid", "not-json", "partial-line",
         "flood-stdout", "flood-stderr-then-crash", "noisy-stderr", "wrong-protocol", "exit-early",
         "child-left-behind", "wrong-id", "clock-in-state", "legal-non-objects", "daemon-left-behind",
         "hang-on-start", "hang-after-hello", "close-stdout", "no-ok", "deep-json", "ignore-sigterm", "slow"]


def out(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=MODES)
    parser.add_argument("--after", type=int, default=3)
    parser.add_argument("--pidfile")
    args = parser.parse_args()
    pids = [str(__import__("os").getpid())]
    if args.mode == "child-left-behind":
        pids.append(str(subprocess.Popen(["sleep", "300"]).pid))
    if args.mode == "daemon-left-behind":  # a child in a session of its own: outside the build's group
        pids.append(str(subprocess.Popen(["sleep", "300"], start_new_session=True).pid))
    if args.mode == "ignore-sigterm":
        import signal

        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if args.pidfile:
        Path(args.pidfile).write_text(" ".join(pids))
    if args.mode == "crash-at-start":
        sys.stderr.write("fatal: could not load the game assets\n")
        sys.exit(1)
    if args.mode == "silent-at-start":
        time.sleep(300)
    session = Session(GAMES, f"misbehaving build ({args.mode})")
    applies = 0
    for line in sys.stdin:
        request = json.loads(line)
        response = session.answer(line)
        if args.mode == "hang-after-hello" and request.get("op") != "hello" or \
                args.mode == "hang-on-start" and request.get("op") == "start":
            time.sleep(300)
        if request.get("op") == "hello" and args.mode == "wrong-protocol":
            response["protocol"] = 2
        if args.mode == "clock-in-state" and isinstance(response.get("state"), dict):
            response["state"]["served_at"] = time.time_ns()  # depends on the clock: passes traces, not --twice
        if args.mode == "legal-non-objects" and isinstance(response.get("actions"), list) and response["actions"]:
            response["actions"][0] = 1  # the protocol lists actions as objects
        if args.mode == "slow":  # right, but 20 ms an answer: a whole run takes minutes
            time.sleep(0.02)
        if args.mode == "noisy-stderr":
            sys.stderr.write("debug: " + "x" * 10_000 + "\n")
        if request.get("op") == "apply":
            applies += 1
            if applies == args.after:
                misbehave(args.mode, response)
        out(json.dumps(response) + "\n")


def misbehave(mode: str, response: dict) -> None:
    if mode == "crash-mid":
        sys.stderr.write("Traceback (most recent call last):\nKeyError: 'beacon'\n")
        sys.exit(1)
    if mode in ("hang-mid", "child-left-behind", "daemon-left-behind", "ignore-sigterm"):
        time.sleep(300)
    if mode == "not-json":
        out("Segmentation fault (core dumped)\n")
    if mode == "partial-line":
        out(json.dumps(response)[:20])
        sys.exit(0)
    if mode == "flood-stdout":
        out("x" * (3 << 20))
        time.sleep(300)
    if mode == "flood-stderr-then-crash":
        for i in range(20_000):
            sys.stderr.write(f"log line {i} " + "y" * 1000 + "\n")
        sys.stderr.write("panic: out of lenses\n")
        sys.exit(2)
    if mode == "exit-early":
        sys.exit(0)
    if mode == "wrong-id":
        response["id"] = 999
    if mode == "no-ok":
        del response["ok"]
    if mode == "deep-json":
        out('{{"id": {:d}, "ok": true, "state": {}}}\n'.format(response["id"], "[" * 100_000 + "]" * 100_000))
        time.sleep(300)
    if mode == "close-stdout":
        sys.stdout.close()
        import os

        os.close(1)
        time.sleep(300)


if __name__ == "__main__":
    main()
