"""Conquest King's hints to the fuzzer (campaigns/fuzz/positions.py): formations around one target, the steps that
reach a fight, a deadline or a purchase, and waits that add up."""

from __future__ import annotations

from typing import Any

from ....campaigns.fuzz.draw import Draw
from ....campaigns.fuzz.positions import Hints
from ... import JSON


def conquest_king(d: Draw, engine: Any, ruleset: str) -> dict[str, JSON]:
    p = engine.p
    if d.one_in(4):  # the lobby: deployment with one side (or none) registered, on either field
        setup: dict[str, JSON] = {"registered": [] if d.one_in(2) else [d.pick(p.sides)]}
        if d.below(3):  # mostly the real-time field, whose lobby has the most deadlines
            setup["field"] = "realtime"
        if d.one_in(4):  # a position's turn or side without its units: refused (CK-START-1)
            for key in d.pick((("turn",), ("side",), ("turn", "side"))):
                setup[key] = 1 + d.below(3) if key == "turn" else d.pick(p.sides)
        return setup
    terrain = [list(row) for row in p.terrain_rows]
    letters = sorted(p.letters)
    castles = set(p.castles.values())
    for _ in range(d.below(6) if d.one_in(3) else 0):  # a few squares of other terrain
        x, y = d.below(p.width), d.below(p.height)
        if (x, y) not in castles:
            terrain[y][x] = d.pick(letters)

    def passable(x: int, y: int) -> bool:
        return 0 <= x < p.width and 0 <= y < p.height and (x, y) not in castles \
            and p.cost[p.letters[terrain[y][x]]] is not None

    kinds = sorted(k for k, row in p.units.items() if row.get("price") is not None)
    taken: set[tuple[int, int]] = set()
    units: list[dict[str, JSON]] = []

    def place(side: str, kind: str, x: int, y: int, facing: str, ambush: bool = False) -> None:
        if passable(x, y) and (x, y) not in taken:
            taken.add((x, y))
            units.append({"side": side, "kind": kind, "at": [x, y], "facing": facing, "ambush": ambush})

    defender = d.pick(p.sides)
    attacker = p.sides[1 - p.sides.index(defender)]
    fx, fy = d.below(p.width), d.below(p.height)  # the target's square
    strength = sorted(kinds, key=lambda k: p.units[k]["attack"])
    if d.one_in(3):  # a strong target among weak attackers: a fight the attack may lose, supporters and all
        place(defender, strength[-1], fx, fy, d.pick("nesw"))
        kinds = strength[:1]
    else:
        place(defender, d.pick(kinds + ["king"]) if d.one_in(6) else d.pick(kinds), fx, fy, d.pick("nesw"))
    towards = {(0, -1): "s", (1, 0): "w", (0, 1): "n", (-1, 0): "e"}  # the facing that looks at the target
    for (dx, dy), facing in towards.items():
        role = d.below(6)
        if role < 3:  # an attacker, mostly facing the target (rear, flank or front, by the target's facing)
            place(attacker, d.pick(kinds), fx + dx, fy + dy, facing if not d.one_in(4) else d.pick("nesw"))
        elif role == 3:  # a supporter of the target
            place(defender, d.pick(kinds), fx + dx, fy + dy, d.pick("nesw"))
    for _ in range(d.below(3)):  # attackers a step away: they move next to the target, then support its attack
        dx, dy = d.pick([(2, 0), (-2, 0), (0, 2), (0, -2), (1, 1), (-1, 1), (1, -1), (-1, -1)])
        place(attacker, d.pick(kinds), fx + dx, fy + dy, d.pick("nesw"))
    if d.one_in(3):  # an ambush next to where units will stop
        side = d.pick(p.sides)
        ax, ay = fx + d.below(5) - 2, fy + d.below(5) - 2
        place(side, d.pick(kinds), ax, ay, d.pick("nesw"), ambush=True)
        if d.one_in(2):  # the enemy King a step or two from the ambush's square: it may walk onto it
            enemy = p.sides[1 - p.sides.index(side)]
            place(enemy, "king", ax + d.pick([-2, -1, 1, 2]), ay + d.pick([-1, 0, 1]), d.pick("nesw"))
    for side in p.sides:
        for _ in range(d.below(3)):
            place(side, d.pick(kinds), d.below(p.width), d.below(p.height), d.pick("nesw"))
        if d.one_in(4):  # the king out of its castle, near the enemy's gates or in the fray
            gx, gy = p.gates[p.sides[1 - p.sides.index(side)]][0]
            place(side, "king", gx + d.below(3) - 1, gy + d.below(3) - 1, d.pick("nesw"))
    mover = attacker if not d.one_in(4) else defender
    spot = d.below(8)
    if spot >= 5:  # a side one move from holding both squares beside the enemy castle
        mover = _ck_gates(d, p, units, place, mover)
    elif spot >= 2:  # a hidden ambush with the enemy a step or two away, or a friend on its square
        mover = _ck_ambush(d, p, units, taken, passable, place, mover)
    setup = {"units": units, "turn": 1 + (d.below(12) if d.one_in(3) else 0), "side": mover}
    if terrain != [list(row) for row in p.terrain_rows]:
        setup["terrain"] = ["".join(row) for row in terrain]
    if d.below(3) if spot >= 5 else d.one_in(4):  # (a phase's time limit may cut the winning move's fight short)
        setup["field"] = "realtime"
    return setup


_STEPS4 = ((0, -1), (1, 0), (0, 1), (-1, 0))


def _ck_has(units: list[dict[str, JSON]], side: str, what: str) -> bool:
    """Whether ``side`` already has its king (``what`` king) or its ambush (``what`` ambush) in ``units``."""
    return any(u["side"] == side and (u["kind"] == "king" if what == "king" else u["ambush"]) for u in units)


def _ck_gates(d: Draw, p: Any, units: list[dict[str, JSON]], place: Any, holder: str) -> str:
    """Units of ``holder`` on one square beside the enemy castle and a step from the other (the King often one
    of them, rule CK-WIN-2; sometimes its hidden ambush on one, ruling CK-R10), so one move or reveal wins, maybe
    with an attack on the King in its castle, or the enemy's ambush beside both squares striking, a fight that a
    phase's time limit may cut short. Now and then both squares held: a position the set-up refuses. Returns
    the side to move."""
    enemy = p.sides[1 - p.sides.index(holder)]
    gates = list(p.gates[enemy])
    if d.one_in(2):
        gates.reverse()
    if len(gates) == 2 and not _ck_has(units, enemy, "ambush") and d.one_in(3):
        # the enemy's ambush beside both squares: the winning move makes it strike, a fight before the win
        (ax, ay), (bx, by), (cx, cy) = gates[0], gates[1], p.castles[enemy]
        place(enemy, d.pick(sorted(k for k, r in p.units.items() if r.get("price") is not None)),
              ax + bx - cx, ay + by - cy, d.pick("nesw"), ambush=True)
    kings = [not _ck_has(units, holder, "king") and d.one_in(2) for _ in gates]
    if kings[0]:
        kings[1] = False
    for i, (gx, gy) in enumerate(gates):
        kind = "king" if kings[i] else d.pick(sorted(k for k, r in p.units.items() if r.get("price") is not None))
        on = i == 0 or d.one_in(8)
        ambush = on and not kings[i] and not _ck_has(units, holder, "ambush") and d.one_in(4)
        for dx, dy in [(0, 0)] if on else [_STEPS4[d.below(4)] for _ in range(3)]:
            before = len(units)
            place(holder, kind, gx + dx, gy + dy, d.pick("nesw"), ambush=ambush)
            if len(units) > before:
                break
    return holder if not d.one_in(8) else enemy


def _ck_ambush(d: Draw, p: Any, units: list[dict[str, JSON]], taken: set[tuple[int, int]], passable: Any,
               place: Any, mover: str) -> str:
    """A hidden ambush and, mostly, the enemy to move with units (its King often) a step or two from it, straight
    and diagonally, and a visible unit of the ambush's side they may attack as they stop beside it (two fights in
    one move, ruling CK-R7); else its owner to move with a friend standing on its square (ruling CK-R13).
    Returns the side to move."""
    owner = d.pick(p.sides)
    if _ck_has(units, owner, "ambush"):
        owner = p.sides[1 - p.sides.index(owner)]
        if _ck_has(units, owner, "ambush"):
            return mover
    for _ in range(4):
        ax, ay = d.below(p.width), d.below(p.height)
        if passable(ax, ay) and (ax, ay) not in taken:
            break
    else:
        return mover
    kinds = sorted(k for k, r in p.units.items() if r.get("price") is not None)
    units.append({"side": owner, "kind": d.pick(kinds), "at": [ax, ay], "facing": d.pick("nesw"), "ambush": True})
    taken.add((ax, ay))
    enemy = p.sides[1 - p.sides.index(owner)]
    if d.one_in(4):  # the owner to move, a friend on the ambush's square
        if d.one_in(4) or not passable(ax, ay):
            return owner
        units.append({"side": owner, "kind": d.pick(kinds), "at": [ax, ay], "facing": d.pick("nesw"),
                      "ambush": False})
        return owner
    if not d.one_in(4):  # a visible unit of the owner's where an intruder may stop facing it
        dx, dy = d.pick([(2, 0), (-2, 0), (0, 2), (0, -2), (1, 1), (-1, 1), (1, -1), (-1, -1)])
        place(owner, d.pick(kinds), ax + dx, ay + dy, d.pick("nesw"))
    near = [(2, 0), (-2, 0), (0, 2), (0, -2), (1, 1), (-1, 1), (1, -1), (-1, -1), (2, 1), (-2, -1), (1, -2),
            (-1, 2), (3, 0), (0, -3)]
    for i in range(1 + d.below(3)):
        king = i == 0 and not _ck_has(units, enemy, "king") and d.one_in(2)
        dx, dy = d.pick(list(_STEPS4) + near[:4]) if king else d.pick(near)  # a King may stop on the square
        place(enemy, "king" if king else d.pick(kinds), ax + dx, ay + dy, d.pick("nesw"))
    return enemy if not d.one_in(8) else owner


def conquest_king_step(d: Draw, engine: Any, state: Any, legal: list[JSON]) -> JSON | None:
    """An action aimed where Conquest King's rules are busy, now and then (None: a step drawn as usual). In play:
    a move onto the enemy's hidden ambush, or stopping beside it straight or diagonally (with an attack as it
    strikes: two fights, ruling CK-R7), onto a square beside the enemy castle, or beside an enemy facing it (a
    supporter, moved, for the next attack); the own ambush's reveal, under a friend too (ruling CK-R13), and two
    more actions ``legal`` leaves out: an attack from beside an enemy facing away from it (CK-ATK-1), a move of
    the own hidden ambush (CK-AMB-6). In combat: the dice that tie, or the extremes. In deployment: a side
    spending its gold on its dearest unit, turn after turn, then a deploy both out of its zone and over budget
    (CK-FORM-2). In play, in a fight and after the end, a wait to the next lobby deadline or a minute short of it
    (the real-time phase limit, the archive)."""
    phase = state.phase
    if phase == "deploy":  # plain deployments spend; the lobby's (a side to register, or real time) keep time
        if state.field == "normal" and None not in state.registered:
            return _ck_spend(d, engine, state)
        return _ck_lobby(d, engine, state)
    x = d.below(2 if phase == "over" else 24)  # one draw a step: 0 (what shrinking gives) aims at nothing
    standing = close = False
    if phase != "over":
        standing, close = _ck_close(engine.p, state)
    on_the_clock = phase == "combat" and state.field == "realtime"  # a fight the phase limit may cut short
    if (x == 1) if phase == "over" else x == 23 or on_the_clock and (8 <= x < 13 or standing and 3 <= x < 23):
        due = engine.deadlines(state)
        if not due:
            return None
        when = due[d.below(min(2, len(due)))][0]  # (a victory standing: the phase limit itself, not a minute short)
        return {"type": "wait", "minutes": max(0, when - state.clock - (0 if standing else d.below(2)))}
    if phase == "over" or x < (8 if len(state.fights) > 1 else 13 if close or phase == "combat" else 19):
        return None
    if phase == "combat":  # the throw that ties (CK-ATK-4, CK-AMB-4), the attacker's worst or its best
        attack, defence = engine.bases(state, state.fights[0])
        ties = [(a, a + attack - defence) for a in range(1, 7) if 1 <= a + attack - defence <= 6]
        worst = [[(1, 6)]] * (2 if len(state.fights) > 1 else 1)  # (several fights: the next one stays to throw)
        a, b = d.pick(d.pick(worst + [[(6, 1)]] + ([ties] if ties else [])))
        return {"type": "dice", "attacker": a, "defender": b}
    if phase != "play":
        return None
    p = engine.p
    side = p.sides[state.side]
    hidden = {u.at for u in state.units if u.hidden and u.side != side}
    mine = [u.at for u in state.units if u.hidden and u.side == side]
    faced: set[tuple[int, int, str]] = set()  # (x, y, facing): a square beside a visible enemy, facing it
    for u in state.units:
        if not u.hidden and u.side != side:
            for facing, (dx, dy) in (("s", (0, -1)), ("w", (1, 0)), ("n", (0, 1)), ("e", (-1, 0))):
                faced.add((u.at[0] + dx, u.at[1] + dy, facing))
    near = {(x + dx, y + dy) for x, y in hidden for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    gates = set(p.gates[p.sides[1 - state.side]])
    beside = {(x, y) for x, y, _ in faced}
    groups: dict[str, list[JSON]] = {  # and two the legal list leaves out: moving the hidden ambush (CK-AMB-6)
        "reveal": [{"type": "reveal", "at": list(at)} for at in mine],
        "hidden-move": [{"type": "move", "from": list(at), "to": [at[0] + dx, at[1] + dy], "facing": f}
                        for at in mine for dx, dy in _STEPS4 for f in "nesw"]}
    for a in legal:
        to = a.get("to")
        if to is None:
            continue
        x, y = to
        if (x, y) in near:
            groups.setdefault("onto" if (x, y) in hidden else "beside" + ("+attack" if "attack" in a else ""),
                              []).append(a)
        if (x, y) in gates:
            groups.setdefault("gate" + ("+attack" if "attack" in a else ""), []).append(a)
        if "attack" not in a and (x, y) in beside:
            if (x, y, a["facing"]) in faced:
                groups.setdefault("support", []).append(a)
            else:  # an attack on the enemy beside, facing away from it (refused, CK-ATK-1)
                groups.setdefault("aside+attack", []).append({**a, "attack": True})
    kinds = sorted(k for k, v in groups.items() if v)
    attacks = [k for k in kinds if k.endswith("+attack")]  # a fight (or a refused attack) half the time
    if attacks and len(attacks) < len(kinds):
        kinds = attacks if d.one_in(2) else [k for k in kinds if k not in attacks]
    return d.pick(groups[d.pick(kinds)]) if kinds else None


def _ck_close(p: Any, state: Any) -> tuple[bool, bool]:
    """(standing, close) for the side to move: it holds both squares beside the enemy castle (a victory a fight
    holds back until its dice, or the phase limit, settle it: ruling CK-R10); it stands on or beside one of them,
    or two steps or less from an enemy hidden ambush (where the aimed moves matter most)."""
    side = p.sides[state.side]
    gates = p.gates[p.sides[1 - state.side]]
    lurking = [u.at for u in state.units if u.hidden and u.side != side]
    held, close = 0, False
    for u in state.units:
        if u.side == side and not u.hidden:
            x, y = u.at
            for gx, gy in gates:
                far = abs(x - gx) + abs(y - gy)
                held += far == 0
                close = close or far <= 1
            close = close or any(abs(x - ax) + abs(y - ay) <= 2 for ax, ay in lurking)
    return held == len(gates), close


def _ck_lobby(d: Draw, engine: Any, state: Any) -> JSON | None:
    """In the lobby, half the time: a side registering, or one completing its deployment (nothing placed), or
    half an hour passing, or time up to the next deadline or a minute short of it; so sides register at different
    minutes, one of them done deploying, as each deadline comes (CK-LOBBY-1, -3, -6, ruling CK-R11)."""
    if not d.one_in(2):
        return None
    p = engine.p
    options: list[JSON] = [{"type": "wait", "minutes": 30}]
    for s, side in enumerate(p.sides):
        if state.registered[s] is None:
            options.append({"type": "register", "side": side})
        elif state.complete[s] != 2:
            options.append({"type": "complete", "side": side})
    due = engine.deadlines(state)
    if due:
        options.append({"type": "wait", "minutes": max(0, due[0][0] - state.clock - d.below(2))})
    return d.pick(options)


def _ck_spend(d: Draw, engine: Any, state: Any) -> JSON | None:
    """In deployment: now and then a side with none but the dearest units placed places one more; once it has two,
    it mostly goes on until that kind is over its budget, then places one out of its zone (refused for the
    square, CK-FORM-2)."""
    p = engine.p
    price = {k: r["price"] for k, r in p.units.items() if r.get("price") is not None}
    dearest = max(price, key=price.__getitem__)
    sides = [s for s, side in enumerate(p.sides) if state.registered[s] is not None and state.complete[s] != 2]
    placed = {s: [u.kind for u in state.units if u.side == p.sides[s] and u.kind != "king"] for s in sides}
    only = [s for s in sides if set(placed[s]) <= {dearest}]  # none placed, or only the dearest
    spending = [s for s in only if len(placed[s]) >= 2]
    if spending and not d.one_in(5):
        s = spending[0]
    elif only and d.one_in(24):
        s = d.pick(only)
    else:
        return None
    side = p.sides[s]
    over = sorted(k for k, v in price.items() if v > state.gold[s])
    if over and not d.one_in(3):
        return None
    if over:
        area = set(engine._deploy_area(state.terrain, side))
        outside = [(x, y) for y in range(p.height) for x in range(p.width) if (x, y) not in area]
        return {"type": "deploy", "side": side, "kind": d.pick(over), "at": list(d.pick(outside))}
    squares = engine._deploy_squares(state, side)
    return {"type": "deploy", "side": side, "kind": dearest, "at": list(d.pick(squares))} if squares else None


def conquest_king_merge(first: JSON, second: JSON) -> JSON | None:
    """Two waits as one (time passes the same, deadlines fire earliest first either way: ruling CK-R11), for
    the shrinker; None for any other pair."""
    if not (isinstance(first, dict) and isinstance(second, dict)):
        return None
    if first.keys() == second.keys() == {"type", "minutes"} and first["type"] == second["type"] == "wait" \
            and type(first["minutes"]) is int and type(second["minutes"]) is int:
        return {"type": "wait", "minutes": first["minutes"] + second["minutes"]}
    return None


# Two consecutive actions as one, where a game has actions that add up: the shrinker tries each such pair.

HINTS = Hints(setup=conquest_king, step=conquest_king_step, merge=conquest_king_merge)
