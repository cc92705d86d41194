// refimpl-adapter.mjs: the build protocol's plumbing (specs/protocol.md, version 1) for a game written in
// JavaScript, in a web page or in Node. Written by `refimpl adapter js`; do not edit (write it again to update).
//
// A game supplies its rules in the protocol's words (see refimpl-adapter.d.ts, `Game`); this module does the
// rest: ids, hello, the form of every request, start's refusals in the protocol's order, restart, observers,
// the generic form of an action, rejections and errors, and the statistics of games that keep a record.
//
//   import { createHandler, exposeInPage, reject } from './refimpl-adapter.mjs';
//   const handler = createHandler([myGame], { build: { name: 'my-page', version: '1.0.0' } });
//   exposeInPage(handler);      // a web page: window.refimpl.handle(request), for refimpl verify --page
//   serveStdio(handler);        // or Node: JSON Lines on stdin/stdout, for refimpl verify --impl "node main.mjs"
//
// Plain ES module, no dependencies; works in any browser with modules and in Node 18 or later, in a
// "type": "module" project or a CommonJS one (the .mjs name makes it a module either way).

export const PROTOCOL = 1;
const MAX_SEED = Number.MAX_SAFE_INTEGER; // 2^53 - 1
const OPS = ['hello', 'start', 'apply', 'state', 'legal', 'restart', 'stats', 'quit'];

/** A refusal of an action by the rules: `code` is the spec's rejection code (only it is compared). */
export class Rejection {
  constructor(code, message = '') {
    this.code = code;
    this.message = message;
  }
}

/** `reject(code, why)`: what `apply` returns for an action the rules forbid, and `start` for a set-up it
 *  cannot use (answered `bad-request`). */
export function reject(code, message = '') {
  return new Rejection(code, message);
}

class Refused extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
const has = (object, key) => Object.prototype.hasOwnProperty.call(object, key);
const clip = (text) => String(text).slice(0, 300);
const copy = (value) => JSON.parse(JSON.stringify(value));

/** The protocol for `games` (an array of Game objects, refimpl-adapter.d.ts). `options.build`: the name and
 *  version `hello` gives. Returns `{ handle(request) -> Promise<answer> }`, one session (one game in
 *  progress, and the records of the session). */
export function createHandler(games, options = {}) {
  const list = Array.isArray(games) ? games : [games];
  const byName = new Map();
  for (const game of list) {
    for (const key of ['name', 'rulesets', 'start', 'apply', 'view']) {
      if (!game || game[key] === undefined) throw new TypeError(`a game needs "${key}" (refimpl-adapter.d.ts)`);
    }
    byName.set(game.name, game);
  }
  return new Session(byName, options.build || { name: 'refimpl-adapter-build', version: '0.0.0' });
}

class Session {
  constructor(games, build) {
    this.games = games;
    this.build = build;
    this.current = null; // { game, ruleset, seed, setup, state }
    this.records = {};
    for (const [name, game] of games) {
      if (game.statistics) this.records[name] = Object.fromEntries(game.statistics.keys.map((k) => [k, 0]));
    }
    this.counting = false; // the game in progress is not counted yet
  }

  /** The answer to one request (a parsed JSON value). Never throws for a request's content: a bug in a game's
   *  code rejects the promise (the kit then reports the build broken, which says more than a made-up code). */
  async handle(request) {
    let id = null;
    try {
      if (!isObject(request)) throw new Refused('bad-request', 'a request is a JSON object');
      if (!Number.isInteger(request.id) || request.id < 0) throw new Refused('bad-request', 'a request needs an integer id');
      id = request.id;
      const op = request.op;
      if (typeof op !== 'string') throw new Refused('bad-request', 'a request needs an op (a string)');
      if (!OPS.includes(op)) throw new Refused('unknown-op', clip(`unknown op ${JSON.stringify(op)}`));
      const fields = await this[op](request);
      if (fields instanceof Rejection) {
        return { id, ok: false, rejected: { code: fields.code, message: clip(fields.message) } };
      }
      return { id, ok: true, ...fields };
    } catch (error) {
      if (!(error instanceof Refused)) throw error;
      return { id, ok: false, error: { code: error.code, message: error.message } };
    }
  }

  hello() {
    const games = {};
    for (const [name, game] of this.games) games[name] = [...game.rulesets];
    const all = [...this.games.values()];
    const capabilities = [];
    if (all.some((g) => typeof g.legal === 'function')) capabilities.push('legal');
    capabilities.push('stats');
    if (all.some((g) => g.explicitChance)) capabilities.push('explicit-chance');
    return { protocol: PROTOCOL, build: { ...this.build }, games, capabilities };
  }

  async start(request) {
    // Refused in this order: the form of every field, an undeclared game or ruleset, the set-up (the game's own
    // checks). A refused start changes nothing.
    for (const field of ['game', 'ruleset', 'seed', 'setup']) {
      if (!has(request, field)) throw new Refused('bad-request', `start needs "${field}"`);
    }
    const { game: name, ruleset, seed, setup } = request;
    if (typeof name !== 'string') throw new Refused('bad-request', '"game" must be a name');
    if (!(ruleset === null || typeof ruleset === 'string')) throw new Refused('bad-request', '"ruleset" must be a name or null');
    if (!(seed === null || (Number.isInteger(seed) && seed >= 0 && seed <= MAX_SEED))) {
      throw new Refused('bad-request', '"seed" must be null or an integer from 0 to 2^53 - 1');
    }
    if (!isObject(setup)) throw new Refused('bad-request', '"setup" must be an object');
    const game = this.games.get(name);
    if (!game) throw new Refused('unsupported', clip(`no game ${JSON.stringify(name)} in this build`));
    const chosen = ruleset === null ? (game.defaultRuleset ?? game.rulesets[0]) : ruleset;
    if (!game.rulesets.includes(chosen)) throw new Refused('unsupported', clip(`no ruleset ${JSON.stringify(chosen)} for ${name}`));
    const state = await game.start(chosen, seed, copy(setup));
    if (state instanceof Rejection) throw new Refused('bad-request', clip(state.message || 'a set-up this game cannot use'));
    this.leave();
    this.current = { game, ruleset: chosen, seed, setup: copy(setup), state };
    this.begin();
    return { state: await game.view(state, null) };
  }

  async apply(request) {
    const current = this.need(); // before the request's form: apply without action and no game is no-game
    if (!has(request, 'action')) throw new Refused('bad-request', 'apply needs "action"');
    const action = request.action;
    if (!isObject(action) || !has(action, 'type')) {
      return reject('malformed-action', 'an action is an object with a "type"');
    }
    const next = await current.game.apply(current.state, action);
    if (next instanceof Rejection) return next; // the state stays exactly as it was
    current.state = next;
    await this.ended();
    return { state: await current.game.view(next, null) };
  }

  async state(request) {
    const current = this.need();
    return { state: await current.game.view(current.state, this.observer(current.game, request)) };
  }

  async legal(request) {
    const current = this.need();
    if (typeof current.game.legal !== 'function') throw new Refused('unsupported', 'this game does not list legal actions');
    const observer = this.observer(current.game, request);
    return { actions: [...await current.game.legal(current.state, observer)] };
  }

  async restart() {
    const current = this.need();
    const state = await current.game.start(current.ruleset, current.seed, copy(current.setup));
    if (state instanceof Rejection) throw new Error(`restart: the game refused its own set-up: ${state.message}`);
    this.leave();
    current.state = state;
    this.begin();
    return { state: await current.game.view(state, null) };
  }

  stats() {
    return { stats: copy(this.records) };
  }

  quit() {
    return {};
  }

  // --- helpers ---------------------------------------------------------------------------------------------

  need() {
    if (this.current === null) throw new Refused('no-game', 'no game started');
    return this.current;
  }

  /** The observer of `state` or `legal`: null, or a player of a game with hidden information (`observers`);
   *  a game without them ignores it; an unknown one is bad-request. */
  observer(game, request) {
    const observer = has(request, 'observer') ? request.observer : null;
    if (!game.observers || observer === null) return null;
    if (typeof observer !== 'string' || !game.observers.includes(observer)) {
      throw new Refused('bad-request', clip(`unknown observer ${JSON.stringify(observer)}`));
    }
    return game.nullObservers && game.nullObservers.includes(observer) ? null : observer;
  }

  // Statistics (protocol "stats"): a game is counted once, when it ends, or unfinished (result null) when a
  // start or restart leaves it. A refused start leaves nothing.
  begin() {
    this.counting = Boolean(this.current.game.statistics);
  }

  leave() {
    if (this.counting && this.current) this.count(null);
  }

  async ended() {
    const { game, state } = this.current;
    if (this.counting && typeof game.result === 'function') {
      const result = await game.result(state);
      if (result !== null && result !== undefined) this.count(result);
    }
  }

  count(result) {
    const name = this.current.game.name;
    this.records[name] = this.current.game.statistics.record({ ...this.records[name] }, result);
    this.counting = false;
  }
}

/** Make `handler` the page's protocol object: `window.refimpl.handle(request)` (refimpl verify --page). */
export function exposeInPage(handler, name = 'refimpl') {
  globalThis[name] = { handle: (request) => handler.handle(request) };
  return globalThis[name];
}

/** Serve `handler` on standard input and output as JSON Lines (Node): each line answered in order, the next
 *  read only once the answer is written; exit after `quit` or at the end of input. Console output goes to
 *  standard error, so a stray log never lands among the answers. */
export function serveStdio(handler) {
  const proc = globalThis.process;
  const out = proc.stdout.write.bind(proc.stdout);
  proc.stdout.write = (...args) => proc.stderr.write(...args);
  for (const level of ['log', 'info', 'debug']) console[level] = console.error;
  let pending = '';
  let queue = Promise.resolve();
  let done = false;
  const finish = () => {
    done = true;
    proc.stdin.pause();
    out('', () => proc.exit(0));
  };
  const answer = async (line) => {
    if (done) return;
    let request;
    try {
      request = JSON.parse(line.replace(/\r$/, ''));
    } catch (error) {
      out(JSON.stringify({ id: null, ok: false, error: { code: 'bad-request', message: clip(`not JSON: ${error.message}`) } }) + '\n');
      return;
    }
    let response;
    try {
      response = await handler.handle(request);
    } catch (error) {
      proc.stderr.write(`refimpl-adapter: the game's code threw on ${clip(line)}\n${error && error.stack}\n`);
      proc.exit(70);
    }
    out(JSON.stringify(response) + '\n');
    if (isObject(request) && request.op === 'quit') finish();
  };
  proc.stdin.setEncoding('utf8');
  proc.stdin.on('data', (chunk) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop();
    for (const line of lines) queue = queue.then(() => answer(line)); // a blank line too: not JSON
  });
  proc.stdin.on('end', () => {
    queue = queue.then(() => (done ? null : finish()));
  });
  proc.stdout.on('error', () => proc.exit(0));
}
