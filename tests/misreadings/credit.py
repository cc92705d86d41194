"""The credit of the catalogue's failures (issue 41: the rule that decides a difference owns it), in this process:
every misreading judged by every trace and scenario of its game, as verify judges them (the traces with the
reference as oracle, the scenarios under Oracled), and the rules its failures are credited to. A misreading's
failures should include its own rule and name at most two others; ``lead`` says whether the first problem a report
shows (reports.text.likeliest_first) is credited to it.

    python -m tests.misreadings.credit [--only KEY ...] [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from refimpl.harness.driver import ReferenceDriver  # noqa: E402
from refimpl.harness.executor import run_jobs  # noqa: E402
from refimpl.harness.oracle import Oracled  # noqa: E402
from refimpl.harness.replay import replay_all  # noqa: E402
from refimpl.harness.tracefile import find_traces, load_trace  # noqa: E402
from refimpl.scenarios import bundled, run_scenario  # noqa: E402
from refimpl.status import Status  # noqa: E402
from refimpl.verify.checks import _scenario_check, trace_check  # noqa: E402
from tests.misreadings import MISREADINGS, game_of, rule_of  # noqa: E402

OTHERS = 2  # the rules a misreading's failures may name besides its own (issue 41)


@cache
def _traces(game: str) -> list[Any]:
    return [load_trace(p) for p in find_traces([ROOT / "traces" / game])]


@cache
def _scenarios(game: str) -> list[Any]:
    return [s for s in bundled() if s.game == game and not s.kit_only]


def credited(key: str) -> dict[str, Any]:
    """The rules ``key``'s failing traces and scenarios are credited to, and how many besides its own (a
    misreading that crashes in this process, as a build would break, is left out: ``error``)."""
    try:
        return _credited(key)
    except Exception as exc:  # noqa: BLE001 - the misreading's engine broke: verify says "broke", no credit
        return {"key": key, "rule": rule_of(key), "error": f"{type(exc).__name__}: {exc}"}


def _credited(key: str) -> dict[str, Any]:
    from refimpl.reports.text import likeliest_first

    game, rule = game_of(key), rule_of(key)
    blamed: set[str] = set()
    bad = []
    build = ReferenceDriver({game: MISREADINGS[key]()}, name=key)
    for result in replay_all(_traces(game), build, oracle=ReferenceDriver()):
        check = trace_check(result.trace, result)
        if check.status == Status.FAILED:
            bad.append(check)
            blamed.update(check.credited)
    for scenario in _scenarios(game):
        outcome = run_scenario(scenario, Oracled(ReferenceDriver({game: MISREADINGS[key]()}, name=key)))
        if outcome.status in (Status.FAILED, Status.BROKE):
            check = _scenario_check(scenario, outcome, ())
            bad.append(check)
            blamed.update(check.credited)
    first = likeliest_first(bad)[:1]
    # lead: the report's first problem (the one a builder reads first) is credited to the misreading's own rule
    return {"key": key, "rule": rule, "failing": len(bad), "own": rule in blamed,
            "lead": bool(first) and rule in first[0].credited, "others": sorted(blamed - {rule})}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    keys = [k for k in sorted(MISREADINGS) if not args.only or k in args.only]
    every = [r for _, r in run_jobs(credited, keys, args.jobs)]
    records = [r for r in every if "error" not in r]
    if len(records) < len(every):
        print(f"{len(every) - len(records)} broke in this process (left out): "
              f"{', '.join(r['key'] for r in every if 'error' in r)}")
    own = sum(r["own"] for r in records)
    lead = sum(r["lead"] for r in records)
    few = sum(len(r["others"]) <= OTHERS for r in records)
    counts = [len(r["others"]) for r in records]
    print(f"{len(records)} misreadings: {own} credited to their own rule, {lead} with it on the first problem shown; "
          f"{few} name at most {OTHERS} others (median {statistics.median(counts)}, most {max(counts)})")
    for r in records:
        if not r["own"] or len(r["others"]) > OTHERS:
            print(f"  {r['key']}: own {r['own']}, others {r['others']}")
    if args.json:
        print(json.dumps(records))


if __name__ == "__main__":
    main()
