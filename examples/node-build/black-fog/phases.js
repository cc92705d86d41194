// Black Fog: what happens on the board. Every function here changes the state it is given, which is
// always the caller's fresh copy (black-fog.js clones before applying anything).
'use strict';

const hex = require('./hex');
const P = require('./profile');

// BF-FOG-4, BF-R8, BF-R12: the fog covers a tile. Keepers there are lost with what they carry,
// wild animals there are lost, a feed token there is gone.
function cover(s, tile) {
  s.fog.add(tile);
  s.feed.delete(tile);
  for (const k of P.KEEPERS) {
    const keeper = s.keepers[k];
    if (keeper.lost || keeper.at !== tile) continue;
    keeper.lost = true;
    for (const id of keeper.carrying) loseAnimal(s, animalById(s, id));
    keeper.carrying = [];
  }
  for (const a of s.animals) if (a.status === 'wild' && a.at === tile) loseAnimal(s, a);
}

function loseAnimal(s, a) {
  a.status = 'lost';
  a.at = null;
}

const animalById = (s, id) => s.animals.find((a) => a.id === id);

// One step of a wild animal in die-face direction `face` (BF-ANIMAL-5, BF-WHISTLE-2/3): off the map
// or onto water it stays; into fog it goes and is lost. Fogged water is still water: the animal
// stays (BF-R5: water wins).
function step(s, a, face) {
  const to = hex.neighbour(a.at, face);
  if (!hex.onMap(to) || s.water.has(to)) return;
  if (s.fog.has(to)) {
    loseAnimal(s, a);
    return;
  }
  a.at = to;
}

// BF-WHISTLE-1..3: every wild animal 1 or 2 tiles from the keeper takes one step toward it.
function whistle(s, keeper) {
  for (const a of s.animals) {
    if (a.status !== 'wild') continue;
    const d = hex.distance(a.at, keeper.at);
    if (d < 1 || d > 2) continue;
    step(s, a, hex.towardFace(a.at, keeper.at));
  }
}

// The feed tokens within 2 tiles of a tile, sorted.
const feedNear = (s, tile) => hex.sortTiles([...s.feed].filter((t) => hex.distance(t, tile) <= 2));

// ---- The animal movement phase (BF-ANIMAL-1..6, BF-R15) ----

// Start the phase: the first wild animal, in set-up order, begins its steps.
function beginAnimals(s) {
  s.phase = 'animals';
  s.mover = null;
  nextMover(s, 0);
  advance(s);
}

function nextMover(s, from) {
  const index = s.animals.findIndex((a, i) => i >= from && a.status === 'wild');
  s.mover = index < 0 ? null : { index, steps_left: P.STEPS[s.animals[index].size] };
}

// Play every step that needs no input; stop at a die or a feed choice, or go on to the fog phase.
function advance(s) {
  s.pending = null;
  while (s.mover) {
    const a = s.animals[s.mover.index];
    if (a.status !== 'wild' || s.mover.steps_left === 0) {
      nextMover(s, s.mover.index + 1);
      continue;
    }
    const near = feedNear(s, a.at);
    const onFeed = s.feed.has(a.at);
    const others = near.filter((t) => t !== a.at);
    if (onFeed && others.length === 0) {
      s.mover.steps_left -= 1; // BF-ANIMAL-4: it stays on its feed
    } else if (onFeed) {
      s.pending = { animal: a.id, steps_left: s.mover.steps_left, needs: 'feed', options: [null, ...others] };
      return;
    } else if (near.length === 1) {
      step(s, a, hex.towardFace(a.at, near[0])); // BF-ANIMAL-2: walk toward it, no die
      s.mover.steps_left -= 1;
    } else if (near.length > 1) {
      s.pending = { animal: a.id, steps_left: s.mover.steps_left, needs: 'feed', options: near }; // BF-ANIMAL-3
      return;
    } else {
      s.pending = { animal: a.id, steps_left: s.mover.steps_left, needs: 'roll' };
      return;
    }
  }
  beginFog(s);
}

// A die for the moving animal's step.
function rolled(s, face) {
  step(s, s.animals[s.mover.index], face);
  s.mover.steps_left -= 1;
  advance(s);
}

// A feed choice for the moving animal's step: a tile to walk toward, or null to stay on its feed.
function chose(s, tile) {
  const a = s.animals[s.mover.index];
  if (tile !== null) step(s, a, hex.towardFace(a.at, tile));
  s.mover.steps_left -= 1;
  advance(s);
}

// ---- The fog phase (BF-FOG-1..4) ----

function beginFog(s) {
  s.phase = 'fog';
  s.mover = null;
  if (s.round % 2 === 1) {
    s.pending = { needs: 'fog', ring: P.FOG_RING[s.round] };
    return;
  }
  spread(s);
  endRound(s);
}

// BF-FOG-1, BF-R14: the tiles of the fog's ring it may appear on, in ring order.
function fogEligible(s) {
  const ring = P.FOG_RING[s.round];
  return hex.ring(ring).filter((t) => !s.apple.has(t) && !s.withered.has(t) && !s.fog.has(t));
}

const fogCount = (s) => Math.min(P.FOG_COUNT, fogEligible(s).length);

// The seeded fog: one draw per tile over the eligible tiles left, in ring order.
function seededFog(s) {
  const left = fogEligible(s);
  const chosen = [];
  const count = Math.min(P.FOG_COUNT, left.length);
  for (let i = 0; i < count; i++) chosen.push(...left.splice(hex.draw(s.rng, left.length), 1));
  return chosen;
}

function appear(s, tiles) {
  for (const t of tiles) cover(s, t);
  s.pending = null;
  endRound(s);
}

// BF-FOG-2, BF-FOG-3: from the fog as it was, one tile further; healthy trees wither instead,
// trees withered before are taken.
function spread(s) {
  const reached = new Set();
  for (const t of s.fog) {
    for (let face = 1; face <= 6; face++) {
      const n = hex.neighbour(t, face);
      if (hex.onMap(n) && !s.fog.has(n)) reached.add(n);
    }
  }
  const taken = [...s.withered];
  s.withered = new Set();
  for (const t of reached) {
    if (s.apple.has(t)) {
      s.apple.delete(t);
      s.withered.add(t);
    } else if (!taken.includes(t)) {
      cover(s, t);
    }
  }
  for (const t of taken) cover(s, t);
}

// BF-ROUND-1: after the fog phase the next round begins, or the game is over after round 8.
function endRound(s) {
  s.pending = null;
  if (s.round >= P.ROUNDS) {
    s.phase = 'over';
    return;
  }
  s.round += 1;
  s.phase = 'actions';
  for (const k of P.KEEPERS) s.keepers[k].actions = 0;
}

module.exports = { cover, whistle, step, animalById, beginAnimals, rolled, chose, fogEligible, fogCount, seededFog, appear, feedNear };
