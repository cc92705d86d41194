"""Many builds in one verify run (issue 47): the builds file and its errors, the matrix and its forms, the gate,
what a build nobody trusts gets (its environment, its folder, its bounds) and cannot do (reach the CI log or the
step summary as commands or markup), the site over runs, diff and report of matrices, the same matrix from one
worker or two. The browser test of the HTML page is in test_many_builds_page.py, the installed-kit run in
test_packaging.py."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner

from refimpl.cli import main
from refimpl.reports.matrixdiff import load_matrix
from refimpl.verify.builds import BuildsError, load_builds

ROOT = Path(__file__).resolve().parent.parent
PY = shlex.quote(sys.executable)
REFERENCE = f"{PY} -m refimpl serve"
QUICK = ["--game", "lantern-quay", "--no-scenarios", "--explore", "0", "--quiet"]


def build(script: str, *args: str) -> str:
    return " ".join([PY, shlex.quote(str(ROOT / "tests" / "builds" / script)), *map(shlex.quote, args)])


WRONG = build("wrong.py", "install-lights-two")
HANGS = build("misbehave.py", "hang-after-hello")


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), env=env)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def builds_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "builds.yaml"
    path.write_text(text)
    return path


# --- the builds file ----------------------------------------------------------------------------------------

def test_a_builds_file_is_read_with_its_paths_from_its_own_folder(tmp_path: Path) -> None:
    path = builds_file(tmp_path, f"""
builds:
  - name: reference
    command: {REFERENCE}
  - name: mine
    command: node main.mjs
    cwd: app
    env: {{MODE: test}}
    games: [ludo]
    ruleset: v1
    level: play
  - name: web
    page: site/index.html
gate: [mine]
""")
    (tmp_path / "app").mkdir()
    builds = load_builds(path)
    ref, mine, web = builds.builds
    assert ref.own_folder and ref.cwd is None
    assert not mine.own_folder and mine.cwd == str(tmp_path / "app")
    assert (mine.env, mine.games, mine.rulesets, mine.level) == ({"MODE": "test"}, ("ludo",), ("v1",), "play")
    assert web.page == str(tmp_path / "site" / "index.html")
    assert builds.gated() == ("mine",)


@pytest.mark.parametrize(("text", "line", "said"), [
    ("builds:\n  - name: a\n    command: x\n  - name: a\n    command: y\n", 4, "the name 'a' is taken by builds[0]"),
    ("builds:\n  - name: a\n    cwd: here\n", 2, "exactly one of command, page and image (it has none)"),
    ("builds:\n  - name: a\n    command: x\n    page: y.html\n", 2, "it has command and page"),
    ("builds:\n  - name: a\n    command: x\n    games: [ludo, chess]\n", 4, "no game 'chess'"),
    ("builds:\n  - name: a\n    command: x\n    games: ludo\n    ruleset: v9\n", 5, "no ruleset 'v9'"),
    ("builds:\n  - name: 'a b'\n    command: x\n", 2, "builds[0].name: 'a b': a name is letters"),
    ("builds:\n  - name: a\n    command: x\n    colour: red\n", 2, "'colour' was unexpected"),
    ("builds:\n  - name: a\n    command: x\ngate: [b]\n", 4, "gate: b: no build has that name"),
    ("builds: [\n", 1, ""),
    ("- a\n- b\n", 1, "a mapping with a list 'builds:'"),
])
def test_a_bad_builds_file_names_the_file_and_line(tmp_path: Path, text: str, line: int, said: str) -> None:
    path = builds_file(tmp_path, text)
    with pytest.raises(BuildsError) as caught:
        load_builds(path)
    assert str(caught.value).startswith(f"{path}:{line}"), str(caught.value)
    assert said in str(caught.value)
    code, output = run("verify", "--builds", str(path))
    assert code == 2 and f"{path}:{line}" in output and "Traceback" not in output


def test_an_unknown_gate_or_a_bad_option_with_several_builds_is_bad_input(tmp_path: Path) -> None:
    code, output = run("verify", "--impl", REFERENCE, "--impl", REFERENCE, "--gate", "nobody", *QUICK)
    assert code == 2 and "--gate nobody: no build has that name (builds: impl-1, impl-2)" in output
    code, output = run("verify", "--impl", REFERENCE, "--impl", REFERENCE, "--badges", str(tmp_path), *QUICK)
    assert code == 2 and "--badges judges one build" in output


# --- the matrix ---------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def matrix_json(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, dict[str, Any], str, Path]:
    out = tmp_path_factory.mktemp("matrix")
    code, text = run("verify", "--impl", REFERENCE, "--impl", WRONG, *QUICK, "--json", str(out / "m.json"),
                     "--junit-xml", str(out / "m.xml"), "--html", str(out / "m.html"))
    return code, json.loads((out / "m.json").read_text()), text, out


def test_the_matrix_puts_the_misread_rule_first_and_each_build_s_report_inside(matrix_json: Any) -> None:
    code, doc, text, out = matrix_json
    assert code == 1
    schema = json.loads((ROOT / "refimpl" / "schemas" / "output" / "matrix.schema.json").read_text())
    jsonschema.validate(doc, schema)
    verify_schema = json.loads((ROOT / "refimpl" / "schemas" / "output" / "verify.schema.json").read_text())
    for b in doc["builds"]:
        jsonschema.validate(b["report"], verify_schema)
    assert [(b["name"], b["verdict"]) for b in doc["builds"]] == [("impl-1", "conforms"),
                                                                   ("impl-2", "does_not_conform")]
    first = doc["rules"][0]
    assert first["misread"] == 1 and first["judged"] == 2
    cells = {c["build"]: c["status"] for c in first["cells"]}
    assert cells == {"impl-1": "passed", "impl-2": "failed"}
    misread = [r["rule"] for r in doc["rules"] if r["misread"]]
    assert "LQ-INST-2" in misread  # the rule the wrong build misreads
    assert all(r["misread"] == 0 for r in doc["rules"][len(misread):]), "the misread rules come first"
    assert "LQ-INST-2" in text and "impl-2: failed" in text and "(exit 1)" in text


def test_the_junit_report_has_one_suite_a_build(matrix_json: Any) -> None:
    import xml.etree.ElementTree as ET

    _, doc, _, out = matrix_json
    suites = ET.parse(out / "m.xml").getroot().findall("testsuite")
    assert [s.get("name") for s in suites] == ["impl-1", "impl-2"]
    assert suites[0].get("failures") == "0" and int(suites[1].get("failures") or 0) > 0
    assert all(c.get("classname", "").startswith("impl-2.lantern-quay.") for c in suites[1].findall("testcase"))


def test_report_and_diff_read_a_saved_matrix(matrix_json: Any, tmp_path: Path) -> None:
    _, doc, _, out = matrix_json
    code, text = run("report", str(out / "m.json"), "--build", "impl-2")
    assert code == 1 and "LQ-INST-2" in text and "Verdict: DOES NOT CONFORM" in text
    code, text = run("report", str(out / "m.json"), "--format", "markdown")
    assert code == 1 and "| `impl-2` | does not conform |" in text
    # the wrong build fixed: a matrix where impl-2 is the reference
    better = json.loads(json.dumps(doc))
    better["builds"][1]["report"] = doc["builds"][0]["report"]
    (tmp_path / "new.json").write_text(json.dumps(better))
    code, text = run("diff", str(out / "m.json"), str(tmp_path / "new.json"))
    assert code == 0 and "fixed     lantern-quay LQ-INST-2: failed -> passed" in text
    code, text = run("diff", str(tmp_path / "new.json"), str(out / "m.json"))
    assert code == 1 and "regressed lantern-quay LQ-INST-2: passed -> failed" in text
    del better["builds"][0]
    (tmp_path / "fewer.json").write_text(json.dumps(better))
    code, text = run("diff", str(out / "m.json"), str(tmp_path / "fewer.json"), "--format", "json")
    assert json.loads(text)["gone"] == ["impl-1"]
    code, text = run("diff", str(out / "m.json"), str(ROOT / "tests" / "data" / "ludo-games.json"))
    assert code == 2


def test_the_gate_decides_the_exit_code() -> None:
    code, text = run("verify", "--impl", REFERENCE, "--impl", WRONG, "--gate", "impl-1", *QUICK)
    assert code == 0 and "gate: impl-1" in text and "DOES NOT CONFORM" in text


def test_a_build_that_hangs_after_hello_broke_within_its_limit_and_the_other_is_untouched(tmp_path: Path) -> None:
    path = builds_file(tmp_path, f"builds:\n  - name: ref\n    command: {REFERENCE}\n"
                                 f"  - name: hangs\n    command: {HANGS}\n    timeout: 1\n")
    code, text = run("verify", "--builds", str(path), *QUICK, "--json", str(tmp_path / "m.json"))
    assert code == 3
    m = load_matrix(tmp_path / "m.json")
    ref, hangs = m.entries
    assert ref.report.exit_code == 0 and ref.report.count("passed") == len(ref.report.checks) > 10
    assert hangs.report.exit_code == 3 and hangs.seconds < 30


def test_one_worker_or_two_give_the_same_matrix_but_for_times(tmp_path: Path) -> None:
    docs = []
    for jobs in ("1", "2"):
        code, _ = run("verify", "--impl", REFERENCE, "--impl", WRONG, "--impl",
                      build("wrong.py", "forge-spends-on-failure"), *QUICK, "--jobs", jobs,
                      "--json", str(tmp_path / f"m{jobs}.json"))
        doc = json.loads((tmp_path / f"m{jobs}.json").read_text())
        for b in doc["builds"]:
            b["seconds"] = 0
        docs.append(doc)
    assert docs[0] == docs[1]


# --- builds nobody trusts -----------------------------------------------------------------------------------

def test_a_build_gets_the_allow_list_and_what_is_passed_and_its_text_stays_text(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    env = {"GITHUB_TOKEN": "tok-secret", "LEAK_SECRET": "s3cret", "LEAK_PASSED": "passed-value",
           "GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(summary), "GITHUB_OUTPUT": str(tmp_path / "out")}
    path = builds_file(tmp_path, f"builds:\n  - name: ref\n    command: {REFERENCE}\n"
                                 f"  - name: leaky\n    command: {build('leaky.py')}\n")
    code, text = run("verify", "--builds", str(path), *QUICK, "--pass-env", "LEAK_PASSED", "--json",
                     str(tmp_path / "m.json"), "--html", str(tmp_path / "m.html"), env=env)
    assert code == 3
    said = json.loads((tmp_path / "m.json").read_text())["builds"][1]["report"]["checks"]
    stderr = "".join(c["stderr"] for c in said)
    assert "env LEAK_PASSED=passed-value" in stderr and "env GITHUB_TOKEN=<unset>" in stderr
    assert "env GITHUB_STEP_SUMMARY=<unset>" in stderr and "env GITHUB_OUTPUT=<unset>" in stderr
    own = [line.split(" ", 1)[1] for line in stderr.splitlines() if line.startswith("cwd ")]
    assert own and all(not Path(folder).exists() for folder in own), "its own folder, removed after"
    assert not (tmp_path / "left-by-the-build.txt").exists()
    own = "::error title=refimpl verify%3A "  # the kit's own annotations (one a failing gated build)
    annotations = [line for line in text.splitlines() if line.startswith(own)]
    assert len(annotations) == 1 and annotations[0].startswith(f"{own}leaky build broke::")
    for place in (text, summary.read_text(), (tmp_path / "m.html").read_text()):
        assert "tok-secret" not in place and "s3cret" not in place
        assert not any(line.lstrip().startswith(("::", "##[")) for line in place.splitlines()
                       if not line.startswith(own))
    assert "<img src=x" not in (tmp_path / "m.html").read_text() and "<img" not in summary.read_text()
    code, text = run("report", str(tmp_path / "m.json"), "--build", "leaky")
    assert "::error::pwned" in text and not any(line.lstrip().startswith(("::", "##["))
                                                for line in text.splitlines())


def test_a_build_over_its_memory_bound_breaks_alone(tmp_path: Path) -> None:
    greedy = f"{PY} -c " + shlex.quote("b = bytearray(600 << 20)\nimport runpy, sys\nsys.argv = ['refimpl', 'serve']\n"
                                       "runpy.run_module('refimpl', run_name='__main__')")
    code, text = run("verify", "--impl", REFERENCE, "--impl", greedy, "--memory", "256", *QUICK, "--json",
                     str(tmp_path / "m.json"))
    assert code == 3
    assert "impl-1  CONFORMS" in text and "impl-2  BUILD BROKE" in text
    said = json.loads((tmp_path / "m.json").read_text())["builds"][1]["report"]["broke_at_start"]
    assert "MemoryError" in said["stderr"]


# --- the site -----------------------------------------------------------------------------------------------

def test_the_site_keeps_each_run_and_a_build_s_transitions(tmp_path: Path) -> None:
    site = tmp_path / "site"
    for command in (REFERENCE, WRONG):
        path = builds_file(tmp_path, f"builds:\n  - name: ref\n    command: {REFERENCE}\n"
                                     f"  - name: app\n    command: {command}\n")
        run("verify", "--builds", str(path), *QUICK, "--site", str(site))
    names = sorted(p.name for p in site.iterdir() if not p.name.startswith("."))
    assert {"index.html", "run-0001.json", "run-0002.json", "run-0001.html", "run-0002.html", "build-app.html",
            "build-app.svg", "build-app.json", "rule-LQ-INST-2.html"} <= set(names)
    history = (site / "build-app.html").read_text()
    assert "LQ-INST-2 (passed \u2192 failed)" in history
    assert json.loads((site / "build-app.json").read_text())["color"] == "red"
    assert json.loads((site / "build-ref.json").read_text())["message"].startswith("conforms")
    assert 'data-run="2"' in (site / "index.html").read_text()
    import re

    for page in site.glob("*.html"):  # every link of the site leads to a page or file it holds (or an anchor)
        for target in re.findall(r'(?:href|src)="([^"#]+)', page.read_text()):
            assert (site / target).is_file(), f"{page.name} links to {target}, which the site does not hold"
    (site / "index.html").write_text("mine now")  # the user's: the next run refuses rather than replace it
    code, text = run("verify", "--builds", str(path), *QUICK, "--site", str(site))
    assert code == 2 and "index.html" in text and (site / "index.html").read_text() == "mine now"


# --- Ctrl-C -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("jobs", "sig"), [("1", "SIGINT"), ("2", "SIGINT"), ("1", "SIGTERM")])
def test_ctrl_c_ends_every_build_of_every_worker_and_prints_what_ran(tmp_path: Path, jobs: str, sig: str) -> None:
    import os
    import signal
    import subprocess
    import time

    from tests.marks import MARK, left

    mark = f"many-ctrl-c-{jobs}-{sig}-{os.getpid()}"
    slow = build("misbehave.py", "hang-mid", "--after", "1")
    proc = subprocess.Popen([sys.executable, "-m", "refimpl", "verify", "--impl", REFERENCE, "--impl", slow,
                             "--impl", slow, "--impl", slow, *QUICK, "--timeout", "60", "--jobs", jobs,
                             "--pass-env", MARK], cwd=tmp_path, env={**os.environ, MARK: mark},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 60
    while len(left(mark)) < 3 and time.monotonic() < deadline:  # the kit and a hanging build at least
        time.sleep(0.2)
    time.sleep(1.0)
    os.killpg(proc.pid, getattr(signal, sig))  # as a terminal's Ctrl-C (the whole foreground group), or a cancel
    out, err = proc.communicate(timeout=60)
    word, code = ("Ctrl-C", 130) if sig == "SIGINT" else ("SIGTERM", 143)
    assert proc.returncode == code, (proc.returncode, out[-2000:], err[-2000:])
    assert f"Interrupted ({word})".encode() in out and b"NOT RUN" in out
    gone = time.monotonic() + 10
    while left(mark) and time.monotonic() < gone:
        time.sleep(0.2)
    assert left(mark) == []


# --- container images ---------------------------------------------------------------------------------------

def _engine() -> str | None:
    from refimpl.verify.containers import NoEngine, engine

    try:
        return engine()
    except NoEngine:
        return None


def test_an_image_build_without_an_engine_is_bad_input_naming_what_was_tried(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # neither docker nor podman on it
    path = builds_file(tmp_path, f"builds:\n  - name: ref\n    command: {REFERENCE}\n"
                                 "  - name: boxed\n    image: example/game:1\n")
    code, text = run("verify", "--builds", str(path), *QUICK)
    assert code == 2 and "an image build needs docker or podman" in text and "docker: not installed" in text
    assert f"{path}:4" in text


def test_an_image_build_is_judged_and_its_containers_removed(tmp_path: Path) -> None:
    """Where an engine answers and REFIMPL_TEST_IMAGE names an image whose command serves the protocol (the kit's
    own image: docs/many-builds.md), the image is judged like a command and leaves no container behind."""
    import os
    import subprocess

    image = os.environ.get("REFIMPL_TEST_IMAGE")
    engine = _engine()
    if engine is None or not image:
        pytest.skip("needs docker or podman answering and REFIMPL_TEST_IMAGE naming an image that serves the "
                    "protocol" + ("" if engine else " (no engine answers here)"))
    path = builds_file(tmp_path, f"builds:\n  - name: boxed\n    image: {image}\n")
    code, text = run("verify", "--builds", str(path), *QUICK)
    assert code == 0, text
    left_over = subprocess.run([engine, "ps", "-aq", "--filter", "label=dev.refimpl.job"], capture_output=True,
                               text=True, check=False).stdout.split()
    assert left_over == []


# --- fuzz across builds -------------------------------------------------------------------------------------

def test_fuzz_across_builds_gives_one_table_and_a_reproducer_folder_a_build(tmp_path: Path) -> None:
    out = tmp_path / "fuzz-out"
    code, text = run("fuzz", "--game", "lantern-quay", "--impl", REFERENCE, "--impl", WRONG, "--impl",
                     build("misbehave.py", "crash-at-start"), "--examples", "25", "--quiet", "--out", str(out))
    assert code == 3, text
    rows = {line.split()[0]: line for line in text.splitlines()[2:] if line.startswith("  impl-")}
    assert "no divergence" in rows["impl-1"] and "DIVERGES" in rows["impl-2"] and "BUILD BROKE" in rows["impl-3"]
    assert [p.parent.name for p in out.rglob("*.yaml")] == ["impl-2"]
    code, _ = run("fuzz", "--game", "lantern-quay", "--impl", REFERENCE, "--impl", WRONG, "--gate", "impl-1",
                  "--examples", "25", "--quiet", "--out", str(out))
    assert code == 0


# --- what a review found -----------------------------------------------------------------------------------

def test_a_name_given_twice_by_the_file_and_the_options_is_bad_input(tmp_path: Path) -> None:
    path = builds_file(tmp_path, f"builds:\n  - name: impl-1\n    command: {WRONG}\n")
    code, text = run("verify", "--builds", str(path), "--impl", REFERENCE, *QUICK)
    assert code == 2 and f"{path}:2: the name 'impl-1' is also the name --impl" in text


@pytest.mark.parametrize(("entry", "said"), [
    ("    cwd: nowhere\n", "builds[0].cwd: "),
    ("    timeout: .nan\n", "builds[0].timeout: nan is not a number of seconds"),
    ("    time: .inf\n", "builds[0].time: inf"),
    ('    name2: x\n', "'name2' was unexpected"),
])
def test_a_missing_folder_or_a_number_that_is_none_is_bad_input(tmp_path: Path, entry: str, said: str) -> None:
    path = builds_file(tmp_path, f"builds:\n  - name: a\n    command: {REFERENCE}\n{entry}")
    code, text = run("verify", "--builds", str(path), *QUICK)
    assert code == 2 and said in text and f"{path}:" in text, text


def test_an_endless_build_time_is_bad_input() -> None:
    for value in ("nan", "inf", "0.5"):
        code, text = run("verify", "--impl", REFERENCE, "--impl", REFERENCE, "--build-time", value, *QUICK)
        assert code == 2 and "is not a number of seconds of at least 1" in text


def test_a_build_s_games_narrow_the_run_s(tmp_path: Path) -> None:
    path = builds_file(tmp_path, f"builds:\n  - name: ref\n    command: {REFERENCE}\n"
                                 f"  - name: ludo-only\n    command: {REFERENCE}\n    games: [ludo]\n")
    code, text = run("verify", "--builds", str(path), *QUICK, "--json", str(tmp_path / "m.json"))
    assert code == 0 and "ludo-only left out: its games (ludo) are none of --game (lantern-quay)" in text
    assert [b["name"] for b in json.loads((tmp_path / "m.json").read_text())["builds"]] == ["ref"]


def test_a_report_to_stdout_is_stdout_s_one_document() -> None:
    code, text = run("verify", "--impl", REFERENCE, "--impl", WRONG, *QUICK, "--json", "-")
    assert code == 1 and json.loads(text)["kind"] == "refimpl-matrix"


def test_names_that_make_the_same_anchor_open_their_own_failures(tmp_path: Path) -> None:
    import re

    path = builds_file(tmp_path, f"builds:\n  - name: a.b\n    command: {WRONG}\n    cwd: .\n"
                                 f"  - name: a-b\n    command: {build('wrong.py', 'forge-spends-on-failure')}\n"
                                 f"  - name: c.d\n    command: {build('misbehave.py', 'crash-at-start')}\n")
    run("verify", "--builds", str(path), *QUICK, "--html", str(tmp_path / "m.html"))
    page = (tmp_path / "m.html").read_text()
    ids = re.findall(r'id="([^"]+)"', page)
    assert len(ids) == len(set(ids)), "every anchor once"
    targets = set(re.findall(r'href="#([^"]+)"', page))
    assert targets and targets <= set(ids), targets - set(ids)


def test_the_step_summary_keeps_a_command_s_pipe_in_its_cell(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    piped = f"{REFERENCE} | cat"
    run("verify", "--impl", REFERENCE, "--impl", piped, *QUICK, env={"GITHUB_STEP_SUMMARY": str(summary)})
    row = next(line for line in summary.read_text().splitlines() if line.startswith("| `impl-2`"))
    import re

    assert len(re.split(r"(?<!\\)\|", row)) == 6, row  # four cells: the command's pipe is escaped


def test_a_user_file_that_looks_like_a_run_is_left_alone(tmp_path: Path) -> None:
    site = tmp_path / "site"
    run("verify", "--impl", REFERENCE, "--impl", REFERENCE, *QUICK, "--site", str(site))
    (site / "run-latest.json").write_text((site / "run-0001.json").read_text())
    code, _ = run("verify", "--impl", REFERENCE, "--impl", REFERENCE, *QUICK, "--site", str(site))
    assert code == 0 and (site / "run-0002.json").is_file() and (site / "run-latest.json").is_file()


def test_a_page_s_bridge_gets_the_kit_s_browser_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    from refimpl.commands.many import ManyOptions, start_of
    from refimpl.util.browser import BrowserMissing, chromium, playwright
    from refimpl.verify.builds import Builds, BuildSpec

    try:
        playwright()
        found = chromium()
    except BrowserMissing as exc:
        pytest.skip(f"{exc} (.ci/run installs both)")
    monkeypatch.setenv("REFIMPL_CHROMIUM", found)
    monkeypatch.setenv("SOME_TOKEN", "secret")
    many = ManyOptions(None, (), (), 2048, 1800.0, None, None)
    spec = BuildSpec("web", page=str(ROOT / "examples" / "web-lantern-quay" / "index.html"))
    build, _ = start_of(spec, Builds((spec,)), many, 5.0, {"level": "full", "known_answers": True})
    assert build.env["REFIMPL_CHROMIUM"] == found and "SOME_TOKEN" not in build.env and build.isolate
    plain, _ = start_of(BuildSpec("cmd", command="true"), Builds(()), many, 5.0,
                        {"level": "full", "known_answers": True})
    assert "REFIMPL_CHROMIUM" not in plain.env


def test_under_github_actions_each_failing_gated_build_gets_one_escaped_annotation(tmp_path: Path) -> None:
    path = builds_file(tmp_path, f"builds:\n  - name: ref\n    command: {REFERENCE}\n"
                                 f"  - name: wrong\n    command: {WRONG}\n"
                                 f"  - name: leaky\n    command: {build('leaky.py')}\n"
                                 f"  - name: shown\n    command: {WRONG}\ngate: [ref, wrong, leaky]\n")
    code, text = run("verify", "--builds", str(path), *QUICK, env={"GITHUB_ACTIONS": "true"})
    assert code == 3
    commands = [line for line in text.splitlines() if line.startswith("::")]
    assert [c.split("::")[1] for c in commands] == [
        "error title=refimpl verify%3A wrong does not conform", "error title=refimpl verify%3A leaky build broke"]
    assert "lantern-quay" in commands[0] and "modules: expected" in commands[0]  # its first problem
    assert not any(line.lstrip().startswith(("::", "##[")) for line in text.splitlines() if line not in commands)
