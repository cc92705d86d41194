"""Shrinking a fuzz finding (refimpl/campaigns/fuzz/shrink.py): the set-up is thinned before steps are dropped, so a
round's animal phase without the animals the fault does not need is short, and its leftover steps go."""

from __future__ import annotations

import time

from refimpl.campaigns.fuzz.cases import Case, CaseStep
from refimpl.campaigns.fuzz.shrink import Shrinker


def _case(animals: list[dict[str, str]], steps: int) -> Case:
    setup = {"animals": animals, "fog": ["0,-4", "-4,0"], "round": 3}
    return Case("black-fog", "v1", 0, setup, tuple(CaseStep("action", {"type": "roll"}) for _ in range(steps)))


def test_thinning_keeps_only_the_set_up_the_failure_needs_then_steps_go() -> None:
    """A fault that needs the fox alone: every other animal and the fog are dropped, then the steps the
    other animals' turns took (one each here) are dropped too."""
    fox = {"species": "fox", "at": "3,-1"}
    others = [{"species": "rabbit", "at": f"{q},0"} for q in range(1, 6)]

    def check(case: Case) -> int | None:
        animals = case.setup.get("animals", [])
        needed = 1 + len(animals)  # a step per animal, then the one that diverges
        return needed if fox in animals and len(case.steps) >= needed else None

    shrinker = Shrinker(check, time.monotonic() + 30)
    shrunk = shrinker.run(_case(others[:3] + [fox] + others[3:], 12))
    assert shrunk.setup["animals"] == [fox]
    assert shrunk.setup["fog"] == []
    assert len(shrunk.steps) == 2 and not shrinker.cut


def test_a_list_the_failure_needs_whole_is_kept() -> None:
    animals = [{"species": "deer", "at": "1,1"}, {"species": "boar", "at": "2,1"}]

    def check(case: Case) -> int | None:
        return 1 if case.setup.get("animals") == animals and case.steps else None

    shrunk = Shrinker(check, time.monotonic() + 30).run(_case(animals, 4))
    assert shrunk.setup["animals"] == animals and len(shrunk.steps) == 1


def test_thinning_never_leaves_a_start_the_game_refuses() -> None:
    """A Ludo seat's pieces are a list of the set-up, but one with a piece less is a start the game refuses:
    such a set-up is not kept, however the check answers."""
    setup = {"pieces": {"human": [0, 5, -1, -1]}, "throws": 0}
    case = Case("ludo", "v1", 0, setup, (CaseStep("action", {"type": "roll"}),) * 3)
    shrunk = Shrinker(lambda c: 1 if c.steps else None, time.monotonic() + 30).thin_setup(case)
    assert shrunk.setup == setup


def test_a_case_from_the_games_own_start_is_thinned_through_an_explicit_set_up() -> None:
    """Black Fog's own start has eight animals, each taking dice every round: the start is given as the
    set-up it amounts to, less the map (left to the seed, as a fault in the seed's draws needs), then thinned;
    the steps the animals needed go."""
    def check(case: Case) -> int | None:
        if "map" in (case.setup or {}):
            return None  # a fault in what the seed draws: gone once the map is given
        animals = (case.setup or {}).get("animals")
        needed = 1 + (8 if animals is None else len(animals))
        return needed if len(case.steps) >= needed else None

    plain = Case("black-fog", "v1", 3, {}, tuple(CaseStep("action", {"type": "roll"}) for _ in range(14)))
    shrunk = Shrinker(check, time.monotonic() + 30).run(plain)
    assert shrunk.setup.get("animals") == [] and "map" not in shrunk.setup
    assert len(shrunk.steps) == 1


def test_an_explicit_start_that_gains_nothing_is_not_kept() -> None:
    plain = Case("black-fog", "v1", 3, {}, (CaseStep("action", {"type": "roll"}),) * 2)
    shrunk = Shrinker(lambda c: 2 if len(c.steps) >= 2 else None, time.monotonic() + 30).run(plain)
    assert shrunk.setup == {} and len(shrunk.steps) == 2


def _ck(steps: list[CaseStep]) -> Case:
    return Case("conquest-king", "v1", None, {}, tuple(steps))


def _waited(case: Case) -> int:
    return sum(r.body["minutes"] for r in case.steps if r.kind == "action" and r.body.get("type") == "wait")


def test_consecutive_waits_are_merged_where_the_failure_stays() -> None:
    """A lobby fault that needs 1,350 minutes after the second registration: the three waits that pass them
    become one, the register and the wait before it stay (the fault needs them apart)."""
    register = [CaseStep("action", {"type": "register", "side": side}) for side in ("sparkia", "gaias")]
    waits = [CaseStep("action", {"type": "wait", "minutes": m}) for m in (720, 600, 30)]
    early = CaseStep("action", {"type": "wait", "minutes": 30})

    def check(case: Case) -> int | None:
        steps = list(case.steps)
        if register[0] not in steps or register[1] not in steps or early not in steps:
            return None
        i = steps.index(register[1])
        if steps.index(early) > i:
            return None
        return len(steps) if _waited(case.with_steps(steps[i:])) >= 1350 else None

    shrunk = Shrinker(check, time.monotonic() + 30).run(_ck([register[0], early, register[1], *waits]))
    assert [r.body for r in shrunk.steps] == [register[0].body, early.body, register[1].body,
                                              {"type": "wait", "minutes": 1350}]


def test_a_pair_that_does_not_add_up_is_left_alone() -> None:
    steps = [CaseStep("action", {"type": "wait", "minutes": 5}), CaseStep("action", {"type": "end", "side": "gaias"}),
             CaseStep("action", {"type": "wait", "minutes": 5})]
    shrunk = Shrinker(lambda c: len(c.steps) if len(c.steps) == 3 else None, time.monotonic() + 30).merge_steps(
        _ck(steps))
    assert shrunk.steps == tuple(steps)


def test_the_case_starts_from_its_last_start_the_game_takes() -> None:
    """Steps before a start only made a game that start left: the start becomes the case's own. A start the
    game refuses is not promoted."""
    lobby = {"registered": [], "field": "realtime"}
    steps = [CaseStep("action", {"type": "wait", "minutes": 7}),
             CaseStep("start", {"ruleset": "v1", "seed": 5, "setup": lobby}),
             CaseStep("action", {"type": "register", "side": "gaias"}),
             CaseStep("start", {"ruleset": "v1", "seed": 5, "setup": {"field": "lava"}}),
             CaseStep("action", {"type": "wait", "minutes": 60})]

    def check(case: Case) -> int | None:
        return len(case.steps) if case.steps and case.steps[-1].body == {"type": "wait", "minutes": 60} else None

    shrunk = Shrinker(check, time.monotonic() + 30).last_start(_ck(steps))
    assert (shrunk.seed, shrunk.setup) == (5, lobby)
    assert [r.body for r in shrunk.steps] == [steps[2].body, steps[3].body, steps[4].body]


def test_a_start_the_protocol_refuses_is_not_promoted() -> None:
    """Beacon Lines' game takes any seed, the protocol no seed past 2^53 - 1: promoted, such a start would be
    refused, the build left in the game of the case before, and the build blamed for it (a kit bug seen once)."""
    from refimpl.games import GAMES

    GAMES["beacon-lines"].new_state("v1", 2 ** 64, {})  # the game alone takes it
    claim = {"type": "claim", "claims": {"red": "north-pass", "blue": "south-pass"}}
    steps = (CaseStep("action", claim), CaseStep("start", {"ruleset": "v1", "seed": 2 ** 64, "setup": {}}),
             CaseStep("action", claim))
    case = Case("beacon-lines", "v1", None, {}, steps)
    shrunk = Shrinker(lambda c: len(c.steps) if c.steps else None, time.monotonic() + 30).last_start(case)
    assert shrunk == case


def test_hypothesis_replays_and_shrinks_the_numbers_a_seeded_draw_drew() -> None:
    """The search draws from a seeded generator; Hypothesis then starts from the numbers the failing case drew
    and shrinks them toward 0, the same way for the same seed."""
    from refimpl.campaigns.fuzz.draw import Draw, shrink_choices

    def numbers(draw: Draw) -> list[int]:
        return [draw.below(100) for _ in range(6)]

    seeded = Draw(seed=11)
    drawn = numbers(seeded)
    assert seeded.choices == drawn

    def run() -> list[int]:
        seen: list[list[int]] = []

        def fails(data: object) -> bool:
            xs = numbers(Draw(data))
            if sum(xs) >= 150 and xs[2] == drawn[2]:
                seen.append(xs)
                return True
            return False

        assert sum(drawn) >= 150, "the seed's own numbers fail"
        assert shrink_choices(seeded.choices, fails, seed=4)
        assert seen[0] == drawn  # replayed first
        return min(seen, key=sum)

    first = run()
    assert first[2] == drawn[2] and sum(first) < sum(drawn) and first.count(0) >= 3
    assert run() == first
