"""A simulate summary as text, JSON (schema: refimpl/schemas/output/simulate.schema.json), CSV and an SVG chart."""

from __future__ import annotations

import math
from collections.abc import Callable

from .summary import ShareRow, Summary, figure_rows, policy_rows, result_rows, seat_rows


def _head(s: Summary) -> list[str]:
    cut = [] if s.interrupted is None else [
        f"INTERRUPTED ({s.interrupted[0]}) after {s.games} of {s.interrupted[1]} games: the figures are of the "
        f"games played", ""]
    given = ",".join(s.policies) + (" rotated through the seats (game i shifts them by i)" if s.rotate else "")
    under = f"{s.game} {s.ruleset}" + (f", profile {s.profile}" if s.profile else "")
    return cut + [f"{under}: {s.games} games, seed {s.seed}, seats {given}"]


def _share_lines(title: str, label: str, rows: list[ShareRow], policy: bool) -> list[str]:
    if not rows:
        return []
    lines = ["", f"{title:10} {label:8} {'games':>7} {'share':>7}   95% CI"]
    for r in rows:
        low, high = r["ci95"]
        extra = (r["policy"] or "(rot.)") if policy else (f"x{r['seats_taken']}" if r["seats_taken"] != 1 else "")
        lines.append(f"{r['name']:10} {extra:8} {r['count']:>7} {r['share']:>7.1%}   {low:.1%} - {high:.1%}")
    return lines


def summary_text(s: Summary) -> str:
    """The summary for people: who won (per seat, and per policy when they rotate), every result, the
    average length and the game's figures, each with its 95% interval."""
    lines = _head(s)
    lines += _share_lines("seat", "policy", seat_rows(s), True)
    lines += _share_lines("policy", "seats", policy_rows(s), False)
    lines += _share_lines("result", "", result_rows(s), False)
    played = max(s.games, 1)
    lines += ["", f"average length: {s.length / played:.1f} actions" if s.games else "average length: -"]
    for f in figure_rows(s):
        low, high = f["ci95"]
        lines.append(f"{f['name']}: {f['mean']:.3f} ({low:.3f} - {high:.3f})  {f['meaning']}")
    if s.record is not None:
        lines.append("record (the game's statistics): " + ", ".join(f"{k} {v}" for k, v in s.record.items()))
    return "\n".join(lines) + "\n"


def summary_json(s: Summary) -> dict[str, object]:
    """The summary for machines: a share as ``{"numerator", "denominator", "probability"}`` with its 95%
    interval [low, high]; ``seats`` and ``per_policy`` are empty for a game whose results name no seat."""
    from ...reports.jsondoc import fraction

    def shares(rows: list[ShareRow], key: str) -> list[dict[str, object]]:
        return [{key: r["name"], "policy": r["policy"], "seats_taken": r["seats_taken"], "count": r["count"],
                 "share": fraction(r["count"], s.games), "ci95": r["ci95"]} for r in rows]

    per_policy = shares(policy_rows(s), "policy")
    for row, policy in zip(per_policy, dict.fromkeys(s.policies) if per_policy else ()):
        row["by_seat"] = [{"seat": seat, "games": s.sat.get((policy, seat), 0), "wins": s.won.get((policy, seat), 0)}
                          for seat in s.seats]  # where the policy sat and won, seat by seat
    out: dict[str, object] = {
        "game": s.game, "ruleset": s.ruleset, "profile": s.profile, "games": s.games, "seed": s.seed,
        "policies": list(s.policies), "rotate": s.rotate, "seats": shares(seat_rows(s), "seat"),
        "per_policy": per_policy, "results": shares(result_rows(s), "result"),
        "average_length": s.length / s.games if s.games else None,
        "figures": [dict(f) for f in figure_rows(s)], "record": s.record}
    if s.interrupted is not None:
        out["interrupted"] = {"signal": s.interrupted[0], "asked": s.interrupted[1]}
    return out


CSV_COLUMNS = ("row", "name", "policy", "seats_taken", "games", "count", "value", "ci95_low", "ci95_high")


def summary_csv(s: Summary) -> str:
    """The summary as CSV: a header, then a row per seat (``row`` seat; its policy empty when they rotate), per
    policy (with rotation), per result and per figure. For a share, ``count`` of ``games`` and ``value`` the
    share; for a figure, ``value`` its mean over the games (``count`` and ``seats_taken`` empty); ``seats_taken``:
    the seats a policy filled each game, so a policy given twice reads as the two seats it is; the run's
    average length is the figure ``length``."""
    import csv
    import io

    buffer = io.StringIO()
    out = csv.writer(buffer, lineterminator="\n")
    out.writerow(CSV_COLUMNS)
    for kind, rows in (("seat", seat_rows(s)), ("policy", policy_rows(s)), ("result", result_rows(s))):
        for r in rows:
            low, high = r["ci95"]
            out.writerow([kind, r["name"], r["policy"] or "", r["seats_taken"], s.games, r["count"],
                          repr(r["share"]), repr(low), repr(high)])
    out.writerow(["figure", "length", "", "", s.games, "", repr(s.length / s.games if s.games else 0.0), "", ""])
    for f in figure_rows(s):
        low, high = f["ci95"]
        out.writerow(["figure", f["name"], "", "", s.games, "", repr(f["mean"]), repr(low), repr(high)])
    return buffer.getvalue()


# A bar of a chart: (its kind, the data attribute it carries: seat, policy or result; its label; its even share,
# or None; its row).
Mark = tuple[str, str, float | None, ShareRow]


def summary_svg(s: Summary) -> str:
    """A chart as a standalone SVG document (``bars_svg``): a bar per seat (and, when the policies rotate, per
    policy), or per result for a game whose results name no seat, each with its even share where it has one (a
    seat: one game in the seats; a policy: the seats it fills over the seats)."""
    n = len(s.seats)
    marks: list[Mark] = [
        ("seat", f"{r['name']}" + (f" ({r['policy']})" if r["policy"] else ""), 1 / n, r) for r in seat_rows(s)]
    marks += [("policy", f"{r['name']}" + (f" x{r['seats_taken']}" if r["seats_taken"] != 1 else "") + " (any seat)",
               r["seats_taken"] / n, r) for r in policy_rows(s)]
    if not marks:
        marks = [("result", r["name"], None, r) for r in result_rows(s)]
    title = f"{s.game} {s.ruleset}: {s.games} games, seed {s.seed}" + (", policies rotated through the seats"
                                                                       if s.rotate else "")
    if s.interrupted is not None:
        title += f" (interrupted after {s.games} of {s.interrupted[1]})"
    what = "share of games won" if marks[0][0] != "result" else "share of games"
    return bars_svg(title, what, marks, s.games, "per policy, whatever seat it sat in")


COLOURS = ("#4878a8", "#d08a2c", "#5a9a5a", "#9a5a9a", "#8a8a3a")


def bars_svg(title: str, what: str, marks: list[Mark], games: int, heading: str = "", cycle: int = 0) -> str:
    """A standalone SVG document: a horizontal bar per mark for its share, a whisker with caps for its 95%
    interval, the figures written at the end, a dashed mark at its even share where it has one, and ``heading``
    over the first bar of another kind than the first, after a gap. Each bar is a ``rect`` of class ``bar`` with
    ``data-KIND`` (seat, policy or result), a ``data-share`` and a ``<title>`` tooltip. Its colour tells the
    kinds apart, or, with ``cycle`` n, bar i takes the (i mod n)-th colour (a what-if's variants)."""
    from xml.sax.saxutils import escape

    from ...reports.safetext import xml_safe

    def text(value: object) -> str:
        return escape(xml_safe(str(value)))

    top = max([float(r["ci95"][1]) for *_, r in marks] + [even or 0.0 for _, _, even, _ in marks])
    scale = min(1.0, math.ceil(top * 10 + 1e-9) / 10) or 0.1  # the axis ends at the next tenth above them all
    left, width, row, pad_top = 170, 420, 34, 64
    gap = 26 if any(kind != marks[0][0] for kind, *_ in marks) else 0
    height = pad_top + row * len(marks) + gap + 56
    x = lambda p: left + width * p / scale  # noqa: E731
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 190}" height="{height}" '
           f'viewBox="0 0 {left + width + 190} {height}" font-family="sans-serif" font-size="13">',
           f"<title>{text(title)}</title>", '<rect width="100%" height="100%" fill="#ffffff"/>',
           f'<text x="{left}" y="24" font-size="15" font-weight="bold">{text(title)}</text>',
           f'<text x="{left}" y="44" fill="#555555">bar: {what}; whisker: 95% Wilson interval'
           + ("; dashed: an even share</text>" if any(m[2] is not None for m in marks) else "</text>")]
    axis_y = pad_top + row * len(marks) + gap + 6
    for k in range(round(scale * 10) + 1):
        p = k / 10
        out.append(f'<line x1="{x(p):.1f}" y1="{pad_top - 6}" x2="{x(p):.1f}" y2="{axis_y}" stroke="#e0e0e0"/>')
        out.append(f'<text x="{x(p):.1f}" y="{axis_y + 16}" text-anchor="middle" fill="#333333">{p:.0%}</text>')
    out.append(f'<line x1="{left}" y1="{axis_y}" x2="{left + width}" y2="{axis_y}" stroke="#333333"/>')
    out.append(f'<text x="{left + width / 2}" y="{axis_y + 36}" text-anchor="middle">{what}</text>')
    for i, mark in enumerate(marks):
        second = mark[0] != marks[0][0]
        y = pad_top + row * i + (gap if second else 0)
        if second and marks[i - 1][0] == marks[0][0] and heading:
            out.append(f'<text x="8" y="{y - 8}" font-weight="bold">{text(heading)}</text>')
        colour = COLOURS[i % cycle % len(COLOURS)] if cycle else COLOURS[int(second)]
        out += _bar(mark, y, row, x, left, width, games, colour)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _bar(mark: Mark, y: float, row: int, x: Callable[[float], float], left: int, width: int, games: int,
         colour: str) -> list[str]:
    """The SVG of one bar: its label, the bar, its even share, its whisker and its figures."""
    from xml.sax.saxutils import escape, quoteattr

    from ...reports.safetext import xml_safe

    kind, label, even, r = mark
    share, (low, high) = float(r["share"]), r["ci95"]
    mid = y + row / 2
    figures = f"{share:.1%} ({low:.1%} - {high:.1%})"
    said = escape(xml_safe(f"{label}: {figures}, {r['count']} of {games} games"))
    out = [f'<text x="{left - 10}" y="{mid + 4:.1f}" text-anchor="end">{escape(xml_safe(label))}</text>',
           f'<rect class="bar" data-{kind}={quoteattr(xml_safe(r["name"]))} data-share="{share!r}" x="{left}" '
           f'y="{y + 7}" width="{max(0.0, x(share) - left):.1f}" height="{row - 14}" '
           f'fill="{colour}"><title>{said}</title></rect>']
    if even is not None:
        out.append(f'<line class="even" x1="{x(even):.1f}" y1="{y + 3}" x2="{x(even):.1f}" y2="{y + row - 3}" '
                   f'stroke="#888888" stroke-dasharray="4 3"/>')
    out.append(f'<g class="ci95" stroke="#111111" stroke-width="1.5">'
               f'<line x1="{x(low):.1f}" y1="{mid:.1f}" x2="{x(high):.1f}" y2="{mid:.1f}"/>'
               f'<line x1="{x(low):.1f}" y1="{mid - 6:.1f}" x2="{x(low):.1f}" y2="{mid + 6:.1f}"/>'
               f'<line x1="{x(high):.1f}" y1="{mid - 6:.1f}" x2="{x(high):.1f}" y2="{mid + 6:.1f}"/></g>')
    out.append(f'<text x="{left + width + 10}" y="{mid + 4:.1f}">{escape(figures)}</text>')
    return out
