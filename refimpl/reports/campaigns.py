"""What the campaigns print as text: a fuzz run's report (``refimpl fuzz``) and a list of mutants
(``refimpl mutants --list``). Their machine output is built beside them (FuzzReport.json, mutants.score_json) and
the power meter's own score table by the meter (mutants.score_text)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..status import Status
from .safetext import printable


def fuzz_text(result: Any, game: str) -> str:
    """A fuzz run (a campaigns.fuzz.FuzzReport) as text: what was sent and how fast, then the finding, shrunk,
    with the first divergence explained and the reproducer written, or that there was none."""
    from ..suite import describe

    finding = result.finding
    rulesets = getattr(result, "rulesets", ()) or (result.ruleset,)
    shown = result.ruleset if result.finding is not None or len(rulesets) == 1 else " and ".join(rulesets)
    lines = [f"fuzzed {game} {shown} against {printable(result.build)} with {describe()}: "
             f"{result.cases} cases, "
             f"{result.requests} requests, {len(result.campaigns)} campaign(s), "
             f"{max(c.seconds for c in result.campaigns):.1f} s"]
    rate = result.rate()
    lines.append(f"{rate['cases_per_second']:g} cases and {rate['requests_per_second']:g} requests a second of "
                 f"search; shrinking and confirming took {rate['shrink_share']:.0%} of the time")
    if result.interrupted is not None:
        lines.append(f"INTERRUPTED ({result.interrupted}): fuzz stopped before it finished; what it found so "
                     f"far is written below, shrunk as far as it got")
    if finding is None:
        timed = any(c.timed_out for c in result.campaigns)
        lines.append("no divergence found" + (" (the search used its time budget)" if timed else ""))
    else:
        div = result.divergence
        what = {Status.DIVERGES: "DIVERGES", Status.BROKE: "BUILD BROKE"}.get(finding.kind, "NOT DETERMINISTIC")
        lines.append(f"{what}: first {'found' if finding.kind != Status.BROKE else 'broke'} after "
                     f"{finding.found_after:.1f} s; shrunk from "
                     f"{finding.first_steps} to {finding.steps()} steps in {finding.shrink_seconds:.1f} s"
                     + (" (--shrink-time cut shrinking short)" if finding.shrink_cut else ""))
        if finding.kind == Status.BROKE:
            lines.append(f"the build broke: {finding.cause}")
            if finding.stderr:
                lines.append("build stderr (last lines):\n" + "\n".join("  | " + printable(s) for s in
                                                                       finding.stderr.splitlines()))
        if div is not None:
            lines.append(f"at step {div.step}: {div.headline}")
            lines += ["  " + line for line in result.explanation]
        if result.trace_path:
            lines.append(f"reproducer: {result.trace_path} ({result.replays}; "
                         f"refimpl verify --impl ... --traces {result.trace_path})")
    return "".join(line + "\n" for line in lines)


def broke_text(exc: Any) -> str:
    """A build that broke before any case ran (a harness.driver.BuildBroke), with its last lines of stderr."""
    out = printable(f"BUILD BROKE: {exc}") + "\n"
    if exc.stderr_tail:
        out += "build stderr (last lines):\n" + "\n".join("  | " + printable(s)
                                                         for s in exc.stderr_tail.splitlines()) + "\n"
    return out


def mutant_list(sites: Iterable[Any]) -> str:
    """Mutants (campaigns.mutants Sites), one a line: id, operator, what it changes."""
    return "".join(f"{s.id}  {s.operator:9} {s.describe()}\n" for s in sites)
