"""One route under two versions of the rules or more, side by side (``refimpl replay --ruleset v0 --ruleset v1
TRACE``, issue 45): a trace's requests played to its end under each version by the reference engine, nothing
expected, and after each step every field where a version's state parts from the first's.

A version is a ruleset and a profile (None: the spec's chosen values). A step an engine refuses under a version
changes nothing there (as in any trace) and is shown refused with its code; a restart goes back to the version's
own start; a new start plays the trace's game under the step's seed and set-up, in the version's ruleset; a
request step (a protocol check) is left out. The views compared are the full states (observer None).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..games import GAMES, JSON, RuleViolation
from .compare import field_differences
from .trace import Trace


@dataclass(frozen=True)
class Version:
    """A version of the rules: a ruleset of the trace's game and a profile of it (None: the spec's values)."""

    ruleset: str
    profile: Any = None

    @property
    def name(self) -> str:
        return self.ruleset + (f"+{self.profile.name}" if self.profile is not None else "")


@dataclass(frozen=True)
class Part:
    """One field where a version's state differs from the first version's after a step: its path, and its value
    under each version (by name; ``<missing>`` where a version's state lacks it)."""

    path: str
    values: dict[str, JSON]


@dataclass(frozen=True)
class StepAcross:
    """One step under every version: its label, how each version took it (``applied``, ``rejected CODE``,
    ``restart``, ``start``, ``skipped``), and the fields that part from the first version afterwards."""

    number: int
    label: str
    taken: dict[str, str]
    parts: tuple[Part, ...] = ()


@dataclass
class Across:
    """A trace under several versions: every step, the first step after which the states part (None: never),
    and each version's result at the end (None: not over)."""

    trace: Trace
    versions: tuple[Version, ...]
    steps: list[StepAcross] = field(default_factory=list)
    parted_at: int | None = None
    results: dict[str, str | None] = field(default_factory=dict)


def across(trace: Trace, versions: Sequence[Version]) -> Across:
    """Play ``trace`` under every version (at least two) and compare their states step by step. Raises
    ValueError for fewer than two versions, one of another game's profile, or a ruleset the game lacks."""
    if len(versions) < 2:
        raise ValueError("two versions or more, to compare")
    info = GAMES[trace.game].info
    for v in versions:
        if v.ruleset not in info.rulesets:
            raise ValueError(f"{trace.game} has no ruleset {v.ruleset!r} (rulesets: {', '.join(info.rulesets)})")
        if v.profile is not None and v.profile.game != trace.game:
            raise ValueError(f"the profile {v.profile.name} is of {v.profile.game}, not {trace.game}")
    engines = [v.profile.engine() if v.profile is not None else GAMES[trace.game] for v in versions]
    routes = [route(e, v.ruleset, trace) for e, v in zip(engines, versions)]
    states = [e.new_state(v.ruleset, seed=trace.seed, setup=dict(trace.setup) or None)
              for e, v in zip(engines, versions)]  # (the results of a trace with no step)
    out = Across(trace, tuple(versions))
    names = [v.name for v in versions]
    for step in trace.steps:
        taken = {}
        for k, played in enumerate(routes):
            states[k], taken[names[k]] = next(played)
        views = [e.view(s) for e, s in zip(engines, states)]
        parts = _parts(names, views)
        out.steps.append(StepAcross(step.number, step.label(), taken, parts))
        if parts and out.parted_at is None:
            out.parted_at = step.number
    out.results = {n: e.outcome(s) for n, e, s in zip(names, engines, states)}
    return out


def route(engine: Any, ruleset: str, trace: Trace) -> Iterator[tuple[Any, str]]:
    """A trace's steps played on ``engine`` under ``ruleset``, nothing expected: (the state after each step, how
    it was taken: ``applied``, ``rejected CODE``, ``restart``, ``start``, ``skipped``). A step the rules refuse
    changes nothing (as in any trace); a restart goes back to the last start; a new start plays the trace's game
    under the step's seed and set-up, in ``ruleset``; a request step (a protocol check) is skipped."""
    start = state = engine.new_state(ruleset, seed=trace.seed, setup=dict(trace.setup) or None)
    for step in trace.steps:
        if step.is_restart:
            state, taken = start, "restart"
        elif step.kind == "request":
            taken = "skipped"
        else:
            try:
                if step.kind == "start":
                    fields = dict(step.start or {})
                    state = start = engine.new_state(ruleset, seed=fields.get("seed"),
                                                     setup=fields.get("setup") or None)
                    taken = "start"
                else:
                    state, taken = engine.apply(state, engine.parse_action(step.action)), "applied"
            except RuleViolation as exc:
                taken = f"rejected {exc.code}"
        yield state, taken


def _parts(names: list[str], views: list[dict[str, JSON]]) -> tuple[Part, ...]:
    """The fields where a later version's view differs from the first's, each with every version's value
    (the ruleset field, which names the version, left out)."""
    found: dict[str, dict[str, JSON]] = {}
    for name, view in zip(names[1:], views[1:]):
        for d in field_differences(views[0], view):
            if d.path == "ruleset":
                continue
            found.setdefault(d.path, {names[0]: _shown(d.expected)})[name] = _shown(d.actual)
    return tuple(Part(path, values) for path, values in found.items())


def _shown(value: Any) -> JSON:
    from .compare import MISSING

    return "<missing>" if value is MISSING else value
