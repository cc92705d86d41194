"""Long traces stream (issue 26): a trace is read, planned and judged a step at a time, so replaying it holds
one step (and a bounded ledger), not all of them. The 1,000,000-step figure is in ``make bench``
(bench/long_trace.py); here a smaller trace, a memory bound, and the lazy path against the eager one."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from refimpl.harness.driver import ReferenceDriver
from refimpl.harness.replay import LEDGER_HEAD, LEDGER_TAIL, replay
from refimpl.harness.trace import Step, TraceError
from refimpl.harness.tracefile import find_traces, load_trace, parse_trace
from refimpl.reports.text import text_report

ROOT = Path(__file__).resolve().parent.parent
HEAD = (ROOT / "traces/beacon-lines/round-1.yaml").read_text().split("steps:")[0]
RESTART = "- {restart: true}\n"


def long_trace(tmp_path: Path, steps: int, tail: str = "", name: str = "long.yaml") -> Path:
    path = tmp_path / name
    path.write_text(HEAD + "steps:\n" + RESTART * steps + tail)
    return path


def _peak_kib(path: Path) -> tuple[int, str]:
    probe = ("import resource, subprocess, sys\n"
             "p = subprocess.run([sys.executable, '-m', 'refimpl', 'replay', sys.argv[1]], capture_output=True, "
             "text=True)\n"
             "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
             "print(p.stdout[-400:] + p.stderr[-400:])\n")
    out = subprocess.run([sys.executable, "-c", probe, str(path)], capture_output=True, text=True, timeout=600)
    code, peak = out.stdout.split("\n", 1)[0].split()
    assert code == "0", out.stdout
    return int(peak), out.stdout


def test_replay_memory_does_not_grow_with_the_number_of_steps(tmp_path: Path) -> None:
    """10,000 and 150,000 steps: the larger costs its text and two small arrays more, not its steps (before,
    150,000 steps took about 650 MB)."""
    small, _ = _peak_kib(long_trace(tmp_path, 10_000, name="small.yaml"))
    large, shown = _peak_kib(long_trace(tmp_path, 150_000, name="large.yaml"))
    assert "CONFORMS (150001 checks)" in shown
    assert large - small < 25_000, f"{small} KiB for 10,000 steps, {large} KiB for 150,000"


def test_a_long_traces_ledger_keeps_its_first_and_last_steps_and_counts_the_rest(tmp_path: Path) -> None:
    steps = LEDGER_HEAD + LEDGER_TAIL + 700
    bad = "- action: {type: claim, claims: {red: north-pass, blue: south-pass}}\n  expect: {round: 5}\n"
    trace = load_trace(long_trace(tmp_path, steps, tail=bad))
    result = replay(trace, ReferenceDriver())
    assert result.status == "mismatch"
    assert result.failure is not None and result.failure.number == steps + 1
    assert result.failure.line == len((HEAD + "steps:\n").splitlines()) + steps + 2  # the expect line
    assert len(result.steps) == LEDGER_HEAD + LEDGER_TAIL and result.judged == steps + 2  # the start, and the rest
    assert [s.number for s in result.steps[:3]] == [0, 1, 2]  # the start is shown: the trace expects of it
    text = text_report([result])
    assert f"{result.omitted} more steps" in text and f"MISMATCH at step {steps + 1}" in text


def test_a_bad_step_deep_in_a_long_trace_is_named_with_its_line(tmp_path: Path) -> None:
    path = long_trace(tmp_path, 5000, tail="- {action: {type: fly}}\n")
    trace = load_trace(path)  # the header and the first step are checked at once, the rest as replayed
    with pytest.raises(TraceError, match=rf"{path.name}:{len(HEAD.splitlines()) + 5002}: step 5001: not a "):
        replay(trace, ReferenceDriver())
    proc = subprocess.run([sys.executable, "-m", "refimpl", "replay", str(path)], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 2 and f":{len(HEAD.splitlines()) + 5002}: step 5001" in proc.stderr


@pytest.mark.parametrize("path", find_traces([ROOT / "traces"]), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_bundled_trace_reads_and_replays_the_same_step_by_step(path: Path) -> None:
    """The lazy reading (each block of steps on its own) gives the steps and the results the whole
    document gives."""
    text = path.read_text(encoding="utf-8")
    eager, lazy = parse_trace(text, str(path)), parse_trace(text, str(path), eager=0)
    assert list(lazy.steps) == list(eager.steps)
    assert [s.line for s in lazy.steps] == [s.line for s in eager.steps]
    a, b = replay(eager, ReferenceDriver()), replay(lazy, ReferenceDriver())
    assert (a.status, [(s.number, s.ok, s.line) for s in a.steps]) == \
        (b.status, [(s.number, s.ok, s.line) for s in b.steps])


def test_a_step_built_fast_has_every_field_of_step() -> None:
    """trace._step fills a Step's fields directly (for speed): it must set every one of them."""
    step = parse_trace(HEAD + "steps:\n" + RESTART, "t.yaml", eager=0).steps[0]
    assert set(vars(step)) == {f.name for f in dataclasses.fields(Step)}


@pytest.mark.parametrize("text", [
    "steps:\n  - {restart: true}\n  - restart: true\n    note: |\n      two\n      lines\n",
    "steps:\n- restart: true\n# a comment at the margin\n- restart: true\n",
    "steps:\n- restart: true\n  note: a plain scalar\n    continued\n- {restart: true}\n",
    "steps:\n  - restart: true\n  - restart: true\nsetup: {}\n",
    "steps: # the steps\n\n  -   restart: true\n\n  -\n    restart: true\n",
])
def test_steps_read_block_by_block_are_the_documents_steps(text: str) -> None:
    """The steps read from their own text (trace._header) are exactly what the whole document holds."""
    from refimpl.harness.tracefile import _header
    from refimpl.util import yamlsafe

    whole = "version: 1\ngame: beacon-lines\ntitle: t\nrules: []\nsource: x\n" + text
    _, raw = _header(whole, "t.yaml")
    assert raw.spans is not None, "the layout was not read step by step"
    assert [raw[i] for i in range(len(raw))] == yamlsafe.load(whole)["steps"]
    assert len(parse_trace(whole, "t.yaml", eager=0).steps) == 2
