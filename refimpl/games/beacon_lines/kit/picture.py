"""Beacon Lines as a picture: the seven-region map with its ten routes, each region's control and markers,
the scores, the round and the result. Each region carries its ID (what views and claims call it); drawn with the
position before a step, each region, score or counter the step changed is framed."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from ....reports.pictures.boardparts import field_notes, short, tagged, whole
from ....reports.pictures.svg import MARK, caption, changed, coord, esc, is_marked, moved_halo, moved_tint, svg
from ... import load_data
from ..engine import INFO

WIDTH, BOX_W, BOX_H = 680, 160, 100
FACTIONS = ("red", "blue")
INK: dict[Any, str] = {"red": "#c0392b", "blue": "#2765b0"}  # looked up by any value a view holds
TINT = {"red": "#f6cdc8", "blue": "#c9daf3", None: "#ececec"}
FIELDS = ("game", "ruleset", "round", "markers", "control", "scores", "result")
MAX_TOKENS = 7  # markers drawn one by one up to this count, then "+n"

# Region centres: Homes on the left, the three passes in the middle (north on top), objectives on the right,
# so every route runs left to right.
PLACE = {"red-home": (95, 170), "blue-home": (95, 370), "north-pass": (335, 120), "crossroads": (335, 270),
         "south-pass": (335, 420), "beacon": (575, 195), "depot": (575, 345)}


@lru_cache(maxsize=1)
def _board() -> Mapping[str, Any]:
    """The map (regions, edges, values per ruleset) from the game's data file."""
    return load_data(INFO.name)


def _value(region: Mapping[str, Any], ruleset: Any) -> int | None:
    """The region's value under ``ruleset`` (None when the ruleset is unknown)."""
    rulesets = _board()["rulesets"]
    if not isinstance(ruleset, str) or ruleset not in rulesets:
        return None
    return rulesets[ruleset].get("values", {}).get(region["id"], region["value"])


def _tokens(x: float, y: float, region: str, faction: str, count: Any, marks: frozenset[str]) -> str:
    """One faction's markers on a region: a row of discs (``+n`` past MAX_TOKENS), outlined when marked."""
    path = f"markers.{region}.{faction}"
    n = whole(count)
    label = f"{faction}: {'?' if n is None else short(n, 5)}"
    stroke = f'stroke="{MARK}" stroke-width="3"' if is_marked(path, marks) else 'stroke="none"'
    out = [(f'<g{tagged(path, marks)}><rect x="{x - 4:.0f}" y="{y - 9:.0f}" width="{BOX_W - 16}" height="18" '
            f'rx="4" fill="none" {stroke}/>'),
           (f'<text x="{x:.0f}" y="{y + 4:.0f}" font-size="11" font-family="sans-serif" fill="{INK[faction]}">'
           f"{esc(label)}</text>")]
    for i in range(max(0, min(n or 0, MAX_TOKENS))):
        out.append(f'<circle cx="{x + 58 + i * 10:.0f}" cy="{y:.0f}" r="4.5" fill="{INK[faction]}"/>')
    if n is not None and n > MAX_TOKENS:
        out.append(f'<text x="{x + 58 + MAX_TOKENS * 10:.0f}" y="{y + 4:.0f}" font-size="10" '
                   f'font-family="sans-serif">+</text>')
    return "".join(out) + "</g>"


def _moved(region: str, view: Mapping[str, Any], before: Mapping[str, Any] | None) -> bool:
    """True when the step changed the region's control or markers."""
    if before is None:
        return False
    def at(v: Mapping[str, Any], field: str) -> Any:
        return v.get(field, {}).get(region) if isinstance(v.get(field), Mapping) else None
    return any(at(before, f) != at(view, f) for f in ("control", "markers"))


def _region(region: Mapping[str, Any], view: Mapping[str, Any], marks: frozenset[str], notes: list[str],
            before: Mapping[str, Any] | None = None) -> str:
    """One region: a box tinted by its controller, its name, value and control, and its markers (framed in
    the move colour when the step changed them)."""
    rid = region["id"]
    cx, cy = PLACE[rid]
    x, y = cx - BOX_W / 2, cy - BOX_H / 2
    control = view.get("control")
    listed = isinstance(control, Mapping) and rid in control
    owner = control[rid] if isinstance(control, Mapping) and listed else None
    known = listed and (owner is None or isinstance(owner, str) and owner in FACTIONS)
    if isinstance(control, Mapping) and not known:
        notes.append(f"control.{rid}: " + (f"{short(owner)} (not red, blue or null)" if listed else "missing"))
    fill = TINT[owner] if known else "#ffffff"
    held = ("neutral" if owner is None else "held by " + short(owner, 10)) if listed else "control unknown"
    path = f"control.{rid}"
    edge = INK.get(region.get("owner"), "#555")
    stroke = (f'stroke="{MARK}" stroke-width="4"' if is_marked(path, marks)
              else f'stroke="{edge}" stroke-width="{3 if region["kind"] == "home" else 1.5}"')
    value = _value(region, view.get("ruleset"))
    out = [(f'<rect x="{x:.0f}" y="{y:.0f}" width="{BOX_W}" height="{BOX_H}" rx="10" fill="{fill}" {stroke}'
           f'{tagged(path, marks)}/>'),
           (f'<text x="{cx:.0f}" y="{y + 18:.0f}" font-size="14" font-weight="bold" text-anchor="middle" '
           f'font-family="sans-serif">{esc(region["name"])}</text>'),
           (f'<text x="{cx:.0f}" y="{y + 34:.0f}" font-size="11" text-anchor="middle" font-family="sans-serif" '
           f'fill="#444">{esc(region["kind"])}, worth {"?" if value is None else value}</text>'),
           (f'<text x="{cx:.0f}" y="{y + 48:.0f}" font-size="11" text-anchor="middle" font-family="sans-serif" '
           f'fill="#444">{esc(held)}</text>')]
    out.append(coord(x + 4, y - 4, rid, 11, "start", "#555"))
    if _moved(rid, view, before):
        out.append(moved_halo(x - 10, y - 10, BOX_W + 20, BOX_H + 20, 16))
    if is_marked(path, marks):  # a dashed halo too: a Home's own outline is already red
        out.append(f'<rect x="{x - 6:.0f}" y="{y - 6:.0f}" width="{BOX_W + 12}" height="{BOX_H + 12}" rx="14" '
                   f'fill="none" stroke="{MARK}" stroke-width="3" stroke-dasharray="8 4"/>')
    if region["kind"] == "home":
        out.append(f'<text x="{cx:.0f}" y="{y + 76:.0f}" font-size="11" text-anchor="middle" '
                   f'font-family="sans-serif" fill="#666">permanent, no markers</text>')
        return "".join(out)
    markers = view.get("markers")
    counts = markers.get(rid, "missing") if isinstance(markers, Mapping) else {}
    if not isinstance(counts, Mapping):
        notes.append(f"markers.{rid}: " + ("missing" if counts == "missing" else f"{short(counts)} (not an object)"))
        counts = {}
    for i, faction in enumerate(FACTIONS):
        out.append(_tokens(x + 12, y + 66 + i * 20, rid, faction, counts.get(faction), marks))
    return "".join(out)


def _header(view: Mapping[str, Any], marks: frozenset[str], before: Mapping[str, Any] | None = None) -> str:
    """Ruleset, round and result as text, and each faction's score as a badge, over the map."""
    def text(x: float, y: float, words: str, path: str, size: int = 15) -> str:
        fill, weight = (MARK, "bold") if is_marked(path, marks) else ("#222", "normal")
        tint = moved_tint(x - 3, y - size, len(words) * size * .55 + 6, size + 5) if changed(before, view, path) \
            else ""
        return tint + (f'<text x="{x}" y="{y}" font-size="{size}" font-family="sans-serif" fill="{fill}" '
                f'font-weight="{weight}"{tagged(path, marks)}>{esc(words)}</text>')

    scores = given if isinstance(given := view.get("scores"), Mapping) else {}
    result = view.get("result", "?")
    out = [text(12, 24, f"Beacon Lines  ruleset {short(view.get('ruleset', '?'), 6)}", "ruleset", 16),
           text(250, 24, f"round {short(view.get('round', '?'), 6)} of 3 (simultaneous claims)", "round"),
           text(250, 50, "result: " + ("(game goes on)" if result is None else short(result)), "result")]
    for i, faction in enumerate(FACTIONS):
        path, x = f"scores.{faction}", 12 + i * 112
        stroke = (f'stroke="{MARK}" stroke-width="3" stroke-dasharray="6 3"' if is_marked(path, marks)
                  else f'stroke="{INK[faction]}"')
        then = before.get("scores") if before is not None else None
        if isinstance(then, Mapping) and then.get(faction) != scores.get(faction):
            out.append(moved_halo(x - 4, 29, 112, 32, 7))
        out.append(f'<g{tagged(path, marks)}><rect x="{x}" y="33" width="104" height="24" rx="5" '
                   f'fill="{TINT[faction]}" {stroke}/><text x="{x + 8}" y="51" font-size="15" font-weight="bold" '
                   f'font-family="sans-serif" fill="{INK[faction]}">'
                   f'{esc(faction.capitalize() + " " + short(scores.get(faction, "?"), 6))}</text></g>')
    return "".join(out)


def draw(view: Mapping[str, Any], marks: frozenset[str], before: Mapping[str, Any] | None = None) -> str:
    """The map with every region's control and markers, the routes between them, and the score line; given
    the position ``before`` the step, what the step changed."""
    notes: list[str] = [] if isinstance(view, Mapping) else [f"view: {short(view, 60)} (not an object)"]
    view = view if isinstance(view, Mapping) else {}
    board = _board()
    rule = board["rulesets"].get(view.get("ruleset")) if isinstance(view.get("ruleset"), str) else None
    if rule:
        notes.append(f"ruleset {view['ruleset']}: {rule['summary']}")
    parts = [f'<rect width="{WIDTH}" height="100%" fill="#fbfaf6"/>', _header(view, marks, before)]
    for a, b in board["edges"]:
        (x1, y1), (x2, y2) = PLACE[a], PLACE[b]
        parts.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#9a9488" stroke-width="3"/>')
    parts.extend(_region(region, view, marks, notes, before) for region in board["regions"])
    for field, known in (("markers", PLACE), ("control", PLACE), ("scores", FACTIONS)):
        value = view.get(field)
        if isinstance(value, Mapping):
            notes.extend(f"{field}.{short(k)}: not expected here" for k in value if k not in known)
        elif field in view:
            notes.append(f"{field}: {short(value)} (not an object)")
    notes.extend(field_notes(view, FIELDS))
    extra, bottom = caption(notes + [f"differs: {m}" for m in sorted(marks)], 476, WIDTH)
    return svg(WIDTH, bottom + 8, "".join(parts) + extra)
