"""Hostile input and broken builds (issue 12): every case ends with the documented exit code, a message
naming the file and line (or the step and cause), bounded time and memory, and no process left running."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
MISBEHAVE = f"exec {PY} {ROOT / 'tests/builds/misbehave.py'}"
HEADER = "version: 1\ngame: {game}\ntitle: t\nrules: []\nsource: x\n"


def kit(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([PY, "-m", "refimpl", *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout)


def running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def nothing_left(pidfile: Path) -> None:
    """Every process the build wrote down (itself, a child, a child in its own session) is gone."""
    pids = [int(p) for p in pidfile.read_text().split()] if pidfile.exists() else []
    deadline = time.monotonic() + 3
    while any(running(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [p for p in pids if running(p)], "a process of the build is still running"


def trace(tmp_path: Path, name: str, body: str, game: str = "beacon-lines") -> Path:
    path = tmp_path / name
    path.write_text(HEADER.format(game=game) + body)
    return path


# --- bounded input ---------------------------------------------------------------------------------

BOMB = "".join(f"{chr(97 + i)}: &{chr(97 + i)} "
               f"[{', '.join([f'*{chr(96 + i)}'] * 9) if i else '1, 2, 3, 4, 5, 6, 7, 8, 9'}]\n"
               for i in range(9))


def test_an_alias_bomb_is_refused_quickly_in_little_memory(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text(BOMB)
    assert len(BOMB) < 600
    probe = ("import resource, subprocess, sys; p = subprocess.run(sys.argv[1:], capture_output=True, text=True); "
             "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); print(p.stderr)")
    started = time.monotonic()
    out = subprocess.run([PY, "-c", probe, PY, "-m", "refimpl", "replay", str(bomb)], cwd=ROOT,
                         capture_output=True, text=True, timeout=60).stdout
    elapsed = time.monotonic() - started
    code, rss_kb = map(int, out.splitlines()[0].split())
    assert code == 2 and f"{bomb}:" in out and "aliases replay more than" in out, out
    assert rss_kb < 100 * 1024, f"{rss_kb} KB"
    assert elapsed < 15, "a few hundred bytes must not take long (generous bound: startup included)"


@pytest.mark.parametrize("body, line, words", [
    ("steps:\n  - restart: true\n    note: a\n    note: b\n", 9, "the key 'note' appears twice"),
    ("seed: 1\nsteps:\n  - restart: true\n" + "setup:\n"
     + "".join("  " * (i + 1) + f"k{i}:\n" for i in range(70)) + "  " * 71 + "x: 1\n",
     None, "nested more than 64 deep"),
    ("steps: [\n", 6, "malformed YAML"),
])
def test_yaml_limits_and_duplicate_keys_name_the_line(tmp_path: Path, body: str, line: int | None,
                                                      words: str) -> None:
    path = trace(tmp_path, "t.yaml", body)
    proc = kit("replay", str(path))
    assert proc.returncode == 2 and words in proc.stderr, proc.stderr
    assert (f"{path}:{line}:" if line else f"{path}:") in proc.stderr
    assert "Traceback" not in proc.stderr


def test_an_oversized_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    with open(big, "wb") as out:
        out.truncate((64 << 20) + 1)  # sparse: no disk, and the kit must not read it
    proc = kit("replay", str(big))
    assert proc.returncode == 2 and "the limit is 67108864" in proc.stderr


def test_encoding_errors_symlink_loops_and_many_bad_traces_are_named(tmp_path: Path) -> None:
    bad = tmp_path / "bad"
    bad.mkdir()
    latin1 = HEADER.format(game="beacon-lines") + "steps:\n  - note: caf\xe9\n"
    (bad / "latin1.yaml").write_bytes(latin1.encode("latin-1"))
    trace(bad, "schema.yaml", "steps: []\n")
    os.symlink(tmp_path / "loop", tmp_path / "loop")
    proc = kit("replay", str(bad))
    assert proc.returncode == 2
    assert f"{bad / 'latin1.yaml'}:7: not UTF-8 text: byte 0xe9 at column 14" in proc.stderr
    assert f"{bad / 'schema.yaml'}:6: schema error" in proc.stderr and "2 traces cannot be used" in proc.stderr
    proc = kit("replay", str(tmp_path / "loop"))
    assert proc.returncode == 2 and "a loop of symbolic links" in proc.stderr


def test_an_empty_folder_is_bad_input_for_replay_and_verify(tmp_path: Path) -> None:
    for args in (["replay", str(tmp_path)], ["verify", "--traces", str(tmp_path), "--no-scenarios"]):
        proc = kit(*args)
        assert proc.returncode == 2 and "no traces" in proc.stderr, (args, proc.stderr)


# --- the blame where it belongs ------------------------------------------------------------------

@pytest.mark.parametrize("game, body, line, words", [
    ("conquest-king", "steps:\n  - restart: true\n    views:\n      nobody: {phase: deploy}\n", 9,
     "'nobody', which is not an observer of Conquest King"),
    ("conquest-king", "setup: {bogus: 1}\nsteps:\n  - restart: true\n", 6, "the game refuses this start"),
    ("beacon-lines", "steps:\n  - action: {type: claim, claims: {red: north-pass, blue: south-pass}}\n"
                     "    expect: {round: 2, bogus: 1}\n", 8, "the field bogus, which no Beacon Lines state view has"),
    ("beacon-lines", "steps:\n  - action: {type: claim, claims: {red: north-pass, blue: south-pass}}\n"
                     "    expect:\n      scores: {red: two}\n", 9, 'scores.red = "two", which no state view can hold'),
])
def test_a_check_no_build_could_pass_is_a_bad_check_not_the_builds_fault(
        tmp_path: Path, game: str, body: str, line: int, words: str) -> None:
    path = trace(tmp_path, "t.yaml", body, game)
    for args in (["replay", str(path)], ["verify", "--traces", str(path), "--no-scenarios"]):
        proc = kit(*args)
        assert proc.returncode == 2, (args, proc.stdout[-2000:], proc.stderr)
        assert f"{path}:{line}: bad check:" in proc.stderr and words in proc.stderr, proc.stderr
        assert "BUILD BROKE" not in proc.stdout and "Traceback" not in proc.stderr


def test_a_value_the_reference_does_not_give_is_a_mismatch_under_replay_and_a_bad_check_under_verify(
        tmp_path: Path) -> None:
    path = trace(tmp_path, "t.yaml", "steps:\n  - action: {type: claim, claims: {red: north-pass, blue: south-pass}}\n"
                                     "    expect: {round: 3}\n")
    assert kit("replay", str(path)).returncode == 1
    proc = kit("verify", "--traces", str(path), "--no-scenarios")
    assert proc.returncode == 2 and "the reference itself answers round = 2" in proc.stderr


@pytest.mark.parametrize("args, words", [
    (["--ruleset", "v9"], "unknown ruleset 'v9' (known: v0, v1)"),
    (["--game", "ludo", "--ruleset", "v0"], "unknown ruleset 'v0' for ludo (known: v1)"),
    (["--game", "chess"], "unknown game 'chess' (known: beacon-lines"),
])
def test_a_bad_game_or_ruleset_is_bad_input(args: list[str], words: str) -> None:
    proc = kit("verify", *args, "--no-scenarios")
    assert proc.returncode == 2 and words in proc.stderr, proc.stderr


# --- broken builds: fast verdicts, clear causes, nothing left running ------------------------------

@pytest.mark.parametrize("mode, timeout", [("hang-on-start", "5"), ("hang-after-hello", "1")])
def test_a_build_that_hangs_on_every_request_gets_its_verdict_in_under_a_minute(mode: str, timeout: str,
                                                                               tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    started = time.monotonic()
    proc = kit("verify", "--impl", f"{MISBEHAVE} {mode} --pidfile {pidfile}", "--timeout", timeout, timeout=120)
    elapsed = time.monotonic() - started
    assert proc.returncode == 3, proc.stdout[-2000:]
    assert elapsed < 60, f"{elapsed:.0f} s"
    assert "broke the same way (hung) on 3 checks in a row" in proc.stdout
    assert "not-run" in proc.stdout.splitlines()[-1]
    nothing_left(pidfile)


@pytest.mark.parametrize("mode, cause, words", [
    ("close-stdout", "closed-output", "closed its output before answering request 7, and is still running"),
    ("no-ok", "bad-response", "the response has no 'ok' field"),
    ("deep-json", "bad-response", "JSON nested too deeply to read"),
    ("daemon-left-behind", "hung", "no answer to request 7 within 1 s"),
])
def test_broken_builds_are_named_by_cause_and_end_whole(mode: str, cause: str, words: str, tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    proc = kit("verify", "--impl", f"{MISBEHAVE} {mode} --pidfile {pidfile}", "--timeout", "1",
               "-k", "safe-route-v0", "--no-scenarios", "--quiet")
    assert proc.returncode == 3
    assert f"build broke ({cause})" in proc.stdout and words in proc.stdout, proc.stdout[-2000:]
    assert all(len(line) < 400 for line in proc.stdout.splitlines()), "a message quotes at most a short clip"
    nothing_left(pidfile)


@pytest.mark.parametrize("sig, code, word", [(signal.SIGINT, 130, "Ctrl-C"), (signal.SIGTERM, 143, "SIGTERM")])
@pytest.mark.parametrize("mode", ["daemon-left-behind", "ignore-sigterm"])
def test_interrupting_verify_prints_what_ran_and_leaves_nothing(sig: int, code: int, word: str, mode: str,
                                                                tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    proc = subprocess.Popen([PY, "-m", "refimpl", "verify", "--impl", f"{MISBEHAVE} {mode} --pidfile {pidfile}",
                             "--timeout", "60", "--game", "beacon-lines", "--no-scenarios", "--quiet"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            # a shell's background job ignores SIGINT and Python keeps that: undo it
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 30
    while not pidfile.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(2)  # the build is hung now (it hangs at its third apply)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == code, out[-2000:] + err
    assert f"Verdict: INTERRUPTED ({word})" in out and f"interrupted ({word})" in out
    assert "Traceback" not in err
    nothing_left(pidfile)


def test_max_time_bounds_a_run_and_says_what_did_not_run() -> None:
    # the least budget there is: the whole trace suite runs in about 1 s on the reference now
    proc = kit("verify", "--max-time", "0.1", "--no-scenarios", "--quiet", "--format", "json")
    doc = json.loads(proc.stdout)
    assert doc["summary"]["not_run"] > 0 and "--max-time 0.1 s ran out" in json.dumps(doc)


def test_progress_is_plain_lines_off_a_terminal_and_nothing_with_quiet() -> None:
    """Off a terminal (a CI log): a line for each problem as it happens and a count at each tenth of the run, not a
    line a check (issue 43: 343 lines)."""
    proc = kit("verify", "-k", "safe-route", "--no-scenarios")
    assert proc.returncode == 0 and "[2/2] checks done: 2 passed" in proc.stderr, proc.stderr
    many = kit("verify", "--game", "ludo", "--no-explore")
    lines = many.stderr.splitlines()
    assert many.returncode == 0 and 5 <= len(lines) <= 12 and all("checks done" in line for line in lines), lines
    wrong = kit("verify", "--impl", f"{PY} {ROOT / 'tests/builds/wrong.py'} capture-bonus", "--game", "ludo",
                "--no-explore", "--no-scenarios")
    assert any(" failed   trace ludo/" in line for line in wrong.stderr.splitlines()), wrong.stderr
    proc = kit("verify", "-k", "safe-route", "--no-scenarios", "--quiet")
    assert proc.returncode == 0 and proc.stderr == ""


# --- the reference build itself ----------------------------------------------------------------------

def test_refimpl_serve_refuses_deep_nesting_and_bad_starts_without_dying() -> None:
    lines = ["[" * 100_000, '{"id": 1, "op": "apply", "action": ' + "[" * 500 + "]" * 500 + "}"]
    for game in ("beacon-lines", "lantern-quay", "ludo", "conquest-king", "black-fog"):
        lines.append(json.dumps({"id": 2, "op": "start", "game": game, "ruleset": None, "seed": "abc", "setup": {}}))
        lines.append(json.dumps({"id": 3, "op": "start", "game": game, "ruleset": None, "seed": None, "setup": []}))
    lines.append(json.dumps({"id": 4, "op": "quit"}))
    proc = subprocess.run([PY, "-m", "refimpl", "serve"], input="\n".join(lines) + "\n", cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert proc.returncode == 0 and "Traceback" not in proc.stderr
    assert [a["error"]["code"] for a in answers[:-1]] == ["bad-request"] * 12
    assert "nested more than 64 deep" in answers[0]["error"]["message"]
    assert answers[1]["id"] == 1 and answers[-1] == {"id": 4, "ok": True}


def test_refimpl_serve_whose_reader_goes_away_ends_quietly(tmp_path: Path) -> None:
    """A reader that closes the pipe (the kit gone, ``| head -1``) ends serve's session as the end of input does:
    exit 0, nothing on stderr, no internal-error file (issue 43: exit 4, "a bug in the kit")."""
    proc = subprocess.Popen([PY, "-m", "refimpl", "serve"], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env={**os.environ, "TMPDIR": str(tmp_path)})
    assert proc.stdin and proc.stdout and proc.stderr
    proc.stdin.write(b'{"id":1,"op":"hello","protocol":1}\n')
    proc.stdin.flush()
    assert proc.stdout.readline().startswith(b'{"id":1,"ok":true')
    proc.stdout.close()  # the reader goes away
    try:
        for _ in range(2000):
            proc.stdin.write(b'{"id":1,"op":"hello","protocol":1}\n')
        proc.stdin.close()
    except BrokenPipeError:
        pass
    assert proc.wait(timeout=30) == 0
    assert proc.stderr.read() == b"" and not list(tmp_path.glob("refimpl-internal-error-*"))
