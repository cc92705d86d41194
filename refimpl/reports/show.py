"""``refimpl show``: pictures of a trace's position before and after one step (a bundled trace or a fuzz
reproducer), played on the reference and, optionally, on a build, with what the build answers differently
outlined on its picture."""

from __future__ import annotations

import json
from dataclasses import dataclass
from html import escape
from typing import Any

from ..errors import KitError
from ..harness.compare import every_whole_difference
from ..harness.driver import Driver, ReferenceDriver, refusal_words
from ..harness.plan import step_op
from ..harness.requests import Start, State
from ..harness.trace import Trace
from . import pictures


class ShowError(KitError):
    """A step the trace does not have, or an observer the game does not know (exit 2)."""


@dataclass(frozen=True)
class Position:
    """One step of a trace: the request sent, and the views before and after it."""

    step: int
    action: str
    request: dict[str, Any]
    before: Any
    after: Any  # the view after the step; for a refused request the (unchanged) view, with ``refused`` set
    refused: str = ""


def _view(driver: Driver, observer: str | None) -> Any:
    answer = next(iter(driver.batch([State(observer)])))
    return answer if isinstance(answer, dict) else {"error": getattr(answer, "code", str(answer))}


def position(trace: Trace, number: int, driver: Driver, observer: str | None = None) -> Position:
    """Play ``trace`` on ``driver`` up to step ``number`` (0: the start) and return that step's position.
    Raises ShowError for a step the trace does not have; BuildBroke when an outside build breaks."""
    if not 0 <= number <= len(trace.steps):
        raise ShowError(f"{trace.path} has steps 1 to {len(trace.steps)} (0 is the start); there is no step {number}")
    start = Start(trace.game, trace.ruleset, trace.seed, dict(trace.setup))
    before: Any = None
    outcome = next(iter(driver.batch([start])))
    if number == 0:
        return Position(0, "start", start.body(), None, _view(driver, observer),
                        refusal_words(outcome) or "")
    for step in trace.steps[:number]:
        before = _view(driver, observer)
        op = step_op(trace, step)
        outcome = next(iter(driver.batch([op])))
    return Position(number, step.label(), op.body(), before, _view(driver, observer), refusal_words(outcome) or "")


def differing_paths(expected: Any, actual: Any) -> list[str]:
    """The fields where a build's view differs from the reference's."""
    if not isinstance(expected, dict) or not isinstance(actual, dict):
        return ["<view>"] if expected != actual else []
    return [d.path for d in every_whole_difference(expected, actual)]


def render(trace: Trace, number: int, observer: str | None = None, build: Driver | None = None) -> str:
    """A self-contained HTML page: the step, then the position before and after it on the reference (and
    after it on ``build``, differing fields outlined). Raises ShowError, BuildBroke."""
    if observer is not None:
        from ..games import GAMES

        players = GAMES[trace.game].info.players if trace.game in GAMES else ()
        if observer not in players:
            raise ShowError(f"{trace.game} has no player {observer!r} (players: {', '.join(players)})")
    ref = position(trace, number, ReferenceDriver(), observer)
    figures: list[tuple[str, Any, tuple[str, ...]]] = [("before the step", ref.before, ()),
                                                       ("after the step (reference)", ref.after, ())]
    notes = [f"reference: {ref.refused}" if ref.refused else ""]
    if build is not None:
        if not build.supports(trace.game, trace.ruleset):
            raise ShowError(f"{getattr(build, 'name', 'the build')} does not declare {trace.game} {trace.ruleset}")
        got = position(trace, number, build, observer)
        marks = differing_paths(ref.after, got.after)
        figures.append((f"after the step ({getattr(build, 'name', 'build')})", got.after, tuple(marks)))
        notes.append(f"{getattr(build, 'name', 'build')}: " + (got.refused or "accepted") +
                     (f"; {len(marks)} fields differ: {', '.join(marks[:12])}" if marks else "; the same view"))
    whose = f", {observer}'s view" if observer else ""
    body = [f"<h1>{escape(trace.title)}</h1>",
            f"<p><code>{escape(trace.path)}</code> [{escape(trace.game)} {escape(trace.ruleset)}]{escape(whose)}</p>",
            f"<p>step {number}: <code>{escape(ref.action)}</code><br>"
            f"sent: <code>{escape(json.dumps(ref.request))}</code></p>"]
    body += [f"<p>{escape(n)}</p>" for n in notes if n]
    body.append('<div style="display:flex;flex-wrap:wrap;gap:1em">')
    for title, view, marked in figures:
        if isinstance(view, dict):
            body.append(f"<figure><figcaption><b>{escape(title)}</b></figcaption>"
                        f"{pictures.draw(trace.game, view, marked, title)}</figure>")
    body.append("</div>")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{escape(trace.title)}: step {number}</title>"
            "<style>body{font-family:system-ui,sans-serif;margin:1.5em}figure{margin:0}</style></head><body>\n"
            + "\n".join(body) + "\n</body></html>\n")


def svg(trace: Trace, number: int, observer: str | None = None) -> str:
    """The picture of the position after step ``number`` on the reference, alone (an ``<svg>``)."""
    ref = position(trace, number, ReferenceDriver(), observer)
    return pictures.draw(trace.game, ref.after, (), f"{trace.title}: after step {number}")
