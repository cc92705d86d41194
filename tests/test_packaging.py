"""The user's path, end to end (issue 25): the kit is built into an sdist and a wheel (the wheel from the sdist,
as pip builds a ``git+URL`` install), the wheel is installed non-editable into a fresh venv in a temporary
folder, and the README's own commands are run there from a "user repository" holding a copy of
``examples/node-build`` as ``adapter/`` and files the kit does not own, with a relative ``--impl``.

Nothing here imports the kit under test from the checkout: every command is the installed one.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import tomllib
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.marks import left
from tests.node import missing_reason

ROOT = Path(__file__).resolve().parent.parent
BUILD = "node adapter/main.js"  # relative, as the README's workflow writes it
WHEEL_LIMIT = 2_000_000  # bytes; 0.2.0 is about 0.44 MB

pytestmark = [pytest.mark.xdist_group("user-path")]
needs_node = pytest.mark.skipif(missing_reason("the user-path build") is not None,
                                reason=missing_reason("the user-path build") or "")


def _tracked() -> list[str]:
    """The files of the checkout that a clone has (what ``pip install git+URL`` builds from)."""
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, timeout=60)
    if out.returncode != 0:
        pytest.skip("not a git checkout: the packaging test builds from the tracked files")
    return [name for name in out.stdout.decode().split("\0") if name and (ROOT / name).is_file()]


def _run(args: list[str], cwd: Path, env: dict[str, str] | None = None, timeout: float = 600,
         ) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "VIRTUAL_ENV", "PYTHONPATH"))}
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          env={**clean, **(env or {})})


@dataclass
class Installed:
    sdist: Path
    wheel: Path
    venv: Path
    repo: Path  # the user's repository: adapter/ and their own files

    def bin(self, name: str) -> str:
        return str(self.venv / "bin" / name)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """Build the sdist and the wheel from a copy of the tracked files, install the wheel into a fresh venv."""
    top = tmp_path_factory.mktemp("user-path")
    src, dist = top / "kit-source", top / "dist"
    for name in _tracked():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, src / name)
    built = _run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(dist), str(src)], cwd=top)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    (sdist,), (wheel,) = sorted(dist.glob("*.tar.gz")), sorted(dist.glob("*.whl"))
    venv = top / "venv"
    made = _run([sys.executable, "-m", "venv", str(venv)], cwd=top)
    assert made.returncode == 0, made.stderr
    pip = _run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                str(wheel)], cwd=top)
    assert pip.returncode == 0, pip.stdout[-3000:] + pip.stderr[-3000:]
    repo = top / "my-game"
    shutil.copytree(ROOT / "examples" / "node-build", repo / "adapter")
    (repo / "README.md").write_text("# my game\n")
    (repo / "known.yaml").write_text("not the kit's file\n")
    return Installed(sdist, wheel, venv, repo)


def _listing(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_the_wheel_carries_the_whole_suite_and_every_data_file(installed: Installed) -> None:
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    suite = {"traces": "refimpl/suite/traces", "features": "refimpl/suite/features", "specs": "refimpl/suite/specs"}
    wanted = set()
    for name in _tracked():
        top, _, rest = name.partition("/")
        if top in suite and not name.endswith(".py"):
            wanted.add(f"{suite[top]}/{rest}")
        elif top == "refimpl" and "/__pycache__/" not in name:
            wanted.add(name)
    assert not wanted - names, sorted(wanted - names)[:20]
    assert installed.wheel.stat().st_size < WHEEL_LIMIT, installed.wheel.stat().st_size


def test_every_package_folder_is_listed_in_pyproject() -> None:
    """A package folder (one with an ``__init__.py``) that pyproject.toml does not list would be left out of
    the wheel."""
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    listed, mapped = set(conf["packages"]), {v: k for k, v in conf["package-dir"].items()}
    found = set()
    for init in ROOT.glob("refimpl/**/__init__.py"):
        found.add(".".join(init.parent.relative_to(ROOT).parts))
    for folder, package in mapped.items():
        for init in (ROOT / folder).glob("**/__init__.py"):
            found.add(".".join((package, *init.parent.relative_to(ROOT / folder).parts)))
    assert found <= listed, sorted(found - listed)


def test_the_sdist_builds_the_same_wheel_contents(installed: Installed, tmp_path: Path) -> None:
    """``pip install git+URL`` and ``pip install SDIST`` build from the sdist: it must hold the suite too."""
    import tarfile

    with tarfile.open(installed.sdist) as tar:
        members = {m.name.split("/", 1)[1] for m in tar.getmembers() if "/" in m.name}
    for name in _tracked():
        if name.split("/", 1)[0] in ("traces", "features", "specs", "refimpl"):
            assert name in members, name


def test_version_from_any_folder(installed: Installed) -> None:
    out = _run([installed.bin("refimpl"), "--version"], cwd=installed.repo)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("refimpl 0.") and "(suite " in out.stdout


@needs_node
def test_the_readme_commands_conform_with_a_relative_build_command(installed: Installed) -> None:
    before = _listing(installed.repo)
    out = _run([installed.bin("refimpl"), "verify", "--impl", BUILD, "--perft", "2", "--twice", "--quiet",
                "--json", "refimpl-reports/verify.json"], cwd=installed.repo)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
    doc = json.loads((installed.repo / "refimpl-reports" / "verify.json").read_text())
    kinds = {c["kind"] for c in doc["checks"]}
    assert {"trace", "scenario", "perft", "determinism"} <= kinds, kinds
    assert doc["summary"]["not_run"] == 0 and doc["summary"]["passed"] == len(doc["checks"])
    after = _listing(installed.repo)
    assert {k: v for k, v in after.items() if not k.startswith("refimpl-reports/")} == before
    shutil.rmtree(installed.repo / "refimpl-reports")


@needs_node
def test_a_build_with_one_rule_broken_fails_naming_the_rule(installed: Installed, tmp_path: Path) -> None:
    """The Beacon's landmark bonus left out (BL-SCORE-2): exit 1, the rule owns a differing field; an
    expect-fail file with rule entries is taken by the installed kit (the specs are bundled)."""
    broken = installed.repo / "broken"
    shutil.copytree(installed.repo / "adapter", broken)
    js = broken / "beacon-lines.js"
    text = js.read_text()
    assert "=== 'v1' ? 2 : 1;" in text
    js.write_text(text.replace("=== 'v1' ? 2 : 1;", "=== 'v1' ? 1 : 1;"))
    try:
        out = _run([installed.bin("refimpl"), "verify", "--impl", "node broken/main.js", "--game", "beacon-lines",
                    "--format", "json", "--quiet"], cwd=installed.repo)
        assert out.returncode == 1, out.stdout[-3000:] + out.stderr[-2000:]
        doc = json.loads(out.stdout)
        owners = {f["rule"] for c in doc["checks"] if c["status"] == "failed" and c.get("failure")
                  for f in c["failure"].get("fields") or ()}
        assert "BL-SCORE-2" in owners, owners
        known = tmp_path / "known.yaml"
        known.write_text("- rule: BL-SCORE-2\n  reason: the landmark bonus is ticket 12\n")
        taken = _run([installed.bin("refimpl"), "verify", "--impl", "node broken/main.js", "--game",
                      "beacon-lines", "--expect-fail", str(known), "--quiet"], cwd=installed.repo)
        assert taken.returncode == 1 and "xfail" in taken.stdout, taken.stdout[-3000:] + taken.stderr
    finally:
        shutil.rmtree(broken)


@needs_node
def test_an_unrelated_pytest_suite_passes_and_pytest_impl_runs_the_kit(installed: Installed) -> None:
    """pytest alone (none of the kit's test extras) in the venv: the user's own tests are untouched by the
    plugin; ``pytest --impl CMD`` from the user's folder runs the kit's checks; a project's own ``--impl`` wins."""
    pip = _run([installed.bin("python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                "pytest"], cwd=installed.repo)
    assert pip.returncode == 0, pip.stderr[-2000:]
    absent = _run([installed.bin("python"), "-c", "import pytest_bdd"], cwd=installed.repo)
    assert absent.returncode != 0
    tests = installed.repo / "tests"
    tests.mkdir(exist_ok=True)
    (tests / "test_mine.py").write_text("def test_mine():\n    assert 1 + 1 == 2\n")
    try:
        own = _run([installed.bin("pytest"), "-q", "tests"], cwd=installed.repo)
        assert own.returncode == 0 and "1 passed" in own.stdout, own.stdout[-2000:] + own.stderr[-2000:]
        kit = _run([installed.bin("pytest"), "-q", "--impl", BUILD, "--kit-games", "lantern-quay"],
                   cwd=installed.repo)
        assert kit.returncode == 0, kit.stdout[-3000:] + kit.stderr[-2000:]
        assert "1 passed" not in kit.stdout and " passed" in kit.stdout
        # a project whose own conftest has an --impl keeps it: the kit stays out of that run (issue 43)
        (tests / "conftest.py").write_text("def pytest_addoption(parser):\n    parser.addoption('--impl')\n")
        (tests / "test_mine.py").write_text("def test_mine(request):\n"
                                            "    assert request.config.getoption('impl') == 'mine'\n")
        theirs = _run([installed.bin("pytest"), "-q", "--impl", "mine", "tests"], cwd=installed.repo)
        assert theirs.returncode == 0 and "1 passed" in theirs.stdout, theirs.stdout[-2000:] + theirs.stderr[-2000:]
    finally:
        shutil.rmtree(tests)


@needs_node
def test_the_ci_gate_script_from_the_user_repository(installed: Installed) -> None:
    env = {"REFIMPL_BUILD_COMMAND": BUILD, "REFIMPL_ARGS": "--game ludo --quiet",
           "REFIMPL": installed.bin("refimpl")}
    out = _run(["bash", str(ROOT / "ci" / "verify-gate.sh")], cwd=installed.repo, env=env)
    try:
        assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
        reports = installed.repo / "refimpl-reports"
        assert {"junit.xml", "verify.json", "report.html", "verify.txt", "badges"} <= {p.name for p in
                                                                                         reports.iterdir()}
        assert "Verdict: CONFORMS" in (reports / "verify.txt").read_text()
    finally:
        shutil.rmtree(installed.repo / "refimpl-reports", ignore_errors=True)


def test_a_web_page_from_a_non_editable_install(installed: Installed, tmp_path: Path) -> None:
    """Issue 46, as a user: the browser extra into the wheel's venv; the example page conforms through --page from
    a relative path, and its broken copy fails naming LQ-SALV-1 with the page's own screen beside it."""
    from refimpl.util.browser import BrowserMissing, chromium

    try:
        chromium()
    except BrowserMissing as exc:
        pytest.skip(f"{exc} (.ci/run installs it)")
    extra = _run([installed.bin("python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                  f"{installed.wheel}[browser]"], cwd=tmp_path)
    if extra.returncode != 0:
        pytest.skip(f"the browser extra could not be installed here: {extra.stderr[-500:]}")
    shutil.copytree(ROOT / "examples" / "web-lantern-quay", tmp_path / "page")
    quick = ["--game", "lantern-quay", "--no-explore", "--quiet"]
    done = _run([installed.bin("refimpl"), "verify", "--page", "page", *quick], cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    broken = _run([installed.bin("refimpl"), "verify", "--page", "page/broken.html", *quick, "--no-scenarios",
                   "--json", "out/r.json"], cwd=tmp_path)
    assert broken.returncode == 1, broken.stdout[-3000:] + broken.stderr[-2000:]
    doc = json.loads((tmp_path / "out" / "r.json").read_text())
    assert "LQ-SALV-1" in {f["rule"] for c in doc["checks"] if c["failure"] for f in c["failure"]["fields"]}
    assert any(c.get("screens") for c in doc["checks"]) and (tmp_path / "out" / "r.screens").is_dir()
    codes = (tmp_path / "page" / "index.html").read_text()
    (tmp_path / "page" / "codes.html").write_text(re.sub(r"reject\('[a-z-]+'", "reject('nope'", codes))
    play = _run([installed.bin("refimpl"), "verify", "--page", "page/codes.html", *quick, "--level", "play"],
                cwd=tmp_path)
    assert play.returncode == 0, play.stdout[-3000:]
    illegal = codes.replace("if (state.placed[action.slot] !== null) return reject('slot-taken', `${action.slot} "
                            "holds a die`);", "")  # (codes: the page's text before its codes were replaced)
    (tmp_path / "page" / "illegal.html").write_text(illegal)
    wrong = _run([installed.bin("refimpl"), "verify", "--page", "page/illegal.html", *quick, "--level", "play"],
                 cwd=tmp_path)
    assert illegal != codes and wrong.returncode == 1, wrong.stdout[-3000:]
    hello = ("if (req.op === 'hello') return {id: req.id, ok: true, protocol: 1, build: {name: 'x'}, "
             "games: {'lantern-quay': ['v1']}, capabilities: []};")
    bad = {"throws": ("throw new Error('boom at load');", "the page threw while loading"),
           "silent": ("document.title = 'no object';", "did not set window.refimpl"),
           "hangs": ("window.refimpl = {handle(req) {" + hello + " return new Promise(() => {});}};", "hung"),
           "leaves": ("window.refimpl = {handle(req) {" + hello + " location.href = 'about:blank'; "
                      "return new Promise(() => {});}};", "navigated away")}
    for name, (script, cause) in bad.items():
        (tmp_path / "page" / f"{name}.html").write_text(f"<script>{script}</script>")
        mark = f"wheel-{name}-{os.getpid()}"
        # (a loaded machine may take seconds to start a browser: a timeout that leaves room for the cause)
        done = _run([installed.bin("refimpl"), "verify", "--page", f"page/{name}.html", *quick, "--no-scenarios",
                     "-k", "start-and-forms", "--timeout", "12"], cwd=tmp_path, env={"REFIMPL_TEST_MARK": mark})
        assert done.returncode == 3 and cause in done.stdout, (name, done.stdout[-2000:])
        assert left(mark) == [], f"{name}: a process of the run is still running"



def test_many_builds_from_a_non_editable_install(installed: Installed, tmp_path: Path) -> None:
    """Issue 47, as a platform: a builds file with the reference, the Node example build, a wrong build, a build
    that hangs after its hello and one that prints workflow commands and reads its environment; each judged right,
    the hanging one broke within its limit, nothing of the CI's secrets or commands got through, and the same run
    on a local Dask cluster gives the same JSON but for times."""
    py = shlex.quote(sys.executable)
    builds = tmp_path / "judge" / "builds.yaml"
    builds.parent.mkdir()
    builds.write_text(
        "builds:\n"
        f"  - name: reference\n    command: {shlex.quote(installed.bin('refimpl'))} serve\n"
        f"  - name: node\n    command: node adapter/main.js\n    cwd: {installed.repo}\n"
        f"  - name: wrong\n    command: {py} {ROOT / 'tests/builds/wrong.py'} install-lights-two\n"
        f"  - name: hangs\n    command: {py} {ROOT / 'tests/builds/misbehave.py'} hang-after-hello\n    timeout: 2\n"
        f"  - name: leaky\n    command: {py} {ROOT / 'tests/builds/leaky.py'}\n")
    summary = tmp_path / "summary.md"
    secrets = {"GITHUB_TOKEN": "tok-e2e-secret", "GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(summary),
               "GITHUB_OUTPUT": str(tmp_path / "gh-output")}
    quick = ["--game", "lantern-quay", "--no-scenarios", "--explore", "3", "--quiet"]
    started = time.monotonic()
    done = _run([installed.bin("refimpl"), "verify", "--builds", "judge/builds.yaml", *quick, "--jobs", "2",
                 "--json", "out/m.json", "--html", "out/m.html"], cwd=tmp_path, env=secrets)
    assert done.returncode == 3, done.stdout[-3000:] + done.stderr[-2000:]
    assert time.monotonic() - started < 240
    doc = json.loads((tmp_path / "out" / "m.json").read_text())
    verdicts = {b["name"]: b["verdict"] for b in doc["builds"]}
    assert verdicts == {"reference": "conforms", "node": "conforms", "wrong": "does_not_conform",
                        "hangs": "build_broke", "leaky": "build_broke"}, verdicts
    assert any(r["rule"] == "LQ-INST-2" and r["misread"] == 1 for r in doc["rules"])
    leaky = next(b for b in doc["builds"] if b["name"] == "leaky")["report"]
    told = "".join(c["stderr"] for c in leaky["checks"])
    assert "env GITHUB_TOKEN=<unset>" in told and "env GITHUB_STEP_SUMMARY=<unset>" in told
    own = "::error title=refimpl verify%3A "  # the kit's own annotations: one a gated build that failed the gate
    assert sorted(line.split("%3A ")[1].split(" ")[0] for line in done.stdout.splitlines()
                  if line.startswith(own)) == ["hangs", "leaky", "wrong"]
    for place in (done.stdout, done.stderr, summary.read_text(), (tmp_path / "out" / "m.html").read_text()):
        assert "tok-e2e-secret" not in place
        assert not any(line.lstrip().startswith(("::", "##[")) for line in place.splitlines()
                       if not line.startswith(own))
    assert not (tmp_path / "gh-output").exists()
    cluster = _run([installed.bin("python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    f"{installed.wheel}[cluster]"], cwd=tmp_path)
    if cluster.returncode != 0:
        pytest.skip(f"the cluster extra could not be installed here: {cluster.stderr[-500:]}")
    script = ("import subprocess, sys\nfrom distributed import LocalCluster\n"
              "with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, "
              "host='127.0.0.1') as c:\n"
              f"    sys.exit(subprocess.run([{installed.bin('refimpl')!r}, 'verify', '--builds', 'judge/builds.yaml', "
              f"*{quick!r}, '--cluster', c.scheduler_address, '--json', 'out/dask.json']).returncode)\n")
    dask = _run([installed.bin("python"), "-c", script], cwd=tmp_path, env=secrets)
    assert dask.returncode == 3, dask.stdout[-3000:] + dask.stderr[-3000:]
    # but for times, and the leaky build's own words naming the temporary folder it was given
    local, remote = ((tmp_path / "out" / name).read_text() for name in ("m.json", "dask.json"))
    local, remote = (json.loads(re.sub(r"refimpl-leaky-[a-z0-9_]+", "refimpl-leaky-X", d)) for d in (local, remote))
    for d in (local, remote):
        for b in d["builds"]:
            b["seconds"] = 0
    assert remote == local
