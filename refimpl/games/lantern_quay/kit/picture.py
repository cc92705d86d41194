"""Lantern Quay as a picture: the unplaced dice, the three slots with their placed dice, the stock and the
lenses. Each die and slot carries its path (``dice[0]``, ``placed.forge``); drawn with the position before a
step, each die, slot and counter the step changed is framed."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from ....reports.pictures.boardparts import PIPS, die, field_notes, short, tagged, whole
from ....reports.pictures.svg import MARK, caption, changed, coord, esc, is_marked, moved_halo, moved_tint, svg
from ... import load_data
from ..engine import INFO

WIDTH = 620
SLOTS = ("salvage", "forge", "install")
FIELDS = ("game", "ruleset", "round", "phase", "brass", "modules", "lenses", "dice", "placed", "result")
MAX_DICE = 7  # a view may hold any list: draw this many, name the rest
MAX_ICONS = 12  # brass coins and modules drawn one by one up to this count

@lru_cache(maxsize=1)
def _faces() -> Mapping[str, Any]:
    """The face table (salvage, forge, install) and the rulesets, from the game's data file."""
    return load_data(INFO.name)


def _effect(slot: str, face: int | None) -> str:
    """What ``face`` does on ``slot``, in a few words (empty for a face that is not 1-6)."""
    if face not in PIPS:
        return ""
    data = _faces()
    if slot == "salvage":
        return f"+{data['salvage'][face]} brass"
    if slot == "forge":
        cost = data["forge"][face]
        return "nothing" if cost is None else f"pay {cost['brass']} brass, +{cost['modules']} module"
    return "light a lens (needs a module)" if face >= data["install"]["min_face"] else "nothing"


def _text(x: float, y: float, text: str, path: str | None, marks: frozenset[str], size: int = 15,
          weight: str = "normal", moved: bool = False) -> str:
    """A text line, tagged with the field it shows (in the mark colour when it differs, tinted when the step
    changed it)."""
    attrs = tagged(path, marks) if path else ""
    fill = MARK if path and is_marked(path, marks) else "#222"
    tint = moved_tint(x - 3, y - size, len(text) * size * .55 + 6, size + 5) if moved else ""
    return tint + (f'<text x="{x:.0f}" y="{y:.0f}" font-size="{size}" font-family="sans-serif" font-weight="{weight}" '
            f'fill="{fill}"{attrs}>{esc(text)}</text>')


def _icon(field: str, cx: float, top: float) -> str:
    """One unit of stock: a brass coin or a module block."""
    if field == "brass":
        return f'<circle cx="{cx}" cy="{top + 14}" r="9" fill="#c9a227" stroke="#6d5a10"/>'
    return f'<rect x="{cx - 9}" y="{top + 5}" width="18" height="18" rx="3" fill="#6b7b8c" stroke="#333"/>'


def _stock(y: float, view: Mapping[str, Any], marks: frozenset[str], notes: list[str],
           before: Mapping[str, Any] | None = None) -> str:
    """Brass as coins, modules as blocks, and the three lenses lit or dark, from row ``y``."""
    out = []
    for row, field in enumerate(("brass", "modules")):
        top = y + row * 34
        count = whole(view.get(field))
        out.append(_text(20, top + 20, f"{field}: {'?' if count is None else short(count, 5)}", field, marks,
                         moved=changed(before, view, field)))
        if count is None:
            notes.append(f"{field}: {short(view.get(field), 40)} (not a whole number)")
            continue
        stroke = f'stroke="{MARK}" stroke-width="3"' if is_marked(field, marks) else 'stroke="none"'
        icons = [(f'<rect x="116" y="{top}" width="{max(1, min(count, MAX_ICONS)) * 24 + 8}" height="28" rx="4" '
                 f'fill="none" {stroke}/>')]
        icons.extend(_icon(field, 132 + i * 24, top) for i in range(max(0, min(count, MAX_ICONS))))
        if count > MAX_ICONS:
            icons.append(f'<text x="{132 + MAX_ICONS * 24}" y="{top + 19}" font-size="13" '
                         f'font-family="sans-serif">+{short(count - MAX_ICONS)}</text>')
        out.append(f"<g{tagged(field, marks)}>{''.join(icons)}</g>")
    lenses, top = whole(view.get("lenses")), y + 68
    out.append(_text(20, top + 24, f"lenses: {'?' if lenses is None else short(lenses)} of 3", "lenses", marks,
                     moved=changed(before, view, "lenses")))
    if lenses is None:
        notes.append(f"lenses: {short(view.get('lenses'), 40)} (not a whole number)")
    stroke = f'stroke="{MARK}" stroke-width="3"' if is_marked("lenses", marks) else 'stroke="#333"'
    lamps = [f'<circle cx="{200 + i * 44}" cy="{top + 18}" r="15" '
             f'fill="{"#ffd54a" if lenses is not None and i < lenses else "#555"}" {stroke}/>' for i in range(3)]
    out.append(f"<g{tagged('lenses', marks)}>{''.join(lamps)}</g>")
    return "".join(out)


def draw(view: Mapping[str, Any], marks: frozenset[str], before: Mapping[str, Any] | None = None) -> str:
    """The position: a header (ruleset, round, phase, result), the rolled dice, the slots and the stock; given
    the position ``before`` the step, what the step changed."""
    notes: list[str] = [] if isinstance(view, Mapping) else [f"view: {short(view, 60)} (not an object)"]
    view = view if isinstance(view, Mapping) else {}
    parts = [f'<rect width="{WIDTH}" height="100%" fill="#f4f1ea"/>',
             _text(12, 24, f"Lantern Quay  ruleset {short(view.get('ruleset', '?'), 6)}", "ruleset", marks, 16,
                   "bold"),
             _text(260, 24, f"round {short(view.get('round', '?'), 6)} of 3", "round", marks,
                   moved=changed(before, view, "round")),
             _text(380, 24, f"phase: {short(view.get('phase', '?'))}", "phase", marks,
                   moved=changed(before, view, "phase"))]
    result = view.get("result", "?")
    words = "(game goes on)" if result is None else short(result)
    parts.append(_text(12, 48, f"result: {words}", "result", marks, 15, "normal" if result is None else "bold",
                       changed(before, view, "result")))
    rule = _faces()["rulesets"].get(view.get("ruleset")) if isinstance(view.get("ruleset"), str) else None
    if rule:
        notes.append(f"ruleset {view['ruleset']}: {rule['summary']}")

    parts.append(_text(12, 80, "dice to place (roll order):", "dice", marks, 13))
    dice = view.get("dice")
    if isinstance(dice, list):
        for i, face in enumerate(dice[:MAX_DICE]):
            parts.append(die(200 + i * 58, 62, 48, face, f"dice[{i}]", marks))
            parts.append(coord(224 + i * 58, 123, f"dice[{i}]", 10))
        if changed(before, view, "dice"):
            parts.append(moved_halo(194, 56, max(1, min(len(dice), MAX_DICE)) * 58 + 2, 72, 8))
        if not dice:
            parts.append('<text x="200" y="92" font-size="13" font-family="sans-serif" fill="#777">(none)</text>')
        if len(dice) > MAX_DICE:
            notes.append(f"dice: {len(dice) - MAX_DICE} more not drawn")
    elif "dice" in view:
        notes.append(f"dice: {short(dice, 40)} (not a list)")

    placed = view.get("placed")
    if not isinstance(placed, Mapping):
        if "placed" in view:
            notes.append(f"placed: {short(placed, 40)} (not an object)")
        placed = {}
    # Under a ruleset that resolves each die as it is placed, the slots have no order to show.
    ordered = not rule or rule.get("timing") != "on-placement"
    for i, slot in enumerate(SLOTS):
        x, path = 12 + i * 202, f"placed.{slot}"
        stroke = f'stroke="{MARK}" stroke-width="3"' if is_marked(path, marks) else 'stroke="#555"'
        parts.append(f'<rect x="{x}" y="130" width="178" height="128" rx="8" fill="#fff" {stroke}'
                     f'{tagged(path, marks)}/>')
        parts.append(f'<text x="{x + 89}" y="150" font-size="14" font-weight="bold" text-anchor="middle" '
                     f'font-family="sans-serif">{f"{i + 1}. " if ordered else ""}{slot.capitalize()}</text>')
        face = placed.get(slot)
        if face is None:
            parts.append(f'<rect x="{x + 63}" y="162" width="52" height="52" rx="8" fill="none" stroke="#aaa" '
                         f'stroke-dasharray="4 3"/>')
        else:
            parts.append(die(x + 63, 162, 52, face, path, marks, "#fdf6d8"))
        parts.append(f'<text x="{x + 89}" y="240" font-size="11" text-anchor="middle" font-family="sans-serif" '
                     f'fill="#444">{esc(_effect(slot, whole(face)))}</text>')
        parts.append(coord(x + 89, 254, path, 10))
        then = before.get("placed") if before is not None else None
        if isinstance(then, Mapping) and then.get(slot) != face:
            parts.append(moved_halo(x - 5, 125, 188, 138, 11))
        if i < 2 and ordered:
            parts.append(f'<path d="M{x + 181} 194 h8 v-6 l9 10 l-9 10 v-6 h-8 z" fill="#555"/>')
    notes.extend(f"placed.{short(k)}: unknown slot" for k in placed if k not in SLOTS)

    parts.append(_stock(276, view, marks, notes, before))
    notes.extend(field_notes(view, FIELDS))
    extra, bottom = caption(notes + [f"differs: {m}" for m in sorted(marks)], 388, WIDTH)
    return svg(WIDTH, bottom + 8, "".join(parts) + extra)
