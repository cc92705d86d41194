"""A failure counts under the rule that owns the field that differs, not under every rule its trace is
tagged with: each deliberately wrong build (tests/builds/wrong.py) is credited, in some failing trace, to
exactly the rule it breaks; every view field, rejection code and error code has an owner."""

from __future__ import annotations

from pathlib import Path

import pytest

from refimpl.harness.compare import Difference
from refimpl.harness.driver import ReferenceDriver
from refimpl.harness.replay import replay_all
from refimpl.harness.tracefile import load_traces
from refimpl.reports.failures import field_diffs, trace_failure
from refimpl.reports.model import Check, Failure, Report
from refimpl.status import Status
from tests.builds.wrong import VARIANTS

ROOT = Path(__file__).resolve().parent.parent
TRACES = load_traces([ROOT / "traces"])


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_wrong_build_is_credited_to_the_rule_it_breaks(variant: str) -> None:
    game, factory, broken = VARIANTS[variant]
    build = ReferenceDriver({game: factory()}, name=variant)
    failures = [trace_failure(r.trace, r) for r in replay_all([t for t in TRACES if t.game == game], build,
                                                               oracle=ReferenceDriver()) if r.status == Status.MISMATCH]
    assert failures, f"{variant}: no trace fails"
    credited = {r for failure in failures for f in failure.fields for r in f.credited}
    assert broken in credited, f"{variant} breaks {broken}, but its failures count under {sorted(credited)}"
    for failure in failures:
        assert failure.request is not None and failure.fields and failure.ledger
        assert failure.line and failure.file.endswith(".yaml")


def test_a_failure_counts_only_under_the_owners_of_its_fields() -> None:
    fields = field_diffs("ludo", [(Difference("sixes", 0, 1), False)], ("LD-CAP-1", "LD-ROLL-3", "LD-SAFE-1"))
    failure = Failure("t.yaml", 3, 1, "roll face=6", fields=fields)
    check = Check("trace", "ludo", "ludo/t", ("LD-CAP-1", "LD-ROLL-3", "LD-SAFE-1", "LD-STACK-1"), Status.FAILED,
                  failure=failure)
    assert check.credited == ("LD-ROLL-3",)  # the first of sixes' rules the trace is tagged with
    matrix = Report("x", checks=[check]).matrix()["ludo"]
    assert matrix["LD-ROLL-3"]["failed"] == 1
    assert matrix["LD-CAP-1"]["failed"] == 0 and matrix["LD-SAFE-1"]["failed"] == 0


def test_a_step_s_own_rules_come_before_the_trace_s() -> None:
    diff = [(Difference("animals.a6.at", "-5,5", "-5,4"), False)]
    assert field_diffs("black-fog", diff, (), ("BF-ANIMAL-1", "BF-ANIMAL-2"))[0].rule == "BF-ANIMAL-1"
    assert field_diffs("black-fog", diff, ("BF-ANIMAL-2",), ("BF-ANIMAL-1",))[0].rule == "BF-ANIMAL-2"
    assert field_diffs("black-fog", diff)[0].rule == "BF-ANIMAL-1"  # untagged: the field's first rule


def test_a_rejection_difference_counts_under_the_rule_naming_the_code() -> None:
    fields = field_diffs("beacon-lines", [(Difference("rejected", "one-claim-per-round", None), False)])
    assert fields[0].rule == "BL-TURN-4"
    assert "BL-FORM-1" in fields[0].see_also  # the field's rules stay listed
