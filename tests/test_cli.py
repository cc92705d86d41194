"""The CLI's exit codes and messages: its contract as a CI gate."""

import json
from pathlib import Path

from click.testing import CliRunner

from refimpl.cli import main
from refimpl.status import Status

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
    from refimpl.reports.text import pad

    assert pad("征服王", 8) == "征服王  " and pad("abc", 5) == "abc  "


def test_a_bug_in_the_kit_exits_4_naming_a_file_with_the_traceback(monkeypatch, tmp_path: Path) -> None:
    """Anything but a KitError escaping a command is the kit's bug: exit 4 (never 1, which a CI gate reads as
    the build's failure), one line that says so, and the traceback in a file the message names."""
    import refimpl.rulebook.lookup

    def broken(_rule: str) -> None:
        raise ZeroDivisionError("division by zero in the kit")

    monkeypatch.setattr(refimpl.rulebook.lookup, "cited_at", broken)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile
    monkeypatch.setattr(tempfile, "tempdir", None)
    result = CliRunner().invoke(main, ["rule", "BL-WIN-1"])
    assert result.exit_code == 4, result.output
    assert "internal error, a bug in the kit" in result.output
    assert "ZeroDivisionError: division by zero in the kit" in result.output
    saved = list(tmp_path.glob("refimpl-internal-error-*.txt"))
    assert len(saved) == 1 and str(saved[0]) in result.output
    assert "Traceback" in saved[0].read_text() and "broken" in saved[0].read_text()


def test_a_kit_error_is_one_line_and_its_own_exit_code(tmp_path: Path) -> None:
    """A KitError reaching the boundary: its message on stderr, its exit code, no traceback."""
    result = CliRunner().invoke(main, ["rule", "NO-SUCH-9"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output and result.output.startswith("refimpl: ")


def test_a_step_that_breaks_on_the_reference_too_is_the_kits_bug(monkeypatch) -> None:
    """A scenario step that raises something other than a failed check is blamed on the build (FAILED) only
    when the reference passes the same scenario; when the reference breaks it too, the exception reaches the
    caller (the CLI's boundary: exit 4), never a verdict on the build."""
    import dataclasses

    import pytest

    from refimpl.harness.driver import ReferenceDriver
    from refimpl.scenarios import bundled, run_scenario
    from refimpl.scenarios.runner import bind

    scenario = next(s for s in bundled() if s.game == "ludo")
    _step, definition, _args = bind(scenario)[0]
    calls = []

    def broken(*args: object, **kwargs: object) -> object:
        calls.append(1)
        if len(calls) == 1 or always[0]:
            raise TypeError("a bug in a step definition")
        return original(*args, **kwargs)

    original, always = definition.func, [True]
    patched = dataclasses.replace(definition, func=broken)
    import refimpl.scenarios.runner as runner
    real_bind = runner.bind
    monkeypatch.setattr(runner, "bind", lambda sc: [(st, patched if d is definition else d, a)
                                                    for st, d, a in real_bind(sc)])
    with pytest.raises(TypeError):  # the reference itself
        run_scenario(scenario, ReferenceDriver())
    with pytest.raises(TypeError):  # a build, and the reference breaks too
        run_scenario(scenario, _Wrapped(ReferenceDriver(name="a build")))
    calls.clear()
    always[0] = False  # only the build's run breaks: the build's answers led there
    assert run_scenario(scenario, _Wrapped(ReferenceDriver(name="a build"))).status == Status.FAILED


class _Wrapped:
    """A driver that is not the reference (as a build's driver is), delegating everything to one."""

    def __init__(self, wrapped: object) -> None:
        self._wrapped = wrapped

    def __getattr__(self, name: str) -> object:
        if name == "inner":
            raise AttributeError(name)
        return getattr(self._wrapped, name)


def test_show_and_replay_take_the_check_names_verify_prints() -> None:
    """``ludo/capture``, as verify names the check, is the bundled trace traces/ludo/capture.yaml (issue 43)."""
    replayed = run("replay", "ludo/capture")
    assert replayed.exit_code == 0 and "1 conform" in replayed.output, replayed.output
    shown = run("show", "ludo/capture", "--step", "1")
    assert shown.exit_code == 0 and "<!DOCTYPE html>" in shown.output
    missing = run("replay", "ludo/no-such-trace")
    assert missing.exit_code == 2 and "ludo/no-such-trace: no such file or folder" in missing.output
