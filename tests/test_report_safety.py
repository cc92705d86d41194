"""Reports never break: whatever a build prints on stderr or calls itself (ANSI escapes, NUL, BEL, lone
surrogates, noncharacters, bytes that are not UTF-8), the JUnit XML parses, the JSON is strict and the
text prints to a UTF-8 stdout. Characters a format cannot hold become U+FFFD (lone surrogates, U+FFFE,
U+FFFF) or a visible escape such as ``\\x1b`` (control characters, in XML and text)."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import xml.etree.ElementTree as ET
import xml.sax
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from refimpl.harness.driver import BuildBroke
from refimpl.reports.jsondoc import verify_json
from refimpl.reports.junit import junit_xml
from refimpl.reports.model import Check, Report
from refimpl.reports.safetext import json_safe, printable, xml_safe
from refimpl.reports.text import verify_text
from refimpl.status import Status

ROOT = Path(__file__).resolve().parent.parent
BAD_UTF8 = b"\xff\xfe\xc3( \xed\xa0\x80 \xf0\x28\x8c\xbc"
WORST = ("\x1b[31mred\x1b[0m NUL\x00 BEL\x07 VT\x0b FF\x0c CR\r DEL\x7f CSI\x9b lone\ud800 low\udfff "
         "nonchar\ufffe\uffff " + BAD_UTF8.decode("utf-8", "replace") + " "
         + BAD_UTF8.decode("utf-8", "surrogateescape") + " tab\t é ✓\nsecond line")
XML_CHAR = re.compile("[\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]*")


def worst_report(broke_at_start: bool = False) -> Report:
    report = Report(command=f"./build {WORST}", build=f"my build {WORST}", warnings=[WORST])
    if broke_at_start:
        report.broke_at_start = BuildBroke("crashed-at-start", WORST, WORST)
        return report
    for status in (Status.PASSED, Status.FAILED, Status.NOT_RUN, Status.XFAIL, Status.XPASS, Status.BROKE):
        report.checks.append(Check("trace", "beacon-lines", f"beacon-lines/{status} {WORST}", ("BL-WIN-1",), status,
                                   detail=WORST, ruleset="v1", stderr=WORST, reason=WORST))
    report.checks.append(Check("scenario", f"game {WORST}", WORST, (f"XX-{WORST}",), Status.FAILED, WORST, None, WORST))
    return report


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)


def parse_strict_xml(text: str) -> ET.Element:
    """Parse with ElementTree and SAX (expat) and check every character is an XML 1.0 Char."""
    assert XML_CHAR.fullmatch(text), "a character XML 1.0 forbids"
    data = text.encode("utf-8")  # strict: no lone surrogate may remain
    xml.sax.parseString(data, xml.sax.ContentHandler())
    return ET.fromstring(data)


def parse_strict_json(text: str) -> Any:
    data = text.encode("utf-8")
    doc = json.loads(data, parse_constant=lambda c: pytest.fail(f"non-standard JSON constant {c}"))
    assert not [s for s in strings(doc) if re.search("[\ud800-\udfff]", s)], "a lone surrogate in the JSON"
    return doc


@pytest.mark.parametrize("broke", [False, True], ids=["checks", "broke-at-start"])
def test_junit_json_and_text_survive_the_worst_stderr_and_names(broke: bool, tmp_path: Path) -> None:
    report = worst_report(broke)
    xml_text = junit_xml(report)
    root = parse_strict_xml(xml_text)
    assert "\x1b" not in xml_text and "\\x1b[31mred" in xml_text, "control characters become visible escapes"
    assert "my build" in root.get("name", "") and "\ufffd" in root.get("name", "")
    assert "é ✓" in xml_text, "characters XML can hold are kept"
    (tmp_path / "junit.xml").write_text(xml_text, encoding="utf-8")
    from junitparser import JUnitXml

    suites = list(JUnitXml.fromfile(str(tmp_path / "junit.xml")))
    assert sum(s.tests for s in suites) == (1 if broke else len(report.checks))

    doc = parse_strict_json(verify_json(report))
    assert doc["build"].startswith("my build") and "\ufffd" in doc["build"]
    assert "\x1b[31mred" in doc["warnings"][0], "JSON keeps control characters (escaped by JSON itself)"
    if broke:
        assert doc["broke_at_start"]["stderr"].count("\ufffd") >= 3
    else:
        assert {c["status"] for c in doc["checks"]} == {"passed", "failed", "not_run", "xfail", "xpass", "broke"}

    text = verify_text(report)
    text.encode("utf-8")  # strict: what click.echo does on a UTF-8 stdout
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", text), "no control character but tab and newline"
    assert "\\x1b[31mred" in text and "\\x07" in text and "é ✓" in text


def test_the_helpers_replace_only_what_the_format_forbids() -> None:
    assert xml_safe("a\tb\nc\rd\x00e\ud800f\ufffeg") == "a\tb\nc\rd\\x00e\ufffdf\ufffdg"
    assert printable("line\r\nnext\rX\x1b[0m\udcff") == "line\nnext\\x0dX\\x1b[0m\ufffd"
    assert json_safe({"k\ud800": [float("nan"), float("-inf"), ("a", 1), "\x07"]}) == \
        {"k\ufffd": ["NaN", "-Infinity", ["a", 1], "\x07"]}


BUILD = '''
import json, sys
sys.path.insert(0, {root!r})
from refimpl.games import GAMES
from refimpl.harness.serve import Session

session = Session(GAMES, "reference")
applies = 0
for line in sys.stdin:
    request = json.loads(line)
    response = session.answer(line)
    if request.get("op") == "hello":
        response["build"] = {{"name": "junk \\ud800 build \\x1b[1m", "version": "1.0\\x00"}}
    sys.stderr.buffer.write(b"\\x1b[31mwarn\\x1b[0m \\x00\\x07\\x0b \\xff\\xfe\\xed\\xa0\\x80 bytes\\r\\n")
    sys.stderr.flush()
    if request.get("op") == "apply":
        applies += 1
        if applies == 3:
            sys.exit(1)
    sys.stdout.write(json.dumps(response) + "\\n")
    sys.stdout.flush()
'''


def test_verify_end_to_end_with_a_build_that_prints_garbage(tmp_path: Path) -> None:
    script = tmp_path / "junk_build.py"
    script.write_text(BUILD.format(root=str(ROOT)), encoding="utf-8")
    command = f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}"
    junit = tmp_path / "junit.xml"
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict"}
    base = [sys.executable, "-m", "refimpl", "verify", "--impl", command, "--no-scenarios", "-k", "safe-route-v0"]
    proc = subprocess.run([*base, "--junit-xml", str(junit), "--format", "json"], cwd=ROOT, capture_output=True,
                          env=env, timeout=120, check=False)
    assert proc.returncode == 3, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert b"Traceback" not in proc.stderr
    doc = parse_strict_json(proc.stdout.decode("utf-8"))
    assert doc["build"] == "junk \ufffd build \x1b[1m 1.0\x00"
    (broken,) = [c for c in doc["checks"] if c["status"] == "broke"]
    assert "warn" in broken["stderr"] and "\ufffd" in broken["stderr"]
    root = parse_strict_xml(junit.read_text(encoding="utf-8"))
    assert root.get("name") == "refimpl verify: junk \ufffd build \\x1b[1m 1.0\\x00"
    err = root.find(".//system-err")
    assert err is not None and "\\x1b[31mwarn" in (err.text or "")

    text = subprocess.run(base, cwd=ROOT, capture_output=True, env=env, timeout=120, check=False)
    assert text.returncode == 3 and b"Traceback" not in text.stderr, text.stderr[-2000:]
    out = text.stdout.decode("utf-8")
    assert "Build: junk \ufffd build \\x1b[1m 1.0\\x00" in out and "\\x1b[31mwarn" in out


def test_transcripts_stay_bounded_whatever_the_answers_weigh(tmp_path: Path) -> None:
    """Every answer lawful and a megabyte long (a field the protocol does not name): with --transcript, a run
    of the 637-step Ludo game stays within a few hundred megabytes (issue 43: 2.1 GB, and transcripts of gigabytes),
    and a transcript keeps each such answer as its outline."""
    from refimpl.harness import recording

    build = f"{sys.executable} {ROOT / 'tests/builds/hostile_answers.py'} verbose"
    command = [sys.executable, "-m", "refimpl", "verify", "--impl", build, "--game", "ludo", "-k", "cpu-game",
               "--no-scenarios", "--no-explore", "--quiet", "--transcript", str(tmp_path / "tr")]
    measure = ("import resource, subprocess, sys; p = subprocess.run(sys.argv[1:], capture_output=True); "
               "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")  # its own children only
    proc = subprocess.run([sys.executable, "-c", measure, *command], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    code, peak_kb = map(int, proc.stdout.split())
    assert code == 0 and peak_kb < 400_000, (code, f"{peak_kb} KB", proc.stderr[-2000:])
    entry = {"response": {"id": 3, "ok": True, "state": {"game": "ludo"}, "padding": "x" * 100_000}}
    kept, used = recording.kept(entry, 0)
    assert kept == {"response": {"id": 3, "ok": True, "state": {"game": "ludo"},
                                 "<not kept>": "fields the protocol does not name: padding"}}
    cut, total = recording.kept({"request": {"id": 4}}, recording.TRANSCRIPT_TOTAL)
    assert cut is not None and "later exchanges not kept" in cut["cut"] and total > recording.TRANSCRIPT_TOTAL
    assert recording.kept({"request": {"id": 5}}, total) == (None, total)
