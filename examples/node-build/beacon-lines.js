// Beacon Lines: seven regions, one simultaneous claim per faction per round, permanent markers,
// strict-majority control, a win at 4+ points with a lead, three rounds at most.
// Written from specs/beacon-lines.md ("Board", "Rules", "State view", "Actions", "Rulings").
// Pure functions: apply() never changes the state it is given, so a rejection leaves it as it was.
'use strict';

const NAME = 'beacon-lines';
const RULESETS = ['v0', 'v1'];
const DEFAULT_RULESET = 'v1';
const FACTIONS = ['red', 'blue'];

// The board table, in its printed order (which is also the order of `control` in the view).
const REGIONS = {
  'red-home':   { kind: 'home',      owner: 'red',  adjacent: ['north-pass', 'crossroads'] },
  'blue-home':  { kind: 'home',      owner: 'blue', adjacent: ['crossroads', 'south-pass'] },
  'north-pass': { kind: 'middle',    adjacent: ['red-home', 'beacon', 'depot'] },
  'crossroads': { kind: 'middle',    adjacent: ['red-home', 'blue-home', 'beacon', 'depot'] },
  'south-pass': { kind: 'middle',    adjacent: ['blue-home', 'beacon', 'depot'] },
  'beacon':     { kind: 'objective', adjacent: ['north-pass', 'crossroads', 'south-pass'] },
  'depot':      { kind: 'objective', adjacent: ['north-pass', 'crossroads', 'south-pass'] },
};
const REGION_IDS = Object.keys(REGIONS);
// Regions that carry markers, in the view's `markers` order.
const MARKED = ['north-pass', 'crossroads', 'south-pass', 'beacon', 'depot'];
const MAX_ROUNDS = 3;
const WIN_SCORE = 4;

// BL-SCORE-2: every region is worth 1, except Beacon under v1 (base 1 + landmark bonus 1).
function value(ruleset, region) {
  return region === 'beacon' && ruleset === 'v1' ? 2 : 1;
}

function newGame(ruleset) {
  const markers = {};
  for (const r of MARKED) markers[r] = { red: 0, blue: 0 };
  return score({ ruleset, round: 1, markers, result: null });
}

// Control (BL-CTRL-2, BL-CTRL-3) and scores (BL-SCORE-1) follow from the markers.
function control(state) {
  const out = {};
  for (const r of REGION_IDS) {
    if (REGIONS[r].kind === 'home') { out[r] = REGIONS[r].owner; continue; }
    const m = state.markers[r];
    out[r] = m.red > m.blue ? 'red' : m.blue > m.red ? 'blue' : null;
  }
  return out;
}

function score(state) {
  const ctl = control(state);
  const scores = { red: 0, blue: 0 };
  for (const r of REGION_IDS) if (ctl[r]) scores[ctl[r]] += value(state.ruleset, r);
  return { ...state, control: ctl, scores };
}

// BL-TURN-2, BL-TURN-6: a non-Home region adjacent to a region the faction controls in the snapshot.
function targets(state, faction) {
  return MARKED.filter((r) => REGIONS[r].adjacent.some((n) => state.control[n] === faction));
}

function reject(code, message) {
  return { ok: false, code, message };
}

function isPlainObject(x) {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}

const sameKeys = (obj, keys) => Object.keys(obj).length === keys.length && keys.every((k) => Object.hasOwn(obj, k));
const label = (f) => f[0].toUpperCase() + f.slice(1);

// The action's form, checked before any rule: {"type": "claim", "claims": {FACTION: ENTRY, ...}}
// with exactly those keys, where an ENTRY is a region id or a non-empty list of region ids.
// Anything else is not a Beacon Lines action at all (malformed-action / unknown-action).
function checkForm(action) {
  if (!isPlainObject(action) || !Object.hasOwn(action, 'type')) {
    return reject('malformed-action', 'an action is an object with a "type"');
  }
  if (action.type !== 'claim') return reject('unknown-action', `Beacon Lines has one action, "claim"; got ${JSON.stringify(action.type)}`);
  if (!sameKeys(action, ['type', 'claims'])) return reject('malformed-action', 'a claim has exactly the keys "type" and "claims"');
  if (!isPlainObject(action.claims)) return reject('malformed-action', '"claims" maps each faction to a region');
  for (const [faction, entry] of Object.entries(action.claims)) {
    const ok = typeof entry === 'string' ||
      (Array.isArray(entry) && entry.length > 0 && entry.every((r) => typeof r === 'string'));
    if (!ok) return reject('malformed-action', `the claim of ${JSON.stringify(faction)} must be a region id, got ${JSON.stringify(entry)}`);
  }
  return null;
}

// One faction's entry against the rules. Returns {region} or a rejection.
function checkEntry(state, faction, entry) {
  if (entry === undefined) return reject('missing-claim', `${label(faction)} made no claim`);
  if (Array.isArray(entry)) {
    if (entry.length > 1) return reject('one-claim-per-round', `${label(faction)} may claim one region per round`);
    entry = entry[0];
  }
  if (!Object.hasOwn(REGIONS, entry)) return reject('unknown-region', `${JSON.stringify(entry)} is not a region of the board`);
  if (REGIONS[entry].kind === 'home') return reject('illegal-target', `${entry} is a Home and never a target`);
  if (!targets(state, faction).includes(entry)) {
    return reject('illegal-target', `${entry} is not adjacent to a region ${label(faction)} controls`);
  }
  return { region: entry };
}

function apply(state, action) {
  const bad = checkForm(action);
  if (bad) return bad;

  // Checked in the spec's order: game-over, unknown-faction, then per faction (red, blue)
  // missing-claim, one-claim-per-round, unknown-region, illegal-target.
  if (state.result !== null) return reject('game-over', 'the game has ended');
  const stranger = Object.keys(action.claims).find((f) => !FACTIONS.includes(f));
  if (stranger !== undefined) return reject('unknown-faction', `no faction ${JSON.stringify(stranger)}`);
  const chosen = {};
  for (const f of FACTIONS) {
    const got = checkEntry(state, f, action.claims[f]);
    if (got.code) return got;
    chosen[f] = got.region;
  }

  // BL-TURN-5: both claims land together; each adds one permanent marker.
  const markers = {};
  for (const r of MARKED) markers[r] = { ...state.markers[r] };
  for (const f of FACTIONS) markers[chosen[f]][f] += 1;
  const next = score({ ...state, markers });

  // BL-WIN-1 (immediate win), BL-WIN-2 (after round 3), R2 (round kept once over).
  const { red, blue } = next.scores;
  let result = null;
  if (red >= WIN_SCORE && red > blue) result = 'red';
  else if (blue >= WIN_SCORE && blue > red) result = 'blue';
  else if (state.round >= MAX_ROUNDS) result = red > blue ? 'red' : blue > red ? 'blue' : 'draw';
  return { ok: true, state: { ...next, result, round: result === null ? state.round + 1 : state.round } };
}

function legal(state) {
  if (state.result !== null) return [];
  const out = [];
  for (const red of targets(state, 'red')) {
    for (const blue of targets(state, 'blue')) out.push({ type: 'claim', claims: { red, blue } });
  }
  return out;
}

// The canonical view, keys in the spec's order. No hidden information: every observer sees it all.
function view(state) {
  const markers = {};
  for (const r of MARKED) markers[r] = { red: state.markers[r].red, blue: state.markers[r].blue };
  const ctl = {};
  for (const r of REGION_IDS) ctl[r] = state.control[r];
  return {
    game: NAME,
    ruleset: state.ruleset,
    round: state.round,
    markers,
    control: ctl,
    scores: { red: state.scores.red, blue: state.scores.blue },
    result: state.result,
  };
}

module.exports = { NAME, RULESETS, DEFAULT_RULESET, newGame, apply, legal, view };
