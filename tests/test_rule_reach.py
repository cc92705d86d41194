"""Rule reach (issue 41): the rules' citations in the engines as sites the reference runs, counted while it
answers; the default exploration reaches every rule that can be measured, and the others are listed with the
reason (refimpl/rulebook/unreached.yaml)."""

from __future__ import annotations

import json
import subprocess
import sys

from refimpl import suite
from refimpl.games import GAMES
from refimpl.harness.driver import ReferenceDriver
from refimpl.rulebook.reach import CALL, LINE, Reach, Site, engine_sites, sites_in, unmeasured
from refimpl.rulebook.rules import spec_rules

SOURCE = '''"""Module docstring citing BL-MAP-1: no site."""
TABLE = {"x": 1}  # BL-MAP-2: a table at module level, no site


def f(x):
    """Implements BL-WIN-1."""
    # BL-WIN-2: the next statement
    y = x + 1
    return y  # BL-WIN-3
'''


def test_a_citation_becomes_a_site_where_code_runs() -> None:
    found = sites_in(SOURCE, "m.py")
    assert found == {"BL-WIN-1": {Site(CALL, "m.py", 5)}, "BL-WIN-2": {Site(LINE, "m.py", 8)},
                     "BL-WIN-3": {Site(LINE, "m.py", 9)}}


def test_reach_counts_the_rules_a_game_runs_and_nests() -> None:
    driver = ReferenceDriver()
    with Reach() as outer:
        driver.start("lantern-quay", "v1")
        with Reach() as inner:
            driver.apply({"type": "roll", "dice": [2, 4, 6]})
    assert "LQ-ROLL-1" in inner.rules() and "LQ-START-1" not in inner.rules()
    assert "LQ-START-1" in outer.rules() and outer.rules()["LQ-ROLL-1"] >= inner.rules()["LQ-ROLL-1"]


def test_the_unmeasured_list_names_exactly_the_rules_without_a_site() -> None:
    every = {r for engine in GAMES.values() for r in spec_rules(suite.spec_text(engine.info.spec) or "")}
    without = {r for r in every if r not in engine_sites()}
    assert set(unmeasured()) == without, (set(unmeasured()) ^ without)
    assert all(len(why) > 20 for why in unmeasured().values())


PROBE = """
import json, sys
from refimpl.games import GAMES
from refimpl.reports.model import Report
from refimpl.rulebook.reach import Reach, reach_table
from refimpl.verify import VerifySettings
from refimpl.verify.checks import Run
from refimpl.harness.protocol import Build
from refimpl.verify.explore import run_exploration
from refimpl.verify.settings import DEFAULT_EXPLORE
build = Build(sys.executable + " -m refimpl serve")
report = Report(build.command)
with Reach() as reach:
    run_exploration(build, Run(report, VerifySettings(explore=DEFAULT_EXPLORE)))
table = reach_table({"explore": reach.rules()}, list(GAMES))
print(json.dumps({"statuses": [str(c.status) for c in report.checks],
                  "never": {g: m for g, _, m, _ in table if m},
                  "unmeasurable": sorted(r for _, _, _, u in table for r in u)}))
"""


def test_the_default_exploration_reaches_every_rule_it_can_measure() -> None:
    """Against the reference as an outside build (refimpl serve), with the rule tracer on, in a process of its own:
    a rule the default exploration never reaches is a rule no verify run explores, unless it is listed with the
    reason. (A process of its own: an engine memoizes some positions, and a warm cache runs no cited line.)"""
    proc = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    found = json.loads(proc.stdout)
    assert found["statuses"] and all(s == "passed" for s in found["statuses"])
    assert not found["never"], f"never reached by the default exploration, and not listed with a reason: " \
                               f"{found['never']}"
    assert set(found["unmeasurable"]) == set(unmeasured())
