"""Nothing the kit does harms the user's machine or loses the user's files (issue 26).

One test per case. Each asserts the exit code, the message, that the user's files beside survive, and (where
a process is started) that nothing is left running.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
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
    from refimpl.harness.serve import MAX_REQUEST_LINE

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
    from refimpl.harness.serve import request_lines

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


# --- report paths -------------------------------------------------------------------------------------------

FAST = ("--game", "ludo", "--no-scenarios", "-k", "capture", "--quiet")


def test_a_report_into_a_link_to_dev_null_writes_into_the_device_and_keeps_the_link(tmp_path: Path) -> None:
    link = tmp_path / "null"
    link.symlink_to("/dev/null")
    (tmp_path / "mine.txt").write_text("mine")
    proc = kit("verify", *FAST, "--json", str(link), "--junit-xml", str(link), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert link.is_symlink() and os.readlink(link) == "/dev/null"
    assert Path("/dev/null").is_char_device()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.txt", "null"]  # no temporary file left


def test_a_full_disk_is_exit_2_naming_the_report(tmp_path: Path) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    link = tmp_path / "full.json"
    link.symlink_to("/dev/full")
    proc = kit("verify", *FAST, "--json", str(link), cwd=tmp_path)
    assert proc.returncode == 2
    assert f"cannot write {link}: No space left on device" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_fifo_with_a_reader_gets_the_report_and_stays_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "report.json"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    proc = kit("verify", *FAST, "--json", str(fifo), cwd=tmp_path)
    reader.join(30)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(got[0])["verdict"] == "conforms"
    assert fifo.is_fifo()


def test_a_fifo_nobody_reads_is_refused_not_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "report.json"
    os.mkfifo(fifo)
    proc = kit("verify", *FAST, "--json", str(fifo), cwd=tmp_path, timeout=60)
    assert proc.returncode == 2
    assert f"cannot write {fifo}: a FIFO (named pipe) that nobody reads" in proc.stderr
    assert fifo.is_fifo()


def test_a_dash_writes_the_report_to_stdout(tmp_path: Path) -> None:
    proc = kit("verify", *FAST, "--json", "-", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["verdict"] == "conforms"  # the JSON alone: no text report before it (issue 43)
    assert list(tmp_path.iterdir()) == []


def test_concurrent_writes_of_one_report_never_fail_each_other(tmp_path: Path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from refimpl.util.files import write_file

    target = tmp_path / "verify.json"
    bodies = [json.dumps({"run": i, "pad": "x" * (i * 97 % 5000)}).encode() for i in range(600)]
    with ThreadPoolExecutor(16) as pool:
        list(pool.map(lambda body: write_file(target, body), bodies))  # raises on the first failure
    assert target.read_bytes() in bodies
    assert [p.name for p in tmp_path.iterdir()] == ["verify.json"]


def test_a_report_keeps_the_permissions_of_the_file_it_replaces(tmp_path: Path) -> None:
    from refimpl.util.files import write_file

    target = tmp_path / "report.html"
    target.write_text("old")
    target.chmod(0o640)
    write_file(target, b"new")
    assert target.read_bytes() == b"new" and (target.stat().st_mode & 0o777) == 0o640


# --- the kit deletes only what it wrote ---------------------------------------------------------------------

WRONG = f"{PY} {ROOT / 'tests/builds/wrong.py'} capture-bonus"


def test_transcript_into_a_folder_with_the_users_jsonl_is_refused_before_the_run(tmp_path: Path) -> None:
    data = tmp_path / "events.jsonl"
    data.write_text('{"mine": 1}\n')
    proc = kit("verify", "--impl", WRONG, *FAST, "--transcript", ".", cwd=tmp_path)
    assert proc.returncode == 2
    assert "events.jsonl, which refimpl did not write" in proc.stderr
    assert data.read_text() == '{"mine": 1}\n'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["events.jsonl"]


def test_badges_beside_an_oci_manifest_leave_it_and_refuse_a_users_badge_name(tmp_path: Path) -> None:
    manifest = tmp_path / "index.json"
    manifest.write_text('{"schemaVersion": 2, "mediaType": "application/vnd.oci.image.index.v1+json"}')
    proc = kit("verify", *FAST, "--badges", str(tmp_path), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert manifest.read_text().startswith('{"schemaVersion": 2')
    (tmp_path / "lantern-quay.json").write_text('{"schemaVersion": 1, "label": "mine"}')
    again = kit("verify", *FAST, "--badges", str(tmp_path), cwd=tmp_path)
    assert again.returncode == 2 and "lantern-quay.json, which refimpl did not write" in again.stderr
    assert (tmp_path / "lantern-quay.json").read_text() == '{"schemaVersion": 1, "label": "mine"}'


def test_transcript_names_never_collide() -> None:
    from refimpl.reports.transcript import file_name

    names = ["a b", "a?b", "a_b", "a/b", "a__b", "ludo/capture", "x" * 300, "x" * 299 + "y"]
    files = [file_name(n) for n in names]
    assert len(set(files)) == len(files), files
    assert file_name("ludo/capture") == "ludo__capture.jsonl" and file_name("a_b") == "a_b.jsonl"
    assert all(len(f) < 200 and "/" not in f for f in files)


# --- every read is bounded ----------------------------------------------------------------------------------

@pytest.mark.parametrize("source", ["/dev/zero", "fifo"])
def test_expect_fail_from_a_device_or_fifo_is_refused_at_once(source: str, tmp_path: Path) -> None:
    path = tmp_path / "known.yaml"
    if source == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to(source)
    proc = kit("verify", *FAST, "--expect-fail", str(path), cwd=tmp_path, timeout=60)
    assert proc.returncode == 2
    kind = "a FIFO (named pipe)" if source == "fifo" else "a character device"
    assert f"{path}: cannot read: {kind}, not a regular file" in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_trace_folder_holding_a_fifo_or_a_link_to_a_device_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "traces"
    folder.mkdir()
    (folder / "good.yaml").write_text((ROOT / "traces/ludo/capture.yaml").read_text())
    os.mkfifo(folder / "pipe.yaml")
    proc = kit("verify", "--traces", str(folder), "--no-scenarios", "--quiet", cwd=tmp_path, timeout=60)
    assert proc.returncode == 2 and "pipe.yaml: cannot read: a FIFO (named pipe)" in proc.stderr, proc.stderr
    (folder / "pipe.yaml").unlink()
    (folder / "zero.yaml").symlink_to("/dev/zero")
    proc = kit("verify", "--traces", str(folder), "--no-scenarios", "--quiet", cwd=tmp_path, timeout=60)
    assert proc.returncode == 2 and "zero.yaml: cannot read: a character device" in proc.stderr, proc.stderr


def test_a_badge_folder_holding_a_fifo_or_a_link_to_dev_zero_is_never_read(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "all.json")
    (tmp_path / "ludo.json").symlink_to("/dev/zero")
    proc = kit("verify", *FAST, "--badges", str(tmp_path), cwd=tmp_path, timeout=60)
    assert proc.returncode == 2 and "which refimpl did not write" in proc.stderr, proc.stderr
    assert (tmp_path / "all.json").is_fifo() and (tmp_path / "ludo.json").is_symlink()


def test_read_bytes_stops_at_the_limit_while_reading() -> None:
    from refimpl.util.files import read_bytes

    with pytest.raises(OSError, match="a character device"):
        read_bytes("/dev/zero", 1 << 20)
    assert read_bytes(ROOT / "pyproject.toml", 10, head=True) == (ROOT / "pyproject.toml").read_bytes()[:10]
    with pytest.raises(OSError, match="the limit is 10"):
        read_bytes(ROOT / "pyproject.toml", 10)


# --- small points -------------------------------------------------------------------------------------------

def test_a_trace_saved_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    path = tmp_path / "bom.yaml"
    path.write_bytes(b"\xef\xbb\xbf" + (ROOT / "traces/ludo/capture.yaml").read_bytes())
    proc = kit("replay", str(path), cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout[-1000:] + proc.stderr


@pytest.mark.parametrize("tag", ["!custom", "!!python/object:os.system", "!!set"])
def test_an_unknown_yaml_tag_is_refused_with_its_line(tag: str, tmp_path: Path) -> None:
    text = (ROOT / "traces/ludo/capture.yaml").read_text().splitlines()
    line = next(i for i, t in enumerate(text) if t.startswith("title:"))
    text[line] = f"title: {tag} x"
    path = tmp_path / "tagged.yaml"
    path.write_text("\n".join(text) + "\n")
    proc = kit("replay", str(path), cwd=tmp_path)
    assert proc.returncode == 2
    assert f"{path}:{line + 1}: the tag {tag.split(':')[0] if tag.startswith('!!') else tag}" in proc.stderr, \
        proc.stderr


def test_a_build_that_exits_at_once_leaving_a_child_on_its_output_is_not_called_hung(tmp_path: Path) -> None:
    proc = kit("verify", "--impl", "sleep 30 & exit 0", *FAST, "--timeout", "1", cwd=tmp_path)
    assert proc.returncode == 3
    assert "crashed-at-start" in proc.stdout and "the build exited (status 0)" in proc.stdout
    assert "hung" not in proc.stdout


# --- signals ------------------------------------------------------------------------------------------------

def _start(args: list[str], cwd: Path) -> subprocess.Popen[str]:
    """The kit started as a user's shell starts it: Ctrl-C not ignored, whatever this test process (a pytest
    worker may ignore SIGINT, and a child inherits an ignored signal) does with it."""
    import signal

    return subprocess.Popen([PY, "-m", "refimpl", *args], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


@pytest.mark.parametrize("sig, code, word", [(15, 143, "SIGTERM"), (2, 130, "SIGINT")])
def test_simulate_interrupted_prints_the_games_played_and_exits_with_the_signal_code(
        sig: int, code: int, word: str, tmp_path: Path) -> None:
    import time

    proc = _start(["simulate", "ludo", "--games", "1000000", "--seats", "hard,easy,normal,easy", "--format",
                   "json"], tmp_path)
    time.sleep(4)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == code, err[-2000:]
    doc = json.loads(out)
    assert doc["interrupted"] == {"signal": word, "asked": 1000000}
    assert 0 < doc["games"] < 1000000 and sum(r["count"] for r in doc["results"]) == doc["games"]
    assert sum(s["count"] for s in doc["seats"]) + doc["results"][-1]["count"] == doc["games"]  # the rest capped
    assert "Traceback" not in err and "Aborted" not in err


def test_fuzz_stops_on_sigterm_while_shrinking_and_writes_what_it_found(tmp_path: Path) -> None:
    """SIGTERM once shrinking has begun: fuzz exits 143 within a second or so and leaves the reproducer of the
    smallest case so far (a signal that lands in a Hypothesis gc callback once went unnoticed)."""
    import time

    wrong = f"{PY} {ROOT / 'tests/builds/wrong.py'} defender-wins-ties"
    proc = _start(["fuzz", "--impl", wrong, "--game", "conquest-king", "--shrink-time", "120", "--out", "found"],
                  tmp_path)
    assert proc.stderr is not None
    seen = ""
    while "shrinking" not in seen:
        line = proc.stderr.readline()
        assert line, "fuzz ended before it found the wrong build's fault"
        seen += line
    proc.send_signal(15)
    sent = time.monotonic()
    out, err = proc.communicate(timeout=30)
    took = time.monotonic() - sent
    assert proc.returncode == 143, out[-2000:] + err[-2000:]
    assert took < 10, f"fuzz took {took:.1f} s to stop"
    assert "INTERRUPTED (SIGTERM)" in out and "not replayed" in out
    (written,) = (tmp_path / "found").iterdir()
    replay = kit("verify", "--impl", wrong, "--traces", str(written), "--no-scenarios", "--quiet", cwd=tmp_path)
    assert replay.returncode == 1, replay.stdout[-2000:]  # the reproducer shows the wrong build's fault
    assert "Traceback" not in err and "Exception ignored" not in err


def test_fuzz_stops_on_sigterm_while_searching(tmp_path: Path) -> None:
    import time

    proc = _start(["fuzz", "--game", "conquest-king", "--examples", "100000", "--quiet", "--out", "found"], tmp_path)
    time.sleep(3)
    proc.send_signal(15)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 143 and "INTERRUPTED (SIGTERM)" in out, out + err
    assert not (tmp_path / "found").exists()


@pytest.mark.parametrize("sig, code", [(15, 143), (2, 130)])
def test_any_command_interrupted_exits_with_the_signal_code_and_no_traceback(sig: int, code: int,
                                                                            tmp_path: Path) -> None:
    import time

    import psutil

    proc = _start(["perft", "conquest-king", "--depth", "6"], tmp_path)
    started = time.monotonic()  # signalled once it is counting (its imports done), however loaded the machine
    while psutil.Process(proc.pid).cpu_times().user < 2.0 and time.monotonic() - started < 30:
        time.sleep(0.2)
    proc.send_signal(sig)
    try:
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()  # never left running (a depth-6 perft grows to gigabytes)
    assert proc.returncode == code, err
    assert "refimpl: interrupted" in err and "Traceback" not in err and "Aborted" not in err


@pytest.mark.parametrize("args", [("fuzz", "--game", "beacon-lines", "--examples", "2", "--out", "taken"),
                                  ("fuzz", "--game", "beacon-lines", "--examples", "2", "--out", "taken/r.yaml"),
                                  ("mutants", "--sample", "1", "--out", "taken")], ids=["fuzz", "fuzz-file", "mutants"])
def test_a_file_where_an_output_folder_is_due_is_bad_input(tmp_path: Path, args: tuple[str, ...]) -> None:
    """A regular file where fuzz or mutants want their output folder (or its parent): exit 2 naming it, before any
    work, and the file left as it was (it was exit 4, "a bug in the kit", issue 43)."""
    (tmp_path / "taken").write_text("mine\n")
    proc = kit(*args, "--quiet", cwd=tmp_path) if args[0] == "fuzz" else kit(*args, cwd=tmp_path)
    assert proc.returncode == 2, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "--out taken" in proc.stderr and "Traceback" not in proc.stderr
    assert (tmp_path / "taken").read_text() == "mine\n" and sorted(p.name for p in tmp_path.iterdir()) == ["taken"]
