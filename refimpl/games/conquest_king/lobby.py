"""The lobby clock (seed §3): registration, deletion, resets, the real-time phase limit and the archive, as
time passes by ``wait`` actions (ruling CK-R11). Each side's deletion counts from its own registration; once the
game is over only the archive of a game won is still to come (no deletion, reset or phase limit fires, the
24-hour reset included), and a game deleted or reset is never archived (ruling CK-R11)."""

from __future__ import annotations

from typing import Any

from ..base import SAFE_INTEGER, IllegalAction, evolve
from .model import PRECEDENCE, Rules, State, set_at


def _register(game: Rules, state: State, side: str) -> State:
    if side not in game.p.sides:
        raise IllegalAction("unknown-side", f"no side {side!r}")
    s = game.p.sides.index(side)
    if state.phase == "over":
        raise IllegalAction("game-over", "the game is over")
    if state.registered[s] is not None:
        raise IllegalAction("already-registered", f"{side} is already registered")
    return evolve(state, registered=set_at(state.registered, s, state.clock))


def deadlines(game: Rules, state: State) -> list[tuple[int, str]]:
    """The lobby events still to come, as (minute, event), earliest first (seed §3): deletion of a game not
    deployed in time, each side's 24 hours from its own registration (CK-LOBBY-1), the archive of a game
    finished with a winner (CK-LOBBY-2; sooner on a real-time field, CK-LOBBY-5), and on a real-time field
    the resets (CK-LOBBY-3, CK-LOBBY-6) and the phase limit (CK-LOBBY-4). Once the game is over the archive
    of a game won is all that is left: a game deleted or reset is not archived, and a finished game is
    neither deleted nor reset, not even 24 hours after the first registration."""
    lobby, events = game.p.lobby, []
    regs = [r for r in state.registered if r is not None]
    if state.phase == "over":  # only a won game's archive is still to come
        if state.finished_at is not None and not state.archived and state.result and state.result[0]:
            wait = lobby["realtime"]["finished_reset"] if state.field == "realtime" else lobby["finished_reset"]
            events.append((state.finished_at + wait, "archived"))
        return events
    if state.phase == "deploy":
        for s, reg in enumerate(state.registered):
            if reg is not None and state.complete[s] != 2:
                events.append((reg + lobby["deploy_limit"], "deleted"))
    if state.field == "realtime" and regs:
        rt = lobby["realtime"]
        events.append((min(regs) + rt["first_registration_reset"], "reset"))
        if len(regs) == 1:
            events.append((regs[0] + rt["lone_registration_reset"], "reset"))
        if state.phase in ("play", "combat"):
            events.append((state.phase_started + rt["phase_limit"], "phase-timeout"))
    return sorted(events, key=lambda e: (e[0], PRECEDENCE[e[1]]))


def _wait(game: Rules, state: State, minutes: Any) -> State:
    if type(minutes) is not int or minutes < 0:
        raise IllegalAction("bad-time", f"minutes is a whole number of at least 0, got {minutes!r}")
    if state.clock + minutes > SAFE_INTEGER:
        raise IllegalAction("bad-time", f"the clock ({state.clock}) would pass 2^53 - 1 after {minutes} minutes")
    end = state.clock + minutes
    while True:
        due = [(t, e) for t, e in game.deadlines(state) if t <= end]
        if not due:
            return evolve(state, clock=end)
        when, event = due[0]
        state = evolve(state, clock=when)
        if event == "archived":
            state = evolve(state, archived=True)
        elif event == "phase-timeout":  # the phase ends as if its side had finished it (ruling CK-R8)
            state = game._after(game._next_phase(evolve(state, phase="play", fights=())))
        else:
            state = game._finish(state, None, event)
