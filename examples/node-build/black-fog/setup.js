// Black Fog start and set-up (specs/black-fog.md, "Start and set-up"; BF-START-1, BF-MAP-1..4,
// rulings BF-R6, BF-R7). Returns {ok: true, state} or {ok: false, message} (answered `bad-request`).
'use strict';

const hex = require('./hex');
const P = require('./profile');

const SETUP_KEYS = ['map', 'animals', 'keepers', 'fog', 'feed', 'round'];
const MAP_KEYS = ['apple', 'water'];

const isPlainObject = (x) => x !== null && typeof x === 'object' && !Array.isArray(x);

class Refusal extends Error {}
function refuse(message) {
  throw new Refusal(message);
}

function tileOf(value, what) {
  const tile = hex.mapTile(value);
  if (tile === null) refuse(`${what}: ${JSON.stringify(value)} is not a tile "q,r" of the map`);
  return tile;
}

function tileList(value, what) {
  if (!Array.isArray(value)) refuse(`${what} must be a list of tiles`);
  return value.map((t) => tileOf(t, what));
}

// The set-up's own form: keys, lists, tiles, species, keepers, round.
function readSetup(setup) {
  for (const k of Object.keys(setup)) if (!SETUP_KEYS.includes(k)) refuse(`unknown set-up key ${JSON.stringify(k)}`);
  const out = {};
  if (Object.hasOwn(setup, 'map')) {
    const m = setup.map;
    if (!isPlainObject(m)) refuse('"map" must be a mapping {apple, water}');
    for (const k of Object.keys(m)) if (!MAP_KEYS.includes(k)) refuse(`unknown map key ${JSON.stringify(k)}`);
    out.map = {
      apple: Object.hasOwn(m, 'apple') ? tileList(m.apple, 'map.apple') : [],
      water: Object.hasOwn(m, 'water') ? tileList(m.water, 'map.water') : [],
    };
  }
  out.animals = P.DEFAULT_ANIMALS;
  if (Object.hasOwn(setup, 'animals')) {
    if (!Array.isArray(setup.animals)) refuse('"animals" must be a list');
    out.animals = setup.animals.map((row) => {
      if (!isPlainObject(row) || Object.keys(row).length !== 2 || !Object.hasOwn(row, 'species') || !Object.hasOwn(row, 'at')) {
        refuse('an animal is {species, at}');
      }
      if (typeof row.species !== 'string' || !Object.hasOwn(P.SPECIES, row.species)) refuse(`unknown species ${JSON.stringify(row.species)}`);
      return { species: row.species, at: tileOf(row.at, 'animal') };
    });
  }
  out.keepers = {};
  for (const k of P.KEEPERS) out.keepers[k] = hex.HOUSE;
  if (Object.hasOwn(setup, 'keepers')) {
    if (!isPlainObject(setup.keepers)) refuse('"keepers" must map keepers to tiles');
    for (const [k, tile] of Object.entries(setup.keepers)) {
      if (!P.KEEPERS.includes(k)) refuse(`unknown keeper ${JSON.stringify(k)}`);
      out.keepers[k] = tileOf(tile, `keeper ${k}`);
    }
  }
  out.fog = Object.hasOwn(setup, 'fog') ? tileList(setup.fog, 'fog') : [];
  out.feed = Object.hasOwn(setup, 'feed') ? tileList(setup.feed, 'feed') : [];
  out.round = 1;
  if (Object.hasOwn(setup, 'round')) {
    if (!Number.isInteger(setup.round) || setup.round < 1 || setup.round > P.ROUNDS) refuse('"round" is a whole number from 1 to 8');
    out.round = setup.round;
  }
  return out;
}

// BF-R6, BF-R7: for rings 2 to 6, three apple trees (rings 2-5), then n - 1 water tiles among the
// ring's other tiles that are no start tile; each pick one unbiased draw over the candidates left, in ring order.
function drawMap(rng, startTiles) {
  const apple = new Set();
  const water = new Set();
  const pick = (candidates, count, into) => {
    const left = [...candidates];
    for (let i = 0; i < count && left.length > 0; i++) {
      const [tile] = left.splice(hex.draw(rng, left.length), 1);
      into.add(tile);
    }
  };
  for (let n = 2; n <= 6; n++) {
    const tiles = hex.ring(n);
    if (n <= 5) pick(tiles, 3, apple);
    pick(tiles.filter((t) => !apple.has(t) && !startTiles.has(t)), n - 1, water);
  }
  return { apple, water };
}

// The position's own rules: what the spec lists as impossible.
function checkPosition(s) {
  for (const t of s.apple) if (s.water.has(t)) refuse(`${t} is both apple tree and water`);
  if (s.apple.has(hex.HOUSE) || s.water.has(hex.HOUSE)) refuse('the house is neither apple tree nor water');
  for (const t of s.fog) if (s.apple.has(t)) refuse(`fog on the apple tree ${t}`);
  for (const k of P.KEEPERS) if (s.fog.has(s.keepers[k].at)) refuse(`keeper ${k} on fog`);
  for (const a of s.animals) if (s.fog.has(a.at)) refuse(`animal ${a.id} on fog`);
  for (const t of s.feed) {
    if (s.fog.has(t)) refuse(`feed on fog at ${t}`);
    if (s.water.has(t)) refuse(`feed on water at ${t}`);
  }
}

function start(ruleset, seed, setup) {
  let given;
  try {
    given = readSetup(setup);
  } catch (e) {
    if (e instanceof Refusal) return { ok: false, message: e.message };
    throw e;
  }
  const seedValue = seed === null ? 0 : seed;
  const rng = { state: BigInt(seedValue) & hex.MASK, draws: 0 };
  let map = given.map;
  if (!map) {
    const startTiles = new Set([...given.animals.map((a) => a.at), ...Object.values(given.keepers)]);
    map = drawMap(rng, startTiles);
  }
  const keepers = {};
  for (const k of P.KEEPERS) keepers[k] = { at: given.keepers[k], carrying: [], lost: false, actions: 0 };
  const state = {
    ruleset,
    seed: seedValue,
    rng,
    round: given.round,
    phase: 'actions',
    pending: null,
    mover: null, // animal phase: {index, steps_left} of the animal moving now
    keepers,
    animals: given.animals.map((a, i) => ({ id: `a${i + 1}`, species: a.species, size: P.SPECIES[a.species], at: a.at, status: 'wild' })),
    apple: new Set(map.apple),
    withered: new Set(),
    water: new Set(map.water),
    fog: new Set(given.fog),
    feed: new Set(given.feed),
  };
  try {
    checkPosition(state);
  } catch (e) {
    if (e instanceof Refusal) return { ok: false, message: e.message };
    throw e;
  }
  return { ok: true, state };
}

module.exports = { start };
