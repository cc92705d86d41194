// Ludo (variant): four fixed seats, a shared 52-square loop, a six-square home column, home at 57 steps;
// a 6 enters a piece and throws again, the third six in a row is void, exact finish, automatic pass,
// captures send whole stacks home, no blockades, no capture bonus, a cap of 10,000 throws; three CPU
// levels (the `cpu` action). Dice and easy's draws come from the canonical SplitMix64 streams of the seed, and
// a tie of normal or hard is split by the seed alone (LD-CPU-4), or they are given in the action (`face`, `pick`;
// ruling LD-R14).
// Written from specs/ludo.md ("Board", "Rules", "State view", "Start and set-up", "Legal actions",
// "Actions", "The canonical streams", "Rulings"). Pure functions: apply() never changes the state it is given.
'use strict';

const NAME = 'ludo';
const RULESETS = ['v1'];
const DEFAULT_RULESET = 'v1';

// With NODE_BUILD_OWN_RANDOM=1 the build draws chance from generators of its own instead of the canonical
// streams (the seeded forms only; a given face or pick is always taken as given): one for the dice and one
// for the CPUs' draws, both seeded from the game's seed, so the same seed still gives the same game and the
// CPUs' draws leave the dice alone (LD-DICE-1, LD-CPU-5 as specs/protocol.md "A build's own chance" judges
// them). main.js then declares the capability `explicit-chance` (specs/protocol.md "Chance: seeded or given").
const OWN_RANDOM = process.env.NODE_BUILD_OWN_RANDOM === '1';

// The board table: seats in turn order (LD-SEAT-2, LD-R2) and their start squares (LD-BOARD-1).
const SEATS = ['human', 'cpu1', 'cpu2', 'cpu3'];
const START = { human: 0, cpu1: 13, cpu2: 26, cpu3: 39 };
const LOOP = 52;
const LAST_LOOP_STEP = 50; // steps 0-50 are on the loop, 51-56 the home column (LD-R1)
const HOME = 57;
const YARD = -1;
// LD-SAFE-1: the four start squares and the four star squares 8 past each start.
const SAFE = new Set([0, 8, 13, 21, 26, 34, 39, 47]);
const CAP = 10000; // LD-END-2, LD-R3
const MAX_SETUP_THROWS = 9999;
const LEVELS = ['easy', 'normal', 'hard'];

// ---------------------------------------------------------------------------------------------------
// The canonical streams ("The canonical streams"): SplitMix64, all arithmetic mod 2^64, in BigInt.

const MASK = (1n << 64n) - 1n;
const GAMMA = 0x9e3779b97f4a7c15n;
const DECISION_XOR = 0xd1b54a32d192ed03n;
// The own generators' seeds (NODE_BUILD_OWN_RANDOM=1): the game's seed with salts of this build's own.
const OWN_DICE_XOR = 0x6f776e2d64696365n;
const OWN_PICKS_XOR = 0x6f776e2d7069636bn;

// One output: returns the new state and the output.
function splitmix(state) {
  const s = (state + GAMMA) & MASK;
  let z = s;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
  return { state: s, output: z ^ (z >> 31n) };
}

// An unbiased number in [0, n): outputs are taken until one is below 2^64 - (2^64 mod n).
// Returns the number, the new state and how many outputs were taken (for `decisions`).
function below(state, n) {
  const N = BigInt(n);
  const limit = (1n << 64n) - ((1n << 64n) % N);
  let s = state;
  for (let taken = 1; ; taken++) {
    const step = splitmix(s);
    s = step.state;
    if (step.output < limit) return { value: Number(step.output % N), state: s, taken };
  }
}

// The next face of the dice stream: a number in [0, 6) plus 1.
function nextFace(diceState) {
  const drawn = below(diceState, 6);
  return { face: drawn.value + 1, state: drawn.state };
}

// ---------------------------------------------------------------------------------------------------
// Board geometry.

const nextSeat = (seat) => SEATS[(SEATS.indexOf(seat) + 1) % SEATS.length];
const onLoop = (steps) => steps >= 0 && steps <= LAST_LOOP_STEP;
const squareOf = (seat, steps) => (START[seat] + steps) % LOOP;
const mod = (a, n) => ((a % n) + n) % n;

// Where a piece at `steps` goes with `face`, or null when it cannot move (LD-ROLL-2, LD-MOVE-1, LD-MOVE-2).
function destination(steps, face) {
  if (steps === YARD) return face === 6 ? 0 : null;
  if (steps === HOME || steps + face > HOME) return null;
  return steps + face;
}

// LD-MOVE-4: every piece of the seat to play the face can move, in piece order.
function movablePieces(state, face) {
  const own = state.pieces[state.turn];
  const out = [];
  for (let i = 0; i < own.length; i++) if (destination(own[i], face) !== null) out.push(i);
  return out;
}

// The enemy pieces standing on a loop square, as [seat, index] pairs.
function enemiesOn(pieces, seat, square) {
  const out = [];
  for (const other of SEATS) {
    if (other === seat) continue;
    pieces[other].forEach((steps, i) => {
      if (onLoop(steps) && squareOf(other, steps) === square) out.push([other, i]);
    });
  }
  return out;
}

// Moves piece `index` of `seat` by `face`: the new pieces, where it landed, and how many enemy pieces
// it sent home (LD-CAP-1: a non-safe loop square; every enemy piece there, of every colour; LD-STACK-1).
function movePiece(pieces, seat, index, face) {
  const to = destination(pieces[seat][index], face);
  const next = {};
  for (const s of SEATS) next[s] = pieces[s].slice();
  next[seat][index] = to;
  let captured = 0;
  if (onLoop(to) && !SAFE.has(squareOf(seat, to))) {
    for (const [other, i] of enemiesOn(pieces, seat, squareOf(seat, to))) {
      next[other][i] = YARD;
      captured += 1;
    }
  }
  return { pieces: next, to, captured };
}

// ---------------------------------------------------------------------------------------------------
// Throws and moves.

// The throw is over: the game may end (win checked by the caller, then the cap, LD-R10); after a 6
// played or passed the seat throws again (LD-ROLL-2, LD-MOVE-3), otherwise the turn passes.
function endThrow(state, face) {
  if (state.throws >= CAP) return { ...state, phase: 'over', roll: null, sixes: 0, result: 'capped' };
  if (face === 6) return { ...state, phase: 'roll', roll: null };
  return { ...state, phase: 'roll', roll: null, sixes: 0, turn: nextSeat(state.turn) };
}

// One throw of `face` by the seat to play; `diceState` is the dice stream after this throw's face.
function doThrow(state, face, diceState) {
  const thrown = { ...state, dice: diceState, throws: state.throws + 1, lastFace: face };
  // LD-ROLL-3: the third six in a row is void, whatever it could have moved; the turn passes.
  if (face === 6 && state.sixes === 2) {
    const voided = { ...thrown, sixes: 0 };
    if (voided.throws >= CAP) return { ...voided, phase: 'over', roll: null, result: 'capped' };
    return { ...voided, phase: 'roll', roll: null, turn: nextSeat(state.turn) };
  }
  // `sixes` changes at the throw: a 6 adds one, any other face resets it (LD-R4).
  const counted = { ...thrown, sixes: face === 6 ? state.sixes + 1 : 0 };
  // LD-MOVE-3: no piece can move, the throw passes automatically.
  if (movablePieces(counted, face).length === 0) return endThrow(counted, face);
  return { ...counted, phase: 'move', roll: face };
}

// Plays the waiting face with one piece (already known to be movable).
function doMove(state, index) {
  const seat = state.turn;
  const face = state.roll;
  const moved = movePiece(state.pieces, seat, index, face);
  const next = { ...state, pieces: moved.pieces };
  // LD-END-1: the game ends the moment a seat has all four pieces home.
  if (moved.pieces[seat].every((steps) => steps === HOME)) {
    return { ...next, phase: 'over', roll: null, sixes: 0, result: seat };
  }
  return endThrow(next, face);
}

// ---------------------------------------------------------------------------------------------------
// CPU levels (LD-CPU-1 .. LD-CPU-4, rulings LD-R8, LD-R9).

// LD-R8: other advance 0, safe landing 1, entering 2, finishing 3, capturing 3 + pieces sent home;
// a move that is several things takes its highest value (the order below is highest first).
function moveValue(from, moved) {
  if (moved.captured > 0) return 3 + moved.captured;
  if (moved.to === HOME) return 3;
  if (from === YARD) return 2;
  return 0; // the safe-landing case is added by the caller, which knows the seat
}

// LD-R9: 216 x the chance that the landing square is captured on the next turn, on the position after
// the move. Safe squares, the home column and home are 0. Each enemy seat hits with k distinct faces
// (a piece on the loop that lands exactly there without turning into its home column first);
// seats combine as 216 - product(6 - k).
function risk216(pieces, seat, to) {
  if (!onLoop(to)) return 0;
  const square = squareOf(seat, to);
  if (SAFE.has(square)) return 0;
  let product = 1;
  for (const enemy of SEATS) {
    if (enemy === seat) continue;
    const faces = new Set();
    for (const steps of pieces[enemy]) {
      if (!onLoop(steps)) continue; // the yard threatens only start squares, which are safe
      const face = mod(square - squareOf(enemy, steps), LOOP);
      if (face >= 1 && face <= 6 && steps + face <= LAST_LOOP_STEP) faces.add(face);
    }
    product *= 6 - faces.size;
  }
  return 216 - product;
}

// The score a level gives each movable piece; the moves with the highest score tie for best.
function scoreMove(state, index, level) {
  const seat = state.turn;
  const from = state.pieces[seat][index];
  const moved = movePiece(state.pieces, seat, index, state.roll);
  let value = moveValue(from, moved);
  if (value === 0 && onLoop(moved.to) && SAFE.has(squareOf(seat, moved.to))) value = 1;
  if (level === 'normal') return value;
  return 216 * value - risk216(moved.pieces, seat, moved.to); // hard, exactly in 216ths
}

// The moves the level draws among: every movable piece for easy, the tied best for normal and hard.
function candidates(state, level) {
  const movable = movablePieces(state, state.roll);
  if (level === 'easy') return movable;
  const scores = movable.map((i) => scoreMove(state, i, level));
  const best = Math.max(...scores);
  return movable.filter((_, k) => scores[k] === best);
}

// ---------------------------------------------------------------------------------------------------
// Actions.

function reject(code, message) {
  return { ok: false, code, message };
}

const isPlainObject = (x) => x !== null && typeof x === 'object' && !Array.isArray(x);
const isWhole = (x) => typeof x === 'number' && Number.isInteger(x);
const onlyKeys = (obj, allowed) => Object.keys(obj).every((k) => allowed.includes(k));
const sameKeys = (obj, keys) => Object.keys(obj).length === keys.length && onlyKeys(obj, keys);
const given = (obj, key) => Object.hasOwn(obj, key) && obj[key] !== null;

// The action's form, checked before any rule, in the order of section "Actions".
function checkForm(action) {
  if (!isPlainObject(action) || !Object.hasOwn(action, 'type')) {
    return reject('malformed-action', 'an action is an object with a "type"');
  }
  const { type } = action;
  if (type === 'roll') {
    if (!onlyKeys(action, ['type', 'face'])) return reject('malformed-action', 'a roll has the keys "type" and "face" only');
    if (given(action, 'face') && !isWhole(action.face)) return reject('malformed-action', '"face" is null or a whole number');
    return null;
  }
  if (type === 'move') {
    if (!sameKeys(action, ['type', 'piece'])) return reject('malformed-action', 'a move has exactly the keys "type" and "piece"');
    if (!isWhole(action.piece)) return reject('malformed-action', '"piece" is a whole number');
    return null;
  }
  if (type === 'cpu') {
    if (!onlyKeys(action, ['type', 'level', 'pick'])) return reject('malformed-action', 'a cpu action has the keys "type", "level" and "pick" only');
    if (typeof action.level !== 'string') return reject('malformed-action', 'a cpu action needs a "level" name');
    if (given(action, 'pick') && !isWhole(action.pick)) return reject('malformed-action', '"pick" is null or a whole number');
    return null;
  }
  return reject('unknown-action', `Ludo actions are "roll", "move" and "cpu"; got ${JSON.stringify(type)}`);
}

function roll(state, action) {
  if (state.phase === 'move') return reject('wrong-phase', `a ${state.roll} waits to be played`);
  // Either way one face of the dice stream is used up, so the k-th throw stays the k-th face.
  const drawn = nextFace(state.dice);
  let face = drawn.face;
  if (given(action, 'face')) {
    if (action.face < 1 || action.face > 6) return reject('bad-face', `${action.face} is not a face of a die`);
    face = action.face;
  } else if (OWN_RANDOM) {
    const own = nextFace(state.ownDice);
    face = own.face;
    return { ok: true, state: doThrow({ ...state, ownDice: own.state }, face, drawn.state) };
  }
  return { ok: true, state: doThrow(state, face, drawn.state) };
}

function move(state, action) {
  if (state.phase === 'roll') return reject('wrong-phase', 'throw the die first');
  const { piece } = action;
  if (piece < 0 || piece > 3) return reject('no-such-piece', `no piece ${piece}; pieces are 0-3`);
  if (destination(state.pieces[state.turn][piece], state.roll) === null) {
    return reject('piece-cannot-move', `a ${state.roll} cannot move piece ${piece} of ${state.turn}`);
  }
  return { ok: true, state: doMove(state, piece) };
}

// Easy's one draw among n moves: the caller's pick, the decision stream, or (own random source) the
// build's own generator of picks. A pick stands for one output of the stream (ruling LD-R14).
function draw(state, n, action) {
  if (given(action, 'pick')) {
    if (action.pick < 0 || action.pick >= n) return reject('bad-pick', `the level draws among ${n} moves; pick 0-${n - 1}`);
    return { ok: true, value: action.pick, decision: splitmix(state.decision).state, taken: 1 };
  }
  if (OWN_RANDOM) {
    const own = below(state.ownPicks, n);
    return { ok: true, value: own.value, decision: state.decision, taken: 1, ownPicks: own.state };
  }
  const drawn = below(state.decision, n);
  return { ok: true, value: drawn.value, decision: drawn.state, taken: drawn.taken };
}

// A tie among n best moves of normal or hard, split by the seed alone (LD-CPU-4): the first number in [0, n) of
// the decision stream from its start (own random source: of the build's own generator of picks from its start),
// so the same seed splits the same board the same way whatever was drawn before; or the caller's pick in its
// place (ruling LD-R14). It takes no output of the stream.
function split(state, n, action) {
  if (given(action, 'pick')) {
    if (action.pick < 0 || action.pick >= n) return reject('bad-pick', `the level draws among ${n} moves; pick 0-${n - 1}`);
    return { ok: true, value: action.pick, decision: state.decision, taken: 0 };
  }
  const start = OWN_RANDOM ? (BigInt(state.seed) ^ OWN_PICKS_XOR) & MASK : BigInt(state.seed) ^ DECISION_XOR;
  return { ok: true, value: below(start, n).value, decision: state.decision, taken: 0 };
}

function cpu(state, action) {
  if (state.phase === 'roll') return reject('wrong-phase', 'throw the die first');
  if (!LEVELS.includes(action.level)) return reject('unknown-level', `no CPU level ${JSON.stringify(action.level)}`);
  const choices = candidates(state, action.level);
  if (choices.length === 1) return { ok: true, state: doMove(state, choices[0]) }; // draws nothing
  const drawn = action.level === 'easy' ? draw(state, choices.length, action) : split(state, choices.length, action);
  if (!drawn.ok) return drawn;
  const drawnState = { ...state, decision: drawn.decision, decisions: state.decisions + drawn.taken,
    ownPicks: drawn.ownPicks ?? state.ownPicks };
  return { ok: true, state: doMove(drawnState, choices[drawn.value]) };
}

function apply(state, action) {
  const bad = checkForm(action);
  if (bad) return bad;
  if (state.phase === 'over') return reject('game-over', 'the game has ended');
  if (action.type === 'roll') return roll(state, action);
  if (action.type === 'move') return move(state, action);
  return cpu(state, action);
}

// ---------------------------------------------------------------------------------------------------
// Start and set-up (LD-START-1, ruling LD-R11).

function checkSetup(setup) {
  const stray = Object.keys(setup).find((k) => !['pieces', 'turn', 'throws'].includes(k));
  if (stray !== undefined) return `unknown set-up key ${JSON.stringify(stray)}`;
  if (Object.hasOwn(setup, 'pieces')) {
    if (!isPlainObject(setup.pieces)) return '"pieces" maps seats to their four pieces';
    for (const [seat, four] of Object.entries(setup.pieces)) {
      if (!SEATS.includes(seat)) return `no seat ${JSON.stringify(seat)}`;
      const ok = Array.isArray(four) && four.length === 4 && four.every((p) => isWhole(p) && p >= YARD && p <= HOME);
      if (!ok) return `the pieces of ${seat} are four whole numbers from -1 to 57`;
      if (four.every((p) => p === HOME)) return `${seat} already has all four pieces home`;
    }
  }
  if (Object.hasOwn(setup, 'turn') && !SEATS.includes(setup.turn)) return `"turn" is a seat, not ${JSON.stringify(setup.turn)}`;
  if (Object.hasOwn(setup, 'throws')) {
    const t = setup.throws;
    if (!isWhole(t) || t < 0 || t > MAX_SETUP_THROWS) return `"throws" is a whole number from 0 to ${MAX_SETUP_THROWS}`;
  }
  return null;
}

function start(ruleset, seed, setup) {
  const problem = checkSetup(setup);
  if (problem) return { ok: false, message: problem };
  const theSeed = seed === null ? 0 : seed; // LD-R5
  const pieces = {};
  for (const seat of SEATS) {
    pieces[seat] = setup.pieces && setup.pieces[seat] ? setup.pieces[seat].slice() : [YARD, YARD, YARD, YARD];
  }
  const throws = setup.throws ?? 0;
  // The first throw is the next face of the dice stream after `throws` faces.
  let dice = BigInt(theSeed) & MASK;
  for (let i = 0; i < throws; i++) dice = nextFace(dice).state;
  return {
    ok: true,
    state: {
      ruleset, seed: theSeed, dice, decision: BigInt(theSeed) ^ DECISION_XOR,
      ownDice: (BigInt(theSeed) ^ OWN_DICE_XOR) & MASK, ownPicks: (BigInt(theSeed) ^ OWN_PICKS_XOR) & MASK,
      turn: setup.turn ?? 'human', phase: 'roll', roll: null, sixes: 0, lastFace: null,
      throws, decisions: 0, pieces, result: null,
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Legal actions and the view. No hidden information: `observer` is ignored.

function legal(state) {
  if (state.phase === 'roll') return [1, 2, 3, 4, 5, 6].map((face) => ({ type: 'roll', face }));
  if (state.phase === 'move') return movablePieces(state, state.roll).map((piece) => ({ type: 'move', piece }));
  return [];
}

function view(state) {
  const pieces = {};
  for (const seat of SEATS) pieces[seat] = state.pieces[seat].slice();
  return {
    game: NAME,
    ruleset: state.ruleset,
    seed: state.seed,
    turn: state.turn,
    phase: state.phase,
    roll: state.roll,
    sixes: state.sixes,
    last_face: state.lastFace,
    throws: state.throws,
    decisions: state.decisions,
    pieces,
    result: state.result,
  };
}

// LD-STAT-1: the human seat's record over a session's games. A finished game is a win or a loss; a capped
// game, or one left unfinished (result null), counts as played only.
const STATISTICS = ['played', 'won', 'lost'];
function record(rec, result) {
  const out = { ...rec, played: rec.played + 1 };
  if (result === 'human') out.won = rec.won + 1;
  else if (result !== null && result !== 'capped') out.lost = rec.lost + 1;
  return out;
}
const result = (state) => state.result;

module.exports = { NAME, RULESETS, DEFAULT_RULESET, OWN_RANDOM, STATISTICS, start, apply, legal, view, record, result };
