"""Conquest King read the other way at each ruling and at each rule (specs/conquest-king.md, Rulings and Rules)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from refimpl.games import IllegalAction, load_data
from refimpl.games.base import SAFE_INTEGER
from refimpl.games.conquest_king import ConquestKing
from refimpl.games.conquest_king.model import PRECEDENCE, STEPS, Fight, State, Unit, adjacent, order


def _data(**changes: Any) -> dict[str, Any]:
    return {**load_data("conquest-king"), **changes}


class _Base(ConquestKing):
    def __init__(self, **changes: Any) -> None:
        super().__init__(_data(**changes))


class OtherCorners(_Base):
    """CK-R1 the other way: the castles in the other two corners."""

    def __init__(self) -> None:
        data = load_data("conquest-king")
        super().__init__(map={**data["map"], "castles": {"sparkia": [0, 7], "gaias": [15, 0]}})


class OtherPrices(_Base):
    """CK-R2 the other way: another choice for a lost number (archers cost 30G)."""

    def __init__(self) -> None:
        units = load_data("conquest-king")["units"]
        super().__init__(units={**units, "archers": {**units["archers"], "price": 30}})


class GaiasFirst(_Base):
    """CK-R3 the other way: Gaias moves first."""

    def __init__(self) -> None:
        super().__init__(first="gaias")


class EveryoneEntersItsCastle(_Base):
    """CK-R4 the other way: every unit may enter its own side's castle."""

    def _closed(self, state: State, unit: Unit) -> set[tuple[int, int]]:
        return super()._closed(state, unit) - {self.p.castles[unit.side]} | {
            u.at for u in state.units if not u.hidden and u.side != unit.side}


class FriendsBlock(_Base):
    """CK-R5 the other way: a unit cannot pass through its own units either."""

    def _closed(self, state: State, unit: Unit) -> set[tuple[int, int]]:
        return super()._closed(state, unit) | {u.at for u in state.units if not u.hidden and u.id != unit.id}


class AnyMoveBesideTriggers(_Base):
    """CK-R6 the other way: any move that ends beside the ambush triggers it, even from a neighbouring square."""

    def _triggers(self, ambush: tuple[int, int], before: tuple[int, int], after: tuple[int, int]) -> bool:
        return adjacent(ambush, after)


class OneThrowAMove(_Base):
    """CK-R7 the other way: one throw of the dice settles every fight of a move."""

    def _dice(self, state: State, a: dict) -> State:
        after = super()._dice(state, a)
        while after.phase == "combat":
            after = super()._dice(after, a)
        return after


class TimeoutResets(_Base):
    """CK-R8 the other way: a phase that runs out of time resets the game."""

    def deadlines(self, state: State) -> list[tuple[int, str]]:
        return [(t, "reset" if e == "phase-timeout" else e) for t, e in super().deadlines(state)]


class OpenDeployment(_Base):
    """CK-R9 the other way: during deployment each side sees the other's placements."""

    def view(self, state: State, observer: str | None = None) -> dict:
        seen = super().view(state, observer)
        if state.phase == "deploy" and observer not in (None, "referee"):
            seen["units"] = super().view(state, "referee")["units"]
        return seen


class VictoryAtPhaseEnd(_Base):
    """CK-R10 the other way: victory is checked when a phase ends, not after each move or reveal."""

    def _after(self, state: State) -> State:
        return replace(state, phase="play") if state.phase == "combat" and not state.fights else state

    def _end_phase(self, state: State, a: dict) -> State:
        return ConquestKing._after(self, super()._end_phase(state, a))


class ResetBeforeDeletion(_Base):
    """CK-R11 the other way: at the same minute a reset comes before a deletion."""

    def deadlines(self, state: State) -> list[tuple[int, str]]:
        order_ = {"reset": 0, "deleted": 1, "phase-timeout": 2, "archived": 3}
        return sorted(super().deadlines(state), key=lambda e: (e[0], order_[e[1]]))


class FacingSouth(_Base):
    """CK-R12 the other way: kings and units without a facing face south."""

    def _default_facing(self, side: Any) -> str:
        return "s"


class RevealUnderAFriend(_Base):
    """CK-R13 the other way: an ambush may appear under a friend."""

    def _reveal(self, state: State, a: dict) -> State:
        lurking = self.unit_at(state, tuple(a["at"]), hidden=True)
        if state.phase == "play" and (lurking is None or lurking.side != self.p.sides[state.side]):
            raise IllegalAction("not-hidden", f"no hidden ambush of yours at {a['at']}")
        unit = self._mover(state, a["at"], hidden=True)
        units = tuple(replace(u, hidden=False, moved=False) if u.id == unit.id else u for u in state.units)
        return self._after(replace(state, units=units))


class DiagonalsAreAdjacent(_Base):
    """CK-R14 the other way: the ambush's trigger counts diagonal neighbours as adjacent too."""

    def _triggers(self, ambush: tuple[int, int], before: tuple[int, int], after: tuple[int, int]) -> bool:
        def near(p: tuple[int, int], q: tuple[int, int]) -> bool:
            return max(abs(p[0] - q[0]), abs(p[1] - q[1])) == 1

        return near(ambush, after) and not near(ambush, before)


class StrikerTakesTheBonus(_Base):
    """CK-R15 the other way: figure 2's +2 is the striking unit's, so the direction bonus is the striker's alone
    and a supporter brings only its attack and terrain (the figure's rear unit would then have struck)."""

    def bases(self, state: State, fight: Any) -> tuple[int, int]:
        attack, defence = super().bases(state, fight)
        attackers, target = self.participants(state, fight)
        for u in attackers[1:]:
            attack -= self.p.directions[self._side_of(target, u.at)]
        return attack, defence


# --- the rules (specs/conquest-king.md, Rules): each read the way a builder plausibly might ------------------


def _mine(state: State, side: str) -> list[Unit]:
    """The side's bought units (its King left out), in placement order."""
    return sorted((u for u in state.units if u.side == side and u.kind != "king"), key=order)


class Spalkia(_Base):
    """CK-SIDE-1 read from the katakana: スパルキア romanised with an l, so the first kingdom is `spalkia` in every
    action and view (Gaias stays `gaias`)."""

    def __init__(self) -> None:
        m = load_data("conquest-king")["map"]
        castles = {("spalkia" if s == "sparkia" else s): xy for s, xy in m["castles"].items()}
        super().__init__(sides=["spalkia", "gaias"], first="spalkia", map={**m, "castles": castles})


class OneOfEachKind(_Base):
    """CK-ARMY-1 read as 'five units, one of each type' (§5 全てで５種類の兵科ユニット): a side buys each kind at
    most once, whatever gold it has left."""

    def _deploy(self, state: State, a: dict) -> State:
        self._deploying(state, a["side"])
        if any(u.kind == a["kind"] for u in _mine(state, a["side"])):
            raise IllegalAction("unknown-unit", f"{a['side']} has bought its {a['kind']} already")
        return super()._deploy(state, a)

    def _legal(self, state: State) -> list[dict]:
        return [x for x in super()._legal(state) if x["type"] != "deploy"
                or not any(u.kind == x["kind"] for u in _mine(state, x["side"]))]


SINGULAR = {"spearmen": "spearman", "archers": "archer"}


class SingularKindNames(_Base):
    """CK-ARMY-1 with the unit types named as one soldier each: actions take the spec's names, but a view calls a
    spearmen unit `spearman` and an archers unit `archer` (one unit, one name in the singular)."""

    def view(self, state: State, observer: str | None = None) -> dict:
        seen = super().view(state, observer)
        for u in seen["units"]:
            u["kind"] = SINGULAR.get(u["kind"], u["kind"])
        return seen


class _Victory(_Base):
    """The reference's victory check (ruling CK-R10's order), with the two points a misreading may read otherwise:
    when a lost King loses the game, and what holds a square beside the enemy castle."""

    def _king_lost(self, state: State, side: str) -> bool:
        return not any(u.id == f"{side}-king" for u in state.units)

    def _holds(self, state: State, side: str, at: tuple[int, int]) -> bool:
        return any(u.at == at and u.side == side and not u.hidden for u in state.units)

    def _after(self, state: State) -> State:
        sides = self.p.sides
        for s, side in enumerate(sides):
            if self._king_lost(state, sides[1 - s]):
                return self._finish(state, side, "king")
        for s, side in enumerate(sides):
            if all(self._holds(state, side, g) for g in self.p.gates[sides[1 - s]]):
                return self._finish(state, side, "gates")
        return state


class KingLostOnlyInAFight(_Victory):
    """CK-WIN-1 read word for word, 'by combat' (戦闘により): only a King destroyed in a fight with dice loses the
    game; a King that stops on the enemy ambush's square is destroyed (CK-AMB-3) but the game goes on."""

    def _king_lost(self, state: State, side: str) -> bool:
        last = dict(state.last_combat or ())
        return super()._king_lost(state, side) and "dice" in last and f"{side}-king" in last["destroyed"]


class KingLostOnlyDefending(_Victory):
    """CK-WIN-1 read as 'destroying the enemy King by attacking it': a King that attacks and loses its fight is
    destroyed (CK-ATK-5), but the defender did not destroy it by an attack, so the game goes on."""

    def _king_lost(self, state: State, side: str) -> bool:
        last = dict(state.last_combat or ())
        return super()._king_lost(state, side) and last.get("winner") != "defender"


class KingHoldsNoGate(_Victory):
    """CK-WIN-2 with 自軍ユニット read as the bought units (§5 sets the King apart from the five unit types): a King
    standing on a square beside the enemy castle does not hold it."""

    def _holds(self, state: State, side: str, at: tuple[int, int]) -> bool:
        return any(u.at == at and u.side == side and not u.hidden and u.kind != "king" for u in state.units)


class FiveColumnsWithTheCastle(_Base):
    """CK-DEPLOY-1 with 'within 5 columns' counted as five columns including the castle's own: Sparkia places on
    columns 0-4, Gaias on 11-15."""

    def __init__(self) -> None:
        super().__init__(deploy_columns=4)


class TakeBackTheLastOnly(_Base):
    """CK-DEPLOY-2 read as an undo (やり直し): only the unit placed last can be taken back, then the one before."""

    def _undeploy(self, state: State, a: dict) -> State:
        self._deploying(state, a["side"])
        placed = _mine(state, a["side"])
        if not placed or list(placed[-1].at) != list(a["at"]):
            raise IllegalAction("no-unit", f"only the unit placed last can be taken back, not {a['at']}")
        return super()._undeploy(state, a)

    def _legal(self, state: State) -> list[dict]:
        def last(side: str) -> list[int] | None:
            placed = _mine(state, side)
            return list(placed[-1].at) if placed else None

        return [x for x in super()._legal(state) if x["type"] != "undeploy" or x["at"] == last(x["side"])]


class OneStepCompletion(_Base):
    """CK-DEPLOY-3 with the second 布陣完了 read as the interface's 'are you sure?', not a step of the game: one
    complete finishes a side's deployment."""

    def _complete(self, state: State, a: dict) -> State:
        after = super()._complete(state, a)
        s = self.p.sides.index(a["side"])
        return super()._complete(after, a) if after.phase == "deploy" and after.complete[s] == 1 else after


class LatestAmbushCounts(_Base):
    """CK-AMB-1 read as 'the ambush designation is held by one unit at a time': designating a second unit moves the
    designation to it instead of being refused."""

    def _deploy(self, state: State, a: dict) -> State:
        if a.get("ambush") is True:
            state = replace(state, units=tuple(replace(u, ambush=False) if u.side == a["side"] else u
                                               for u in state.units))
        return super()._deploy(state, a)

    def _legal(self, state: State) -> list[dict]:
        out = super()._legal(state)
        if state.phase != "deploy":
            return out
        holding = {u.side for u in state.units if u.ambush}
        return out + [{**x, "ambush": True} for x in out
                      if x["type"] == "deploy" and "ambush" not in x and x["side"] in holding]


class HiddenWhenPlaced(_Base):
    """CK-AMB-2 read as 'the ambush is hidden from the moment it is designated': during deployment the designated
    unit is already `hidden` (its square still taken), not only once the game starts."""

    def _deploy(self, state: State, a: dict) -> State:
        after = super()._deploy(state, a)
        return replace(after, units=tuple(replace(u, hidden=u.ambush) for u in after.units))

    def _undeploy(self, state: State, a: dict) -> State:
        shown = replace(state, units=tuple(replace(u, hidden=False) for u in state.units))
        after = super()._undeploy(shown, a)
        return replace(after, units=tuple(replace(u, hidden=u.ambush) for u in after.units))

    def _taken(self, state: State) -> set[tuple[int, int]]:
        return {u.at for u in state.units}


class AmbushSquareIsAFight(_Base):
    """CK-AMB-3 with 無条件 (unconditionally) read as 'whether or not the mover chose to attack': an enemy that stops
    on the ambush's square makes it appear and strike, and the dice decide, as for an enemy beside it."""

    def _move(self, state: State, a: dict) -> State:
        unit = self.unit_at(state, tuple(a["from"]))
        lurking = self.unit_at(state, tuple(a["to"]), hidden=True)
        if state.phase != "play" or unit is None or lurking is None or lurking.side == unit.side:
            return super()._move(state, a)
        after = super()._move(replace(state, units=tuple(u for u in state.units if u.id != lurking.id)), a)
        units = tuple(sorted(after.units + (replace(lurking, hidden=False),), key=order))
        if after.phase == "over":
            return replace(after, units=units)
        return replace(after, units=units, phase="combat",
                       fights=(Fight("ambush", lurking.id, unit.id),) + after.fights)


class KingIsNoUnitForTheAmbush(_Base):
    """CK-AMB-3 read for 'units' only (敵ユニット), the King being set apart from the units in §5: a King that stops
    on the enemy ambush's square is not destroyed, and the ambush stays hidden under it."""

    def _move(self, state: State, a: dict) -> State:
        unit = self.unit_at(state, tuple(a["from"]))
        lurking = self.unit_at(state, tuple(a["to"]), hidden=True)
        if state.phase != "play" or unit is None or unit.kind != "king" or lurking is None \
                or lurking.side == unit.side or unit.side != self.p.sides[state.side]:
            return super()._move(state, a)
        after = super()._move(replace(state, units=tuple(u for u in state.units if u.id != lurking.id)), a)
        return replace(after, units=tuple(sorted(after.units + (lurking,), key=order)))


class _Fights(_Base):
    """The reference's fight (CK-ATK-3 to CK-ATK-5), with the two points a misreading may read otherwise: who wins
    the throw, and who is destroyed."""

    def _attacker_wins(self, fight: Fight, totals: tuple[int, int]) -> bool:
        return totals[0] >= totals[1]

    def _losers(self, fight: Fight, attackers: list[Unit], target: Unit, attacker_wins: bool) -> list[str]:
        return [target.id] if attacker_wins else [fight.attacker]

    def _dice(self, state: State, a: dict) -> State:
        if state.phase != "combat":
            raise IllegalAction("wrong-phase", "no combat waits for dice")
        rolls = (a["attacker"], a["defender"])
        if not all(type(d) is int and 1 <= d <= 6 for d in rolls):
            raise IllegalAction("bad-face", f"dice show 1 to 6, got {list(rolls)}")
        fight = state.fights[0]
        attackers, target = self.participants(state, fight)
        attack, defence = self.bases(state, fight)
        totals = (attack + rolls[0], defence + rolls[1])
        wins = self._attacker_wins(fight, totals)
        losers = self._losers(fight, attackers, target, wins)
        report = (("kind", fight.kind), ("attackers", [u.id for u in attackers]), ("target", target.id),
                  ("attack", attack), ("defence", defence), ("dice", list(rolls)), ("totals", list(totals)),
                  ("winner", "attacker" if wins else "defender"), ("destroyed", losers))
        rest = tuple(f for f in state.fights[1:] if f.attacker not in losers and f.target not in losers)
        state = replace(state, units=tuple(u for u in state.units if u.id not in losers), fights=rest,
                        last_combat=report)
        return state if rest else self._after(replace(state, phase="play"))


class IntruderIsTheAttacker(_Fights):
    """CK-AMB-4 with the intruder read as the attacker of the fight it walked into: when the ambush strikes, a tie
    goes to the intruder, not to the ambush."""

    def _attacker_wins(self, fight: Fight, totals: tuple[int, int]) -> bool:
        return totals[0] > totals[1] if fight.kind == "ambush" else totals[0] >= totals[1]


class OwnAmbushSquareTaken(_Base):
    """CK-AMB-5 missed by a builder who keeps 'never end on another unit' for the own hidden ambush (its owner sees
    it on its square): a friend may pass over the ambush's square but not stop on it."""

    def _reachable(self, state: State, unit: Unit) -> dict[tuple[int, int], int]:
        lurking = {u.at for u in state.units if u.hidden and u.side == unit.side}
        return {at: c for at, c in super()._reachable(state, unit).items() if at == unit.at or at not in lurking}


class MovingRevealsTheAmbush(_Base):
    """CK-AMB-6 read as 'it cannot move while hidden, so an order to move makes it appear first': moving the own
    hidden ambush reveals it and moves it."""

    def _move(self, state: State, a: dict) -> State:
        at = tuple(a["from"])
        lurking = self.unit_at(state, at, hidden=True)
        if state.phase == "play" and lurking is not None and lurking.side == self.p.sides[state.side] \
                and self.unit_at(state, at) is None:
            state = replace(state, units=tuple(replace(u, hidden=False) if u.id == lurking.id else u
                                               for u in state.units))
        return super()._move(state, a)


class AppearingIsActing(_Base):
    """CK-AMB-7 with appearing read as the ambush's action for the turn: a revealed ambush has `moved` and may not
    move until its side's next phase."""

    def _reveal(self, state: State, a: dict) -> State:
        after = super()._reveal(state, a)
        at, side = tuple(a["at"]), self.p.sides[state.side]
        return replace(after, units=tuple(replace(u, moved=True) if u.at == at and u.side == side and u.ambush
                                          else u for u in after.units))


class StrikingAmbushHidesAgain(_Base):
    """CK-AMB-8 read as the owner's release only (伏兵を解除): an ambush that appeared because an enemy came beside
    it strikes and, if it survives, goes back into hiding; only an ambush its owner revealed stays visible."""

    def _dice(self, state: State, a: dict) -> State:
        fight = state.fights[0] if state.phase == "combat" and state.fights else None
        after = super()._dice(state, a)
        if fight is None or fight.kind != "ambush" or after.phase == "over":
            return after
        return replace(after, units=tuple(replace(u, hidden=True) if u.id == fight.attacker else u
                                          for u in after.units))


class EnemyProgressShown(_Base):
    """CK-HIDE-1 read as hiding only the enemy's gold (ruling CK-R9): a side sees whether the enemy has completed its
    deployment (the seed has it wait for the other side), so its view's `deployment` holds the enemy's `complete`."""

    def view(self, state: State, observer: str | None = None) -> dict:
        seen = super().view(state, observer)
        if observer in self.p.sides:
            for i, side in enumerate(self.p.sides):
                seen["deployment"].setdefault(side, {"complete": state.complete[i]})
        return seen


class EveryPhaseATurn(_Base):
    """CK-TURN-1 with each side's phase read as a turn of its own: the turn number goes up at every phase."""

    def _next_phase(self, state: State) -> State:
        return replace(super()._next_phase(state), turn=state.turn + 1)


class TurningIsNoMove(_Base):
    """CK-MOVE-1 with 'turning costs nothing' read as 'turning is not a move': a unit that only turns on its square
    has not moved (`moved` stays false) and may still move this turn."""

    def _move(self, state: State, a: dict) -> State:
        after = super()._move(state, a)
        if a["from"] != a["to"] or a.get("attack") or after.phase != "play":
            return after
        uid = self.unit_at(state, tuple(a["from"])).id  # type: ignore[union-attr]
        return replace(after, units=tuple(replace(u, moved=False) if u.id == uid else u for u in after.units))


class CostOfTheSquareLeft(_Base):
    """CK-TERRAIN-1 with a terrain's movement cost read as the cost of moving out of it: each step costs what the
    square left costs (a unit in a forest pays 2 to step out onto plain, 1 to step from plain into a forest)."""

    def _entries(self, terrain: tuple[str, ...]) -> dict:
        p = self.p
        cost = {(x, y): p.cost[p.letters[terrain[y][x]]] for y in range(p.height) for x in range(p.width)}
        return {at: tuple((nxt, cost[at]) for nxt in ((at[0] + dx, at[1] + dy) for dx, dy in STEPS.values())
                          if nxt in cost and cost[nxt] is not None) for at in cost if cost[at] is not None}


class AttacksAnyNeighbour(_Base):
    """CK-ATK-1 read without the facing: a unit that chooses to attack fights an enemy beside it even if it faces
    elsewhere (the first by n, e, s, w), keeping the facing it was given."""

    def _move(self, state: State, a: dict) -> State:
        side = self.p.sides[state.side]

        def enemy(at: tuple[int, int] | None) -> bool:
            u = self.unit_at(state, at) if at else None
            return u is not None and u.side != side

        unit = self.unit_at(state, tuple(a["from"]))
        if state.phase != "play" or not a.get("attack") or a["facing"] not in STEPS or unit is None \
                or enemy(self._faced(tuple(a["to"]), a["facing"])):
            return super()._move(state, a)
        towards = next((f for f in STEPS if enemy(self._faced(tuple(a["to"]), f))), None)
        if towards is None:
            return super()._move(state, a)
        after = super()._move(state, {**a, "facing": towards})
        return replace(after, units=tuple(replace(u, facing=a["facing"]) if u.id == unit.id else u
                                          for u in after.units))


class SupportWithoutFacing(_Base):
    """CK-ATK-2 read as mutual support by neighbours (相互支援): every own unit beside the target joins the attack,
    whichever way it faces."""

    def participants(self, state: State, fight: Any) -> tuple[list[Unit], Unit]:
        target, striker = self.unit(state, fight.target), self.unit(state, fight.attacker)
        helpers = [u for u in state.units if u.side == striker.side and u.id != striker.id and not u.hidden
                   and adjacent(u.at, target.at)]
        return [striker] + helpers, target


class MovedUnitsDoNotSupport(_Base):
    """CK-ATK-2 read as 'a unit acts once a turn': a unit that has already moved this turn does not join an attack
    even when it stands beside the target facing it."""

    def participants(self, state: State, fight: Any) -> tuple[list[Unit], Unit]:
        attackers, target = super().participants(state, fight)
        return attackers[:1] + [u for u in attackers[1:] if not u.moved], target


class SupportingSpendsTheMove(_Base):
    """CK-ATK-2 read as 'supporting is acting': a unit of the side to move that joins an attack counts as moved and
    may not move for the rest of its phase."""

    def _dice(self, state: State, a: dict) -> State:
        helpers: set[str] = set()
        if state.phase == "combat" and state.fights:
            attackers, _ = self.participants(state, state.fights[0])
            helpers = {u.id for u in attackers[1:] if u.side == self.p.sides[state.side]}
        after = super()._dice(state, a)
        return replace(after, units=tuple(replace(u, moved=True) if u.id in helpers else u for u in after.units))


class TerrainShieldsOnlyTheDefender(_Base):
    """CK-ATK-3 with terrain read as cover: the defender adds its square's modifier, the attackers add none (figure
    2 shows only the defender's river)."""

    def bases(self, state: State, fight: Any) -> tuple[int, int]:
        attack, defence = super().bases(state, fight)
        attackers, _ = self.participants(state, fight)
        return attack - sum(self.p.modifier[self.terrain_at(state, u.at)] for u in attackers), defence


class TieToTheDefender(_Fights):
    """CK-ATK-4 with the usual wargame habit: the attacker must beat the defence, so a tie goes to the defender."""

    def _attacker_wins(self, fight: Fight, totals: tuple[int, int]) -> bool:
        return totals[0] > totals[1]


class AllAttackersFall(_Fights):
    """CK-ATK-5 read as 'the attack fails, so the attackers are destroyed': when the defender wins, every unit that
    joined the attack is destroyed, the supporters too."""

    def _losers(self, fight: Fight, attackers: list[Unit], target: Unit, attacker_wins: bool) -> list[str]:
        return [target.id] if attacker_wins else [u.id for u in attackers]


class FrontUnitFalls(_Fights):
    """CK-ATK-6's figure 2 read as a rule of position ('only the front unit is destroyed'): when the defender wins,
    the attacker standing in front of the target is destroyed, whichever unit struck (the striker if none stands
    there)."""

    def _losers(self, fight: Fight, attackers: list[Unit], target: Unit, attacker_wins: bool) -> list[str]:
        if attacker_wins:
            return [target.id]
        front = self._faced(target.at, target.facing)
        return [next((u.id for u in attackers if u.at == front), fight.attacker)]


class CertainFightsNeedNoDice(_Base):
    """CK-DICE-1's table read as the fight's rule: at a base difference of +5 or more (100%) the attacker wins and at
    -6 or less (0%) it loses without a throw, so no fight waits for dice."""

    def _settle(self, state: State) -> State:
        while state.phase == "combat":
            attack, defence = self.bases(state, state.fights[0])
            if attack + 1 >= defence + 6:
                dice = {"attacker": 1, "defender": 6}
            elif attack + 6 < defence + 1:
                dice = {"attacker": 6, "defender": 1}
            else:
                break
            state = super()._dice(state, {"type": "dice", **dice})
        return state

    def _move(self, state: State, a: dict) -> State:
        return self._settle(super()._move(state, a))

    def _dice(self, state: State, a: dict) -> State:
        return self._settle(super()._dice(state, a))


class _Lobby(_Base):
    """The reference's lobby deadlines (seed §3, ruling CK-R11), with the points a misreading may read otherwise:
    from which minute each deadline counts, on which fields it holds, which finished games are archived."""

    def _deletion_from(self, own: int, regs: list[int]) -> int:
        return own

    def _first_reset_from(self, regs: list[int]) -> int:
        return min(regs)

    def _lone_from(self, own: int) -> int:
        return own

    def _on(self, state: State, deadline: str) -> bool:  # first | lone | phase: the real-time field's deadlines
        return state.field == "realtime"

    def _archives(self, state: State) -> bool:
        return bool(state.result and state.result[0])

    def deadlines(self, state: State) -> list[tuple[int, str]]:
        lobby, events = self.p.lobby, []
        rt = lobby["realtime"]
        regs = [r for r in state.registered if r is not None]
        if state.phase == "over":
            if state.finished_at is not None and not state.archived and self._archives(state):
                wait = rt["finished_reset"] if state.field == "realtime" else lobby["finished_reset"]
                events.append((state.finished_at + wait, "archived"))
            return events
        if state.phase == "deploy":
            for s, reg in enumerate(state.registered):
                if reg is not None and state.complete[s] != 2:
                    events.append((self._deletion_from(reg, regs) + lobby["deploy_limit"], "deleted"))
        if regs and self._on(state, "first"):
            events.append((self._first_reset_from(regs) + rt["first_registration_reset"], "reset"))
        if len(regs) == 1 and self._on(state, "lone"):
            events.append((self._lone_from(regs[0]) + rt["lone_registration_reset"], "reset"))
        if state.phase in ("play", "combat") and self._on(state, "phase"):
            events.append((state.phase_started + rt["phase_limit"], "phase-timeout"))
        return sorted(events, key=lambda e: (e[0], PRECEDENCE[e[1]]))


class DeletionFromTheFirstRegistration(_Lobby):
    """CK-LOBBY-1 with 'registration' read as the game's (the first side to register opens it): both sides' 24 hours
    count from the first registration, the later side's too."""

    def _deletion_from(self, own: int, regs: list[int]) -> int:
        return min(regs)


class DeletionFromTheSecondRegistration(_Lobby):
    """CK-LOBBY-1 read as a deadline for the match: once both sides are registered, each side's 24 hours count from
    the later registration, when the two armies face each other (a side alone counts from its own)."""

    def _deletion_from(self, own: int, regs: list[int]) -> int:
        return max(regs)


class EveryEndArchived(_Lobby):
    """CK-LOBBY-2 read as 'every game that ends' (ゲームが終了すると): a deleted or reset game is archived an hour
    later too."""

    def _archives(self, state: State) -> bool:
        return True


class ResetFromTheSecondRegistration(_Lobby):
    """CK-LOBBY-3 with 'the first registration' read as the registration that completes the first pairing: the
    24 hours count from when both sides are registered."""

    def _first_reset_from(self, regs: list[int]) -> int:
        return max(regs)


class PhaseLimitAfterTheLastOrder(_Base):
    """CK-LOBBY-4 read as an idle limit: the 12 hours count from the side's last move or reveal, not from the start
    of its phase."""

    def _move(self, state: State, a: dict) -> State:
        after = super()._move(state, a)
        return replace(after, phase_started=state.clock) if after.phase != "over" else after

    def _reveal(self, state: State, a: dict) -> State:
        after = super()._reveal(state, a)
        return replace(after, phase_started=state.clock) if after.phase != "over" else after


class PhaseLimitOnEveryField(_Lobby):
    """CK-LOBBY-4 with the 12-hour phase read as a rule of every field (it is the one limit of play the seed
    gives): a phase ends after 12 hours on a normal field too."""

    def _on(self, state: State, deadline: str) -> bool:
        return deadline == "phase" or state.field == "realtime"


class RealtimeArchivesAfterAnHour(_Base):
    """CK-LOBBY-5 with the real-time bullets read as rules added to the normal field's: its one hour before the
    archive still holds, and the 30 minutes are not the archive's."""

    def __init__(self) -> None:
        lobby = load_data("conquest-king")["lobby"]
        super().__init__(lobby={**lobby, "realtime": {**lobby["realtime"], "finished_reset": 60}})


class LoneClockFromTheOpening(_Lobby):
    """CK-LOBBY-6 counted on the field's clock: the 2 hours a lone registration may wait count from the field's
    opening (minute 0), not from that registration."""

    def _lone_from(self, own: int) -> int:
        return 0


class LoneResetOnEveryField(_Lobby):
    """CK-LOBBY-6 read as a rule of every field: a lone registration resets a normal field after 2 hours too."""

    def _on(self, state: State, deadline: str) -> bool:
        return deadline == "lone" or state.field == "realtime"


class PositionOptionsWithoutAPosition(_Base):
    """CK-START-1 read leniently: `turn` and `side` are options of any start, and a start without `units` simply
    has no use for them (accepted and ignored, not refused)."""

    def new_state(self, ruleset: str | None = None, seed: int | None = None, setup: Any = None) -> State:
        if isinstance(setup, dict) and "units" not in setup:
            setup = {k: v for k, v in setup.items() if k not in ("turn", "side")}
        return super().new_state(ruleset, seed, setup)


class MovedClearedAtPhaseEnd(_Base):
    """CK-VIEW-1's `moved` read as 'has moved in the phase under way': a side's moved marks are cleared when its
    phase ends, not when its next phase begins."""

    def _next_phase(self, state: State) -> State:
        after = super()._next_phase(state)
        return replace(after, units=tuple(replace(u, moved=False) for u in after.units))


class NoStandStillMove(_Base):
    """CK-LEGAL-1 read as 'the moves that do something': a unit's move to its own square in the facing it already
    has is left out of the legal list (the move itself is still accepted)."""

    def _legal(self, state: State) -> list[dict]:
        facing = {u.at: u.facing for u in state.units if not u.hidden}
        return [x for x in super()._legal(state)
                if not (x["type"] == "move" and x["from"] == x["to"] and "attack" not in x
                        and facing.get(tuple(x["from"])) == x["facing"])]


class ExtraKeysIgnored(_Base):
    """CK-FORM-1 read leniently: an action's keys the game does not know are ignored, not refused."""

    def parse_action(self, data: Any) -> dict:
        from refimpl.games.conquest_king.engine import FORMS, OPTIONAL

        if type(data) is dict and data.get("type") in FORMS:
            known = FORMS[data["type"]] | OPTIONAL.get(data["type"], frozenset()) | {"type"}
            data = {k: v for k, v in data.items() if k in known}
        return super().parse_action(data)


class GoldBeforeSquare(_Base):
    """CK-FORM-2 in the order a shop checks: a deploy's price is looked at before its square, so a placement both
    out of the zone and over the budget is `over-budget`."""

    def _deploy(self, state: State, a: dict) -> State:
        s = self._deploying(state, a["side"])
        row = self.p.units.get(a["kind"])
        if row is not None and row["price"] is not None and row["price"] > state.gold[s]:
            raise IllegalAction("over-budget", f"{a['kind']} costs {row['price']}G; {state.gold[s]}G left")
        return super()._deploy(state, a)


class TimeoutChecksNoVictory(_Base):
    """CK-R10 read as 'victory follows a side's own actions': a phase that ends on its time limit only passes play
    on, and a condition it leaves standing is first seen after the next move or reveal."""

    def _wait(self, state: State, minutes: Any) -> State:
        if type(minutes) is not int or minutes < 0 or state.clock + minutes > SAFE_INTEGER:
            return super()._wait(state, minutes)
        end = state.clock + minutes
        while True:
            due = [(t, e) for t, e in self.deadlines(state) if t <= end]
            if not due:
                return replace(state, clock=end)
            when, event = due[0]
            state = replace(state, clock=when)
            if event == "archived":
                state = replace(state, archived=True)
            elif event == "phase-timeout":
                state = self._next_phase(replace(state, phase="play", fights=()))
            else:
                state = self._finish(state, None, event)


# --- wrong builds the kit's own tests serve by name (tests/builds/wrong.py), written before the catalogue: each
# breaks one rule plainly ----------------------------------------------------------------------------------------


class LeaksTheAmbush(ConquestKing):
    """Breaks CK-HIDE-1: a side's view shows the enemy's hidden ambush (as a hidden unit at its square)."""

    def __init__(self) -> None:
        super().__init__(load_data("conquest-king"))

    def view(self, state: State, observer: str | None = None) -> dict[str, Any]:
        shown = super().view(state, observer)
        if observer in self.p.sides and state.phase != "deploy":
            seen = {u["id"] for u in shown["units"]}
            shown["units"] += [u.json() for u in state.units if u.hidden and u.id not in seen]
        return shown


MISREADINGS: dict[str, Any] = {
    "CK-R1": OtherCorners,
    "CK-R2": OtherPrices,
    "CK-R3": GaiasFirst,
    "CK-R4": EveryoneEntersItsCastle,
    "CK-R5": FriendsBlock,
    "CK-R6": AnyMoveBesideTriggers,
    "CK-R7": OneThrowAMove,
    "CK-R8": TimeoutResets,
    "CK-R9": OpenDeployment,
    "CK-R10": VictoryAtPhaseEnd,
    "CK-R11": ResetBeforeDeletion,
    "CK-R12": FacingSouth,
    "CK-R13": RevealUnderAFriend,
    "CK-R14": DiagonalsAreAdjacent,
    "CK-R15": StrikerTakesTheBonus,
    "CK-R10#timeout-checks-nothing": TimeoutChecksNoVictory,
    "CK-SIDE-1": Spalkia,
    "CK-ARMY-1": OneOfEachKind,
    "CK-ARMY-1#kind-names": SingularKindNames,
    "CK-WIN-1": KingLostOnlyInAFight,
    "CK-WIN-1#attacking-king": KingLostOnlyDefending,
    "CK-WIN-2": KingHoldsNoGate,
    "CK-DEPLOY-1": FiveColumnsWithTheCastle,
    "CK-DEPLOY-2": TakeBackTheLastOnly,
    "CK-DEPLOY-3": OneStepCompletion,
    "CK-AMB-1": LatestAmbushCounts,
    "CK-AMB-2": HiddenWhenPlaced,
    "CK-AMB-3": AmbushSquareIsAFight,
    "CK-AMB-3#king": KingIsNoUnitForTheAmbush,
    "CK-AMB-4": IntruderIsTheAttacker,
    "CK-AMB-5": OwnAmbushSquareTaken,
    "CK-AMB-6": MovingRevealsTheAmbush,
    "CK-AMB-7": AppearingIsActing,
    "CK-AMB-8": StrikingAmbushHidesAgain,
    "CK-HIDE-1": EnemyProgressShown,
    "CK-TURN-1": EveryPhaseATurn,
    "CK-MOVE-1": TurningIsNoMove,
    "CK-TERRAIN-1": CostOfTheSquareLeft,
    "CK-ATK-1": AttacksAnyNeighbour,
    "CK-ATK-2": SupportWithoutFacing,
    "CK-ATK-2#moved-supporters": MovedUnitsDoNotSupport,
    "CK-ATK-2#support-spends-move": SupportingSpendsTheMove,
    "CK-ATK-3": TerrainShieldsOnlyTheDefender,
    "CK-ATK-4": TieToTheDefender,
    "CK-ATK-5": AllAttackersFall,
    "CK-ATK-6": FrontUnitFalls,
    "CK-DICE-1": CertainFightsNeedNoDice,
    "CK-LOBBY-1": DeletionFromTheFirstRegistration,
    "CK-LOBBY-1#from-second-registration": DeletionFromTheSecondRegistration,
    "CK-LOBBY-2": EveryEndArchived,
    "CK-LOBBY-3": ResetFromTheSecondRegistration,
    "CK-LOBBY-4": PhaseLimitAfterTheLastOrder,
    "CK-LOBBY-4#normal-field": PhaseLimitOnEveryField,
    "CK-LOBBY-5": RealtimeArchivesAfterAnHour,
    "CK-LOBBY-6": LoneClockFromTheOpening,
    "CK-LOBBY-6#normal-field": LoneResetOnEveryField,
    "CK-START-1": PositionOptionsWithoutAPosition,
    "CK-VIEW-1": MovedClearedAtPhaseEnd,
    "CK-LEGAL-1": NoStandStillMove,
    "CK-FORM-1": ExtraKeysIgnored,
    "CK-FORM-2": GoldBeforeSquare,
    "CK-HIDE-1#leaks-the-ambush": LeaksTheAmbush,
}
