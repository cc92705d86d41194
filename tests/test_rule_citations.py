"""Rule IDs reach the engine's door: every rule and ruling of every game's spec is cited (named as a word in a
comment or a docstring) somewhere in refimpl/'s Python source, looked for first in the game's own engine; and
``refimpl rule ID`` gathers what the kit holds about one rule (refimpl/rulebook/lookup.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from refimpl import suite
from refimpl.cli import main
from refimpl.games import GAMES
from refimpl.rulebook import lookup as rulebook
from refimpl.rulebook.rules import spec_rules

SCHEMA = Path(rulebook.PACKAGE, "schemas", "output", "rule.schema.json")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_rule_of_the_spec_is_cited_in_the_code(game: str) -> None:
    spec = GAMES[game].info.spec
    rules = list(spec_rules(suite.spec_text(spec) or ""))
    assert rules, f"{spec} states no rule"
    home = rulebook.home_of(game)
    cited = rulebook.citations()
    at_home = {r for r in rules if any(c.file.startswith(home) for c in cited.get(r, ()))}
    elsewhere = {r: sorted({c.file for c in cited[r]}) for r in rules if r not in at_home and r in cited}
    missing = [r for r in rules if r not in at_home and r not in elsewhere]
    assert not missing, (f"{len(missing)} of the {len(rules)} rules and rulings of {spec} are cited nowhere: not in "
                         f"{home} (looked there first), nor elsewhere in refimpl/ (cited only elsewhere: "
                         f"{elsewhere or 'none'}). Cite each in the docstring of the code that implements it "
                         f"(\"Implements {missing[0]}.\") or in a comment at the line: {', '.join(missing)}")


def test_a_citation_is_a_comment_or_a_docstring_never_a_data_table() -> None:
    source = '''"""Module: implements BL-MAP-1."""
TABLE = {"control": ("BL-CTRL-2", "BL-CTRL-3")}  # the fields' rules: BL-VIEW-1
x = "BL-WIN-1"


def f() -> None:
    """Implements BL-TURN-2,
    BL-R14 and not BL-R1x or XBL-R2."""
    return None
'''
    assert rulebook.cited_in(source) == [("BL-MAP-1", 1), ("BL-VIEW-1", 2), ("BL-TURN-2", 7), ("BL-R14", 8)]


def test_removing_a_citation_leaves_the_rule_uncited() -> None:
    path = Path(rulebook.PACKAGE, "games", "beacon_lines", "engine.py")
    text = path.read_text(encoding="utf-8")
    assert "BL-LEGAL-1" in {rule for rule, _line in rulebook.cited_in(text)}
    assert "BL-LEGAL-1" not in {rule for rule, _line in rulebook.cited_in(re.sub(r"\bBL-LEGAL-1\b", "", text))}


def test_the_games_engine_is_where_citations_are_looked_for_first() -> None:
    assert rulebook.home_of("ludo") == "refimpl/games/ludo/"
    assert rulebook.home_of("beacon-lines") == "refimpl/games/beacon_lines/"
    places = rulebook.cited_at("LD-STAT-1")
    homes = [c.file.startswith("refimpl/games/ludo/") and "/kit/" not in c.file for c in places]
    assert homes[0] and homes == sorted(homes, reverse=True), places


# --- refimpl rule ID ---------------------------------------------------------------------------------

def test_rule_prints_the_spec_text_citations_scenarios_traces_and_misreadings() -> None:
    result = CliRunner().invoke(main, ["rule", "ld-cap-2"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("LD-CAP-2 (ludo), specs/ludo.md:")
    assert "A capture gives no extra throw; only a 6 does." in out
    assert re.search(r"^  refimpl/games/ludo/\S+\.py:\d+  .*LD-CAP-2", out, re.M), out
    assert re.search(r"^  features/ludo\.feature:\d+  \S", out, re.M), out
    assert re.search(r"^  traces/ludo/capture\.yaml:\d+  the whole trace$", out, re.M), out
    assert re.search(r"^  tests/misreadings/ludo\.py:\d+  LD-CAP-2", out, re.M), out


def test_rule_names_the_step_of_a_trace_whose_step_names_it() -> None:
    entry = rulebook.lookup("LD-CPU-4")
    steps = [t for t in entry.traces if t.file == "traces/ludo/cpu-tie-history.yaml" and t.step is not None]
    assert steps and all(t.line > 1 for t in steps), entry.traces
    assert f"traces/ludo/cpu-tie-history.yaml:{steps[0].line}  step {steps[0].step}" in rulebook.as_text(entry)


def test_rule_json_gives_the_same_data_and_follows_its_schema() -> None:
    result = CliRunner().invoke(main, ["rule", "CK-AMB-2", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert result.stdout.isascii()
    doc = json.loads(result.stdout)
    jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text(encoding="utf-8"))).validate(doc)
    assert doc == json.loads(json.dumps(rulebook.as_json(rulebook.lookup("ck-amb-2"))))
    assert doc["spec"]["file"] == "specs/conquest-king.md" and doc["spec"]["line"] > 1
    assert doc["citations"] and doc["citations"][0]["file"].startswith("refimpl/games/conquest_king/")
    assert doc["scenarios"] and doc["traces"] and doc["misreadings"]


def test_rule_says_when_the_misreading_catalogue_is_not_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rulebook, "catalogue_folder", lambda: None)
    result = CliRunner().invoke(main, ["rule", "BL-WIN-1"])
    assert result.exit_code == 0, result.output
    assert "Misreadings: the catalogue (tests/misreadings) is not installed with the kit" in result.stdout
    doc = json.loads(CliRunner().invoke(main, ["rule", "BL-WIN-1", "--format", "json"]).stdout)
    assert doc["misreadings"] is None


def test_an_unknown_rule_is_exit_2_naming_close_matches() -> None:
    result = CliRunner().invoke(main, ["rule", "LD-CAP-9"])
    assert result.exit_code == 2
    assert "LD-CAP-9" in result.stderr and "LD-CAP-2" in result.stderr, result.stderr
    assert "Traceback" not in result.output
    with pytest.raises(rulebook.UnknownRule) as caught:
        rulebook.lookup("bl-wn-1")
    assert caught.value.close[0] == "BL-WIN-1"


def test_every_id_cited_in_the_code_is_a_rule_some_spec_states() -> None:
    """The other way round: a citation of an ID no spec states (a typo, a renumbered rule, a rule taken out) is
    an error, as a missing one is."""
    stated = rulebook.stated_rules()
    unknown = {rule: [f"{c.file}:{c.line}" for c in places] for rule, places in rulebook.citations().items()
               if rule not in stated}
    assert not unknown, f"cited in the code but stated by no spec: {unknown}"
