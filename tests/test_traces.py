"""Bundled traces conform on the reference; edited or broken traces are caught with step, field and line."""

from pathlib import Path

import pytest

from refimpl.harness.driver import ReferenceDriver
from refimpl.harness.replay import replay
from refimpl.harness.trace import TraceError
from refimpl.harness.tracefile import find_traces, load_trace, parse_trace
from refimpl.status import Status

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = find_traces([ROOT / "traces"])


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_bundled_trace_conforms_on_the_reference(path: Path) -> None:
    result = replay(load_trace(path), ReferenceDriver())
    assert result.status == Status.CONFORMS, result.failure


def test_there_are_bundled_traces_for_every_worked_route() -> None:
    names = {f"{p.parent.name}/{p.stem}" for p in BUNDLED}
    for expected in ["beacon-lines/round-1", "beacon-lines/safe-route-v0", "beacon-lines/safe-route-v1",
                     "beacon-lines/failed-route-v1", "beacon-lines/restart",
                     "lantern-quay/immediate-lens-v1", "lantern-quay/save-modules-v1",
                     "lantern-quay/draft-timing-v0", "lantern-quay/draft-order-under-v1"]:
        assert expected in names


ROUTE = """\
version: 1
game: beacon-lines
ruleset: v1
title: t
rules: [BL-ROUTE-1]
source: s
steps:
  - action: {type: claim, claims: {red: north-pass, blue: south-pass}}
    expect: {scores: {red: 2, blue: 2}}
  - action: {type: claim, claims: {red: beacon, blue: depot}}
    expect: {scores: {red: 4, blue: 3}, result: red}
"""


def test_changed_expected_number_is_a_mismatch_naming_step_and_field() -> None:
    trace = parse_trace(ROUTE.replace("red: 4, blue: 3", "red: 4, blue: 2"), "t.yaml")
    result = replay(trace, ReferenceDriver())
    assert result.status == Status.MISMATCH
    fail = result.failure
    assert (fail.number, fail.line, fail.difference.path) == (2, 11, "scores.blue")
    assert (fail.difference.expected, fail.difference.actual) == (2, 3)


def test_replaying_under_another_ruleset_shows_where_the_rules_part() -> None:
    result = replay(parse_trace(ROUTE), ReferenceDriver(), ruleset="v0")
    assert result.failure.number == 2 and result.failure.difference.path == "scores.red"
    assert (result.failure.difference.expected, result.failure.difference.actual) == (4, 3)


def test_a_rejection_where_a_state_was_expected_is_a_mismatch() -> None:
    bad = ROUTE.replace("red: beacon, blue: depot", "red: beacon, blue: north-pass")
    result = replay(parse_trace(bad), ReferenceDriver())
    assert result.failure.number == 2 and result.failure.difference.path == "rejected"


def test_an_accepted_action_where_a_rejection_was_expected_is_a_mismatch() -> None:
    text = ROUTE.replace("    expect: {scores: {red: 4, blue: 3}, result: red}", "    reject: illegal-target")
    result = replay(parse_trace(text), ReferenceDriver())
    assert result.failure.number == 2 and result.failure.difference.expected == "illegal-target"


@pytest.mark.parametrize("text, line, words", [
    ("version: 1\ngame: [beacon\n", 2, "unclosed bracket"),
    ("", None, "empty file"),
    (ROUTE.replace("version: 1", "version: 2"), 1, "version"),
    (ROUTE.replace("game: beacon-lines", "game: chess"), 2, "unknown game 'chess'"),
    (ROUTE.replace("ruleset: v1", "ruleset: v9"), 3, "unknown ruleset 'v9'"),
    (ROUTE.replace("rules: [BL-ROUTE-1]", "rules: [route-1]"), 5, "rules[0]"),
    (ROUTE.replace("type: claim, claims: {red: beacon", "type: fly, claims: {red: beacon"), 10,
     "step 2: not a Beacon Lines action"),
    (ROUTE.replace("    expect: {scores: {red: 2, blue: 2}}", "    expct: {}"), 8, "expct"),
])
def test_bad_traces_name_file_line_and_reason(text: str, line: int | None, words: str) -> None:
    with pytest.raises(TraceError) as info:
        parse_trace(text, "traces/x.yaml")
    assert info.value.path == "traces/x.yaml"
    assert info.value.line == line, str(info.value)
    assert words in str(info.value)


def test_a_missing_file_is_a_trace_error(tmp_path: Path) -> None:
    with pytest.raises(TraceError, match="no such file"):
        find_traces([tmp_path / "nope.yaml"])
