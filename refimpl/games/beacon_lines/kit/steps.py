"""Step definitions of beacon-lines.feature (Beacon Lines): they talk to a driver only, never to an engine."""

from __future__ import annotations

from ....harness.driver import Rejected
from ....scenarios.registry import expect, regex, skip, then, when
from ....scenarios.steps.play import Play, names, slug

OTHER_PASS = {"red": ("blue", "south-pass"), "blue": ("red", "north-pass")}


@when(regex(r"^Red claims (?P<red>[A-Za-z ]+?) and Blue claims (?P<blue>[A-Za-z ]+)$"))
def claims(play: Play, red: str, blue: str) -> None:
    play.act({"type": "claim", "claims": {"red": slug(red), "blue": slug(blue)}})


@when(regex(r"^Red claims both (?P<first>[A-Za-z ]+?) and (?P<second>[A-Za-z ]+?) "
                 r"while Blue claims (?P<blue>[A-Za-z ]+)$"))
def two_claims(play: Play, first: str, second: str, blue: str) -> None:
    play.act({"type": "claim", "claims": {"red": [slug(first), slug(second)], "blue": slug(blue)}})


@when(regex(r"^only Red claims (?P<red>[A-Za-z ]+)$"))
def only_red(play: Play, red: str) -> None:
    play.act({"type": "claim", "claims": {"red": slug(red)}})


@when(regex(r"^(?P<faction>Red|Blue) claims (?P<region>[A-Za-z ]+?) and the other faction "
                 r"claims its own pass$"))
def claim_against_pass(play: Play, faction: str, region: str) -> None:
    other, its_pass = OTHER_PASS[slug(faction)]
    play.act({"type": "claim", "claims": {slug(faction): slug(region), other: its_pass}})


@then("the claims were accepted")
def claims_accepted(play: Play) -> None:
    if isinstance(play.outcome, Rejected):
        expect("rejected", play.outcome.code, None, f"the claims were rejected: {play.outcome.message}")


@then(regex(r"^the board has exactly the regions: (?P<regions>.+)$"))
def board_regions(play: Play, regions: str) -> None:
    expect("control", sorted(play.current()["control"]), sorted(names(regions)), "the regions, sorted")


@then(regex(r"^(?P<region>[A-Za-z ]+?) is controlled by (?P<faction>Red|Blue)$"))
def controlled_by(play: Play, region: str, faction: str) -> None:
    expect(f"control.{slug(region)}", play.current()["control"][slug(region)], slug(faction))


@then(regex(r"^(?P<regions>[A-Za-z ,]+?) (?:is|are) neutral$"))
def neutral(play: Play, regions: str) -> None:
    control = play.current()["control"]
    for region in names(regions):
        expect(f"control.{region}", control[region], None)


@then(regex(r"^the score is Red (?P<red>\d+), Blue (?P<blue>\d+)$"))
def score(play: Play, red: str, blue: str) -> None:
    expect("scores", play.current()["scores"], {"red": int(red), "blue": int(blue)})


@then(regex(r"^(?P<faction>Red|Blue) may claim exactly: (?P<regions>.+)$"))
def may_claim(play: Play, faction: str, regions: str) -> None:
    play.ready()
    actions = play.driver.legal_actions()
    if actions is None:
        skip("the build does not list legal actions")
    targets = {a["claims"][slug(faction)] for a in actions}
    expect(f"legal[{slug(faction)}]", sorted(targets), sorted(names(regions)), "the regions it may claim, sorted")


@then(regex(r"^(?P<region>[A-Za-z ]+?) has (?P<red>\d+) Red markers? and (?P<blue>\d+) Blue markers?$"))
def markers(play: Play, region: str, red: str, blue: str) -> None:
    expect(f"markers.{slug(region)}", play.current()["markers"][slug(region)], {"red": int(red), "blue": int(blue)})


@then("every non-Home region has no markers")
def no_markers(play: Play) -> None:
    counts = play.current()["markers"]
    for region, per in counts.items():
        if any(n != 0 for n in per.values()):
            expect(f"markers.{region}", per, {faction: 0 for faction in per})
