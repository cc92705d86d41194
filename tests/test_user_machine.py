"""Nothing the kit does harms the user's machine or loses the user's files (issue 26).

One test per case. Each asserts the exit code, the message, that the user's files beside survive, and (where
a process is started) that nothing is left running.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable


def kit(*args: str, cwd: Path = ROOT, timeout: float = 120, **kw: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([PY, "-m", "refimpl", *args], cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          **kw)  # type: ignore[call-overload]


# --- refimpl serve reads in linear time and bounds a line ---------------------------------------------------

def _serve_with(lines: list[bytes]) -> tuple[list[dict[str, object]], int]:
    """Feed ``lines`` to refimpl serve through a pipe; its answers and its peak memory in KiB."""
    probe = ("import resource, subprocess, sys\n"
             "p = subprocess.Popen([sys.executable, '-m', 'refimpl', 'serve'], stdin=subprocess.PIPE, "
             "stdout=subprocess.PIPE)\n"
             "import threading\n"
             "out = []\n"
             "t = threading.Thread(target=lambda: out.append(p.stdout.read())); t.start()\n"
             "data = sys.stdin.buffer\n"
             "while chunk := data.read(1 << 20):\n"
             "    p.stdin.write(chunk)\n"
             "p.stdin.close(); p.wait(); t.join()\n"
             "sys.stdout.buffer.write(out[0])\n"
             "sys.stderr.write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))\n")
    proc = subprocess.run([PY, "-c", probe], cwd=ROOT, input=b"\n".join(lines) + b"\n", capture_output=True,
                          timeout=120)
    return [json.loads(x) for x in proc.stdout.splitlines()], int(proc.stderr.decode().strip() or 0)


def test_serve_refuses_a_line_over_the_limit_early_and_reads_on() -> None:
    from refimpl.serve import MAX_REQUEST_LINE

    hello = b'{"id": 1, "op": "hello", "protocol": 1}'
    huge = b'{"id": 0, "op": "hello", "pad": "' + b"x" * (200 << 20) + b'"}'
    answers, peak_kib = _serve_with([huge, hello])
    assert answers[0]["ok"] is False and answers[0]["error"]["code"] == "bad-request"  # type: ignore[index]
    assert str(MAX_REQUEST_LINE) in answers[0]["error"]["message"]  # type: ignore[index]
    assert answers[1]["id"] == 1 and answers[1]["ok"] is True
    assert len(answers) == 2
    assert peak_kib < 150_000, f"serve held {peak_kib} KiB for a 200 MB line"


@pytest.mark.parametrize("size", [1, 4096, 65535, 65536, 65537, 1 << 20])
def test_request_lines_splits_any_chunking_the_same(size: int) -> None:
    """Lines are the same however the stream is cut; a line of exactly the limit is taken, one more byte not."""
    from refimpl.serve import request_lines

    limit = 1 << 20
    stream = b"a\n\nbb\n" + b"c" * limit + b"\n" + b"d" * (limit + 1) + b"\nlast"
    chunks = [stream[i:i + size] for i in range(0, len(stream), size)]
    it = iter(chunks)
    got = list(request_lines(lambda: next(it, b""), limit))
    assert got == [b"a", b"", b"bb", b"c" * limit, None, b"last"]


# --- nothing left running -----------------------------------------------------------------------------------

def _alive(pid: int) -> bool:
    import psutil

    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="cgroups and the subreaper are Linux's")
@pytest.mark.parametrize("box", ["", "subreaper"])
def test_a_daemon_that_leaves_the_session_and_clears_its_environment_is_ended(box: str, tmp_path: Path) -> None:
    """``(setsid env -i sleep &)``: a daemon out of the build's group, session and tag. The cgroup (where the
    kit may make one) or the subreaper still ends it with the build."""
    import time

    pidfile = tmp_path / "daemon.pid"
    build = (f"(setsid env -i /bin/sh -c 'echo $$ > {pidfile}; exec /bin/sleep 300' &); "
             f"exec {PY} -m refimpl serve")
    env = {**os.environ, "REFIMPL_BOX": box}
    proc = kit("verify", "--impl", build, "--game", "ludo", "--no-scenarios", "-k", "capture", "--quiet", env=env)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    daemon = int(pidfile.read_text())
    deadline = time.monotonic() + 5
    while _alive(daemon) and time.monotonic() < deadline:
        time.sleep(0.05)
    alive = _alive(daemon)
    if alive:
        os.kill(daemon, 9)
    assert not alive, "the daemon outlived the run"
