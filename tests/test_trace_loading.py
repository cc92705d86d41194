"""Trace loading: the fast paths agree with the slow, exact ones they stand in for."""

from __future__ import annotations

from pathlib import Path

import yaml
from hypothesis import given, settings, strategies as st

from refimpl.harness.tracefile import _STEP_VALIDATOR, _plainly_valid, load_trace, parse_trace
from refimpl.util import yamlsafe

ROOT = Path(__file__).resolve().parent.parent
YAML_FILES = sorted(p for d in ("traces", "tests", "refimpl", "examples") for p in (ROOT / d).rglob("*.y*ml"))

json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=4),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                                      max_size=3), max_leaves=6)
step_keys = st.sampled_from(["action", "restart", "start", "request", "expect", "reject", "error", "note", "views",
                             "legal", "rules", "other"])
step_values = st.one_of(json_values, st.just(True), st.sampled_from(["bad-code", "Bad Code", ""]),
                        st.lists(st.sampled_from(["BL-WIN-1", "LD-R4", "BL-WIN-1\n", "bl-win-1", "BL-X", 3]),
                                 max_size=3),
                        st.dictionaries(st.sampled_from(["ruleset", "seed", "setup", "other"]), json_values,
                                        max_size=3),
                        st.dictionaries(st.sampled_from(["red", "sparkia"]), json_values, max_size=2),
                        st.lists(st.dictionaries(st.just("type"), st.text(max_size=3), max_size=1), max_size=2))


@settings(max_examples=1500, deadline=None)
@given(st.dictionaries(step_keys, step_values, max_size=4))
def test_a_step_taken_as_plainly_valid_is_valid_by_the_schema(step: dict) -> None:
    if _plainly_valid(step):
        assert _STEP_VALIDATOR.is_valid(step), step


def test_yaml_rs_reads_every_yaml_file_of_the_project_as_pyyaml_does() -> None:
    assert len(YAML_FILES) > 50
    for path in YAML_FILES:
        text = path.read_text(encoding="utf-8")
        assert yamlsafe.load(text, str(path)) == yaml.safe_load(text), path


def test_step_lines_found_by_indentation_match_the_composed_document() -> None:
    for path in sorted((ROOT / "traces").rglob("*.yaml")):
        trace = load_trace(path)
        lines = yamlsafe.line_map(yamlsafe.compose(path.read_text(encoding="utf-8")))
        assert [s.line for s in trace.steps] == [lines[("steps", i)] for i in range(len(trace.steps))], path
        for i, step in enumerate(trace.steps):
            for field, line in step.field_lines.items():
                parts = tuple(field.split(".")) if step.expect else ()
                if step.expect and ("steps", i, "expect", *parts) in lines:
                    assert line == lines[("steps", i, "expect", *parts)], (path, field)


def test_flow_style_steps_fall_back_to_composing() -> None:
    text = ("version: 1\ngame: beacon-lines\ntitle: t\nrules: []\nsource: x\n"
            "steps: [{restart: true}, {restart: true,\n  expect: {round: 1}}]\n")
    trace = parse_trace(text, "flow.yaml")
    assert [s.line for s in trace.steps] == [6, 6] and trace.steps[1].line_of("round") == 7


def test_the_common_start_and_rules_forms_skip_the_schema_and_their_faults_do_not() -> None:
    plain = [{"start": {"seed": 3}, "error": "bad-request", "note": "n"},
             {"start": {"ruleset": "v1", "setup": {}}, "expect": {"round": 1}, "rules": ["BL-WIN-1", "BL-R4"]},
             {"action": {"type": "roll"}, "reject": "game-over", "rules": ["LD-END-1"]}]
    faulty = [{"start": {"seed": 3}, "error": "bad-request", "expect": {}},
              {"start": {"sede": 3}},
              {"start": {}, "reject": "x"},
              {"action": {"type": "roll"}, "rules": ["LD-END-1", "LD-END-1"]},
              {"action": {"type": "roll"}, "rules": []},
              {"action": {"type": "roll"}, "rules": ["ld-end-1"]}]
    assert all(_plainly_valid(s) and _STEP_VALIDATOR.is_valid(s) for s in plain)
    assert not any(_plainly_valid(s) or _STEP_VALIDATOR.is_valid(s) for s in faulty)


def test_a_tag_or_a_huge_number_inside_the_steps_is_refused_by_its_line() -> None:
    """The steps are read one by one where they can be; a tag outside the core schema, or a number too long to
    write, inside them is refused with its line as it is elsewhere (issue 43: the tag was dropped silently)."""
    import pytest

    from refimpl.harness.trace import TraceError

    head = "version: 1\ngame: ludo\ntitle: t\nrules: []\nsource: x\nseed: 1\nsteps:\n  - action: {type: roll}\n"
    with pytest.raises(TraceError, match=r"tagged.yaml:9: the tag !!python/object/apply:os.system is not taken"):
        parse_trace(head + '  - action: !!python/object/apply:os.system ["echo hi"]\n', "tagged.yaml")
    with pytest.raises(TraceError, match=r"huge.yaml:9: a whole number of 4,000 digits or more"):
        parse_trace(head + "  - action: {type: roll, face: " + "9" * 5000 + "}\n", "huge.yaml")
    fine = parse_trace(head + "  - action: {type: roll}\n    note: nothing moves!\n", "fine.yaml")
    assert len(fine.steps) == 2
