// Black Fog ruleset v1: the numbers the draft leaves open (BF-R11), as the spec's section "Ruleset v1"
// prints them (species and sizes, costs, steps, the scores a-h, the default animals).
'use strict';

// Species and their sizes (§2-4 of the draft: squirrel, rabbit; deer, boar, fox; bear).
const SPECIES = {
  squirrel: 'small',
  rabbit: 'small',
  deer: 'medium',
  boar: 'medium',
  fox: 'medium',
  bear: 'large',
};

const SIZES = ['small', 'medium', 'large'];
const COST = { small: 1, medium: 2, large: 3 }; // BF-TAME-1
const STEPS = { small: 2, medium: 1, large: 1 }; // BF-ANIMAL-1
const CAPACITY = 3;

// The default animals a1..a8, one per start tile, none on the outer ring.
const DEFAULT_ANIMALS = [
  { species: 'squirrel', at: '2,-3' },
  { species: 'squirrel', at: '-3,1' },
  { species: 'rabbit', at: '-2,-2' },
  { species: 'rabbit', at: '3,0' },
  { species: 'deer', at: '0,3' },
  { species: 'boar', at: '-4,2' },
  { species: 'fox', at: '4,-2' },
  { species: 'bear', at: '1,-4' },
];

// BF-SCORE-1: a, b, c per animal saved; d, e, f per size with every species saved; g, h per loss.
const SCORE = {
  saved: { small: 1, medium: 2, large: 3 },
  bonus: { small: 2, medium: 3, large: 4 },
  lostKeeper: 3,
  lostAnimal: 1,
};

const KEEPERS = ['k1', 'k2', 'k3', 'k4']; // BF-KEEP-1
const ROUNDS = 8; // BF-ROUND-1
const FOG_RING = { 1: 6, 3: 5, 5: 4, 7: 3 }; // BF-FOG-1
const FOG_COUNT = 3;

module.exports = { SPECIES, SIZES, COST, STEPS, CAPACITY, DEFAULT_ANIMALS, SCORE, KEEPERS, ROUNDS, FOG_RING, FOG_COUNT };
