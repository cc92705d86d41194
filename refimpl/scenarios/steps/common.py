"""The steps every game's features share (a new game, a restart, a rejection, an unchanged state, the
result). Each game's own steps are in the module of its name."""

from __future__ import annotations

from ...harness.compare import first_difference
from ...harness.driver import Rejected
from ..registry import Mismatch, expect, given, regex, skip, then, when
from .play import RESULTS, Play, slug


@given(regex(r"^a new (?P<title>[A-Za-z ]+?) game$"))
def new_game(play: Play, title: str) -> None:
    game = slug(title)
    if not play.driver.supports(game, None):
        # Not a skip yet: a later step may start the game under a ruleset the build has.
        play.not_started = f"the build does not declare {game} under its default ruleset"
        return
    play.view = play.driver.start(game)


@given(regex(r"^a new (?P<title>[A-Za-z ]+?) game under ruleset (?P<ruleset>\S+)$"))
def new_game_ruleset(play: Play, title: str, ruleset: str) -> None:
    game = slug(title)
    if not play.driver.supports(game, ruleset):
        skip(f"the build does not declare {game} {ruleset}")
    play.not_started = ""
    play.view = play.driver.start(game, ruleset)


@when("the game is restarted")
def restart(play: Play) -> None:
    play.ready()
    play.before = play.driver.view()
    play.view = play.outcome = play.driver.restart()


@then(regex(r'^the (?:claim|action) is rejected with "(?P<code>[a-z0-9-]+)"$'))
def rejected_with(play: Play, code: str) -> None:
    expect("rejected", play.outcome.code if isinstance(play.outcome, Rejected) else None, code,
           "the build accepted it" if not isinstance(play.outcome, Rejected) else "")


@then("the state is unchanged")
def state_unchanged(play: Play) -> None:
    diff = first_difference(play.before, play.current())
    if diff is not None:
        raise Mismatch(f"unchanged-after-rejection.{diff.path}", diff.expected, diff.actual,
                       "the state changed after a rejected action")


@then(regex(r"^the result is (?P<result>.+)$"))
def result_is(play: Play, result: str) -> None:
    expect("result", play.current()["result"], RESULTS[result])


@then(regex(r"^the game goes on in round (?P<n>\d+)$"))
def goes_on(play: Play, n: str) -> None:
    view = play.current()
    expect("round", view["round"], int(n))
    expect("result", view["result"], None)
