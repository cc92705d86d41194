"""The records a build keeps over its session (protocol ``stats``, rule LD-STAT-1) judged by their growth: a trace's
``stats`` step expects what the records grew by since the trace's start, whatever the session held before; a
build without the capability is not sent it; and fuzz finds each statistics misreading with a short reproducer
that replays under verify."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, strategies as st

from refimpl.campaigns.fuzz import FuzzSettings, fuzz
from refimpl.games import GAMES
from refimpl.harness.driver import ReferenceDriver, Refused
from refimpl.harness.plan import grown
from refimpl.harness.protocol import ProtocolDriver
from refimpl.harness.replay import replay_all
from refimpl.harness.requests import Stats
from refimpl.harness.tracefile import load_trace
from refimpl.status import Status

ROOT = Path(__file__).resolve().parent.parent
TRACE = ROOT / "traces" / "ludo" / "statistics.yaml"
STATS_MISREADINGS = ("LD-STAT-1", "LD-STAT-1#abandoned-is-lost", "LD-STAT-1#abandoned-not-played")


def misreading(key: str) -> str:
    return " ".join([shlex.quote(sys.executable), shlex.quote(str(ROOT / "tests" / "builds" / "misread.py")),
                     shlex.quote(key)])


counts = st.dictionaries(st.sampled_from(["played", "won", "lost"]), st.integers(0, 10**6))
records = st.dictionaries(st.sampled_from(["ludo", "other"]), counts)


@given(records, records)
def test_growth_is_what_was_added_count_by_count(base: dict[str, Any], added: dict[str, Any]) -> None:
    now = {game: {k: base.get(game, {}).get(k, 0) + v for k, v in record.items()} for game, record in added.items()}
    assert grown(now, base) == added


def test_growth_leaves_what_is_not_a_count_as_it_came() -> None:
    refused = Refused("unknown-op", "no stats here")
    assert grown(refused, {"ludo": {"played": 1}}) is refused
    assert grown({"ludo": {"played": "2", "won": 1}}, {"ludo": {"played": 1, "won": 1}}) == \
        {"ludo": {"played": "2", "won": 0}}
    assert grown({"ludo": [1]}, {"ludo": {"played": 1}}) == {"ludo": [1]}
    assert grown({"ludo": {"played": 3}}, None) == {"ludo": {"played": 3}}  # no base: nothing to take away


def test_the_trace_conforms_in_a_session_with_games_before_it() -> None:
    """The build's session already holds an unfinished game and the trace's own games when it is replayed
    again: each replay is judged by its own growth only."""
    unfinished = load_trace(ROOT / "traces" / "ludo" / "seeded-opening.yaml")
    trace = load_trace(TRACE)
    driver = ProtocolDriver(f"{shlex.quote(sys.executable)} -m refimpl serve")
    try:
        results = list(replay_all([unfinished, trace, trace], driver, oracle=ReferenceDriver()))
        total = driver.stats()["ludo"]
    finally:
        driver.close()
    assert [r.status for r in results] == [Status.CONFORMS] * 3, [r.failure for r in results]
    assert total["played"] >= 11 and total["won"] == 2 and total["lost"] == 2  # the session's own records


@pytest.mark.parametrize("key", STATS_MISREADINGS)
def test_each_statistics_misreading_fails_the_trace_on_a_stats_field(key: str) -> None:
    driver = ProtocolDriver(misreading(key))
    try:
        (result,) = replay_all([load_trace(TRACE)], driver, oracle=ReferenceDriver())
    finally:
        driver.close()
    assert result.status is Status.MISMATCH
    assert result.failure is not None and result.failure.difference is not None
    path = result.failure.difference.path
    assert path.startswith("stats.ludo."), path
    assert GAMES["ludo"].info.rules_of(path) == ("LD-STAT-1",)


class NoRecords(ReferenceDriver):
    """The reference, declaring no ``stats`` capability."""

    capabilities = frozenset({"legal"})


def test_a_build_without_the_capability_is_not_judged_on_statistics() -> None:
    """A trace with stats steps is not run for a build that keeps no records (it would pass, crediting LD-STAT-1,
    with its statistics unchecked; the statistics scenarios skip alike); its other traces run, sent no stats."""
    driver = NoRecords()
    driver.transcript = []
    opening = load_trace(ROOT / "traces" / "ludo" / "seeded-opening.yaml")
    skipped, ran = replay_all([load_trace(TRACE), opening], driver, oracle=ReferenceDriver())
    assert skipped.status is Status.NOT_RUN and "capability stats" in skipped.reason
    assert ran.status is Status.CONFORMS
    assert "stats" not in [m["request"].get("op") for m in driver.transcript if "request" in m]


class RefusesRecords(ReferenceDriver):
    """Declares stats and refuses it."""

    def batch(self, ops: Any) -> Any:
        for op in ops:
            if isinstance(op, Stats):
                yield Refused("unknown-op", "no stats")
            else:
                yield from super().batch([op])


@pytest.mark.parametrize("oracle", [True, False])
def test_a_build_that_declares_stats_and_refuses_it_fails_at_the_start(oracle: bool) -> None:
    opening = load_trace(ROOT / "traces" / "ludo" / "seeded-opening.yaml")
    (result,) = replay_all([opening], RefusesRecords(), oracle=ReferenceDriver() if oracle else None)
    assert result.status is Status.MISMATCH
    assert result.failure is not None and result.failure.difference is not None
    assert result.failure.number == 0 and result.failure.difference.path == "stats"


def test_fuzz_twice_on_one_session_judges_the_records_by_their_growth(tmp_path: Path) -> None:
    """Sent twice, a case's stats answers differ by the first run's games: only their growth must agree."""
    serve = f"{shlex.quote(sys.executable)} -m refimpl serve"
    report = fuzz(serve, FuzzSettings("ludo", examples=40, twice=True), tmp_path)
    assert report.finding is None, report.explanation


@pytest.mark.parametrize("key", STATS_MISREADINGS)
def test_fuzz_finds_each_statistics_misreading(key: str, tmp_path: Path) -> None:
    report = fuzz(misreading(key), FuzzSettings("ludo", max_time=20.0), tmp_path)
    assert report.finding is not None and report.finding.kind is Status.DIVERGES, report.explanation
    assert report.finding.steps() <= 10
    rate = report.rate()  # a finding within a second: a rate of the search's own cases, not of shrinking's
    (campaign,) = report.campaigns
    assert campaign.search_cases is not None and campaign.search_cases < campaign.cases
    assert 0 < rate["requests_per_second"] < 1e6 and 0 < rate["shrink_share"] < 1
    assert report.divergence is not None and report.divergence.difference.path.startswith("stats.ludo.")
    assert report.replays == "replays to the same mismatch", report.replays
    (written,) = tmp_path.glob("*.yaml")
    driver = ProtocolDriver(misreading(key))
    try:
        (result,) = replay_all([load_trace(written)], driver, oracle=None)  # the trace alone fails it
    finally:
        driver.close()
    assert result.status is Status.MISMATCH
    assert result.failure is not None and result.failure.difference is not None
    assert result.failure.difference.path.startswith("stats.ludo.")
