// Conquest King (征服王): two kingdoms, a hidden deployment with one ambush (伏兵) each, alternating
// phases of movement and combined attacks whose dice are explicit chance actions, victory by the
// enemy King's death or by holding both squares beside the enemy castle, and a lobby clock that
// deletes, resets, cuts phases short and archives games. Written from specs/conquest-king.md
// ("Rules", "State view", "Start and set-up", "Legal actions", "Actions", "Play in detail",
// "The lobby clock in detail", "Rulings"). Hidden information: each side's view and legal list
// leave out what it cannot see (CK-HIDE-1). Pure functions: apply() never changes its input.
'use strict';

const NAME = 'conquest-king';
const RULESETS = ['v1'];
const DEFAULT_RULESET = 'v1';
const SIDES = ['sparkia', 'gaias']; // Sparkia moves first (CK-R3); also the victory-check order
// The two sides hide things from each other. `referee` is listed too because the kit asks for the
// referee's view by that name as well as by null (log point 27); main.js refuses any other name.
const OBSERVERS = [...SIDES, 'referee'];
const ENEMY = { sparkia: 'gaias', gaias: 'sparkia' };

const WIDTH = 16;
const HEIGHT = 8;
const BUDGET = 500;

// The profile's tables (spec "table:units", "table:terrain"). price null: cannot be bought.
const UNITS = {
  'king':           { attack: 4, movement: 2, price: null },
  'light-infantry': { attack: 3, movement: 3, price: 20 },
  'heavy-infantry': { attack: 5, movement: 2, price: 40 },
  'cavalry':        { attack: 4, movement: 5, price: 60 },
  'spearmen':       { attack: 4, movement: 3, price: 35 },
  'archers':        { attack: 2, movement: 3, price: 25 },
};
const BUYABLE = Object.keys(UNITS).filter((k) => UNITS[k].price !== null);
const TERRAIN = {
  '.': { cost: 1, modifier: 0 },
  'f': { cost: 2, modifier: 1 },
  'h': { cost: 2, modifier: 1 },
  'r': { cost: 2, modifier: -1 },
  'm': { cost: null, modifier: 0 }, // impassable
};

// The profile's map. The spec prints only its first row; the rest was read from the reference's
// start state (log point 1).
const DEFAULT_MAP = [
  '......f...r.....',
  '..f.......r..h..',
  '......h...r.....',
  '....m.....r...f.',
  '.f...r....r.....',
  '..h..r........f.',
  '.....r....h.....',
  '..........m.....',
];

// CK-R1: castles in opposite corners; deployment zones within 5 columns of the own castle.
const CASTLE = { sparkia: [0, 0], gaias: [15, 7] };
const ZONE = { sparkia: [0, 5], gaias: [10, 15] };
const FACING = { sparkia: 'e', gaias: 'w' }; // CK-R12
const DIRS = { n: [0, -1], e: [1, 0], s: [0, 1], w: [-1, 0] };
const FACINGS = Object.keys(DIRS);

// Lobby deadlines, in minutes (The lobby clock in detail; CK-R11).
const DELETE_AFTER = 1440;
const RESET_AFTER = 1440;
const ALONE_AFTER = 120;
const PHASE_LIMIT = 720;
const ARCHIVE_AFTER = { normal: 60, realtime: 30 };

// ---------------------------------------------------------------------------------------------
// Whole numbers (protocol "Numbers"): the kit sends only safe integers, and the game keeps its own within
// that range (a set-up turn is at most 9,999, a wait may not carry the clock past 2^53 - 1), so plain
// numbers are exact. A deadline past the range may be rounded, but only ever compared with a clock inside it.
const MAX_TURN = 9999;
const isWhole = (v) => Number.isInteger(v);
const plus = (a, b) => a + b;
const earlier = (a, b) => a - b;

// ---------------------------------------------------------------------------------------------
// Small helpers

const reject = (code, message) => ({ ok: false, code, message });
const isPlainObject = (x) => x !== null && typeof x === 'object' && !Array.isArray(x);
const has = (obj, key) => Object.prototype.hasOwnProperty.call(obj, key);
const same = (a, b) => a[0] === b[0] && a[1] === b[1];
const onMap = ([x, y]) => x >= 0 && x < WIDTH && y >= 0 && y < HEIGHT;
const step = ([x, y], f) => [x + DIRS[f][0], y + DIRS[f][1]];
const adjacent = (a, b) => Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) === 1;
const letterAt = (state, [x, y]) => state.terrain[y][x];
const isCastle = (at) => same(at, CASTLE.sparkia) || same(at, CASTLE.gaias);
const isSquare = (v) => Array.isArray(v) && v.length === 2 && v.every(isWhole);
const clone = (x) => structuredClone(x);

// The facing from square a towards the adjacent square b.
function facingTowards(a, b) {
  return FACINGS.find((f) => same(step(a, f), b));
}

function unitNumber(unit) {
  const tail = unit.id.slice(unit.side.length + 1);
  return tail === 'king' ? 0 : Number(tail);
}

// The view's unit order: gaias before sparkia, the king first, then by number.
function unitOrder(a, b) {
  if (a.side !== b.side) return a.side < b.side ? -1 : 1;
  return unitNumber(a) - unitNumber(b);
}

const visibleAt = (state, at) => state.units.find((u) => !u.hidden && same(u.at, at));
const hiddenAmbushOf = (state, side) => state.units.find((u) => u.side === side && u.hidden);
const unitById = (state, id) => state.units.find((u) => u.id === id);

// ---------------------------------------------------------------------------------------------
// Start and set-up

function newUnit(id, side, kind, at, facing, ambush) {
  return { id, side, kind, at: at.slice(), facing, moved: false, ambush, hidden: false };
}

function kingOf(side) {
  return newUnit(`${side}-king`, side, 'king', CASTLE[side], FACING[side], false);
}

function baseState(terrain, field) {
  return {
    terrain,
    phase: 'deploy',
    turn: 1,
    side: 'sparkia',
    units: [kingOf('gaias'), kingOf('sparkia')],
    nextNumber: { sparkia: 1, gaias: 1 }, // deployment ids: a number is never used again
    deployment: { sparkia: { gold: BUDGET, complete: 0 }, gaias: { gold: BUDGET, complete: 0 } },
    combat: null,
    queue: [], // the fights of the current move still to come: [{kind, striker, target}]
    last_combat: null,
    result: null,
    lobby: { field, clock: 0, registered: { sparkia: null, gaias: null }, archived: false },
    phaseBegan: 0, // the minute the current side's phase began (the 720-minute limit)
    endedAt: null, // the minute the game ended (the archive deadline)
  };
}

const SETUP_KEYS = ['terrain', 'field', 'registered', 'units', 'turn', 'side'];
const UNIT_KEYS = ['side', 'kind', 'at', 'facing', 'ambush'];

function checkTerrain(terrain) {
  if (!Array.isArray(terrain) || terrain.length !== HEIGHT) return 'terrain must be 8 rows';
  for (const row of terrain) {
    if (typeof row !== 'string' || row.length !== WIDTH || [...row].some((c) => !has(TERRAIN, c))) {
      return 'each terrain row is 16 letters of ".fhrm"';
    }
  }
  // Ruling CK-R4: a castle may hold any letter but a mountain.
  for (const [side, [x, y]] of Object.entries(CASTLE)) {
    if (terrain[y][x] === 'm') return `the ${side} castle cannot be a mountain`;
  }
  return null;
}

// One listed unit's own form and square; returns an error message or null.
function checkSetupUnit(u, terrain) {
  if (!isPlainObject(u)) return 'a unit is a mapping';
  const extra = Object.keys(u).find((k) => !UNIT_KEYS.includes(k));
  if (extra !== undefined) return `a unit has no key ${JSON.stringify(extra)}`;
  for (const k of ['side', 'kind', 'at']) if (!has(u, k)) return `a unit needs "${k}"`;
  if (!SIDES.includes(u.side)) return `unknown side ${JSON.stringify(u.side)}`;
  if (typeof u.kind !== 'string' || !has(UNITS, u.kind)) return `unknown kind ${JSON.stringify(u.kind)}`;
  if (!isSquare(u.at) || !onMap(u.at)) return `square ${JSON.stringify(u.at)} is off the map`;
  if (has(u, 'facing') && !FACINGS.includes(u.facing)) return `bad facing ${JSON.stringify(u.facing)}`;
  if (has(u, 'ambush') && typeof u.ambush !== 'boolean') return '"ambush" is true or false';
  if (u.kind === 'king' && u.ambush === true) return 'a king cannot be the ambush';
  if (terrain[u.at[1]][u.at[0]] === 'm') return 'a unit cannot stand on a mountain';
  if (isCastle(u.at) && !(u.kind === 'king' && same(u.at, CASTLE[u.side]))) return 'only a king in its own castle';
  return null;
}

// Build the play position a set-up lists, or return an error message.
function setupPosition(state, setup) {
  const listed = setup.units;
  if (!Array.isArray(listed)) return '"units" must be a list';
  for (const u of listed) {
    const bad = checkSetupUnit(u, state.terrain);
    if (bad) return bad;
  }
  const units = [];
  for (const side of SIDES) {
    const mine = listed.filter((u) => u.side === side);
    const kings = mine.filter((u) => u.kind === 'king');
    if (kings.length > 1) return `a second king of ${side}`;
    const ambushes = mine.filter((u) => u.ambush === true);
    if (ambushes.length > 1) return `two ambushes of ${side}`;
    if (kings.length === 0) units.push(kingOf(side)); // a king not listed stays in its castle
    // CK-R9: visible units numbered in list order, then the ambush.
    let n = 1;
    for (const u of [...mine.filter((v) => v.ambush !== true), ...ambushes]) {
      const id = u.kind === 'king' ? `${side}-king` : `${side}-${n++}`;
      const unit = newUnit(id, side, u.kind, u.at, u.facing ?? FACING[side], u.ambush === true);
      unit.hidden = unit.ambush;
      units.push(unit);
    }
  }
  const visible = units.filter((u) => !u.hidden);
  for (let i = 0; i < visible.length; i++) {
    for (let j = i + 1; j < visible.length; j++) {
      if (same(visible[i].at, visible[j].at)) return `two units on ${JSON.stringify(visible[i].at)}`;
    }
  }
  for (const amb of units.filter((u) => u.hidden)) {
    if (visible.some((v) => v.side !== amb.side && same(v.at, amb.at))) return 'an ambush under an enemy unit';
  }
  state.units = units.sort(unitOrder);
  if (SIDES.some((side) => holdsGates(state, side))) return 'a side already holds the gates of the enemy castle';
  if (has(setup, 'turn') && !(isWhole(setup.turn) && setup.turn >= 1 && setup.turn <= MAX_TURN)) {
    return `"turn" is a whole number from 1 to ${MAX_TURN}`;
  }
  if (has(setup, 'side') && !SIDES.includes(setup.side)) return `unknown side ${JSON.stringify(setup.side)}`;
  state.turn = setup.turn ?? 1;
  state.side = setup.side ?? 'sparkia';
  state.phase = 'play';
  for (const side of SIDES) state.deployment[side].complete = 2;
  state.lobby.registered = { sparkia: 0, gaias: 0 };
  return null;
}

function start(ruleset, seed, setup) {
  const extra = Object.keys(setup).find((k) => !SETUP_KEYS.includes(k));
  if (extra !== undefined) return { ok: false, message: `conquest-king set-up has no key ${JSON.stringify(extra)}` };
  if (has(setup, 'terrain')) {
    const bad = checkTerrain(setup.terrain);
    if (bad) return { ok: false, message: bad };
  }
  const field = has(setup, 'field') ? setup.field : 'normal';
  if (field !== 'normal' && field !== 'realtime') return { ok: false, message: '"field" is normal or realtime' };
  let registered = SIDES;
  if (has(setup, 'registered')) {
    if (!Array.isArray(setup.registered) || !setup.registered.every((s) => SIDES.includes(s))) {
      return { ok: false, message: '"registered" is a list of sides' };
    }
    registered = setup.registered;
  }
  if ((has(setup, 'turn') || has(setup, 'side')) && !has(setup, 'units')) {
    return { ok: false, message: '"turn" and "side" need "units"' };
  }
  const state = baseState((setup.terrain ?? DEFAULT_MAP).slice(), field);
  for (const side of registered) state.lobby.registered[side] = 0;
  if (has(setup, 'units')) {
    const bad = setupPosition(state, setup);
    if (bad) return { ok: false, message: bad };
  }
  return { ok: true, state };
}

// ---------------------------------------------------------------------------------------------
// Action form (checked before any rule): exact keys, then the types of the values.

const FORMS = {
  register: { required: ['side'], optional: [] },
  deploy: { required: ['side', 'kind', 'at'], optional: ['facing', 'ambush'] },
  undeploy: { required: ['side', 'at'], optional: [] },
  complete: { required: ['side'], optional: [] },
  move: { required: ['from', 'to', 'facing'], optional: ['attack'] },
  dice: { required: ['attacker', 'defender'], optional: [] },
  reveal: { required: ['at'], optional: [] },
  'end-phase': { required: [], optional: [] },
  wait: { required: ['minutes'], optional: [] },
};
const VALUE_FORM = {
  side: (v) => typeof v === 'string',
  kind: (v) => typeof v === 'string',
  facing: (v) => typeof v === 'string',
  at: isSquare,
  from: isSquare,
  to: isSquare,
  attack: (v) => typeof v === 'boolean',
  ambush: (v) => typeof v === 'boolean',
  minutes: isWhole,
  attacker: isWhole,
  defender: isWhole,
};

function checkForm(action) {
  if (!isPlainObject(action) || typeof action.type !== 'string') {
    return reject('malformed-action', 'an action is a mapping with a string "type"');
  }
  if (!has(FORMS, action.type)) return reject('unknown-action', `no action ${JSON.stringify(action.type)}`);
  const { required, optional } = FORMS[action.type];
  for (const k of required) if (!has(action, k)) return reject('malformed-action', `${action.type} needs "${k}"`);
  for (const k of Object.keys(action)) {
    if (k === 'type') continue;
    if (!required.includes(k) && !optional.includes(k)) return reject('malformed-action', `${action.type} has no "${k}"`);
    if (!VALUE_FORM[k](action[k])) return reject('malformed-action', `bad value for "${k}": ${JSON.stringify(action[k])}`);
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Deployment (CK-DEPLOY-1..3, CK-AMB-1)

function inZone(state, side, at) {
  const [lo, hi] = ZONE[side];
  return onMap(at) && at[0] >= lo && at[0] <= hi && !isCastle(at) && letterAt(state, at) !== 'm' &&
    !state.units.some((u) => same(u.at, at));
}

// The codes a deploy, undeploy or complete shares: unknown-side, wrong-phase, not-registered.
function checkDeployer(state, side) {
  if (!SIDES.includes(side)) return reject('unknown-side', `no side ${JSON.stringify(side)}`);
  if (state.phase !== 'deploy') return reject('wrong-phase', 'deployment is over');
  if (state.deployment[side].complete === 2) return reject('wrong-phase', `${side} has completed deployment`);
  if (state.lobby.registered[side] === null) return reject('not-registered', `${side} has not registered`);
  return null;
}

function deploy(state, action) {
  const { side, kind, at } = action;
  const bad = checkDeployer(state, side);
  if (bad) return bad;
  if (!BUYABLE.includes(kind)) return reject('unknown-unit', `${JSON.stringify(kind)} cannot be bought`);
  if (!inZone(state, side, at)) return reject('illegal-square', `${side} cannot place on ${JSON.stringify(at)}`);
  if (UNITS[kind].price > state.deployment[side].gold) return reject('over-budget', `${kind} costs more than the gold left`);
  const ambush = action.ambush === true;
  if (ambush && state.units.some((u) => u.side === side && u.ambush)) return reject('one-ambush', `${side} already has its ambush`);
  const facing = action.facing ?? FACING[side];
  if (!FACINGS.includes(facing)) return reject('bad-facing', `facing ${JSON.stringify(facing)} is not n, e, s or w`);

  const next = clone(state);
  const number = next.nextNumber[side]++;
  next.units.push(newUnit(`${side}-${number}`, side, kind, at, facing, ambush));
  next.units.sort(unitOrder);
  next.deployment[side].gold -= UNITS[kind].price;
  next.deployment[side].complete = 0;
  return { ok: true, state: next };
}

function undeploy(state, action) {
  const { side, at } = action;
  const bad = checkDeployer(state, side);
  if (bad) return bad;
  const unit = state.units.find((u) => u.side === side && u.kind !== 'king' && same(u.at, at));
  if (!unit) return reject('no-unit', `no placed unit of ${side} on ${JSON.stringify(at)}`);
  const next = clone(state);
  next.units = next.units.filter((u) => u.id !== unit.id);
  next.deployment[side].gold += UNITS[unit.kind].price;
  next.deployment[side].complete = 0;
  return { ok: true, state: next };
}

function complete(state, action) {
  const { side } = action;
  const bad = checkDeployer(state, side);
  if (bad) return bad;
  const next = clone(state);
  next.deployment[side].complete += 1;
  if (SIDES.every((s) => next.deployment[s].complete === 2)) beginPlay(next);
  return { ok: true, state: next };
}

// Both sides done (CK-DEPLOY-3): the ambushes leave the map (CK-AMB-2) and each side's units are
// numbered afresh, visible units in placement order, then the ambush (CK-R9). Mutates `state`.
function beginPlay(state) {
  for (const side of SIDES) {
    // Placement order is the order of the deployment numbers.
    const placed = state.units.filter((u) => u.side === side && u.kind !== 'king').sort(unitOrder);
    let n = 1;
    for (const u of [...placed.filter((v) => !v.ambush), ...placed.filter((v) => v.ambush)]) {
      u.id = `${side}-${n++}`;
      u.hidden = u.ambush;
    }
  }
  state.units.sort(unitOrder);
  state.phase = 'play';
  state.turn = 1;
  state.side = 'sparkia';
  state.phaseBegan = state.lobby.clock;
}

// ---------------------------------------------------------------------------------------------
// Movement (CK-MOVE-1, CK-R4, CK-R5)

// Squares a unit may end its move on, as "x,y" keys: the cheapest path within its movement
// points, never through a visible enemy, a mountain or a castle (its own castle is open to its
// own King), never ending on another visible unit; its own square always. Hidden ambushes are
// empty squares to everyone.
function reachable(state, unit) {
  const key = ([x, y]) => `${x},${y}`;
  const enemyAt = new Set(state.units.filter((u) => !u.hidden && u.side !== unit.side).map((u) => key(u.at)));
  const occupied = new Set(state.units.filter((u) => !u.hidden && u !== unit).map((u) => key(u.at)));
  const enterable = (at) => {
    if (!onMap(at) || letterAt(state, at) === 'm' || enemyAt.has(key(at))) return false;
    if (isCastle(at)) return unit.kind === 'king' && same(at, CASTLE[unit.side]);
    return true;
  };
  const best = new Map([[key(unit.at), 0]]);
  const frontier = [[unit.at, 0]];
  while (frontier.length > 0) {
    frontier.sort((a, b) => a[1] - b[1]);
    const [at, spent] = frontier.shift();
    if (spent > best.get(key(at))) continue;
    for (const f of FACINGS) {
      const to = step(at, f);
      if (!enterable(to)) continue;
      const cost = spent + TERRAIN[letterAt(state, to)].cost;
      if (cost > UNITS[unit.kind].movement) continue;
      if (best.has(key(to)) && best.get(key(to)) <= cost) continue;
      best.set(key(to), cost);
      frontier.push([to, cost]);
    }
  }
  const out = new Set([key(unit.at)]);
  for (const k of best.keys()) if (!occupied.has(k)) out.add(k);
  return out;
}

// The visible enemy on the square `faced`, if any: what an attack of `unit` would strike.
function enemyFaced(state, unit, faced) {
  if (!onMap(faced)) return null;
  const there = visibleAt(state, faced);
  return there && there.side !== unit.side ? there : null;
}

function move(state, action) {
  const { from, to, facing } = action;
  const side = state.side;
  const unit = onMap(from) ? state.units.find((u) => u.side === side && !u.hidden && same(u.at, from)) : undefined;
  // "hidden-ambush (in play)": only in phase `play`; while a fight waits it is `wrong-phase` (log point 4).
  if (state.phase === 'play' && !unit && state.units.some((u) => u.side === side && u.hidden && same(u.at, from))) {
    return reject('hidden-ambush', 'a hidden ambush cannot move');
  }
  if (state.phase !== 'play') return reject('wrong-phase', state.phase === 'combat' ? 'a fight waits for its dice' : 'the game has not started');
  if (!unit) return reject('no-unit', `no visible unit of ${side} on ${JSON.stringify(from)}`);
  if (unit.moved) return reject('already-moved', `${unit.id} has moved this turn`);
  if (!FACINGS.includes(facing)) return reject('bad-facing', `facing ${JSON.stringify(facing)} is not n, e, s or w`);
  if (!onMap(to) || !reachable(state, unit).has(`${to[0]},${to[1]}`)) {
    return reject('unreachable', `${unit.id} cannot reach ${JSON.stringify(to)}`);
  }
  let target = null;
  if (action.attack === true) {
    const faced = step(to, facing);
    target = enemyFaced(state, unit, faced);
    if (!target) return reject('no-target', 'no visible enemy in the faced square');
  }

  const next = clone(state);
  const mover = unitById(next, unit.id);
  mover.at = to.slice();
  mover.facing = facing;
  mover.moved = true;

  const ambush = hiddenAmbushOf(next, ENEMY[side]);
  if (ambush && same(ambush.at, to)) {
    // CK-AMB-3: stopping on the enemy ambush destroys the mover, no dice; no attack follows.
    next.units = next.units.filter((u) => u.id !== mover.id);
    ambush.hidden = false;
    next.last_combat = { kind: 'ambush-square', destroyed: [mover.id] };
    checkVictory(next);
    return { ok: true, state: next };
  }
  const fights = [];
  const guarded = ambush && next.units.some((u) => !u.hidden && u.side === ambush.side && same(u.at, ambush.at));
  if (ambush && !guarded && adjacent(to, ambush.at) && !adjacent(from, ambush.at)) {
    // CK-AMB-4, CK-R6: the ambush appears facing the intruder and strikes first.
    ambush.hidden = false;
    ambush.facing = facingTowards(ambush.at, to);
    fights.push({ kind: 'ambush', striker: ambush.id, target: mover.id });
  }
  if (target) fights.push({ kind: 'attack', striker: mover.id, target: target.id });
  next.queue = fights;
  nextFight(next);
  return { ok: true, state: next };
}

// ---------------------------------------------------------------------------------------------
// Combat (CK-ATK-2..5)

// A fight's attackers and bases, computed when it comes up.
function makeFight(state, kind, strikerId, targetId) {
  const striker = unitById(state, strikerId);
  const target = unitById(state, targetId);
  const front = step(target.at, target.facing);
  const rear = [2 * target.at[0] - front[0], 2 * target.at[1] - front[1]];
  const supporters = state.units
    .filter((u) => u !== striker && !u.hidden && u.side === striker.side && adjacent(u.at, target.at) &&
      same(step(u.at, u.facing), target.at))
    .sort(unitOrder);
  const attackers = [striker, ...supporters];
  let attack = 0;
  for (const u of attackers) {
    const bonus = same(u.at, front) ? 0 : same(u.at, rear) ? 2 : 1;
    attack += UNITS[u.kind].attack + TERRAIN[letterAt(state, u.at)].modifier + bonus;
  }
  const defence = UNITS[target.kind].attack + TERRAIN[letterAt(state, target.at)].modifier;
  return { kind, attackers: attackers.map((u) => u.id), target: target.id, attack, defence };
}

// Start the next fight of the move, dropping those whose striker or target is gone; when none is
// left the move is over and victory is checked (CK-R10). Mutates `state`.
function nextFight(state) {
  while (state.queue.length > 0) {
    const { kind, striker, target } = state.queue.shift();
    if (!unitById(state, striker) || !unitById(state, target)) continue;
    state.combat = makeFight(state, kind, striker, target);
    state.phase = 'combat';
    return;
  }
  state.combat = null;
  state.phase = 'play';
  checkVictory(state);
}

function dice(state, action) {
  if (state.phase !== 'combat') return reject('wrong-phase', 'no fight waits for dice');
  const { attacker, defender } = action;
  if (![attacker, defender].every((d) => d >= 1 && d <= 6)) return reject('bad-face', 'a die shows 1 to 6');
  const next = clone(state);
  const fight = next.combat;
  const totals = [fight.attack + attacker, fight.defence + defender];
  const winner = totals[0] >= totals[1] ? 'attacker' : 'defender'; // a tie goes to the attacker
  const destroyed = winner === 'attacker' ? fight.target : fight.attackers[0];
  next.units = next.units.filter((u) => u.id !== destroyed);
  next.last_combat = { ...fight, dice: [attacker, defender], totals, winner, destroyed: [destroyed] };
  next.combat = null;
  nextFight(next);
  return { ok: true, state: next };
}

// ---------------------------------------------------------------------------------------------
// Reveal, end of phase, victory

function reveal(state, action) {
  const { at } = action;
  const side = state.side;
  const ambush = state.units.find((u) => u.side === side && u.hidden && same(u.at, at));
  // "not-hidden (in play)": only in phase `play` (log point 4).
  if (state.phase === 'play' && !ambush) return reject('not-hidden', `no hidden ambush of ${side} on ${JSON.stringify(at)}`);
  if (state.phase !== 'play') return reject('wrong-phase', 'an ambush appears in its side\'s phase');
  if (visibleAt(state, at)) return reject('square-occupied', 'a friend stands on the ambush\'s square');
  const next = clone(state);
  unitById(next, ambush.id).hidden = false; // CK-AMB-7: it appears unacted
  checkVictory(next);
  return { ok: true, state: next };
}

// Pass play to the other side (CK-TURN-1). Mutates `state`.
function passPhase(state) {
  state.side = ENEMY[state.side];
  if (state.side === 'sparkia') state.turn = plus(state.turn, 1);
  for (const u of state.units) if (u.side === state.side) u.moved = false;
  state.phaseBegan = state.lobby.clock;
}

function endPhase(state) {
  if (state.phase !== 'play') return reject('wrong-phase', 'no phase to end now');
  const next = clone(state);
  passPhase(next);
  return { ok: true, state: next };
}

function holdsGates(state, side) {
  const castle = CASTLE[ENEMY[side]];
  const gates = FACINGS.map((f) => step(castle, f)).filter(onMap);
  return gates.every((g) => state.units.some((u) => u.side === side && !u.hidden && same(u.at, g)));
}

// CK-WIN-1, CK-WIN-2, CK-R10: kings first, then gates; Sparkia's before Gaias'. Mutates `state`.
function checkVictory(state) {
  let result = null;
  for (const side of SIDES) {
    if (!result && !unitById(state, `${ENEMY[side]}-king`)) result = { winner: side, by: 'king' };
  }
  for (const side of SIDES) {
    if (!result && holdsGates(state, side)) result = { winner: side, by: 'gates' };
  }
  if (result) finish(state, result);
}

function finish(state, result) {
  state.phase = 'over';
  state.result = result;
  state.combat = null;
  state.queue = [];
  state.endedAt = state.lobby.clock;
}

// ---------------------------------------------------------------------------------------------
// The lobby (CK-LOBBY-1..6, CK-R8, CK-R11)

function register(state, action) {
  const { side } = action;
  if (!SIDES.includes(side)) return reject('unknown-side', `no side ${JSON.stringify(side)}`);
  if (state.phase === 'over') return reject('game-over', 'the game has ended');
  if (state.lobby.registered[side] !== null) return reject('already-registered', `${side} has registered`);
  const next = clone(state);
  next.lobby.registered[side] = next.lobby.clock;
  return { ok: true, state: next };
}

// Every deadline pending now: [minute, rank, fire]. Rank orders deadlines of one minute:
// deletion, reset, phase limit, archive.
function deadlines(state) {
  const out = [];
  const { field, registered } = state.lobby;
  const regs = SIDES.filter((s) => registered[s] !== null);
  if (state.phase === 'deploy') {
    for (const side of regs) {
      if (state.deployment[side].complete < 2) {
        out.push([plus(registered[side], DELETE_AFTER), 0, (s) => finish(s, { winner: null, by: 'deleted' })]);
      }
    }
  }
  if (field === 'realtime' && state.phase !== 'over' && regs.length > 0) {
    const first = regs.map((s) => registered[s]).sort(earlier)[0];
    out.push([plus(first, RESET_AFTER), 1, (s) => finish(s, { winner: null, by: 'reset' })]);
    if (regs.length === 1) out.push([plus(first, ALONE_AFTER), 1, (s) => finish(s, { winner: null, by: 'reset' })]);
  }
  if (field === 'realtime' && (state.phase === 'play' || state.phase === 'combat')) {
    out.push([plus(state.phaseBegan, PHASE_LIMIT), 2, phaseTimeout]);
  }
  if (state.phase === 'over' && state.result.winner !== null && !state.lobby.archived) {
    out.push([plus(state.endedAt, ARCHIVE_AFTER[field]), 3, (s) => { s.lobby.archived = true; }]);
  }
  return out;
}

// CK-R8: the phase ends as if its side had said so; a waiting fight is dropped.
function phaseTimeout(state) {
  state.combat = null;
  state.queue = [];
  state.phase = 'play';
  passPhase(state);
  checkVictory(state);
}

function wait(state, action) {
  if (action.minutes < 0) return reject('bad-time', 'time does not run backwards');
  if (action.minutes > Number.MAX_SAFE_INTEGER - state.lobby.clock) {
    return reject('bad-time', 'the clock would pass 2^53 - 1');
  }
  const next = clone(state);
  const until = plus(next.lobby.clock, action.minutes);
  for (;;) {
    const due = deadlines(next).filter(([minute]) => minute <= until);
    if (due.length === 0) break;
    due.sort((a, b) => earlier(a[0], b[0]) || a[1] - b[1]);
    const [minute, , fire] = due[0];
    if (minute > next.lobby.clock) next.lobby.clock = minute;
    fire(next);
  }
  next.lobby.clock = until;
  return { ok: true, state: next };
}

// ---------------------------------------------------------------------------------------------
// apply, legal, view

const RULES = { register, deploy, undeploy, complete, move, dice, reveal, 'end-phase': endPhase, wait };

function apply(state, action) {
  const bad = checkForm(action);
  if (bad) return bad;
  if (action.type !== 'wait' && action.type !== 'register' && state.phase === 'over') {
    return reject('game-over', 'the game has ended');
  }
  return RULES[action.type](state, action);
}

function deployActions(state, side) {
  if (state.lobby.registered[side] === null || state.deployment[side].complete === 2) return [];
  const out = [{ type: 'complete', side }];
  for (const u of state.units) {
    if (u.side === side && u.kind !== 'king') out.push({ type: 'undeploy', side, at: u.at.slice() });
  }
  const canHide = !state.units.some((u) => u.side === side && u.ambush);
  for (const kind of BUYABLE) {
    if (UNITS[kind].price > state.deployment[side].gold) continue;
    for (let x = ZONE[side][0]; x <= ZONE[side][1]; x++) {
      for (let y = 0; y < HEIGHT; y++) {
        if (!inZone(state, side, [x, y])) continue;
        out.push({ type: 'deploy', side, kind, at: [x, y] });
        if (canHide) out.push({ type: 'deploy', side, kind, at: [x, y], ambush: true });
      }
    }
  }
  return out;
}

function playActions(state) {
  const side = state.side;
  const out = [];
  const ambush = hiddenAmbushOf(state, side);
  if (ambush && !visibleAt(state, ambush.at)) out.push({ type: 'reveal', at: ambush.at.slice() });
  for (const unit of state.units) {
    if (unit.side !== side || unit.hidden || unit.moved) continue;
    for (const k of reachable(state, unit)) {
      const to = k.split(',').map(Number);
      for (const facing of FACINGS) {
        out.push({ type: 'move', from: unit.at.slice(), to, facing });
        if (enemyFaced(state, unit, step(to, facing))) out.push({ type: 'move', from: unit.at.slice(), to, facing, attack: true });
      }
    }
  }
  out.push({ type: 'end-phase' });
  return out;
}

function legal(state, observer) {
  if (observer === 'referee') observer = null;
  switch (state.phase) {
    case 'deploy':
      return (observer ? [observer] : SIDES).flatMap((side) => deployActions(state, side));
    case 'play':
      return observer && observer !== state.side ? [] : playActions(state);
    case 'combat': {
      if (observer) return []; // the dice are chance, never a side's action
      const out = [];
      for (let a = 1; a <= 6; a++) for (let d = 1; d <= 6; d++) out.push({ type: 'dice', attacker: a, defender: d });
      return out;
    }
    default:
      return [];
  }
}

function unitView(u) {
  return { id: u.id, side: u.side, kind: u.kind, at: u.at.slice(), facing: u.facing, moved: u.moved, ambush: u.ambush, hidden: u.hidden };
}

// What `observer` may see of the units (CK-HIDE-1): the referee everything; a side its own units,
// and outside phase `deploy` (also once a game deleted during deployment is over, log point 19)
// every enemy unit that is not a hidden ambush.
function seenUnits(state, observer) {
  if (observer === null) return state.units;
  return state.units.filter((u) => u.side === observer || (state.phase !== 'deploy' && !u.hidden));
}

function view(state, observer) {
  if (observer === 'referee') observer = null;
  const deployment = {};
  for (const side of SIDES) {
    if (observer === null || observer === side) deployment[side] = { ...state.deployment[side] };
  }
  return {
    game: NAME,
    ruleset: 'v1',
    observer: observer ?? 'referee',
    phase: state.phase,
    turn: state.turn,
    side: state.side,
    terrain: state.terrain.slice(),
    units: seenUnits(state, observer).slice().sort(unitOrder).map(unitView),
    deployment,
    combat: state.combat && clone(state.combat),
    last_combat: state.last_combat && clone(state.last_combat),
    result: state.result && { ...state.result },
    lobby: {
      field: state.lobby.field,
      clock: state.lobby.clock,
      registered: { ...state.lobby.registered },
      archived: state.lobby.archived,
    },
  };
}

module.exports = { NAME, RULESETS, DEFAULT_RULESET, OBSERVERS, start, apply, legal, view };
