// Black Fog and the Apple Trees: a cooperative game on a hex map. Four keepers whistle, tame, move and
// feed to bring animals home before the black fog swallows them; the animals wander by dice or walk to
// feed; the fog appears in odd rounds and spreads in even ones, for 8 rounds.
// Written from specs/black-fog.md ("Rules", "State view", "Start and set-up", "Legal actions",
// "Actions", "Rulings"). Parts: black-fog/hex.js (tiles, SplitMix64), black-fog/profile.js (the v1
// numbers), black-fog/setup.js (start), black-fog/phases.js (animal and fog phases).
// Pure functions: apply() works on a copy, so a rejection leaves the given state as it was.
'use strict';

const hex = require('./black-fog/hex');
const P = require('./black-fog/profile');
const { start } = require('./black-fog/setup');
const phases = require('./black-fog/phases');

const NAME = 'black-fog';
const RULESETS = ['v1'];
const DEFAULT_RULESET = 'v1';

const reject = (code, message) => ({ ok: false, code, message });
const isPlainObject = (x) => x !== null && typeof x === 'object' && !Array.isArray(x);
const isStringList = (x) => Array.isArray(x) && x.every((v) => typeof v === 'string');

// ---- The form (BF-FORM-1) ----

// Each action's keys: required ones, and those that may be left out.
const FORMS = {
  whistle: { keeper: 'string' },
  tame: { keeper: 'string', animals: 'strings' },
  move: { keeper: 'string', to: 'string' },
  feed: { keeper: 'string' },
  release: { keeper: 'string', animals: 'strings?' },
  collect: { keeper: 'string' },
  'end-actions': {},
  roll: { face: 'integer?' },
  'choose-feed': { feed: 'string-or-null' },
  fog: { tiles: 'strings?' },
};

const FIELD_OK = {
  string: (v) => typeof v === 'string',
  strings: isStringList,
  integer: Number.isInteger,
  'string-or-null': (v) => v === null || typeof v === 'string',
};

function checkForm(action) {
  if (!isPlainObject(action) || typeof action.type !== 'string') {
    return reject('malformed-action', 'an action is a mapping with a string "type"');
  }
  if (!Object.hasOwn(FORMS, action.type)) return reject('unknown-action', `no action ${JSON.stringify(action.type)}`);
  const form = FORMS[action.type];
  for (const k of Object.keys(action)) {
    if (k !== 'type' && !Object.hasOwn(form, k)) return reject('malformed-action', `${action.type} has no key ${JSON.stringify(k)}`);
  }
  for (const [k, kind] of Object.entries(form)) {
    const optional = kind.endsWith('?');
    if (!Object.hasOwn(action, k)) {
      if (optional) continue;
      return reject('malformed-action', `${action.type} needs ${JSON.stringify(k)}`);
    }
    if (!FIELD_OK[kind.replace('?', '')](action[k])) return reject('malformed-action', `bad ${JSON.stringify(k)} in ${action.type}`);
  }
  return null;
}

// ---- Copying the state (apply never changes what it is given) ----

function clone(s) {
  return {
    ...s,
    rng: { ...s.rng },
    pending: s.pending && { ...s.pending, ...(s.pending.options ? { options: [...s.pending.options] } : {}) },
    mover: s.mover && { ...s.mover },
    keepers: Object.fromEntries(P.KEEPERS.map((k) => [k, { ...s.keepers[k], carrying: [...s.keepers[k].carrying] }])),
    animals: s.animals.map((a) => ({ ...a })),
    apple: new Set(s.apple),
    withered: new Set(s.withered),
    water: new Set(s.water),
    fog: new Set(s.fog),
    feed: new Set(s.feed),
  };
}

// ---- The keepers' actions (BF-ACT-1..2, BF-WHISTLE, BF-TAME, BF-MOVE, BF-FEED, BF-RELEASE, BF-COLLECT) ----

const MAIN = ['whistle', 'tame', 'move', 'feed'];
const carriedCost = (s, keeper) => keeper.carrying.reduce((sum, id) => sum + P.COST[phases.animalById(s, id).size], 0);

// The action's own rule checks, in the order of the spec's table rows. Null when allowed.
const CHECKS = {
  whistle: () => null,
  tame(s, keeper, action) {
    if (action.animals.length === 0) return reject('no-animal', 'name at least one animal to tame');
    const seen = new Set();
    for (const id of action.animals) {
      const a = phases.animalById(s, id);
      if (!a || a.status !== 'wild' || a.at !== keeper.at || seen.has(id)) return reject('not-here', `${id} is not a wild animal on ${keeper.at}`);
      seen.add(id);
    }
    const cost = action.animals.reduce((sum, id) => sum + P.COST[phases.animalById(s, id).size], 0);
    if (carriedCost(s, keeper) + cost > P.CAPACITY) return reject('over-capacity', 'a keeper holds animals costing 3 at most');
    return null;
  },
  move(s, keeper, action) {
    const to = hex.mapTile(action.to);
    if (to === null) return reject('off-map', `${JSON.stringify(action.to)} is not a tile of the map`);
    if (hex.distance(keeper.at, to) !== 1) return reject('not-adjacent', `${to} is not next to ${keeper.at}`);
    if (s.fog.has(to)) return reject('into-fog', `${to} is fog`);
    if (keeper.carrying.length > 0 && s.water.has(to)) return reject('water-while-carrying', 'no water while holding animals');
    return null;
  },
  feed(s, keeper) {
    if (s.water.has(keeper.at)) return reject('feed-on-water', 'no feed on water');
    if (s.feed.has(keeper.at)) return reject('feed-here', 'a feed token already lies here');
    return null;
  },
  release(s, keeper, action) {
    const ids = action.animals ?? keeper.carrying;
    if (ids.length === 0) return reject('not-carried', 'no animal to release');
    const seen = new Set();
    for (const id of ids) {
      if (!keeper.carrying.includes(id) || seen.has(id)) return reject('not-carried', `${keeper.at}: ${id} is not carried`);
      seen.add(id);
    }
    if (s.water.has(keeper.at)) return reject('release-on-water', 'no release on water');
    return null;
  },
  collect(s, keeper) {
    return s.feed.has(keeper.at) ? null : reject('no-feed', 'no feed token here');
  },
};

// What each action does, once allowed.
const EFFECTS = {
  whistle: (s, keeper) => phases.whistle(s, keeper),
  tame(s, keeper, action) {
    for (const id of action.animals) {
      const a = phases.animalById(s, id);
      a.status = 'carried';
      a.at = null;
      keeper.carrying.push(id);
    }
  },
  move: (s, keeper, action) => { keeper.at = hex.mapTile(action.to); },
  feed: (s, keeper) => { s.feed.add(keeper.at); },
  release(s, keeper, action) {
    const ids = action.animals ?? [...keeper.carrying];
    for (const id of ids) {
      const a = phases.animalById(s, id);
      // BF-RELEASE-1: released at the house, it is saved and leaves the board.
      if (keeper.at === hex.HOUSE) {
        a.status = 'saved';
        a.at = null;
      } else {
        a.status = 'wild';
        a.at = keeper.at;
      }
    }
    keeper.carrying = keeper.carrying.filter((id) => !ids.includes(id));
  },
  collect: (s, keeper) => { s.feed.delete(keeper.at); },
};

function keeperAction(state, action) {
  if (state.phase !== 'actions') return reject('wrong-phase', `no keeper acts in phase ${state.phase}`);
  if (!P.KEEPERS.includes(action.keeper)) return reject('no-keeper', `no keeper ${JSON.stringify(action.keeper)}`);
  if (state.keepers[action.keeper].lost) return reject('keeper-lost', `${action.keeper} was taken by the fog`);
  const main = MAIN.includes(action.type);
  if (main && state.keepers[action.keeper].actions >= 3) return reject('no-actions-left', `${action.keeper} has taken its three actions`);
  const refused = CHECKS[action.type](state, state.keepers[action.keeper], action);
  if (refused) return refused;
  const s = clone(state);
  const keeper = s.keepers[action.keeper];
  EFFECTS[action.type](s, keeper, action);
  if (main) keeper.actions += 1;
  return { ok: true, state: s };
}

// ---- The other actions ----

function endActions(state) {
  if (state.phase !== 'actions') return reject('wrong-phase', 'not in the action phase');
  const s = clone(state);
  phases.beginAnimals(s);
  return { ok: true, state: s };
}

function roll(state, action) {
  if (!state.pending || state.pending.needs !== 'roll') return reject('wrong-phase', 'no die is wanted now');
  const given = Object.hasOwn(action, 'face');
  if (given && (action.face < 1 || action.face > 6)) return reject('bad-face', `no face ${action.face}`);
  const s = clone(state);
  // Without a face the die is the next number of the seeded stream (BF-R6).
  phases.rolled(s, given ? action.face : hex.draw(s.rng, 6) + 1);
  return { ok: true, state: s };
}

function chooseFeed(state, action) {
  if (!state.pending || state.pending.needs !== 'feed') return reject('wrong-phase', 'no feed choice is wanted now');
  const feed = action.feed === null ? null : hex.mapTile(action.feed);
  if ((action.feed !== null && feed === null) || !state.pending.options.includes(feed)) {
    return reject('not-an-option', `${JSON.stringify(action.feed)} is not on offer`);
  }
  const s = clone(state);
  phases.chose(s, feed);
  return { ok: true, state: s };
}

function fog(state, action) {
  if (!state.pending || state.pending.needs !== 'fog') return reject('wrong-phase', 'no fog is wanted now');
  const s = clone(state);
  let tiles;
  // Explicit tiles are checked after reading each one as a tile (canonical spelling); without them,
  // the seeded stream picks (BF-R6).
  if (Object.hasOwn(action, 'tiles')) {
    const eligible = phases.fogEligible(state);
    tiles = action.tiles.map(hex.mapTile);
    const ok = tiles.length === phases.fogCount(state) &&
      new Set(tiles).size === tiles.length && tiles.every((t) => eligible.includes(t));
    if (!ok) return reject('bad-fog', `the fog needs ${phases.fogCount(state)} distinct eligible tiles of ring ${state.pending.ring}`);
  } else {
    tiles = phases.seededFog(s);
  }
  phases.appear(s, tiles);
  return { ok: true, state: s };
}

const HANDLERS = { 'end-actions': endActions, roll, 'choose-feed': chooseFeed, fog };

function apply(state, action) {
  const bad = checkForm(action);
  if (bad) return bad;
  if (state.phase === 'over') return reject('game-over', 'the game is over');
  if (Object.hasOwn(HANDLERS, action.type)) return HANDLERS[action.type](state, action);
  return keeperAction(state, action);
}

// ---- Legal actions ----

// Every non-empty subset of `items`, each in the order of `items`.
function subsets(items) {
  const out = [];
  for (let mask = 1; mask < 1 << items.length; mask++) out.push(items.filter((_, i) => mask & (1 << i)));
  return out;
}

const setupOrder = (s, ids) => s.animals.filter((a) => ids.includes(a.id)).map((a) => a.id);

function keeperLegal(s, k) {
  const keeper = s.keepers[k];
  const out = [];
  if (keeper.actions < 3) {
    out.push({ type: 'whistle', keeper: k });
    for (let face = 1; face <= 6; face++) {
      const to = hex.neighbour(keeper.at, face);
      if (hex.onMap(to) && !s.fog.has(to) && !(keeper.carrying.length > 0 && s.water.has(to))) out.push({ type: 'move', keeper: k, to });
    }
    if (!s.water.has(keeper.at) && !s.feed.has(keeper.at)) out.push({ type: 'feed', keeper: k });
    const room = P.CAPACITY - carriedCost(s, keeper);
    const here = s.animals.filter((a) => a.status === 'wild' && a.at === keeper.at).map((a) => a.id);
    for (const set of subsets(here)) {
      const cost = set.reduce((sum, id) => sum + P.COST[phases.animalById(s, id).size], 0);
      if (cost <= room) out.push({ type: 'tame', keeper: k, animals: set });
    }
  }
  if (!s.water.has(keeper.at)) {
    for (const set of subsets(setupOrder(s, keeper.carrying))) out.push({ type: 'release', keeper: k, animals: set });
  }
  if (s.feed.has(keeper.at)) out.push({ type: 'collect', keeper: k });
  return out;
}

function legal(s) {
  if (s.phase === 'actions') {
    const out = [{ type: 'end-actions' }];
    for (const k of P.KEEPERS) if (!s.keepers[k].lost) out.push(...keeperLegal(s, k));
    return out;
  }
  if (s.phase === 'animals' && s.pending.needs === 'roll') return [1, 2, 3, 4, 5, 6].map((face) => ({ type: 'roll', face }));
  if (s.phase === 'animals') return s.pending.options.map((feed) => ({ type: 'choose-feed', feed }));
  if (s.phase === 'fog') return [{ type: 'fog' }];
  return [];
}

// ---- The view ----

// BF-SCORE-1 (BF-R13): kept up to date at every moment.
function score(s) {
  const saved = s.animals.filter((a) => a.status === 'saved');
  const savedPoints = saved.reduce((sum, a) => sum + P.SCORE.saved[a.size], 0);
  let bonus = 0;
  for (const size of P.SIZES) {
    const species = Object.keys(P.SPECIES).filter((sp) => P.SPECIES[sp] === size);
    if (species.every((sp) => saved.some((a) => a.species === sp))) bonus += P.SCORE.bonus[size];
  }
  const lostKeepers = -P.SCORE.lostKeeper * P.KEEPERS.filter((k) => s.keepers[k].lost).length;
  const lostAnimals = -P.SCORE.lostAnimal * s.animals.filter((a) => a.status === 'lost').length;
  return { saved: savedPoints, species_bonus: bonus, lost_keepers: lostKeepers, lost_animals: lostAnimals,
    total: savedPoints + bonus + lostKeepers + lostAnimals };
}

function view(s) {
  const keepers = {};
  for (const k of P.KEEPERS) {
    const kp = s.keepers[k];
    keepers[k] = { at: kp.at, carrying: [...kp.carrying], lost: kp.lost, actions: kp.actions };
  }
  const animals = {};
  for (const a of s.animals) animals[a.id] = { species: a.species, size: a.size, at: a.at, status: a.status };
  let pending = null;
  if (s.pending) {
    pending = s.pending.needs === 'fog' ? { needs: 'fog', ring: s.pending.ring }
      : { animal: s.pending.animal, steps_left: s.pending.steps_left, needs: s.pending.needs,
        ...(s.pending.needs === 'feed' ? { options: [...s.pending.options] } : {}) };
  }
  return {
    game: NAME,
    ruleset: s.ruleset,
    seed: s.seed,
    round: s.round,
    phase: s.phase,
    pending,
    keepers,
    animals,
    map: {
      apple: hex.sortTiles(s.apple),
      withered: hex.sortTiles(s.withered),
      water: hex.sortTiles(s.water),
      fog: hex.sortTiles(s.fog),
      feed: hex.sortTiles(s.feed),
    },
    score: score(s),
    draws: s.rng.draws,
  };
}

module.exports = { NAME, RULESETS, DEFAULT_RULESET, start, apply, legal, view };
