"""The answers the kit knows in advance (refimpl/harness/known.py), the fast path of the process driver: a build's
line that is the reference's answer byte for byte (or, for a legal list, the same actions in another order) is
taken as that answer unread; anything else is read and checked as ever; and switched off, every answer is read and
the verdict is the same (issue 44)."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings, strategies as st

from refimpl.harness.driver import Rejected
from refimpl.harness.requests import Apply, Legal, Start, State, Stats


@pytest.mark.parametrize("pipeline", [True, False])
def test_an_answer_written_exactly_as_the_reference_would_is_taken_as_that_answer_and_any_other_is_read(
        pipeline: bool) -> None:
    """``batch(..., expect=...)`` (the fuzzer's plan): a line that is byte for byte the reference's own
    answer stands for it, unread; a line that differs at all (another value, the same value written another
    way) is read and checked as ever, and the transcript holds every answer either way."""

    from refimpl.harness.driver import ReferenceDriver
    from refimpl.harness.protocol import ProtocolDriver

    ops = [Start("lantern-quay", "v1", 3, {}), Apply({"type": "roll", "dice": [2, 4, 6]}),
           Legal(), State(), Apply({"type": "fly"}), Stats()]
    reference = ReferenceDriver()
    answers = list(reference.batch(ops))
    assert isinstance(answers[4], Rejected)
    bent = [*answers]
    bent[3] = {**answers[3], "round": 99}  # the build's true answer differs from this "expected" one
    driver = ProtocolDriver(f"{sys.executable} -m refimpl serve", pipeline=pipeline, transcript=[])
    try:
        taken = list(driver.batch(ops, expect=answers))
        read = list(driver.batch([State()], expect=[{**answers[3], "round": 99}]))
        spaced = list(driver.batch([State()], expect=[json.loads(json.dumps(answers[3]))]))
    finally:
        driver.close()
    assert [a is b for a, b in zip(taken, answers)] == [True, True, True, True, False, True]
    assert taken[4] == answers[4]  # a rejection is read (and equal)
    assert read[0] == answers[3] and read[0]["round"] != 99
    assert spaced[0] == answers[3]
    responses = [m["response"] for m in driver.transcript if "response" in m]  # type: ignore[union-attr]
    assert len(responses) == 1 + len(ops) + 2  # the hello's, the plan's, the two single views'
    assert responses[4] == {"id": 4, "ok": True, "state": answers[3]}


def test_a_line_that_is_not_the_reference_answer_is_checked_as_ever(tmp_path: Any) -> None:
    """An answer the build writes with the reference's value but a wrong id is not taken for the reference's:
    it breaks the protocol (the fast path compares the whole line, id included)."""

    from refimpl.harness.driver import BuildBroke
    from refimpl.harness.protocol import ProtocolDriver

    script = tmp_path / "off_by_one.py"
    script.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    r = json.loads(line)\n"
        "    if r['op'] == 'hello':\n"
        "        print(json.dumps({'id': 0, 'ok': True, 'protocol': 1, 'build': {'name': 'x'},\n"
        "                          'games': {'lantern-quay': ['v1']}, 'capabilities': []}), flush=True)\n"
        "    else:\n"
        "        answer = {'id': r['id'] + 1, 'ok': True, 'state': {'game': 'g', 'ruleset': 'v1'}}\n"
        "        sys.stdout.write(json.dumps(answer, separators=(',', ':')) + '\\n')\n"
        "        sys.stdout.flush()\n")
    driver = ProtocolDriver(f"{sys.executable} {script}")
    try:
        with pytest.raises(BuildBroke, match="answered id 2 where 1 was due"):
            list(driver.batch([State()], expect=[{"game": "g", "ruleset": "v1"}]))
    finally:
        driver.close()


_ACTION = st.fixed_dictionaries({"type": st.sampled_from(["deploy", "move"]), "at": st.lists(st.integers(0, 3),
                                 min_size=2, max_size=2)}, optional={"ambush": st.booleans(),
                                 "to": st.lists(st.fixed_dictionaries({"x": st.integers(0, 2)}), max_size=2)})


_A, _B = {"type": "deploy", "at": [0, 0]}, {"type": "deploy", "at": [1, 0]}  # (written as long)


@settings(max_examples=300, deadline=None)
@given(st.lists(_ACTION, min_size=1, max_size=8), st.lists(_ACTION, min_size=1, max_size=8), st.randoms())
@example(ours=[_A, _A, _B], other=[_A], rnd=random.Random(0))  # a repeated action: counts matter, not the set
def test_a_legal_list_is_taken_for_the_reference_list_exactly_when_it_is_the_same_multiset(
        ours: list[Any], other: list[Any], rnd: Any) -> None:
    """``Known.answers``: a build's legal list written as the reference writes its actions is the reference's
    answer in any order, and only when it holds the same actions as many times each (nested ``},{`` and
    repeated actions included); anything else is read and compared as ever."""
    from refimpl.harness.compare import same_actions
    from refimpl.harness.known import known_answer as _known

    known = _known(Legal(), 7, ours)
    assert known is not None
    # the build's line as the reference's actions' texts cut at every "},{" and put together in another order:
    # taken only if it reads as the same actions (a "},{" inside an action must not be cut)
    pieces = json.dumps(ours, separators=(",", ":"))[2:-2].split("},{")
    rnd.shuffle(pieces)
    line = ('{"id":7,"ok":true,"actions":[{' + "},{".join(pieces) + "}]}").encode()
    if known.answers(line):
        assert same_actions(ours, json.loads(line)["actions"]), line
    for theirs in (rnd.sample(ours, len(ours)), other, rnd.sample(ours + other[:1], len(ours)), ours[::-1],
                   ours[1:] + ours[-1:]):
        line = json.dumps({"id": 7, "ok": True, "actions": theirs}, separators=(",", ":")).encode()
        taken = known.answers(line)
        assert taken <= same_actions(ours, theirs), (ours, theirs)  # never takes a list that differs
        plain = not any("},{" in json.dumps(a, separators=(",", ":")) for a in ours)
        if plain and sorted(map(json.dumps, theirs)) == sorted(map(json.dumps, ours)):
            assert taken  # the same actions, written alike, in any order (one with "},{" inside is read)
    odd = _known(Legal(), 7, [5, {"type": "x", "a": "},{"}])  # (review: not JSON, cut just right)
    assert odd is not None and not odd.answers(b'{"id":7,"ok":true,"actions":[5"},{,{"type":"x","a":"}]}')
    assert not _known(Legal(), 7, ours, any_order=False).answers(  # type: ignore[union-attr]
        json.dumps({"id": 7, "ok": True, "actions": ours[::-1]}, separators=(",", ":")).encode()) or ours == ours[::-1]


def test_the_known_answer_path_can_be_switched_off_and_judges_alike(monkeypatch: Any) -> None:
    """The fast path (known.py: a line that is the reference's answer byte for byte is taken as it) is a speed
    path with a switch: off, every answer is read and compared in full, and a trace is judged alike (issue 44)."""

    from refimpl.harness import protocol
    from refimpl.harness.driver import ReferenceDriver
    from refimpl.harness.replay import replay
    from refimpl.harness.tracefile import load_trace

    trace = load_trace(Path(__file__).resolve().parent.parent / "traces" / "ludo" / "capture.yaml")
    serve = f"{sys.executable} -m refimpl serve"
    fast = protocol.ProtocolDriver(serve)
    try:
        quick = replay(trace, fast, oracle=ReferenceDriver())
    finally:
        fast.close()
    monkeypatch.setattr(protocol, "known_answer", lambda *a, **k: (_ for _ in ()).throw(AssertionError("used")))
    plain = protocol.Build(serve, known_answers=False).start()
    try:
        slow = replay(trace, plain, oracle=ReferenceDriver())
    finally:
        plain.close()
    assert quick.status == slow.status and quick.requests == slow.requests and quick.requests > 10


def _fuzz(out: Path, *extra: str) -> tuple[int, str, str]:
    """``refimpl fuzz`` of a wrong Lantern Quay build (its forge spends on a failure): exit code, what it said
    less the times, and the reproducer it wrote."""
    import re
    import shlex
    import subprocess

    root = Path(__file__).resolve().parent.parent
    wrong = " ".join([shlex.quote(sys.executable), shlex.quote(str(root / "tests" / "builds" / "wrong.py")),
                      "forge-spends-on-failure"])
    proc = subprocess.run([sys.executable, "-m", "refimpl", "fuzz", "--impl", wrong, "--game", "lantern-quay",
                           "--seed", "5", "--examples", "200", "--out", str(out), *extra], cwd=root,
                          capture_output=True, text=True, timeout=300, check=False)
    said = re.sub(r"\d+\.\d+ s", "_ s", proc.stdout.replace(str(out), "OUT"))
    said = re.sub(r"(?m)^[\d.]+ cases and [\d.]+ requests a second.*\n", "", said)
    return proc.returncode, said, "".join(p.read_text() for p in sorted(out.glob("*.yaml")))


def test_fuzz_finds_the_same_case_and_writes_the_same_reproducer_with_the_fast_path_off(tmp_path: Path) -> None:
    """``fuzz --read-every-answer``: the plain path, every answer read; the same cases, the same finding at the
    same case, the same shrunk reproducer as with the fast path (which took most answers unread)."""
    fast = _fuzz(tmp_path / "fast")
    plain = _fuzz(tmp_path / "plain", "--read-every-answer")
    assert fast[0] == 1 and "LQ-" in fast[1], fast
    assert plain == fast


@pytest.mark.parametrize("known", [True, False])
def test_the_fuzz_setting_reaches_the_driver(known: bool, tmp_path: Path, monkeypatch: Any) -> None:
    """``Build.known_answers`` (``--read-every-answer``) is how every process of the build is read, the fuzz
    campaign's too: on, the fast path is asked for answers; off, never."""
    from refimpl.campaigns.fuzz import FuzzSettings, fuzz
    from refimpl.harness import protocol

    asked = []
    real = protocol.known_answer

    def counting(*args: Any, **kwargs: Any) -> Any:
        asked.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(protocol, "known_answer", counting)
    report = fuzz(protocol.Build(f"{sys.executable} -m refimpl serve", known_answers=known),
                  FuzzSettings("beacon-lines", examples=10), tmp_path)
    assert report.finding is None and report.requests > 50
    assert (len(asked) > 50) is known, len(asked)


def test_verify_gives_the_same_report_with_the_fast_path_off(tmp_path: Path) -> None:
    """``verify --read-every-answer``: the same JSON report, byte for byte, as with the fast path, for a build that
    fails (the exploration's answers are the ones the fast path takes; the traces' and scenarios' are read)."""
    import subprocess

    root = Path(__file__).resolve().parent.parent
    wrong = f"{sys.executable} {root / 'tests' / 'builds' / 'wrong.py'} forge-spends-on-failure"
    reports = []
    for extra in ((), ("--read-every-answer",)):
        proc = subprocess.run([sys.executable, "-m", "refimpl", "verify", "--impl", wrong, "--game", "lantern-quay",
                               "--quiet", "--format", "json", *extra], cwd=tmp_path, capture_output=True, text=True,
                              timeout=300, check=False)
        assert proc.returncode == 1, proc.stderr
        reports.append(proc.stdout)
    assert reports[0] == reports[1] and json.loads(reports[0])["summary"]["failed"] > 0
