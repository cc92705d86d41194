"""YOUR GAME: edit this file. (adapter.py speaks the protocol; you should not need to touch it.)

The rules of ONE game, behind four functions that adapter.py calls:

    start(ruleset, seed, setup) -> state, or reject("bad-request", why)
    apply(state, action)        -> the new state, or reject(code, why)
    legal(state, observer)      -> list of actions (delete it if you do not implement `legal`)
    view(state, observer)       -> the spec's "State view", a dict

`state` is whatever you like (a dict, your own class, your web app's game object): adapter.py only keeps it
and hands it back. Everything adapter.py receives or returns is plain JSON data (dict, list, str, int, bool,
None). Section names below refer to specs/<NAME>.md.

As shipped, the functions are stubs: the adapter answers the protocol cleanly, every action is rejected and
the view is nearly empty, so `refimpl verify` runs and reports failures. Replace each TODO.
"""

from __future__ import annotations

from typing import Any

# ---------------------------------------------------------------------------------------------------------
# Part of the contract with adapter.py: keep these two as they are.


class Rejection:
    """A refusal: `code` is the spec's code (only it is compared), `message` is free text for people."""

    def __init__(self, code: str, message: str = "") -> None:
        self.code = code
        self.message = message


def reject(code: str, message: str = "") -> Rejection:
    return Rejection(code, message)


# ---------------------------------------------------------------------------------------------------------
# What the build declares in its `hello` answer.

NAME = "beacon-lines"  # the game's name, as in specs/<NAME>.md
RULESETS = ["v1"]  # TODO (spec section "Rulesets"): every ruleset you implement; only these are checked
DEFAULT_RULESET = "v1"  # the spec's default ruleset (used when `start` sends "ruleset": null)
BUILD = {"name": "my-build", "version": "0.1.0"}  # your build's name and version, free text

# Games with hidden information only (see the game spec's "State view"): the player names an `observer` may
# hold. `null` is always the full (referee's) view; any other name is refused with `bad-request`. Leave it
# out (or None) for a game without hidden information: the adapter then ignores `observer`.
# OBSERVERS = ["referee", "sparkia", "gaias"]  # Conquest King: "referee" names the full view, as None does
OBSERVERS: list[str] | None = None

# Chance (protocol section "Chance: seeded or given"). An outcome given in an action (a roll's face) is always
# taken exactly as given. Games with seeded forms (Ludo, Black Fog: a roll without its face...) draw those from
# the spec's canonical stream of the seed. If your build draws them from its own random source instead, set
# this to True: the build declares `explicit-chance` and the kit then gives every random input explicitly.
EXPLICIT_CHANCE = False

# Statistics (protocol section "`stats`"): a game that keeps a record over the session (today only Ludo, rule
# LD-STAT-1) names its keys here and defines record(record, result) -> record, the record after one game ended
# with `result` (None: left unfinished), and result(state) -> the result once the game is over, else None. The
# adapter declares the capability `stats` whatever the game, and answers with the records of the games that
# keep one (none here). Ludo's, for instance:
#
#   STATISTICS = ["played", "won", "lost"]
#   def record(record, result):
#       won = result == "human"
#       return {"played": record["played"] + 1, "won": record["won"] + won,
#               "lost": record["lost"] + (result not in (None, "capped", "human"))}
#   def result(state): return state.winner  # None until the game is over
STATISTICS: list[str] | None = None


# ---------------------------------------------------------------------------------------------------------
# The rules. Replace each TODO body.


def start(ruleset: str, seed: int | None, setup: dict[str, Any]) -> Any:
    """The start state of a new game.

    The adapter has already checked the request's form (seed null or an integer 0..2^53-1, setup an object)
    and that `ruleset` is one of RULESETS. What is left is the game's own: a set-up the game cannot use (an
    unknown key, a value out of range, an impossible position) is `return reject("bad-request", why)`.
    A game with a random set-up draws it from `seed` as its spec says (with EXPLICIT_CHANCE, the kit gives
    it in `setup` instead). Do not keep a reference to `setup` that you later change: `restart` calls start()
    again with it.
    """
    # TODO (spec section "Start and set-up"): build the real start state; accept the set-up keys the spec lists.
    if setup:
        return reject("bad-request", f"unknown set-up key {min(setup)!r} (game.py is still a skeleton)")
    return {"ruleset": ruleset}


def apply(state: Any, action: Any) -> Any:
    """Play one action (a player's move, or a chance outcome such as a roll: the kit sends those as actions).

    Return the NEW state, or `reject(code, why)` with the spec's rejection code. Never change `state` itself:
    after a rejection the game must be exactly as it was. Check the action's form first (`malformed-action`,
    `unknown-action`), then the rules, in the order the spec's "Actions" section gives. `action` is whatever
    JSON the request carried: it may be a list, a number, an object with extra keys...
    """
    # TODO (spec section "Actions"): the action types, their form and the rejection codes, in order.
    if not isinstance(action, dict) or "type" not in action:
        return reject("malformed-action", "an action is an object with a type")
    return reject("unknown-action", f"no action {action['type']!r} yet (game.py is still a skeleton)")


def legal(state: Any, observer: str | None) -> list[Any]:
    """Every legal action now, as action objects of the spec (order does not matter).

    `observer` is None for the referee's list (every action the rules allow, chance outcomes included); in a
    game with hidden information it may name a player (one of OBSERVERS): that player's own list. Delete this
    function if your build does not list legal actions: the adapter then stops declaring the `legal`
    capability and the scenarios that need it are reported as not run.
    """
    # TODO (spec section "Legal actions"): list them; an empty list once the game is over.
    return []


def view(state: Any, observer: str | None) -> dict[str, Any]:
    """The spec's canonical view of `state`: exactly its keys (none missing, none extra), its ids, its nulls.

    `observer` is None for the full view; in a game with hidden information it may name a player (one of
    OBSERVERS): what that player may see.
    """
    # TODO (spec section "State view"): every field, e.g. "round", "scores", "result"...
    return {"game": NAME, "ruleset": state["ruleset"]}
