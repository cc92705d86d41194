'use strict';
// YOUR GAME: edit this file. (main.js speaks the protocol; you should not need to touch it.)
//
// The rules of ONE game, behind four functions that main.js calls:
//
//   start(ruleset, seed, setup) -> state, or reject('bad-request', why)
//   apply(state, action)        -> the new state, or reject(code, why)
//   legal(state, observer)      -> array of actions (delete it if you do not implement `legal`)
//   view(state, observer)       -> the spec's "State view", a plain object
//
// `state` is whatever you like (a plain object, your own class, your web app's game object): main.js only
// keeps it and hands it back. Everything main.js receives or returns is plain JSON data. Any of the four may be
// an async function: main.js awaits it before it looks at the next request. Section names below refer to
// specs/<NAME>.md.
//
// As shipped, the functions are stubs: the adapter answers the protocol cleanly, every action is rejected and
// the view is nearly empty, so `refimpl verify` runs and reports failures. Replace each TODO.

// ---------------------------------------------------------------------------------------------------------
// Part of the contract with main.js: keep these two as they are.

/** A refusal: `code` is the spec's code (only it is compared), `message` is free text for people. */
class Rejection {
  constructor(code, message = '') {
    this.code = code;
    this.message = message;
  }
}

function reject(code, message = '') {
  return new Rejection(code, message);
}

// ---------------------------------------------------------------------------------------------------------
// What the build declares in its `hello` answer.

const NAME = 'beacon-lines'; // the game's name, as in specs/<NAME>.md
const RULESETS = ['v1']; // TODO (spec section "Rulesets"): every ruleset you implement; only these are checked
const DEFAULT_RULESET = 'v1'; // the spec's default ruleset (used when `start` sends "ruleset": null)
const BUILD = { name: 'my-build', version: '0.1.0' }; // your build's name and version, free text

// Games with hidden information only (see the game spec's "State view"): the player names an `observer` may
// hold. `null` is always the full (referee's) view; any other name is refused with `bad-request`. Leave it
// null for a game without hidden information: main.js then ignores `observer`.
// const OBSERVERS = ['referee', 'sparkia', 'gaias'];  // Conquest King: 'referee' names the full view, as null does
const OBSERVERS = null;

// Chance (protocol section "Chance: seeded or given"). An outcome given in an action (a roll's face) is always
// taken exactly as given. Games with seeded forms (Ludo, Black Fog: a roll without its face...) draw those from
// the spec's canonical stream of the seed. If your build draws them from its own random source instead
// (Math.random), set this to true: the build declares `explicit-chance` and the kit then gives every random
// input explicitly.
const EXPLICIT_CHANCE = false;

// ---------------------------------------------------------------------------------------------------------
// The rules. Replace each TODO body.

/**
 * The start state of a new game.
 *
 * main.js has already checked the request's form (seed null or an integer 0..2^53-1, setup an object) and
 * that `ruleset` is one of RULESETS. What is left is the game's own: a set-up the game cannot use (an unknown
 * key, a value out of range, an impossible position) is `return reject('bad-request', why)`. A game with a
 * random set-up draws it from `seed` as its spec says (with EXPLICIT_CHANCE, the kit gives it in `setup`
 * instead). Do not keep a reference to `setup` that you later change: `restart` calls start() again with it.
 */
function start(ruleset, seed, setup) {
  // TODO (spec section "Start and set-up"): build the real start state; accept the set-up keys the spec lists.
  const keys = Object.keys(setup);
  if (keys.length > 0) {
    return reject('bad-request', `unknown set-up key '${[...keys].sort()[0]}' (game.js is still a skeleton)`);
  }
  return { ruleset };
}

/**
 * Play one action (a player's move, or a chance outcome such as a roll: the kit sends those as actions).
 *
 * Return the NEW state, or `reject(code, why)` with the spec's rejection code. Never change `state` itself:
 * after a rejection the game must be exactly as it was. Check the action's form first (`malformed-action`,
 * `unknown-action`), then the rules, in the order the spec's "Actions" section gives. `action` is whatever
 * JSON the request carried: it may be an array, a number, an object with extra keys...
 */
function apply(state, action) {
  // TODO (spec section "Actions"): the action types, their form and the rejection codes, in order.
  if (typeof action !== 'object' || action === null || Array.isArray(action) || !Object.hasOwn(action, 'type')) {
    return reject('malformed-action', 'an action is an object with a type');
  }
  return reject('unknown-action', `no action ${JSON.stringify(action.type)} yet (game.js is still a skeleton)`);
}

/**
 * Every legal action now, as action objects of the spec (order does not matter).
 *
 * `observer` is null for the referee's list (every action the rules allow, chance outcomes included); in a
 * game with hidden information it may name a player (one of OBSERVERS): that player's own list. Delete this
 * function (and its export) if your build does not list legal actions: main.js then stops declaring the
 * `legal` capability and the scenarios that need it are reported as not run.
 */
function legal(state, observer) {
  // TODO (spec section "Legal actions"): list them; an empty list once the game is over.
  return [];
}

/**
 * The spec's canonical view of `state`: exactly its keys (none missing, none extra), its ids, its nulls.
 *
 * `observer` is null for the full view; in a game with hidden information it may name a player (one of
 * OBSERVERS): what that player may see.
 */
function view(state, observer) {
  // TODO (spec section "State view"): every field, e.g. "round", "scores", "result"...
  return { game: NAME, ruleset: state.ruleset };
}

module.exports = {
  Rejection, reject, NAME, RULESETS, DEFAULT_RULESET, BUILD, OBSERVERS, EXPLICIT_CHANCE,
  start, apply, legal, view,
};
