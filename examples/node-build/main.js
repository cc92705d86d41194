#!/usr/bin/env node
// The protocol loop: reads JSON-Lines requests from stdin and answers each, in order, with one
// JSON line on stdout (specs/protocol.md, build protocol version 1). Games live in their own
// modules (one file per game, see README.md "How it is structured"); this file only keeps the current
// game and maps requests to them. Standard output carries responses only; diagnostics go to standard error.
'use strict';

const readline = require('readline');

const BUILD = { name: 'node-build', version: '0.1.0' };
const PROTOCOL = 1;
const MODULES = ['./beacon-lines', './lantern-quay', './ludo', './conquest-king', './black-fog'];
const GAMES = {};
for (const path of MODULES) {
  const game = require(path);
  GAMES[game.NAME] = game;
}

// A game module with OWN_RANDOM draws chance from generators of its own, not the spec's canonical streams (run with
// NODE_BUILD_OWN_RANDOM=1): the build then asks the kit for every chance outcome (protocol "Chance").
const CAPABILITIES = Object.values(GAMES).some((game) => game.OWN_RANDOM)
  ? ['legal', 'stats', 'explicit-chance']
  : ['legal', 'stats'];

// The one current game: its module, what start was given (for restart), and its state.
let current = null;
let quitting = false;

// Statistics (protocol `stats`): the record of each game whose module keeps one, over this session. A game
// counts once: when it ends, or when a start or restart leaves it unfinished.
const records = {};
for (const [name, game] of Object.entries(GAMES)) {
  if (game.record) records[name] = Object.fromEntries(game.STATISTICS.map((k) => [k, 0]));
}
let counting = false;
function count(result) {
  if (!counting || !current) return;
  records[current.game.NAME] = current.game.record(records[current.game.NAME], result);
  counting = false;
}
function ended() {
  if (counting && current.game.result(current.state) !== null) count(current.game.result(current.state));
}
function began() {
  counting = Boolean(current && current.game.record);
  ended();
}

function send(response, then) {
  process.stdout.write(JSON.stringify(response) + '\n', then);
}

const error = (code, message) => ({ ok: false, error: { code, message } });
const has = (obj, key) => Object.prototype.hasOwnProperty.call(obj, key);
const isPlainObject = (x) => x !== null && typeof x === 'object' && !Array.isArray(x);

function stateOf(cur, observer = null) {
  return { ok: true, state: cur.game.view(cur.state, observer) };
}

// A game with hidden information lists its players in OBSERVERS; the others ignore `observer`.
function badObserver(game, observer) {
  if (!game.OBSERVERS || observer === undefined || observer === null) return null;
  if (typeof observer === 'string' && game.OBSERVERS.includes(observer)) return null;
  return error('bad-request', `unknown observer ${JSON.stringify(observer)}`);
}

// A game module either has start(ruleset, seed, setup) -> {ok, state} | {ok: false, message}
// (set-ups and seeds it uses), or only newGame(ruleset) (no set-up, the seed unused).
function begin(game, ruleset, seed, setup) {
  if (game.start) return game.start(ruleset, seed, setup);
  if (Object.keys(setup).length > 0) return { ok: false, message: `${game.NAME} takes no set-up options` };
  return { ok: true, state: game.newGame(ruleset) };
}

const OPS = {
  hello(req) {
    if (!has(req, 'protocol')) return error('bad-request', 'hello needs "protocol"');
    const games = {};
    for (const name of Object.keys(GAMES)) games[name] = GAMES[name].RULESETS.slice();
    return { ok: true, protocol: PROTOCOL, build: BUILD, games, capabilities: CAPABILITIES };
  },

  start(req) {
    for (const field of ['game', 'ruleset', 'seed', 'setup']) {
      if (!has(req, field)) return error('bad-request', `start needs "${field}"`);
    }
    const { game: name, seed, setup } = req;
    if (typeof name !== 'string') return error('bad-request', '"game" must be a name');
    if (req.ruleset !== null && typeof req.ruleset !== 'string') return error('bad-request', '"ruleset" must be a name or null');
    if (seed !== null && !(Number.isSafeInteger(seed) && seed >= 0)) {
      return error('bad-request', '"seed" must be null or an integer from 0 to 2^53 - 1');
    }
    if (!isPlainObject(setup)) return error('bad-request', '"setup" must be a mapping');
    const game = typeof name === 'string' && has(GAMES, name) ? GAMES[name] : null;
    if (!game) return error('unsupported', `no game ${JSON.stringify(name)}`);
    const ruleset = req.ruleset === null ? game.DEFAULT_RULESET : req.ruleset;
    if (!game.RULESETS.includes(ruleset)) return error('unsupported', `no ruleset ${JSON.stringify(ruleset)} for ${name}`);
    const begun = begin(game, ruleset, seed, setup);
    if (!begun.ok) return error('bad-request', begun.message);
    count(null); // the game in progress, if unfinished, is left
    current = { game, ruleset, seed, setup, state: begun.state };
    began();
    return stateOf(current);
  },

  apply(req) {
    if (!current) return error('no-game', 'no game started'); // looked at first (protocol.md, edge cases)
    if (!has(req, 'action')) return error('bad-request', 'apply needs "action"');
    const outcome = current.game.apply(current.state, req.action);
    if (!outcome.ok) return { ok: false, rejected: { code: outcome.code, message: outcome.message } };
    current.state = outcome.state;
    ended();
    return stateOf(current);
  },

  state(req) {
    if (!current) return error('no-game', 'no game started');
    const refused = badObserver(current.game, req.observer);
    if (refused) return refused;
    return stateOf(current, req.observer ?? null);
  },

  legal(req) {
    if (!current) return error('no-game', 'no game started');
    const refused = badObserver(current.game, req.observer);
    if (refused) return refused;
    return { ok: true, actions: current.game.legal(current.state, req.observer ?? null) };
  },

  restart() {
    if (!current) return error('no-game', 'no game started');
    count(null);
    current.state = begin(current.game, current.ruleset, current.seed, current.setup).state;
    began();
    return stateOf(current);
  },

  stats() {
    return { ok: true, stats: JSON.parse(JSON.stringify(records)) };
  },

  quit() {
    quitting = true;
    return { ok: true };
  },
};

// Answer one request line. The response always starts with the request's id (null when the line
// is not a JSON object, so it has none).
function handle(line) {
  let req;
  try {
    req = JSON.parse(line);
  } catch (e) {
    return { id: null, ...error('bad-request', `not JSON: ${e.message}`) };
  }
  if (!isPlainObject(req)) return { id: null, ...error('bad-request', 'a request is a JSON object') };
  const id = has(req, 'id') ? req.id : null;
  if (!Number.isInteger(id) || id < 0) return { id, ...error('bad-request', 'a request needs an integer "id"') };
  if (!has(req, 'op')) return { id, ...error('bad-request', 'a request needs an "op"') };
  if (typeof req.op !== 'string' || !has(OPS, req.op)) return { id, ...error('unknown-op', `unknown op ${JSON.stringify(req.op)}`) };
  try {
    return { id, ...OPS[req.op](req) };
  } catch (e) {
    // A bug here must not kill the session: report it on stderr and answer something well-formed.
    process.stderr.write(`node-build: internal error on ${line}\n${e.stack}\n`);
    return { id, ...error('bad-request', `internal error: ${e.message}`) };
  }
}

process.stdout.on('error', () => process.exit(0)); // the reader went away (EPIPE): nothing left to do

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
rl.on('line', (line) => {
  if (quitting || line.trim() === '') return;
  const response = handle(line);
  if (quitting) {
    rl.close();
    send(response, () => process.exit(0)); // exit once the answer to quit is written
  } else {
    send(response);
  }
});
// stdin closed without a quit: exit once everything written so far has been flushed.
rl.on('close', () => {
  if (!quitting) process.stdout.write('', () => process.exit(0));
});
