"""Every report names the kit that judged: its version and a digest of the suite it ran (issue 25)."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from refimpl import __version__, suite
from refimpl.reports.badges import badges
from refimpl.reports.htmlpage import render
from refimpl.reports.jsondoc import verify_json
from refimpl.reports.junit import junit_xml
from refimpl.reports.text import verify_text
from refimpl.verify import VerifySettings, verify

SEMVER = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$")
REFERENCE = f"{shlex.quote(sys.executable)} -m refimpl serve"


@pytest.fixture(scope="module")
def report():  # type: ignore[no-untyped-def]
    return verify(REFERENCE, VerifySettings(games=["ludo"], keyword="capture", explore=0))


def test_the_version_is_semantic_and_the_changelog_has_it() -> None:
    """A release's version is SemVer and has its CHANGELOG section; between releases main is the next version
    with ``.dev0`` (PEP 440's development release) and the CHANGELOG has an Unreleased section."""
    changelog = (Path(__file__).parents[1] / "CHANGELOG.md").read_text(encoding="utf-8")
    release, dev, _n = __version__.partition(".dev")
    assert SEMVER.match(release) and (not dev or _n.isdigit()), __version__
    assert ("## [Unreleased]" if dev else f"## [{__version__}]") in changelog


def test_refimpl_version_prints_version_and_suite_digest() -> None:
    out = subprocess.run([sys.executable, "-m", "refimpl", "--version"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    dev = ", a development version: not a release" if ".dev" in __version__ else ""
    assert out.stdout.strip() == f"refimpl {__version__} (suite {suite.digest()}{dev})"
    assert re.fullmatch(r"[0-9a-f]{12}", suite.digest())


def test_every_report_names_the_kit(report) -> None:  # type: ignore[no-untyped-def]
    kit = {"name": "refimpl", "version": __version__, "suite": suite.digest()}
    assert report.checks, "the selection ran nothing"
    assert f"Kit:   refimpl {__version__} (suite {kit['suite']})" in verify_text(report).splitlines()[:3]
    assert json.loads(verify_json(report))["kit"] == kit
    root = ET.fromstring(junit_xml(report))
    for element in root.iter("testsuite"):
        props = {p.get("name"): p.get("value") for p in element.find("properties") or ()}
        assert props == {"refimpl.version": __version__, "refimpl.suite": kit["suite"]}
    html = render(report)
    assert f'data-version="{__version__}"' in html and f'data-suite="{kit["suite"]}"' in html
    docs = badges(report)
    assert docs["kit"]["message"] == f"{__version__} (suite {kit['suite']})"
    assert docs["all"]["label"] == f"refimpl {__version__}"


def test_the_digest_changes_with_any_suite_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two suites that differ in one byte of one trace get different digests; the same files, the same one."""
    import shutil

    installed = suite.digest()
    copies = {}
    for name in ("traces", "features"):
        copies[name] = tmp_path / name
        shutil.copytree(suite.folder(name), copies[name])
    monkeypatch.setattr(suite, "folder", lambda name: copies[name])
    suite.digest.cache_clear()
    try:
        same = suite.digest()
        trace = copies["traces"] / "ludo" / "capture.yaml"
        trace.write_bytes(trace.read_bytes() + b"\n# one more line\n")
        suite.digest.cache_clear()
        changed = suite.digest()
    finally:
        suite.digest.cache_clear()
    assert same == installed  # the copy is the installed suite, byte for byte
    assert changed != same
