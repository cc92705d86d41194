"""A build's text never acts on the CI that judges it (issue 43): in the text report (the job log under GitHub
Actions) no line of build text becomes a workflow command (``::stop-commands::``, ``::add-mask::``, ``::error::``,
``##[error]``); the annotations carry no raw control character; the step summary (markdown) shows build text as
text, never as HTML, an image or a link."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from refimpl.reports.failures import FieldDiff
from refimpl.reports.github import annotations
from refimpl.reports.markdown import code, markdown, plain
from refimpl.reports.model import Check, Failure, Report
from refimpl.reports.safetext import printable
from refimpl.reports.text import verify_text
from refimpl.status import Status

INJECTION = ("ok\n::stop-commands::t0ken\n::add-mask::secret\n  ::set-output name=x::1\n::error::pwned\n"
             "##[error]pwned\n##vso[task.setvariable]x\n\x1b]52;c;aGk=\x07 \x00 \x9b")
HTML = "`<img src=https://evil.example/x.png>` </details> ![a](https://evil.example/i.png) [b](javascript:alert(1))"
COMMAND_LINE = re.compile(r"^[ \t]*(::|##\[|##vso\[)", re.M)
# a CommonMark code span: a run of backticks (not escaped) to the next run of the same length
CODE_SPAN = re.compile(r"(?<![\\`])(`+)(?!`).*?(?<!`)\1(?!`)")
MARKUP = re.compile(r"<|(?<!\\)\]\(|(?<!\\)!\[")  # raw HTML, a link's or an image's syntax, unescaped


def hostile_report() -> Report:
    report = Report(command="./build", build=f"my build {INJECTION} {HTML}")
    failure = Failure(f"traces/{INJECTION}.yaml", 3, 1, f"claim {HTML}", fields=(
        FieldDiff(f"scores.{INJECTION}", f"{HTML}", f"{INJECTION}", "BL-SCORE-1"),), message=f"{INJECTION} {HTML}")
    report.checks.append(Check("trace", "beacon-lines", f"beacon-lines/{INJECTION}", ("BL-SCORE-1",),
                               Status.FAILED, detail=INJECTION, stderr=INJECTION, failure=failure))
    report.checks.append(Check("trace", "beacon-lines", "beacon-lines/broke", ("BL-WIN-1",), Status.BROKE,
                               detail=f"{INJECTION} {HTML}", stderr=INJECTION))
    return report


def test_no_line_of_the_text_report_is_a_runner_command() -> None:
    text = verify_text(hostile_report())
    assert "stop-commands" in text and "add-mask" in text  # shown, as text
    assert not COMMAND_LINE.search(text), [line for line in text.splitlines() if COMMAND_LINE.match(line)]
    assert "\x1b" not in text and "\x00" not in text and "\x07" not in text and "\x9b" not in text


def test_printable_leaves_the_kits_own_text_alone() -> None:
    assert printable("a::b\n  step 3: c::d\n") == "a::b\n  step 3: c::d\n"
    assert printable("::error::x") == "\\::error::x"


def test_annotations_are_the_kits_commands_only_with_no_raw_control_character() -> None:
    text = annotations(hostile_report())
    lines = text.splitlines()
    assert len(lines) == 2 and all(line.startswith("::error ") for line in lines)
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", text)


def test_the_step_summary_shows_build_text_as_text() -> None:
    text = markdown(hostile_report())
    outside = CODE_SPAN.sub("", text)  # what markdown renders as markup: everything but the code spans
    assert "stop-commands" in text and "evil.example" in text  # shown, as text
    assert not MARKUP.search(outside), MARKUP.findall(outside)
    assert not COMMAND_LINE.search(text)
    # every piece of build text sits in a code span or is escaped: no raw HTML and no link or image syntax
    assert code("a`b") == "``a`b``" and code("<b>") == "`<b>`" and code("x\ny") == "`x\\ny`"
    assert plain("<b>![i](u)") == "&lt;b&gt;\\!\\[i\\]\\(u\\)"


def test_at_most_ten_errors_then_one_notice_and_files_only_from_the_working_folder(tmp_path: Path,
                                                                                    monkeypatch: Any) -> None:
    """GitHub shows ten error annotations a step: the kit sends ten, the likeliest first, and a notice counting
    the rest; an annotation names a file only where it exists under the working folder (GitHub drops one that
    names a file outside the repository)."""
    (tmp_path / "mine.yaml").write_text("x\n")
    monkeypatch.chdir(tmp_path)
    report = Report(command="./build")
    for i in range(12):
        where = "mine.yaml" if i == 0 else "traces/ludo/capture.yaml"  # the kit's bundled trace: not here
        report.checks.append(Check("trace", "ludo", f"ludo/t{i}", ("LD-CAP-1",), Status.FAILED, detail="d",
                                   failure=Failure(where, 3, 1, "roll", message=f"{where}:3 differs")))
    lines = annotations(report).splitlines()
    assert len(lines) == 11 and all(line.startswith("::error ") for line in lines[:10])
    assert lines[10].startswith("::notice ") and "2 more failures" in lines[10]
    assert sum("file=mine.yaml,line=3" in line for line in lines) == 1
    assert not any("file=traces" in line for line in lines)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_step_summary_no_one_reads_does_not_hold_the_run(tmp_path: Path) -> None:
    """A GITHUB_STEP_SUMMARY that is a FIFO with no reader: the verdict stands and the run ends, saying it could
    not append the summary (it waited for a reader forever before)."""
    fifo = tmp_path / "summary"
    os.mkfifo(fifo)
    env = {**os.environ, "GITHUB_STEP_SUMMARY": str(fifo), "REFIMPL_EXPLORE": "0"}
    proc = subprocess.run([sys.executable, "-m", "refimpl", "verify", "--game", "beacon-lines", "-k", "round-1",
                           "--no-scenarios", "--quiet"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "cannot append the step summary" in proc.stderr
