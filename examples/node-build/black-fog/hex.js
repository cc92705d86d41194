// Black Fog geometry and chance: axial hex tiles "q,r" (specs/black-fog.md, "The map and its
// coordinates"; rulings BF-R1-BF-R3) and the seeded SplitMix64 stream (BF-R6, specs/ludo.md).
'use strict';

const RADIUS = 5; // ring 6, the outer ring, is at distance 5 from the house
const HOUSE = '0,0';

// Die faces 1..6 in order: up, upper right, lower right, down, lower left, upper left (BF-R2).
const DIRS = [[0, -1], [1, -1], [1, 0], [0, 1], [-1, 1], [-1, 0]];

const key = (q, r) => `${q},${r}`;

// Internally every tile is its canonical key "q,r". Tiles that come from outside (set-up, move,
// choose-feed, fog) go through canon(): the spec ("The map and its coordinates") writes a tile one way
// only, q and r in decimal digits with "-" before a negative number and "0" for zero; no "+", no
// leading zero, no space, no "-0". Any other spelling names no tile.
const TILE_RE = /^(0|-?[1-9][0-9]*),(0|-?[1-9][0-9]*)$/;

// The canonical key of a tile written "q,r", or null when it is not one (on the map or not).
function canon(tile) {
  if (typeof tile !== 'string') return null;
  const m = TILE_RE.exec(tile);
  return m ? key(Number(m[1]), Number(m[2])) : null;
}

// [q, r] of a canonical key.
function parse(tile) {
  const [q, r] = tile.split(',').map(Number);
  return [q, r];
}

function distance(a, b) {
  const [aq, ar] = typeof a === 'string' ? parse(a) : a;
  const [bq, br] = typeof b === 'string' ? parse(b) : b;
  const dq = aq - bq;
  const dr = ar - br;
  return (Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2;
}

// A canonical key within 5 of the house.
const onMap = (tile) => distance(tile, HOUSE) <= RADIUS;

// The canonical key of a tile of the map written "q,r", or null.
function mapTile(text) {
  const tile = canon(text);
  return tile !== null && onMap(tile) ? tile : null;
}

// The neighbour of `tile` in die-face direction `face` (1..6), on the map or not.
function neighbour(tile, face) {
  const [q, r] = parse(tile);
  const [dq, dr] = DIRS[face - 1];
  return key(q + dq, r + dr);
}

// Ring n (1 = the house), listed from the tile straight up, clockwise (BF-R1).
// Clockwise from the top corner (0, -d): the sides run lower right, down, lower left, upper left, up, upper right.
function ring(n) {
  const d = n - 1;
  if (d === 0) return [HOUSE];
  const sides = [[1, 0], [0, 1], [-1, 1], [-1, 0], [0, -1], [1, -1]];
  const out = [];
  let q = 0;
  let r = -d;
  for (const [dq, dr] of sides) {
    for (let i = 0; i < d; i++) {
      out.push(key(q, r));
      q += dq;
      r += dr;
    }
  }
  return out;
}

const ALL_TILES = [1, 2, 3, 4, 5, 6].flatMap(ring);

// BF-R3: the step toward `target` is the first neighbour, in die-face order, one tile closer.
// It ignores water and fog; the caller decides what a step onto them does. Null when already there.
function towardFace(from, target) {
  const d = distance(from, target);
  if (d === 0) return null;
  for (let face = 1; face <= 6; face++) {
    if (distance(neighbour(from, face), target) === d - 1) return face;
  }
  return null;
}

// Lists of tiles in the view are sorted by q, then r.
function sortTiles(tiles) {
  return [...tiles].sort((a, b) => {
    const [aq, ar] = parse(a);
    const [bq, br] = parse(b);
    return aq - bq || ar - br;
  });
}

// SplitMix64 (specs/ludo.md "The canonical streams"): all arithmetic mod 2^64, with BigInt.
const MASK = (1n << 64n) - 1n;
const TWO64 = 1n << 64n;

function splitmix(s) {
  const next = (s + 0x9E3779B97F4A7C15n) & MASK;
  let z = next;
  z = ((z ^ (z >> 30n)) * 0xBF58476D1CE4E5B9n) & MASK;
  z = ((z ^ (z >> 27n)) * 0x94D049BB133111EBn) & MASK;
  return { state: next, output: z ^ (z >> 31n) };
}

// An unbiased number in [0, n) from the game's stream. `rng` is {state, draws}; it is changed in place
// (callers pass their own fresh copy). Every output taken counts as a draw, rejected ones too.
function draw(rng, n) {
  const limit = TWO64 - (TWO64 % BigInt(n));
  for (;;) {
    const { state, output } = splitmix(rng.state);
    rng.state = state;
    rng.draws += 1;
    if (output < limit) return Number(output % BigInt(n));
  }
}

module.exports = { HOUSE, DIRS, ALL_TILES, parse, canon, mapTile, distance, onMap, neighbour, ring, towardFace, sortTiles, draw, MASK };
