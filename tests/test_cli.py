"""The CLI's exit codes and messages: its contract as a CI gate."""

import json
from pathlib import Path

from click.testing import CliRunner

from refimpl.cli import main

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_replay_all_bundled_traces_exits_0() -> None:
    result = run("replay", str(ROOT / "traces"))
    assert result.exit_code == 0, result.output
    assert "0 mismatch" in result.output and "CONFORMS" in result.output


def test_a_changed_number_exits_1_with_step_and_field(tmp_path: Path) -> None:
    src = (ROOT / "traces/beacon-lines/safe-route-v1.yaml").read_text()
    edited = tmp_path / "edited.yaml"
    edited.write_text(src.replace("scores: {red: 4, blue: 3}", "scores: {red: 4, blue: 4}"))
    result = run("replay", str(edited))
    assert result.exit_code == 1
    assert "MISMATCH at step 2 (line 12): scores.blue: expected 4, got 3" in result.output


def test_malformed_trace_exits_2_with_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("version: 1\ngame: beacon-lines\nsteps: [\n")
    result = run("replay", str(bad))
    assert result.exit_code == 2
    assert f"{bad}:3: malformed YAML: unclosed bracket" in result.output
    assert "Traceback" not in result.output


def test_unknown_ruleset_option_exits_2() -> None:
    result = run("replay", str(ROOT / "traces/lantern-quay"), "--ruleset", "v7")
    assert result.exit_code == 2 and "has no ruleset 'v7'" in result.output


def test_missing_path_exits_2() -> None:
    result = run("replay", "no/such/dir")
    assert result.exit_code == 2 and "no/such/dir: no such file or folder" in result.output


def test_ruleset_override_replays_the_route_under_the_other_rule() -> None:
    result = run("replay", str(ROOT / "traces/beacon-lines/safe-route-v1.yaml"), "--ruleset", "v0")
    assert result.exit_code == 1
    assert "scores.red: expected 4, got 3" in result.output


def test_json_report() -> None:
    result = run("replay", str(ROOT / "traces/lantern-quay"), "--format", "json")
    doc = json.loads(result.output)
    assert result.exit_code == 0
    assert doc["summary"]["traces"] == doc["summary"]["conforms"] >= 8
    assert all(t["status"] == "conforms" for t in doc["traces"])


def test_tables_print_from_the_data() -> None:
    result = run("tables", "lantern-quay", "--format", "json")
    rows = json.loads(result.output)["faces"]
    assert [r["salvage_brass"] for r in rows] == [1, 1, 2, 2, 3, 3]
    assert run("tables", "chess").exit_code == 2


def test_games_lists_the_registry() -> None:
    out = run("games").output
    assert "beacon-lines" in out and "lantern-quay" in out


def _on_a_terminal(args: list[str], env: dict[str, str]) -> str:
    import sys
    """What a command prints to a terminal (a pseudo-terminal), as bytes decoded."""
    import os
    import pty

    pid, fd = pty.fork()
    if pid == 0:  # the child: the command, its stdout a terminal
        os.execve(sys.executable, [sys.executable, "-m", "refimpl", *args], {**os.environ, **env})
    out = b""
    while True:
        try:
            chunk = os.read(fd, 1 << 16)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    os.waitpid(pid, 0)
    return out.decode("utf-8", "replace")


def test_the_text_report_is_coloured_on_a_terminal_unless_no_color() -> None:
    args = ["verify", "--game", "ludo", "-k", "capture", "--no-scenarios", "--quiet"]
    assert "\x1b[" in _on_a_terminal(args, {})
    assert "\x1b[" not in _on_a_terminal(args, {"NO_COLOR": "1"})
    assert "\x1b[" not in _on_a_terminal([*args, "--no-color"], {})


def test_text_tables_are_measured_by_display_width() -> None:
    from refimpl.report import pad

    assert pad("征服王", 8) == "征服王  " and pad("abc", 5) == "abc  "
