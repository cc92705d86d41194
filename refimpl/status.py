"""One status type for every outcome the kit names: a trace replayed, a verify check (and a scenario run), a fuzz
finding, a mutant judged. Each word is written here once, with what it means.

The words are a contract: the JSON outputs and the saved reports write them (refimpl/schemas/output/), verify's
and replay's with ``-`` as ``_`` (``not_run``, reports.jsondoc.snake). A Status is a ``str`` (StrEnum), so it is
written, compared and formatted as its word.
"""

from __future__ import annotations

from enum import StrEnum


class Status(StrEnum):
    # A trace replayed (replay, and verify's traces before they become checks).
    CONFORMS = "conforms"  # every step was answered as the trace (and the reference, as oracle) expects
    MISMATCH = "mismatch"  # a step was answered otherwise; the trace stops there

    # A verify check (a trace, scenario, perft walk, protocol or chance check, rule entry), and a scenario run.
    PASSED = "passed"  # the build did what the check expects
    FAILED = "failed"  # the build answered otherwise (the check says where and which rule owns it)
    XFAIL = "xfail"  # failed, as the expect-fail file declares it would
    XPASS = "xpass"  # passed, though the expect-fail file declares it would fail

    # Any of them.
    NOT_RUN = "not-run"  # not run: the run stopped early, the build does not declare the game, a profile, ...
    BROKE = "broke"  # the build crashed, hung or broke the protocol (a check, a fuzz finding, a mutant)

    # A fuzz finding (its kind).
    DIVERGES = "diverges"  # the build answered a case otherwise than the reference
    NONDETERMINISTIC = "nondeterministic"  # the build answered the same requests differently twice

    # A mutant of the engines, served as a build (refimpl mutants).
    KILLED = "killed"  # the judge (verify or fuzz) told it from the reference
    SURVIVED = "survived"  # the judge did not tell it from the reference: a gap, unless reviewed as equivalent
    ERROR = "error"  # the kit could not run it


__all__ = ["Status"]
