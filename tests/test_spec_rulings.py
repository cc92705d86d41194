"""The specs say where each rule comes from and why each reading was taken (issue 42): every rule cites the seed
passage it rests on (or the ruling it follows), every ruling cites its passage and gives its reason, unless it is
a chosen value; and the points the audit found stated two ways are stated one way, in the rule and in the detail
section that spells it out."""

from __future__ import annotations

import re

import pytest

from refimpl import suite
from refimpl.games import GAMES
from refimpl.rulebook.rules import first_sentence, spec_rules

CITATION = re.compile(r"\*\((?P<where>.+)\)\*\s*$", re.S)
# A seed place: a section (§3, §3-4-3), a lettered part of a seed (A-1, B-2), a quotation of the seed's words
# (Japanese text), or the ruling a rule follows.
SEED_PLACE = re.compile(r"§|\b[A-C]-\d|[\u3040-\u30ff\u4e00-\u9fff]|ruling [A-Z]{2}-R\d+")
RULING = re.compile(r"-R\d+$")
CHOSEN = re.compile(r"\(chosen[:)]|\bchosen:")  # a chosen value: "(chosen)", "(chosen: ...)", "chosen: ..."


def _rules(game: str) -> dict[str, str]:
    return spec_rules(suite.spec_text(GAMES[game].info.spec) or "")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_rule_cites_its_seed_passage(game: str) -> None:
    unsourced = []
    for rule, text in _rules(game).items():
        cited = CITATION.search(text)
        if cited is None or not SEED_PLACE.search(cited.group("where")):
            unsourced.append(rule)
    assert not unsourced, f"{game}: no seed passage cited by {unsourced}"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_ruling_gives_its_reason_or_says_it_is_chosen(game: str) -> None:
    rulings = {r: t for r, t in _rules(game).items() if RULING.search(r)}
    assert rulings, f"{game} has no rulings"
    unreasoned = [r for r, t in rulings.items() if "Reason:" not in t and not CHOSEN.search(t)]
    assert not unreasoned, f"{game}: rulings with no 'Reason:' that are not chosen values: {unreasoned}"


def _section(game: str, heading: str) -> str:
    text = suite.spec_text(GAMES[game].info.spec) or ""
    start = text.index(f"## {heading}")
    end = text.find("\n## ", start + 1)
    return " ".join(text[start:end if end >= 0 else None].split())


def test_the_points_stated_two_ways_are_stated_one_way() -> None:
    """Conquest King's real-time reset spares a finished game in the rule as in the lobby section; a King lost on
    the ambush square loses, in the win rule as in the ambush rule; Ludo's "no undo" is a rule of its own; a Ludo tie
    is split by the seed alone, in the rule as in the view, the streams and the pick."""
    ck = {r: " ".join(t.split()) for r, t in _rules("conquest-king").items()}
    assert "whatever its state" not in ck["CK-LOBBY-3"] and "not yet over" in ck["CK-LOBBY-3"]
    assert "no deletion, reset or phase limit fires" in _section("conquest-king", "The lobby clock in detail")
    assert "ambush" in ck["CK-WIN-1"] and "the King included" in ck["CK-AMB-3"]
    ludo = {r: " ".join(t.split()) for r, t in _rules("ludo").items()}
    assert "`undo`" in ludo["LD-HELP-1"] and "unknown-action" in ludo["LD-HELP-1"]
    # a tie is split by the seed alone and takes no output: the rule, the view's counter, the streams and the pick
    assert "drawn from the game's seed" in ludo["LD-CPU-4"] and "takes no output" in ludo["LD-CPU-4"]
    assert "the stream's next one" not in ludo["LD-CPU-4"]
    streams = _section("ludo", "The canonical streams")
    assert "never moves it" in streams and "only when t moves tie" not in streams
    assert "A tie of normal or hard takes none" in _section("ludo", "State view")
    assert "a tie's pick stands for the seed's split, which takes no output" in _section("ludo", "Actions")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_rules_first_sentence_is_never_cut_inside_brackets(game: str) -> None:
    """Reports show a rule by its first sentence: never cut mid-parenthesis or mid-code ("(1–2." was, issue 43)."""
    for rule, text in _rules(game).items():
        shown = first_sentence(text)
        assert shown.count("(") == shown.count(")") and shown.count("[") == shown.count("]"), (rule, shown)
        assert shown.count("`") % 2 == 0, (rule, shown)
    assert first_sentence("Adds brass (1–2: 1, 3–4: 2). It always resolves. *(§3)*") == "Adds brass (1–2: 1, 3–4: 2)."
