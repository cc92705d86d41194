"""Shrinking after Hypothesis: passes that know what a case is, each keeping a change only when the case
still fails the same way, all inside one time budget.

1. Cut the case after the step that diverged. Start from the case's last start: a ``start`` step the game
   takes becomes the case's own start, and the steps before it go.
2. Start from a set-up: the position after the first k steps, given as a set-up (``Game.setup_of``),
   replaces those k steps; the largest k that still fails wins.
3. Thin the set-up: each list in it (units, animals, fog, the map's tiles) emptied, else element by element,
   as long as the case still fails (at any step): fewer animals make every round's animal phase shorter,
   and the steps they needed are then refused and dropped by the next pass. A case from the game's own
   start is given that start as an explicit set-up first (``Game.setup_of``); kept only if it ends smaller.
4. Drop steps: halves, quarters, ... single steps, as long as the case still fails.
5. Merge steps: two consecutive actions a game can add up (Conquest King's waits: its unit's ``explore.merge``) as one.
6. Plain values: the seed as null.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable

from ...games import GAMES, Game, RuleViolation
from ...harness.serve import Session
from .cases import Case, CaseStep, replay_mirror, setup_at, setup_lists
from .positions import hints

Check = Callable[[Case], "int | None"]  # the step where the case fails (0: the start), or None


def accepted(case: Case) -> bool:
    """Whether the reference takes the case's start (its ruleset, seed and set-up) as the protocol's ``start``:
    a case's start stays one a build must take, so the build is judged on the rules, not on what a refused
    start leaves it in (the game of the case before). The protocol refuses more than the game does: a seed
    past 2^53 - 1 is ``bad-request`` in every game (specs/protocol.md "Numbers")."""
    answer = Session(GAMES, "reference").handle({"op": "start", "game": case.game, "ruleset": case.ruleset,
                                                 "seed": case.seed, "setup": case.setup})
    return answer.get("ok") is True


class Shrinker:
    """Make ``case`` smaller with ``check`` until ``deadline`` (time.monotonic); ``cut`` tells whether the
    deadline stopped it before the passes were done."""

    def __init__(self, check: Check, deadline: float) -> None:
        self.check, self.deadline, self.cut = check, deadline, False
        self.best: Case | None = None  # the smallest failing case so far (kept when the run is interrupted)

    def _time_left(self) -> bool:
        if time.monotonic() >= self.deadline:
            self.cut = True
        return not self.cut

    def _try(self, case: Case, best: Case) -> Case | None:
        """``case`` cut after its failing step, if it fails and is smaller than ``best``."""
        if case.size() >= best.size() or not self._time_left():
            return None
        step = self.check(case)
        if step is None:
            return None
        self.best = case.with_steps(case.steps[:step]) if step else case.with_steps(())
        return self.best

    def _try_start(self, case: Case, best: Case) -> Case | None:
        """``_try`` for a case with another start: only one the game accepts."""
        return self._try(case, best) if accepted(case) else None

    def run(self, case: Case) -> Case:
        first = case
        for shrink_pass in (self.last_start, self.from_setup, self.thin_setup, self.drop_steps, self.merge_steps,
                            self.plain_values):
            if not self._time_left():
                break
            case = shrink_pass(case)
        return case if case.size() <= first.size() else first  # a start made explicit that gained nothing

    def last_start(self, case: Case) -> Case:
        """The case from its last ``start`` step the game takes, without the steps before it (they only made
        a game that start left)."""
        engine = GAMES[case.game]
        for k in range(len(case.steps) - 1, -1, -1):
            step = case.steps[k]
            if step.kind != "start" or not isinstance(step.body, dict) or not self._time_left():
                continue
            ruleset = step.body.get("ruleset") or engine.info.default_ruleset
            setup = step.body.get("setup", {})
            start = Case(case.game, ruleset, step.body.get("seed"), setup, case.steps[k + 1:], step.legal, "played")
            if isinstance(setup, dict) and accepted(start):
                found = self._try(start, case)
                if found is not None:
                    return found
        return case

    def merge_steps(self, case: Case) -> Case:
        """Each pair of consecutive actions the game adds up (its unit's ``explore.merge``) as one, where it still
        fails."""
        merge = hints(case.game).merge
        i = 0
        while merge is not None and i < len(case.steps) - 1 and self._time_left():
            first, second = case.steps[i], case.steps[i + 1]
            both = merge(first.body, second.body) if first.kind == second.kind == "action" else None
            if both is not None:
                joined = CaseStep("action", both, first.legal or second.legal)
                found = self._try(case.with_steps(case.steps[:i] + (joined,) + case.steps[i + 2:]), case)
                if found is not None:
                    case = found
                    continue
            i += 1
        return case

    def from_setup(self, case: Case) -> Case:
        engine = GAMES[case.game]
        starts = []  # (k, the start that replaces the first k steps), from one replay of the case
        mirror = replay_mirror(case, 0)
        for k, step in enumerate(case.steps[:-1], 1):
            if not self._time_left():
                return case
            mirror.send(step.op(case.game))
            if mirror.state is None or mirror.session.game is not engine:
                continue
            setup = engine.setup_of(mirror.state)
            if setup is None:
                continue
            ruleset, seed, _ = mirror.session.started or (case.ruleset, case.seed, case.setup)
            ruleset = ruleset or engine.info.default_ruleset
            try:
                engine.new_state(ruleset, seed, setup)
            except RuleViolation:
                continue
            starts.append((k, Case(case.game, ruleset, seed, setup, case.steps[k:], True, "played")))
        for _k, start in reversed(starts):
            found = self._try(start, case)
            if found is not None:
                return found
        return case

    def _explicit_start(self, case: Case) -> Case | None:
        """``case`` with its start (no set-up: the game's own) given as the set-up it amounts to
        (``Game.setup_of``), or that without one of its parts, when the game has one and the case still fails
        from it; else None."""
        engine = GAMES[case.game]
        if type(engine).setup_of is Game.setup_of or not self._time_left():
            return None
        try:
            setup = engine.setup_of(engine.new_state(case.ruleset, case.seed, case.setup or {}))
        except RuleViolation:
            return None
        if not setup:
            return None
        # The whole position; else it without one part, which the game then draws from the seed as before
        # (Black Fog's map: given, it takes no draw, and every later draw moves).
        for given in [setup] + [{k: v for k, v in setup.items() if k != key} for key in setup]:
            explicit = case.with_steps(case.steps, setup=given)
            if given and accepted(explicit) and self._time_left() and self.check(explicit) is not None:
                return explicit
        return None

    def thin_setup(self, case: Case) -> Case:
        plain = case
        if not case.setup:  # the game's own start (Black Fog's eight animals): thinned once given explicitly
            explicit = self._explicit_start(case)
            if explicit is None:
                return case
            case = explicit
        if not isinstance(case.setup, dict):
            return case
        before = case
        for path in list(setup_lists(case.setup)):
            if not isinstance(setup_at(case.setup, path), list) or not setup_at(case.setup, path):
                continue
            emptied = copy.deepcopy(case.setup)
            setup_at(emptied, path).clear()
            found = self._try_start(case.with_steps(case.steps, setup=emptied), case)
            if found is not None:
                case = found
                continue
            i = 0
            while i < len(setup_at(case.setup, path)) and self._time_left():
                smaller = copy.deepcopy(case.setup)
                del setup_at(smaller, path)[i]
                found = self._try_start(case.with_steps(case.steps, setup=smaller), case)
                if found is not None:
                    case = found
                else:
                    i += 1
        return plain if case is before and plain is not before else case

    def drop_steps(self, case: Case) -> Case:
        chunk = max(1, len(case.steps) // 2)
        while chunk >= 1 and self._time_left():
            i = 0
            while i < len(case.steps) and self._time_left():
                found = self._try(case.with_steps(case.steps[:i] + case.steps[i + chunk:]), case)
                if found is not None:
                    case = found
                else:
                    i += chunk
            chunk //= 2
        return case

    def plain_values(self, case: Case) -> Case:
        if case.seed not in (None, 0) and self._time_left():
            step = self.check(case.with_steps(case.steps, seed=None))
            if step is not None:
                case = case.with_steps(case.steps[:step], seed=None)
        return case
