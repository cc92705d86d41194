#!/usr/bin/env node
'use strict';
// THE PROTOCOL LOOP: do not edit. Your game goes in game.js.
//
// Speaks the kit's build protocol, version 1 (specs/protocol.md), on stdin/stdout: one JSON request per line
// in, one JSON response per line out, in request order. Node 20, no dependencies. The functions of game.js may
// be synchronous or async (return promises): each request is answered before the next one is looked at.
//
//   .venv/bin/refimpl verify --impl "node examples/skeleton-js/main.js" --game beacon-lines
//
// Standard output carries responses and nothing else: main.js keeps the real stdout for them and sends
// console.log and process.stdout.write to stderr, so a stray log in your game code lands in the log, not in
// the protocol. An exception in your game code is not hidden: it is logged with the request and the process
// exits, which the kit reports as "build broke" with the last lines of stderr.

const PROTOCOL = 1;
const MAX_SEED = Number.MAX_SAFE_INTEGER; // 2^53 - 1
const OPS = new Set(['hello', 'start', 'apply', 'state', 'legal', 'restart', 'quit']);

// Before game.js is loaded: whatever it prints goes to stderr.
const stdout = process.stdout;
const writeResponse = stdout.write.bind(stdout);
stdout.write = (...args) => process.stderr.write(...args);
console.log = console.error;
console.info = console.error;
console.debug = console.error;

const game = require('./game.js');

/** A request the build cannot serve: answered `ok: false` with an `error` (protocol section "Errors"). */
class Refused extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
const has = (object, key) => Object.hasOwn(object, key);
const clip = (text) => String(text).slice(0, 300);
// JSON.parse reads `6.0` as 6, so a JavaScript build cannot tell them apart; the kit never sends `6.0`.
// `6.5`, `true` and `"6"` are not integers.
const isInt = (value) => Number.isInteger(value);
const hasLegal = () => typeof game.legal === 'function';
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** One build process: at most one game in progress, and what its `start` was given (for `restart`). */
class Session {
  constructor() {
    this.current = undefined; // the game in progress, as game.js keeps it
    this.started = null; // null: no game yet; else { ruleset, seed, setup }
  }

  /** The response to one request line (a Buffer), and whether the build must now exit (after `quit`). */
  async answer(line) {
    let id = null;
    let op;
    let fields;
    try {
      let request;
      try {
        request = JSON.parse(utf8.decode(line));
      } catch (error) {
        throw new Refused('bad-request', clip(`not JSON: ${error.message}`));
      }
      if (!isObject(request)) throw new Refused('bad-request', 'a request is a JSON object');
      if (!isInt(request.id) || request.id < 0) throw new Refused('bad-request', 'a request needs an integer id');
      id = request.id;
      op = request.op;
      if (typeof op !== 'string') throw new Refused('bad-request', 'a request needs an op (a string)');
      if (!OPS.has(op)) throw new Refused('unknown-op', clip(`unknown op ${JSON.stringify(op)}`));
      fields = await this[op](request);
    } catch (error) {
      if (!(error instanceof Refused)) throw error;
      return [{ id, ok: false, error: { code: error.code, message: error.message } }, false];
    }
    if (fields instanceof game.Rejection) {
      return [{ id, ok: false, rejected: { code: fields.code, message: fields.message } }, false];
    }
    return [{ id, ok: true, ...fields }, op === 'quit'];
  }

  // --- the ops (specs/protocol.md, "Requests and responses") ------------------------------------------------

  hello() {
    // Whatever `protocol` the kit asks for, the build answers with the one it speaks; the kit decides.
    return {
      protocol: PROTOCOL,
      build: { ...(game.BUILD || { name: 'skeleton-js' }) },
      games: { [game.NAME]: [...game.RULESETS] },
      capabilities: [...(hasLegal() ? ['legal'] : []), ...(game.EXPLICIT_CHANCE ? ['explicit-chance'] : [])],
    };
  }

  async start(request) {
    // Refused in this order: the form of every field, then an undeclared game or ruleset, then the set-up
    // (the game's own checks). A refused start changes nothing: the game in progress goes on.
    if (typeof request.game !== 'string') throw new Refused('bad-request', 'start needs a game (a string)');
    const ruleset = request.ruleset;
    if (!has(request, 'ruleset') || !(ruleset === null || typeof ruleset === 'string')) {
      throw new Refused('bad-request', 'start needs a ruleset (a string or null)');
    }
    const seed = has(request, 'seed') ? request.seed : false;
    if (!(seed === null || (isInt(seed) && seed >= 0 && seed <= MAX_SEED))) {
      throw new Refused('bad-request', 'start needs a seed: null or an integer from 0 to 2^53 - 1');
    }
    if (!isObject(request.setup)) throw new Refused('bad-request', 'start needs a setup (an object)');
    if (request.game !== game.NAME) {
      throw new Refused('unsupported', clip(`no game ${JSON.stringify(request.game)} in this build`));
    }
    const chosen = ruleset === null ? game.DEFAULT_RULESET : ruleset;
    if (!game.RULESETS.includes(chosen)) {
      throw new Refused('unsupported', clip(`no ruleset ${JSON.stringify(chosen)} for ${game.NAME}`));
    }
    const setup = request.setup;
    const state = await game.start(chosen, seed, structuredClone(setup));
    if (state instanceof game.Rejection) {
      throw new Refused('bad-request', state.message || 'a set-up this game cannot use');
    }
    this.current = state;
    this.started = { ruleset: chosen, seed, setup };
    return { state: await game.view(state, null) };
  }

  async apply(request) {
    this.needGame(); // before the form of the request: apply without action and no game is no-game
    if (!has(request, 'action')) throw new Refused('bad-request', 'apply needs an action');
    const result = await game.apply(this.current, request.action);
    if (result instanceof game.Rejection) return result; // the state stays exactly as it was
    this.current = result;
    return { state: await game.view(result, null) };
  }

  async state(request) {
    this.needGame();
    return { state: await game.view(this.current, this.observer(request)) };
  }

  async legal(request) {
    if (!hasLegal()) throw new Refused('unsupported', 'this build does not list legal actions');
    this.needGame();
    return { actions: [...await game.legal(this.current, this.observer(request))] };
  }

  async restart() {
    this.needGame();
    const { ruleset, seed, setup } = this.started;
    const state = await game.start(ruleset, seed, structuredClone(setup));
    if (state instanceof game.Rejection) { // it was accepted before: is game.start deterministic?
      throw new Refused('bad-request', clip(`restart: game.start refused its own set-up: ${state.message}`));
    }
    this.current = state;
    return { state: await game.view(state, null) };
  }

  quit() {
    return {};
  }

  // --- helpers --------------------------------------------------------------------------------------------

  needGame() {
    if (this.started === null) throw new Refused('no-game', 'no game in progress: send start first');
  }

  /** The observer of a `state` or `legal` request: null (the full view, the referee's list) or a player.
   *  A game without hidden information (no OBSERVERS) ignores it; otherwise an unknown one is bad-request. */
  observer(request) {
    const players = game.OBSERVERS;
    const observer = has(request, 'observer') ? request.observer : null;
    if (!players || players.length === 0 || observer === null) return null;
    if (typeof observer !== 'string' || !players.includes(observer)) {
      throw new Refused('bad-request', clip(`unknown observer ${JSON.stringify(observer)}`));
    }
    return observer;
  }
}

// --- the loop: read stdin a line at a time, answer each line as it comes ------------------------------------

const session = new Session();
let pending = Buffer.alloc(0); // bytes read but not yet a whole line
let queue = Promise.resolve(); // the lines in hand, answered strictly one after another
let done = false;

function exitAfterOutput() {
  done = true;
  process.stdin.pause();
  writeResponse('', () => process.exit(0)); // runs once every response written before it has gone out
}

async function handle(line) {
  if (done) return; // nothing is answered after quit
  let text;
  let quit;
  try {
    let response;
    [response, quit] = await session.answer(line);
    text = JSON.stringify(response);
  } catch (error) { // a bug in the game code: say where, then stop (the kit reports "build broke")
    process.stderr.write(`main.js: the game code failed on request ${clip(line.toString('utf8'))}\n`);
    process.stderr.write(`${error && error.stack ? error.stack : error}\n`);
    writeResponse('', () => process.exit(1));
    done = true;
    return;
  }
  writeResponse(`${text}\n`);
  if (quit) exitAfterOutput();
}

function enqueue(task) {
  queue = queue.then(task);
}

process.stdin.on('data', (chunk) => {
  pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
  let newline;
  while ((newline = pending.indexOf(0x0a)) !== -1) {
    const line = Buffer.from(pending.subarray(0, newline)); // a copy: it may be handled after this event
    pending = pending.subarray(newline + 1);
    enqueue(() => handle(line));
  }
});

process.stdin.on('end', () => {
  const last = Buffer.from(pending); // a last line without its newline
  enqueue(async () => {
    if (last.length) await handle(last);
    if (!done) exitAfterOutput(); // stdin closed: exit with status 0
  });
});

stdout.on('error', () => process.exit(0)); // the kit stopped reading (EPIPE): nothing more to say
