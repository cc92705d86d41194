// YOUR GAME: edit this file. (main.mjs and refimpl-adapter.mjs speak the protocol; you should not need them.)
//
// The rules of ONE game as an object the kit's adapter serves (its types: refimpl-adapter.d.ts, `Game`):
//
//   start(ruleset, seed, setup) -> state, or reject('bad-request', why)
//   apply(state, action)        -> the new state, or reject(code, why)
//   legal(state, observer)      -> array of actions (delete it if you do not implement `legal`)
//   view(state, observer)       -> the spec's "State view", a plain object
//
// `state` is whatever you like (a plain object, your own class, your web app's game object): the adapter only
// keeps it and hands it back. Everything it receives or returns is plain JSON data. Any of the functions may be
// async. The adapter has already checked each request's form, the game and ruleset a start names, the observer
// (in a game with `observers`) and that an action is an object with a "type". Section names below refer to
// specs/<name>.md.
//
// As shipped, the functions are stubs: the build answers the protocol cleanly, every action is rejected and the
// view is nearly empty, so `refimpl verify` runs and reports failures. Replace each TODO.

import { reject } from './refimpl-adapter.mjs';

/** Your build's name and version, free text, as `hello` gives them. */
export const BUILD = { name: 'my-build', version: '0.1.0' };

export const game = {
  name: 'beacon-lines', // the game's name, as in specs/<name>.md
  rulesets: ['v1'], // TODO (spec section "Rulesets"): every ruleset you implement; only these are checked
  defaultRuleset: 'v1', // the spec's default ruleset (used when `start` sends "ruleset": null)

  // Games with hidden information only (see the game spec's "State view"): the player names an `observer` may
  // hold; any other is refused with `bad-request`. Conquest King: ['referee', 'sparkia', 'gaias'], with
  // nullObservers: ['referee'] ('referee' names the full view, as null does). Leave them out otherwise.
  // observers: ['referee', 'sparkia', 'gaias'],
  // nullObservers: ['referee'],

  // Chance (protocol section "Chance: seeded or given"). An outcome given in an action (a roll's face) is always
  // taken exactly as given. Games with seeded forms (Ludo, Black Fog: a roll without its face...) draw those from
  // the spec's canonical stream of the seed. If your build draws them from its own random source instead
  // (Math.random), set this to true: the build declares `explicit-chance` and the kit gives every random input.
  explicitChance: false,

  /**
   * The start state of a new game, or reject('bad-request', why) for a set-up the game cannot use (an unknown
   * key, a value out of range, an impossible position). A game with a random set-up draws it from `seed` as its
   * spec says. `restart` calls start() again with the same arguments.
   */
  start(ruleset, seed, setup) {
    // TODO (spec section "Start and set-up"): build the real start state; accept the set-up keys the spec lists.
    const keys = Object.keys(setup);
    if (keys.length > 0) return reject('bad-request', `unknown set-up key '${keys.sort()[0]}' (game.mjs is a skeleton)`);
    return { ruleset };
  },

  /**
   * Play one action (a player's move, or a chance outcome such as a roll: the kit sends those as actions).
   * Return the NEW state, or reject(code, why) with the spec's rejection code. Never change `state` itself:
   * after a rejection the game must be exactly as it was. Check the action's own form first
   * (`malformed-action`, `unknown-action`), then the rules, in the order of the spec's "Actions".
   */
  apply(state, action) {
    // TODO (spec section "Actions"): the action types, their form and the rejection codes, in order.
    return reject('unknown-action', `no action ${JSON.stringify(action.type)} yet (game.mjs is a skeleton)`);
  },

  /**
   * Every legal action now (order does not matter). `observer` is null for the referee's list (every action the
   * rules allow, chance outcomes included); in a game with hidden information it may name a player: that
   * player's own list. Delete it if your build does not list legal actions: the build then does not declare
   * the `legal` capability and the scenarios that need it are reported as not run.
   */
  legal(state, observer) {
    // TODO (spec section "Legal actions"): list them; an empty list once the game is over.
    return [];
  },

  /** The spec's canonical view of `state` (exactly its keys, ids and nulls); `observer` as for legal. */
  view(state, observer) {
    // TODO (spec section "State view"): every field, e.g. "round", "scores", "result"...
    return { game: this.name, ruleset: state.ruleset };
  },

  // Statistics (protocol section "`stats`"). The build always declares `stats` and answers with the records of
  // the games that keep one (today only Ludo, rule LD-STAT-1); a game that keeps one says its result once over
  // and how a record grows, for instance Ludo's:
  //
  // result(state) { return state.result; }, // null until the game is over
  // statistics: {
  //   keys: ['played', 'won', 'lost'],
  //   record: (r, result) => ({ played: r.played + 1, won: r.won + (result === 'human'),
  //                             lost: r.lost + (result !== null && result !== 'capped' && result !== 'human') }),
  // },
};
