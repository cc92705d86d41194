"""The CI gate: action.yml's verify step is run here as GitHub runs it (its ``run:`` text in ``bash -eo
pipefail``, its ``env:`` with the inputs filled in), against the reference, a wrong build and a crashing one:
the exit code, GITHUB_OUTPUT, the step summary and every report file."""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
ACTION = ROOT / "action.yml"
SCRIPT = ROOT / "ci" / "verify-gate.sh"
SCHEMAS = ROOT / "refimpl" / "schemas" / "output"
REFIMPL = Path(sys.executable).with_name("refimpl")  # the venv's refimpl command
PY = shlex.quote(sys.executable)
EXPRESSION = re.compile(r"\$\{\{\s*([^}]+?)\s*\}\}")
FAST = "--game ludo --no-scenarios --quiet"


def action() -> dict[str, Any]:
    return yaml.safe_load(ACTION.read_text(encoding="utf-8"))


def gate_step() -> dict[str, Any]:
    (step,) = [s for s in action()["runs"]["steps"] if "ci/verify-gate.sh" in s.get("run", "")]
    return step


def script_reads() -> set[str]:
    """The environment variables the script reads."""
    return set(re.findall(r"\$\{?(REFIMPL\w*|GITHUB_\w+)", SCRIPT.read_text(encoding="utf-8")))


def test_the_action_runs_the_gate_script_with_the_inputs_it_reads() -> None:
    doc = action()
    assert doc["runs"]["using"] == "composite"
    inputs = doc["inputs"]
    assert inputs["build-command"]["required"] is True
    assert {k: inputs[k].get("default") for k in ("args", "python-version", "reports", "upload")} == {
        "args": "", "python-version": "3.11", "reports": "refimpl-reports", "upload": "true"}
    step = gate_step()
    assert step["shell"] == "bash" and re.search(r'\$\{\{ github.action_path \}\}/ci/verify-gate\.sh', step["run"])
    passed = set(step["env"])
    assert passed == {"REFIMPL_BUILD_COMMAND", "REFIMPL_ARGS", "REFIMPL_REPORTS", "REFIMPL"}
    assert passed <= script_reads()
    for name, value in step["env"].items():  # each is one input, passed as it is, or the kit's own refimpl
        (expr,) = EXPRESSION.findall(value)
        assert expr == "steps.install.outputs.refimpl" if name == "REFIMPL" else \
            expr.startswith("inputs.") and expr.removeprefix("inputs.") in inputs
    for name in ("exit-code", "verdict"):
        assert doc["outputs"][name]["value"] == f"${{{{ steps.{step['id']}.outputs.{name} }}}}"
    uses = [s.get("uses", "") for s in doc["runs"]["steps"]]
    assert any(u.startswith("actions/setup-python@") for u in uses)
    (upload,) = [s for s in doc["runs"]["steps"] if s.get("uses", "").startswith("actions/upload-artifact@")]
    assert "always()" in upload["if"] and upload["with"]["path"] == "${{ inputs.reports }}"
    assert upload["with"]["name"] == "${{ steps.install.outputs.artifact-name }}"
    assert SCRIPT.stat().st_mode & 0o111, "ci/verify-gate.sh is executable"


def test_the_action_leaves_the_users_python_and_path_alone() -> None:
    """setup-python only finds an interpreter (update-environment: false); the kit goes into a venv of its own,
    and no step of the action writes the user's PATH or environment for the steps after it."""
    steps = action()["runs"]["steps"]
    (python,) = [s for s in steps if s.get("uses", "").startswith("actions/setup-python@")]
    assert python["with"]["update-environment"] is False
    (install,) = [s for s in steps if s.get("id") == "install"]
    assert install["env"]["PYTHON"] == "${{ steps.python.outputs.python-path }}"
    texts = [ACTION.read_text(encoding="utf-8")] + [p.read_text(encoding="utf-8") for p in (ROOT / "ci").glob("*.sh")]
    assert not any("GITHUB_PATH" in t or "GITHUB_ENV" in t for t in texts)


def fake_python(tmp_path: Path, says: str) -> Path:
    """An interpreter for install-kit.sh that makes a venv whose pip only records what it was asked to install
    (in ``pip.log``) and whose refimpl says ``says``: the script's own logic, run without a network."""
    real = shlex.quote(sys.executable)
    venv_python = (f"#!/bin/sh\nif [ \"$1\" = -m ] && [ \"$2\" = pip ]; then\n"
                   f"  echo \"$@\" >> {tmp_path}/pip.log; exit 0\nfi\nexec {real} \"$@\"\n")
    outer = tmp_path / "python"
    outer.write_text("#!/bin/sh\n[ \"$1\" = -m ] && [ \"$2\" = venv ] || exit 9\nmkdir -p \"$3/bin\"\n"
                     f"cat > \"$3/bin/python\" <<'EOF'\n{venv_python}EOF\n"
                     f"printf '#!/bin/sh\\necho \"{says}\"\\n' > \"$3/bin/refimpl\"\n"
                     "chmod +x \"$3/bin/python\" \"$3/bin/refimpl\"\n", encoding="utf-8")
    outer.chmod(0o755)
    return outer


def install(tmp_path: Path, says: str = "refimpl 0.3.0 (suite abc)", **env: str) -> tuple[int, dict[str, str], str]:
    """ci/install-kit.sh with a fake interpreter: (exit code, its step outputs, stdout and stderr)."""
    (tmp_path / "output").unlink(missing_ok=True)
    base = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "RUNNER_", "KIT_"))}
    base |= {"PYTHON": str(fake_python(tmp_path, says)), "ACTION_PATH": str(ROOT), "RUNNER_TEMP": str(tmp_path),
             "GITHUB_OUTPUT": str(tmp_path / "output"), "GITHUB_JOB": "conformance", "KIT_REPOSITORY": "o/r"}
    proc = subprocess.run(["bash", str(ROOT / "ci" / "install-kit.sh")], env=base | env, capture_output=True,
                          text=True, timeout=60, check=False)
    out = (tmp_path / "output").read_text(encoding="utf-8") if (tmp_path / "output").exists() else ""
    return proc.returncode, dict(line.split("=", 1) for line in out.splitlines()), proc.stdout + proc.stderr


def test_the_kit_is_installed_in_a_venv_of_its_own_with_an_artifact_name_per_use(tmp_path: Path) -> None:
    code, out, said = install(tmp_path, NAME_PARTS="./build|--game ludo|refimpl-reports|3.11|Linux|X64")
    assert code == 0, said
    venv = Path(out["refimpl"]).parent.parent
    assert venv.parent == tmp_path and venv.name.startswith("refimpl-kit.") and out["refimpl"].endswith("/bin/refimpl")
    assert f"install --quiet --disable-pip-version-check {ROOT}" in (tmp_path / "pip.log").read_text()
    assert re.fullmatch(r"refimpl-reports-conformance-[0-9a-f]{10}", out["artifact-name"])
    _, other, _ = install(tmp_path, NAME_PARTS="./build|--game ludo|refimpl-reports|3.11|macOS|ARM64")
    assert other["artifact-name"] != out["artifact-name"]  # a matrix leg on another runner: another artifact
    _, given, _ = install(tmp_path, NAME_PARTS="x", ARTIFACT_NAME="mine")
    assert given["artifact-name"] == "mine"


def test_the_version_input_installs_a_release_commit_or_a_checked_tag(tmp_path: Path) -> None:
    sha = "dc9cbca52a8e584874f645a62d655b40378964de"
    code, _, said = install(tmp_path, KIT_VERSION=sha)
    assert code == 0, said
    assert f"refimpl @ git+https://github.com/o/r@{sha}" in (tmp_path / "pip.log").read_text()
    code, _, said = install(tmp_path, KIT_VERSION="0.3.0")
    assert code == 0 and "refimpl @ git+https://github.com/o/r@v0.3.0" in (tmp_path / "pip.log").read_text(), said
    code, _, said = install(tmp_path, says="refimpl 0.2.0 (suite abc)", KIT_VERSION="v0.3.0")
    assert code == 2 and "::error::asked for kit v0.3.0, installed refimpl 0.2.0" in said


def gate(workspace: Path, build: str, args: str) -> tuple[list[str], dict[str, str]]:
    """action.yml's verify step as the runner runs it in ``workspace``: the command and its environment."""
    step, inputs = gate_step(), action()["inputs"]
    values = {f"inputs.{k}": str(v.get("default", "")) for k, v in inputs.items()}
    values |= {"inputs.build-command": build, "inputs.args": args, "github.action_path": str(ROOT),
               "steps.install.outputs.refimpl": str(REFIMPL)}  # the install step's venv: here, this venv's

    def fill(text: str) -> str:
        return EXPRESSION.sub(lambda m: values[m.group(1)], text)

    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "REFIMPL"))}
    env |= {"GITHUB_OUTPUT": str(workspace / "output"), "GITHUB_STEP_SUMMARY": str(workspace / "summary"),
            **{k: fill(v) for k, v in step["env"].items()}}
    body = workspace / "step.sh"
    body.write_text(fill(step["run"]) + "\n", encoding="utf-8")
    return ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(body)], env


def run_gate(workspace: Path, build: str, args: str) -> tuple[subprocess.CompletedProcess[str], Path]:
    """Run the gate step to its end: the process and the reports folder."""
    command, env = gate(workspace, build, args)
    proc = subprocess.run(command, cwd=workspace, env=env, capture_output=True, text=True, timeout=60, check=False)
    return proc, workspace / env["REFIMPL_REPORTS"]


def check_reports(reports: Path, code: int) -> dict[str, dict[str, Any]]:
    """Every report file exists and parses; the badges by name."""
    ET.parse(reports / "junit.xml")
    doc = json.loads((reports / "verify.json").read_text(encoding="utf-8"))
    jsonschema.validate(doc, json.loads((SCHEMAS / "verify.schema.json").read_text(encoding="utf-8")))
    assert doc["exit_code"] == code
    assert (reports / "report.html").read_text(encoding="utf-8").lstrip().lower().startswith("<!doctype html")
    assert "Verdict:" in (reports / "verify.txt").read_text(encoding="utf-8")
    schema = json.loads((SCHEMAS / "badge.schema.json").read_text(encoding="utf-8"))
    found = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in (reports / "badges").glob("*.json")}
    for badge in found.values():
        jsonschema.validate(badge, schema, cls=jsonschema.Draft202012Validator)
    return found


def outputs(workspace: Path) -> dict[str, str]:
    return dict(line.split("=", 1) for line in (workspace / "output").read_text(encoding="utf-8").splitlines())


def test_the_reference_passes_the_gate(tmp_path: Path) -> None:
    proc, reports = run_gate(tmp_path, f"{PY} -m refimpl serve", FAST)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert reports == tmp_path / "refimpl-reports"  # the default, in the workspace
    found = check_reports(reports, 0)
    assert set(found) == {"ludo", "all", "kit"} and found["all"]["color"] == "brightgreen"
    assert outputs(tmp_path) == {"exit-code": "0", "verdict": "conforms"}
    assert "Verdict: CONFORMS" in proc.stdout  # the text report is printed as well as kept
    assert (reports / "verify.txt").read_text(encoding="utf-8") == proc.stdout
    summary = (tmp_path / "summary").read_text(encoding="utf-8")
    assert summary.count("### refimpl verify") == 1 and "conforms (exit 0)" in summary  # verify's section alone
    assert "Reports in `refimpl-reports` (exit 0)" in summary


@pytest.mark.parametrize("build, code, verdict, colour", [
    (f"{PY} {ROOT / 'tests/builds/wrong.py'} capture-bonus", 1, "does_not_conform", "red"),
    (f"{PY} {ROOT / 'tests/builds/misbehave.py'} crash-mid", 3, "build_broke", "orange"),
], ids=["does-not-conform", "crashes"])
def test_a_wrong_build_fails_the_gate_with_the_reports_written(build: str, code: int, verdict: str, colour: str,
                                                               tmp_path: Path) -> None:
    proc, reports = run_gate(tmp_path, build, f"{FAST} --timeout 2")
    assert proc.returncode == code, proc.stdout[-2000:] + proc.stderr[-2000:]
    found = check_reports(reports, code)
    assert found["ludo"]["color"] == found["all"]["color"] == colour
    assert outputs(tmp_path) == {"exit-code": str(code), "verdict": verdict}
    summary = (tmp_path / "summary").read_text(encoding="utf-8")
    assert summary.count("### refimpl verify") == 1 and f"{verdict.replace('_', ' ')} (exit {code})" in summary


def test_a_cancelled_job_ends_verify_and_keeps_the_reports(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    build = f"{PY} {ROOT / 'tests/builds/misbehave.py'} hang-mid --pidfile {pidfile}"
    command, env = gate(tmp_path, build, f"{FAST} --timeout 60")
    # the runner signals the step's shell only; the step execs the script, which passes the signal on
    proc = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    while not pidfile.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(1)  # the build hangs at its third apply
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 143, out[-2000:] + err[-2000:]
    assert "Verdict: INTERRUPTED (SIGTERM)" in out
    found = check_reports(tmp_path / "refimpl-reports", 143)
    assert found["all"]["message"] == "interrupted"
    assert outputs(tmp_path) == {"exit-code": "143", "verdict": "interrupted"}


def test_a_bug_in_the_kit_is_not_the_builds_failure(tmp_path: Path) -> None:
    """verify's exit 4 (a bug in the kit) gives the verdict internal_error, not does_not_conform, and the
    gate passes the code on."""
    kit = tmp_path / "kit.py"
    kit.write_text("import sys\nprint('refimpl: internal error, a bug in the kit', file=sys.stderr)\nsys.exit(4)\n",
                   encoding="utf-8")
    command, env = gate(tmp_path, f"{PY} -m refimpl serve", FAST)
    env["REFIMPL"] = f"{PY} {kit}"
    proc = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 4, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert outputs(tmp_path) == {"exit-code": "4", "verdict": "internal_error"}
    summary = (tmp_path / "summary").read_text(encoding="utf-8")  # verify wrote none: the gate's section
    assert summary.count("### refimpl verify") == 1 and "internal_error (exit 4)" in summary
