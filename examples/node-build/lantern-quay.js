// Lantern Quay: three rounds; each round three dice are rolled (a chance action whose faces the
// caller supplies) and placed one per slot (Salvage, Forge, Install) to turn brass into modules
// and modules into lenses. v0 resolves each die as it is placed; v1 locks all three, then resolves
// Salvage -> Forge -> Install. Written from specs/lantern-quay.md ("Faces", "Rules", "State view",
// "Actions", "Rulings"). Pure functions: apply() never changes the state it is given.
'use strict';

const NAME = 'lantern-quay';
const RULESETS = ['v0', 'v1'];
const DEFAULT_RULESET = 'v1';
const SLOTS = ['salvage', 'forge', 'install']; // also the v1 resolution order and the view's order
const ROUNDS = 3;
const LENSES = 3;

// The face table: what each slot does with a face, on a stock {brass, modules, lenses}.
const EFFECTS = {
  // LQ-SALV-1: +ceil(face / 2) brass, always.
  salvage: (s, face) => ({ ...s, brass: s.brass + Math.ceil(face / 2) }),
  // LQ-FORGE-1..3: 3-4 pay 2 for 1 module, 5-6 pay 3 for 2; all or nothing.
  forge: (s, face) => {
    if (face <= 2) return s;
    const [cost, made] = face <= 4 ? [2, 1] : [3, 2];
    return s.brass >= cost ? { ...s, brass: s.brass - cost, modules: s.modules + made } : s;
  },
  // LQ-INST-1..2: 5-6 with a module spends it and lights one lens; otherwise nothing.
  install: (s, face) => (face >= 5 && s.modules >= 1 ? { ...s, modules: s.modules - 1, lenses: s.lenses + 1 } : s),
};

const emptyPlaced = () => ({ salvage: null, forge: null, install: null });

function newGame(ruleset) {
  // LQ-START-1
  return { ruleset, round: 1, phase: 'roll', brass: 1, modules: 0, lenses: 0, dice: [], placed: emptyPlaced(), result: null };
}

function reject(code, message) {
  return { ok: false, code, message };
}

function isPlainObject(x) {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}

const sameKeys = (obj, keys) => Object.keys(obj).length === keys.length && keys.every((k) => Object.hasOwn(obj, k));

// The action's form, checked before any rule: {"type": "roll", "dice": [INT, ...]} or
// {"type": "place", "slot": STRING, "face": INT}, with exactly those keys. Anything else is not
// a Lantern Quay action at all (malformed-action / unknown-action).
function checkForm(action) {
  if (!isPlainObject(action) || !Object.hasOwn(action, 'type')) {
    return reject('malformed-action', 'an action is an object with a "type"');
  }
  if (action.type === 'roll') {
    if (!sameKeys(action, ['type', 'dice'])) return reject('malformed-action', 'a roll has exactly the keys "type" and "dice"');
    if (!Array.isArray(action.dice) || !action.dice.every(Number.isInteger)) {
      return reject('malformed-action', `"dice" is a list of integers, got ${JSON.stringify(action.dice)}`);
    }
    return null;
  }
  if (action.type === 'place') {
    if (!sameKeys(action, ['type', 'slot', 'face'])) return reject('malformed-action', 'a placement has exactly the keys "type", "slot" and "face"');
    if (typeof action.slot !== 'string' || !Number.isInteger(action.face)) {
      return reject('malformed-action', '"slot" is a slot name and "face" an integer');
    }
    return null;
  }
  return reject('unknown-action', `Lantern Quay actions are "roll" and "place"; got ${JSON.stringify(action.type)}`);
}

function roll(state, action) {
  if (state.phase === 'over') return reject('game-over', 'the game has ended');
  if (state.phase !== 'roll') return reject('wrong-phase', 'the rolled dice must be placed first; no rerolls');
  if (action.dice.length !== 3) return reject('wrong-dice-count', `a roll is three dice, not ${action.dice.length}`);
  const bad = action.dice.find((f) => f < 1 || f > 6);
  if (bad !== undefined) return reject('bad-face', `${bad} is not a face of a six-sided die`);
  return { ok: true, state: { ...state, phase: 'place', dice: action.dice.slice() } };
}

function place(state, action) {
  const { slot, face } = action;
  if (state.phase === 'over') return reject('game-over', 'the game has ended');
  if (state.phase !== 'place') return reject('wrong-phase', 'roll the dice before placing them');
  if (!SLOTS.includes(slot)) return reject('unknown-slot', `no slot ${JSON.stringify(slot)}`);
  if (state.placed[slot] !== null) return reject('slot-taken', `${slot} already holds a die this round`);
  const at = state.dice.indexOf(face);
  if (at < 0) return reject('no-such-die', `no unplaced die shows ${face}`);

  const dice = state.dice.slice();
  dice.splice(at, 1);
  let next = { ...state, dice, placed: { ...state.placed, [slot]: face } };
  // LQ-TIME-2: under v0 the die resolves now, on the stock of this moment.
  if (state.ruleset === 'v0') next = EFFECTS[slot](next, face);
  if (SLOTS.every((s) => next.placed[s] !== null)) next = endRound(next);
  return { ok: true, state: next };
}

// LQ-TIME-1, LQ-END-1, LQ-CARRY-1, R4: the third die is placed; under v1 resolve in printed
// order; then clear the dice and move on to the next round, or end the game after round 3.
function endRound(state) {
  let s = state;
  if (s.ruleset === 'v1') for (const slot of SLOTS) s = EFFECTS[slot](s, s.placed[slot]);
  s = { ...s, dice: [], placed: emptyPlaced() };
  if (s.round < ROUNDS) return { ...s, round: s.round + 1, phase: 'roll' };
  return { ...s, phase: 'over', result: s.lenses >= LENSES ? 'restored' : 'incomplete' };
}

function apply(state, action) {
  const bad = checkForm(action);
  if (bad) return bad;
  return action.type === 'roll' ? roll(state, action) : place(state, action);
}

function legal(state) {
  const out = [];
  if (state.phase === 'roll') {
    // The roll is chance: every ordered outcome of three d6 (216).
    for (let a = 1; a <= 6; a++) for (let b = 1; b <= 6; b++) for (let c = 1; c <= 6; c++) {
      out.push({ type: 'roll', dice: [a, b, c] });
    }
  } else if (state.phase === 'place') {
    const faces = [...new Set(state.dice)];
    for (const slot of SLOTS) {
      if (state.placed[slot] !== null) continue;
      for (const face of faces) out.push({ type: 'place', slot, face });
    }
  }
  return out;
}

// The canonical view, keys in the spec's order. No hidden information: every observer sees it all.
function view(state) {
  return {
    game: NAME,
    ruleset: state.ruleset,
    round: state.round,
    phase: state.phase,
    brass: state.brass,
    modules: state.modules,
    lenses: state.lenses,
    dice: state.dice.slice(),
    placed: { salvage: state.placed.salvage, forge: state.placed.forge, install: state.placed.install },
    result: state.result,
  };
}

module.exports = { NAME, RULESETS, DEFAULT_RULESET, newGame, apply, legal, view };
