"""The features' shared steps and the ``play`` fixture. Each game's own steps live beside its feature
file (``<game>_steps.py``); the root conftest.py loads them as plugins."""

from __future__ import annotations


import pytest
from pytest_bdd import given, parsers, then, when

from refimpl.compare import first_difference
from features.stepkit import RESULTS, Play, slug
from refimpl.driver import Driver, Rejected


@pytest.fixture
def play(driver: Driver) -> Play:
    return Play(driver)


@given(parsers.re(r"^a new (?P<title>[A-Za-z ]+?) game$"))
def new_game(play: Play, title: str) -> None:
    game = slug(title)
    if not play.driver.supports(game, None):
        # Not a skip yet: a later step may start the game under a ruleset the build has.
        play.not_started = f"the build does not declare {game} under its default ruleset"
        return
    play.view = play.driver.start(game)


@given(parsers.re(r"^a new (?P<title>[A-Za-z ]+?) game under ruleset (?P<ruleset>\S+)$"))
def new_game_ruleset(play: Play, title: str, ruleset: str) -> None:
    game = slug(title)
    if not play.driver.supports(game, ruleset):
        pytest.skip(f"the build does not declare {game} {ruleset}")
    play.not_started = ""
    play.view = play.driver.start(game, ruleset)


@when("the game is restarted")
def restart(play: Play) -> None:
    play.ready()
    play.before = play.driver.view()
    play.view = play.outcome = play.driver.restart()


@then(parsers.re(r'^the (?:claim|action) is rejected with "(?P<code>[a-z0-9-]+)"$'))
def rejected_with(play: Play, code: str) -> None:
    assert isinstance(play.outcome, Rejected), f"expected rejection {code!r}, but the build accepted it"
    assert play.outcome.code == code, f"rejected with {play.outcome.code!r}, expected {code!r}"


@then("the state is unchanged")
def state_unchanged(play: Play) -> None:
    diff = first_difference(play.before, play.current())
    assert diff is None, f"state changed after a rejected action: {diff}"


@then(parsers.re(r"^the result is (?P<result>.+)$"))
def result_is(play: Play, result: str) -> None:
    assert play.current()["result"] == RESULTS[result]


@then(parsers.re(r"^the game goes on in round (?P<n>\d+)$"))
def goes_on(play: Play, n: str) -> None:
    view = play.current()
    assert (view["round"], view["result"]) == (int(n), None)
