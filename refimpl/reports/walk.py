"""``refimpl show --all TRACE``: a whole game on one self-contained HTML page (issue 45): a slider and the arrow
keys step through it; each step shows its request, what moved (the game's own words), the board after it with
what moved marked, and every observer's view of it; with a build (``--impl``), the build's board beside the
reference's and the table of the fields where they differ, at every step. The page fetches nothing."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..games import GAMES
from ..harness.compare import MISSING, field_differences
from ..harness.driver import Driver, ReferenceDriver, refusal_words
from ..harness.plan import step_op
from ..harness.requests import Op, Start, State
from ..harness.trace import Trace
from . import pictures


@dataclass
class Frame:
    """One step of the walk (0: the start): its label, the request, how the reference (and the build) answered,
    what moved, the pictures by observer, and the fields where the build's full view differs."""

    number: int
    label: str
    request: str
    answer: str
    moved: str
    pictures: list[tuple[str, str]] = field(default_factory=list)  # (whose view, <svg>)
    build: list[tuple[str, str]] = field(default_factory=list)
    build_answer: str = ""
    differences: list[tuple[str, str, str]] = field(default_factory=list)  # (path, reference, build)


def _play(trace: Trace, driver: Driver, observers: list[str | None]) -> list[tuple[str, list[Any]]]:
    """(the answer in words, the views by observer) after the start and after every step, on ``driver``."""
    out = []
    ops: list[Op] = [Start(trace.game, trace.ruleset, trace.seed, dict(trace.setup))]
    ops += [step_op(trace, step) for step in trace.steps]
    for op in ops:
        answer = next(iter(driver.batch([op])))
        views = [next(iter(driver.batch([State(o)]))) for o in observers]
        out.append((refusal_words(answer, message=True) or "accepted", views))
    return out


def _shown(value: Any) -> str:
    return "<missing>" if value is MISSING else json.dumps(value, ensure_ascii=False)


def frames(trace: Trace, build: Driver | None = None) -> list[Frame]:
    """Every step of ``trace`` on the reference (and ``build``): the frames the page shows."""
    engine = GAMES[trace.game]
    info = engine.info
    observers: list[str | None] = [None, *(info.players if info.hidden_information else ())]
    ref = _play(trace, ReferenceDriver(), observers)
    theirs = _play(trace, build, observers) if build is not None else None
    labels = ["start", *(s.label() for s in trace.steps)]
    requests = [Start(trace.game, trace.ruleset, trace.seed, dict(trace.setup)).body()]
    requests += [step_op(trace, s).body() for s in trace.steps]
    out = []
    for i, (answer, views) in enumerate(ref):
        before = ref[i - 1][1][0] if i else None
        after = views[0]
        moved = (engine.describe(before, after) or "") if isinstance(before, dict) and isinstance(after, dict) else ""
        frame = Frame(i, labels[i], json.dumps(requests[i], ensure_ascii=False), answer, moved)
        for observer, view in zip(observers, views):
            whose = "the full state" if observer is None else f"{observer}'s view"
            prior = ref[i - 1][1][observers.index(observer)] if i else None
            frame.pictures.append((whose, pictures.draw(trace.game, view, (), f"step {i}: {whose}", prior)))
        if theirs is not None:
            their_answer, their_views = theirs[i]
            frame.build_answer = their_answer
            found = field_differences(after, their_views[0]) if isinstance(their_views[0], dict) else []
            frame.differences = [(d.path, _shown(d.expected), _shown(d.actual)) for d in found]
            marks = tuple(d.path for d in found)
            frame.build = [("the build's full state",
                            pictures.draw(trace.game, their_views[0], marks, f"step {i}: the build"))]
        out.append(frame)
    return out


def walk_page(trace: Trace, build: Driver | None = None) -> str:
    """The self-contained HTML page of the whole trace (module docstring). Raises BuildBroke from a build."""
    from .htmlpage import _environment

    shown = frames(trace, build)
    return _environment().get_template("walk.html").render(
        trace=trace, frames=shown, build=getattr(build, "name", None) if build is not None else None,
        first=next((f.number for f in shown if f.differences), None))
